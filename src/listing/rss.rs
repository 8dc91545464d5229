//! rss.arxiv.org feeds (RSS 2.0 with `arxiv:announce_type`, as served since
//! 2024), with a best-effort reading of the older RSS 1.0 / RDF items.
//!
//! A 2024 item looks like:
//! `<title>…</title><link>https://arxiv.org/abs/2411.17700</link>`
//! `<description>arXiv:2411.17700v1 Announce Type: new \nAbstract: …</description>`
//! `<category>cs.CY</category>… <arxiv:announce_type>new</arxiv:announce_type>`
//! `<dc:creator>A, B, C</dc:creator>`.
//! arXiv answers a bad feed name with a normal-looking channel titled
//! "Feed error for query: …"; that is an error, not an empty listing.

use super::xml_records::{self, Record};
use super::{fields, Format, ListingError, Parsed};
use crate::paper::{ArxivId, Kind, Paper};

pub fn parse(text: &str, source: &str) -> Result<Parsed, ListingError> {
    let doc = xml_records::read(text, "item");
    let is_rss = matches!(doc.root.as_deref(), Some("rss" | "RDF"));
    if !is_rss || doc.header.text("channel").is_none() {
        // Cut or broken before the channel began: say so, not "not RSS".
        if let Some(problem) = doc.problem.as_ref().filter(|_| is_rss || doc.root.is_none()) {
            return Err(problem.error(source, "RSS feed"));
        }
        return Err(ListingError::new(source, None, "XML is not an RSS feed: no <rss> or <rdf:RDF> root with a <channel>"));
    }
    check_feed_error(&doc.header, source)?;

    let channel = Channel { date: feed_date(&doc.header), category: channel_category(&doc.header) };
    let mut parsed = Parsed::new(Format::Rss);
    for (index, record) in doc.records.iter().enumerate() {
        match paper_from_item(record, &channel, source) {
            Ok((paper, note)) => {
                if let Some(note) = note {
                    parsed.warnings.push(format!("{source}:{}: {note}", record.line));
                }
                parsed.papers.push(paper);
            }
            Err(why) => parsed.skip(format!("{source}:{}: item {} skipped: {why}", record.line, index + 1)),
        }
    }
    xml_records::keep_complete(parsed, doc.problem.as_ref(), source, "RSS feed", "item")
}

/// arXiv reports unknown archives inside an otherwise valid channel.
fn check_feed_error(channel: &Record, source: &str) -> Result<(), ListingError> {
    let title = channel.text("title").unwrap_or_default();
    if !title.trim_start().starts_with("Feed error") {
        return Ok(());
    }
    let detail = channel.text("description").map(fields::markup_inline).unwrap_or_default();
    let detail = if detail.is_empty() { fields::markup_inline(title) } else { detail };
    Err(ListingError::new(source, None, format!("arXiv RSS error: {detail}")))
}

/// The announcement date of the whole feed, used for items without their own.
fn feed_date(channel: &Record) -> Option<String> {
    channel.text("pubDate").and_then(fields::date_in).or_else(|| channel.text("date").and_then(fields::iso_date))
}

/// What the channel says of all its items.
struct Channel {
    date: Option<String>,
    category: Option<String>,
}

/// Builds one paper; the optional string is a note worth a warning.
fn paper_from_item(item: &Record, channel: &Channel, source: &str) -> Result<(Paper, Option<String>), String> {
    let description = item.text("description").unwrap_or_default();
    let (head, abstract_raw) = split_description(description);
    let raw_title = item.text("title").unwrap_or_default();
    let (title, marker) = split_rdf_title(raw_title);
    let mut id = item_id(item, head).ok_or("no arXiv identifier in description, guid or link")?;
    if let Some(marked) = marker.id.filter(|m| m.id == id.id) {
        id.version = id.version.or(marked.version);
    }
    let (kind, note) = item_kind(item, head, marker.kind);

    let mut paper = Paper::new(id, kind, source);
    paper.title = fields::markup_inline(title);
    if paper.title.is_empty() {
        return Err("no title".into());
    }
    paper.abstract_text = fields::markup_abstract(abstract_raw);
    let mut authors = super::authors::Authors::default();
    for creator in item.all("creator") {
        authors.extend(fields::markup_authors(&creator.text));
    }
    authors.set_on(&mut paper);
    let mut subjects = fields::categories(item.all("category").map(|f| f.text.as_str()));
    if subjects.is_empty() {
        // RSS 1.0 names only the primary, in the title; the item is listed
        // in the channel's category too.
        subjects = fields::categories(marker.primary.iter().chain(&channel.category).map(String::as_str));
    }
    paper.set_subjects(subjects);
    paper.journal_ref = item.text("journal_reference").and_then(fields::markup_optional);
    paper.comments = item.text("comments").or_else(|| item.text("comment")).and_then(fields::markup_optional);
    paper.listing_date = item
        .text("pubDate")
        .and_then(fields::date_in)
        .or_else(|| item.text("date").and_then(fields::iso_date))
        .or_else(|| channel.date.clone());
    Ok((paper, note))
}

