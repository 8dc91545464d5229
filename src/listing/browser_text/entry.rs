//! The fields of one entry: the labels and where one counts (at a line
//! start, or glued to the text before it in layout B), layout A's
//! unlabelled author line, the subjects, and the paper they make.

use super::glued_title::split_title_authors;
use super::labels::{label_segments, starts_with_label, Label};
use super::names;
use super::page::{is_filler, Line, RawEntry};
use super::text;
use crate::paper::{ArxivId, Paper};
use regex::Regex;
use std::sync::OnceLock;

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
    let mut fields = RawFields { title_line: first.no, ..RawFields::default() };

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

    fields.abstract_lines = rest[i..].iter().filter(|l| !is_filler(l.text)).map(|l| l.text.to_string()).collect();
    Some(fields)
}

/// Layout A's line after the title is the author list when the fields
/// follow it, or when it reads as a list of names (a truncated page).
fn is_author_line(line: &str, next: Option<&Line>) -> bool {
    next.is_some_and(|n| starts_with_label(n.text.trim())) || names::parse_list(line, None).is_some()
}

/// Category codes of a Subjects field, primary first, and any text glued
/// after the last code (the start of an abstract in a damaged copy).
fn parse_subjects(s: &str) -> (Vec<String>, &str) {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| Regex::new(r"\(([a-z][a-z-]*(?:\.[A-Za-z][A-Za-z-]*)?)\)").expect("static regex"));
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
    names::split_items(s).into_iter().map(text::inline).filter(|n| !n.is_empty()).collect()
}

/// Reads one entry into a paper; the `Err` says why it was skipped, and the
/// notes list what was missing from a paper still returned.
pub(super) fn read_entry(entry: &RawEntry, glued_page: bool, source: &str) -> Result<(Paper, Vec<String>), String> {
    let header = &entry.header;
    // `ArxivId::parse` slices by byte: only ASCII may reach it.
    let id = Some(&header.raw_id)
        .filter(|raw| raw.is_ascii())
        .and_then(|raw| ArxivId::parse(raw))
        .ok_or_else(|| format!("'{}' is not an arXiv identifier", header.raw_id))?;
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
