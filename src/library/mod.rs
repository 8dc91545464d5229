//! The library: one directory holding the SQLite database (the source of
//! truth) and files derived from it per model — a flat vector file for exact
//! scans and an HNSW graph — which are rebuilt whenever they are missing,
//! stale or unreadable.

pub mod index;
pub mod stats;
pub mod store;
pub mod vectors;

use crate::embed::Embedder;
use crate::paper::Paper;
use anyhow::{Context, Result};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use store::{Store, Upsert};
use vectors::FlatVectors;

/// How many texts are embedded and committed together: a kill loses at
/// most one chunk of work.
const EMBED_CHUNK: usize = 512;

/// Up to this many vectors a query scans them all (exact, ~40 ms at 500k
/// on one core); beyond it queries go through the HNSW graph.
pub const EXACT_SCAN_LIMIT: usize = 500_000;

pub struct Library {
    pub dir: PathBuf,
    pub store: Store,
    _lock: Option<File>,
}

/// Counts an ingest reports.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct IngestCounts {
    pub new: usize,
    pub updated: usize,
    pub unchanged: usize,
    pub embedded: usize,
}

/// `--library`, else `$PAPERSCOUT_LIBRARY` (clap fills it), else the user's data dir.
pub fn resolve_dir(arg: Option<&Path>) -> Result<PathBuf> {
    if let Some(dir) = arg {
        return Ok(dir.to_path_buf());
    }
    let base = dirs::data_dir().context(
        "cannot find a data directory for the library; pass --library DIR or set PAPERSCOUT_LIBRARY",
    )?;
    Ok(base.join("paperscout"))
}

impl Library {
    /// Opens for reading; creates nothing. Readers never wait for writers.
    pub fn open_read(dir: &Path) -> Result<Library> {
        let db = dir.join("library.sqlite");
        if !db.exists() {
            anyhow::bail!(
                "no library at {} yet; add papers with `paperscout ingest FILE`",
                dir.display()
            );
        }
        Ok(Library { dir: dir.to_path_buf(), store: Store::open(&db)?, _lock: None })
    }

    /// Opens for writing like [`Library::open_write`], but gives up after
    /// `patience` while another process writes (the server answers "busy"
    /// rather than hang behind a long ingest).
    pub fn open_write_within(dir: &Path, patience: Duration) -> Result<Library> {
        let lock_path = dir.join("write.lock");
        let lock = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .with_context(|| format!("cannot open {}", lock_path.display()))?;
        let start = Instant::now();
        loop {
            match lock.try_lock() {
                Ok(()) => break,
                Err(std::fs::TryLockError::WouldBlock) if start.elapsed() < patience => {
                    std::thread::sleep(Duration::from_millis(50))
                }
                Err(std::fs::TryLockError::WouldBlock) => {
                    anyhow::bail!("the library at {} is busy (another paperscout is writing to it); try again", dir.display())
                }
                Err(std::fs::TryLockError::Error(e)) => {
                    return Err(e).with_context(|| format!("cannot lock {}", lock_path.display()))
                }
            }
        }
        let store = Store::open(&dir.join("library.sqlite"))?;
        Ok(Library { dir: dir.to_path_buf(), store, _lock: Some(lock) })
    }

