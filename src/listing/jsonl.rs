//! JSON lines of paper metadata, one object per line, in either of two
//! shapes:
//! - our corpus: `id, title, abstract, categories` (list), `date`, `authors` (list);
//! - the Kaggle `arxiv-metadata-oai-snapshot`: `authors` as one string
//!   ("A. Smith, B. Jones and C. Lee"), `categories` as one space-separated
//!   string, `update_date`, `journal-ref`, `comments`, and `versions`
//!   (`[{"version": "v1", …}, …]`, the last one being the current version).
//!
//! Every paper is `new` unless the line says otherwise: paperscout's own
//! `parse --json` lines (`kind`, `version`, `subjects`, `listing_date`) read
//! back as they were written. `listing_date` is `listing_date`, else `date`.
//! A snapshot line (one with `versions`) is of kind `snapshot`: it was never
//! seen in a listing, so its date is its first version's (`created`), else
//! `update_date`, and it gets no listing day; its version is the last one.
//!
//! A line may carry a vector made elsewhere (`paperscout embed` output:
//! `embedding` and `model`, maybe `text`); it is kept beside the paper as a
//! [`Given`] for `ingest` to check and store.
//!
//! Speed matters (the corpus is ~120 MB): each line is deserialized straight
//! into a struct of borrowed strings, and the bulky fields (title, abstract,
//! authors, categories) are cleaned while they are read, straight from the
//! line into the paper's own `String`s, with no intermediate copies or lists.
//! [`read_records`] also runs on line-aligned pieces of a larger text, which
//! is how `super::parse_bytes` parses a big gzipped file while it is still
//! being decompressed.

use super::{fields, Format, Given, ListingError, Parsed};
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
    #[serde(default)]
    title: Option<Cleaned<Inline>>,
    #[serde(default, rename = "abstract")]
    abstract_text: Option<Cleaned<Abstract>>,
    #[serde(default)]
    authors: Option<Authors>,
    #[serde(default)]
    categories: Option<Categories>,
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
    // paperscout's own `parse --json` / `fetch --out` lines, so they read
    // back with their kind, version, subjects and day.
    #[serde(borrow, default)]
    kind: Option<CowStr<'a>>,
    #[serde(default)]
    version: Option<u32>,
    #[serde(default)]
    subjects: Option<Categories>,
    #[serde(borrow, default)]
    listing_date: Option<CowStr<'a>>,
    // A vector made elsewhere, and what it was made from.
    #[serde(default)]
    embedding: Option<Vec<f32>>,
    #[serde(borrow, default)]
    model: Option<CowStr<'a>>,
    #[serde(borrow, default)]
    text: Option<CowStr<'a>>,
}

#[derive(Deserialize)]
struct VersionEntry<'a> {
    #[serde(borrow, default)]
    version: Option<CowStr<'a>>,
    #[serde(borrow, default)]
    created: Option<CowStr<'a>>,
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

/// How a string field is cleaned as it is read.
trait Cleaner {
    fn clean(raw: &str) -> String;
}

/// One-line fields: [`fields::clean_inline`].
struct Inline;
impl Cleaner for Inline {
    fn clean(raw: &str) -> String {
        fields::clean_inline(raw)
    }
}

/// Abstracts: [`fields::clean_abstract`].
struct Abstract;
impl Cleaner for Abstract {
    fn clean(raw: &str) -> String {
        fields::clean_abstract(raw)
    }
}

/// A JSON string, already cleaned by `C`: the raw value is never copied out
/// of the line (or out of serde_json's unescaping buffer) first.
struct Cleaned<C>(String, PhantomData<C>);

impl<'de, C: Cleaner> Deserialize<'de> for Cleaned<C> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V<C>(PhantomData<C>);
        impl<C: Cleaner> Visitor<'_> for V<C> {
            type Value = Cleaned<C>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Cleaned(C::clean(v), PhantomData))
            }
        }
        deserializer.deserialize_str(V(PhantomData))
    }
}

/// `authors`, either one string ("A. Smith, B. Jones and C. Lee", split by
/// [`fields::authors`]) or a list of names (each cleaned, empty ones
/// dropped). Written by hand rather than as an untagged enum, which would
/// buffer every value first.
struct Authors(super::authors::Authors);

impl<'de> Deserialize<'de> for Authors {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Authors;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string or a list of strings")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Authors(fields::authors(v)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut names = Vec::with_capacity(seq.size_hint().unwrap_or(8).min(1024));
                while let Some(Cleaned(name, _)) = seq.next_element::<Cleaned<Inline>>()? {
                    let name = super::authors::one(&name);
                    if !name.is_empty() {
                        names.push(name);
                    }
                }
                Ok(Authors(super::authors::Authors { names, affiliations: Vec::new() }))
            }
        }
        deserializer.deserialize_any(V)
    }
}

/// `categories`, either one space-separated string or a list; kept as
/// [`fields::categories`] keeps them (codes only, in order, no repeats).
struct Categories(Vec<String>);

