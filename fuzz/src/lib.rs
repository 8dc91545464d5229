//! paperscout's parsers, compiled on their own for fuzzing.
//!
//! The modules are paperscout's own files, not copies: the fuzz build
//! instruments every crate it compiles, and the parsers need a handful of
//! crates where paperscout as a whole needs hundreds.

#[path = "../../src/listing/mod.rs"]
pub mod listing;
#[path = "../../src/paper.rs"]
pub mod paper;

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
    assert!(
        shaped && chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").is_ok(),
        "not a date: {date:?}"
    );
}
