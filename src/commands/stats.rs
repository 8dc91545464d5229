use crate::cli::LibraryArgs;
use crate::library::{self, Library};
use anyhow::Result;

pub fn run(args: &LibraryArgs) -> Result<()> {
    let dir = library::resolve_dir(args.library.as_deref())?;
    let lib = Library::open_read(&dir)?;
    let s = &lib.store;
    println!("library   {}", dir.display());
    println!("papers    {}", s.count("SELECT count(*) FROM papers")?);
    println!("versions  {}", s.count("SELECT count(*) FROM versions")?);
    let days = s.count("SELECT count(DISTINCT date) FROM listings")?;
    let range: (Option<String>, Option<String>) = s
        .conn()
        .query_row("SELECT min(date), max(date) FROM listings", [], |r| Ok((r.get(0)?, r.get(1)?)))?;
    match range {
        (Some(a), Some(b)) => println!("days      {days} ({a} to {b})"),
        _ => println!("days      0"),
    }
    for (model, n) in s.vector_counts()? {
        println!("vectors   {n} for {model}");
        println!("index     {}", lib.index_state(&model)?);
    }
    println!("disk      {}", human_bytes(dir_size(&dir)));
    Ok(())
}

fn dir_size(dir: &std::path::Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    entries
        .filter_map(|e| e.ok())
        .map(|e| match e.metadata() {
            Ok(m) if m.is_dir() => dir_size(&e.path()),
            Ok(m) => m.len(),
            Err(_) => 0,
        })
        .sum()
}

fn human_bytes(n: u64) -> String {
    let mut v = n as f64;
    for unit in ["B", "KiB", "MiB", "GiB"] {
        if v < 1024.0 {
            return format!("{v:.1} {unit}");
        }
        v /= 1024.0;
    }
    format!("{v:.1} TiB")
}
