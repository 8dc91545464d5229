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
//! The page is first cut into entries at their headers; each entry's
//! metadata is then read field by field. The one step that needs judgement
//! is separating a glued title from its author list, done by
//! [`split_title_authors`].

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
    for entry in &page.entries {
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
                parsed.warnings.extend(notes.into_iter().map(|n| format!("{where_}: {n}")));
                parsed.papers.push(paper);
            }
            Err(why) => parsed.warnings.push(format!("{where_}: skipped: {why}")),
        }
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
/// arXiv mailings also carry `arXiv:ID` lines and `Title:` fields, but in
/// `\\`-separated blocks and without the bracketed entry number, so any
/// `\\` separator line rules this format out.
pub fn looks_like(head: &str) -> bool {
    let mailing_separator = head.lines().any(|l| l.trim() == "\\\\");
    if mailing_separator {
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
}

fn header_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        // Anchored at the line end: in layout B a header can be glued to the
        // end of the previous abstract, never followed by more text.
        Regex::new(
            r"(?:^|\s)(?:[-–•*]\s*)?\[(\d{1,6})\]\s*arXiv:\s*([^\s\[\]()]+)\s*(?:\((cross-list from [^()]*|replaced)\))?\s*(\[[^\[\]]*\])?\s*$",
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

const SECTION_NAMES: &str = r"(?:New submissions|Cross submissions|Cross-lists|Replacement submissions|Replacements)";

/// A section heading on its own line, in the current ("New submissions
/// (showing 6 of 6 entries)") or the older ("Cross-lists for Fri, 11 Jul
/// 25") wording.
fn is_section_heading(line: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(&format!(r"^{SECTION_NAMES}(?:\s*\(showing [^()]*\)|\s+for\s+.{{0,40}})?$"))
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
fn listing_date(text: &str) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"(?:Showing new listings|New submissions) for\s+(?:[A-Za-z]+,?\s+)?(\d{1,2})\s+([A-Za-z]{3,9})\s+(\d{2}|\d{4})\b")
            .expect("static regex")
    });
    const MONTHS: [&str; 12] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
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
                if !before.is_empty() {
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
            current = Some(RawEntry { header, body: Vec::new() });
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
    entries.extend(current);
    Page {
        date: listing_date(text),
        entries,
    }
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
        Regex::new(r"^\s*[^():;]{1,80}\s\([a-z][a-z-]*(?:\.[A-Za-z][A-Za-z-]*)?\)").expect("static regex")
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
        let first_title = label == Label::Title && kept.is_empty() && pos == 0 && last == Label::Title;
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
        } else if i == 0 && !glued_page && last == Label::Title && is_author_line(line, rest.get(1)) {
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
    next.is_some_and(|n| starts_with_label(n.text.trim())) || names::parse_list(line).is_some()
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
        let (Some(whole), Some(code)) = (caps.get(0), caps.get(1)) else { continue };
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
fn read_entry(entry: &RawEntry, glued_page: bool, source: &str) -> Result<(Paper, Vec<String>), String> {
    let header = &entry.header;
    let id = ArxivId::parse(&header.raw_id).ok_or_else(|| format!("'{}' is not an arXiv identifier", header.raw_id))?;
    let mut fields = collect_fields(&entry.body, glued_page).ok_or("no title (the copied text ends here?)")?;
    let mut notes = Vec::new();

    let mut paper = Paper::new(id, header.kind, source);
    match fields.subjects.as_deref() {
        Some(raw) => {
            let (codes, rest) = parse_subjects(raw);
            if codes.is_empty() {
                notes.push(format!("line {}: no category codes in Subjects (cut off?)", fields.title_line));
            }
            if !rest.is_empty() {
                fields.abstract_lines.insert(0, rest.to_string());
            }
            paper.set_subjects(codes);
        }
        None => notes.push("no Subjects field (cut off?)".to_string()),
    }
    paper.abstract_text = text::lines(&fields.abstract_lines.join("\n"));
    if paper.abstract_text.is_empty() {
        notes.push("no abstract (cut off?)".to_string());
    }
    paper.comments = fields.comments.as_deref().map(text::inline).filter(|s| !s.is_empty());
    paper.journal_ref = fields.journal_ref.as_deref().map(text::inline).filter(|s| !s.is_empty());

    let title_raw = fields.title.as_deref().unwrap_or_default();
    let shown_authors = fields.authors.as_deref().or(fields.author_line.as_deref());
    let (title, authors) = match shown_authors {
        Some(line) => (text::inline(title_raw), split_author_line(line)),
        None if glued_page => {
            let context = format!("{} {}", paper.abstract_text, paper.comments.as_deref().unwrap_or_default());
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
/// first letter of a name. Candidates are tried left to right and the first
/// one is taken where
/// * the right-hand side parses as a list of personal names
///   ([`names::parse_list`]) that is convincing on its own (not a lone
///   one-word "name", not mostly one-word names), and
/// * the left-hand side can end a title ([`title_can_end`]): no dangling
///   hyphen, bracket or `$…$`, no cut acronym.
///
/// Taking the leftmost valid candidate is what makes this work: a candidate
/// left of the true boundary has to swallow the glued token at the boundary
/// ("GPUsJin", "MassesMichael", "HPCJohn") into a name, and such a token is
/// never a name, so only the true boundary (or one inside the author list,
/// which lies further right) can succeed.
///
/// Titles without authors are the risk: a camel-case word near the end
/// ("…with PyTorch Lightning") can look like "Py" + a name. Such a split is
/// rejected when the whole glued word occurs in `context` (the abstract),
/// which real title+name concatenations never do.
pub fn split_title_authors(glued: &str, context: &str) -> (String, Vec<String>) {
    let glued = glued.trim();
    let mut prev: Option<char> = None;
    for (pos, c) in glued.char_indices() {
        let Some(p) = prev.replace(c) else { continue };
        if !is_split_candidate(p, c) {
            continue;
        }
        let (title, authors) = glued.split_at(pos);
        if !title_can_end(title, authors) {
            continue;
        }
        let Some(list) = names::parse_list(authors) else { continue };
        if !list.is_convincing() || glued_word_in_context(glued, pos, context) {
            continue;
        }
        return (text::inline(title), list.names);
    }
    (text::inline(glued), Vec::new())
}

/// A name starts with a capital glued to the title's last character, or
/// with a lowercase particle ("de la Fontaine") glued after a title ending
/// in closing punctuation.
fn is_split_candidate(prev: char, c: char) -> bool {
    if prev.is_whitespace() {
        return false;
    }
    c.is_uppercase() || (c.is_lowercase() && matches!(prev, ')' | '?' | '!' | '"' | '”' | '’' | ']'))
}

/// Whether `title` (with `authors` glued after it) can be a complete title.
fn title_can_end(title: &str, authors: &str) -> bool {
    let Some(last) = title.chars().next_back() else { return false };
    if title.chars().filter(|c| c.is_alphanumeric()).count() < 2 {
        return false;
    }
    // Titles end in a word, a digit, or closing punctuation; a hyphen or an
    // opening bracket means the cut is inside a word or a group.
    if matches!(last, '-' | '‐' | '–' | '—' | '/' | '\\' | ',' | ':' | ';' | '(' | '[' | '{' | '&' | '+' | '=' | '_' | '^' | '|' | '~' | '@' | '#') {
        return false;
    }
    if !brackets_balanced(title) || title.matches('$').count() % 2 != 0 {
        return false;
    }
    let fragment = title.rsplit(char::is_whitespace).next().unwrap_or(title);
    // "iCloud", "eBPF", "vLLM", "mRNA": a short lowercase lead glued to a
    // capital is one word, not a title end.
    if fragment.chars().count() <= 2 && fragment.chars().all(char::is_lowercase) {
        return false;
    }
    // "McKinsey", "MacArthur", "O'Brien": the fragment is a name prefix.
    if names::CAMEL_PREFIXES.contains(&fragment) || fragment.ends_with(['\'', '’']) {
        return false;
    }
    // Cutting inside a run of capitals is only credible when a dotted
    // initial follows ("HPCJ. Smith"); "OpenBMC Env…" → "OpenB" + "MC …" or
    // "MuMMI Exp…" → "MuMM" + "I Exp…" are cut acronyms.
    if last.is_uppercase() {
        let mut next = authors.chars();
        let (a, b) = (next.next(), next.next());
        if a.is_some_and(char::is_uppercase) && !matches!(b, Some('.')) && !b.is_some_and(char::is_lowercase) {
            return false;
        }
    }
    true
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
    let start = glued[..pos].rfind(char::is_whitespace).map_or(0, |i| i + 1);
    let end = glued[pos..].find(|c: char| c.is_whitespace() || c == ',').map_or(glued.len(), |i| pos + i);
    let word = glued[start..end].trim_matches(|c: char| !c.is_alphanumeric());
    if word.chars().count() < 4 {
        return false;
    }
    context.match_indices(word).any(|(at, _)| {
        let before = context[..at].chars().next_back();
        let after = context[at + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// A grammar of personal names as arXiv shows them: capitalised words with
/// accents, hyphens and apostrophes, initials, particles and suffixes.
mod names {
    /// Prefixes after which a name has a second capital (McDonald, LeCun).
    pub(super) const CAMEL_PREFIXES: [&str; 17] = [
        "Mc", "Mac", "Fitz", "De", "Di", "Da", "Du", "Le", "La", "Van", "Von", "Ten", "Ter", "St", "Dal", "Del", "Della",
    ];

    /// Lowercase words that occur inside names.
    const PARTICLES: [&str; 33] = [
        "van", "von", "der", "den", "de", "del", "della", "delle", "dei", "degli", "di", "da", "das", "dos", "do", "du",
        "la", "le", "lo", "los", "las", "el", "al", "bin", "binti", "bint", "ibn", "ben", "ter", "ten", "te", "zu", "y",
    ];

    const SUFFIXES: [&str; 9] = ["Jr", "Jr.", "Sr", "Sr.", "II", "III", "IV", "2nd", "3rd"];

    /// Capitalised function words: they start title phrases ("…For Time
    /// Series", "…With Minimum Batch Size") and are nobody's name.
    const NOT_NAMES: [&str; 40] = [
        "The", "For", "With", "Of", "And", "Or", "Via", "From", "Using", "Towards", "Toward", "Into", "Through",
        "Without", "Beyond", "Between", "Across", "Against", "Versus", "Is", "Are", "How", "What", "Why", "When",
        "Where", "Which", "Does", "Should", "Not", "Its", "Their", "Our", "This", "That", "These", "Those", "Based",
        "Driven", "Aware",
    ];

    /// Endings of English nouns and adjectives that no name has; used to
    /// doubt a lone "name" such as "Torch Applications".
    const NOUN_ENDINGS: [&str; 26] = [
        "tion", "tions", "sion", "sions", "ment", "ments", "ness", "ity", "ities", "ogy", "ics", "ism", "isms", "ware",
        "ture", "tures", "ysis", "yses", "able", "ible", "ical", "ized", "ised", "ency", "works", "ators",
    ];

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Tok {
        /// Capitalised word: Smith, Grímsson, Wan-Lu, O'Brien, McDonald.
        Word,
        /// Dotted initials or abbreviations: J., J.R.R., J.-P., Ll.
        Initial,
        /// A single capital without a dot: "J Smith".
        BareInitial,
        /// Two or more capitals: "JR", "ZHANG".
        Caps,
        Particle,
        Suffix,
        Bad,
    }

    /// A parsed author list and what it says about its own plausibility.
    #[derive(Debug)]
    pub(super) struct List {
        pub names: Vec<String>,
        one_word: usize,
        has_caps: bool,
        noun_like: bool,
    }

    impl List {
        /// Whether this list alone is evidence of authors: several names,
        /// mostly of two or more words, or one name of two or more words
        /// that does not read like English nouns.
        pub(super) fn is_convincing(&self) -> bool {
            let n = self.names.len();
            if n == 0 || self.one_word * 2 > n {
                return false;
            }
            n >= 2 || (self.one_word == 0 && !self.has_caps && !self.noun_like)
        }
    }

    /// Splits at top-level commas (not inside parentheses, so that an
    /// affiliation "(1) MIT, (2) CMU" stays with its name) and at a
    /// standalone "and" or "&".
    pub(super) fn split_items(s: &str) -> Vec<&str> {
        let mut items = Vec::new();
        let mut depth = 0i32;
        let mut start = 0;
        for (i, c) in s.char_indices() {
            match c {
                '(' | '[' => depth += 1,
                ')' | ']' => depth -= 1,
                ',' | ';' if depth == 0 => {
                    items.push(&s[start..i]);
                    start = i + c.len_utf8();
                }
                _ => {}
            }
        }
        items.push(&s[start..]);
        items.into_iter().flat_map(split_and).collect()
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

    /// Parses `s` as a list of personal names; None when any part is not a
    /// name.
    pub(super) fn parse_list(s: &str) -> Option<List> {
        let mut list = List {
            names: Vec::new(),
            one_word: 0,
            has_caps: false,
            noun_like: false,
        };
        let items = split_items(s);
        let count = items.len();
        for (i, item) in items.into_iter().enumerate() {
            let item = item.trim();
            if item.is_empty() {
                // A trailing comma is what a page cut mid-list leaves;
                // "A, , B" is not how lists are printed.
                if i + 1 == count && i > 0 {
                    continue;
                }
                return None;
            }
            let name = strip_affiliations(item)?;
            let tokens: Vec<&str> = name.split_whitespace().collect();
            let kinds: Vec<Tok> = tokens.iter().map(|t| classify(t)).collect();
            if i > 0 && !kinds.is_empty() && kinds.iter().all(|k| *k == Tok::Suffix) {
                // "John Smith, Jr." prints the suffix as its own item.
                continue;
            }
            check_name(&kinds)?;
            if tokens.len() == 1 {
                list.one_word += 1;
            }
            list.has_caps |= kinds.contains(&Tok::Caps);
            list.noun_like |= tokens.iter().any(|t| is_noun_like(t));
            list.names.push(super::text::inline(item));
        }
        (!list.names.is_empty()).then_some(list)
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

    /// A name has one to seven tokens, at least one a real word, starts
    /// with a word, initial or particle and does not end in a particle.
    fn check_name(kinds: &[Tok]) -> Option<()> {
        let (first, last) = (kinds.first()?, kinds.last()?);
        let ok = kinds.len() <= 7
            && !kinds.contains(&Tok::Bad)
            && kinds.contains(&Tok::Word)
            && *last != Tok::Particle
            && !matches!(first, Tok::Suffix | Tok::Caps);
        ok.then_some(())
    }

    fn classify(tok: &str) -> Tok {
        if PARTICLES.contains(&tok) {
            return Tok::Particle;
        }
        if SUFFIXES.contains(&tok) {
            return Tok::Suffix;
        }
        if NOT_NAMES.contains(&tok) {
            return Tok::Bad;
        }
        if let Some(kind) = classify_capitals(tok) {
            return kind;
        }
        if is_abbreviation(tok) {
            return Tok::Initial;
        }
        if is_name_word(tok) {
            Tok::Word
        } else {
            Tok::Bad
        }
    }

    /// Tokens made of capitals, dots and hyphens: initials or all-caps words.
    fn classify_capitals(tok: &str) -> Option<Tok> {
        if !tok.chars().all(|c| c.is_uppercase() || c == '.' || c == '-') {
            return None;
        }
        let letters = tok.chars().filter(|c| c.is_uppercase()).count();
        let dotted = tok.contains('.');
        if letters == 0 {
            return Some(Tok::Bad);
        }
        if letters == 1 {
            return Some(if dotted { Tok::Initial } else { Tok::BareInitial });
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
        Some(if tok.contains('-') { Tok::Bad } else { Tok::Caps })
    }

    /// "Ll.", "Th.", "Chr.": a capital, one to three small letters, a dot.
    fn is_abbreviation(tok: &str) -> bool {
        let Some(body) = tok.strip_suffix('.') else { return false };
        let mut chars = body.chars();
        let n = body.chars().count();
        chars.next().is_some_and(char::is_uppercase) && (2..=4).contains(&n) && chars.all(char::is_lowercase)
    }

    /// Capitalised words, optionally joined by hyphens or apostrophes, with
    /// a second capital only after a known prefix; lowercase particles may
    /// lead ("al-Farabi", "d'Alembert").
    fn is_name_word(tok: &str) -> bool {
        let Some(first) = tok.chars().next() else { return false };
        if first.is_lowercase() {
            let Some(sep) = tok.find(['-', '\'', '’']) else { return false };
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
        let mut segments = Vec::new();
        let mut start = 0;
        for (i, c) in tok.char_indices() {
            if matches!(c, '-' | '\'' | '’') {
                segments.push((&tok[start..i], Some(c)));
                start = i + c.len_utf8();
            }
        }
        segments.push((&tok[start..], None));
        if segments.len() > 4 {
            return false;
        }
        segments.iter().enumerate().all(|(i, &(seg, sep))| {
            let single_before_apostrophe = i == 0 && seg.chars().count() == 1 && matches!(sep, Some('\'' | '’'));
            single_before_apostrophe || is_name_segment(seg, i == 0)
        })
    }

    fn is_name_segment(seg: &str, first: bool) -> bool {
        let chars: Vec<char> = seg.chars().collect();
        let Some(&head) = chars.first() else { return false };
        if chars.len() < 2 || !(head.is_uppercase() || (!first && head.is_lowercase())) {
            return false;
        }
        if !chars.iter().all(|&c| c.is_alphabetic() || is_combining_mark(c)) {
            return false;
        }
        let inner_caps: Vec<usize> = (1..chars.len()).filter(|&k| chars[k].is_uppercase()).collect();
        match inner_caps.as_slice() {
            [] => true,
            [k] => {
                let prefix: String = chars[..*k].iter().collect();
                CAMEL_PREFIXES.contains(&prefix.as_str()) && chars.get(k + 1).is_some_and(|c| c.is_lowercase())
            }
            _ => false,
        }
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
        assert_split("Edge Slicing for 5GMaria Rossi", "Edge Slicing for 5G", &["Maria Rossi"]);
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
        assert_split("Llama Serving v2Ólafur Ragnar Grímsson", "Llama Serving v2", &["Ólafur Ragnar Grímsson"]);
    }

    #[test]
    fn splits_an_acronym_from_a_capitalised_author() {
        assert_split("Checkpointing on HPCJohn Smith, Ian Foster", "Checkpointing on HPC", &["John Smith", "Ian Foster"]);
        assert_split("A Survey of Efficient AIIan Foster", "A Survey of Efficient AI", &["Ian Foster"]);
        assert_split("I/O Tracing for MPIJ. R. Smith, K. Li", "I/O Tracing for MPI", &["J. R. Smith", "K. Li"]);
        assert_split("Benchmarking the DGXÉmile Zola", "Benchmarking the DGX", &["Émile Zola"]);
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
        ] {
            assert_split(title, title, &[]);
        }
    }

    #[test]
    fn camel_case_words_seen_in_the_abstract_are_not_cut() {
        let title = "Fast Training with PyTorch Lightning";
        let (t, a) = split_title_authors(title, "We extend PyTorch Lightning with elastic training.");
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
            let list = names::parse_list(s);
            assert!(list.as_ref().is_none_or(|l| !l.is_convincing()), "{s:?} → {list:?}");
        }
        let list = names::parse_list("Wei ZHANG, Li WANG and Jo Bloggs (MIT)").expect("names");
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
        for text in ["", "\n\n", "hello world", "Title: x\nSubjects: y", "[1] arXiv:", "[ü] arXiv:é [", "Ω\u{0}\u{FFFD}"] {
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

    fn fixture(name: &str) -> Option<String> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures");
        std::fs::read_to_string(dir.join(name)).ok()
    }

    #[test]
    fn detection_on_shared_fixtures() {
        for name in ["listings/cs.DC-2026-03-02.txt", "listings/cs.DC-2025-07-11.txt", "listings/cs.DC-2026-03-03.txt"] {
            let Some(text) = fixture(name) else { continue };
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
            let Some(text) = fixture(name) else { continue };
            assert!(!looks_like(&text), "{name}");
        }
    }

    /// Every prefix (by char) of a real layout B page parses without
    /// panicking, and never yields more papers than entries started.
    #[test]
    fn every_prefix_of_a_page_is_safe() {
        let Some(text) = fixture("listings/cs.DC-2025-07-11.txt") else { return };
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
