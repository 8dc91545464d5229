use crate::cli::LibraryArgs;
use crate::library::{self, Library};
use anyhow::{bail, Result};

/// Checks the database and rebuilds derived files that are stale or broken.
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
        let flat = lib.flat_vectors(&model)?;
        let rebuilt = lib.refresh_index(&flat)?;
        println!(
            "{model}: {n} vectors, {missing} paper text(s) still to embed; index {}",
            if rebuilt { "rebuilt" } else { "current" }
        );
    }
    Ok(())
}
