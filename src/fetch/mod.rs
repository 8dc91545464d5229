//! Bringing a day's listing in from arXiv: a polite HTTP client (`client`)
//! and the sources it reads (`sources`: RSS, listing page, API; `oai`:
//! harvests over a date range).

pub mod client;
pub mod oai;
mod options;
pub mod sources;

pub use client::{Client, FetchError, Politeness, USER_AGENT};
pub use options::FetchOpts;
pub use sources::{fetch_category, fetch_ids, merge, Endpoints, Fetched, Via};
