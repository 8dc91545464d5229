//! A day brought into the library for a profile's digest (`daily`): its
//! listing fetched from arXiv or read from files, ingested, and the
//! profile's seeds embedded with the library's model.

use crate::embed::ModelArgs;
use crate::fetch::{self, FetchOpts};
use crate::library::store::ProfileKey;
use crate::library::Library;
use crate::paper::{Day, Paper};
use crate::workflow::fetch::{fetch_all, report_empty};
use crate::workflow::{ingest, seeds};
use anyhow::Result;
use std::path::{Path, PathBuf};

/// Today's announcements of `categories`, ingested. The newest listing
/// date fetched, or `None` when no category had announcements (nothing is
/// written then).
pub fn fetch_day(categories: &[String], opts: &FetchOpts, dir: &Path, model: &ModelArgs, profile: &ProfileKey) -> Result<Option<Day>> {
    let fetched = fetch_all(categories, opts)?;
    let papers: Vec<Paper> = fetch::merge(&fetched);
    report_empty(&fetched, dir);
    if papers.is_empty() {
        return Ok(None);
    }
    store(&papers, dir, model, profile, "fetched and ingested")
}

/// Listing files, every one parsed before the library is touched, then
/// ingested. The newest listing date among them, if they carry one.
pub fn ingest_day_files(files: &[PathBuf], dir: &Path, model: &ModelArgs, profile: &ProfileKey) -> Result<Option<Day>> {
    let papers = ingest::read_inputs(files)?;
    store(&papers, dir, model, profile, "ingested")
}

/// The day's papers stored and embedded, then the profile's seeds; the
/// newest listing date among the papers.
fn store(papers: &[Paper], dir: &Path, model: &ModelArgs, profile: &ProfileKey, done_what: &str) -> Result<Option<Day>> {
    let mut lib = Library::open_write(dir)?;
    let done = ingest::ingest_papers(&mut lib, papers, model)?;
    seeds::embed_seeds(&mut lib, profile, model)?;
    crate::messages::detail(format_args!("{done_what}: {} new, {} embedded", done.counts.new, done.embedded));
    Ok(done.dates.last().copied())
}
