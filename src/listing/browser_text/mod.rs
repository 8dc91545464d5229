//! Text copied out of a browser from an arXiv `/list/<cat>/new` page.
//!
//! Two layouts occur, depending on browser and selection:
//!
//! * **Layout A**, one field per line: `[1] arXiv:ID [pdf, …]`, `Title: …`,
//!   an author line, `Comments: …`, `Journal-ref: …`, `Subjects: …`, a blank
//!   line and the abstract.
//! * **Layout B**, where the block elements lost their line breaks: title,
//!   authors, comments, journal-ref and subjects are glued on one line
//!   (`Title: …100k+ GPUsJin Lee, …Comments: …Subjects: …`), an entry header
//!   may be glued to the end of the previous abstract (`… practical. - [5]
//!   arXiv:…`), section headings may come *after* their section, and some
//!   entries show no authors at all.
//!
//! The page is first cut into entries at their headers (section headings,
//! entry totals and page chrome end an entry); each entry's metadata is
//! then read field by field, a label counting only at a line start or glued
//! to the text before it. Whether the page is layout B is decided once for
//! the whole page, so that a layout A title is never cut. The one step that
//! needs judgement is separating a glued title from its author list, done
//! by [`split_title_authors`] with a small grammar of personal names.
//!
//! Nothing here indexes input by a computed byte offset that is not a char
//! boundary, and nothing panics on input: entries that cannot be read are
//! skipped and named in [`Parsed::warnings`] with their line.

mod entry;
mod glued_title;
mod labels;
mod names;
mod page;

use super::text;
use super::{Format, ListingError, Parsed};
use entry::read_entry;
use page::{find_header, page_is_glued, scan_page};

pub use glued_title::split_title_authors;
pub(super) use page::listing_date;

/// Parses listing-page text. Entries that cannot be read are skipped and
/// named in `warnings`; an error is returned only when no entry is usable.
pub fn parse(text: &str, source: &str) -> Result<Parsed, ListingError> {
    let page = scan_page(text);
    if page.entries.is_empty() {
        let line = text.lines().position(|l| !l.trim().is_empty()).map_or(1, |i| i + 1);
        return Err(ListingError::new(
            source,
            Some(line),
            "no listing entries found (expected lines like '[1] arXiv:2507.07114 [pdf, other]')",
        ));
    }

    let glued = page_is_glued(&page.entries);
    let mut parsed = Parsed::new(Format::BrowserText);
    let mut previous_number: Option<u32> = None;
    // Header lines of papers without an abstract: a cut or damaged entry on
    // a page that has abstracts, or every entry on one that has none.
    let mut without_abstract = Vec::new();
    for (i, entry) in page.entries.iter().enumerate() {
        let header = &entry.header;
        if let Some(prev) = previous_number {
            if header.number > prev + 1 {
                parsed.warnings.push(format!(
                    "{source}:{}: entries [{}]-[{}] are missing before [{}] (not in the copied text)",
                    header.line,
                    prev + 1,
                    header.number - 1,
                    header.number
                ));
            }
        }
        previous_number = Some(header.number);

        let where_ = format!("{source}:{}: entry [{}] arXiv:{}", header.line, header.number, header.raw_id);
        match read_entry(entry, glued, source) {
            Ok((mut paper, notes)) => {
                paper.listing_date.clone_from(&page.date);
                if paper.abstract_text.is_empty() {
                    without_abstract.push(where_.clone());
                } else if page.open_end && i + 1 == page.entries.len() && !ends_a_sentence(&paper.abstract_text) {
                    // The store keeps a longer abstract it has, but a paper
                    // seen first on this page would be stored cut.
                    let tail: String = {
                        let chars: Vec<char> = paper.abstract_text.chars().collect();
                        chars[chars.len().saturating_sub(40)..].iter().collect()
                    };
                    parsed.warnings.push(format!(
                        "{where_}: the page ends inside this entry: its abstract stops at …{} (copy the whole page)",
                        text::excerpt(&tail)
                    ));
                }
                parsed.warnings.extend(notes.into_iter().map(|n| format!("{where_}: {n}")));
                parsed.papers.push(paper);
            }
            Err(why) => parsed.skip(format!("{where_}: skipped: {why}")),
        }
    }

    if !parsed.papers.is_empty() && without_abstract.len() == parsed.papers.len() {
        parsed.warnings.push(format!("{source}: no entry shows an abstract (a /recent or /pastweek page?)"));
    } else {
        parsed.warnings.extend(without_abstract.into_iter().map(|w| format!("{w}: no abstract (cut off?)")));
    }

    if parsed.papers.is_empty() {
        let line = page.entries.first().map(|e| e.header.line);
        let detail = parsed.warnings.first().cloned().unwrap_or_default();
        return Err(ListingError::new(
            source,
            line,
            format!("none of the {} listing entries could be read (first problem: {detail})", page.entries.len()),
        ));
    }
    Ok(parsed)
}

