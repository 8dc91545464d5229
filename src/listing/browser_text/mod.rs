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

use super::text;
use super::{Format, ListingError, Parsed};
use crate::paper::{ArxivId, Kind, Paper};
use regex::Regex;
use std::sync::OnceLock;

/// Parses listing-page text. Entries that cannot be read are skipped and
/// named in `warnings`; an error is returned only when no entry is usable.
pub fn parse(text: &str, source: &str) -> Result<Parsed, ListingError> {
    let page = scan_page(text);
    if page.entries.is_empty() {
        let line = text
            .lines()
            .position(|l| !l.trim().is_empty())
            .map_or(1, |i| i + 1);
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

        let where_ = format!(
            "{source}:{}: entry [{}] arXiv:{}",
            header.line, header.number, header.raw_id
        );
        match read_entry(entry, glued, source) {
            Ok((mut paper, notes)) => {
                paper.listing_date.clone_from(&page.date);
                if paper.abstract_text.is_empty() {
                    without_abstract.push(where_.clone());
                } else if page.open_end
                    && i + 1 == page.entries.len()
                    && !ends_a_sentence(&paper.abstract_text)
                {
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
                parsed
                    .warnings
                    .extend(notes.into_iter().map(|n| format!("{where_}: {n}")));
                parsed.papers.push(paper);
            }
            Err(why) => parsed.skip(format!("{where_}: skipped: {why}")),
        }
    }

    if !parsed.papers.is_empty() && without_abstract.len() == parsed.papers.len() {
        parsed.warnings.push(format!(
            "{source}: no entry shows an abstract (a /recent or /pastweek page?)"
        ));
    } else {
        parsed.warnings.extend(
            without_abstract
                .into_iter()
                .map(|w| format!("{w}: no abstract (cut off?)")),
        );
    }

    if parsed.papers.is_empty() {
        let line = page.entries.first().map(|e| e.header.line);
        let detail = parsed.warnings.first().cloned().unwrap_or_default();
        return Err(ListingError::new(
            source,
            line,
            format!(
                "none of the {} listing entries could be read (first problem: {detail})",
                page.entries.len()
            ),
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
    let mailing =
        head.lines().any(|l| l.trim() == "\\\\") && head.lines().any(|l| l.starts_with("arXiv:"));
    if mailing {
        return false;
    }
    head.contains("Showing new listings for") || head.lines().any(|l| find_header(l).is_some())
}

// ---------------------------------------------------------------------------
// Page structure: entries, headings, page furniture.

/// One line of the input with its 1-based number, for warnings.
#[derive(Debug, Clone, Copy)]
struct Line<'a> {
    no: usize,
    text: &'a str,
}

/// What an entry header (`[5] arXiv:2507.07130 (replaced) [pdf, other]`) says.
#[derive(Debug, Clone)]
struct Header {
    number: u32,
    raw_id: String,
    kind: Kind,
    line: usize,
}

/// An entry's header and the lines up to the next header or heading.
#[derive(Debug)]
struct RawEntry<'a> {
    header: Header,
    body: Vec<Line<'a>>,
}

#[derive(Debug)]
struct Page<'a> {
    date: Option<String>,
    entries: Vec<RawEntry<'a>>,
    /// No heading, entry total or page chrome follows the last entry: the
    /// copied text may stop inside it.
    open_end: bool,
}

fn header_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        // Anchored at the line end: in layout B a header can be glued to the
        // end of the previous abstract, never followed by more text.
        Regex::new(
            r"(?:^|\s)(?:[-–•*]\s*)?\[([0-9]{1,6})\]\s*arXiv:\s*([^\s\[\]()]+)\s*(?:\((cross-list from [^()]*|replaced)\))?\s*(\[[^\[\]]*\])?\s*$",
        )
        .expect("static regex")
    })
}

/// Finds an entry header in a line; returns the text before it (the tail of
/// the previous abstract when glued) and the header fields.
fn find_header(line: &str) -> Option<(&str, u32, &str, Kind)> {
    let caps = header_regex().captures(line)?;
    let whole = caps.get(0)?;
    let before = line[..whole.start()].trim_end();
    // Mid-line, "[3] arXiv:…" could be a citation closing an abstract line;
    // a real glued header always carries its link list "[pdf, html, other]".
    if !before.is_empty() && caps.get(4).is_none() {
        return None;
    }
    let number = caps.get(1)?.as_str().parse().ok()?;
    let id = caps.get(2)?.as_str();
    let kind = match caps.get(3).map(|m| m.as_str()) {
        Some(k) if k.starts_with("cross-list") => Kind::Cross,
        Some(_) => Kind::Replaced,
        None => Kind::New,
    };
    Some((before, number, id, kind))
}

const SECTION_NAMES: &str =
    r"(?:New submissions|Cross submissions|Cross-lists|Replacement submissions|Replacements)";

/// A section heading on its own line, in the current ("New submissions
/// (showing 6 of 6 entries)") or the older ("Cross-lists for Fri, 11 Jul
/// 25") wording.
fn is_section_heading(line: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(&format!(
            r"^{SECTION_NAMES}(?:\s*\(showing [^()]*\)|\s+for\s+.{{0,40}})?$"
        ))
        .expect("static regex")
    });
    re.is_match(line.trim())
}

/// A heading or entry count glued to the end of an abstract line; returns
/// the line without it.
fn strip_glued_heading(line: &str) -> Option<&str> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(&format!(
            r"\S\s*({SECTION_NAMES}\s*\(showing \d+ of \d+ entries\)|Total of \d+ entries)\s*$"
        ))
        .expect("static regex")
    });
    let caps = re.captures(line)?;
    Some(&line[..caps.get(1)?.start()])
}

/// Page furniture that ends the entry before it: section headings, entry
/// totals, the date line and the bulleted link lists of the page chrome.
fn is_terminator(line: &str) -> bool {
    let t = line.trim();
    is_section_heading(t)
        || t.starts_with('•')
        || t.starts_with("Showing new listings for")
        || t.starts_with("Showing up to ")
        || (t.starts_with("Total of ") && t.ends_with("entries"))
}

/// The listing date from "Showing new listings for Monday, 2 March 2026"
/// (or the older "New submissions for Fri, 11 Jul 25"), as YYYY-MM-DD.
pub(super) fn listing_date(text: &str) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"(?:Showing new listings|New submissions) for\s+(?:[A-Za-z]+,?\s+)?(\d{1,2})\s+([A-Za-z]{3,9})\s+(\d{2}|\d{4})\b")
            .expect("static regex")
    });
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let caps = re.captures(text)?;
    let day: u32 = caps.get(1)?.as_str().parse().ok()?;
    let month_name = caps.get(2)?.as_str().to_ascii_lowercase();
    let month = MONTHS.iter().position(|m| month_name.starts_with(m))? as u32 + 1;
    let year_text = caps.get(3)?.as_str();
    let mut year: i32 = year_text.parse().ok()?;
    if year_text.len() == 2 {
        year += 2000;
    }
    let date = chrono::NaiveDate::from_ymd_opt(year, month, day)?;
    Some(date.format("%Y-%m-%d").to_string())
}

/// Cuts the page into entries. An entry runs from its header to the next
/// header or piece of page furniture; text outside entries is chrome.
fn scan_page(text: &str) -> Page<'_> {
    let mut entries = Vec::new();
    let mut current: Option<RawEntry> = None;
    for (idx, raw) in text.lines().enumerate() {
        let no = idx + 1;
        if let Some((before, number, id, kind)) = find_header(raw) {
            if let Some(mut entry) = current.take() {
                // The tail of the previous abstract, unless it is a heading
                // glued to this header.
                let before = strip_glued_heading(before).unwrap_or(before);
                if !before.is_empty() && !is_terminator(before) {
                    entry.body.push(Line { no, text: before });
                }
                entries.push(entry);
            }
            let header = Header {
                number,
                raw_id: id.to_string(),
                kind,
                line: no,
            };
            current = Some(RawEntry {
                header,
                body: Vec::new(),
            });
            continue;
        }
        if is_terminator(raw) {
            entries.extend(current.take());
            continue;
        }
        match strip_glued_heading(raw) {
            Some(rest) => {
                if let Some(mut entry) = current.take() {
                    entry.body.push(Line { no, text: rest });
                    entries.push(entry);
                }
            }
            None => {
                if let Some(entry) = current.as_mut() {
                    entry.body.push(Line { no, text: raw });
                }
            }
        }
    }
    let open_end = current.is_some();
    entries.extend(current);
    Page {
        date: listing_date(text),
        entries,
        open_end,
    }
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

