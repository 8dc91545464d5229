//! arXiv's plain-text listings: the daily subscription mailing and the
//! `pastweek` listing file of the same family.
//!
//! Entries are `\\`-delimited:
//! ```text
//! \\
//! arXiv:2303.01374 (*cross-listing*)
//! Date: Thu, 2 Mar 2023 16:00:16 GMT   (921kb,D)
//!
//! Title: Raising the observed metallicity floor …
//!   SDSS J102915.14+172927.9            <- continuation lines are indented
//! Authors: C. Lagae, A. M. Amarsi, …
//! Categories: astro-ph.SR astro-ph.GA   <- primary first
//! \\
//!   Context: The first stars …          <- abstract (mailings only)
//! \\ ( https://arxiv.org/abs/2303.01374 ,  921kb)
//! ```
//! Replacements carry a "replaced with revised version …" line and usually no
//! abstract. A mailing marks its sections with rules: `%-%-%-…` starts the
//! cross-lists, `%%--%%--…` the replacements, `%%%---%%%---…` the footer.
//! The 1990s mailings and monthly listing files open entries with
//! `Paper: hep-th/9701001` or `Paper (*cross-listing*): cond-mat/9701067`.
//! The pastweek file has no abstracts and dates its days with
//! `/* Fri, 3 Mar 2023 */` headings; a mailing is dated by its `Date:` header
//! (sent after the evening announcement, so its GMT day is the listing day),
//! or, saved without it, by the day after its "received from … to …" window.

use super::{fields, Format, ListingError, Parsed};
use crate::paper::{ArxivId, Kind, Paper};

/// True when the head of a text looks like an arXiv mailing: a bare `\\`
/// delimiter line and an `arXiv:<id>` entry line.
pub fn looks_like(head: &str) -> bool {
    let mut delimiter = false;
    let mut entry = false;
    for line in head.lines() {
        let line = line.trim_end();
        delimiter |= line == "\\\\";
        entry |= entry_id(line).is_some();
        if delimiter && entry {
            return true;
        }
    }
    false
}

pub fn parse(text: &str, source: &str) -> Result<Parsed, ListingError> {
    let mut reader = Reader::new(source);
    for (index, line) in text.lines().enumerate() {
        reader.line(index + 1, line.trim_end());
    }
    reader.finish()
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    New,
    Cross,
    Replaced,
    Footer,
}

#[derive(PartialEq, Eq)]
enum Phase {
    /// Between `arXiv:` and the `\\` that closes the field block.
    Header,
    /// After that `\\`: the abstract, if any, up to the next `\\` line.
    Body,
}

struct Entry {
    line: usize,
    id: ArxivId,
    cross: bool,
    replaced: bool,
    phase: Phase,
    /// (key, value, line) in order of appearance; continuation lines are
    /// appended to the value with a newline.
    fields: Vec<(String, String, usize)>,
    body: Vec<String>,
}

/// Line-by-line state machine; one entry is open at a time.
struct Reader<'a> {
    source: &'a str,
    section: Section,
    date: Option<String>,
    seen_delimiter: bool,
    entries_seen: usize,
    current: Option<Entry>,
    parsed: Parsed,
}

impl<'a> Reader<'a> {
    fn new(source: &'a str) -> Self {
        Reader {
            source,
            section: Section::New,
            date: None,
            seen_delimiter: false,
            entries_seen: 0,
            current: None,
            parsed: Parsed::new(Format::Mailing),
        }
    }

    fn line(&mut self, n: usize, line: &str) {
        if line.starts_with("\\\\") {
            self.delimiter(line);
            return;
        }
        let Some(entry) = self.current.as_mut() else {
            self.between_entries(n, line);
            return;
        };
        match entry.phase {
            Phase::Header => {
                if entry_id(line).is_some() {
                    // A new entry without the closing `\\`: the block was cut.
                    self.abandon("its field block is not closed by a \\\\ line");
                    self.between_entries(n, line);
                } else {
                    header_line(entry, n, line);
                }
            }
            Phase::Body => {
                if is_rule(line) {
                    self.rule(line);
                } else {
                    entry.body.push(line.to_string());
                }
            }
        }
    }

