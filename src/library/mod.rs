//! The library: one directory holding the SQLite database (the source of
//! truth) and files derived from it — per model a flat vector file, an HNSW
//! index and a one-bit sketch over it; for all models one lexical index —
//! which grow as the database does and are rebuilt only when missing or
//! damaged.

pub mod index;
pub mod lexical;
pub mod private;
pub mod sketch;
pub mod store;
pub mod vectors;

mod check;
mod derived;
mod ingest;
mod nearest;
mod temp;
#[cfg(test)]
mod test_support;

pub use derived::IndexState;
pub use ingest::{check_model, Batch, Embedded, IngestCounts, Skipped};
pub use nearest::{Served, UseIndex, Vectors};
pub(crate) use temp::{remove_stale_temps, temp_path, unique_suffix};

use crate::error::{Kind, Kinded};
use anyhow::{Context, Result};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use store::Store;

/// From this many vectors on, queries go through the index: below it an
/// exact scan takes about a millisecond.
pub const INDEX_FROM: usize = 20_000;

pub struct Library {
    pub dir: PathBuf,
    pub store: Store,
    _lock: Option<File>,
}

/// `--library`, else `$PAPERSCOUT_LIBRARY` (clap fills it), else the user's data dir.
pub fn resolve_dir(arg: Option<&Path>) -> Result<PathBuf> {
    if let Some(dir) = arg {
        return Ok(dir.to_path_buf());
    }
    let base = dirs::data_dir().context("cannot find a data directory for the library; pass --library DIR or set PAPERSCOUT_LIBRARY")?;
    Ok(base.join("paperscout"))
}

/// The file whose lock makes a process the library's one writer.
fn lock_file(dir: &Path) -> Result<(File, PathBuf)> {
    let lock_path = dir.join("write.lock");
    Ok((open_lock(&lock_path)?, lock_path))
}

/// A lock file, created when missing and never truncated.
fn open_lock(path: &Path) -> Result<File> {
    File::options().create(true).truncate(false).write(true).open(path).with_context(|| format!("cannot open {}", path.display()))
}

/// What the library stage refuses, with its kind (crate::error).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("the library at {} is busy (another paperscout is writing to it); try again", dir.display())]
    Busy { dir: PathBuf },
}

impl Kinded for Error {
    fn kind(&self) -> Kind {
        match self {
            Error::Busy { .. } => Kind::Busy,
        }
    }
}

impl Library {
    /// Opens for reading; creates nothing. Readers never wait for writers.
    pub fn open_read(dir: &Path) -> Result<Library> {
        private::restrict_new_files();
        let db = dir.join("library.sqlite");
        if !db.exists() {
            anyhow::bail!("no library at {} yet; add papers with `paperscout ingest FILE`", dir.display());
        }
        Ok(Library { dir: dir.to_path_buf(), store: Store::open_read(&db)?, _lock: None })
    }

    /// [`Library::open_write`] for commands that only change a library
    /// (seeds): a mistyped `--library` must not create an empty one.
    pub fn open_write_existing(dir: &Path) -> Result<Library> {
        if !dir.join("library.sqlite").is_file() {
            anyhow::bail!("no library at {}; check --library, or create one with `paperscout ingest FILE`", dir.display());
        }
        Library::open_write(dir)
    }

    /// Opens for writing like [`Library::open_write`], but gives up after
    /// `patience` while another process writes (the server answers "busy"
    /// rather than hang behind a long ingest).
    pub fn open_write_within(dir: &Path, patience: Duration) -> Result<Library> {
        private::restrict_new_files();
        let (lock, lock_path) = lock_file(dir)?;
        let start = Instant::now();
        loop {
            match lock.try_lock() {
                Ok(()) => break,
                Err(std::fs::TryLockError::WouldBlock) if start.elapsed() < patience => std::thread::sleep(Duration::from_millis(50)),
                Err(std::fs::TryLockError::WouldBlock) => return Err(Error::Busy { dir: dir.to_path_buf() }.into()),
                Err(std::fs::TryLockError::Error(e)) => return Err(e).with_context(|| format!("cannot lock {}", lock_path.display())),
            }
        }
        let store = Store::open(&dir.join("library.sqlite"))?;
        Ok(Library { dir: dir.to_path_buf(), store, _lock: Some(lock) })
    }

    /// Opens for writing, creating the library if needed. Only one writer at
    /// a time: a second one says so and waits.
    pub fn open_write(dir: &Path) -> Result<Library> {
        private::restrict_new_files();
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create library directory {}", dir.display()))?;
        let (lock, lock_path) = lock_file(dir)?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                crate::messages::note(format_args!("another paperscout is writing to {}; waiting for it to finish…", dir.display()));
                lock.lock().with_context(|| format!("cannot lock {}", lock_path.display()))?;
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(e).with_context(|| format!("cannot lock {}", lock_path.display())),
        }
        let store = Store::open(&dir.join("library.sqlite"))?;
        Ok(Library { dir: dir.to_path_buf(), store, _lock: Some(lock) })
    }
}

/// The derived files' lock: one process updates them at a time.
fn lock_derived(dir: &Path) -> Result<File> {
    lock_file_in(dir, "update.lock", true)
}

/// Locks `name` in `dir`, waiting for it when `wait`, else failing at once
/// when another process holds it.
fn lock_file_in(dir: &Path, name: &str, wait: bool) -> Result<File> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let path = dir.join(name);
    let f = open_lock(&path)?;
    if wait {
        f.lock().with_context(|| format!("cannot lock {}", path.display()))?;
    } else if f.try_lock().is_err() {
        anyhow::bail!("{} is held by another process", path.display());
    }
    Ok(f)
}

/// Seconds since `start`, for summary lines.
pub fn secs(start: Instant) -> f64 {
    Duration::as_secs_f64(&start.elapsed())
}

/// Bytes as one reads them: 1.5 GiB, 382.0 KiB.
pub fn human_bytes(n: u64) -> String {
    let mut v = n as f64;
    for unit in ["B", "KiB", "MiB", "GiB"] {
        if v < 1024.0 {
            return format!("{v:.1} {unit}");
        }
        v /= 1024.0;
    }
    format!("{v:.1} TiB")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changing_seeds_needs_an_existing_library() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("typo");
        assert!(Library::open_write_existing(&missing).is_err());
        assert!(!missing.exists(), "an empty library was created");
    }
}
