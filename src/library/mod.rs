//! The library: one directory holding the SQLite database (the source of
//! truth) and files derived from it — per model a flat vector file, an HNSW
//! index and a one-bit sketch over it; for all models one lexical index —
//! which grow as the database does and are rebuilt only when missing or
//! damaged.

pub mod index;
pub mod lexical;
pub mod sketch;
pub mod store;
pub mod vectors;

use crate::embed::{self, Embedder};
use crate::paper::Paper;
use anyhow::{Context, Result};
use sketch::Sketch;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use store::{Store, Upsert};
use vectors::{FlatVectors, RowMeta};

/// How many texts are embedded and committed together: a kill loses at
/// most one chunk of work.
const EMBED_CHUNK: usize = 512;

/// From this many vectors on, queries go through the index: below it an
/// exact scan takes about a millisecond.
pub const INDEX_FROM: usize = 20_000;

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

/// What [`Library::embed_missing`] did.
#[derive(Debug, Default)]
pub struct Embedded {
    pub done: usize,
    /// Texts the model could not embed, with the papers that have them and
    /// why: recorded, and not tried again with this model.
    pub skipped: Vec<Skipped>,
}

#[derive(Debug)]
pub struct Skipped {
    pub papers: Vec<String>,
    pub error: String,
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

/// The file whose lock makes a process the library's one writer.
fn lock_file(dir: &Path) -> Result<(File, PathBuf)> {
    let lock_path = dir.join("write.lock");
    Ok((open_lock(&lock_path)?, lock_path))
}

/// A lock file, created when missing and never truncated.
fn open_lock(path: &Path) -> Result<File> {
    File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))
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
        Ok(Library { dir: dir.to_path_buf(), store: Store::open_read(&db)?, _lock: None })
    }

    /// [`Library::open_write`] for commands that only change a library
    /// (seeds): a mistyped `--library` must not create an empty one.
    pub fn open_write_existing(dir: &Path) -> Result<Library> {
        if !dir.join("library.sqlite").is_file() {
            anyhow::bail!(
                "no library at {}; check --library, or create one with `paperscout ingest FILE`",
                dir.display()
            );
        }
        Library::open_write(dir)
    }

    /// Opens for writing like [`Library::open_write`], but gives up after
    /// `patience` while another process writes (the server answers "busy"
    /// rather than hang behind a long ingest).
    pub fn open_write_within(dir: &Path, patience: Duration) -> Result<Library> {
        let (lock, lock_path) = lock_file(dir)?;
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
        let (lock, lock_path) = lock_file(dir)?;
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

    /// Refuses to embed with a model other than the one whose vectors the
    /// library holds: that would silently re-embed every paper (and a
    /// damaged model would replace good vectors with bad ones).
    pub fn check_model(&self, model: &str) -> Result<()> {
        check_model(self.held_model()?.as_deref(), model)
    }

    /// The model whose vectors the library holds, if it holds any.
    pub fn held_model(&self) -> Result<Option<String>> {
        let Some(known) = self.store.default_model()? else { return Ok(None) };
        // Whether it holds any: one lookup, not a count of millions.
        let held: bool = self.store.conn().query_row(
            "SELECT EXISTS (SELECT 1 FROM vectors WHERE model = ?1)",
            [&known],
            |r| r.get(0),
        )?;
        Ok(held.then_some(known))
    }

    /// Stores batches of papers, each with the vectors made for them
    /// elsewhere (already checked against the library's model), all in one
    /// transaction: an error from `batches` (bad input anywhere, however
    /// far in) leaves the library as it was. Returns the counts and how
    /// many vectors were stored.
    pub fn add_batches(&mut self, batches: &mut dyn Iterator<Item = Result<Batch>>) -> Result<(IngestCounts, usize)> {
        let mut counts = IngestCounts::default();
        let mut vectors = 0;
        let tx = self.store.transaction()?;
        for batch in batches {
            let batch = batch?;
            for p in &batch.papers {
                match store::upsert_paper(&tx, p)
                    .with_context(|| format!("cannot store paper {} from {}", p.id, p.source))?
                {
                    Upsert::New => counts.new += 1,
                    Upsert::Updated => counts.updated += 1,
                    Upsert::Unchanged => counts.unchanged += 1,
                }
            }
            if let (Some(model), false) = (&batch.model, batch.vectors.is_empty()) {
                store::set_default_model(&tx, model)?;
                for (i, v) in &batch.vectors {
                    store::insert_vector(&tx, model, &store::text_hash(&batch.papers[*i].embedding_text()), v)?;
                }
                vectors += batch.vectors.len();
            }
        }
        if counts.new + counts.updated + vectors > 0 {
            store::bump_generation(&tx)?;
        }
        tx.commit()?;
        Ok((counts, vectors))
    }

    /// Embeds every paper text that has no vector for this model yet,
    /// committing chunk by chunk. A text the model cannot embed is recorded
    /// and skipped, so it does not stop this ingest or any later one.
    pub fn embed_missing(&mut self, embedder: &dyn Embedder, progress: &dyn Fn(usize, usize)) -> Result<Embedded> {
        let model = embedder.model_id().to_string();
        self.check_model(&model)?;
        self.store.set_default_model(&model)?;
        let missing = self.store.missing_vectors(&model)?;
        let total = missing.len();
        let mut out = Embedded::default();
        let mut done = 0;
        for chunk in missing.chunks(EMBED_CHUNK) {
            let texts: Vec<&str> = chunk.iter().map(|(_, t)| t.as_str()).collect();
            let vecs = match embed_checked(embedder, &texts, &|n| progress(done + n, total)) {
                Ok(vecs) => vecs.into_iter().map(Ok).collect(),
                // One bad text fails its whole batch: find it by embedding one at a time.
                Err(first) => {
                    let single: Vec<Result<Vec<f32>>> =
                        texts.iter().map(|t| embed_checked(embedder, &[t], &|_| {}).map(|mut v| v.remove(0))).collect();
                    // When no text of several embeds, the model is at fault, not the texts.
                    if texts.len() > 1 && single.iter().all(Result::is_err) {
                        return Err(first);
                    }
                    single
                }
            };
            let tx = self.store.transaction()?;
            for ((hash, _), v) in chunk.iter().zip(vecs) {
                match v {
                    Ok(v) => store::insert_vector(&tx, &model, hash, &v)?,
                    Err(e) => {
                        let error = format!("{e:#}");
                        store::record_failure(&tx, &model, hash, &error)?;
                        out.skipped.push(Skipped { papers: store::papers_with_text(&tx, hash)?, error });
                    }
                }
            }
            store::bump_generation(&tx)?;
            tx.commit()?;
            done += chunk.len();
            progress(done, total);
        }
        out.done = total - out.skipped.len();
        Ok(out)
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
            eprintln!("warning: {e:#}; rebuilding it");
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

    /// `doctor`'s check of the lexical index: readable, of this format, and
    /// holding exactly the database's papers up to its mark; else rebuilt.
    pub fn check_lexical(&self, rebuild: bool) -> Result<String> {
        let dir = self.lexical_dir();
        let why = match lexical::LexicalIndex::open(&dir) {
            _ if rebuild => "as asked".to_string(),
            Ok(None) => "missing".to_string(),
            Err(e) => format!("unreadable: {e:#}"),
            Ok(Some(ix)) => {
                let held = ix.rowids()?;
                let mut want = Vec::with_capacity(held.len());
                self.store.papers_after(0, |p| {
                    if p.rowid > ix.mark.through {
                        return Ok(false);
                    }
                    want.push(p.rowid);
                    Ok(true)
                })?;
                if held == want {
                    drop(ix);
                    let done = self.update_lexical(false)?;
                    let grown = if done.added + done.removed > 0 {
                        format!("; {} added, {} removed", done.added, done.removed)
                    } else {
                        String::new()
                    };
                    return Ok(format!("lexical index ok ({} papers{grown})", held.len()));
                }
                format!("damaged: {} papers where the database has {}", held.len(), want.len())
            }
        };
        let done = self.update_lexical(true)?;
        Ok(format!("lexical index rebuilt ({why}; {} papers)", done.added))
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
        let snapshot = self.store.conn().unchecked_transaction()?;
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
        let snapshot = self.store.conn().unchecked_transaction()?;
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

    /// The flat vectors and, as `use_index` says, the index over them.
    pub fn vectors(&self, model: &str, use_index: UseIndex) -> Result<Vectors> {
        let flat = self.flat_vectors(model)?;
        let dir = self.index_dir(model);
        let index = match use_index {
            UseIndex::Never => None,
            UseIndex::IfBuilt if flat.count < INDEX_FROM => None,
            // A server that finds the index damaged answers by scanning.
            UseIndex::IfBuilt => index::open(&dir, &flat).unwrap_or_else(|e| {
                eprintln!("warning: {e:#}; searching by exact scan meanwhile");
                None
            }),
            UseIndex::Always => match index::open(&dir, &flat) {
                Ok(Some(ix)) => Some(ix),
                found => {
                    let rebuild = found.is_err();
                    if let Err(e) = found {
                        eprintln!("warning: {e:#}; rebuilding it");
                    }
                    // A reader that cannot write (a read-only library) scans.
                    match self.update_index(&flat, rebuild) {
                        Ok(_) => index::open(&dir, &flat)?,
                        Err(e) => {
                            warn_unshared(&e);
                            None
                        }
                    }
                }
            },
        };
        // Without an index a large library is searched through the sketch.
        let sketch = match index {
            None if flat.count >= INDEX_FROM => self.current_sketch(&flat),
            _ => None,
        };
        Ok(Vectors {
            flat,
            index,
            sketch,
        })
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

    /// `doctor`'s check of the sketch: every row must be what its flat row
    /// gives; else it is written anew. None is needed below [`INDEX_FROM`].
    pub fn check_sketch(&self, flat: &FlatVectors, rebuild: bool) -> Result<String> {
        let path = self.sketch_path(&flat.model);
        if flat.count < INDEX_FROM && !path.exists() {
            return Ok(String::new());
        }
        let _lock = lock_derived(&self.model_dir(&flat.model))?;
        let why = match Sketch::open(&path, flat) {
            _ if rebuild => "as asked".to_string(),
            None if !path.exists() => "missing".to_string(),
            None => "of other rows".to_string(),
            Some(s) => match s.first_mismatch(flat) {
                Ok(None) => {
                    let added = sketch::extend(&path, flat)?;
                    let grown = if added > 0 {
                        format!("; {added} added")
                    } else {
                        String::new()
                    };
                    return Ok(format!("; sketch ok ({} rows{grown})", s.count));
                }
                Ok(Some(i)) => format!("damaged: row {i} differs from the vectors"),
                Err(e) => format!("unreadable: {e:#}"),
            },
        };
        sketch::rebuild(&path, flat)?;
        Ok(format!("; sketch rebuilt ({why})"))
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

    /// `doctor`'s check of the flat vectors: every live row must be the
    /// database's paper and vector, in order. A file that is not is
    /// rebuilt from scratch. Returns the vectors and what was done.
    pub fn check_flat(&self, model: &str) -> Result<(FlatVectors, String)> {
        let path = self.flat_path(model);
        let why = match FlatVectors::open(&path) {
            Ok(f) if f.model != model => "of another model".to_string(),
            Ok(f) => match self.compare_flat(&f)? {
                None => {
                    let flat = self.sync_flat(model)?;
                    return Ok((flat, format!("vectors ok ({} rows, {} live)", f.count, f.live())));
                }
                Some(why) => why,
            },
            Err(_) if !path.exists() => "missing".to_string(),
            Err(e) => format!("unreadable: {e:#}"),
        };
        let dir = self.model_dir(model);
        {
            let _lock = lock_derived(&dir)?;
            let _ = std::fs::remove_file(&path);
        }
        let flat = self.sync_flat(model)?;
        Ok((flat, format!("vectors rebuilt ({why})")))
    }

    /// `None` when every live row of `flat` is what the database says, else why not.
    fn compare_flat(&self, flat: &FlatVectors) -> Result<Option<String>> {
        let snapshot = self.store.conn().unchecked_transaction()?;
        let mut i = 0;
        let mut problem = None;
        self.store.rows_after(&flat.model, 0, |row| {
            if row.meta.rowid > flat.through {
                return Ok(false);
            }
            let Some(v) = row.vector else { return Ok(true) };
            while i < flat.count && !flat.is_live(i) {
                i += 1;
            }
            if i >= flat.count || flat.meta(i) != row.meta || flat.vector(i) != v {
                problem = Some(format!("damaged: row {i} differs from the database"));
                return Ok(false);
            }
            i += 1;
            Ok(true)
        })?;
        drop(snapshot);
        if problem.is_none() && (i..flat.count).any(|j| flat.is_live(j)) {
            problem = Some("damaged: it holds papers the database does not".to_string());
        }
        Ok(problem)
    }

    /// `doctor`'s check of the index: whole (its checksum), of this model,
    /// holding the rows it says; else rebuilt. Below [`INDEX_FROM`] vectors
    /// queries scan, so no index is built unless `rebuild` asks.
    pub fn check_index(&self, flat: &FlatVectors, rebuild: bool) -> Result<String> {
        let dir = self.index_dir(&flat.model);
        let why = match index::read_meta(&dir) {
            _ if rebuild => "as asked".to_string(),
            None if flat.count < INDEX_FROM => {
                return Ok(format!("no index needed ({} vectors scan in milliseconds)", flat.count))
            }
            None => "missing".to_string(),
            Some(m) if !m.fits(flat) => "of other vectors".to_string(),
            Some(m) => match m.verify(&dir).and_then(|()| {
                index::open(&dir, flat).map_err(|e| format!("{e:#}"))?.ok_or_else(|| "unreadable".to_string())
            }) {
                Ok(ix) => {
                    let want = (0..ix.meta.count).filter(|&i| flat.is_live(i)).count();
                    if ix.len() == want {
                        let grown = match self.update_index(flat, false)? {
                            index::Updated::Grown { added, removed } => format!("; {added} added, {removed} removed"),
                            _ => String::new(),
                        };
                        return Ok(format!("index ok ({} vectors{grown})", ix.len()));
                    }
                    format!("damaged: {} vectors for {want} rows", ix.len())
                }
                Err(e) => format!("damaged: {e}"),
            },
        };
        self.update_index(flat, true)?;
        Ok(format!("index rebuilt ({why})"))
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
        let sketch = flat
            .as_ref()
            .and_then(|f| Sketch::open(&self.sketch_path(model), f));
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

/// Whether a query goes through the HNSW index. Opening one costs time in
/// proportion to its size (usearch reads every node's key to map keys to
/// nodes: ~0.25 s at 1 M), more than a one-shot query spends scanning the
/// sketch, so only a long-lived process (`serve`) opens it by default; see
/// docs/benchmarks.md. Without it, a library of [`INDEX_FROM`] vectors or
/// more is searched through the sketch, a smaller one exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UseIndex {
    Never,
    /// When the library has [`INDEX_FROM`] vectors and an index was built
    /// (by `ingest` or `doctor`; readers never build one: at 3 M papers
    /// that takes many minutes).
    IfBuilt,
    /// Building it first if needed (`like --approx`).
    Always,
}

/// One model's vectors as a query needs them.
pub struct Vectors {
    pub flat: FlatVectors,
    pub index: Option<index::Index>,
    pub sketch: Option<Sketch>,
}

/// How a long-lived reader answers nearest-neighbour queries, chosen by
/// [`Vectors::calibrate`].
#[derive(Debug, Clone, PartialEq)]
pub struct Served {
    /// `Some(width)`: the index, searched this wide; `None`: the sketch (or
    /// the exact scan, for a library without an index).
    pub search_width: Option<usize>,
    /// Recall@10 of that choice against the sketch's answers on the sample.
    pub recall: f32,
    pub queries: usize,
}

/// Recall the served path must show on its sample: above the 0.98 it must
/// keep, by the sample's own uncertainty (50 queries, 500 neighbours).
const SERVED_RECALL: f32 = 0.99;
/// Search widths tried, narrowest (fastest) first.
const SEARCH_WIDTHS: [usize; 5] = [64, 128, 256, 512, 1024];
const CALIBRATION_QUERIES: usize = 50;

impl Vectors {
    /// For a long-lived reader (`serve`): measures the index's recall@10 on
    /// papers of this library, against the sketch (rescored in f32: recall
    /// 1.000 at 75k–3 M, docs/benchmarks.md), at each search width, and
    /// keeps the narrowest width that reaches [`SERVED_RECALL`]; where none
    /// does (an index whose graph cannot reach the near-duplicates of a
    /// dense library), queries go to the sketch instead. Seconds at 3 M.
    pub fn calibrate(&mut self) -> Result<Served> {
        let (Some(ix), Some(sketch)) = (&self.index, &self.sketch) else {
            return Ok(Served { search_width: None, recall: 1.0, queries: 0 });
        };
        let flat = &self.flat;
        let covered = ix.meta.count.min(flat.count);
        let mut sample = Vec::new();
        for j in 0..CALIBRATION_QUERIES {
            // Spread over the library, skipping dead rows.
            let mut i = j * covered / CALIBRATION_QUERIES;
            while i < covered && !flat.is_live(i) {
                i += 1;
            }
            if i < covered && !sample.contains(&i) {
                sample.push(i);
            }
        }
        let truths = sample
            .iter()
            .map(|&i| {
                let me = flat.meta(i).rowid;
                let found = sketch.search(flat, flat.vector(i), 10, |m: RowMeta| m.rowid != me)?;
                Ok(found.into_iter().map(|(pos, _)| pos).collect::<Vec<_>>())
            })
            .collect::<Result<Vec<_>>>()?;
        let wanted: usize = truths.iter().map(Vec::len).sum();
        let mut best = Served { search_width: None, recall: 1.0, queries: sample.len() };
        for width in SEARCH_WIDTHS {
            ix.set_search_width(width);
            let mut hits = 0;
            for (&i, truth) in sample.iter().zip(&truths) {
                let me = flat.meta(i).rowid;
                let got = ix.search(flat, flat.vector(i), 10, |m: RowMeta| m.rowid != me)?;
                hits += got.iter().filter(|(pos, _)| truth.contains(pos)).count();
            }
            let recall = if wanted == 0 { 1.0 } else { hits as f32 / wanted as f32 };
            if recall >= SERVED_RECALL {
                best = Served { search_width: Some(width), recall, queries: sample.len() };
                break;
            }
        }
        self.serve_as(&best)?;
        Ok(best)
    }

    /// Answers from then on as `served` (a calibration of this same index)
    /// says: the index at its width, or the sketch, held in memory. A
    /// calibration that measured nothing (no index or no sketch) changes
    /// nothing.
    pub fn serve_as(&mut self, served: &Served) -> Result<()> {
        match served.search_width {
            Some(width) => {
                if let Some(ix) = &self.index {
                    ix.set_search_width(width);
                }
            }
            None if served.queries > 0 => {
                self.index = None;
                if let Some(sketch) = &mut self.sketch {
                    sketch.hold()?;
                }
            }
            None => {}
        }
        Ok(())
    }

    /// The `k` nearest (position, cosine) among live rows `keep` accepts:
    /// through the index when there is one, else the sketch, else by exact
    /// scan.
    pub fn search(&self, query: &[f32], k: usize, keep: impl Fn(RowMeta) -> bool + Sync) -> Result<Vec<(usize, f32)>> {
        match (&self.index, &self.sketch) {
            (Some(ix), _) => ix.search(&self.flat, query, k, keep),
            (None, Some(sketch)) => sketch.search(&self.flat, query, k, keep),
            (None, None) => Ok(self.flat.top_k(query, k, keep)),
        }
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

/// [`Library::check_model`] given the model whose vectors a library holds.
pub fn check_model(held: Option<&str>, model: &str) -> Result<()> {
    match held {
        Some(known) if known != model => anyhow::bail!(
            "{}; or, to re-embed the whole library with {model}, ingest into a new --library",
            embed::model_mismatch(known, model)
        ),
        _ => Ok(()),
    }
}

/// Papers to store with [`Library::add_batches`], and vectors made for
/// some of them elsewhere.
#[derive(Debug, Default)]
pub struct Batch {
    pub papers: Vec<Paper>,
    /// (index into `papers`, its vector), keyed by that paper's text.
    pub vectors: Vec<(usize, Vec<f32>)>,
    /// The model the vectors are from.
    pub model: Option<String>,
}

/// Embeds `texts` and refuses non-finite vectors, which would otherwise be
/// stored and rank every paper as NaN.
fn embed_checked(embedder: &dyn Embedder, texts: &[&str], progress: &dyn Fn(usize)) -> Result<Vec<Vec<f32>>> {
    let vecs = embedder.embed(texts, progress)?;
    if vecs.len() != texts.len() {
        anyhow::bail!("model {} returned {} vectors for {} texts", embedder.model_id(), vecs.len(), texts.len());
    }
    if vecs.iter().any(|v| v.iter().any(|x| !x.is_finite())) {
        anyhow::bail!(
            "model {} gave a non-finite vector (NaN or infinity); its weights may be damaged",
            embedder.model_id()
        );
    }
    Ok(vecs)
}

/// A derived file that could not be shared costs the next reader a
/// rebuild, nothing more; only an unexpected cause is worth a word.
fn warn_unshared(e: &anyhow::Error) {
    let expected = e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>().is_some_and(|io| {
            matches!(io.kind(), std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem)
        })
    });
    if !expected {
        eprintln!("warning: {e:#} (kept in memory for this run)");
    }
}

/// A temp file next to `path` that no other process or thread uses:
/// concurrent rebuilders each write their own and rename it into place.
pub(crate) fn temp_path(path: &Path) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    path.with_file_name(format!("{name}.tmp-{}", unique_suffix()))
}

/// Process id plus a per-call random part.
pub(crate) fn unique_suffix() -> String {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(CALLS.fetch_add(1, Ordering::Relaxed));
    if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(t.as_nanos());
    }
    format!("{}-{:016x}", std::process::id(), h.finish())
}

/// Temp files of `path` left by killed processes: an hour old, so no live
/// writer can still be using one.
pub(crate) fn remove_stale_temps(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else { return };
    let prefix = format!("{}.tmp-", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let old = e
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > Duration::from_secs(3600));
        if old && e.file_name().to_string_lossy().starts_with(&prefix) {
            let _ = std::fs::remove_file(e.path());
        }
    }
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

    /// Embeds by a rule: texts containing "POISON" fail, "NAN" gives NaN.
    struct Fake {
        id: &'static str,
        calls: std::cell::Cell<usize>,
    }

    impl Embedder for Fake {
        fn model_id(&self) -> &str {
            self.id
        }
        fn dim(&self) -> usize {
            2
        }
        fn embed(&self, texts: &[&str], _: &dyn Fn(usize)) -> Result<Vec<Vec<f32>>> {
            self.calls.set(self.calls.get() + texts.len());
            texts
                .iter()
                .map(|t| {
                    if t.contains("POISON") {
                        anyhow::bail!("cannot embed this text")
                    }
                    Ok(if t.contains("NAN") { vec![f32::NAN, 0.0] } else { vec![1.0, 0.0] })
                })
                .collect()
        }
    }

    fn fake(id: &'static str) -> Fake {
        Fake { id, calls: std::cell::Cell::new(0) }
    }

    /// A library of `n` papers listed on one day, embedded by `fake("m")`.
    fn embedded_library(n: usize) -> (tempfile::TempDir, Library) {
        let dir = tempfile::tempdir().unwrap();
        let mut lib = Library::open_write(dir.path()).unwrap();
        let papers: Vec<Paper> =
            (1..=n).map(|i| paper(&format!("2603.{i:05}v1"), Kind::New, "2026-03-02", &format!("Text {i}."))).collect();
        lib.add_papers(&papers).unwrap();
        lib.embed_missing(&fake("m"), &|_, _| {}).unwrap();
        (dir, lib)
    }

    /// One text the model cannot embed is reported and skipped; it neither
    /// stops the others nor any later ingest.
    #[test]
    fn a_text_that_cannot_be_embedded_is_skipped_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut lib = Library::open_write(dir.path()).unwrap();
        lib.add_papers(&[
            paper("2603.00001v1", Kind::New, "2026-03-02", "Fine."),
            paper("2603.00002v1", Kind::New, "2026-03-02", "POISON here."),
            paper("2603.00003v1", Kind::New, "2026-03-02", "Also fine."),
        ])
        .unwrap();
        let e = fake("m");
        let done = lib.embed_missing(&e, &|_, _| {}).unwrap();
        assert_eq!(done.done, 2);
        assert_eq!(done.skipped.len(), 1);
        assert_eq!(done.skipped[0].papers, vec!["2603.00002".to_string()]);
        assert!(done.skipped[0].error.contains("cannot embed"));

        lib.add_papers(&[paper("2603.00004v1", Kind::New, "2026-03-03", "Later, unrelated.")]).unwrap();
        let e = fake("m");
        let done = lib.embed_missing(&e, &|_, _| {}).unwrap();
        assert_eq!((done.done, done.skipped.len()), (1, 0));
        assert_eq!(e.calls.get(), 1, "the bad text was tried again");
        assert_eq!(lib.store.failures("m").unwrap().len(), 1);
    }

    /// A model whose output is NaN stores nothing and says so.
    #[test]
    fn non_finite_vectors_are_never_stored() {
        let dir = tempfile::tempdir().unwrap();
        let mut lib = Library::open_write(dir.path()).unwrap();
        lib.add_papers(&[
            paper("2603.00001v1", Kind::New, "2026-03-02", "NAN one."),
            paper("2603.00002v1", Kind::New, "2026-03-02", "NAN two."),
        ])
        .unwrap();
        let err = lib.embed_missing(&fake("m"), &|_, _| {}).unwrap_err();
        assert!(format!("{err:#}").contains("non-finite"), "{err:#}");
        assert_eq!(lib.store.count("SELECT count(*) FROM vectors").unwrap(), 0);
        let tx = lib.store.transaction().unwrap();
        assert!(store::insert_vector(&tx, "m", b"h", &[f32::INFINITY]).is_err());
    }

    /// A library with vectors of one model is never re-embedded with another.
    #[test]
    fn another_model_is_refused_unless_the_library_is_empty() {
        let dir = tempfile::tempdir().unwrap();
        let mut lib = Library::open_write(dir.path()).unwrap();
        lib.check_model("b:222").unwrap();
        lib.add_papers(&[paper("2603.00001v1", Kind::New, "2026-03-02", "Text.")]).unwrap();
        lib.embed_missing(&fake("a:111"), &|_, _| {}).unwrap();
        let err = lib.embed_missing(&fake("b:222"), &|_, _| {}).unwrap_err().to_string();
        assert!(err.contains("a:111") && err.contains("b:222") && err.contains("--model"), "{err}");
        assert_eq!(lib.store.default_model().unwrap().as_deref(), Some("a:111"));
        assert_eq!(lib.store.count("SELECT count(*) FROM vectors").unwrap(), 1);
    }

    /// A listing cut off mid-abstract is not an update of the whole one.
    #[test]
    fn a_cut_abstract_does_not_replace_the_whole_one() {
        let dir = tempfile::tempdir().unwrap();
        let mut lib = Library::open_write(dir.path()).unwrap();
        let full = "We study the scheduling of inference jobs on shared clusters.";
        lib.add_papers(&[paper("2603.00001v1", Kind::New, "2026-03-02", full)]).unwrap();
        for cut in ["We study the sched", "We study the scheduling of inference "] {
            let c = lib.add_papers(&[paper("2603.00001v1", Kind::New, "2026-03-02", cut)]).unwrap();
            assert_eq!(c.unchanged, 1, "{cut:?}");
            assert_eq!(lib.store.get_paper("2603.00001").unwrap().unwrap().paper.abstract_text, full);
        }
        // A new version may well be shorter.
        let c = lib.add_papers(&[paper("2603.00001v2", Kind::Replaced, "2026-03-09", "We study")]).unwrap();
        assert_eq!(c.updated, 1);
    }

    #[test]
    fn changing_seeds_needs_an_existing_library() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("typo");
        assert!(Library::open_write_existing(&missing).is_err());
        assert!(!missing.exists(), "an empty library was created");
    }

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

    /// doctor finds derived files damaged in place, same size and all.
    #[test]
    fn doctor_rebuilds_damaged_derived_files() {
        let (_dir, lib) = embedded_library(20);
        let flat = lib.flat_vectors("m").unwrap();
        drop(flat);
        assert_eq!(lib.check_flat("m").unwrap().1, "vectors ok (20 rows, 20 live)");

        let path = lib.flat_path("m");
        let mut bytes = std::fs::read(&path).unwrap();
        let n = bytes.len();
        bytes[n - 8..].copy_from_slice(&[0, 0, 0x80, 0x3f, 0, 0, 0, 0]);
        bytes[n - 16..n - 8].copy_from_slice(&[0, 0, 0, 0, 0, 0, 0x80, 0x3f]);
        std::fs::write(&path, &bytes).unwrap();
        let (flat, note) = lib.check_flat("m").unwrap();
        assert!(note.contains("rebuilt") && note.contains("differs from the database"), "{note}");
        assert_eq!(lib.check_flat("m").unwrap().1, "vectors ok (20 rows, 20 live)");

        // Small libraries need no index; doctor builds one when asked.
        assert!(lib.check_index(&flat, false).unwrap().starts_with("no index needed"));
        assert!(lib.check_index(&flat, true).unwrap().starts_with("index rebuilt (as asked)"));
        assert!(lib.check_index(&flat, false).unwrap().starts_with("index ok"));
        let idx = lib.index_dir("m");
        let file = index::read_meta(&idx).unwrap().path(&idx);
        let mut bytes = std::fs::read(&file).unwrap();
        let n = bytes.len();
        bytes[n / 2] ^= 0x55;
        std::fs::write(&file, &bytes).unwrap();
        let note = lib.check_index(&flat, false).unwrap();
        assert!(note.contains("rebuilt") && note.contains("checksum"), "{note}");
        assert!(lib.check_index(&flat, false).unwrap().starts_with("index ok"));
    }
}