    /// A `\\` line closes the field block; a second one (or the
    /// `\\ ( https://arxiv.org/abs/… )` trailer) closes the entry.
    fn delimiter(&mut self, line: &str) {
        self.seen_delimiter = true;
        let is_trailer = line != "\\\\";
        let Some(entry) = self.current.as_mut() else {
            return;
        };
        if entry.phase == Phase::Header && !is_trailer {
            entry.phase = Phase::Body;
        } else {
            self.finish_entry();
        }
    }

    fn between_entries(&mut self, n: usize, line: &str) {
        if let Some((id, rest)) = entry_id(line) {
            if self.section == Section::Footer {
                return;
            }
            self.entries_seen += 1;
            self.current = Some(Entry {
                line: n,
                id,
                cross: rest.contains("cross-list"),
                replaced: rest.contains("replace"),
                phase: Phase::Header,
                fields: Vec::new(),
                body: Vec::new(),
            });
        } else if line.starts_with("/*") && line.ends_with("*/") {
            self.date = fields::date_in(line).or(self.date.take());
        } else if is_rule(line) {
            self.rule(line);
        } else if !self.seen_delimiter && line.starts_with("Date:") {
            // The mailing's own e-mail header.
            self.date = fields::date_in(line);
        } else if !self.seen_delimiter && self.date.is_none() && line.trim_start().starts_with("received from") {
            // A mailing saved without its e-mail header still names its window.
            self.date = line.split(" to ").nth(1).and_then(fields::date_in).and_then(|end| announced_after(&end));
        }
    }

    fn rule(&mut self, line: &str) {
        if line.starts_with("%%%---") {
            self.section = Section::Footer;
        } else if line.starts_with("%%--%%") {
            self.section = Section::Replaced;
        } else if line.starts_with("%-%-") {
            self.section = Section::Cross;
        }
    }

    fn abandon(&mut self, why: &str) {
        if let Some(entry) = self.current.take() {
            let id = &entry.id;
            self.parsed.skip(format!("{}:{}: arXiv:{id} skipped: {why}", self.source, entry.line));
        }
    }

    fn finish_entry(&mut self) {
        let Some(entry) = self.current.take() else {
            return;
        };
        match self.build(entry) {
            Ok(paper) => self.parsed.papers.push(paper),
            Err(message) => self.parsed.skip(message),
        }
    }

    fn build(&mut self, entry: Entry) -> Result<Paper, String> {
        let source = self.source;
        let kind = if entry.replaced || self.section == Section::Replaced {
            Kind::Replaced
        } else if entry.cross || self.section == Section::Cross {
            Kind::Cross
        } else {
            Kind::New
        };
        let mut get = |key: &str| -> Option<&str> {
            let mut matches = entry.fields.iter().filter(|(k, _, _)| k == key);
            let first = matches.next();
            if let Some((_, _, line)) = matches.next() {
                self.parsed.warnings.push(format!("{source}:{line}: arXiv:{} has a second {key}: line; kept the first", entry.id));
            }
            first.map(|(_, v, _)| v.as_str())
        };
        let title = get("Title").map(fields::clean_inline).unwrap_or_default();
        let authors = get("Authors").map(fields::authors).unwrap_or_default();
        let subjects = fields::categories(get("Categories").unwrap_or_default().split_whitespace());
        let comments = get("Comments").and_then(fields::clean_optional);
        let journal_ref = get("Journal-ref").and_then(fields::clean_optional);
        if title.is_empty() {
            return Err(format!("{source}:{}: arXiv:{} skipped: no Title: line", entry.line, entry.id));
        }
        let mut paper = Paper::new(entry.id, kind, source);
        paper.title = title;
        authors.set_on(&mut paper);
        paper.set_subjects(subjects);
        paper.comments = comments;
        paper.journal_ref = journal_ref;
        paper.abstract_text = fields::clean_abstract(&entry.body.join("\n"));
        paper.listing_date = self.date.clone();
        Ok(paper)
    }

