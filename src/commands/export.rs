//! `paperscout export FILE`: the library's papers with their vectors, for
//! another library (`ingest FILE`) or a served vector engine (docs/scale.md).

use crate::cli::{ExportArgs, ExportFormat};
use crate::library::{self, Library};
use crate::listing::parquet;
use anyhow::{Context, Result};
use std::time::Instant;

pub fn run(args: &ExportArgs) -> Result<()> {
    let start = Instant::now();
    let dir = library::resolve_dir(args.library.library.as_deref())?;
    let lib = Library::open_read(&dir)?;
    let model = lib
        .held_model()?
        .with_context(|| format!("the library at {} has no vectors yet; `paperscout ingest` embeds its papers", dir.display()))?;
    let dim = lib.store.vector(&model, &first_hash(&lib, &model)?)?.map_or(0, |v| v.len());
    // A temp file renamed into place: a failed export leaves no half file.
    let tmp = library::temp_path(&args.file);
    let written = match args.format {
        ExportFormat::Parquet => write_parquet(&lib, &model, dim, &tmp),
    };
    let written = match written {
        Ok(n) => n,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
    };
    std::fs::rename(&tmp, &args.file).with_context(|| format!("cannot write {}", args.file.display()))?;
    let papers = lib.store.totals()?.papers as usize;
    if papers > written {
        crate::messages::warning(format_args!(
            "{} paper(s) have no vector from {model} and were left out; `paperscout ingest` embeds them",
            papers - written
        ));
    }
    println!("{written} papers with {dim}-dimensional vectors from {model} in {:.1}s ({})", library::secs(start), args.file.display());
    Ok(())
}

/// The text hash of one vector of `model`, to learn its dimension.
fn first_hash(lib: &Library, model: &str) -> Result<Vec<u8>> {
    lib.store.a_vector_hash(model)?.with_context(|| format!("the library holds no vector of {model}"))
}

fn write_parquet(lib: &Library, model: &str, dim: usize, path: &std::path::Path) -> Result<usize> {
    let mut out = parquet::Writer::create(path, model, dim)?;
    let mut written = 0;
    // One read snapshot: papers and vectors as of one moment.
    let snapshot = lib.store.snapshot()?;
    lib.store.for_each_paper_with_vector(model, |p, v| {
        written += 1;
        out.push(&p.paper, p.first_date.as_deref(), v)
    })?;
    drop(snapshot);
    out.finish()?;
    Ok(written)
}
