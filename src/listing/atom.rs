//! Atom feeds: export.arxiv.org API responses (Atom 1.0 with the `arxiv:`
//! extension), both the classic 2007–2025 output and the 2026 one (https
//! ids, "arXiv Query:" feed title, unwrapped summaries), and rss.arxiv.org's
//! Atom edition of the daily announcements (see [`is_announcement`]).
//!
//! The API is a search result, not a listing, so two fields of its entries
//! are derived:
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

use super::authors::Authors;
use super::xml_records::{self, Record};
use super::{fields, rss, text, Format, ListingError, Parsed};
use crate::paper::{Kind, Paper};

pub fn parse(text: &str, source: &str) -> Result<Parsed, ListingError> {
    let doc = xml_records::read(text, "entry");
    if doc.root.as_deref() != Some("feed") {
        if let (None, Some(problem)) = (&doc.root, &doc.problem) {
            return Err(problem.error(source, "Atom feed"));
        }
        return Err(ListingError::new(source, None, "XML is not an Atom feed: no <feed> root"));
    }
    if let Some(error) = doc.records.iter().find(|r| is_error_entry(r)) {
        let detail = error.text("summary").map(fields::markup_inline).unwrap_or_default();
        return Err(ListingError::new(
            source,
            Some(error.line),
            format!("arXiv API error: {}", if detail.is_empty() { "(no details given)" } else { &detail }),
        ));
    }

    let mut parsed = Parsed::new(Format::Atom);
    for (index, record) in doc.records.iter().enumerate() {
        let read = if is_announcement(record) {
            paper_from_announcement(record, source)
        } else {
            paper_from_entry(record, source).map(|p| (p, None))
        };
        match read {
            Ok((paper, note)) => {
                if let Some(note) = note {
                    parsed.warnings.push(format!("{source}:{}: {note}", record.line));
                }
                parsed.papers.push(paper)
            }
            Err(why) => parsed.skip(format!("{source}:{}: entry {} skipped: {why}", record.line, index + 1)),
        }
    }
    xml_records::keep_complete(parsed, doc.problem.as_ref(), source, "Atom feed", "entry")
}

/// An entry of rss.arxiv.org's Atom feed (`rss.arxiv.org/atom/<cat>`):
/// the RSS 2.0 item in Atom dress, with an OAI id
/// (`oai:arXiv.org:2508.13167v1`), `arxiv:announce_type`, the
/// "arXiv:… Announce Type: … Abstract:" summary and `dc:creator`.
fn is_announcement(entry: &Record) -> bool {
    entry.text("announce_type").is_some() || entry.text("id").is_some_and(|id| id.trim_start().starts_with("oai:arXiv.org:"))
}

fn paper_from_announcement(entry: &Record, source: &str) -> Result<(Paper, Option<String>), String> {
    let summary = entry.text("summary").unwrap_or_default();
    let (head, abstract_raw) = rss::split_description(summary);
    let raw_id = entry.text("id").unwrap_or_default().trim();
    let id = fields::arxiv_id(raw_id.strip_prefix("oai:arXiv.org:").unwrap_or(raw_id))
        .or_else(|| head.split_whitespace().find(|w| w.starts_with("arXiv:")).and_then(fields::arxiv_id))
        .ok_or_else(|| format!("not an arXiv id: {}", text::excerpt(raw_id)))?;
    let (kind, note) = rss::item_kind(entry, head, None);
    let mut paper = Paper::new(id, kind, source);
    paper.title = entry.text("title").map(fields::markup_inline).unwrap_or_default();
    if paper.title.is_empty() {
        return Err("no title".into());
    }
    paper.abstract_text = fields::markup_abstract(abstract_raw);
    let mut authors = Authors::default();
    for creator in entry.all("creator") {
        authors.extend(fields::markup_authors(&creator.text));
    }
    if authors.names.is_empty() {
        authors = entry_authors(entry);
    }
    authors.set_on(&mut paper);
    paper.set_subjects(fields::categories(entry.all("category").filter_map(|f| f.attr("term"))));
    paper.comments = entry.text("comments").or_else(|| entry.text("comment")).and_then(fields::markup_optional);
    paper.journal_ref = entry.text("journal_reference").or_else(|| entry.text("journal_ref")).and_then(fields::markup_optional);
    paper.listing_date = entry.text("published").and_then(fields::iso_date).or_else(|| entry.text("updated").and_then(fields::iso_date));
    Ok((paper, note))
}

fn is_error_entry(entry: &Record) -> bool {
    let id = entry.text("id").unwrap_or_default();
    id.contains("/api/errors") || (entry.text("title").map(str::trim) == Some("Error") && fields::arxiv_id(id).is_none())
}