    /// Opens for writing, creating the library if needed. Only one writer at
    /// a time: a second one says so and waits.
    pub fn open_write(dir: &Path) -> Result<Library> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create library directory {}", dir.display()))?;
        let lock_path = dir.join("write.lock");
        let lock = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .with_context(|| format!("cannot open {}", lock_path.display()))?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                eprintln!(
                    "another paperscout is writing to {}; waiting for it to finish…",
                    dir.display()
                );
                lock.lock().with_context(|| format!("cannot lock {}", lock_path.display()))?;
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("cannot lock {}", lock_path.display()))
            }
        }
        let store = Store::open(&dir.join("library.sqlite"))?;
        Ok(Library { dir: dir.to_path_buf(), store, _lock: Some(lock) })
    }

    /// Upserts papers and their listings in one transaction.
    pub fn add_papers(&mut self, papers: &[Paper]) -> Result<IngestCounts> {
        let mut counts = IngestCounts::default();
        let tx = self.store.transaction()?;
        for p in papers {
            match store::upsert_paper(&tx, p)
                .with_context(|| format!("cannot store paper {} from {}", p.id, p.source))?
            {
                Upsert::New => counts.new += 1,
                Upsert::Updated => counts.updated += 1,
                Upsert::Unchanged => counts.unchanged += 1,
            }
        }
        if counts.new + counts.updated > 0 {
            store::bump_generation(&tx)?;
        }
        tx.commit()?;
        Ok(counts)
    }

    /// Embeds every paper text that has no vector for this model yet,
    /// committing chunk by chunk. Returns how many texts were embedded.
    pub fn embed_missing(&mut self, embedder: &dyn Embedder, progress: &dyn Fn(usize, usize)) -> Result<usize> {
        let model = embedder.model_id().to_string();
        self.store.set_default_model(&model)?;
        let missing = self.store.missing_vectors(&model)?;
        let total = missing.len();
        let mut done = 0;
        for chunk in missing.chunks(EMBED_CHUNK) {
            let texts: Vec<&str> = chunk.iter().map(|(_, t)| t.as_str()).collect();
            let vecs = embedder.embed(&texts, &|n| progress(done + n, total))?;
            let tx = self.store.transaction()?;
            for ((hash, _), v) in chunk.iter().zip(&vecs) {
                store::insert_vector(&tx, &model, hash, v)?;
            }
            store::bump_generation(&tx)?;
            tx.commit()?;
            done += chunk.len();
            progress(done, total);
        }
        Ok(total)
    }

    fn model_dir(&self, model: &str) -> PathBuf {
        let safe: String = model
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '.' { c } else { '_' })
            .collect();
        self.dir.join("derived").join(safe)
    }

    pub fn flat_path(&self, model: &str) -> PathBuf {
        self.model_dir(model).join("vectors.bin")
    }

    pub fn index_dir(&self, model: &str) -> PathBuf {
        self.model_dir(model).join("hnsw")
    }

    /// The flat vector file for `model`, rebuilt first when it is missing,
    /// unreadable or older than the database.
    pub fn flat_vectors(&self, model: &str) -> Result<FlatVectors> {
        let path = self.flat_path(model);
        let generation = self.store.generation()?;
        if let Ok(flat) = FlatVectors::open(&path) {
            if flat.generation == generation && flat.model == model {
                return Ok(flat);
            }
        }
        std::fs::create_dir_all(self.model_dir(model))?;
        let mut rowids = Vec::new();
        let mut data = Vec::new();
        let mut dim = 0;
        self.store.for_each_vector(model, |rowid, v| {
            dim = v.len();
            rowids.push(rowid);
            data.extend_from_slice(v);
        })?;
        vectors::write(&path, model, generation, dim.max(1), &rowids, &data)?;
        FlatVectors::open(&path)
    }

    /// Brings the HNSW graph up to date with the flat vectors.
    pub fn refresh_index(&self, flat: &FlatVectors) -> Result<bool> {
        let dir = self.index_dir(&flat.model);
        let want = index::IndexMeta {
            model: flat.model.clone(),
            generation: flat.generation,
            count: flat.count,
        };
        if index::read_meta(&dir).as_ref() == Some(&want) {
            return Ok(false);
        }
        index::rebuild(&dir, flat)?;
        Ok(true)
    }

    /// Index state for one model, for `stats` and `doctor`.
    pub fn index_state(&self, model: &str) -> Result<String> {
        let generation = self.store.generation()?;
        let flat = match FlatVectors::open(&self.flat_path(model)) {
            Ok(f) if f.generation == generation => format!("vectors current ({})", f.count),
            Ok(_) => "vectors stale (rebuilt on next query)".to_string(),
            Err(_) => "vectors not built (built on next query)".to_string(),
        };
        let graph = match index::read_meta(&self.index_dir(model)) {
            Some(m) if m.generation == generation => format!("HNSW current ({} points)", m.count),
            Some(_) => "HNSW stale".to_string(),
            None => "HNSW not built".to_string(),
        };
        Ok(format!("{flat}; {graph}"))
    }
}

/// Seconds since `start`, for summary lines.
pub fn secs(start: Instant) -> f64 {
    Duration::as_secs_f64(&start.elapsed())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paper::{ArxivId, Kind};

    fn paper(id: &str, kind: Kind, date: &str, abstract_text: &str) -> Paper {
        let mut p = Paper::new(ArxivId::parse(id).unwrap(), kind, "test");
        p.title = "A title".into();
        p.abstract_text = abstract_text.into();
        p.listing_date = Some(date.into());
        p.set_subjects(vec!["cs.DC".into()]);
        p
    }

    /// Vectors are keyed by the embedded text: only a changed text needs one.
    #[test]
    fn replaced_entry_with_same_abstract_needs_no_new_vector() {
        let dir = tempfile::tempdir().unwrap();
        let mut lib = Library::open_write(dir.path()).unwrap();
        let c = lib.add_papers(&[paper("2603.00001v1", Kind::New, "2026-03-02", "Same text.")]).unwrap();
        assert_eq!((c.new, c.updated), (1, 0));
        let missing = lib.store.missing_vectors("m").unwrap();
        assert_eq!(missing.len(), 1);
        let tx = lib.store.transaction().unwrap();
        store::insert_vector(&tx, "m", &missing[0].0, &[1.0, 0.0]).unwrap();
        tx.commit().unwrap();

        let c = lib.add_papers(&[paper("2603.00001v2", Kind::Replaced, "2026-03-09", "Same text.")]).unwrap();
        assert_eq!((c.new, c.updated), (0, 1), "the new version is recorded");
        assert!(lib.store.missing_vectors("m").unwrap().is_empty(), "but not embedded again");
        assert_eq!(lib.store.get_paper("2603.00001").unwrap().unwrap().paper.version, Some(2));

        // An older listing read later changes nothing.
        let c = lib.add_papers(&[paper("2603.00001v1", Kind::New, "2026-03-02", "Other text.")]).unwrap();
        assert_eq!(c.unchanged, 1);
        let c = lib.add_papers(&[paper("2603.00001v3", Kind::Replaced, "2026-03-16", "New text.")]).unwrap();
        assert_eq!(c.updated, 1);
        assert_eq!(lib.store.missing_vectors("m").unwrap().len(), 1, "a changed abstract is embedded");
        let days = lib.store.count("SELECT count(*) FROM listings").unwrap();
        assert_eq!(days, 3);
    }
}