/// Splits "arXiv:2411.17589v1 Announce Type: new \nAbstract: …" into the
/// identifying head and the abstract. Descriptions without the "Abstract:"
/// marker (older feeds) are all abstract.
pub(super) fn split_description(description: &str) -> (&str, &str) {
    match description.find("Abstract:") {
        // Only a marker right after the identifying head counts: an old-style
        // abstract may itself contain the word.
        Some(pos) if is_item_head(&description[..pos]) => (&description[..pos], &description[pos + "Abstract:".len()..]),
        _ => ("", description),
    }
}

fn is_item_head(head: &str) -> bool {
    let head = head.trim();
    head.is_empty() || head.starts_with("arXiv:") || head.contains("Announce Type:")
}

fn item_id(item: &Record, head: &str) -> Option<ArxivId> {
    let from_head = head.split_whitespace().find(|w| w.starts_with("arXiv:")).and_then(fields::arxiv_id);
    from_head
        .or_else(|| {
            let guid = item.text("guid")?.trim();
            fields::arxiv_id(guid.strip_prefix("oai:arXiv.org:").unwrap_or(guid))
        })
        .or_else(|| fields::arxiv_id(item.text("link")?))
}

/// What an RSS 1.0 title's closing marker says:
/// "(arXiv:2101.00001v2 [cs.DC] UPDATED)" gives the id with its version,
/// the primary category and the kind.
#[derive(Debug, Default, PartialEq)]
struct TitleMarker {
    id: Option<ArxivId>,
    primary: Option<String>,
    kind: Option<Kind>,
}

/// Splits the marker off an RSS 1.0 title; it is not part of the title.
fn split_rdf_title(title: &str) -> (&str, TitleMarker) {
    let trimmed = title.trim_end();
    let Some(pos) = trimmed.rfind("(arXiv:").filter(|_| trimmed.ends_with(')')) else {
        return (title, TitleMarker::default());
    };
    let marker = &trimmed[pos + 1..trimmed.len() - 1];
    let kind = if marker.contains("UPDATED") {
        Some(Kind::Replaced)
    } else if marker.contains("CROSS LISTED") {
        Some(Kind::Cross)
    } else {
        None
    };
    let id = marker.split_whitespace().next().and_then(fields::arxiv_id);
    let primary = marker
        .split_once('[')
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(code, _)| code.trim())
        .filter(|code| fields::is_category(code))
        .map(str::to_string);
    (trimmed[..pos].trim_end().trim_end_matches('.'), TitleMarker { id, primary, kind })
}

/// The category an RSS 1.0 channel lists ("hep-ex updates on arXiv.org").
fn channel_category(channel: &Record) -> Option<String> {
    let title = channel.text("title")?;
    let code = title.trim().strip_suffix("updates on arXiv.org")?.trim();
    fields::is_category(code).then(|| code.to_string())
}

pub(super) fn item_kind(item: &Record, head: &str, title_kind: Option<Kind>) -> (Kind, Option<String>) {
    let announce = item.text("announce_type").map(str::trim).filter(|s| !s.is_empty()).or_else(|| {
        let pos = head.find("Announce Type:")?;
        head[pos + "Announce Type:".len()..].split_whitespace().next()
    });
    match announce {
        Some("new") => (Kind::New, None),
        Some("cross") => (Kind::Cross, None),
        Some("replace" | "replace-cross") => (Kind::Replaced, None),
        Some(other) => (Kind::New, Some(format!("unknown announce type {}, read as new", super::text::excerpt(other)))),
        None => (title_kind.unwrap_or(Kind::New), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_old_titles() {
        let (t, m) = split_rdf_title("A Paper. (arXiv:2101.00001v2 [cs.DC] UPDATED)");
        assert_eq!((t, m.kind, m.primary.as_deref()), ("A Paper", Some(Kind::Replaced), Some("cs.DC")));
        assert_eq!(m.id.map(|id| id.to_string()).as_deref(), Some("2101.00001v2"));
        let (t, m) = split_rdf_title("Old. (arXiv:hep-th/9901001v3 [hep-th] CROSS LISTED)");
        assert_eq!((t, m.kind, m.primary.as_deref()), ("Old", Some(Kind::Cross), Some("hep-th")));
        assert_eq!(split_rdf_title("Plain (with parens)"), ("Plain (with parens)", TitleMarker::default()));
    }

    #[test]
    fn reads_minimal_item() {
        let xml = "<rss><channel><title>cs updates</title><pubDate>Mon, 02 Mar 2026 00:00:00 -0500</pubDate>\
            <item><title>T</title><description>arXiv:2603.00001v2 Announce Type: replace-cross \n\
            Abstract: One.\n  Two.</description><category>cs.LG</category><category>cs.DC</category>\
            <dc:creator>A, B and C</dc:creator></item></channel></rss>";
        let parsed = parse(xml, "t").unwrap();
        let p = &parsed.papers[0];
        assert_eq!((p.id.as_str(), p.version, p.kind), ("2603.00001", Some(2), Kind::Replaced));
        assert_eq!(p.abstract_text, "One.\nTwo.");
        assert_eq!(p.authors, ["A", "B", "C"]);
        assert_eq!(p.primary.as_deref(), Some("cs.LG"));
        assert_eq!(p.listing_date.as_deref(), Some("2026-03-02"));
    }
}