    fn finish(mut self) -> Result<Parsed, ListingError> {
        if let Some(entry) = &self.current {
            match entry.phase {
                Phase::Header => self.abandon("the input ends inside its field block (truncated?)"),
                // The pastweek file ends right after the closing `\\`; a
                // mailing abstract always ends with the `\\ ( url )` trailer.
                Phase::Body if entry.body.iter().all(|l| l.trim().is_empty()) => self.finish_entry(),
                Phase::Body => self.abandon("the input ends inside its abstract (truncated?)"),
            }
        }
        if self.parsed.papers.is_empty() && self.entries_seen > 0 {
            let first = self.parsed.warnings.first().cloned().unwrap_or_default();
            return Err(ListingError::new(self.source, None, format!("no readable entry in the mailing text (first problem: {first})")));
        }
        if self.entries_seen == 0 {
            return Err(ListingError::new(self.source, None, "no arXiv entries (lines starting with arXiv:<id>) in the mailing text"));
        }
        Ok(self.parsed)
    }
}

/// The id and the marker of an entry's first line: "arXiv:2303.01374
/// (*cross-listing*)" since 2007, "Paper (*cross-listing*): cond-mat/9701067"
/// or "Paper: hep-th/9701001" in the 1990s.
fn entry_id(line: &str) -> Option<(ArxivId, &str)> {
    if let Some(rest) = line.strip_prefix("Paper") {
        let (marker, after) = rest.split_once(':')?;
        let marker = marker.trim();
        if !(marker.is_empty() || (marker.starts_with('(') && marker.ends_with(')'))) {
            return None;
        }
        let id = fields::arxiv_id(after.split_whitespace().next()?)?;
        return Some((id, marker));
    }
    let rest = line.strip_prefix("arXiv:")?;
    let token = rest.split_whitespace().next()?;
    let id = fields::arxiv_id(token)?;
    Some((id, &rest[token.len()..]))
}

/// The listing day of a mailing whose submission window ends on `end`
/// (`YYYY-MM-DD`): arXiv announces that evening, US Eastern, and the mailing
/// and listing are dated the next day, Monday for a window ending on Friday.
/// (A holiday moves it; the e-mail's `Date:` header, when kept, is exact.)
fn announced_after(end: &str) -> Option<String> {
    use chrono::{Datelike, Weekday};
    let end = chrono::NaiveDate::parse_from_str(end, "%Y-%m-%d").ok()?;
    let skip = match end.weekday() {
        Weekday::Fri => 3,
        Weekday::Sat => 2,
        _ => 1,
    };
    Some((end + chrono::Days::new(skip)).format("%Y-%m-%d").to_string())
}

/// Lines made only of `-` and `%`: entry separators and section markers.
fn is_rule(line: &str) -> bool {
    line.len() >= 10 && line.bytes().all(|b| b == b'-' || b == b'%')
}

fn header_line(entry: &mut Entry, n: usize, line: &str) {
    if line.trim().is_empty() {
        return;
    }
    if line.starts_with([' ', '\t']) {
        if let Some((_, value, _)) = entry.fields.last_mut() {
            value.push('\n');
            value.push_str(line);
        }
        return;
    }
    if line.starts_with("replaced with revised version") {
        entry.replaced = true;
        return;
    }
    if let Some((key, value)) = line.split_once(':') {
        if is_field_key(key) {
            entry.fields.push((key.to_string(), value.to_string(), n));
        }
    }
}

