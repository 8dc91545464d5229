//! The files derived from the database: per model the flat vectors, the
//! HNSW index and the one-bit sketch, and for all models the lexical
//! index. Where they lie, how each catches up with the database, and what
//! `stats` shows of them.

use super::vectors::{self, FlatVectors};
use super::{human_bytes, index, lexical, sketch, Library, INDEX_FROM};
use super::{lock_derived, lock_file_in, open_lock};
use anyhow::{Context, Result};
use sketch::Sketch;
use std::path::PathBuf;

impl Library {
    pub(super) fn model_dir(&self, model: &str) -> PathBuf {
        let safe: String = model.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '.' { c } else { '_' }).collect();
        self.dir.join("derived").join(safe)
    }

    pub fn flat_path(&self, model: &str) -> PathBuf {
        self.model_dir(model).join("vectors.bin")
    }

    pub fn index_dir(&self, model: &str) -> PathBuf {
        self.model_dir(model).join("index")
    }

    pub fn sketch_path(&self, model: &str) -> PathBuf {
        self.model_dir(model).join("sketch.bin")
    }

    pub fn lexical_dir(&self) -> PathBuf {
        self.dir.join("derived").join("lexical")
    }

    /// Brings the lexical index up to the database (`ingest` does, so no
    /// query has to), building it when there is none.
    pub fn update_lexical(&self, rebuild: bool) -> Result<lexical::Updated> {
        let _lock = lock_file_in(&self.dir.join("derived"), "lexical.lock", true)?;
        lexical::update(&self.lexical_dir(), &self.store, rebuild)
    }

    /// The lexical index, caught up with the database first when it lags
    /// unless another process is updating it: a reader does not wait, it
    /// reads the index as it stands (document frequencies hardly move with
    /// one day's papers). `None` where there is none and none can be made
    /// (a read-only library).
    pub fn lexical(&self) -> Result<Option<lexical::LexicalIndex>> {
        let dir = self.lexical_dir();
        let found = lexical::LexicalIndex::open(&dir).unwrap_or_else(|e| {
            crate::messages::warning(format_args!("{e:#}; rebuilding it"));
            None
        });
        if let Some(ix) = &found {
            if !lexical::behind(ix.mark, &self.store)? {
                return Ok(found);
            }
        }
        let lock = match lock_file_in(&self.dir.join("derived"), "lexical.lock", false) {
            Ok(lock) => lock,
            Err(_) => return Ok(found),
        };
        match lexical::update(&dir, &self.store, false) {
            Ok(_) => {
                drop(lock);
                lexical::LexicalIndex::open(&dir)
            }
            Err(e) => {
                warn_unshared(&e);
                Ok(found)
            }
        }
    }

    /// The flat vectors for `model`, brought up to date with the database
    /// first when it has moved on: new papers are appended and retired rows
    /// marked dead, never a rewrite. A reader that cannot update the shared
    /// file (a read-only library, a full disk) works on a private copy.
    pub fn flat_vectors(&self, model: &str) -> Result<FlatVectors> {
        if let Ok(flat) = FlatVectors::open(&self.flat_path(model)) {
            if flat.model == model && !self.flat_behind(&flat)? {
                return Ok(flat);
            }
        }
        match self.sync_flat(model) {
            Ok(flat) => Ok(flat),
            Err(e) => {
                warn_unshared(&e);
                self.private_flat(model)
            }
        }
    }

    /// Whether the database holds rows `flat` lacks (two indexed lookups).
    fn flat_behind(&self, flat: &FlatVectors) -> Result<bool> {
        Ok(flat.retired < self.store.retired_mark()? || self.store.settled_after(&flat.model, flat.through)?)
    }

    /// Appends what the database has past the file's end and marks retired
    /// rows dead, under the derived files' lock (one updater at a time;
    /// readers never wait for it).
    pub fn sync_flat(&self, model: &str) -> Result<FlatVectors> {
        let Some(dim) = self.store.vector_dim(model)? else {
            return FlatVectors::in_memory(model, 1, &[], 0, 0);
        };
        let dir = self.model_dir(model);
        std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let _lock = lock_derived(&dir)?;
        let path = self.flat_path(model);
        let mut appender = vectors::Appender::open(&path, model, dim)?;
        let current = FlatVectors::open(&path)?;
        // One snapshot: the rows and the retired log agree with each other.
        let snapshot = self.store.snapshot()?;
        for (seq, rowid) in self.store.retired_after(appender.retired())? {
            appender.retire(rowid, seq, &current)?;
        }
        self.store.rows_after(model, appender.through(), |row| {
            match row.vector {
                Some(v) => appender.push(row.meta, v)?,
                None if row.failed => appender.settle(row.meta.rowid),
                // Not embedded yet: the file stops before it.
                None => return Ok(false),
            }
            Ok(true)
        })?;
        drop(snapshot);
        appender.commit()?;
        FlatVectors::open(&path)
    }

    /// Every paper vector of `model`, in memory, read in one snapshot.
    fn private_flat(&self, model: &str) -> Result<FlatVectors> {
        let snapshot = self.store.snapshot()?;
        let retired = self.store.retired_mark()?;
        let mut rows = Vec::new();
        let mut dim = 1;
        self.store.rows_after(model, 0, |row| {
            if let Some(v) = row.vector {
                dim = v.len();
                rows.push((row.meta, v.to_vec()));
            }
            Ok(true)
        })?;
        drop(snapshot);
        let through = rows.last().map_or(0, |r| r.0.rowid);
        FlatVectors::in_memory(model, dim, &rows, through, retired)
    }

    /// The sketch of `flat`, extended first when it is behind, unless
    /// another process is updating the derived files: a reader does not
    /// wait, the rows past the sketch are scanned exactly instead.
    pub fn current_sketch(&self, flat: &FlatVectors) -> Option<Sketch> {
        let path = self.sketch_path(&flat.model);
        let found = Sketch::open(&path, flat);
        if found.as_ref().is_some_and(|s| s.count == flat.count) {
            return found;
        }
        let dir = self.model_dir(&flat.model);
        let Ok(lock) = open_lock(&dir.join("update.lock")) else {
            return found;
        };
        if lock.try_lock().is_err() {
            return found;
        }
        match sketch::extend(&path, flat) {
            Ok(_) => Sketch::open(&path, flat),
            Err(e) => {
                warn_unshared(&e);
                found
            }
        }
    }

    /// Brings the sketch up to `flat` (`ingest` does, so no query has to).
    pub fn update_sketch(&self, flat: &FlatVectors) -> Result<usize> {
        let _lock = lock_derived(&self.model_dir(&flat.model))?;
        sketch::extend(&self.sketch_path(&flat.model), flat)
    }

    /// Brings the index up to the flat vectors (inserting new rows, removing
    /// dead ones), building it when there is none or `rebuild` asks.
    pub fn update_index(&self, flat: &FlatVectors, rebuild: bool) -> Result<index::Updated> {
        let dir = self.model_dir(&flat.model);
        std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let _lock = lock_derived(&dir)?;
        // The hnsw_rs graph of libraries made before session 4 is unused.
        let _ = std::fs::remove_dir_all(dir.join("hnsw"));
        index::update(&self.index_dir(&flat.model), flat, rebuild)
    }

    /// Where one model's vectors and index stand, for `stats`.
    pub fn index_state(&self, model: &str) -> Result<IndexState> {
        let flat = FlatVectors::open(&self.flat_path(model)).ok().filter(|f| f.model == model);
        let behind = match &flat {
            Some(f) => self.flat_behind(f)?,
            None => true,
        };
        let meta = index::read_meta(&self.index_dir(model));
        let index_bytes = meta.as_ref().and_then(|m| std::fs::metadata(m.path(&self.index_dir(model))).ok()).map(|m| m.len());
        let sketch = flat.as_ref().and_then(|f| Sketch::open(&self.sketch_path(model), f));
        Ok(IndexState {
            sketched: sketch.as_ref().map(|s| s.count),
            sketch_bytes: sketch.as_ref().map(Sketch::size),
            rows: flat.as_ref().map(|f| f.count),
            flat_bytes: flat.as_ref().map(|f| f.size()),
            flat_current: !behind,
            engine: meta.as_ref().map(|m| m.engine.clone()),
            indexed: meta.as_ref().map(|m| m.count),
            index_bytes,
        })
    }
}

