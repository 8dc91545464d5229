//! The unit every stage passes along: one arXiv entry as a listing showed it.

use serde::{Deserialize, Serialize};
use std::fmt;

/// How a paper appeared in a listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    New,
    Cross,
    Replaced,
    /// From a metadata dump (the arXiv bulk snapshot, an exported Parquet):
    /// not seen in a listing, so it has a date (its first version's) but
    /// no listing day, and `daily` never shows it.
    #[value(skip)]
    Snapshot,
}

impl Kind {
    pub fn parse(s: &str) -> Option<Kind> {
        match s {
            "new" => Some(Kind::New),
            "cross" => Some(Kind::Cross),
            "replaced" => Some(Kind::Replaced),
            "snapshot" => Some(Kind::Snapshot),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::New => "new",
            Kind::Cross => "cross",
            Kind::Replaced => "replaced",
            Kind::Snapshot => "snapshot",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Hash of the text the embedder sees; vectors are keyed by it so that a
/// replaced entry with an unchanged abstract is not embedded again, and a
/// seed given as text is named by it.
pub fn text_hash(text: &str) -> Vec<u8> {
    use sha2::{Digest, Sha256};
    Sha256::digest(text.as_bytes())[..16].to_vec()
}

/// A calendar day as listings are dated and readers name them:
/// `2026-03-02`, and only a day the calendar has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day(chrono::NaiveDate);

impl Day {
    /// `YYYY-MM-DD`, strictly (no other separators, no time).
    pub fn parse(s: &str) -> Option<Day> {
        let b = s.as_bytes();
        let shaped = b.len() == 10 && b.iter().enumerate().all(|(i, c)| if i == 4 || i == 7 { *c == b'-' } else { c.is_ascii_digit() });
        if !shaped {
            return None;
        }
        // The digits read straight off the bytes: every paper an ingest
        // reads and every row a vector file is built from passes here.
        let number = |r: std::ops::Range<usize>| b[r].iter().fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
        let year = i32::try_from(number(0..4)).ok()?;
        chrono::NaiveDate::from_ymd_opt(year, number(5..7), number(8..10)).map(Day)
    }
}

impl Day {
    /// The day as the number YYYYMMDD, which orders as the days do.
    pub fn number(self) -> i32 {
        use chrono::Datelike;
        self.0.year() * 10_000 + self.0.month() as i32 * 100 + self.0.day() as i32
    }

    /// The day `n` days before this one, where the calendar has it.
    pub fn days_before(self, n: u64) -> Option<Day> {
        self.0.checked_sub_days(chrono::Days::new(n)).map(Day)
    }
}

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.format("%Y-%m-%d"))
    }
}

impl Serialize for Day {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// An arXiv identifier split into its stable part and optional version:
/// `2603.00356v2` → (`2603.00356`, Some(2)); `astro-ph/0601001` → (…, None).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ArxivId {
    pub id: String,
    pub version: Option<u32>,
}

impl ArxivId {
    /// Parses a bare id, an `arXiv:` prefixed one, or an abs/pdf URL.
    /// Returns None for anything that is not an arXiv identifier.
    pub fn parse(s: &str) -> Option<ArxivId> {
        let mut s = s.trim();
        for prefix in ["http://", "https://"] {
            if let Some(rest) = s.strip_prefix(prefix) {
                s = rest;
            }
        }
        if let Some(pos) = s.find("arxiv.org/") {
            s = &s[pos + "arxiv.org/".len()..];
            for seg in ["abs/", "pdf/", "html/"] {
                if let Some(rest) = s.strip_prefix(seg) {
                    s = rest;
                    break;
                }
            }
            s = s.trim_end_matches(".pdf");
        }
        if s.get(..6).is_some_and(|p| p.eq_ignore_ascii_case("arxiv:")) {
            s = &s[6..];
        }
        let (body, version) = split_version(s);
        if is_new_style(body) || is_old_style(body) {
            Some(ArxivId { id: body.to_string(), version })
        } else {
            None
        }
    }
}

impl fmt::Display for ArxivId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.version {
            Some(v) => write!(f, "{}v{}", self.id, v),
            None => f.write_str(&self.id),
        }
    }
}

fn split_version(s: &str) -> (&str, Option<u32>) {
    if let Some(pos) = s.rfind('v') {
        let digits = &s[pos + 1..];
        if pos > 0 && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            if let Ok(v) = digits.parse() {
                return (&s[..pos], Some(v));
            }
        }
    }
    (s, None)
}

/// `YYMM.NNNN` (April 2007 to December 2014) or `YYMM.NNNNN` (since 2015).
fn is_new_style(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 9 || b[4] != b'.' || !b[..4].iter().all(u8::is_ascii_digit) {
        return false;
    }
    let digits = &b[5..];
    if !digits.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let yymm = (b[0] - b'0') as u32 * 1000 + (b[1] - b'0') as u32 * 100 + (b[2] - b'0') as u32 * 10 + (b[3] - b'0') as u32;
    let month_ok = (1..=12).contains(&(yymm % 100));
    month_ok && digits.len() == if yymm >= 1501 { 5 } else { 4 }
}

/// `archive(.SC)?/YYMMNNN`, e.g. `astro-ph/0601001`, `math.AG/0201001`:
/// the archive in lower case, the subject class two capitals. Anything
/// looser takes `arxiv.org/0260872` for an id, which no longer parses once
/// written out (`ArxivId::parse` strips `arxiv.org/` first).
fn is_old_style(s: &str) -> bool {
    let Some((archive, num)) = s.split_once('/') else {
        return false;
    };
    let (name, class) = match archive.split_once('.') {
        Some((name, class)) => (name, Some(class)),
        None => (archive, None),
    };
    name.as_bytes().first().is_some_and(u8::is_ascii_lowercase)
        && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
        && class.is_none_or(|c| c.len() == 2 && c.bytes().all(|b| b.is_ascii_uppercase()))
        && num.len() == 7
        && num.bytes().all(|b| b.is_ascii_digit())
}