impl<'de> Deserialize<'de> for Categories {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Categories;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string or a list of strings")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Categories(fields::categories(v.split_whitespace())))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut codes = fields::Categories::default();
                while let Some(term) = seq.next_element::<CowStr<'_>>()? {
                    codes.push(&term);
                }
                Ok(Categories(codes.into_vec()))
            }
        }
        deserializer.deserialize_any(V)
    }
}

/// What a run over JSON lines found.
#[derive(Default)]
pub(super) struct Records {
    pub papers: Vec<Paper>,
    pub given: Vec<Given>,
    pub skipped: Vec<Skip>,
}

/// A line that gave no paper.
pub(super) struct Skip {
    /// 1-based line where the value starts.
    pub line: usize,
    pub why: Why,
    /// The line mentions `"embedding"`: a vector was meant to come with
    /// it, so `ingest` stops rather than skip it (stream.rs, which the fuzz
    /// build leaves out).
    #[cfg_attr(not(feature = "parquet"), allow(dead_code))]
    pub embedding: bool,
}

pub(super) enum Why {
    /// JSON, but not a paper.
    Record(String),
    /// Not JSON. serde_json says where it stopped (`at`: line and column)
    /// counting lines from where its deserializer started, which is the
    /// start of the text or the line after the last line that was not JSON;
    /// [`finish`] works that out, so the line is kept absolute here.
    Json { message: String, at: Option<(usize, usize)> },
}

/// Where the text given to [`read_records`] lies in the whole input.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Span {
    Whole,
    /// One of consecutive line-aligned pieces; `last` is the one at the end.
    Piece {
        last: bool,
    },
}

pub fn parse(text: &str, source: &str) -> Result<Parsed, ListingError> {
    let mut records = Records::default();
    read_records(text, source, 1, Span::Whole, &mut records);
    finish(records, source)
}

/// Reads every JSON value of `text` into `out`, numbering its lines from
/// `first_line`; a line that is not JSON is skipped with a note. Returns
/// false (`out` then has what came before) only for a piece that cannot
/// be read on its own: a value that may go on in the next piece, or an
/// error whose position cannot be told apart from its message.
pub(super) fn read_records(text: &str, source: &str, first_line: usize, span: Span, out: &mut Records) -> bool {
    out.papers.reserve(text.len() / 1800);
    let mut lines = fields::LineCounter::new(text);
    // One streaming deserializer runs over the whole text (no separate pass
    // to split lines); after a bad value it restarts at the next line.
    let mut offset = 0;
    while offset < text.len() {
        let origin = first_line - 1 + lines.line_at(offset);
        let mut stream = serde_json::Deserializer::from_str(&text[offset..]).into_iter::<Record<'_>>();
        loop {
            let value_start = offset + stream.byte_offset();
            match stream.next() {
                None => {
                    offset = text.len();
                    break;
                }
                Some(Ok(mut record)) => {
                    let given = record.embedding.take().map(|vector| Given {
                        paper: out.papers.len(),
                        line: first_line - 1 + lines.line_at(skip_space(text, value_start)),
                        model: record.model.take().map(|m| m.0.into_owned()),
                        text: record.text.take().map(|t| t.0.into_owned()),
                        vector,
                    });
                    match paper_from_record(record, source) {
                        Ok(paper) => {
                            out.given.extend(given);
                            out.papers.push(paper);
                        }
                        Err(why) => out.skipped.push(Skip {
                            line: first_line - 1 + lines.line_at(skip_space(text, value_start)),
                            why: Why::Record(why),
                            embedding: given.is_some(),
                        }),
                    }
                }
                Some(Err(e)) => {
                    if e.is_eof() && span == (Span::Piece { last: false }) {
                        return false;
                    }
                    let message = e.to_string();
                    let position = format!(" at line {} column {}", e.line(), e.column());
                    let why = match message.strip_suffix(&position) {
                        Some(code) if e.line() > 0 => {
                            Why::Json { message: code.to_string(), at: Some((origin + e.line() - 1, e.column())) }
                        }
                        _ if span != Span::Whole => return false,
                        _ => Why::Json { message, at: None },
                    };
                    let bad_start = skip_space(text, value_start);
                    let end = text[bad_start..].find('\n').map_or(text.len(), |p| bad_start + p + 1);
                    out.skipped.push(Skip {
                        line: first_line - 1 + lines.line_at(bad_start),
                        why,
                        embedding: text[bad_start..end].contains("\"embedding\""),
                    });
                    offset = end;
                    break;
                }
            }
        }
    }
    true
}

