//! OAI-PMH `ListRecords` responses from export.arxiv.org/oai2, the bulk
//! harvesting channel arXiv recommends, in its two arXiv metadata formats:
//! - `arXiv`: `<id>`, `<created>`, `<updated>`, `<authors>` of
//!   `<author><keyname/><forenames/><suffix/><affiliation/></author>`,
//!   `<title>`, `<categories>`, `<comments>`, `<journal-ref>`, `<abstract>`;
//! - `arXivRaw`: `<id>`, one `<version version='vN'><date/></version>` per
//!   version, `<authors>` as one line, and the same text fields.
//!
//! A record is metadata, not an announcement: it becomes a
//! [`Kind::Snapshot`] paper dated by its first version, like a line of the
//! bulk snapshot. Deleted records are counted and noted; `oai_dc` (no
//! categories) is refused with the formats to ask for instead.

use super::authors::Authors;
use super::xml_records::{self, Record};
use super::{fields, text, Format, ListingError, Parsed};
use crate::paper::{Kind, Paper};

/// What one response says beyond its records: where the list goes on.
#[derive(Debug, Default, PartialEq)]
pub struct Resumption {
    /// Empty (or absent) on the last page.
    pub token: Option<String>,
    pub complete_list_size: Option<u64>,
    pub cursor: Option<u64>,
}

/// The resumption token of a `ListRecords` response, read from the header
/// part of the document (records are not looked into).
pub fn resumption(xml: &str) -> Resumption {
    let doc = xml_records::read(xml, "record");
    resumption_of(&doc.header)
}

fn resumption_of(header: &Record) -> Resumption {
    let Some(field) = header.all("resumptionToken").next() else {
        return Resumption::default();
    };
    let number = |key: &str| field.attr(key).and_then(|v| v.trim().parse().ok());
    Resumption {
        token: Some(field.text.trim().to_string()).filter(|t| !t.is_empty()),
        complete_list_size: number("completeListSize"),
        cursor: number("cursor"),
    }
}

/// The OAI-PMH error a response carries (`noRecordsMatch`,
/// `badResumptionToken`, …): its code and message.
pub fn error_of(xml: &str) -> Option<(String, String)> {
    let doc = xml_records::read(xml, "record");
    let field = doc.header.all("error").next()?;
    Some((field.attr("code").unwrap_or("error").to_string(), fields::clean_inline(&field.text)))
}

pub fn parse(xml: &str, source: &str) -> Result<Parsed, ListingError> {
    read(&xml_records::read(xml, "record"), source)
}

/// One page of a harvest, read once: its papers (none for OAI's
/// `noRecordsMatch`, which ends a harvest, not an error there) and where
/// the list goes on.
pub fn page(xml: &str, source: &str) -> Result<(Parsed, Resumption), ListingError> {
    let doc = xml_records::read(xml, "record");
    let resumption = resumption_of(&doc.header);
    if doc.header.all("error").any(|e| e.attr("code") == Some("noRecordsMatch")) {
        return Ok((Parsed::new(Format::Oai), resumption));
    }
    Ok((read(&doc, source)?, resumption))
}

fn read(doc: &xml_records::Document, source: &str) -> Result<Parsed, ListingError> {
    if doc.root.as_deref() != Some("OAI-PMH") {
        if let (None, Some(problem)) = (&doc.root, &doc.problem) {
            return Err(problem.error(source, "OAI-PMH response"));
        }
        return Err(ListingError::new(source, None, "XML is not an OAI-PMH response: no <OAI-PMH> root"));
    }
    if let Some(error) = doc.header.all("error").next() {
        let code = error.attr("code").unwrap_or("error");
        return Err(ListingError::new(source, None, format!("OAI-PMH error {code}: {}", fields::clean_inline(&error.text))));
    }
    let mut parsed = Parsed::new(Format::Oai);
    let mut deleted = 0usize;
    for (index, record) in doc.records.iter().enumerate() {
        if record.all("header").any(|h| h.attr("status") == Some("deleted")) {
            deleted += 1;
            continue;
        }
        let read = if record.all("arXivRaw").next().is_some() {
            raw_record(record, source)
        } else if record.all("arXiv").next().is_some() {
            arxiv_record(record, source)
        } else if record.all("dc").next().is_some() {
            return Err(ListingError::new(
                source,
                Some(record.line),
                "OAI-PMH records in oai_dc, which has no arXiv categories; harvest with \
                 metadataPrefix=arXiv or arXivRaw",
            ));
        } else {
            Err("no arXiv or arXivRaw metadata".to_string())
        };
        match read {
            Ok(paper) => parsed.papers.push(paper),
            Err(why) => parsed.skip(format!("{source}:{}: record {} skipped: {why}", record.line, index + 1)),
        }
    }
    if deleted > 0 {
        parsed.warnings.push(format!("{source}: {deleted} deleted record(s) (withdrawn from OAI) left out"));
    }
    xml_records::keep_complete(parsed, doc.problem.as_ref(), source, "OAI-PMH response", "record")
}

