//! The page as a whole: cut into entries at their headers (section
//! headings, entry totals and page chrome end an entry), its listing
//! date, and which of the two layouts it has.

use super::labels::{label_segments, starts_with_label, Label};
use crate::paper::Kind;
use regex::Regex;
use std::sync::OnceLock;

/// One line of the input with its 1-based number, for warnings.
#[derive(Debug, Clone, Copy)]
pub(super) struct Line<'a> {
    pub(super) no: usize,
    pub(super) text: &'a str,
}

/// What an entry header (`[5] arXiv:2507.07130 (replaced) [pdf, other]`) says.
#[derive(Debug, Clone)]
pub(super) struct Header {
    pub(super) number: u32,
    pub(super) raw_id: String,
    pub(super) kind: Kind,
    pub(super) line: usize,
}

/// An entry's header and the lines up to the next header or heading.
#[derive(Debug)]
pub(super) struct RawEntry<'a> {
    pub(super) header: Header,
    pub(super) body: Vec<Line<'a>>,
}

#[derive(Debug)]
pub(super) struct Page<'a> {
    pub(super) date: Option<String>,
    pub(super) entries: Vec<RawEntry<'a>>,
    /// No heading, entry total or page chrome follows the last entry: the
    /// copied text may stop inside it.
    pub(super) open_end: bool,
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
pub(super) fn find_header(line: &str) -> Option<(&str, u32, &str, Kind)> {
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
    let re =
        RE.get_or_init(|| Regex::new(&format!(r"^{SECTION_NAMES}(?:\s*\(showing [^()]*\)|\s+for\s+.{{0,40}})?$")).expect("static regex"));
    re.is_match(line.trim())
}

/// A heading or entry count glued to the end of an abstract line; returns
/// the line without it.
fn strip_glued_heading(line: &str) -> Option<&str> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(&format!(r"\S\s*({SECTION_NAMES}\s*\(showing \d+ of \d+ entries\)|Total of \d+ entries)\s*$")).expect("static regex")
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
pub(in crate::listing) fn listing_date(text: &str) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"(?:Showing new listings|New submissions) for\s+(?:[A-Za-z]+,?\s+)?(\d{1,2})\s+([A-Za-z]{3,9})\s+(\d{2}|\d{4})\b")
            .expect("static regex")
    });
    let caps = re.captures(text)?;
    let day: u32 = caps.get(1)?.as_str().parse().ok()?;
    let month = crate::listing::fields::month_number(caps.get(2)?.as_str())?;
    let year_text = caps.get(3)?.as_str();
    let mut year: u32 = year_text.parse().ok()?;
    if year_text.len() == 2 {
        year += 2000;
    }
    crate::listing::fields::calendar_day(year, month, day)
}

/// Cuts the page into entries. An entry runs from its header to the next
/// header or piece of page furniture; text outside entries is chrome.
pub(super) fn scan_page(text: &str) -> Page<'_> {
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
            let header = Header { number, raw_id: id.to_string(), kind, line: no };
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
    let open_end = current.is_some();
    entries.extend(current);
    Page { date: listing_date(text), entries, open_end }
}

/// Lines that carry nothing: blanks and the lone "-" that layout B puts
/// after each header.
pub(super) fn is_filler(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t == "-" || t == "–"
}

/// Decides the page's layout from its entries: layout B shows the fields
/// glued to the title line, layout A puts them on the lines below. The
/// title/author splitter only runs on glued pages, so that a layout A
/// title is never cut.
pub(super) fn page_is_glued(entries: &[RawEntry]) -> bool {
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
