//! The field labels of a listing entry ("Title:", "Authors:", "Subjects:"
//! …) and where one counts: at a line start, or glued to the text before
//! it in layout B. The page scan and the entry grammar both ask.

use regex::Regex;
use std::sync::OnceLock;

/// The field labels of a listing entry, in the order arXiv prints them;
/// a label is only taken as such when it comes after the previous one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Label {
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

pub(super) fn starts_with_label(line: &str) -> bool {
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
    let re = RE.get_or_init(|| Regex::new(r"^\s*[^():;]{1,80}\s\([a-z][a-z-]*(?:\.[A-Za-z][A-Za-z-]*)?\)").expect("static regex"));
    re.is_match(s)
}

/// Splits one line into the text before its first label and the labelled
/// fields that follow, accepting only labels later than `after` (and later
/// than each other). Returns the unlabelled lead and the fields.
pub(super) fn label_segments(line: &str, after: Label) -> (&str, Vec<(Label, &str)>) {
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