/// What `stats` shows of one model's derived files.
#[derive(Debug, Clone, serde::Serialize)]
pub struct IndexState {
    /// Rows of the flat file, dead ones included (counting the live ones
    /// means reading every row: seconds and gigabytes at 3 M; `doctor` does).
    pub rows: Option<usize>,
    pub flat_bytes: Option<u64>,
    pub flat_current: bool,
    pub engine: Option<String>,
    /// Rows the index holds (the rest are scanned until the next update).
    pub indexed: Option<usize>,
    pub index_bytes: Option<u64>,
    /// Rows the sketch holds (likewise).
    pub sketched: Option<usize>,
    pub sketch_bytes: Option<u64>,
}

impl IndexState {
    /// One line for `stats`: which search answers, over how much, from how many bytes.
    pub fn describe(&self) -> String {
        let flat = match (self.rows, self.flat_bytes) {
            (Some(rows), Some(bytes)) => format!(
                "flat vectors {rows} rows, {}{}",
                human_bytes(bytes),
                if self.flat_current { "" } else { " (new papers are appended on the next query)" }
            ),
            _ => "flat vectors not built (built on the next query)".to_string(),
        };
        let covering = |n: usize, bytes: u64| {
            let rest = self.rows.unwrap_or(n).saturating_sub(n);
            let tail = if rest > 0 { format!(", {rest} newer rows scanned until the next ingest or doctor") } else { String::new() };
            format!("{n} rows, {}{tail}", human_bytes(bytes))
        };
        if self.rows.unwrap_or(0) < INDEX_FROM {
            return format!("exact scan (an index and a sketch are built from {INDEX_FROM} vectors); {flat}");
        }
        let index = match (&self.engine, self.indexed, self.index_bytes) {
            (Some(engine), Some(n), Some(bytes)) => format!("{engine} (for `serve`): {}", covering(n, bytes)),
            _ => "no index yet (`paperscout doctor` builds it)".to_string(),
        };
        let sketch = match (self.sketched, self.sketch_bytes) {
            (Some(n), Some(bytes)) => format!("one-bit sketch (for one-shot queries): {}", covering(n, bytes)),
            _ => "no sketch yet (built by the next query)".to_string(),
        };
        format!("{index}; {sketch}; {flat}")
    }
}

