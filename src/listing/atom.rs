//! export.arxiv.org API responses (Atom 1.0 with the `arxiv:` extension),
//! both the classic 2007–2025 output and the 2026 one (https ids,
//! "arXiv Query:" feed title, unwrapped summaries).
//!
//! The API is a search result, not a listing, so two fields are derived:
//! - `kind`: an entry describes one version of a paper; v1 is `new`, any
//!   later version `replaced` (the API has no notion of cross-lists).
//! - `listing_date`: the day of `<updated>`, which is when the version the
//!   entry describes was submitted (for v1 it equals `<published>`). This
//!   keeps the date in step with `kind`: a replaced paper is dated by its
//!   replacement, as a listing page would show it. `<published>` is the
//!   fallback.
//!
//! The API reports errors as a feed with one entry titled "Error" whose id
//! points into `/api/errors`; that becomes a [`ListingError`].

use super::xml_records::{self, Record};
use super::{fields, text, Format, ListingError, Parsed};
use crate::paper::{Kind, Paper};

pub fn parse(text: &str, source: &str) -> Result<Parsed, ListingError> {
    let doc = xml_records::read(text, "entry");
    if doc.root.as_deref() != Some("feed") {
        if let (None, Some(problem)) = (&doc.root, &doc.problem) {
            return Err(problem.error(source, "Atom feed"));
        }
        return Err(ListingError::new(
            source,
            None,
            "XML is not an Atom feed: no <feed> root",
        ));
    }
    if let Some(error) = doc.records.iter().find(|r| is_error_entry(r)) {
        let detail = error
            .text("summary")
            .map(fields::markup_inline)
            .unwrap_or_default();
        return Err(ListingError::new(
            source,
            Some(error.line),
            format!(
                "arXiv API error: {}",
                if detail.is_empty() {
                    "(no details given)"
                } else {
                    &detail
                }
            ),
        ));
    }

    let mut parsed = Parsed::new(Format::Atom);
    for (index, record) in doc.records.iter().enumerate() {
        match paper_from_entry(record, source) {
            Ok(paper) => parsed.papers.push(paper),
            Err(why) => parsed.warnings.push(format!(
                "{source}:{}: entry {} skipped: {why}",
                record.line,
                index + 1
            )),
        }
    }
    xml_records::keep_complete(parsed, doc.problem.as_ref(), source, "Atom feed", "entry")
}

fn is_error_entry(entry: &Record) -> bool {
    let id = entry.text("id").unwrap_or_default();
    id.contains("/api/errors")
        || (entry.text("title").map(str::trim) == Some("Error") && fields::arxiv_id(id).is_none())
}

fn paper_from_entry(entry: &Record, source: &str) -> Result<Paper, String> {
    let raw_id = entry.text("id").ok_or("no <id>")?;
    let id =
        fields::arxiv_id(raw_id).ok_or_else(|| format!("not an arXiv id: {}", text::excerpt(raw_id.trim())))?;
    let kind = match id.version {
        Some(v) if v > 1 => Kind::Replaced,
        _ => Kind::New,
    };
    let mut paper = Paper::new(id, kind, source);
    paper.title = entry
        .text("title")
        .map(fields::markup_inline)
        .unwrap_or_default();
    if paper.title.is_empty() {
        return Err("no title".into());
    }
    paper.abstract_text = entry
        .text("summary")
        .map(fields::markup_abstract)
        .unwrap_or_default();
    // One <author><name> per person: no splitting on commas or "and".
    paper.authors = entry
        .all("name")
        .map(|f| fields::markup_inline(&f.text))
        .filter(|n| !n.is_empty())
        .collect();
    let primary = entry
        .all("primary_category")
        .find_map(|f| f.attr("term"))
        .map(str::trim)
        .filter(|t| fields::is_category(t))
        .map(str::to_string);
    let others = fields::categories(entry.all("category").filter_map(|f| f.attr("term")));
    paper.set_subjects(fields::primary_first(primary, others));
    paper.comments = entry.text("comment").and_then(fields::markup_optional);
    paper.journal_ref = entry.text("journal_ref").and_then(fields::markup_optional);
    paper.listing_date = entry
        .text("updated")
        .and_then(fields::iso_date)
        .or_else(|| entry.text("published").and_then(fields::iso_date));
    Ok(paper)
}
