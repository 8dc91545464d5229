//! JSON lines of paper metadata, one object per line, in either of two
//! shapes:
//! - our corpus: `id, title, abstract, categories` (list), `date`, `authors` (list);
//! - the Kaggle `arxiv-metadata-oai-snapshot`: `authors` as one string
//!   ("A. Smith, B. Jones and C. Lee"), `categories` as one space-separated
//!   string, `update_date`, `journal-ref`, `comments`, and `versions`
//!   (`[{"version": "v1", …}, …]`, the last one being the current version).
//!
//! Every paper is `new`. `listing_date` is `date`, else `update_date` (the
//! day of the version described, in line with `version` = last).
//!
//! Speed matters (the corpus is ~120 MB): each line is deserialized straight
//! into a struct of borrowed strings, and cleaning copies a field once only
//! when it needs changes.

use super::{fields, Format, ListingError, Parsed};
use crate::paper::{Kind, Paper};
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

#[derive(Deserialize)]
struct Record<'a> {
    #[serde(borrow, default)]
    id: Option<CowStr<'a>>,
    #[serde(borrow, default)]
    title: Option<CowStr<'a>>,
    #[serde(borrow, default, rename = "abstract")]
    abstract_text: Option<CowStr<'a>>,
    #[serde(borrow, default)]
    authors: Option<StrOrList<'a>>,
    #[serde(borrow, default)]
    categories: Option<StrOrList<'a>>,
    #[serde(borrow, default)]
    date: Option<CowStr<'a>>,
    #[serde(borrow, default)]
    update_date: Option<CowStr<'a>>,
    // Spelled both ways in the wild; separate fields (not aliases) so that a
    // line carrying both is not rejected as a duplicate.
    #[serde(borrow, default, rename = "journal-ref")]
    journal_ref_dash: Option<CowStr<'a>>,
    #[serde(borrow, default)]
    journal_ref: Option<CowStr<'a>>,
    #[serde(borrow, default)]
    comments: Option<CowStr<'a>>,
    #[serde(borrow, default)]
    comment: Option<CowStr<'a>>,
    #[serde(borrow, default)]
    versions: Option<Vec<VersionEntry<'a>>>,
}

#[derive(Deserialize)]
struct VersionEntry<'a> {
    #[serde(borrow, default)]
    version: Option<CowStr<'a>>,
}

/// A JSON string that borrows from the line whenever it has no escapes.
/// (serde's own `Cow<str>` impl copies when wrapped in `Option` or `Vec`.)
struct CowStr<'a>(Cow<'a, str>);

impl std::ops::Deref for CowStr<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

struct CowStrVisitor<'a>(PhantomData<&'a ()>);

impl<'de: 'a, 'a> Visitor<'de> for CowStrVisitor<'a> {
    type Value = CowStr<'a>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(CowStr(Cow::Borrowed(v)))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(CowStr(Cow::Owned(v.to_string())))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(CowStr(Cow::Owned(v)))
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for CowStr<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(CowStrVisitor(PhantomData))
    }
}

/// A field that is either one string or a list of strings. Written by hand
/// rather than as an untagged enum, which would buffer every value first.
enum StrOrList<'a> {
    One(CowStr<'a>),
    List(Vec<CowStr<'a>>),
}

impl<'de: 'a, 'a> Deserialize<'de> for StrOrList<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V<'a>(PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = StrOrList<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string or a list of strings")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                CowStrVisitor(PhantomData)
                    .visit_borrowed_str(v)
                    .map(StrOrList::One)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                CowStrVisitor(PhantomData).visit_str(v).map(StrOrList::One)
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                CowStrVisitor(PhantomData)
                    .visit_string(v)
                    .map(StrOrList::One)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(4).min(1024));
                while let Some(item) = seq.next_element::<CowStr<'a>>()? {
                    items.push(item);
                }
                Ok(StrOrList::List(items))
            }
        }
        deserializer.deserialize_any(V(PhantomData))
    }
}

pub fn parse(text: &str, source: &str) -> Result<Parsed, ListingError> {
    let mut parsed = Parsed::new(Format::Jsonl);
    parsed.papers.reserve(text.len() / 1800);
    let mut lines = fields::LineCounter::new(text);
    let mut bad = 0usize;
    let mut first_problem: Option<(usize, String)> = None;
    let mut note = |parsed: &mut Parsed, line: usize, why: String| {
        bad += 1;
        parsed
            .warnings
            .push(format!("{source}:{line}: line skipped: {why}"));
        first_problem.get_or_insert((line, why));
    };
    // One streaming deserializer runs over the whole text (no separate pass
    // to split lines); after a bad value it restarts at the next line.
    let mut offset = 0;
    while offset < text.len() {
        let mut stream =
            serde_json::Deserializer::from_str(&text[offset..]).into_iter::<Record<'_>>();
        loop {
            let value_start = offset + stream.byte_offset();
            match stream.next() {
                None => {
                    offset = text.len();
                    break;
                }
                Some(Ok(record)) => match paper_from_record(record, source) {
                    Ok(paper) => parsed.papers.push(paper),
                    Err(why) => note(
                        &mut parsed,
                        lines.line_at(skip_space(text, value_start)),
                        why,
                    ),
                },
                Some(Err(e)) => {
                    let bad_start = skip_space(text, value_start);
                    note(
                        &mut parsed,
                        lines.line_at(bad_start),
                        format!("bad JSON: {e}"),
                    );
                    offset = text[bad_start..]
                        .find('\n')
                        .map_or(text.len(), |p| bad_start + p + 1);
                    break;
                }
            }
        }
    }
    if parsed.papers.is_empty() {
        if let Some((line, why)) = first_problem {
            return Err(ListingError::new(
                source,
                Some(line),
                format!("no readable JSON line ({bad} bad); first: {why}"),
            ));
        }
    }
    Ok(parsed)
}