/// Turns what [`read_records`] found into the result: a warning per
/// skipped line, and an error when no line at all was readable.
pub(super) fn finish(records: Records, source: &str) -> Result<Parsed, ListingError> {
    let Records { papers, skipped, .. } = records;
    // Where the deserializer started when each error was met: see `Why::Json`.
    let mut origin = 1;
    let skipped: Vec<(usize, String)> = skipped
        .into_iter()
        .map(|Skip { line, why, .. }| match why {
            Why::Record(why) => (line, why),
            Why::Json { message, at } => {
                let why = match at {
                    Some((at, column)) => format!("bad JSON: {message} at line {} column {column}", (at + 1).saturating_sub(origin)),
                    None => format!("bad JSON: {message}"),
                };
                origin = line + 1;
                (line, why)
            }
        })
        .collect();
    if papers.is_empty() {
        if let Some((line, why)) = skipped.first() {
            return Err(ListingError::new(source, Some(*line), format!("no readable JSON line ({} bad); first: {why}", skipped.len())));
        }
    }
    let mut parsed = Parsed::new(Format::Jsonl);
    parsed.papers = papers;
    for (line, why) in skipped {
        parsed.skip(format!("{source}:{line}: line skipped: {why}"));
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
    let mut id = fields::arxiv_id(raw_id).ok_or_else(|| format!("not an arXiv id: {}", super::text::excerpt(raw_id)))?;
    if id.version.is_none() {
        id.version = record.version.or_else(|| record.versions.as_deref().and_then(last_version));
    }
    let snapshot = record.versions.is_some();
    let kind = record.kind.as_deref().and_then(Kind::parse).unwrap_or(if snapshot { Kind::Snapshot } else { Kind::New });
    let title = record.title.map(|t| t.0).unwrap_or_default();
    if title.is_empty() {
        return Err(format!("arXiv:{raw_id} has no title"));
    }
    let mut paper = Paper::new(id, kind, source);
    paper.title = title;
    paper.abstract_text = record.abstract_text.map(|a| a.0).unwrap_or_default();
    if let Some(authors) = record.authors {
        authors.0.set_on(&mut paper);
    }
    paper.set_subjects(record.categories.or(record.subjects).map(|c| c.0).unwrap_or_default());
    paper.comments = record.comments.as_deref().or(record.comment.as_deref()).and_then(fields::clean_optional);
    paper.journal_ref = record.journal_ref_dash.as_deref().or(record.journal_ref.as_deref()).and_then(fields::clean_optional);
    let as_date = |d: &str| fields::iso_date(d).or_else(|| fields::date_in(d));
    paper.listing_date = record
        .listing_date
        .as_deref()
        .or(record.date.as_deref())
        .and_then(as_date)
        .or_else(|| record.versions.as_deref().and_then(first_created))
        .or_else(|| record.update_date.as_deref().and_then(as_date));
    Ok(paper)
}

/// The day of the first version ("Mon, 2 Apr 2007 19:18:42 GMT").
fn first_created(versions: &[VersionEntry<'_>]) -> Option<String> {
    fields::date_in(versions.first()?.created.as_deref()?)
}

/// 3 from `[{"version": "v1"}, …, {"version": "v3"}]`: the newest.
fn last_version(versions: &[VersionEntry<'_>]) -> Option<u32> {
    versions.iter().filter_map(|e| e.version.as_deref()?.trim().trim_start_matches('v').parse().ok()).max()
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
        assert!(parsed.warnings[0].starts_with("j:4: "), "{:?}", parsed.warnings);
        let a = &parsed.papers[0];
        assert_eq!((a.title.as_str(), a.primary.as_deref()), ("T 1", Some("cs.CV")));
        assert_eq!(a.listing_date.as_deref(), Some("2025-03-18"));
        let b = &parsed.papers[1];
        assert_eq!(b.authors, ["C. Balázs", "E. L. Berger", "P. M. Nadolsky"]);
        assert_eq!((b.version, b.title.as_str()), (Some(2), "Calc of"));
        assert_eq!(b.abstract_text, "A fully diff.");
        assert_eq!(b.journal_ref.as_deref(), Some("Phys.Rev.D76:013009,2007"));
        assert_eq!(b.listing_date.as_deref(), Some("2008-11-13"));
    }

    /// A JSON string is text: `<…>` in it is words, not a tag to delete.
    #[test]
    fn angle_brackets_and_ampersands_are_kept() {
        let title = "Tail latency from <10 ms to <2 ms";
        let abs = "Unlike the <former architecture> design; also a<b and x > y, R&amp;D.";
        let line = serde_json::json!({"id": "2501.00001", "title": title, "abstract": abs,
            "authors": ["A <b>"], "comments": "<i>8 pages</i>"});
        let parsed = parse(&line.to_string(), "j").unwrap();
        let p = &parsed.papers[0];
        assert_eq!((p.title.as_str(), p.abstract_text.as_str()), (title, abs));
        assert_eq!(p.authors, ["A <b>"]);
        assert_eq!(p.comments.as_deref(), Some("<i>8 pages</i>"));
    }

    #[test]
    fn all_bad_is_an_error() {
        let err = parse("{\"x\": 1}\n[1,2]\n", "j").unwrap_err();
        assert_eq!(err.line, Some(1));
    }
}
