use crate::cli::{FetchArgs, FetchOpts, ModelArgs};
use crate::commands::{ingest, seed};
use crate::fetch::{self, Client, Endpoints, Fetched, Politeness, Via};
use crate::library::{self, Library};
use crate::paper::Paper;
use crate::report;
use anyhow::{Context, Result};
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

pub fn run(args: &FetchArgs, verbose: bool) -> Result<()> {
    if let Some(oai) = &args.oai {
        let result = harvest(args, oai, verbose);
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
    let fetched = fetch_all(&args.categories, &args.fetch, verbose)?;
    let papers = fetch::merge(&fetched);
    report_empty(&fetched, &dir);
    if let Some(path) = &args.out {
        let mut buf = Vec::new();
        report::json::write_papers(&mut buf, &papers)?;
        write_whole(path, &buf)?;
        if verbose {
            eprintln!("{} paper(s) written to {}", papers.len(), path.display());
        }
    }
    if args.ingest {
        if papers.is_empty() {
            return Ok(());
        }
        let mut lib = Library::open_write(&dir)?;
        let done = ingest::ingest_papers(&mut lib, &papers, &args.model, verbose)?;
        println!("{} paper(s) fetched: {}", papers.len(), done.summary(start, &dir));
    } else if args.out.is_none() {
        let mut out = std::io::stdout().lock();
        report::table::write_papers(&mut out, &papers)?;
        out.flush()?;
    }
    Ok(())
}

/// `fetch --oai FROM UNTIL SET`: page after page of OAI-PMH records, each
/// ingested (or written, or shown) as it arrives, so a harvest of months
/// holds one page in memory and a failure keeps the pages before it (a
/// second run adds only what is missing).
fn harvest(args: &FetchArgs, spec: &[String], verbose: bool) -> Result<()> {
    let start = Instant::now();
    let [from, until, set] = spec else {
        anyhow::bail!("--oai takes FROM UNTIL SET");
    };
    let range = fetch::oai::Range::new(from, until, set)?;
    let dir = library::resolve_dir(args.library.library.as_deref())?;
    let endpoints = Endpoints::resolve(args.fetch.base_url.as_deref());
    let client = client(&args.fetch, &endpoints)?;
    let mut pages = fetch::oai::pages(&client, &endpoints, &range);
    let mut out = match &args.out {
        Some(path) => {
            let tmp = path.with_extension("tmp");
            let file = std::fs::File::create(&tmp).with_context(|| format!("cannot write {}", tmp.display()))?;
            Some((tmp, std::io::BufWriter::new(file)))
        }
        None => None,
    };
    let mut records = 0usize;
    let mut skipped = 0usize;
    // What every page goes through before it is stored: its warnings, the
    // count, and --out or the table.
    let mut each = |parsed: crate::listing::Parsed, pages: usize, total: Option<u64>| -> Result<Vec<Paper>> {
        for w in &parsed.warnings {
            eprintln!("warning: {w}");
        }
        records += parsed.papers.len();
        skipped += parsed.skipped;
        if verbose {
            let of = total.map(|t| format!(" of {t}")).unwrap_or_default();
            eprintln!("oai: page {pages}: {} record(s), {records}{of} so far", parsed.papers.len());
        }
        if let Some((_, w)) = out.as_mut() {
            report::json::write_papers(w, &parsed.papers)?;
        } else if !args.ingest {
            let mut stdout = std::io::stdout().lock();
            report::table::write_papers(&mut stdout, &parsed.papers)?;
            stdout.flush()?;
        }
        Ok(parsed.papers)
    };
    if args.ingest {
        let mut lib = Library::open_write(&dir)?;
        let mut batches = std::iter::from_fn(|| {
            let page = pages.next()?;
            let (n, total) = (pages.pages, pages.complete_list_size);
            Some(page.and_then(|parsed| each(parsed, n, total)).map(|papers| crate::listing::stream::Batch { papers, ..Default::default() }))
        });
        let done = ingest::ingest_batches(&mut lib, &mut batches, &args.model, false, verbose)?;
        if records > 0 {
            println!("{records} record(s) harvested: {}", done.summary(start, &dir));
        }
    } else {
        while let Some(page) = pages.next() {
            let (n, total) = (pages.pages, pages.complete_list_size);
            each(page?, n, total)?;
        }
    }
    if let Some((tmp, mut w)) = out {
        w.flush().context("writing the harvest")?;
        drop(w);
        if let Some(path) = &args.out {
            std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
        }
    }
    if skipped > 0 {
        eprintln!("warning: oai: {skipped} record(s) skipped (reasons above)");
    }
    if records == 0 {
        anyhow::bail!("OAI-PMH: no records in set {set} from {from} until {until}");
    }
    Ok(())
}

/// The polite client the options describe, redirected only to the hosts of
/// `endpoints`; retry notices go to stderr.
pub fn client(opts: &FetchOpts, endpoints: &Endpoints) -> Result<Client> {
    let politeness = Politeness {
        min_interval: Duration::from_millis(opts.interval_ms),
        max_retries: opts.retries,
        base_backoff: Duration::from_millis(opts.backoff_ms),
        timeout: Politeness::timeout_from_secs(opts.timeout).map_err(anyhow::Error::msg)?,
    };
    Ok(Client::new(politeness).for_hosts(endpoints.hosts()).with_log(|m| eprintln!("note: {m}")))
}

/// Every category's announcements, or the first error.
pub fn fetch_all(categories: &[String], opts: &FetchOpts, verbose: bool) -> Result<Vec<Fetched>> {
    for c in categories {
        fetch::sources::check_category(c)?;
    }
    let endpoints = Endpoints::resolve(opts.base_url.as_deref());
    let client = client(opts, &endpoints)?;
    let mut out = Vec::new();
    for c in categories {
        let f = fetch::fetch_category(&client, &endpoints, c)?;
        for w in &f.warnings {
            eprintln!("warning: {c}: {w}");
        }
        if verbose {
            let via = match f.via {
                Via::Rss => endpoints.rss_url(c),
                Via::ListPage => endpoints.list_url(c),
            };
            eprintln!("{c}: {} paper(s) from {via}", f.papers.len());
        }
        out.push(f);
    }
    Ok(out)
}

/// Says which categories had nothing today (weekends, holidays), and when
/// the library last saw that category.
fn report_empty(fetched: &[Fetched], dir: &Path) {
    let today = chrono::Local::now().date_naive().format("%Y-%m-%d").to_string();
    for f in fetched.iter().filter(|f| f.papers.is_empty()) {
        let last = last_listing(dir, &f.category);
        let tail = match last {
            Some(d) => format!("the last was {d}"),
            None => "the library has none before it".to_string(),
        };
        eprintln!(
            "no announcements for {} on {today} (arXiv announces nothing on weekends and holidays); {tail}",
            f.category
        );
    }
}

/// The newest listing date in the library with a paper of `category`.
fn last_listing(dir: &Path, category: &str) -> Option<String> {
    if !dir.join("library.sqlite").exists() {
        return None;
    }
    let lib = Library::open_read(dir).ok()?;
    lib.store
        .conn()
        .query_row(
            "SELECT max(l.date) FROM listings l JOIN papers p ON p.id = l.id \
             WHERE l.category = ?1 OR p.subjects LIKE ?2",
            rusqlite::params![category, format!("%\"{category}\"%")],
            |r| r.get::<_, Option<String>>(0),
        )
        .ok()
        .flatten()
}

/// For `daily --fetch`: fetch, ingest and embed the profile's seeds. The
/// newest listing date fetched, or `None` when no category had announcements.
pub fn fetch_and_ingest(
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
    seed::embed_seeds(&mut lib, profile, model, verbose)?;
    if verbose {
        eprintln!("fetched and ingested: {} new, {} embedded", done.counts.new, done.embedded);
    }
    Ok(done.dates.last().cloned())
}

/// Written whole and renamed, so a reader never sees half a file.
fn write_whole(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
}

/// For `seed add --fetch`: the arXiv ids among `items` (files are left to
/// `profile::read_items`) that the library lacks, looked up with the API
/// and stored without a listing day (they were not announced today).
pub fn resolve_missing_ids(lib: &mut Library, items: &[String], opts: &FetchOpts) -> Result<usize> {
    let mut missing: Vec<String> = Vec::new();
    for item in items {
        if Path::new(item).is_file() {
            continue;
        }
        let Some(id) = crate::paper::ArxivId::parse(item) else { continue };
        if lib.store.get_paper(&id.id)?.is_none() && !missing.contains(&id.id) {
            missing.push(id.id);
        }
    }
    if missing.is_empty() {
        return Ok(0);
    }
    let endpoints = Endpoints::resolve(opts.base_url.as_deref());
    let client = client(opts, &endpoints)?;
    let mut papers = fetch::fetch_ids(&client, &endpoints, &missing)?;
    papers.retain(|p| missing.contains(&p.id));
    let unknown: Vec<&str> = missing.iter().filter(|id| !papers.iter().any(|p| &p.id == *id)).map(String::as_str).collect();
    if !unknown.is_empty() {
        anyhow::bail!("arXiv's API does not know {}", unknown.join(", "));
    }
    for p in &mut papers {
        p.listing_date = None;
    }
    lib.add_papers(&papers)?;
    Ok(papers.len())
}
