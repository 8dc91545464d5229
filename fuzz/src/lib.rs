//! The fuzz targets' view of paperscout: the library crate itself, built
//! without its `app` feature (the parsers alone, with a handful of
//! dependencies: the fuzz build instruments every crate it compiles, and
//! paperscout as a whole needs hundreds), and what must hold of whatever
//! a parser returns.

#[cfg(feature = "parquet")]
pub use paperscout::listing::parquet;
pub use paperscout::profile::seed_files;
pub use paperscout::{listing, paper};

use listing::Parsed;
use paper::ArxivId;

/// What must hold for every paper any parser returns: its id is one
/// `ArxivId::parse` accepts and gives back unchanged, and its date is ISO.
pub fn check(parsed: &Parsed) {
    for p in &parsed.papers {
        let id = ArxivId { id: p.id.clone(), version: p.version };
        assert_eq!(ArxivId::parse(&id.to_string()), Some(id), "id of {p:?}");
        if let Some(date) = &p.listing_date {
            check_date(date);
        }
    }
}

/// `YYYY-MM-DD`, and a day the calendar has.
pub fn check_date(date: &str) {
    let shaped = date.len() == 10 && date.is_ascii();
    assert!(shaped && chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").is_ok(), "not a date: {date:?}");
}

/// What must hold for every seed a seed reader returns: its key is an arXiv
/// id that reads back unchanged or `text:` and 12 hex digits, its title is
/// one line of text, and its date is `YYYY`, `YYYY-MM` or a calendar day.
pub fn check_seed(s: &seed_files::SeedInput) {
    match s.key.strip_prefix("text:") {
        Some(hash) => assert!(hash.len() == 12 && hash.bytes().all(|b| b.is_ascii_hexdigit()), "key of {s:?}"),
        None => assert_eq!(ArxivId::parse(&s.key).map(|a| (a.id, a.version)), Some((s.key.clone(), None)), "key of {s:?}"),
    }
    assert!(!s.title.is_empty() && !s.title.contains(char::is_control), "title of {s:?}");
    if let Some(date) = &s.date {
        let ok = match date.len() {
            4 => date.bytes().all(|b| b.is_ascii_digit()),
            7 => chrono::NaiveDate::parse_from_str(&format!("{date}-01"), "%Y-%m-%d").is_ok() && date.is_ascii(),
            _ => date.len() == 10 && date.is_ascii() && chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").is_ok(),
        };
        assert!(ok, "date of {s:?}");
    }
}