/// Lines that carry nothing: blanks and the lone "-" that layout B puts
/// after each header.
fn is_filler(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t == "-" || t == "–"
}

/// Decides the page's layout from its entries: layout B shows the fields
/// glued to the title line, layout A puts them on the lines below. The
/// title/author splitter only runs on glued pages, so that a layout A
/// title is never cut.
fn page_is_glued(entries: &[RawEntry]) -> bool {
    let (mut glued, mut separate) = (0usize, 0usize);
    for entry in entries {
        let mut lines = entry.body.iter().filter(|l| !is_filler(l.text));
        let Some(first) = lines.next() else { continue };
        let (_, fields) = label_segments(first.text, Label::Title);
        if fields.iter().any(|(label, _)| *label != Label::Title) {
            glued += 1;
            continue;
        }
        let next: Vec<&str> = lines.take(2).map(|l| l.text.trim()).collect();
        if next.iter().any(|t| starts_with_label(t)) {
            separate += 1;
        }
    }
    glued >= separate
}

// ---------------------------------------------------------------------------
// Fields of one entry.

/// The field labels of a listing entry, in the order arXiv prints them;
/// a label is only taken as such when it comes after the previous one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Label {
    Title,
    Authors,
    Comments,
    JournalRef,
    ReportNumber,
    MscClass,
    AcmClass,
    Subjects,
}

const LABELS: [(Label, &str); 8] = [
    (Label::Title, "Title:"),
    (Label::Authors, "Authors:"),
    (Label::Comments, "Comments:"),
    (Label::JournalRef, "Journal-ref:"),
    (Label::ReportNumber, "Report-number:"),
    (Label::MscClass, "MSC-class:"),
    (Label::AcmClass, "ACM-class:"),
    (Label::Subjects, "Subjects:"),
];

fn starts_with_label(line: &str) -> bool {
    LABELS.iter().any(|(_, name)| line.starts_with(name))
}

/// Whether a label found at byte `pos` of `line` really starts a field.
/// At the line start it does. Mid-line it must be glued to the text before
/// (layout B: "…SoCComments: …"), so that a title such as "Reviewer
/// Comments: a Study" is left alone; a spaced "Subjects:" is accepted only
/// when a real subject list ("Name (cs.XX)") follows.
fn label_starts_field(line: &str, pos: usize, label: Label, name: &str) -> bool {
    let before = &line[..pos];
    let Some(prev) = before.chars().next_back() else {
        return true;
    };
    if before.trim().is_empty() {
        return true;
    }
    if label == Label::Title {
        return false;
    }
    if !prev.is_whitespace() {
        return !matches!(prev, '(' | '[' | '{' | '"' | '\'' | '“' | '‘');
    }
    label == Label::Subjects && starts_with_subject(&line[pos + name.len()..])
}

fn starts_with_subject(s: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"^\s*[^():;]{1,80}\s\([a-z][a-z-]*(?:\.[A-Za-z][A-Za-z-]*)?\)")
            .expect("static regex")
    });
    re.is_match(s)
}

/// Splits one line into the text before its first label and the labelled
/// fields that follow, accepting only labels later than `after` (and later
/// than each other). Returns the unlabelled lead and the fields.
fn label_segments(line: &str, after: Label) -> (&str, Vec<(Label, &str)>) {
    let mut found: Vec<(usize, Label, usize)> = Vec::new();
    for (label, name) in LABELS {
        for (pos, _) in line.match_indices(name) {
            if label_starts_field(line, pos, label, name) {
                found.push((pos, label, name.len()));
            }
        }
    }
    found.sort_by_key(|&(pos, _, _)| pos);

    // Keep a monotonic sequence of labels: a "Comments:" inside the
    // comments, or a label out of arXiv's order, stays part of the text.
    let mut kept: Vec<(usize, Label, usize)> = Vec::new();
    let mut last = after;
    for (pos, label, len) in found {
        let first_title =
            label == Label::Title && kept.is_empty() && pos == 0 && last == Label::Title;
        if label > last || first_title {
            if kept.last().is_some_and(|&(p, _, l)| pos < p + l) {
                continue;
            }
            kept.push((pos, label, len));
            last = label;
        }
    }

    let lead_end = kept.first().map_or(line.len(), |&(pos, _, _)| pos);
    let mut fields = Vec::with_capacity(kept.len());
    for (i, &(pos, label, len)) in kept.iter().enumerate() {
        let end = kept.get(i + 1).map_or(line.len(), |&(next, _, _)| next);
        fields.push((label, &line[pos + len..end]));
    }
    (&line[..lead_end], fields)
}

/// The metadata of one entry as found on the page, before interpretation.
#[derive(Debug, Default)]
struct RawFields {
    title: Option<String>,
    title_line: usize,
    /// Layout A's unlabelled author line.
    author_line: Option<String>,
    authors: Option<String>,
    comments: Option<String>,
    journal_ref: Option<String>,
    subjects: Option<String>,
    abstract_lines: Vec<String>,
}

impl RawFields {
    fn set(&mut self, label: Label, value: &str) {
        let slot = match label {
            Label::Title => &mut self.title,
            Label::Authors => &mut self.authors,
            Label::Comments => &mut self.comments,
            Label::JournalRef => &mut self.journal_ref,
            Label::Subjects => &mut self.subjects,
            // Listing pages do not show these; their text is dropped
            // rather than leaking into a neighbouring field.
            Label::ReportNumber | Label::MscClass | Label::AcmClass => return,
        };
        match slot {
            Some(existing) => {
                existing.push(' ');
                existing.push_str(value);
            }
            None => *slot = Some(value.to_string()),
        }
    }
}

/// Collects an entry's fields: the title line, the lines of layout A that
/// start with a label (and its author line), then the abstract.
fn collect_fields(body: &[Line], glued_page: bool) -> Option<RawFields> {
    let start = body.iter().position(|l| !is_filler(l.text))?;
    let first = body[start];
    let mut fields = RawFields {
        title_line: first.no,
        ..RawFields::default()
    };

    let (lead, segments) = label_segments(first.text, Label::Title);
    if !lead.trim().is_empty() {
        // A title line whose "Title:" label was not copied.
        fields.set(Label::Title, lead);
    }
    let mut last = Label::Title;
    for (label, value) in segments {
        fields.set(label, value);
        last = label;
    }

    let rest = &body[start + 1..];
    let mut i = 0;
    while i < rest.len() && last != Label::Subjects {
        let line = rest[i].text.trim();
        if line.is_empty() {
            break;
        }
        if starts_with_label(line) {
            let (_, segments) = label_segments(line, last);
            if segments.is_empty() {
                break;
            }
            for (label, value) in segments {
                fields.set(label, value);
                last = label;
            }
        } else if i == 0 && !glued_page && last == Label::Title && is_author_line(line, rest.get(1))
        {
            fields.author_line = Some(line.to_string());
        } else {
            break;
        }
        i += 1;
    }

    fields.abstract_lines = rest[i..]
        .iter()
        .filter(|l| !is_filler(l.text))
        .map(|l| l.text.to_string())
        .collect();
    Some(fields)
}

/// Layout A's line after the title is the author list when the fields
/// follow it, or when it reads as a list of names (a truncated page).
fn is_author_line(line: &str, next: Option<&Line>) -> bool {
    next.is_some_and(|n| starts_with_label(n.text.trim()))
        || names::parse_list(line, None).is_some()
}

