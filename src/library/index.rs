//! The HNSW graph over one model's vectors (hnsw_rs), derived from the flat
//! vector file and rebuilt whenever it is missing, stale or unreadable.
//!
//! Two hnsw_rs traits shape this file: its `DistDot` asserts on the tiny
//! negative distances rounding gives unit vectors, so we bring our own
//! clamped distance; and a reloaded graph borrows its loader, so searches run
//! inside [`with_index`] rather than handing the graph out.
//!
//! Several processes may rebuild the graph at once, and others read it
//! meanwhile: each build is dumped under a basename of its own and published
//! by renaming `meta.json`, which also holds the files' checksums (see
//! docs/reliability.md).

use super::vectors::{dot, FlatVectors};
use anndists::dist::Distance;
use anyhow::{Context, Result};
use hnsw_rs::api::AnnT;
use hnsw_rs::hnsw::Hnsw;
use hnsw_rs::hnswio::HnswIo;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Connections per node; 32 keeps recall@10 above 0.99 on MiniLM vectors.
const MAX_CONNECTIONS: usize = 32;
const EF_CONSTRUCTION: usize = 200;
/// hnsw_rs can only dump graphs built with its maximum layer count.
const MAX_LAYER: usize = 16;

/// 1 − cosine for unit vectors, clamped at 0.
#[derive(Default, Clone, Copy)]
pub struct UnitCosine;

impl Distance<f32> for UnitCosine {
    fn eval(&self, a: &[f32], b: &[f32]) -> f32 {
        (1.0 - dot(a, b)).max(0.0)
    }
}

/// What the graph was built from and where it lies, stored beside it
/// (`meta.json`) to detect staleness and damage. Each build dumps under a
/// basename of its own and publishes itself by renaming `meta.json`, so a
/// reader that read the old meta still finds the old files for a while.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IndexMeta {
    pub model: String,
    pub generation: i64,
    pub count: usize,
    pub basename: String,
    /// SHA-256 (hex) of `<basename>.hnsw.graph` and `<basename>.hnsw.data`.
    pub graph_sha256: String,
    pub data_sha256: String,
}

impl IndexMeta {
    /// Whether the graph was built from exactly these vectors.
    pub fn describes(&self, flat: &FlatVectors) -> bool {
        self.model == flat.model && self.generation == flat.generation && self.count == flat.count
    }

    fn files(&self, dir: &Path) -> [PathBuf; 2] {
        [
            dir.join(format!("{}.hnsw.graph", self.basename)),
            dir.join(format!("{}.hnsw.data", self.basename)),
        ]
    }

    /// `Err(why)` when the graph files are missing or differ from what was
    /// written (doctor's check; queries skip it for speed).
    pub fn verify(&self, dir: &Path) -> std::result::Result<(), String> {
        let [graph, data] = self.files(dir);
        for (path, want) in [(graph, &self.graph_sha256), (data, &self.data_sha256)] {
            match sha256_file(&path) {
                Ok(got) if &got == want => {}
                Ok(_) => return Err(format!("{} does not match its checksum", path.display())),
                Err(e) => return Err(format!("{e:#}")),
            }
        }
        Ok(())
    }
}

/// Unreferenced graph files younger than this may be another process's
/// dump in progress, so they are left alone.
const STALE_AFTER: Duration = Duration::from_secs(600);

fn sha256_file(path: &Path) -> Result<String> {
    let mut f = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f.read(&mut buf).with_context(|| format!("cannot read {}", path.display()))?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(h.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// Runs `f` with panics caught and the panic hook silenced: hnsw_rs asserts
/// (panics) on damaged files, and its message and backtrace note would
/// otherwise reach the user around our own one-line error.
fn quietly<R>(f: impl FnOnce() -> R) -> std::thread::Result<R> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    std::panic::set_hook(hook);
    r
}

pub fn build(flat: &FlatVectors) -> Hnsw<'static, f32, UnitCosine> {
    let hnsw = Hnsw::new(MAX_CONNECTIONS, flat.count.max(1), MAX_LAYER, EF_CONSTRUCTION, UnitCosine);
    let items: Vec<(&[f32], usize)> = (0..flat.count).map(|i| (flat.vector(i), i)).collect();
    for chunk in items.chunks(4096) {
        hnsw.parallel_insert_slice(&chunk.to_vec());
    }
    hnsw
}

/// Builds the graph for `flat` and stores it in `dir`.
pub fn rebuild(dir: &Path, flat: &FlatVectors) -> Result<()> {
    save(dir, flat, &build(flat))
}