/// A derived file that could not be shared costs the next reader a
/// rebuild, nothing more; only an unexpected cause is worth a word.
pub(super) fn warn_unshared(e: &anyhow::Error) {
    let expected = e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| matches!(io.kind(), std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem))
    });
    if !expected {
        crate::messages::warning(format_args!("{e:#} (kept in memory for this run)"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::test_support::{embedded_library, fake, paper};
    use crate::library::{UseIndex, Vectors};
    use crate::paper::Kind;

    /// Derived files never fail a reader: updates append under a lock, a
    /// rebuild goes through a temp file, and every reader sees whole,
    /// current vectors.
    #[test]
    fn readers_racing_an_update_never_fail() {
        let (dir, _writer) = embedded_library(50);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    let reader = Library::open_read(dir.path()).unwrap();
                    for _ in 0..10 {
                        let v = reader.vectors("m", UseIndex::Always).unwrap();
                        assert_eq!(v.flat.live(), 50);
                        let hits = v.search(&[1.0, 0.0], 3, |_| true).unwrap();
                        assert_eq!(hits.len(), 3);
                        // Another process's damage: the file is gone.
                        let _ = std::fs::remove_file(reader.flat_path("m"));
                    }
                });
            }
        });
        let lib = Library::open_read(dir.path()).unwrap();
        let (flat, note) = lib.check_flat("m").unwrap();
        assert!(note.starts_with("vectors"), "{note}");
        assert!(lib.check_index(&flat, false).unwrap().starts_with("index"));
    }

    /// A new version with another abstract moves its paper to a new rowid:
    /// the file grows by one row and marks the old one dead, the index
    /// takes the new row without a rebuild, and searches find the paper
    /// once, with its new vector.
    #[test]
    fn derived_files_grow_with_the_library() {
        let (_dir, mut lib) = embedded_library(30);
        let flat = lib.sync_flat("m").unwrap();
        assert_eq!((flat.count, flat.live()), (30, 30));
        assert_eq!(lib.update_index(&flat, false).unwrap(), index::Updated::Built { added: 30 });
        assert_eq!(lib.update_sketch(&flat).unwrap(), 30);
        let before = std::fs::read(lib.flat_path("m")).unwrap();

        let moved = paper("2603.00007v2", Kind::Replaced, "2026-03-09", "Text 7, revised and longer.");
        lib.add_papers(&[moved, paper("2603.00031v1", Kind::New, "2026-03-09", "Text 31.")]).unwrap();
        // Not embedded yet: the file stops before the moved paper.
        let flat = lib.flat_vectors("m").unwrap();
        assert_eq!((flat.count, flat.live()), (30, 29));
        lib.embed_missing(&fake("m"), &|_, _| {}).unwrap();
        let flat = lib.flat_vectors("m").unwrap();
        assert_eq!((flat.count, flat.live()), (32, 31));
        let after = std::fs::read(lib.flat_path("m")).unwrap();
        // Appended: the old rows are untouched but for the dead one.
        let row = (after.len() - before.len()) / 2;
        let dead = 512 + 6 * row;
        assert_eq!(after[512..dead], before[512..dead]);
        assert_eq!(after[dead + row..before.len()], before[dead + row..]);

        assert_eq!(lib.update_index(&flat, false).unwrap(), index::Updated::Grown { added: 2, removed: 1 });
        let v = lib.vectors("m", UseIndex::Always).unwrap();
        let p7 = lib.store.get_paper("2603.00007").unwrap().unwrap();
        let q = lib.store.vector("m", &p7.text_hash).unwrap().unwrap();
        let hits = v.search(&q, 40, |_| true).unwrap();
        let rowids: Vec<i64> = hits.iter().map(|h| v.flat.rowid(h.0)).collect();
        assert_eq!(rowids.iter().filter(|&&r| r == p7.rowid).count(), 1);
        assert!(rowids.iter().all(|&r| r > 0) && hits.len() == 31, "{rowids:?}");
        assert!(lib.check_flat("m").unwrap().1.starts_with("vectors ok"));

        // The sketch grows by the same two rows and never returns the dead one.
        assert_eq!(lib.update_sketch(&flat).unwrap(), 2);
        assert_eq!(lib.check_sketch(&flat, false).unwrap(), "; sketch ok (32 rows)");
        let sketch = Sketch::open(&lib.sketch_path("m"), &flat);
        let v = Vectors { flat: lib.flat_vectors("m").unwrap(), index: None, sketch };
        let hits = v.search(&q, 40, |_| true).unwrap();
        let rowids: Vec<i64> = hits.iter().map(|h| v.flat.rowid(h.0)).collect();
        assert_eq!(rowids.iter().filter(|&&r| r == p7.rowid).count(), 1);
        assert!(rowids.iter().all(|&r| r > 0) && hits.len() == 31, "{rowids:?}");
        // Damage is found and repaired.
        let path = lib.sketch_path("m");
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0xff;
        std::fs::write(&path, bytes).unwrap();
        assert_eq!(lib.check_sketch(&flat, false).unwrap(), "; sketch rebuilt (damaged: row 31 differs from the vectors)");
        assert_eq!(lib.check_sketch(&flat, false).unwrap(), "; sketch ok (32 rows)");
    }

    /// A writer killed midway leaves an unpublished tail in the flat file,
    /// an index file no meta names and a half-written meta: readers go on
    /// with what was published, and the next update finishes the job.
    #[test]
    fn an_update_killed_midway_leaves_what_was_published() {
        let (_dir, mut lib) = embedded_library(25);
        let flat = lib.sync_flat("m").unwrap();
        lib.update_index(&flat, false).unwrap();
        let meta = index::read_meta(&lib.index_dir("m")).unwrap();
        // The debris of a killed update.
        let mut f = std::fs::OpenOptions::new().append(true).open(lib.flat_path("m")).unwrap();
        std::io::Write::write_all(&mut f, &[0x5a; 700]).unwrap();
        std::fs::write(lib.index_dir("m").join("index-killed.usearch"), [1u8; 999]).unwrap();
        std::fs::write(lib.index_dir("m").join("meta.json.tmp-1-2"), b"{\"engine\": ").unwrap();

        let v = lib.vectors("m", UseIndex::IfBuilt).unwrap();
        assert_eq!((v.flat.count, index::read_meta(&lib.index_dir("m")).unwrap()), (25, meta));
        let ix = index::open(&lib.index_dir("m"), &v.flat).unwrap().unwrap();
        assert_eq!(ix.search(&v.flat, v.flat.vector(3), 5, |_| true).unwrap().len(), 5);
        lib.add_papers(&[paper("2603.00026v1", Kind::New, "2026-03-03", "Text 26.")]).unwrap();
        lib.embed_missing(&fake("m"), &|_, _| {}).unwrap();
        let flat = lib.sync_flat("m").unwrap();
        assert_eq!(flat.count, 26);
        assert!(lib.check_flat("m").unwrap().1.starts_with("vectors ok"));
        assert_eq!(lib.update_index(&flat, false).unwrap(), index::Updated::Grown { added: 1, removed: 0 });
    }
}