/// Category codes of a Subjects field, primary first, and any text glued
/// after the last code (the start of an abstract in a damaged copy).
fn parse_subjects(s: &str) -> (Vec<String>, &str) {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"\(([a-z][a-z-]*(?:\.[A-Za-z][A-Za-z-]*)?)\)").expect("static regex")
    });
    let mut codes: Vec<String> = Vec::new();
    let mut end = 0;
    for caps in re.captures_iter(s) {
        let (Some(whole), Some(code)) = (caps.get(0), caps.get(1)) else {
            continue;
        };
        if !codes.iter().any(|c| c == code.as_str()) {
            codes.push(code.as_str().to_string());
        }
        end = whole.end();
    }
    let rest = s[end..].trim_start_matches([';', ' ']).trim();
    let rest = if codes.is_empty() { "" } else { rest };
    (codes, rest)
}

/// Splits an author line shown as such (layout A, or an `Authors:` field)
/// at its commas and "and"s.
fn split_author_line(s: &str) -> Vec<String> {
    names::split_items(s)
        .into_iter()
        .map(text::inline)
        .filter(|n| !n.is_empty())
        .collect()
}

/// Reads one entry into a paper; the `Err` says why it was skipped, and the
/// notes list what was missing from a paper still returned.
fn read_entry(
    entry: &RawEntry,
    glued_page: bool,
    source: &str,
) -> Result<(Paper, Vec<String>), String> {
    let header = &entry.header;
    // `ArxivId::parse` slices by byte: only ASCII may reach it.
    let id = Some(&header.raw_id)
        .filter(|raw| raw.is_ascii())
        .and_then(|raw| ArxivId::parse(raw))
        .ok_or_else(|| format!("'{}' is not an arXiv identifier", header.raw_id))?;
    let mut fields =
        collect_fields(&entry.body, glued_page).ok_or("no title (the copied text ends here?)")?;
    let mut notes = Vec::new();

    let mut paper = Paper::new(id, header.kind, source);
    match fields.subjects.as_deref() {
        Some(raw) => {
            let (codes, rest) = parse_subjects(raw);
            if codes.is_empty() {
                notes.push(format!(
                    "line {}: no category codes in Subjects (cut off?)",
                    fields.title_line
                ));
            }
            if !rest.is_empty() {
                fields.abstract_lines.insert(0, rest.to_string());
            }
            paper.set_subjects(codes);
        }
        None => notes.push("no Subjects field (cut off?)".to_string()),
    }
    paper.abstract_text = text::lines(&fields.abstract_lines.join("\n"));
    paper.comments = fields
        .comments
        .as_deref()
        .map(text::inline)
        .filter(|s| !s.is_empty());
    paper.journal_ref = fields
        .journal_ref
        .as_deref()
        .map(text::inline)
        .filter(|s| !s.is_empty());

    let title_raw = fields.title.as_deref().unwrap_or_default();
    let shown_authors = fields.authors.as_deref().or(fields.author_line.as_deref());
    let (title, authors) = match shown_authors {
        Some(line) => (text::inline(title_raw), split_author_line(line)),
        None if glued_page => {
            let context = format!(
                "{} {}",
                paper.abstract_text,
                paper.comments.as_deref().unwrap_or_default()
            );
            split_title_authors(title_raw, &context)
        }
        None => (text::inline(title_raw), Vec::new()),
    };
    if title.is_empty() {
        return Err("no title".to_string());
    }
    paper.title = title;
    paper.authors = authors;
    Ok((paper, notes))
}

// ---------------------------------------------------------------------------
// Separating a glued title from its authors (layout B).

/// Splits layout B's "title immediately followed by authors" text, e.g.
/// `…with 100k+ GPUsJin Lee, Zhonghao Chen` → ("…with 100k+ GPUs", ["Jin
/// Lee", "Zhonghao Chen"]). Entries without authors come back with an
/// empty list.
///
/// The boundary is where a non-space character is directly followed by the
/// first letter of a name. Every such position is a candidate; one is
/// admissible when
/// * the left side can end a title ([`title_can_end`]): no dangling hyphen,
///   bracket or `$…$`, no acronym or "3D" cut in two;
/// * the right side parses as a list of personal names
///   ([`names::parse_list`]) that is convincing on its own: not a lone
///   one-word "name", not mostly odd names, no all-caps word first;
/// * the word straddling the cut does not occur in `context` (the
///   abstract): "PyTorch Lightning" in a title without authors would
///   otherwise read as "Py" + an author, but the abstract says "PyTorch",
///   and a real title/name concatenation ("GPUsJin") never occurs there.
///
/// Among admissible candidates the one with the lowest cost wins, the
/// leftmost on ties. The cost counts what the reading asks us to believe:
/// unusual name tokens on the right (lowercase "zhang", camel-case
/// "SungHo", all caps, a bare capital first), names left on the title
/// side ("…Jin Lee, Min|Hyuk Jang" leaves "Jin Lee" there), and a title
/// whose last word the abstract never uses ("…ModelsSung|Ho Kim"). The
/// leftmost preference is what makes the split reliable: a candidate left
/// of the true boundary must read the glued boundary token ("GPUsJin",
/// "MassesMichael", "HPCJohn") as part of a name, which the grammar
/// refuses or charges for.
pub fn split_title_authors(glued: &str, context: &str) -> (String, Vec<String>) {
    let glued = glued.trim();
    let lower_context = context.to_lowercase();
    let mut best: Option<(usize, usize, Vec<String>)> = None;
    // Bounds that keep a pathological line from costing quadratic time: a
    // title is never this long, and a cut more than two names past the
    // first admissible one leaves names in the title and cannot win.
    let mut reach = MAX_TITLE_BYTES;
    let mut prev: Option<char> = None;
    for (pos, c) in glued.char_indices() {
        if pos > reach {
            break;
        }
        let Some(p) = prev.replace(c) else { continue };
        if !is_split_candidate(p, c) {
            continue;
        }
        let (title, authors) = glued.split_at(pos);
        if !title_can_end(title, authors) {
            continue;
        }
        // The first few names decide; only a promising cut pays for
        // reading a list of thousands.
        let promising =
            names::parse_list(authors, Some(names::FIRST_NAMES)).is_some_and(|l| l.is_convincing());
        if !promising || glued_word_in_context(glued, pos, context) {
            continue;
        }
        let Some(list) = names::parse_list(authors, None).filter(names::List::is_convincing) else {
            continue;
        };
        if best.is_none() {
            let two_names = glued[pos..].match_indices(',').nth(1).map(|(i, _)| i);
            reach = pos
                + two_names
                    .unwrap_or(usize::MAX)
                    .min(2 * names::MAX_NAME_BYTES);
        }
        let cost = list.odd_tokens
            + names::trailing_names(title)
            + usize::from(title_end_unattested(title, &lower_context));
        if best
            .as_ref()
            .is_none_or(|(best_cost, _, _)| cost < *best_cost)
        {
            best = Some((cost, pos, list.names));
            if cost == 0 {
                break;
            }
        }
    }
    match best {
        Some((_, pos, authors)) => (text::inline(&glued[..pos]), authors),
        None => (text::inline(glued), Vec::new()),
    }
}

/// Whether the title's last word, as this cut leaves it, is one the
/// abstract never uses (compared in lowercase). Where a glued token can be
/// cut in more than one place this tells the title word from the name:
/// "ModelsSungHo Kim" is "Models" + "SungHo" (the abstract says "models",
/// never "modelssung"), "ViTsYuchuan Tian" is "ViTs" + "Yuchuan" (it says
/// "ViTs", never "vi").
fn title_end_unattested(title: &str, lower_context: &str) -> bool {
    let word = title.rsplit(char::is_whitespace).next().unwrap_or(title);
    let word = word.rsplit(['-', '/']).next().unwrap_or(word);
    let word = word
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    !word.is_empty() && !occurs_as_word(&word, lower_context)
}

/// Where the search for the end of a glued title gives up.
const MAX_TITLE_BYTES: usize = 1500;

