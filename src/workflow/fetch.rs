//! Fetching from arXiv into the library: a day's announcements of some
//! categories, and papers by id that the library lacks. The HTTP and the
//! sources are `crate::fetch`'s; this is what is done with what comes back.

use crate::embed::ModelArgs;
use crate::fetch::{self, Client, Endpoints, FetchOpts, Fetched, Politeness, Via};
use crate::library::Library;
use crate::listing::{Batch, Parsed};
use crate::paper::Paper;
use crate::workflow::ingest::{self, Ingested};
use anyhow::Result;
use std::path::Path;
use std::time::Duration;

/// The polite client the options describe, redirected only to the hosts of
/// `endpoints`; retry notices go to stderr.
pub fn client(opts: &FetchOpts, endpoints: &Endpoints) -> Result<Client> {
    let politeness = Politeness {
        min_interval: Duration::from_millis(opts.interval_ms),
        max_retries: opts.retries,
        base_backoff: Duration::from_millis(opts.backoff_ms),
        timeout: Politeness::timeout_from_secs(opts.timeout).map_err(anyhow::Error::msg)?,
    };
    Ok(Client::new(politeness).for_hosts(endpoints.hosts()).with_log(|m| crate::messages::note(m)))
}

/// Every category's announcements, or the first error.
pub fn fetch_all(categories: &[String], opts: &FetchOpts) -> Result<Vec<Fetched>> {
    for c in categories {
        fetch::sources::check_category(c)?;
    }
    let endpoints = Endpoints::resolve(opts.base_url.as_deref());
    let client = client(opts, &endpoints)?;
    let mut out = Vec::new();
    for c in categories {
        let f = fetch::fetch_category(&client, &endpoints, c)?;
        for w in &f.warnings {
            crate::messages::warning(format_args!("{c}: {w}"));
        }
        if crate::messages::verbose() {
            let via = match f.via {
                Via::Rss => endpoints.rss_url(c),
                Via::ListPage => endpoints.list_url(c),
            };
            crate::messages::note(format_args!("{c}: {} paper(s) from {via}", f.papers.len()));
        }
        out.push(f);
    }
    Ok(out)
}

/// Says which categories had nothing today (weekends, holidays), and when
/// the library last saw that category.
pub fn report_empty(fetched: &[Fetched], dir: &Path) {
    let today = chrono::Local::now().date_naive().format("%Y-%m-%d").to_string();
    for f in fetched.iter().filter(|f| f.papers.is_empty()) {
        let last = last_listing(dir, &f.category);
        let tail = match last {
            Some(d) => format!("the last was {d}"),
            None => "the library has none before it".to_string(),
        };
        crate::messages::note(format_args!(
            "no announcements for {} on {today} (arXiv announces nothing on weekends and holidays); {tail}",
            f.category
        ));
    }
}

/// The newest listing date in the library with a paper of `category`.
fn last_listing(dir: &Path, category: &str) -> Option<String> {
    if !dir.join("library.sqlite").exists() {
        return None;
    }
    match Library::open_read(dir).and_then(|lib| lib.store.newest_day_of(category)) {
        Ok(day) => day,
        Err(e) => {
            crate::messages::warning(format_args!("cannot read the last listing of {category} ({e:#}); fetching as for a new library"));
            None
        }
    }
}

/// For `seed add --fetch`: the arXiv ids among `items` (files, when
/// `files`, are left to `profile::read_items`) that the library lacks,
/// looked up with the API and stored without a listing day (they were not
/// announced today).
pub fn resolve_missing_ids(lib: &mut Library, items: &[String], files: bool, opts: &FetchOpts) -> Result<usize> {
    let missing = missing_ids(lib, items, files)?;
    if missing.is_empty() {
        return Ok(0);
    }
    let papers = look_up(&missing, opts)?;
    lib.add_papers(&papers)?;
    Ok(papers.len())
}

/// The arXiv ids among `items` the library lacks (files skipped when
/// `files`), each once.
pub fn missing_ids(lib: &Library, items: &[String], files: bool) -> Result<Vec<String>> {
    let mut missing: Vec<String> = Vec::new();
    for item in items {
        if files && Path::new(item).is_file() {
            continue;
        }
        let Some(id) = crate::paper::ArxivId::parse(item) else { continue };
        if lib.store.get_paper(&id.id)?.is_none() && !missing.contains(&id.id) {
            missing.push(id.id);
        }
    }
    Ok(missing)
}

/// Papers by id from arXiv's API, without a listing day; an id the API
/// does not know is an error naming it.
pub fn look_up(ids: &[String], opts: &FetchOpts) -> Result<Vec<Paper>> {
    let endpoints = Endpoints::resolve(opts.base_url.as_deref());
    let client = client(opts, &endpoints)?;
    // Why the network failed (a resolver's words, the API's address) is
    // for the log of whoever runs it, not for a reader's answer.
    let mut papers = fetch::fetch_ids(&client, &endpoints, ids).map_err(|e| {
        crate::messages::note(format_args!("arXiv lookup failed: {e:#}"));
        super::Error::ArxivUnreachable { ids: ids.to_vec() }
    })?;
    papers.retain(|p| ids.contains(&p.id));
    let unknown: Vec<String> = ids.iter().filter(|id| !papers.iter().any(|p| &p.id == *id)).cloned().collect();
    if !unknown.is_empty() {
        return Err(super::Error::UnknownToArxiv { ids: unknown }.into());
    }
    for p in &mut papers {
        p.listing_date = None;
    }
    Ok(papers)
}

/// What a harvest read, and stored when it was asked to.
pub struct Harvested {
    pub records: usize,
    pub skipped: usize,
    pub ingested: Option<Ingested>,
}

/// Page after page of the OAI-PMH records of `range`, each page's
/// warnings said, handed to `each`, and ingested into `lib` (when given) as
/// it arrives: a harvest of months holds one page in memory, and a failure
/// keeps the pages before it (a second run adds only what is missing).
pub fn harvest(
    range: &fetch::oai::Range,
    opts: &FetchOpts,
    lib: Option<&mut Library>,
    model: &ModelArgs,
    each: &mut dyn FnMut(&[Paper]) -> Result<()>,
) -> Result<Harvested> {
    let endpoints = Endpoints::resolve(opts.base_url.as_deref());
    let client = client(opts, &endpoints)?;
    let mut pages = fetch::oai::pages(&client, &endpoints, range);
    let (mut records, mut skipped) = (0usize, 0usize);
    let mut take = |parsed: Parsed, pages: usize, total: Option<u64>| -> Result<Vec<Paper>> {
        for w in &parsed.warnings {
            crate::messages::warning(w);
        }
        records += parsed.papers.len();
        skipped += parsed.skipped;
        let of = total.map(|t| format!(" of {t}")).unwrap_or_default();
        crate::messages::detail(format_args!("oai: page {pages}: {} record(s), {records}{of} so far", parsed.papers.len()));
        each(&parsed.papers)?;
        Ok(parsed.papers)
    };
    let ingested = match lib {
        Some(lib) => {
            let mut batches = std::iter::from_fn(|| {
                let page = pages.next()?;
                let (n, total) = (pages.pages, pages.complete_list_size);
                Some(page.and_then(|parsed| take(parsed, n, total)).map(|papers| Batch { papers, ..Default::default() }))
            });
            Some(ingest::ingest_batches(lib, &mut batches, model, false)?)
        }
        None => {
            while let Some(page) = pages.next() {
                let (n, total) = (pages.pages, pages.complete_list_size);
                take(page?, n, total)?;
            }
            None
        }
    };
    Ok(Harvested { records, skipped, ingested })
}