/// One entry of a listing (or of a metadata dump).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Paper {
    /// Identifier without version.
    pub id: String,
    pub version: Option<u32>,
    pub kind: Kind,
    pub title: String,
    /// Names only, in Unicode (NFC); empty when the source shows no authors.
    pub authors: Vec<String>,
    /// Where the document gives them: `affiliations[i]` is what it says of
    /// `authors[i]` (several joined by `; `, empty when it says nothing).
    /// Empty when the document names no affiliation at all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub affiliations: Vec<String>,
    #[serde(rename = "abstract")]
    pub abstract_text: String,
    /// Category codes, primary first.
    pub subjects: Vec<String>,
    pub primary: Option<String>,
    pub comments: Option<String>,
    pub journal_ref: Option<String>,
    /// ISO date (YYYY-MM-DD) of the listing or announcement, when known.
    pub listing_date: Option<String>,
    /// The file (or `-`) the paper was read from.
    pub source: String,
}

/// A paper known by its text alone (free text, a test's made-up paper):
/// no id, no categories, no date.
pub static UNKNOWN: Paper = Paper {
    id: String::new(),
    version: None,
    kind: Kind::New,
    title: String::new(),
    authors: Vec::new(),
    affiliations: Vec::new(),
    abstract_text: String::new(),
    subjects: Vec::new(),
    primary: None,
    comments: None,
    journal_ref: None,
    listing_date: None,
    source: String::new(),
};

impl Paper {
    /// Whether the id is one of arXiv's own grammar, bare, so that a link
    /// to arxiv.org may be made of it: a library entry is not trusted to.
    pub fn has_arxiv_id(&self) -> bool {
        ArxivId::parse(&self.id).is_some_and(|a| a.id == self.id && a.version.is_none())
    }

    /// A paper with only its identity filled in; parsers fill the rest.
    pub fn new(id: ArxivId, kind: Kind, source: &str) -> Paper {
        Paper { id: id.id, version: id.version, kind, source: source.to_string(), ..UNKNOWN.clone() }
    }

    /// Sets `subjects` and keeps `primary` in step with its first element.
    pub fn set_subjects(&mut self, subjects: Vec<String>) {
        self.primary = subjects.first().cloned();
        self.subjects = subjects;
    }

    /// The text the embedder sees: title and abstract, as the reference
    /// implementation was given them.
    pub fn embedding_text(&self) -> String {
        embedding_text(&self.title, &self.abstract_text)
    }
}

/// Title and abstract joined as the reference implementation was given them;
/// stored vectors are keyed by a hash of exactly this text.
pub fn embedding_text(title: &str, abstract_text: &str) -> String {
    if abstract_text.is_empty() {
        title.to_string()
    } else {
        format!("{title}. {abstract_text}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_is_iso_and_on_the_calendar() {
        assert_eq!(Day::parse("2024-02-29").map(|d| d.to_string()).as_deref(), Some("2024-02-29"));
        assert_eq!(Day::parse("2024-02-29").map(Day::number), Some(20240229));
        for bad in ["2023-02-29", "2024-13-01", "2024-00-10", "2024-1-01", "2024/01/01", "2024-01-01T00", "２０２４-01-01", ""] {
            assert_eq!(Day::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn parses_id_forms() {
        let a = ArxivId::parse("arXiv:2603.00356v2").unwrap();
        assert_eq!((a.id.as_str(), a.version), ("2603.00356", Some(2)));
        let b = ArxivId::parse("https://arxiv.org/abs/astro-ph/0601001v1").unwrap();
        assert_eq!((b.id.as_str(), b.version), ("astro-ph/0601001", Some(1)));
        let c = ArxivId::parse("0808.0539").unwrap();
        assert_eq!((c.id.as_str(), c.version), ("0808.0539", None));
        assert_eq!(ArxivId::parse("http://arxiv.org/pdf/1707.08567v1.pdf").unwrap().to_string(), "1707.08567v1");
        assert!(ArxivId::parse("1111.2011v2").is_some());
        for bad in [
            "",
            "abc",
            "2603.0035",
            "1111.20111",
            "2613.00356",
            "2603.003561",
            "v2",
            "astro-ph/06",
            "../etc/passwd",
            "arXiv\u{e9}:1",
            "2303\u{fffd}01382",
        ] {
            assert!(ArxivId::parse(bad).is_none(), "{bad}");
        }
    }

    /// Found by the `arxiv_id` fuzz target: an id that does not read back.
    #[test]
    fn old_style_archives_are_lower_case_with_a_two_capital_class() {
        assert_eq!(ArxivId::parse("arxiv.org/arxiv.org/0260872"), None);
        for bad in ["arxiv.org/0260872", "Math/0201001", "math.ag/0201001", "math.AGX/0201001", "math./0201001", ".AG/0201001"] {
            assert!(ArxivId::parse(bad).is_none(), "{bad}");
        }
        for good in ["math.AG/0201001", "cond-mat/0601001v3", "hep-th/9901001", "cs.DC/0101001"] {
            let id = ArxivId::parse(good).unwrap_or_else(|| panic!("{good}"));
            assert_eq!(ArxivId::parse(&id.to_string()), Some(id));
        }
    }
}
