use crate::cli::{IngestArgs, ModelArgs};
use crate::embed;
use crate::library::{self, IngestCounts, Library};
use crate::listing;
use crate::paper::Paper;
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What an ingest did, for the summary line and for `daily`.
pub struct Ingested {
    pub counts: IngestCounts,
    pub embedded: usize,
    /// The listing dates of the papers read, newest last.
    pub dates: Vec<String>,
}

pub fn run(args: &IngestArgs, verbose: bool) -> Result<()> {
    let start = Instant::now();
    let dir = library::resolve_dir(args.library.library.as_deref())?;
    let papers = read_inputs(&args.files, verbose)?;
    let mut lib = Library::open_write(&dir)?;
    let done = ingest_papers(&mut lib, &papers, &args.model, verbose)?;
    println!("{}", done.summary(start, &dir));
    Ok(())
}

impl Ingested {
    /// The one summary line: "N new, N updated, N unchanged, N embedded in Ts (DIR)".
    pub fn summary(&self, start: Instant, dir: &Path) -> String {
        format!(
            "{} new, {} updated, {} unchanged, {} embedded in {:.1}s ({})",
            self.counts.new,
            self.counts.updated,
            self.counts.unchanged,
            self.embedded,
            library::secs(start),
            dir.display()
        )
    }
}

/// Stores papers, embeds what has no vector yet and refreshes derived files.
/// The model is loaded and checked against the library's first, so a model
/// that fails leaves the library as it was.
pub fn ingest_papers(lib: &mut Library, papers: &[Paper], model: &ModelArgs, verbose: bool) -> Result<Ingested> {
    let model = embed::args_for_library(model, lib.store.default_model()?.as_deref());
    let embedder = embed::load(&model, verbose)?;
    lib.check_model(embedder.model_id())?;
    let counts = lib.add_papers(papers)?;
    let bar = progress_bar("embedding");
    let embedded = lib.embed_missing(embedder.as_ref(), &|done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    let stored = counts.new + counts.updated;
    let embedded = embedded.map_err(|e| {
        if stored == 0 {
            return e;
        }
        e.context(format!(
            "{stored} paper(s) were stored but not all embedded; an ingest with a working model embeds the rest"
        ))
    })?;
    for s in &embedded.skipped {
        eprintln!("warning: cannot embed {} (skipped, not tried again with this model): {}", s.papers.join(", "), s.error);
    }
    let embedded = embedded.done;
    // The derived files grow with the library: the new rows are appended
    // and, past INDEX_FROM vectors, inserted into the index (built the
    // first time), so no later query waits for either.
    let start = Instant::now();
    let flat = lib.sync_flat(embedder.model_id())?;
    if flat.count >= library::INDEX_FROM {
        let done = lib.update_index(&flat, false)?;
        if verbose {
            eprintln!("index: {done:?} in {:.1}s ({} rows)", library::secs(start), flat.count);
        }
    }
    let mut dates: Vec<String> = papers.iter().filter_map(|p| p.listing_date.clone()).collect();
    dates.sort();
    dates.dedup();
    Ok(Ingested { counts, embedded, dates })
}

/// A progress bar on stderr with rate and ETA; indicatif hides it when
/// stderr is not a terminal.
pub fn progress_bar(what: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{msg} {bar:40} {pos}/{len} texts, {per_sec}, ETA {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message(what.to_string());
    bar
}

/// Parses every input first: one bad file stops before the library is
/// touched, so it stays as it was. Directories are searched recursively.
pub fn read_inputs(inputs: &[PathBuf], verbose: bool) -> Result<Vec<Paper>> {
    let mut files = Vec::new();
    for input in inputs {
        collect_files(input, &mut files)?;
    }
    let mut papers = Vec::new();
    for file in files {
        let parsed = listing::parse_path(&file)?;
        for w in &parsed.warnings {
            eprintln!("warning: {w}");
        }
        if verbose {
            eprintln!("{}: {} paper(s) as {}", file.display(), parsed.papers.len(), parsed.format.name());
        }
        papers.extend(parsed.papers);
    }
    Ok(papers)
}

fn collect_files(path: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    if path.as_os_str() == "-" || !path.is_dir() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
        .with_context(|| format!("cannot read directory {}", path.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')))
        .collect();
    entries.sort();
    for e in entries {
        collect_files(&e, out)?;
    }
    Ok(())
}