/// One `<author><name>` per person (no splitting on commas or "and"), each
/// followed by its `<arxiv:affiliation>`s.
fn entry_authors(entry: &Record) -> Authors {
    let mut names: Vec<(String, Vec<String>)> = Vec::new();
    for field in &entry.fields {
        match field.name.as_str() {
            "name" => {
                let name = super::authors::one(&fields::markup_inline(&field.text));
                if !name.is_empty() {
                    names.push((name, Vec::new()));
                }
            }
            "affiliation" => {
                let affiliation = super::authors::one(&fields::markup_inline(&field.text));
                if let Some((_, list)) = names.last_mut().filter(|_| !affiliation.is_empty()) {
                    list.push(affiliation);
                }
            }
            _ => {}
        }
    }
    let mut authors = Authors::default();
    for (name, list) in names {
        authors.push(name, list.join("; "));
    }
    authors
}

fn paper_from_entry(entry: &Record, source: &str) -> Result<Paper, String> {
    let raw_id = entry.text("id").ok_or("no <id>")?;
    let id = fields::arxiv_id(raw_id).ok_or_else(|| format!("not an arXiv id: {}", text::excerpt(raw_id.trim())))?;
    let kind = match id.version {
        Some(v) if v > 1 => Kind::Replaced,
        _ => Kind::New,
    };
    let mut paper = Paper::new(id, kind, source);
    paper.title = entry.text("title").map(fields::markup_inline).unwrap_or_default();
    if paper.title.is_empty() {
        return Err("no title".into());
    }
    paper.abstract_text = entry.text("summary").map(fields::markup_abstract).unwrap_or_default();
    entry_authors(entry).set_on(&mut paper);
    let primary =
        entry.all("primary_category").find_map(|f| f.attr("term")).map(str::trim).filter(|t| fields::is_category(t)).map(str::to_string);
    let others = fields::categories(entry.all("category").filter_map(|f| f.attr("term")));
    paper.set_subjects(fields::primary_first(primary, others));
    paper.comments = entry.text("comment").and_then(fields::markup_optional);
    paper.journal_ref = entry.text("journal_ref").and_then(fields::markup_optional);
    paper.listing_date = entry.text("updated").and_then(fields::iso_date).or_else(|| entry.text("published").and_then(fields::iso_date));
    Ok(paper)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// rss.arxiv.org's Atom edition on a day with replacements (the real
    /// sample, a cs.AI day of 2025, has only new and cross entries), written
    /// as the feed writes its items.
    #[test]
    fn announcement_entries_of_every_type() {
        let entry = |id: &str, kind: &str| {
            format!(
                "<entry><id>oai:arXiv.org:{id}</id><title>T {id}</title><updated>2025-08-20T04:00:19+00:00</updated>\
                 <summary>arXiv:{id} Announce Type: {kind} \nAbstract: About {id}.</summary>\
                 <category term=\"cs.AI\"/><category term=\"cs.CL\"/><published>2025-08-20T00:00:00-04:00</published>\
                 <arxiv:announce_type>{kind}</arxiv:announce_type><dc:creator>A. One, B. Tw\u{f6} (MIT)</dc:creator></entry>"
            )
        };
        let xml = format!(
            "<feed xmlns:arxiv=\"http://arxiv.org/schemas/atom\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\" \
             xmlns=\"http://www.w3.org/2005/Atom\"><id>http://rss.arxiv.org/atom/cs.AI</id>{}{}{}{}</feed>",
            entry("2508.00001v1", "new"),
            entry("2508.00002v1", "cross"),
            entry("2401.00003v3", "replace"),
            entry("hep-th/9901001v2", "replace-cross"),
        );
        let parsed = parse(&xml, "a").unwrap();
        let got: Vec<(String, Option<u32>, Kind)> = parsed.papers.iter().map(|p| (p.id.clone(), p.version, p.kind)).collect();
        assert_eq!(
            got,
            [
                ("2508.00001".into(), Some(1), Kind::New),
                ("2508.00002".into(), Some(1), Kind::Cross),
                ("2401.00003".into(), Some(3), Kind::Replaced),
                ("hep-th/9901001".into(), Some(2), Kind::Replaced),
            ]
        );
        let p = &parsed.papers[3];
        assert_eq!(p.abstract_text, "About hep-th/9901001v2.");
        assert_eq!(p.authors, ["A. One", "B. Twö"]);
        assert_eq!(p.affiliations, ["", "MIT"]);
        assert_eq!(p.subjects, ["cs.AI", "cs.CL"]);
        assert_eq!(p.listing_date.as_deref(), Some("2025-08-20"));
        assert_eq!(parsed.format, Format::Atom);
    }
}