/// Dumps `hnsw` (built from `flat`) into `dir` under a basename of its own,
/// then publishes it by renaming `meta.json` into place. Files of graphs no
/// meta names any more are removed once they are old enough that no dump
/// can still be writing them; a reader that loses one looks at the meta again.
pub fn save(dir: &Path, flat: &FlatVectors, hnsw: &Hnsw<'_, f32, UnitCosine>) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let path = dir.join("meta.json");
    let tmp = super::temp_path(&path);
    // hnsw_rs prints to stdout and panics when it cannot create its files:
    // find out first whether we can.
    File::create(&tmp).with_context(|| format!("cannot write the index into {}", dir.display()))?;
    let wanted = format!("graph-{}-{}", flat.generation, super::unique_suffix());
    let dumped = quietly(|| hnsw.file_dump(dir, &wanted));
    let basename = match dumped {
        Ok(Ok(name)) => name,
        failed => {
            let _ = std::fs::remove_file(&tmp);
            for ext in ["graph", "data"] {
                let _ = std::fs::remove_file(dir.join(format!("{wanted}.hnsw.{ext}")));
            }
            return Err(match failed {
                Ok(Err(e)) => e,
                _ => anyhow::anyhow!("hnsw_rs failed"),
            }
            .context(format!("cannot write the index into {}", dir.display())));
        }
    };
    let mut meta = IndexMeta {
        model: flat.model.clone(),
        generation: flat.generation,
        count: flat.count,
        basename,
        graph_sha256: String::new(),
        data_sha256: String::new(),
    };
    let [graph, data] = meta.files(dir);
    let mut publish = || -> Result<bool> {
        for f in [&graph, &data] {
            File::open(f)
                .and_then(|f| f.sync_all())
                .with_context(|| format!("cannot write {}", f.display()))?;
        }
        meta.graph_sha256 = sha256_file(&graph)?;
        meta.data_sha256 = sha256_file(&data)?;
        // A graph of newer vectors may have landed meanwhile; keep it.
        if read_meta(dir).is_some_and(|m| m.model == meta.model && m.generation > meta.generation) {
            return Ok(false);
        }
        std::fs::write(&tmp, serde_json::to_vec(&meta)?)
            .and_then(|()| std::fs::rename(&tmp, &path))
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(true)
    };
    let published = publish();
    if !matches!(published, Ok(true)) {
        for f in [&tmp, &graph, &data] {
            let _ = std::fs::remove_file(f);
        }
    }
    published?;
    remove_unreferenced(dir);
    Ok(())
}

/// Removes graph files and temp files that the current meta does not name
/// and that nobody has written for [`STALE_AFTER`].
fn remove_unreferenced(dir: &Path) {
    let keep = read_meta(dir).map(|m| format!("{}.hnsw.", m.basename));
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let ours = name.contains(".hnsw.") || name.starts_with("meta.json.tmp-");
        if !ours || keep.as_ref().is_some_and(|k| name.starts_with(k.as_str())) {
            continue;
        }
        let old = e
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > STALE_AFTER);
        if old {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// The meta of the published graph, if any (one written before checksums
/// were kept reads as none, so the graph is rebuilt).
pub fn read_meta(dir: &Path) -> Option<IndexMeta> {
    let bytes = std::fs::read(dir.join("meta.json")).ok()?;
    let meta: IndexMeta = serde_json::from_slice(&bytes).ok()?;
    // The basename becomes a path: only names a build could have written.
    let plain = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    (!meta.basename.is_empty() && meta.basename.chars().all(plain)).then_some(meta)
}

/// Loads the graph `meta` names and runs `f` on it. hnsw_rs asserts
/// (panics) on damaged files and prints to stdout when one is missing, so
/// the files are looked for first and the load is isolated.
pub fn load_with<R>(dir: &Path, meta: &IndexMeta, f: impl FnOnce(&Hnsw<'_, f32, UnitCosine>) -> R) -> Result<R> {
    if let Some(missing) = meta.files(dir).into_iter().find(|p| !p.is_file()) {
        anyhow::bail!("the index in {} is incomplete: {} is missing", dir.display(), missing.display());
    }
    let mut io = HnswIo::new(dir, &meta.basename);
    let loaded = quietly(|| {
        io.load_hnsw::<f32, UnitCosine>().map(|mut h| {
            h.set_searching_mode(true);
            f(&h)
        })
    });
    match loaded {
        Ok(Ok(r)) => Ok(r),
        Ok(Err(e)) => Err(e.context(format!("cannot load the index in {}", dir.display()))),
        Err(_) => anyhow::bail!("the index in {} is damaged", dir.display()),
    }
}

/// [`load_with`] for the graph published in `dir`.
pub fn with_index<R>(dir: &Path, f: impl FnOnce(&Hnsw<'_, f32, UnitCosine>) -> R) -> Result<R> {
    let meta = read_meta(dir).with_context(|| format!("no index in {}", dir.display()))?;
    load_with(dir, &meta, f)
}

/// The `k` nearest (position, cosine) for `query`, with `keep` applied:
/// the graph is asked for more neighbours until `k` of them pass the filter
/// or the whole graph was seen.
pub fn search(
    hnsw: &Hnsw<'_, f32, UnitCosine>,
    query: &[f32],
    k: usize,
    keep: impl Fn(usize) -> bool,
) -> Vec<(usize, f32)> {
    let total = hnsw.get_nb_point();
    let mut want = k.max(1);
    loop {
        let ef = (want * 2).max(200);
        let found = hnsw.search(query, want.min(total), ef);
        let kept: Vec<(usize, f32)> = found
            .iter()
            .filter(|n| keep(n.d_id))
            .map(|n| (n.d_id, 1.0 - n.distance))
            .take(k)
            .collect();
        if kept.len() >= k || want >= total {
            return kept;
        }
        want = (want * 4).min(total);
    }
}