fn is_field_key(key: &str) -> bool {
    key.starts_with(|c: char| c.is_ascii_uppercase()) && key.bytes().all(|b| b.is_ascii_alphabetic() || b == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "Date: Fri,  9 Jun 23 00:44:20 GMT\n\
        \\\\\n\
        arXiv:2306.00001\n\
        Date: Wed, 7 Jun 2023 18:23:40 GMT   (14kb)\n\
        \n\
        Title: A title\n\
        \x20 continued\n\
        Authors: A. One, B. Two and C. Three\n\
        Categories: math.AG math.GR\n\
        \\\\\n\
        \x20 First paragraph\n\
        wrapped.\n\
        \x20 Second.\n\
        \\\\ ( https://arxiv.org/abs/2306.00001 ,  14kb)\n\
        %%--%%--%%--%%--%%--%%--%%--\n\
        \\\\\n\
        arXiv:2204.00002\n\
        replaced with revised version Thu, 8 Jun 2023 08:03:26 GMT   (25kb,D)\n\
        \n\
        Title: Old paper\n\
        Categories: math.PR\n\
        \\\\ ( https://arxiv.org/abs/2204.00002 ,  25kb)\n";

    #[test]
    fn reads_entries_kinds_and_abstracts() {
        assert!(looks_like(SAMPLE));
        let parsed = parse(SAMPLE, "m").unwrap();
        assert_eq!(parsed.papers.len(), 2);
        let a = &parsed.papers[0];
        assert_eq!(a.title, "A title continued");
        assert_eq!(a.authors, ["A. One", "B. Two", "C. Three"]);
        assert_eq!(a.subjects, ["math.AG", "math.GR"]);
        assert_eq!(a.abstract_text, "First paragraph wrapped.\nSecond.");
        assert_eq!(a.listing_date.as_deref(), Some("2023-06-09"));
        assert_eq!(a.kind, Kind::New);
        let b = &parsed.papers[1];
        assert_eq!((b.kind, b.abstract_text.as_str()), (Kind::Replaced, ""));
        assert!(b.authors.is_empty());
    }

    #[test]
    fn truncated_abstract_is_dropped_with_warning() {
        let cut = &SAMPLE[..SAMPLE.find("wrapped").unwrap()];
        let parsed = parse(cut, "m");
        assert!(parsed.is_err(), "{parsed:?}");
        let cut = &SAMPLE[..SAMPLE.find("Categories: math.PR").unwrap()];
        let parsed = parse(cut, "m").unwrap();
        assert_eq!(parsed.papers.len(), 1);
        assert!(parsed.warnings[0].contains("arXiv:2204.00002"), "{:?}", parsed.warnings);
    }

    /// The 1990s mailing, as arXiv's own listing files of that era show
    /// entries (the real sample is a monthly file of cross-listings only):
    /// `Paper:` lines, an abstract, and a replacement.
    #[test]
    fn nineties_entries() {
        let text = "------------------------------------------------------------------------------\n\
            \\\\\n\
            Paper: hep-th/9701001\n\
            From: A Person <someone@example.com>\n\
            Date: Wed, 1 Jan 1997 10:00:00 GMT   (10kb)\n\
            \n\
            Title: Waves\n\
            Authors: E. Schr\\\"odinger (1), P. Dirac (2) ((1) Dublin, (2) Cambridge)\n\
            Comments: 10 pages\n\
            \\\\\n\
            \x20 The abstract.\n\
            \\\\\n\
            ------------------------------------------------------------------------------\n\
            \\\\\n\
            Paper (*cross-listing*): math.AG/9701002\n\
            Date: Thu, 2 Jan 1997 10:00:00 GMT   (12kb)\n\
            \n\
            Title: Curves\n\
            Authors: A. Weil\n\
            Categories: math.AG hep-th\n\
            \\\\\n\
            \\\\\n\
            Paper: hep-th/9612001\n\
            replaced with revised version Fri, 3 Jan 1997 10:00:00 GMT   (11kb)\n\
            \n\
            Title: Older\n\
            \\\\\n";
        assert!(looks_like(text));
        let parsed = parse(text, "m").unwrap();
        let got: Vec<(&str, Kind)> = parsed.papers.iter().map(|p| (p.id.as_str(), p.kind)).collect();
        assert_eq!(got, [("hep-th/9701001", Kind::New), ("math.AG/9701002", Kind::Cross), ("hep-th/9612001", Kind::Replaced)]);
        let a = &parsed.papers[0];
        assert_eq!(a.authors, ["E. Schrödinger", "P. Dirac"]);
        assert_eq!(a.affiliations, ["Dublin", "Cambridge"]);
        assert_eq!(a.abstract_text, "The abstract.");
        assert_eq!(parsed.papers[1].subjects, ["math.AG", "hep-th"]);
        assert!(!looks_like("Paper: not an id\n\\\\\n"));
    }
}
