use crate::cli::DoctorArgs;
use crate::library::{self, store, Library};
use anyhow::{bail, Result};

/// What to do about a damaged database: it is the source of truth, so
/// nothing derived can rebuild it.
const RECOVER: &str = "restore a copy, or save what SQLite can read with \
    `sqlite3 library.sqlite .recover | sqlite3 recovered.sqlite`, or ingest your listings into a new --library";

fn advise(e: anyhow::Error) -> anyhow::Error {
    match store::damage(&e) {
        Some(d) => anyhow::anyhow!("{d}; {RECOVER}"),
        None => e,
    }
}

/// Whether others on this machine may read the library (it holds password
/// hashes, sessions and every rating), and with `fix` the repair.
fn privacy(dir: &std::path::Path, fix: bool) -> Result<String> {
    let exposed = library::private::exposed(dir)?;
    let Some(first) = exposed.first() else { return Ok("files private to their owner".into()) };
    if fix {
        let n = library::private::make_private(dir)?;
        return Ok(format!("files made private: {n} file(s) and folder(s) that group or others could read (0700/0600 now)"));
    }
    Ok(format!(
        "{} file(s) and folder(s) readable by group or others (first: {first}); `paperscout doctor --fix` makes them private",
        exposed.len()
    ))
}

/// Checks the database, then each model's derived files: the flat vectors
/// row by row against the database, the index against its checksum;
/// rebuilds what is damaged and brings both up to date.
pub fn run(args: &DoctorArgs) -> Result<()> {
    let dir = library::resolve_dir(args.library.library.as_deref())?;
    let lib = Library::open_read(&dir).map_err(advise)?;
    let problems = lib.store.integrity_check().map_err(advise)?;
    if !problems.is_empty() {
        for p in &problems {
            crate::messages::note(format_args!("database: {p}"));
        }
        bail!("the library database at {} is damaged; {RECOVER}", dir.display());
    }
    println!("database  ok ({} papers); {}", lib.store.totals()?.papers, privacy(&dir, args.fix)?);
    println!("{}", lib.check_lexical(args.rebuild_index)?);
    for (model, n) in lib.store.vector_counts()? {
        let missing = lib.store.missing_vectors(&model)?.len();
        let (flat, vectors) = lib.check_flat(&model)?;
        let index = lib.check_index(&flat, args.rebuild_index)?;
        let sketch = lib.check_sketch(&flat, args.rebuild_index)?;
        println!("{model}: {n} vectors, {missing} paper text(s) still to embed; {vectors}; {index}{sketch}");
        let failed = lib.store.failures(&model)?;
        if let Some(first) = failed.first() {
            println!("{model}: {} text(s) could not be embedded and are skipped (first: {first})", failed.len());
        }
        let bad = lib.store.non_finite_vectors(&model)?;
        if bad > 0 {
            println!("{model}: {bad} vector(s) hold NaN or infinity (made by a damaged model); their scores mean nothing");
        }
    }
    if args.measure_precision {
        println!("{}", crate::embed::remeasure_precision(&args.model)?.why());
    }
    Ok(())
}
