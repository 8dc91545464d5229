use crate::cli::FetchArgs;
use crate::fetch;
use crate::library::{self, Library};
use crate::paper::Paper;
use crate::report;
use crate::workflow::fetch::{fetch_all, report_empty};
use crate::workflow::{self, ingest};
use anyhow::{Context, Result};
use std::io::Write;
use std::path::Path;
use std::time::Instant;

pub fn run(args: &FetchArgs) -> Result<()> {
    if let Some(oai) = &args.oai {
        let result = harvest(args, oai);
        if let (Err(_), Some(path)) = (&result, &args.out) {
            // --out is written whole or not at all, as for a day's fetch.
            let _ = std::fs::remove_file(path.with_extension("tmp"));
        }
        return result;
    }
    let start = Instant::now();
    let dir = library::resolve_dir(args.library.library.as_deref())?;
    // Everything is downloaded and parsed before anything is written: a
    // failure leaves the library and --out as they were.
    let fetched = fetch_all(&args.categories, &args.fetch)?;
    let papers = fetch::merge(&fetched);
    report_empty(&fetched, &dir);
    if let Some(path) = &args.out {
        let mut buf = Vec::new();
        report::json::write_papers(&mut buf, &papers)?;
        write_whole(path, &buf)?;
        crate::messages::detail(format_args!("{} paper(s) written to {}", papers.len(), path.display()));
    }
    if args.ingest {
        if papers.is_empty() {
            return Ok(());
        }
        let mut lib = Library::open_write(&dir)?;
        let done = ingest::ingest_papers(&mut lib, &papers, &args.model)?;
        println!("{} paper(s) fetched: {}", papers.len(), done.summary(start, &dir));
    } else if args.out.is_none() {
        let mut out = std::io::stdout().lock();
        report::table::write_papers(&mut out, &papers)?;
        out.flush()?;
    }
    Ok(())
}

/// `fetch --oai FROM UNTIL SET`: each page ingested (or written, or
/// shown) as it arrives.
fn harvest(args: &FetchArgs, spec: &[String]) -> Result<()> {
    let start = Instant::now();
    let [from, until, set] = spec else {
        anyhow::bail!("--oai takes FROM UNTIL SET");
    };
    let range = fetch::oai::Range::new(from, until, set)?;
    let dir = library::resolve_dir(args.library.library.as_deref())?;
    let mut out = match &args.out {
        Some(path) => {
            let tmp = path.with_extension("tmp");
            let file = std::fs::File::create(&tmp).with_context(|| format!("cannot write {}", tmp.display()))?;
            Some((tmp, std::io::BufWriter::new(file)))
        }
        None => None,
    };
    let mut each = |papers: &[Paper]| -> Result<()> {
        if let Some((_, w)) = out.as_mut() {
            report::json::write_papers(w, papers)?;
        } else if !args.ingest {
            let mut stdout = std::io::stdout().lock();
            report::table::write_papers(&mut stdout, papers)?;
            stdout.flush()?;
        }
        Ok(())
    };
    let mut lib = if args.ingest { Some(Library::open_write(&dir)?) } else { None };
    let done = workflow::fetch::harvest(&range, &args.fetch, lib.as_mut(), &args.model, &mut each)?;
    if let (Some(ingested), true) = (&done.ingested, done.records > 0) {
        println!("{} record(s) harvested: {}", done.records, ingested.summary(start, &dir));
    }
    if let Some((tmp, mut w)) = out {
        w.flush().context("writing the harvest")?;
        drop(w);
        if let Some(path) = &args.out {
            std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
        }
    }
    if done.skipped > 0 {
        crate::messages::warning(format_args!("oai: {} record(s) skipped (reasons above)", done.skipped));
    }
    if done.records == 0 {
        anyhow::bail!("OAI-PMH: no records in set {set} from {from} until {until}");
    }
    Ok(())
}

/// Written whole and renamed, so a reader never sees half a file.
fn write_whole(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
}
