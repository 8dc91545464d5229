//! The ingest job from files to a ready library: find and parse the
//! inputs (one bad file stops the job before the library is touched),
//! load the embedder, hand each batch to [`crate::library::ingest`], and
//! grow the derived files after. `ingest`, `fetch --ingest`, `daily` and
//! harvests all come here.

use crate::embed::{self, Embedder, ModelArgs};
use crate::library::{self, Batch, IngestCounts, Library};
use crate::listing::{self, stream};
use crate::paper::{Day, Kind, Paper};
use anyhow::{Context, Result};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What an ingest did, for the summary line and for `daily`.
pub struct Ingested {
    pub counts: IngestCounts,
    pub embedded: usize,
    /// Vectors made elsewhere that came with the papers.
    pub imported: usize,
    /// The listing dates of the papers read, newest last.
    pub dates: Vec<Day>,
}

impl Ingested {
    /// The one summary line: "N new, N updated, N unchanged, N embedded in Ts (DIR)",
    /// with "N vectors imported" before "in" when the input brought some.
    pub fn summary(&self, start: Instant, dir: &Path) -> String {
        let imported = if self.imported > 0 { format!(", {} vectors imported", self.imported) } else { String::new() };
        format!(
            "{} new, {} updated, {} unchanged, {} embedded{imported} in {:.1}s ({})",
            self.counts.new,
            self.counts.updated,
            self.counts.unchanged,
            self.embedded,
            library::secs(start),
            dir.display()
        )
    }
}

/// The files named, directories searched recursively (hidden entries left
/// out, in name order); `-` is stdin.
pub fn input_files(inputs: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for input in inputs {
        collect_files(input, &mut files)?;
    }
    Ok(files)
}

/// Every file read a batch at a time (the bulk snapshot is millions of
/// lines) into one transaction, so a bad input anywhere leaves the library
/// as it was; then what has no vector is embedded (unless `no_embed`).
pub fn ingest_files(lib: &mut Library, files: &[PathBuf], model: &ModelArgs, no_embed: bool) -> Result<Ingested> {
    let mut batches = files.iter().flat_map(|file| -> Box<dyn Iterator<Item = Result<listing::Batch>>> {
        match stream::open(file) {
            Ok(batches) => Box::new(batches.map(|b| b.map_err(anyhow::Error::from))),
            Err(e) => Box::new(std::iter::once(Err(e.into()))),
        }
    });
    ingest_batches(lib, &mut batches, model, no_embed)
}

/// [`ingest_batches`] for papers already in memory (a fetched listing).
pub fn ingest_papers(lib: &mut Library, papers: &[Paper], model: &ModelArgs) -> Result<Ingested> {
    let batch = listing::Batch { papers: papers.to_vec(), ..listing::Batch::default() };
    ingest_batches(lib, &mut std::iter::once(Ok(batch)), model, false)
}

/// Stores papers and the vectors that came with them, embeds what has no
/// vector yet (unless `no_embed`) and refreshes derived files. The model
/// is loaded and checked against the library's before anything is
/// stored, so a model that fails leaves the library as it was.
pub fn ingest_batches(
    lib: &mut Library,
    inputs: &mut dyn Iterator<Item = Result<listing::Batch>>,
    model: &ModelArgs,
    no_embed: bool,
) -> Result<Ingested> {
    let mut gate = ModelGate { args: model, library_model: lib.store.default_model()?, held: lib.held_model()?, embedder: None };
    let mut dates = BTreeSet::new();
    let mut checked = inputs.map(|batch| -> Result<Batch> {
        let mut batch = batch?;
        for w in &batch.warnings {
            crate::messages::warning(w);
        }
        // Without embedding, the model is needed only to check vectors.
        if !no_embed || !batch.given.is_empty() {
            gate.load(batch.given.first().and_then(|g| g.model.as_deref()))?;
        }
        let vectors = match &gate.embedder {
            Some(e) => check_given(&mut batch, e.as_ref())?,
            None => Vec::new(),
        };
        dates.extend(
            batch.papers.iter().filter(|p| p.kind != Kind::Snapshot).filter_map(|p| p.listing_date.as_deref().and_then(Day::parse)),
        );
        let model = gate.embedder.as_ref().map(|e| e.model_id().to_string());
        Ok(Batch { papers: batch.papers, vectors, model })
    });
    let (counts, imported) = lib.add_batches(&mut checked)?;
    drop(checked);
    let mut embedded = 0;
    if !no_embed {
        let embedder = gate.load(None)?;
        embedded = embed_missing(lib, embedder, counts.new + counts.updated)?;
    }
    // The words grow with the library too, whether or not it embeds.
    let start = Instant::now();
    let words = lib.update_lexical(false)?;
    crate::messages::detail(format_args!(
        "lexical index: {} added, {} removed in {:.1}s",
        words.added,
        words.removed,
        library::secs(start)
    ));
    if let Some(embedder) = &gate.embedder {
        // The derived files grow with the library: the new rows are appended
        // and, past INDEX_FROM vectors, inserted into the index and the
        // sketch (built the first time), so no later query waits for either.
        let start = Instant::now();
        let flat = lib.sync_flat(embedder.model_id())?;
        if flat.count >= library::INDEX_FROM {
            let done = lib.update_index(&flat, false)?;
            let sketched = lib.update_sketch(&flat)?;
            crate::messages::detail(format_args!(
                "index: {done:?}, sketch: {sketched} rows added, in {:.1}s ({} rows)",
                library::secs(start),
                flat.count
            ));
        }
    }
    Ok(Ingested { counts, embedded, imported, dates: dates.into_iter().collect() })
}

