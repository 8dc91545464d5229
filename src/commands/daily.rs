use crate::cli::{DailyArgs, DigestFormat};
use crate::commands::{fetch, ingest, seed};
use crate::digest::{self, DayOptions};
use crate::library::{self, Library};
use crate::neighbours::check_date;
use crate::report;
use anyhow::{bail, Context, Result};
use std::io::Write;
use std::time::Instant;

pub fn run(args: &DailyArgs, verbose: bool) -> Result<()> {
    let start = Instant::now();
    let dir = library::resolve_dir(args.library.library.as_deref())?;
    let mut file_day = None;
    if !args.fetch.is_empty() {
        match fetch::fetch_and_ingest(&args.fetch, &args.fetch_opts, &dir, &args.model, &args.profile, verbose)? {
            Some(day) => file_day = Some(day),
            // No announcements today: the message is out, and there is no new digest.
            None => return Ok(()),
        }
    }
    if !args.files.is_empty() {
        let papers = ingest::read_inputs(&args.files, verbose)?;
        let mut lib = Library::open_write(&dir)?;
        let done = ingest::ingest_papers(&mut lib, &papers, &args.model, verbose)?;
        file_day = done.dates.last().cloned();
        seed::embed_seeds(&mut lib, &args.profile, &args.model, verbose)?;
        if verbose {
            eprintln!("ingested: {} new, {} embedded", done.counts.new, done.embedded);
        }
    }
    let lib = Library::open_read(&dir)?;
    let day = match (&args.date, file_day) {
        (Some(d), _) => {
            check_date(d)?;
            d.clone()
        }
        (None, Some(d)) => d,
        (None, None) => lib
            .store
            .newest_day()?
            .context("the library has no listings yet; give listing files to `daily` or `ingest` them")?,
    };
    let model = lib.store.default_model()?.context("the library holds no vectors yet")?;
    let flat = lib.flat_vectors(&model)?;
    let digest = digest::rank_day(&lib, &flat, &day, &options(args))?;
    if digest.cold {
        bail!("profile {:?} has no liked seeds; add some with `paperscout seed add ID|FILE|--text …` or rate papers", args.profile);
    }
    if verbose {
        eprintln!("ranked {} entries in {:.0} ms", digest.candidates, start.elapsed().as_secs_f64() * 1e3);
    }
    let mut buf = Vec::new();
    match args.format {
        DigestFormat::Table => report::digest::table(&mut buf, &digest)?,
        DigestFormat::Json => report::digest::json(&mut buf, &digest)?,
        DigestFormat::Markdown => report::digest::markdown(&mut buf, &digest)?,
        DigestFormat::Html => report::digest::html(&mut buf, &digest)?,
    }
    match &args.out {
        Some(path) => {
            // Written whole and renamed, so a reader never sees half a digest.
            let tmp = path.with_extension("tmp");
            std::fs::write(&tmp, &buf).with_context(|| format!("cannot write {}", tmp.display()))?;
            std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
        }
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(&buf)?;
            out.flush()?;
        }
    }
    Ok(())
}

pub fn options(args: &DailyArgs) -> DayOptions {
    DayOptions {
        profile: args.profile.clone(),
        method: args.method,
        include: args.include.clone(),
        top: args.top,
        min_score: args.min_score,
        unsure: args.unsure,
        unseen: args.unseen,
        show_hidden: args.show_filtered,
    }
}
