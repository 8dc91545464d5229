//! A day brought into the library for a profile's digest (`daily`): its
//! listing fetched from arXiv or read from files, ingested, and the
//! profile's seeds embedded with the library's model.

use crate::embed::ModelArgs;
use crate::fetch::{self, FetchOpts};
use crate::library::Library;
use crate::paper::Paper;
use crate::workflow::fetch::{fetch_all, report_empty};
use crate::workflow::{ingest, seeds};
use anyhow::Result;
use std::path::{Path, PathBuf};

/// Today's announcements of `categories`, ingested. The newest listing
/// date fetched, or `None` when no category had announcements (nothing is
/// written then).
pub fn fetch_day(
    categories: &[String],
    opts: &FetchOpts,
    dir: &Path,
    model: &ModelArgs,
    profile: &str,
    verbose: bool,
) -> Result<Option<String>> {
    let fetched = fetch_all(categories, opts, verbose)?;
    let papers: Vec<Paper> = fetch::merge(&fetched);
    report_empty(&fetched, dir);
    if papers.is_empty() {
        return Ok(None);
    }
    let mut lib = Library::open_write(dir)?;
    let done = ingest::ingest_papers(&mut lib, &papers, model, verbose)?;
    seeds::embed_seeds(&mut lib, profile, model, verbose)?;
    if verbose {
        eprintln!(
            "fetched and ingested: {} new, {} embedded",
            done.counts.new, done.embedded
        );
    }
    Ok(done.dates.last().cloned())
}

/// Listing files, every one parsed before the library is touched, then
/// ingested. The newest listing date among them, if they carry one.
pub fn ingest_day_files(
    files: &[PathBuf],
    dir: &Path,
    model: &ModelArgs,
    profile: &str,
    verbose: bool,
) -> Result<Option<String>> {
    let papers = ingest::read_inputs(files, verbose)?;
    let mut lib = Library::open_write(dir)?;
    let done = ingest::ingest_papers(&mut lib, &papers, model, verbose)?;
    seeds::embed_seeds(&mut lib, profile, model, verbose)?;
    if verbose {
        eprintln!(
            "ingested: {} new, {} embedded",
            done.counts.new, done.embedded
        );
    }
    Ok(done.dates.last().cloned())
}
