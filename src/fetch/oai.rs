//! Harvesting arXiv's metadata over a date range with OAI-PMH, the channel
//! arXiv recommends for bulk: `ListRecords` in the `arXivRaw` format (every
//! version with its date), one page after another by resumption token.
//!
//! Politeness is the client's: one request at a time, the configured gap
//! between requests, and OAI-PMH's flow control (HTTP 503 with
//! `Retry-After`) honoured up to the timeout.

use super::client::Client;
use super::sources::Endpoints;
use crate::listing::{oai, Parsed};
use anyhow::{anyhow, bail, Result};
use std::collections::HashSet;

/// The metadata format asked for: the one with versions and their dates.
const PREFIX: &str = "arXivRaw";

/// A harvest's bounds, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Range {
    pub from: String,
    pub until: String,
    pub set: String,
}

impl Range {
    /// `from` and `until` are calendar days (`YYYY-MM-DD`, inclusive, as
    /// OAI-PMH reads them), `set` an arXiv set (`cs`, `math`,
    /// `physics:hep-th`).
    pub fn new(from: &str, until: &str, set: &str) -> Result<Range> {
        let day = |what: &str, s: &str| -> Result<chrono::NaiveDate> {
            chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d")
                .ok()
                .filter(|_| s.len() == 10)
                .ok_or_else(|| anyhow!("--oai {what} must be a day as YYYY-MM-DD, not {s:?}"))
        };
        let (f, u) = (day("FROM", from)?, day("UNTIL", until)?);
        if f > u {
            bail!("--oai FROM ({from}) is after UNTIL ({until})");
        }
        let set_ok =
            !set.is_empty() && set.len() <= 64 && set.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b':' | b'.' | b'-' | b'_'));
        if !set_ok {
            bail!("--oai SET must be an arXiv OAI set such as cs, math or physics:hep-th, not {set:?}");
        }
        Ok(Range { from: from.into(), until: until.into(), set: set.into() })
    }

    fn first_url(&self, base: &str) -> String {
        format!("{base}?verb=ListRecords&metadataPrefix={PREFIX}&from={}&until={}&set={}", self.from, self.until, encode(&self.set))
    }
}

fn encode(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

/// The pages of one harvest, each parsed, in order; ends after the page
/// with an empty resumption token (or an OAI `noRecordsMatch`).
pub struct Pages<'a> {
    client: &'a Client,
    base: String,
    next: Option<String>,
    seen: HashSet<String>,
    /// Pages read so far, and what the server says the whole list holds.
    pub pages: usize,
    pub complete_list_size: Option<u64>,
}

pub fn pages<'a>(client: &'a Client, endpoints: &Endpoints, range: &Range) -> Pages<'a> {
    let base = endpoints.oai.clone();
    let next = Some(range.first_url(&base));
    Pages { client, base, next, seen: HashSet::new(), pages: 0, complete_list_size: None }
}

/// A bound on pages, against a server that never ends its list (arXiv's
/// whole archive is about 3,000 pages of 1,000 records).
const MAX_PAGES: usize = 100_000;

impl Iterator for Pages<'_> {
    type Item = Result<Parsed>;

    fn next(&mut self) -> Option<Result<Parsed>> {
        let url = self.next.take()?;
        Some(self.page(&url))
    }
}

impl Pages<'_> {
    fn page(&mut self, url: &str) -> Result<Parsed> {
        let body = self.client.get(url)?;
        self.pages += 1;
        let text = String::from_utf8_lossy(&body);
        let (parsed, resumption) = oai::page(&text, url)?;
        self.complete_list_size = resumption.complete_list_size.or(self.complete_list_size);
        if let Some(token) = resumption.token {
            if !self.seen.insert(token.clone()) {
                bail!("{url}: the server gave the resumption token {token:?} a second time; stopped");
            }
            if self.pages >= MAX_PAGES {
                bail!("{url}: more than {MAX_PAGES} pages; stopped");
            }
            self.next = Some(format!("{}?verb=ListRecords&resumptionToken={}", self.base, encode(&token)));
        }
        Ok(parsed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_checked() {
        let r = Range::new("2024-01-01", "2024-01-31", "physics:hep-th").unwrap();
        assert_eq!(
            r.first_url("http://h/oai"),
            "http://h/oai?verb=ListRecords&metadataPrefix=arXivRaw&from=2024-01-01&until=2024-01-31&set=physics%3Ahep-th"
        );
        for (f, u, s) in [
            ("2024-02-30", "2024-03-01", "cs"),
            ("2024-1-1", "2024-03-01", "cs"),
            ("2024-03-02", "2024-03-01", "cs"),
            ("2024-03-01", "2024-03-01", "cs&verb=Identify"),
            ("2024-03-01", "2024-03-01", ""),
        ] {
            assert!(Range::new(f, u, s).is_err(), "{f} {u} {s}");
        }
    }
}
