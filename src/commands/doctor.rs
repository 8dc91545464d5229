use crate::cli::LibraryArgs;
use crate::library::{self, Library};
use anyhow::{bail, Result};

/// Checks the database, then each model's derived files against the
/// database and their checksums, rebuilding what is stale or damaged.
pub fn run(args: &LibraryArgs) -> Result<()> {
    let dir = library::resolve_dir(args.library.as_deref())?;
    let lib = Library::open_read(&dir)?;
    let problems = lib.store.integrity_check()?;
    if !problems.is_empty() {
        for p in &problems {
            eprintln!("database: {p}");
        }
        bail!("the library database at {} is damaged", dir.display());
    }
    println!("database  ok ({} papers)", lib.store.count("SELECT count(*) FROM papers")?);
    for (model, n) in lib.store.vector_counts()? {
        let missing = lib.store.missing_vectors(&model)?.len();
        let (flat, vectors) = lib.check_flat(&model)?;
        let index = lib.check_index(&flat)?;
        println!("{model}: {n} vectors, {missing} paper text(s) still to embed; {vectors}; {index}");
        let failed = lib.store.failures(&model)?;
        if let Some(first) = failed.first() {
            println!("{model}: {} text(s) could not be embedded and are skipped (first: {first})", failed.len());
        }
        let bad = lib.store.non_finite_vectors(&model)?;
        if bad > 0 {
            println!("{model}: {bad} vector(s) hold NaN or infinity (made by a damaged model); their scores mean nothing");
        }
    }
    Ok(())
}
