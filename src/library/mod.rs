//! The library: one directory holding the SQLite database (the source of
//! truth) and files derived from it per model — a flat vector file for exact
//! scans and an HNSW graph — which are rebuilt whenever they are missing,
//! stale or unreadable.

pub mod index;
pub mod stats;
pub mod store;
pub mod vectors;

use crate::embed::{self, Embedder};
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
    let lock = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .with_context(|| format!("cannot open {}", lock_path.display()))?;
    Ok((lock, lock_path))
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
        let held = self.store.vector_counts()?.iter().any(|(m, n)| *m == known && *n > 0);
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
        self.model_dir(model).join("hnsw")
    }

    /// The flat vectors for `model`: the shared file when it is current,
    /// else rebuilt from the database. A rebuild is shared when it can be
    /// (temp file + rename) and kept private when not (a read-only
    /// library, a full disk): readers never fail because of derived files.
    pub fn flat_vectors(&self, model: &str) -> Result<FlatVectors> {
        let path = self.flat_path(model);
        let generation = self.store.generation()?;
        if let Ok(flat) = FlatVectors::open(&path) {
            if flat.generation == generation && flat.model == model {
                return Ok(flat);
            }
        }
        let flat = self.build_flat(model)?;
        if let Err(e) = self.share_flat(&flat) {
            warn_unshared(&e);
        }
        Ok(flat)
    }

    /// The vectors as the database holds them now, read in one snapshot so
    /// the generation recorded is the one they belong to.
    fn build_flat(&self, model: &str) -> Result<FlatVectors> {
        let snapshot = self.store.conn().unchecked_transaction()?;
        let generation = self.store.generation()?;
        let mut rowids = Vec::new();
        let mut data = Vec::new();
        let mut dim = 0;
        self.store.for_each_vector(model, |rowid, v| {
            dim = v.len();
            rowids.push(rowid);
            data.extend_from_slice(v);
        })?;
        drop(snapshot);
        Ok(FlatVectors::in_memory(model, generation, dim, rowids, data))
    }

    fn share_flat(&self, flat: &FlatVectors) -> Result<()> {
        let dir = self.model_dir(&flat.model);
        std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        flat.save(&self.flat_path(&flat.model))
    }

    /// Brings the shared HNSW graph up to date with the flat vectors.
    pub fn refresh_index(&self, flat: &FlatVectors) -> Result<bool> {
        let dir = self.index_dir(&flat.model);
        if index::read_meta(&dir).is_some_and(|m| m.describes(flat)) {
            return Ok(false);
        }
        index::rebuild(&dir, flat)?;
        Ok(true)
    }

    /// The `k` nearest (position, cosine) through the HNSW graph. A graph
    /// another process replaces meanwhile is looked up again; a missing,
    /// stale or damaged one is rebuilt, shared when possible, and searched
    /// in memory either way.
    pub fn search_index(
        &self,
        flat: &FlatVectors,
        query: &[f32],
        k: usize,
        keep: impl Fn(usize) -> bool,
    ) -> Result<Vec<(usize, f32)>> {
        let dir = self.index_dir(&flat.model);
        for _ in 0..3 {
            let Some(meta) = index::read_meta(&dir).filter(|m| m.describes(flat)) else { break };
            match index::load_with(&dir, &meta, |h| index::search(h, query, k, &keep)) {
                Ok(hits) => return Ok(hits),
                Err(_) if index::read_meta(&dir).as_ref() != Some(&meta) => continue,
                Err(e) => {
                    eprintln!("warning: {e:#}; rebuilding it");
                    break;
                }
            }
        }
        let hnsw = index::build(flat);
        if let Err(e) = index::save(&dir, flat, &hnsw) {
            warn_unshared(&e);
        }
        Ok(index::search(&hnsw, query, k, keep))
    }

    /// `doctor`'s check of the flat vectors: current, whole and matching
    /// their checksum, else rebuilt. Returns them and what was done.
    pub fn check_flat(&self, model: &str) -> Result<(FlatVectors, String)> {
        let path = self.flat_path(model);
        let generation = self.store.generation()?;
        let why = match FlatVectors::open(&path) {
            Ok(f) if f.model != model || f.generation != generation => "stale".to_string(),
            Ok(f) if !f.verify() => format!("damaged: {} does not match its checksum", path.display()),
            Ok(f) => {
                let note = format!("vectors ok ({})", f.count);
                return Ok((f, note));
            }
            Err(_) if !path.exists() => "missing".to_string(),
            Err(e) => format!("unreadable: {e:#}"),
        };
        let flat = self.build_flat(model)?;
        self.share_flat(&flat)?;
        let note = format!("vectors rebuilt ({why})");
        Ok((flat, note))
    }

    /// `doctor`'s check of the HNSW graph: current, matching its checksums
    /// and loadable, else rebuilt. Returns what was done.
    pub fn check_index(&self, flat: &FlatVectors) -> Result<String> {
        let dir = self.index_dir(&flat.model);
        let why = match index::read_meta(&dir) {
            None => "missing".to_string(),
            Some(m) if !m.describes(flat) => "stale".to_string(),
            Some(m) => match m.verify(&dir).and_then(|()| {
                index::load_with(&dir, &m, |h| h.get_nb_point()).map_err(|e| format!("{e:#}"))
            }) {
                Ok(n) if n == flat.count => return Ok(format!("index ok ({n} points)")),
                Ok(n) => format!("damaged: {n} points for {} vectors", flat.count),
                Err(e) => format!("damaged: {e}"),
            },
        };
        index::rebuild(&dir, flat)?;
        Ok(format!("index rebuilt ({why})"))
    }

    /// Index state for one model, for `stats`.
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

    /// Derived files never fail a reader: a rebuild goes through a temp
    /// file of its own, and every reader sees whole, current vectors.
    #[test]
    fn readers_racing_a_rebuild_never_fail() {
        let dir = tempfile::tempdir().unwrap();
        let mut lib = Library::open_write(dir.path()).unwrap();
        let papers: Vec<Paper> =
            (1..=50).map(|i| paper(&format!("2603.{i:05}v1"), Kind::New, "2026-03-02", &format!("Text {i}."))).collect();
        lib.add_papers(&papers).unwrap();
        lib.embed_missing(&fake("m"), &|_, _| {}).unwrap();
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    let reader = Library::open_read(dir.path()).unwrap();
                    for _ in 0..10 {
                        let flat = reader.flat_vectors("m").unwrap();
                        assert_eq!(flat.count, 50);
                        let hits = reader.search_index(&flat, &[1.0, 0.0], 3, |_| true).unwrap();
                        assert_eq!(hits.len(), 3);
                        // Another process's ingest: the files are stale again.
                        let writer = Library::open_read(dir.path()).unwrap();
                        let _ = std::fs::remove_file(writer.flat_path("m"));
                    }
                });
            }
        });
        let lib = Library::open_read(dir.path()).unwrap();
        let (flat, note) = lib.check_flat("m").unwrap();
        assert!(note.starts_with("vectors"), "{note}");
        assert!(lib.check_index(&flat).unwrap().starts_with("index"));
    }

    /// doctor finds derived files damaged in place, same size and all.
    #[test]
    fn doctor_rebuilds_damaged_derived_files() {
        let dir = tempfile::tempdir().unwrap();
        let mut lib = Library::open_write(dir.path()).unwrap();
        let papers: Vec<Paper> =
            (1..=20).map(|i| paper(&format!("2603.{i:05}v1"), Kind::New, "2026-03-02", &format!("Text {i}."))).collect();
        lib.add_papers(&papers).unwrap();
        lib.embed_missing(&fake("m"), &|_, _| {}).unwrap();
        let flat = lib.flat_vectors("m").unwrap();
        lib.refresh_index(&flat).unwrap();
        drop(flat);
        assert_eq!(lib.check_flat("m").unwrap().1, "vectors ok (20)");

        let path = lib.flat_path("m");
        let mut bytes = std::fs::read(&path).unwrap();
        let n = bytes.len();
        bytes[n - 8..].copy_from_slice(&[0, 0, 0x80, 0x3f, 0, 0, 0, 0]);
        bytes[n - 16..n - 8].copy_from_slice(&[0, 0, 0, 0, 0, 0, 0x80, 0x3f]);
        std::fs::write(&path, &bytes).unwrap();
        let (flat, note) = lib.check_flat("m").unwrap();
        assert!(note.contains("rebuilt") && note.contains("checksum"), "{note}");
        assert_eq!(lib.check_flat("m").unwrap().1, "vectors ok (20)");

        let idx = lib.index_dir("m");
        assert!(lib.check_index(&flat).unwrap().starts_with("index ok"));
        let meta = index::read_meta(&idx).unwrap();
        let graph = idx.join(format!("{}.hnsw.graph", meta.basename));
        let mut bytes = std::fs::read(&graph).unwrap();
        let n = bytes.len();
        bytes[n / 2] ^= 0x55;
        std::fs::write(&graph, &bytes).unwrap();
        let note = lib.check_index(&flat).unwrap();
        assert!(note.contains("rebuilt") && note.contains("checksum"), "{note}");
        assert!(lib.check_index(&flat).unwrap().starts_with("index ok"));
    }
}