/// True when the head of a text looks like a copied listing page: it has an
/// entry header (`[n] arXiv:ID`) or the page's "Showing new listings" line.
/// arXiv mailings also carry `Title:` fields, but in `\\`-separated blocks
/// that start with an `arXiv:ID` line, which a listing page never has (its
/// ids follow a bracketed entry number); a text with both is a mailing, even
/// when an abstract in it cites "[3] arXiv:…".
pub fn looks_like(head: &str) -> bool {
    let mailing = head.lines().any(|l| l.trim() == "\\\\") && head.lines().any(|l| l.starts_with("arXiv:"));
    if mailing {
        return false;
    }
    head.contains("Showing new listings for") || head.lines().any(|l| find_header(l).is_some())
}

/// Whether an abstract ends the way a whole one does: a full stop, `!` or
/// `?` (before closing brackets or quotes), or a link ("Code is at
/// https://…"), which abstracts often end with and which a cut rarely meets.
fn ends_a_sentence(abstract_text: &str) -> bool {
    let t = abstract_text.trim_end();
    let closed = t.trim_end_matches([')', ']', '}', '"', '\'', '”', '’', '*']);
    if closed.ends_with(['.', '!', '?', '。']) {
        return true;
    }
    let last_word = t.rsplit(char::is_whitespace).next().unwrap_or("");
    last_word.contains("://") || last_word.starts_with("www.")
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::paper::Kind;

    const LAYOUT_A: &str = "\
Showing new listings for Monday, 2 March 2026

New submissions (showing 2 of 2 entries)

[1] arXiv:2602.23598 [pdf, html, other]
Title: QoSFlow: Ensuring Service Quality
Md Hasanur Rashid, Jesun Firoz
Comments: to be published
Subjects: Distributed, Parallel, and Cluster Computing (cs.DC); Performance (cs.PF)

First paragraph.
Second   paragraph.

[2] arXiv:2602.23927v2 (cross-list from cs.FL) [pdf, other]
Title: Mixed Choice
Subjects: Formal Languages and Automata Theory (cs.FL)

Abstract two.

Total of 2 entries
  • About
";

    const LAYOUT_B: &str = "\
Showing new listings for Friday, 11 July 2025
- [1] arXiv:2507.07114 [pdf, html, other]
-
Title: Distributed Training under Packet LossSubjects: Distributed, Parallel, and Cluster Computing (cs.DC); Machine Learning (cs.LG)
Abstract one.
Second paragraph. - [2] arXiv:2507.07120 [pdf, html, other]
-
Title: Helix Parallelism for LLM DecodingNidhi Bhatia, Ankit MoreComments: 8 pages, 6 figuresJournal-ref: J. Foo 2025Subjects: Distributed, Parallel, and Cluster Computing (cs.DC)
Abstract two.
New submissions (showing 2 of 2 entries)
- [3] arXiv:2502.08118 (replaced) [pdf, other]
-
Title: Future Resource Bank for ISACSubjects: Networking and Internet Architecture (cs.NI)
Abstract three.
";

    #[test]
    fn reads_layout_a() {
        let parsed = parse(LAYOUT_A, "a.txt").expect("parses");
        assert_eq!(parsed.papers.len(), 2, "{:?}", parsed.warnings);
        let p = &parsed.papers[0];
        assert_eq!(p.title, "QoSFlow: Ensuring Service Quality");
        assert_eq!(p.authors, ["Md Hasanur Rashid", "Jesun Firoz"]);
        assert_eq!(p.comments.as_deref(), Some("to be published"));
        assert_eq!(p.subjects, ["cs.DC", "cs.PF"]);
        assert_eq!(p.primary.as_deref(), Some("cs.DC"));
        assert_eq!(p.abstract_text, "First paragraph.\nSecond paragraph.");
        assert_eq!(p.listing_date.as_deref(), Some("2026-03-02"));
        assert_eq!(p.kind, Kind::New);
        let q = &parsed.papers[1];
        assert_eq!((q.id.as_str(), q.version, q.kind), ("2602.23927", Some(2), Kind::Cross));
        assert!(q.authors.is_empty());
        assert_eq!(q.abstract_text, "Abstract two.");
        assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
    }

    #[test]
    fn reads_layout_b() {
        let parsed = parse(LAYOUT_B, "b.txt").expect("parses");
        assert_eq!(parsed.papers.len(), 3, "{:?}", parsed.warnings);
        let [a, b, c] = &parsed.papers[..] else { unreachable!() };
        assert_eq!(a.title, "Distributed Training under Packet Loss");
        assert!(a.authors.is_empty());
        assert_eq!(a.abstract_text, "Abstract one.\nSecond paragraph.");
        assert_eq!(b.title, "Helix Parallelism for LLM Decoding");
        assert_eq!(b.authors, ["Nidhi Bhatia", "Ankit More"]);
        assert_eq!(b.comments.as_deref(), Some("8 pages, 6 figures"));
        assert_eq!(b.journal_ref.as_deref(), Some("J. Foo 2025"));
        assert_eq!(b.abstract_text, "Abstract two.");
        assert_eq!((c.kind, c.title.as_str()), (Kind::Replaced, "Future Resource Bank for ISAC"));
        assert_eq!(c.subjects, ["cs.NI"]);
        assert_eq!(a.listing_date.as_deref(), Some("2025-07-11"));
        assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
    }

    #[test]
    fn truncated_pages_keep_what_is_there() {
        // Cut inside the second entry's title line: the first entry is
        // whole, the second has a title but nothing else.
        let cut = LAYOUT_B.find("Ankit").expect("marker");
        let parsed = parse(&LAYOUT_B[..cut], "cut.txt").expect("parses");
        assert_eq!(parsed.papers.len(), 2);
        assert_eq!(parsed.papers[1].title, "Helix Parallelism for LLM Decoding");
        assert!(parsed.warnings.iter().any(|w| w.contains("cut.txt:6: entry [2]") && w.contains("Subjects")));

        // Cut right after a header: that entry is skipped and named.
        let cut = LAYOUT_B.find("-\nTitle: Future").expect("marker");
        let parsed = parse(&LAYOUT_B[..cut], "cut.txt").expect("parses");
        assert_eq!(parsed.papers.len(), 2);
        assert!(parsed.warnings.iter().any(|w| w.contains("entry [3] arXiv:2502.08118: skipped")), "{:?}", parsed.warnings);

        // Only a header: nothing usable is an error with a line number.
        let err = parse("- [1] arXiv:2507.07114 [pdf, other]\n-\n", "x.txt").unwrap_err();
        assert_eq!(err.line, Some(1));
    }

    #[test]
    fn entries_missing_subjects_or_ids_are_reported() {
        let text = "[1] arXiv:2602.00001 [pdf]\nTitle: No Subjects Here\nJane Doe\n\nAbstract.\n\
                    [2] arXiv:26.1 [pdf]\nTitle: Bad Id\nSubjects: Performance (cs.PF)\n\nText.\n\
                    [5] arXiv:2602.00005 [pdf]\nTitle: Fine\nSubjects: Performance (cs.PF)\n\nText.\n";
        let parsed = parse(text, "s.txt").expect("parses");
        let titles: Vec<&str> = parsed.papers.iter().map(|p| p.title.as_str()).collect();
        assert_eq!(titles, ["No Subjects Here", "Fine"]);
        assert_eq!(parsed.papers[0].authors, ["Jane Doe"]);
        assert!(parsed.papers[0].subjects.is_empty() && parsed.papers[0].primary.is_none());
        let w = parsed.warnings.join("\n");
        assert!(w.contains("s.txt:1: entry [1] arXiv:2602.00001: no Subjects"), "{w}");
        assert!(w.contains("s.txt:6: entry [2] arXiv:26.1: skipped"), "{w}");
        assert!(w.contains("entries [3]-[4] are missing"), "{w}");
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        for text in [
            "",
            "\n\n",
            "[1] arXiv:aéééé [pdf]\nTitle: Non-ASCII id\nSubjects: Performance (cs.PF)\n",
            "hello world",
            "Title: x\nSubjects: y",
            "[1] arXiv:",
            "[ü] arXiv:é [",
            "Ω\u{0}\u{FFFD}",
        ] {
            assert!(parse(text, "g.txt").is_err(), "{text:?}");
        }
        let err = parse("\n\njust some words\n", "g.txt").unwrap_err();
        assert_eq!(err.line, Some(3));
    }

    #[test]
    fn detects_both_layouts_and_not_mailings() {
        assert!(looks_like(LAYOUT_A));
        assert!(looks_like(LAYOUT_B));
        // Without the page chrome the entry headers are enough.
        let bare = &LAYOUT_B[LAYOUT_B.find("- [1]").expect("header")..];
        assert!(looks_like(bare));
        assert!(looks_like(&LAYOUT_A[LAYOUT_A.find("[1]").expect("header")..]));
        let mailing = "\\\\\narXiv:2306.77777\nDate: Wed, 7 Jun 2023\n\nTitle: Fake\nAuthors: A B\n\\\\\n";
        assert!(!looks_like(mailing));
        assert!(!looks_like("see [3] arXiv:2101.00001 for details, and more text"));
    }

    /// A file of the shared fixtures, which every checkout has at ../shared.
    fn fixture(name: &str) -> String {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures").join(name);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    #[test]
    fn detection_on_shared_fixtures() {
        for name in ["listings/cs.DC-2026-03-02.txt", "listings/cs.DC-2025-07-11.txt", "listings/cs.DC-2026-03-03.txt"] {
            let text = fixture(name);
            assert!(looks_like(&text), "{name}");
            // A selection that starts at the first entry, without chrome.
            let start = text.find("[1] arXiv:").expect("entry");
            assert!(looks_like(&text[start..]), "{name} without chrome");
        }
        for name in [
            "feeds/mailing-new__arxiv-browse__math.AG.txt",
            "feeds/mailing-new__arxiv-browse__q-fin.txt",
            "feeds/mailing-new__arxiv-browse__astro-ph.GA.txt",
            "feeds/listing-pastweek__arxiv-browse__astro-ph.txt",
        ] {
            let text = fixture(name);
            assert!(!looks_like(&text), "{name}");
        }
    }

    #[test]
    fn long_lines_take_linear_time() {
        // Thousands of glued "names": the splitter must not try each cut
        // against the whole line.
        let long = "AbCdEf GhIj, ".repeat(20_000);
        let started = std::time::Instant::now();
        let _ = split_title_authors(&long, "");
        let page = format!("[1] arXiv:2501.00001 [pdf]\nTitle: {long}Subjects: X (cs.DC)\n");
        assert_eq!(parse(&page, "long.txt").expect("parses").papers.len(), 1);
        assert!(started.elapsed() < std::time::Duration::from_secs(20), "{:?}", started.elapsed());
    }

    #[test]
    fn headings_glued_to_a_header_stay_out_of_abstracts() {
        let text = "- [1] arXiv:2507.07114 [pdf]\n-\nTitle: OneSubjects: Performance (cs.PF)\nAbstract one.\n\
                    New submissions (showing 1 of 1 entries) - [2] arXiv:2507.07115 [pdf]\n-\n\
                    Title: TwoSubjects: Performance (cs.PF)\nAbstract two.\n";
        let parsed = parse(text, "h.txt").expect("parses");
        let abstracts: Vec<&str> = parsed.papers.iter().map(|p| p.abstract_text.as_str()).collect();
        assert_eq!(abstracts, ["Abstract one.", "Abstract two."]);
    }

    #[test]
    fn pages_without_abstracts_get_one_warning() {
        let text = "[1] arXiv:2501.00001 [pdf]\nTitle: One\nSubjects: Performance (cs.PF)\n\
                    [2] arXiv:2501.00002 [pdf]\nTitle: Two\nSubjects: Performance (cs.PF)\n";
        let parsed = parse(text, "r.txt").expect("parses");
        assert_eq!(parsed.papers.len(), 2);
        assert_eq!(parsed.warnings.len(), 1, "{:?}", parsed.warnings);
        assert!(parsed.warnings[0].contains("no entry shows an abstract"));
    }

    /// Every prefix (by char) of a real layout B page parses without
    /// panicking, and never yields more papers than entries started.
    #[test]
    fn every_prefix_of_a_page_is_safe() {
        let text = fixture("listings/cs.DC-2025-07-11.txt");
        let ends: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
        std::thread::scope(|scope| {
            for part in 0..2 {
                let (ends, text) = (&ends, &text);
                scope.spawn(move || {
                    for &end in ends.iter().skip(part).step_by(2) {
                        let prefix = &text[..end];
                        if let Ok(parsed) = parse(prefix, "p.txt") {
                            let headers = prefix.matches("arXiv:").count();
                            assert!(parsed.papers.len() <= headers, "prefix {end}");
                        }
                    }
                });
            }
        });
    }
}