/// A name starts with a capital glued to the title's last character, or
/// with a lowercase particle ("de la Fontaine") glued after a title ending
/// in closing punctuation.
fn is_split_candidate(prev: char, c: char) -> bool {
    if prev.is_whitespace() {
        return false;
    }
    c.is_uppercase()
        || (c.is_lowercase() && matches!(prev, ')' | '?' | '!' | '"' | '”' | '’' | ']'))
}

/// Characters a title does not end with: a hyphen or an opening bracket
/// means the cut is inside a word or a group.
const NOT_TITLE_ENDS: [char; 19] = [
    '-', '‐', '–', '—', '/', '\\', ',', ':', ';', '(', '[', '{', '&', '=', '_', '^', '|', '~', '@',
];

/// Whether `title` (with `authors` glued after it) can be a complete title.
fn title_can_end(title: &str, authors: &str) -> bool {
    let Some(last) = title.chars().next_back() else {
        return false;
    };
    if NOT_TITLE_ENDS.contains(&last) || title.chars().filter(|c| c.is_alphanumeric()).count() < 2 {
        return false;
    }
    if !brackets_balanced(title) || !title.matches('$').count().is_multiple_of(2) {
        return false;
    }
    let fragment = title.rsplit(char::is_whitespace).next().unwrap_or(title);
    // "iCloud", "eBPF", "vLLM", "mRNA": a lone small letter glued to a
    // capital is one word, not a title end ("…how to dilute it" is one).
    if fragment.chars().count() == 1 && fragment.chars().all(char::is_lowercase) {
        return false;
    }
    // "McKinsey", "MacArthur", "O'Brien": the fragment is a name prefix.
    if names::CAMEL_PREFIXES.contains(&fragment) || fragment.ends_with(['\'', '’']) {
        return false;
    }
    // A title does not end in "the", "of", "via"…
    if names::is_function_word(fragment) {
        return false;
    }
    let mut next = authors.chars();
    let (a, b, c) = (next.next(), next.next(), next.next());
    let name_follows = b == Some('.') || b.is_some_and(char::is_lowercase);
    // "U.|S. Regions": the cut is inside dotted initials.
    if b == Some('.') && ends_with_dotted_capital(fragment) {
        return false;
    }
    // A bare capital after a digit or a short word piece is the end of
    // "3D", "CoT", "MoE", "IoT" ("3|D Reconstruction", "Co|T Reasoning"),
    // not the initial of an author ("…LearningM Rita Verdelho").
    if a.is_some_and(char::is_uppercase) && !name_follows {
        let piece = fragment
            .chars()
            .rev()
            .take_while(|c| c.is_alphabetic())
            .count();
        if last.is_numeric() || piece < 3 {
            return false;
        }
    }
    // Cutting inside a run of capitals is only credible when a name word
    // or a dotted initial follows ("HPC|John", "HPC|J. Smith"); "OpenB|MC
    // Environments" and "MuMM|I Experience" are acronyms cut in two, and
    // "LL|Ms" is the plural of one.
    if last.is_uppercase() && a.is_some_and(char::is_uppercase) {
        let plural = b == Some('s') && !c.is_some_and(char::is_alphabetic);
        if !name_follows || plural {
            return false;
        }
    }
    true
}

/// "U." or "U.S.": a fragment ending in a capital and a dot, with nothing
/// but dotted capitals before.
fn ends_with_dotted_capital(fragment: &str) -> bool {
    let mut chars = fragment.chars().rev();
    chars.next() == Some('.')
        && chars.next().is_some_and(char::is_uppercase)
        && chars
            .next()
            .is_none_or(|c| c == '.' || !c.is_alphanumeric())
}

fn brackets_balanced(s: &str) -> bool {
    let mut depth: [i32; 3] = [0; 3];
    for c in s.chars() {
        let (slot, step) = match c {
            '(' => (0, 1),
            ')' => (0, -1),
            '[' => (1, 1),
            ']' => (1, -1),
            '{' => (2, 1),
            '}' => (2, -1),
            _ => continue,
        };
        depth[slot] += step;
        if depth[slot] < 0 {
            return false;
        }
    }
    depth == [0; 3]
}

/// Whether the whitespace-delimited word of `glued` that straddles `pos`
/// ("PyTorch" for a cut at "Py|Torch") appears as a word in `context`.
fn glued_word_in_context(glued: &str, pos: usize, context: &str) -> bool {
    // Whitespace can be wider than a byte (a no-break space).
    let start = glued[..pos]
        .char_indices()
        .rev()
        .find(|&(_, c)| c.is_whitespace())
        .map_or(0, |(i, c)| i + c.len_utf8());
    let end = glued[pos..]
        .find(|c: char| c.is_whitespace() || c == ',')
        .map_or(glued.len(), |i| pos + i);
    let word = glued[start..end].trim_matches(|c: char| !c.is_alphanumeric());
    // "ImageNet-Trained": the abstract may have only the part around the cut.
    let cut = pos.saturating_sub(start);
    let part_start = glued[start..pos].rfind(['-', '/']).map_or(0, |i| i + 1);
    let part_end = glued[pos..end]
        .find(['-', '/'])
        .map_or(end - start, |i| cut + i);
    let part = glued[start..end]
        .get(part_start..part_end)
        .map_or(word, |p| p.trim_matches(|c: char| !c.is_alphanumeric()));
    // Short words ("Py", "Co") occur by chance.
    [word, part]
        .iter()
        .any(|w| w.chars().count() >= 4 && occurs_as_word(w, context))
}