fn record_id(record: &Record) -> Result<crate::paper::ArxivId, String> {
    let raw =
        record.text("id").or_else(|| record.text("identifier").map(|i| i.trim().trim_start_matches("oai:arXiv.org:"))).ok_or("no <id>")?;
    fields::arxiv_id(raw.trim()).ok_or_else(|| format!("not an arXiv id: {}", text::excerpt(raw.trim())))
}

/// The fields both formats share.
fn common(record: &Record, paper: &mut Paper) -> Result<(), String> {
    paper.title = record.text("title").map(fields::clean_inline).unwrap_or_default();
    if paper.title.is_empty() {
        return Err("no title".into());
    }
    paper.abstract_text = record.text("abstract").map(fields::clean_abstract).unwrap_or_default();
    paper.set_subjects(fields::categories(record.text("categories").unwrap_or_default().split_whitespace()));
    paper.comments = record.text("comments").and_then(fields::clean_optional);
    paper.journal_ref = record.text("journal-ref").and_then(fields::clean_optional);
    Ok(())
}

fn arxiv_record(record: &Record, source: &str) -> Result<Paper, String> {
    let mut paper = Paper::new(record_id(record)?, Kind::Snapshot, source);
    common(record, &mut paper)?;
    // <author> holds keyname, forenames, suffix and affiliations, in the
    // flat order the record reader gives them.
    #[derive(Default)]
    struct Person {
        keyname: String,
        forenames: String,
        suffix: String,
        affiliations: Vec<String>,
    }
    let mut people: Vec<Person> = Vec::new();
    let mut in_authors = false;
    for field in &record.fields {
        let value = || super::authors::one(&fields::clean_inline(&field.text));
        match field.name.as_str() {
            "authors" => in_authors = true,
            "author" if in_authors => people.push(Person::default()),
            // A surname can come in two `<keyname>`s (`van der` and `Berg`);
            // each is part of it.
            "keyname" => people.last_mut().map_or((), |p| push_word(&mut p.keyname, value())),
            "forenames" => people.last_mut().map_or((), |p| p.forenames = value()),
            "suffix" => people.last_mut().map_or((), |p| p.suffix = value()),
            "affiliation" => {
                let v = value();
                if let Some(p) = people.last_mut().filter(|_| !v.is_empty()) {
                    p.affiliations.push(v);
                }
            }
            "title" | "categories" | "abstract" => in_authors = false,
            _ => {}
        }
    }
    let mut authors = Authors::default();
    for p in people {
        let name = [p.forenames, p.keyname, p.suffix].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join(" ");
        if !name.is_empty() {
            authors.push(name, p.affiliations.join("; "));
        }
    }
    authors.set_on(&mut paper);
    paper.listing_date = record.text("created").and_then(fields::iso_date);
    Ok(paper)
}

fn push_word(to: &mut String, word: String) {
    if !to.is_empty() && !word.is_empty() {
        to.push(' ');
    }
    to.push_str(&word);
}

fn raw_record(record: &Record, source: &str) -> Result<Paper, String> {
    let mut paper = Paper::new(record_id(record)?, Kind::Snapshot, source);
    common(record, &mut paper)?;
    if let Some(line) = record.text("authors") {
        fields::authors(line).set_on(&mut paper);
    }
    // `<version version='v2'><date>Thu, 9 Apr 2009 02:45:30 GMT</date>`.
    let mut first: Option<(u32, String)> = None;
    let mut newest: Option<u32> = None;
    let mut current: Option<u32> = None;
    for field in &record.fields {
        match field.name.as_str() {
            "version" => {
                current = field.attr("version").and_then(|v| v.trim().trim_start_matches('v').parse().ok());
                newest = newest.max(current);
            }
            "date" => {
                if let (Some(v), Some(day)) = (current, fields::date_in(&field.text)) {
                    if first.as_ref().is_none_or(|(n, _)| v < *n) {
                        first = Some((v, day));
                    }
                }
            }
            _ => {}
        }
    }
    paper.version = paper.version.or(newest);
    paper.listing_date = first.map(|(_, day)| day);
    Ok(paper)
}

#[cfg(test)]
mod tests {
    use super::*;

