use crate::cli::IngestArgs;
use crate::embed;
use crate::library::{self, Library};
use crate::listing;
use crate::paper::Paper;
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Parses every input first: one bad file stops the ingest before the
/// library is touched, so it stays as it was.
pub fn run(args: &IngestArgs, verbose: bool) -> Result<()> {
    let start = Instant::now();
    let papers = read_inputs(&args.files, verbose)?;
    let dir = library::resolve_dir(args.library.library.as_deref())?;
    let mut lib = Library::open_write(&dir)?;
    let counts = lib.add_papers(&papers)?;
    let embedder = embed::load(&args.model, verbose)?;
    let bar = progress_bar();
    let embedded = lib.embed_missing(embedder.as_ref(), &|done, total| {
        if bar.length() != Some(total as u64) {
            bar.set_length(total as u64);
            bar.set_message("embedding");
        }
        bar.set_position(done as u64);
    })?;
    bar.finish_and_clear();
    let flat = lib.flat_vectors(embedder.model_id())?;
    if lib.refresh_index(&flat)? && verbose {
        eprintln!("rebuilt the HNSW index ({} vectors)", flat.count);
    }
    println!(
        "{} new, {} updated, {} unchanged, {} embedded in {:.1}s ({})",
        counts.new,
        counts.updated,
        counts.unchanged,
        embedded,
        library::secs(start),
        dir.display()
    );
    Ok(())
}

fn progress_bar() -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{msg} {bar:40} {pos}/{len} texts, {per_sec}, ETA {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// Every listing file named, directories searched recursively.
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