fn occurs_as_word(word: &str, context: &str) -> bool {
    context.match_indices(word).any(|(at, _)| {
        let before = context[..at].chars().next_back();
        let after = context[at + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// A grammar of personal names as arXiv shows them: capitalised words with
/// accents, hyphens and apostrophes, initials, particles and suffixes, plus
/// the odd forms real metadata has (lowercase "zhang", camel-case
/// "MinHyuk", all-caps "ZHANG"), which are accepted but counted.
mod names {
    /// Prefixes after which a name has a second capital (McDonald, LeCun).
    pub(super) const CAMEL_PREFIXES: [&str; 17] = [
        "Mc", "Mac", "Fitz", "De", "Di", "Da", "Du", "Le", "La", "Van", "Von", "Ten", "Ter", "St",
        "Dal", "Del", "Della",
    ];

    /// Lowercase words that occur inside names.
    const PARTICLES: [&str; 35] = [
        "van", "von", "der", "den", "de", "del", "della", "delle", "dei", "degli", "di", "da",
        "das", "dos", "do", "du", "la", "le", "lo", "los", "las", "el", "al", "bin", "binti",
        "bint", "ibn", "ben", "ter", "ten", "te", "zu", "y", "i", "e",
    ];

    const SUFFIXES: [&str; 9] = ["Jr", "Jr.", "Sr", "Sr.", "II", "III", "IV", "2nd", "3rd"];

    /// Function words, lowercase or capitalised: they carry title phrases
    /// ("…For Time Series", "…with Minimum Batch Size") and are nobody's
    /// name. The first [`TITLE_END_WORDS`] of them cannot end a title
    /// (prepositions can: "…Where It Comes From").
    const NOT_NAMES: [&str; 45] = [
        "the", "a", "an", "and", "or", "of", "via", "for", "with", "from", "to", "in", "on", "by",
        "at", "into", "using", "towards", "toward", "through", "without", "beyond", "between",
        "across", "against", "versus", "is", "are", "how", "what", "why", "when", "where", "which",
        "does", "should", "not", "its", "their", "our", "this", "that", "these", "those", "based",
    ];
    const TITLE_END_WORDS: usize = 7;

    /// Capitalised forms of [`NOT_NAMES`] that are also real names ("An
    /// Wang", "In Kim", "To Nguyen", "Or Patashnik", "A Smith").
    const ALSO_NAMES: [&str; 8] = ["A", "An", "On", "In", "To", "By", "At", "Or"];

    /// Whether `word` is a function word in lowercase or capitalised form
    /// (not all caps: "VS" is somebody's initials).
    fn in_word_list(list: &[&str], word: &str) -> bool {
        let mut chars = word.chars();
        let Some(first) = chars.next() else {
            return false;
        };
        let lower = word.to_lowercase();
        let capitalised_or_lower =
            chars.all(char::is_lowercase) && (first.is_lowercase() || first.is_uppercase());
        capitalised_or_lower && list.contains(&lower.as_str())
    }

    /// A preposition, article or conjunction, which never ends a title.
    pub(super) fn is_function_word(word: &str) -> bool {
        in_word_list(&NOT_NAMES[..TITLE_END_WORDS], word)
    }

    /// Endings of English nouns and adjectives that no name has; used to
    /// doubt a lone "name" such as "Torch Applications".
    const NOUN_ENDINGS: [&str; 26] = [
        "tion", "tions", "sion", "sions", "ment", "ments", "ness", "ity", "ities", "ogy", "ics",
        "ism", "isms", "ware", "ture", "tures", "ysis", "yses", "able", "ible", "ical", "ized",
        "ised", "ency", "works", "ators",
    ];

    /// Longer than any one person's name.
    pub(super) const MAX_NAME_BYTES: usize = 100;

    /// Footnote marks some submitters leave on names ("Yi-Fan Zhang†"), and
    /// the stray apostrophe of "Niccolo'".
    const MARKS: [char; 8] = ['†', '‡', '*', '§', '¶', '#', '\'', '’'];

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Tok {
        /// Capitalised word: Smith, Grímsson, Wan-Lu, O'Brien, McDonald.
        Word,
        /// Dotted initials or abbreviations: J., J.R.R., J.-P., Ll.
        Initial,
        /// A single capital without a dot: "J Smith".
        BareInitial,
        Particle,
        Suffix,
        /// A camel-case name word ("MinHyuk", "KhademSohi"): common in
        /// romanised Korean and Chinese names, but also what a cut through
        /// a glued title word and name leaves ("SeekJohn").
        Camel,
        /// A name word in an unusual form: lowercase ("zhang"), all caps
        /// ("ZHANG", "AJ"), a nickname in quotes, a stray dot or footnote
        /// mark ("Tonderski.", "Zhang†"), a lone capital ("I-Chao").
        Odd,
        Bad,
    }

    /// A parsed author list and what it says about its own plausibility.
    #[derive(Debug)]
    pub(super) struct List {
        pub names: Vec<String>,
        /// Tokens of unusual form ([`Tok::Camel`], [`Tok::Odd`]).
        pub odd_tokens: usize,
        /// Names of one word or with an unusual token other than camel case.
        doubtful: usize,
        /// Whether a word reads like an English noun ("Applications").
        noun_like: bool,
    }

    impl List {
        /// Whether this list alone is evidence of authors: one well-formed
        /// name of two or more words that does not read like English nouns
        /// ("Torch Applications"), or several names of which at most half
        /// are doubtful.
        pub(super) fn is_convincing(&self) -> bool {
            match self.names.len() {
                0 => false,
                1 => self.doubtful == 0 && !self.noun_like,
                n => self.doubtful * 2 <= n,
            }
        }
    }

    /// Splits at top-level commas (not inside parentheses, so that an
    /// affiliation "(1) MIT, (2) CMU" stays with its name) and at a
    /// standalone "and" or "&".
    pub(super) fn split_items(s: &str) -> Vec<&str> {
        items(s).collect()
    }

    /// [`split_items`] as a lazy iterator, so that a parse can stop at the
    /// first item that is not a name without scanning a long line to its end.
    fn items(s: &str) -> impl Iterator<Item = &str> {
        let mut chars = s.char_indices();
        let mut start = Some(0);
        std::iter::from_fn(move || {
            let from = start?;
            let mut depth = 0i32;
            for (i, c) in chars.by_ref() {
                match c {
                    '(' | '[' => depth += 1,
                    ')' | ']' => depth -= 1,
                    ',' | ';' if depth == 0 => {
                        start = Some(i + c.len_utf8());
                        return s.get(from..i);
                    }
                    _ => {}
                }
            }
            start = None;
            s.get(from..)
        })
        .flat_map(split_and)
    }

    /// "A and B" → ["A", "B"]; the blank part before a leading "and" (an
    /// Oxford comma: "A, B, and C") is dropped.
    fn split_and(item: &str) -> Vec<&str> {
        let mut parts = Vec::new();
        let mut start = 0;
        let mut word_start = None;
        for (i, c) in item.char_indices().chain([(item.len(), ' ')]) {
            if !c.is_whitespace() {
                word_start.get_or_insert(i);
                continue;
            }
            if let Some(ws) = word_start.take() {
                if matches!(&item[ws..i], "and" | "&") {
                    parts.push(&item[start..ws]);
                    start = i;
                }
            }
        }
        parts.push(&item[start..]);
        if parts.len() > 1 && parts[0].trim().is_empty() {
            parts.remove(0);
        }
        parts
    }

    /// How many names [`parse_list`] reads to judge a cut before it reads
    /// the whole list.
    pub(super) const FIRST_NAMES: usize = 8;

    /// Parses `s`, which starts right at a glued boundary, as a list of
    /// personal names (the first `limit` of them, if given); None when any
    /// part is not a name.
    pub(super) fn parse_list(s: &str, limit: Option<usize>) -> Option<List> {
        let mut list = List {
            names: Vec::new(),
            odd_tokens: 0,
            doubtful: 0,
            noun_like: false,
        };
        let mut empty_item = false;
        for (i, item) in items(s).enumerate().take(limit.unwrap_or(usize::MAX)) {
            let item = item.trim();
            // A trailing comma is what a page cut mid-list leaves; "A, , B"
            // is not how lists are printed.
            if empty_item {
                return None;
            }
            if item.is_empty() {
                if i == 0 {
                    return None;
                }
                empty_item = true;
                continue;
            }
            let kinds = name_tokens(item)?;
            if i > 0 && kinds.iter().all(|k| *k == Tok::Suffix) {
                // "John Smith, Jr." prints the suffix as its own item.
                continue;
            }
            check_name(&kinds)?;
            let camel = kinds.iter().filter(|k| **k == Tok::Camel).count();
            let mut odd = kinds.iter().filter(|k| **k == Tok::Odd).count();
            if i == 0 {
                odd += usize::from(boundary_price(item, &kinds)?);
            }
            list.odd_tokens += camel + odd;
            if odd > 0 || kinds.len() == 1 {
                list.doubtful += 1;
            }
            list.noun_like |= item.split_whitespace().any(is_noun_like);
            list.names.push(super::text::inline(item));
        }
        (!list.names.is_empty()).then_some(list)
    }

    /// Whether the first name, which starts at the glued boundary, starts
    /// in an unusual way (Some(true)) or in a way that rules the cut out
    /// (None). A cut left of the true boundary makes a camel-case word
    /// there ("Deep|SeekJohn Smith"), and a cut through an acronym makes a
    /// bare or all-caps one ("3|D Reconstruction", "Ne|RF and…"); but
    /// "SungHo Kim" and "M Rita Verdelho" are real first authors. Camel
    /// case (priced as a token already) and bare capitals are allowed at a
    /// price, other odd forms not at all.
    fn boundary_price(item: &str, kinds: &[Tok]) -> Option<bool> {
        match kinds.first()? {
            Tok::Word | Tok::Initial | Tok::Particle => Some(false),
            Tok::BareInitial => Some(true),
            Tok::Camel => item
                .chars()
                .nth(1)
                .is_some_and(char::is_lowercase)
                .then_some(false),
            Tok::Odd | Tok::Suffix | Tok::Bad => None,
        }
    }

    /// How many names `title` would end with if it were cut inside an
    /// author list: "…ResolutionAli Dehaghi, Bo Chen, Hossein Khadem" cut
    /// at "Khadem|Sohi" leaves "Ali Dehaghi" (glued to the title), "Bo
    /// Chen" and the piece "Hossein Khadem" on the title side. A real title
    /// does not end in a list of names.
    pub(super) fn trailing_names(title: &str) -> usize {
        let items = split_items(title);
        let Some((last, before)) = items.split_last() else {
            return 0;
        };
        let run = before
            .iter()
            .rev()
            .take_while(|item| {
                name_tokens(item.trim()).is_some_and(|k| k.len() >= 2 && check_name(&k).is_some())
            })
            .count();
        // The item where the run stops may be the title with the first
        // author glued to it.
        let glued_first = before
            .len()
            .checked_sub(run + 1)
            .and_then(|i| before.get(i))
            .is_some_and(|item| ends_with_glued_name(item));
        let names = run + usize::from(glued_first);
        // The piece before the cut is part of a name too, when names
        // precede it.
        let piece =
            names > 0 && name_tokens(last.trim()).is_some_and(|kinds| check_name(&kinds).is_some());
        names + usize::from(piece)
    }

    /// Whether `item` ends in a name glued to preceding text, as the first
    /// author is glued to the title.
    fn ends_with_glued_name(item: &str) -> bool {
        // A name is short: only its last few dozen characters matter.
        let from = item.len().saturating_sub(MAX_NAME_BYTES);
        let mut prev: Option<char> = None;
        item.char_indices().any(|(pos, c)| {
            let Some(p) = prev.replace(c) else {
                return false;
            };
            if pos < from {
                return false;
            }
            let name = &item[pos..];
            super::is_split_candidate(p, c)
                && super::title_can_end(&item[..pos], name)
                && name_tokens(name.trim()).is_some_and(|kinds| {
                    kinds.len() >= 2
                        && matches!(kinds.first(), Some(Tok::Word | Tok::Initial))
                        && check_name(&kinds).is_some()
                })
        })
    }

    /// Classifies the tokens of one list item, with an affiliation in
    /// parentheses removed; None when the parentheses are misplaced.
    fn name_tokens(item: &str) -> Option<Vec<Tok>> {
        let name = strip_affiliations(item)?;
        // "Eric~Granger": a LaTeX tie is a space.
        Some(
            name.split(|c: char| c.is_whitespace() || c == '~')
                .filter(|t| !t.is_empty())
                .map(classify)
                .collect(),
        )
    }

    /// "John Smith (MIT)" → "John Smith": parenthesised groups may only
    /// close a name, never sit inside or be glued to a word.
    fn strip_affiliations(item: &str) -> Option<&str> {
        let Some(open) = item.find('(') else {
            return (!item.contains(')')).then_some(item);
        };
        let mut depth = 0i32;
        for c in item[open..].chars() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ if depth == 0 && !c.is_whitespace() => return None,
                _ => {}
            }
            if depth < 0 {
                return None;
            }
        }
        (depth == 0).then_some(item[..open].trim_end())
    }

    /// A name has one to seven tokens, at least one a word, and does not
    /// start with a suffix or end in a particle.
    fn check_name(kinds: &[Tok]) -> Option<()> {
        let (first, last) = (kinds.first()?, kinds.last()?);
        let ok = kinds.len() <= 7
            && !kinds.contains(&Tok::Bad)
            && kinds
                .iter()
                .any(|k| matches!(k, Tok::Word | Tok::Camel | Tok::Odd))
            && *last != Tok::Particle
            && *first != Tok::Suffix;
        ok.then_some(())
    }

    fn classify(tok: &str) -> Tok {
        if PARTICLES.contains(&tok) {
            return Tok::Particle;
        }
        if SUFFIXES.contains(&tok) {
            return Tok::Suffix;
        }
        if in_word_list(&NOT_NAMES, tok) && !ALSO_NAMES.contains(&tok) {
            return Tok::Bad;
        }
        if let Some(kind) = classify_capitals(tok) {
            return kind;
        }
        if is_abbreviation(tok) {
            return Tok::Initial;
        }
        if is_name_word(tok) {
            return Tok::Word;
        }
        if is_camel_word(tok) {
            return Tok::Camel;
        }
        if is_odd_word(tok) {
            return Tok::Odd;
        }
        // "Zhang†", "Tonderski.", "\"Richie\"": a name word with a mark.
        let bare = tok
            .trim_end_matches(MARKS)
            .trim_end_matches('.')
            .trim_matches(['"', '“', '”']);
        if bare != tok
            && !bare.is_empty()
            && matches!(classify(bare), Tok::Word | Tok::Camel | Tok::Odd)
        {
            return Tok::Odd;
        }
        Tok::Bad
    }

    /// Tokens made of capitals, dots and hyphens: initials or all-caps words.
    fn classify_capitals(tok: &str) -> Option<Tok> {
        if !tok
            .chars()
            .all(|c| c.is_uppercase() || c == '.' || c == '-')
        {
            return None;
        }
        let letters = tok.chars().filter(|c| c.is_uppercase()).count();
        let dotted = tok.contains('.');
        if letters == 0 {
            return Some(Tok::Bad);
        }
        if letters == 1 {
            return Some(if dotted {
                Tok::Initial
            } else {
                Tok::BareInitial
            });
        }
        if dotted {
            // "J.R.R." and "J.-P." dot every letter; "CJ." is not initials.
            let mut chars = tok.chars().peekable();
            while let Some(c) = chars.next() {
                if c.is_uppercase() && chars.peek() != Some(&'.') {
                    return Some(Tok::Bad);
                }
            }
            return Some(Tok::Initial);
        }
        Some(if tok.contains('-') {
            Tok::Bad
        } else {
            Tok::Odd
        })
    }

    /// "Ll.", "Th.", "Chr.": a capital, one to three small letters, a dot.
    fn is_abbreviation(tok: &str) -> bool {
        let Some(body) = tok.strip_suffix('.') else {
            return false;
        };
        let mut chars = body.chars();
        let n = body.chars().count();
        chars.next().is_some_and(char::is_uppercase)
            && (2..=4).contains(&n)
            && chars.all(char::is_lowercase)
    }

    /// Capitalised words, optionally joined by hyphens or apostrophes, with
    /// a second capital only after a known prefix; lowercase particles may
    /// lead ("al-Farabi", "d'Alembert").
    fn is_name_word(tok: &str) -> bool {
        let Some(first) = tok.chars().next() else {
            return false;
        };
        if first.is_lowercase() {
            let Some(sep) = tok.find(['-', '\'', '’']) else {
                return false;
            };
            let lead = &tok[..sep];
            let sep_len = tok[sep..].chars().next().map_or(1, char::len_utf8);
            let rest = &tok[sep + sep_len..];
            return lead.chars().count() <= 4
                && lead.chars().all(char::is_lowercase)
                && rest.chars().next().is_some_and(char::is_uppercase)
                && is_name_word(rest);
        }
        if !first.is_uppercase() {
            return false;
        }
        // Segments with the separators before and after them.
        let mut segments = Vec::new();
        let (mut start, mut before) = (0, None);
        for (i, c) in tok.char_indices() {
            if matches!(c, '-' | '\'' | '’') {
                segments.push((before, &tok[start..i], Some(c)));
                start = i + c.len_utf8();
                before = Some(c);
            }
        }
        segments.push((before, &tok[start..], None));
        if segments.len() > 4 {
            return false;
        }
        let last = segments.len() - 1;
        segments
            .iter()
            .enumerate()
            .all(|(i, &(before, seg, after))| {
                // "O'Brien", "Garcia-O'Donnell": a lone capital before an
                // apostrophe. (Not before a hyphen: "3D-Grounded", "T-Cell".)
                let lone_capital = seg.chars().count() == 1 && matches!(after, Some('\'' | '’'));
                // "Montes-y-Gómez", "Graell-i-Amat".
                let particle = i > 0 && i < last && before == Some('-') && PARTICLES.contains(&seg);
                // "Squeeze-and-Excitation" is no name; "Cohen-Or", "Yu'an" are.
                let function_word = before == Some('-')
                    && seg.chars().all(char::is_lowercase)
                    && is_function_word(seg);
                lone_capital || particle || (is_name_segment(seg, i == 0) && !function_word)
            })
    }

    fn is_name_segment(seg: &str, first: bool) -> bool {
        let chars: Vec<char> = seg.chars().collect();
        let Some(&head) = chars.first() else {
            return false;
        };
        if chars.len() < 2 || !(head.is_uppercase() || (!first && head.is_lowercase())) {
            return false;
        }
        if !chars
            .iter()
            .all(|&c| c.is_alphabetic() || is_combining_mark(c))
        {
            return false;
        }
        let inner_caps: Vec<usize> = (1..chars.len())
            .filter(|&k| chars[k].is_uppercase())
            .collect();
        match inner_caps.as_slice() {
            [] => true,
            [k] => {
                let prefix: String = chars[..*k].iter().collect();
                CAMEL_PREFIXES.contains(&prefix.as_str())
                    && chars.get(k + 1).is_some_and(|c| c.is_lowercase())
            }
            _ => false,
        }
    }

    /// One word of letters in camel case ("MinHyuk", "KhudaBukhsh",
    /// "ONeill"): it starts with a capital, ends in a small letter and never
    /// has three capitals in a row, which keeps out acronyms glued to a name
    /// ("GPUsJin", "SplattingM").
    fn is_camel_word(tok: &str) -> bool {
        let chars: Vec<char> = tok.chars().collect();
        chars.len() >= 3
            && chars
                .iter()
                .all(|&c| c.is_alphabetic() || is_combining_mark(c))
            && chars.first().is_some_and(|c| c.is_uppercase())
            && chars.last().is_some_and(|c| c.is_lowercase())
            && !chars.windows(3).any(|w| w.iter().all(|c| c.is_uppercase()))
    }

    /// Forms names rarely but really take, per hyphen- or apostrophe-joined
    /// segment: all lowercase ("zhang"), all caps ("ZHANG", "CH-Wang"),
    /// camel case, or a lone capital joined to a longer segment ("I-Chao",
    /// "Chung-I").
    fn is_odd_word(tok: &str) -> bool {
        let segments: Vec<&str> = tok.split(['-', '\'', '’']).collect();
        let lone_capital_ok = segments.len() > 1 && segments.iter().any(|s| s.chars().count() >= 2);
        segments.iter().all(|seg| {
            if lone_capital_ok && seg.chars().count() == 1 && seg.chars().all(char::is_uppercase) {
                return true;
            }
            let chars: Vec<char> = seg.chars().collect();
            let letters = chars
                .iter()
                .all(|&c| c.is_alphabetic() || is_combining_mark(c));
            let lower = chars.iter().all(|c| !c.is_uppercase());
            let upper = chars.iter().all(|c| !c.is_lowercase());
            let camel = chars.first().is_some_and(|c| c.is_uppercase())
                && chars.last().is_some_and(|c| c.is_lowercase())
                && !chars.windows(3).any(|w| w.iter().all(|c| c.is_uppercase()));
            chars.len() >= 2
                && letters
                && (lower || upper || camel)
                && !(lower && is_function_word(seg))
        })
    }

    fn is_combining_mark(c: char) -> bool {
        matches!(c, '\u{0300}'..='\u{036F}')
    }

    fn is_noun_like(tok: &str) -> bool {
        let lower = tok.to_lowercase();
        NOUN_ENDINGS
            .iter()
            .any(|end| lower.ends_with(end) && lower.chars().count() >= end.chars().count() + 3)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(glued: &str) -> (String, Vec<String>) {
        split_title_authors(glued, "")
    }

    fn assert_split(glued: &str, title: &str, authors: &[&str]) {
        let (t, a) = split(glued);
        assert_eq!(t, title, "title of {glued:?}");
        assert_eq!(a, authors, "authors of {glued:?}");
    }

    #[test]
    fn splits_after_titles_ending_in_acronyms_digits_and_punctuation() {
        assert_split(
            "Fault-Tolerant Pretraining with 100k+ GPUsJin Lee, Zhonghao Chen",
            "Fault-Tolerant Pretraining with 100k+ GPUs",
            &["Jin Lee", "Zhonghao Chen"],
        );
        assert_split(
            "Serving Many LLMsAda Lovelace, Charles Babbage",
            "Serving Many LLMs",
            &["Ada Lovelace", "Charles Babbage"],
        );
        assert_split(
            "Edge Slicing for 5GMaria Rossi",
            "Edge Slicing for 5G",
            &["Maria Rossi"],
        );
        assert_split(
            "Do We Need Tensor Cores?Jean-Pierre de la Fontaine, Wan-Lu Li",
            "Do We Need Tensor Cores?",
            &["Jean-Pierre de la Fontaine", "Wan-Lu Li"],
        );
        assert_split(
            "Scheduling with Service Level Objectives (SLOs)J. R. R. Tolkien, Ólafur Ragnar Grímsson",
            "Scheduling with Service Level Objectives (SLOs)",
            &["J. R. R. Tolkien", "Ólafur Ragnar Grímsson"],
        );
        assert_split(
            "Llama Serving v2Ólafur Ragnar Grímsson",
            "Llama Serving v2",
            &["Ólafur Ragnar Grímsson"],
        );
    }

    #[test]
    fn splits_an_acronym_from_a_capitalised_author() {
        assert_split(
            "Checkpointing on HPCJohn Smith, Ian Foster",
            "Checkpointing on HPC",
            &["John Smith", "Ian Foster"],
        );
        assert_split(
            "A Survey of Efficient AIIan Foster",
            "A Survey of Efficient AI",
            &["Ian Foster"],
        );
        assert_split(
            "I/O Tracing for MPIJ. R. Smith, K. Li",
            "I/O Tracing for MPI",
            &["J. R. Smith", "K. Li"],
        );
        assert_split(
            "Benchmarking the DGXÉmile Zola",
            "Benchmarking the DGX",
            &["Émile Zola"],
        );
    }

    #[test]
    fn splits_titles_ending_in_capitalised_words_and_camel_case() {
        assert_split(
            "DAGs for the MassesMichael Anoprenko, Andrei Tonkikh",
            "DAGs for the Masses",
            &["Michael Anoprenko", "Andrei Tonkikh"],
        );
        assert_split(
            "Serving on DeepSeekJosep Ll. Berral, Seán O'Brien, Yann LeCun",
            "Serving on DeepSeek",
            &["Josep Ll. Berral", "Seán O'Brien", "Yann LeCun"],
        );
        assert_split(
            "KVFlow: Prefix Caching for LLM-Based Multi-Agent WorkflowsZaifeng Pan, Ludwig van Beethoven, Chen Jr.",
            "KVFlow: Prefix Caching for LLM-Based Multi-Agent Workflows",
            &["Zaifeng Pan", "Ludwig van Beethoven", "Chen Jr."],
        );
        assert_split(
            "Consensus at Scale (Extended Version)de la Cruz Mendez, Ana Pérez",
            "Consensus at Scale (Extended Version)",
            &["de la Cruz Mendez", "Ana Pérez"],
        );
    }

    #[test]
    fn reads_names_in_unusual_forms() {
        // Camel-case given names, first or later: the abstract's "models"
        // tells "Models" + "SungHo" from "ModelsSung" + "Ho".
        let (title, authors) = split_title_authors(
            "Subcharacter Models for Korean Language ModelsSungHo Kim, Juhyeong Park, SangKeun Lee",
            "We train language models on subcharacters.",
        );
        assert_eq!(title, "Subcharacter Models for Korean Language Models");
        assert_eq!(authors, ["SungHo Kim", "Juhyeong Park", "SangKeun Lee"]);
        assert_split(
            "Federated Learning for Video Super-ResolutionAli Mollaahmadi Dehaghi, Hossein KhademSohi, Reza Razavi",
            "Federated Learning for Video Super-Resolution",
            &["Ali Mollaahmadi Dehaghi", "Hossein KhademSohi", "Reza Razavi"],
        );
        assert_split(
            "Lowercase Surnames in MetadataWu jiaxuan, Peng Wanli, Xue Yiming",
            "Lowercase Surnames in Metadata",
            &["Wu jiaxuan", "Peng Wanli", "Xue Yiming"],
        );
        assert_split(
            "Image Editing with DiffusionOr Patashnik, Chaoyun Wang, I-Chao Shen, Alexandre Graell i Amat, Manuel Montes-y-Gómez",
            "Image Editing with Diffusion",
            &["Or Patashnik", "Chaoyun Wang", "I-Chao Shen", "Alexandre Graell i Amat", "Manuel Montes-y-Gómez"],
        );
        assert_split(
            "Survival Prediction Using Graph-Based LearningM Rita Verdelho, Catarina Barata",
            "Survival Prediction Using Graph-Based Learning",
            &["M Rita Verdelho", "Catarina Barata"],
        );
    }

    #[test]
    fn keeps_titles_without_authors_whole() {
        for title in [
            "Black Hole Search: Dynamics, Distribution, and Emergence",
            "Distributed Training under Packet Loss",
            "nvidia-pcm: A D-Bus-Driven Platform Configuration Manager for OpenBMC Environments",
            "The Mini-MuMMI Experience",
            "Fed-GAME: Personalized Federated Learning with Graph Attention Mixture-of-Experts For Time-Series Forecasting",
            "KIS-S: A GPU-Aware Kubernetes Inference Simulator with RL-Based Auto-Scaling",
            "HeRo: Adaptive Orchestration of Agentic RAG on Heterogeneous Mobile SoC",
            "Why iCloud Fails",
            "Sharding on PolarDB Serverless",
            "Attention with LiDAR Point Clouds",
            "Tracing with eBPF Probes",
            "Analytics for McKinsey Reports",
            "Kernels in OpenMP Offloading Regions",
            "Deploying DeepSeek, Qwen, and Llama",
            "Part III",
            "Direction-Aware Learning for 3D Hand Pose and Shape Estimation",
            "Sentiment Analysis Across Multiple U.S. Regions",
            "Instruction Tuning LLMs and Data Augmentation",
            "Accuracy in NeRF and Gaussian Splatting",
            "Bridging Long CoT Reasoning and Long-Context Understanding",
        ] {
            assert_split(title, title, &[]);
        }
    }

    #[test]
    fn wide_whitespace_and_non_ascii_are_safe() {
        // No-break and ideographic spaces are more than one byte long.
        let glued = "Serving\u{a0}Models on\u{3000}PyTorchJin\u{a0}Lee, Ólafur Grímsson";
        let (title, authors) = split_title_authors(glued, "PyTorch\u{a0}PyTorch");
        assert_eq!(title, "Serving Models on PyTorch");
        assert_eq!(authors, ["Jin Lee", "Ólafur Grímsson"]);
        for glued in [
            "é",
            "ÉÉ",
            "\u{a0}Ü",
            "aÜ\u{a0}Ü",
            "Straße\u{3000}ÜberMäßig Öl, Äb",
        ] {
            let _ = split_title_authors(glued, glued);
        }
    }

    #[test]
    fn camel_case_words_seen_in_the_abstract_are_not_cut() {
        let title = "Fast Training with PyTorch Lightning";
        let (t, a) =
            split_title_authors(title, "We extend PyTorch Lightning with elastic training.");
        assert_eq!((t.as_str(), a.len()), (title, 0));
        // Without that evidence the text reads as "Py" + one author; this is
        // the ambiguity the context check exists for.
        assert_eq!(split(title).1, ["Torch Lightning"]);
    }

    #[test]
    fn rejects_lists_that_are_not_names() {
        for s in [
            "Torch Applications",
            "Seek, Qwen, and Llama",
            "Agent Systems (MAS)John Smith",
            "John Smith, , Jane Doe",
            "BMC Environments",
            "for the Masses",
            "John Smith: A Study",
        ] {
            let list = names::parse_list(s, None);
            assert!(
                list.as_ref().is_none_or(|l| !l.is_convincing()),
                "{s:?} → {list:?}"
            );
        }
        let list =
            names::parse_list("Wei ZHANG, Li WANG and Jo Bloggs (MIT)", None).expect("names");
        assert_eq!(list.names, ["Wei ZHANG", "Li WANG", "Jo Bloggs (MIT)"]);
    }

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
        assert_eq!(
            (q.id.as_str(), q.version, q.kind),
            ("2602.23927", Some(2), Kind::Cross)
        );
        assert!(q.authors.is_empty());
        assert_eq!(q.abstract_text, "Abstract two.");
        assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
    }

    #[test]
    fn reads_layout_b() {
        let parsed = parse(LAYOUT_B, "b.txt").expect("parses");
        assert_eq!(parsed.papers.len(), 3, "{:?}", parsed.warnings);
        let [a, b, c] = &parsed.papers[..] else {
            unreachable!()
        };
        assert_eq!(a.title, "Distributed Training under Packet Loss");
        assert!(a.authors.is_empty());
        assert_eq!(a.abstract_text, "Abstract one.\nSecond paragraph.");
        assert_eq!(b.title, "Helix Parallelism for LLM Decoding");
        assert_eq!(b.authors, ["Nidhi Bhatia", "Ankit More"]);
        assert_eq!(b.comments.as_deref(), Some("8 pages, 6 figures"));
        assert_eq!(b.journal_ref.as_deref(), Some("J. Foo 2025"));
        assert_eq!(b.abstract_text, "Abstract two.");
        assert_eq!(
            (c.kind, c.title.as_str()),
            (Kind::Replaced, "Future Resource Bank for ISAC")
        );
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
        assert!(parsed
            .warnings
            .iter()
            .any(|w| w.contains("cut.txt:6: entry [2]") && w.contains("Subjects")));

        // Cut right after a header: that entry is skipped and named.
        let cut = LAYOUT_B.find("-\nTitle: Future").expect("marker");
        let parsed = parse(&LAYOUT_B[..cut], "cut.txt").expect("parses");
        assert_eq!(parsed.papers.len(), 2);
        assert!(
            parsed
                .warnings
                .iter()
                .any(|w| w.contains("entry [3] arXiv:2502.08118: skipped")),
            "{:?}",
            parsed.warnings
        );

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
        assert!(
            w.contains("s.txt:1: entry [1] arXiv:2602.00001: no Subjects"),
            "{w}"
        );
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
        assert!(looks_like(
            &LAYOUT_A[LAYOUT_A.find("[1]").expect("header")..]
        ));
        let mailing =
            "\\\\\narXiv:2306.77777\nDate: Wed, 7 Jun 2023\n\nTitle: Fake\nAuthors: A B\n\\\\\n";
        assert!(!looks_like(mailing));
        assert!(!looks_like(
            "see [3] arXiv:2101.00001 for details, and more text"
        ));
    }

    /// A file of the shared fixtures, which every checkout has at ../shared.
    fn fixture(name: &str) -> String {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/fixtures")
            .join(name);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    #[test]
    fn detection_on_shared_fixtures() {
        for name in [
            "listings/cs.DC-2026-03-02.txt",
            "listings/cs.DC-2025-07-11.txt",
            "listings/cs.DC-2026-03-03.txt",
        ] {
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
        assert!(
            started.elapsed() < std::time::Duration::from_secs(20),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn headings_glued_to_a_header_stay_out_of_abstracts() {
        let text = "- [1] arXiv:2507.07114 [pdf]\n-\nTitle: OneSubjects: Performance (cs.PF)\nAbstract one.\n\
                    New submissions (showing 1 of 1 entries) - [2] arXiv:2507.07115 [pdf]\n-\n\
                    Title: TwoSubjects: Performance (cs.PF)\nAbstract two.\n";
        let parsed = parse(text, "h.txt").expect("parses");
        let abstracts: Vec<&str> = parsed
            .papers
            .iter()
            .map(|p| p.abstract_text.as_str())
            .collect();
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
        let ends: Vec<usize> = text
            .char_indices()
            .map(|(i, _)| i)
            .chain([text.len()])
            .collect();
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