/// Offset of the first non-whitespace byte at or after `from`: where the
/// value the deserializer was about to read starts.
fn skip_space(text: &str, from: usize) -> usize {
    let rest = text.get(from..).unwrap_or_default();
    from + (rest.len() - rest.trim_start().len())
}

fn paper_from_record(record: Record<'_>, source: &str) -> Result<Paper, String> {
    let raw_id = record.id.as_deref().ok_or("no \"id\"")?;
    let mut id = fields::arxiv_id(raw_id).ok_or_else(|| format!("not an arXiv id: {raw_id:?}"))?;
    if id.version.is_none() {
        id.version = record.versions.as_deref().and_then(last_version);
    }
    let mut paper = Paper::new(id, Kind::New, source);
    paper.title = record
        .title
        .as_deref()
        .map(fields::clean_inline)
        .unwrap_or_default();
    if paper.title.is_empty() {
        return Err(format!("arXiv:{raw_id} has no title"));
    }
    paper.abstract_text = record
        .abstract_text
        .as_deref()
        .map(fields::clean_abstract)
        .unwrap_or_default();
    paper.authors = match &record.authors {
        Some(StrOrList::One(s)) => fields::split_authors(s),
        Some(StrOrList::List(list)) => list
            .iter()
            .map(|a| fields::clean_inline(a))
            .filter(|a| !a.is_empty())
            .collect(),
        None => Vec::new(),
    };
    paper.set_subjects(match &record.categories {
        Some(StrOrList::One(s)) => fields::categories(s.split_whitespace()),
        Some(StrOrList::List(list)) => fields::categories(list.iter().map(|c| &**c)),
        None => Vec::new(),
    });
    paper.comments = record
        .comments
        .as_deref()
        .or(record.comment.as_deref())
        .and_then(fields::clean_optional);
    paper.journal_ref = record
        .journal_ref_dash
        .as_deref()
        .or(record.journal_ref.as_deref())
        .and_then(fields::clean_optional);
    paper.listing_date = record
        .date
        .as_deref()
        .or(record.update_date.as_deref())
        .and_then(|d| fields::iso_date(d).or_else(|| fields::date_in(d)));
    Ok(paper)
}

/// "v3" from the last of `[{"version": "v1"}, …, {"version": "v3"}]`.
fn last_version(versions: &[VersionEntry<'_>]) -> Option<u32> {
    let v = versions.last()?.version.as_deref()?;
    v.trim().trim_start_matches('v').parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_shapes() {
        let text = concat!(
            r#"{"id": "2503.11731", "title": "T  1", "abstract": "A.", "categories": ["cs.CV", "cs.AI"], "date": "2025-03-18", "authors": ["X Y", "Z"]}"#,
            "\n\n",
            r#"{"id":"0704.0001","authors":"C. Bal\\'azs, E. L. Berger and P. M. Nadolsky","title":"Calc\n  of","comments":"37 pages","journal-ref":"Phys.Rev.D76:013009,2007","categories":"hep-ph","abstract":"  A fully\ndiff.\n","versions":[{"version":"v1","created":"x"},{"version":"v2","created":"y"}],"update_date":"2008-11-13","authors_parsed":[["Bal","C.",""]]}"#,
            "\n{oops\n"
        );
        let parsed = parse(text, "j").unwrap();
        assert_eq!(parsed.papers.len(), 2);
        assert_eq!(parsed.warnings.len(), 1);
        assert!(
            parsed.warnings[0].starts_with("j:4: "),
            "{:?}",
            parsed.warnings
        );
        let a = &parsed.papers[0];
        assert_eq!(
            (a.title.as_str(), a.primary.as_deref()),
            ("T 1", Some("cs.CV"))
        );
        assert_eq!(a.listing_date.as_deref(), Some("2025-03-18"));
        let b = &parsed.papers[1];
        assert_eq!(
            b.authors,
            ["C. Bal\\'azs", "E. L. Berger", "P. M. Nadolsky"]
        );
        assert_eq!((b.version, b.title.as_str()), (Some(2), "Calc of"));
        assert_eq!(b.abstract_text, "A fully diff.");
        assert_eq!(b.journal_ref.as_deref(), Some("Phys.Rev.D76:013009,2007"));
        assert_eq!(b.listing_date.as_deref(), Some("2008-11-13"));
    }

    #[test]
    fn all_bad_is_an_error() {
        let err = parse("{\"x\": 1}\n[1,2]\n", "j").unwrap_err();
        assert_eq!(err.line, Some(1));
    }
}