/// Loads the model once, when first needed: with the precision of the
/// library's vectors, or else of the vectors in the input.
struct ModelGate<'a> {
    args: &'a ModelArgs,
    library_model: Option<String>,
    held: Option<String>,
    embedder: Option<Box<dyn Embedder>>,
}

impl ModelGate<'_> {
    fn load(&mut self, input_model: Option<&str>) -> Result<&dyn Embedder> {
        if self.embedder.is_none() {
            let args = embed::args_for_library(self.args, self.library_model.as_deref().or(input_model));
            let embedder = embed::load(&args)?;
            library::check_model(self.held.as_deref(), embedder.model_id())?;
            self.embedder = Some(embedder);
        }
        self.embedder.as_deref().context("no model loaded")
    }
}

/// How far from 1 a vector's length may be: the model's own are unit
/// length to float rounding.
const UNIT_TOLERANCE: f32 = 1e-3;

/// The vectors that came with `batch`, checked against the library's
/// model: its id, its dimension, finite values, unit length (scores are
/// dot products), and made from the paper's own text. Any that fails
/// stops the ingest, naming the file and line.
fn check_given(batch: &mut listing::Batch, embedder: &dyn Embedder) -> Result<Vec<(usize, Vec<f32>)>> {
    let (model, dim) = (embedder.model_id(), embedder.dim());
    let mut out = Vec::with_capacity(batch.given.len());
    for g in std::mem::take(&mut batch.given) {
        let at = batch.place(&g);
        let Some(from) = g.model.as_deref() else {
            anyhow::bail!("{at}: an `embedding` without its `model`; `paperscout embed` writes both");
        };
        if from != model {
            anyhow::bail!(
                "{at}: the vector is from model {from}, but the library's model is {model}; \
                 embed with the library's model, or import into a new --library with --model for the model that made it"
            );
        }
        if g.vector.len() != dim {
            anyhow::bail!("{at}: the vector has {} dimensions, but the library's model {model} has {dim}", g.vector.len());
        }
        if g.vector.iter().any(|x| !x.is_finite()) {
            anyhow::bail!("{at}: the vector holds NaN or infinity");
        }
        let norm = g.vector.iter().map(|x| x * x).sum::<f32>().sqrt();
        if (norm - 1.0).abs() > UNIT_TOLERANCE {
            anyhow::bail!("{at}: the vector has length {norm:.4}, not 1; paperscout scores by dot product and stores unit vectors only");
        }
        let paper = &batch.papers[g.paper];
        if g.text.as_deref().is_some_and(|t| t != paper.embedding_text()) {
            anyhow::bail!(
                "{at}: the vector was made from a `text` other than this paper's title and abstract as paperscout \
                 embeds them; leave out `text` and `paperscout embed` makes it from the paper's fields"
            );
        }
        out.push((g.paper, g.vector));
    }
    Ok(out)
}

/// Embeds every text without a vector, committing chunk by chunk.
fn embed_missing(lib: &mut Library, embedder: &dyn Embedder, stored: usize) -> Result<usize> {
    let bar = crate::messages::progress("embedding");
    let embedded = lib.embed_missing(embedder, &|done, total| bar.set(done, total));
    drop(bar);
    let embedded = embedded.map_err(|e| {
        if stored == 0 {
            return e;
        }
        e.context(format!("{stored} paper(s) were stored but not all embedded; an ingest with a working model embeds the rest"))
    })?;
    for s in &embedded.skipped {
        crate::messages::warning(format_args!(
            "cannot embed {} (skipped, not tried again with this model): {}",
            s.papers.join(", "),
            s.error
        ));
    }
    Ok(embedded.done)
}

/// Parses every input first: one bad file stops before the library is
/// touched, so it stays as it was. Directories are searched recursively.
pub fn read_inputs(inputs: &[PathBuf]) -> Result<Vec<Paper>> {
    let mut papers = Vec::new();
    for file in input_files(inputs)? {
        let parsed = listing::parse_path(&file)?;
        for w in &parsed.warnings {
            crate::messages::warning(w);
        }
        if let Some(summary) = parsed.skip_summary(&file.display().to_string()) {
            crate::messages::warning(summary);
        }
        crate::messages::detail(format_args!("{}: {} paper(s) as {}", file.display(), parsed.papers.len(), parsed.format.name()));
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