    const RAW: &str = "<?xml version='1.0'?><OAI-PMH><responseDate>2014-01-16T11:10:55Z</responseDate>\
        <ListRecords><record><header><identifier>oai:arXiv.org:hep-th/9901001</identifier>\
        <datestamp>2009-04-09</datestamp><setSpec>physics:hep-th</setSpec></header><metadata><arXivRaw>\
        <id>hep-th/9901001</id><version version='v1'><date>Fri, 1 Jan 1999 22:55:07 GMT</date></version>\
        <version version='v2'><date>Thu, 9 Apr 2009 02:45:30 GMT</date></version><title>A\n  title</title>\
        <authors>J. Dalseno, for the Belle Collaboration</authors><categories>hep-th gr-qc</categories>\
        <abstract>  One.\n</abstract></arXivRaw></metadata></record>\
        <record><header status='deleted'><identifier>oai:arXiv.org:0704.0001</identifier></header></record>\
        <resumptionToken cursor='0' completeListSize='2'>123|1001</resumptionToken></ListRecords></OAI-PMH>";

    #[test]
    fn reads_raw_records_and_the_token() {
        let parsed = parse(RAW, "r").unwrap();
        assert_eq!(parsed.papers.len(), 1);
        let p = &parsed.papers[0];
        assert_eq!((p.id.as_str(), p.version, p.kind), ("hep-th/9901001", Some(2), Kind::Snapshot));
        assert_eq!(p.title, "A title");
        assert_eq!(p.authors, ["J. Dalseno", "Belle Collaboration"]);
        assert_eq!(p.subjects, ["hep-th", "gr-qc"]);
        assert_eq!(p.listing_date.as_deref(), Some("1999-01-01"));
        assert!(parsed.warnings[0].contains("1 deleted record"));
        assert_eq!(resumption(RAW), Resumption { token: Some("123|1001".into()), complete_list_size: Some(2), cursor: Some(0) });
    }

    #[test]
    fn reads_arxiv_records_with_affiliations() {
        let xml = "<OAI-PMH><ListRecords><record><header><identifier>oai:arXiv.org:0704.0002</identifier></header>\
            <metadata><arXiv><id>0704.0002</id><created>2007-03-30</created><authors><author><keyname>Streinu</keyname>\
            <forenames>Ileana</forenames><affiliation>Smith College</affiliation></author><author><keyname>Schr\\\"odinger</keyname>\
            <forenames>E.</forenames><suffix>Jr</suffix></author></authors><title>T</title><categories>math.CO cs.CG</categories>\
            <abstract>A.</abstract></arXiv></metadata></record><resumptionToken cursor='0'/></ListRecords></OAI-PMH>";
        let parsed = parse(xml, "a").unwrap();
        let p = &parsed.papers[0];
        assert_eq!(p.authors, ["Ileana Streinu", "E. Schrödinger Jr"]);
        assert_eq!(p.affiliations, ["Smith College", ""]);
        assert_eq!((p.version, p.listing_date.as_deref()), (None, Some("2007-03-30")));
        assert_eq!(resumption(xml).token, None);
    }

    #[test]
    fn a_surname_in_two_keynames_is_kept_whole() {
        let xml = "<OAI-PMH><ListRecords><record><header><identifier>oai:arXiv.org:0801.0003</identifier></header>\
            <metadata><arXiv><id>0801.0003</id><created>2008-01-01</created><authors><author><keyname>van der</keyname>\
            <keyname>Berg</keyname><forenames>Jan P.</forenames><suffix>III</suffix><affiliation>Leiden</affiliation></author>\
            <author><keyname>Garc\\'ia</keyname><keyname>M\\'arquez</keyname><forenames>Ana</forenames></author>\
            <author><keyname>Okafor</keyname><forenames>T.</forenames></author></authors><title>T</title>\
            <categories>hep-th</categories><abstract>A.</abstract></arXiv></metadata></record></ListRecords></OAI-PMH>";
        let p = &parse(xml, "k").unwrap().papers[0];
        assert_eq!(p.authors, ["Jan P. van der Berg III", "Ana García Márquez", "T. Okafor"]);
        assert_eq!(p.affiliations, ["Leiden", "", ""]);
    }

    #[test]
    fn errors_say_what_oai_said() {
        let xml = "<OAI-PMH><error code='noRecordsMatch'>No records</error></OAI-PMH>";
        assert!(parse(xml, "e").unwrap_err().to_string().contains("noRecordsMatch"));
        assert_eq!(error_of(xml), Some(("noRecordsMatch".into(), "No records".into())));
    }
}
