//! The approximate-nearest-neighbour index over one model's flat vectors:
//! a usearch HNSW graph with int8 vectors, searched straight from a
//! memory-mapped file (opening it costs milliseconds at any size) and
//! grown by inserting the rows appended since it was saved.
//!
//! Keys are row positions in the flat file. The index records how many
//! rows it holds, so rows appended later are simply scanned exactly until
//! the next update adds them: an index is never stale, only short. Dead
//! rows are removed from the graph on update and filtered out of every
//! search meanwhile. Candidates are rescored with the f32 vectors, so the
//! int8 copy only has to find them, not order them.
//!
//! Several processes may read while one updates: each save goes to a file
//! of its own and is published by renaming `meta.json` (with the file's
//! size and checksum; see docs/reliability.md). A reader that loses the
//! file it read about looks at the meta again.

use super::vectors::{FlatVectors, RowMeta};
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;
use usearch::{Index as Graph, IndexOptions, MetricKind, ScalarKind};

pub const ENGINE: &str = "usearch HNSW, int8 vectors, rescored in f32";
/// Neighbours per node: 16 keeps recall@10 ≥ 0.98 with rescoring (docs/benchmarks.md).
const CONNECTIVITY: usize = 16;
const EXPANSION_ADD: usize = 128;
const EXPANSION_SEARCH: usize = 64;
/// Searches one opened index can run at once (`serve` runs at most ten).
const SEARCH_THREADS: usize = 16;
/// Candidates fetched per wanted result, rescored exactly.
const CANDIDATES_PER_RESULT: usize = 4;
const MIN_CANDIDATES: usize = 40;
/// A search `width` wide rescores at least width / 4 candidates (256 at
/// the widest calibration tries).
const WIDTH_PER_CANDIDATE: usize = 4;

/// What the index file holds, stored beside it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IndexMeta {
    pub engine: String,
    pub model: String,
    pub dim: usize,
    /// Rows 0..count of the flat file are in the graph (dead ones removed).
    pub count: usize,
    /// The flat file's retired-log position when dead rows were last removed.
    pub retired: i64,
    pub file: String,
    pub bytes: u64,
    pub sha256: String,
}

impl IndexMeta {
    pub fn path(&self, dir: &Path) -> PathBuf {
        dir.join(&self.file)
    }

    /// Whether this index can serve `flat`: same model and dimension, and
    /// no more rows than the file has (a rebuilt, shorter file makes the
    /// index useless).
    pub fn fits(&self, flat: &FlatVectors) -> bool {
        self.model == flat.model && self.dim == flat.dim && self.count <= flat.count && self.engine == ENGINE
    }

    /// `Err(why)` when the file is missing or differs from what was written
    /// (doctor's check; queries only compare the size).
    pub fn verify(&self, dir: &Path) -> std::result::Result<(), String> {
        match sha256_file(&self.path(dir)) {
            Ok(got) if got == self.sha256 => Ok(()),
            Ok(_) => Err(format!("{} does not match its checksum", self.path(dir).display())),
            Err(e) => Err(format!("{e:#}")),
        }
    }
}

/// The meta of the published index, if any and well-formed.
pub fn read_meta(dir: &Path) -> Option<IndexMeta> {
    let bytes = std::fs::read(dir.join("meta.json")).ok()?;
    let meta: IndexMeta = serde_json::from_slice(&bytes).ok()?;
    // The file name becomes a path: only names a save could have written.
    let plain = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.';
    (meta.file.ends_with(".usearch") && meta.file.chars().all(plain) && !meta.file.starts_with('.')).then_some(meta)
}

/// An index opened for searching.
pub struct Index {
    graph: Graph,
    /// The search width last set: a wider search also rescores more of
    /// what it found.
    width: std::sync::atomic::AtomicUsize,
    pub meta: IndexMeta,
}

fn options(dim: usize) -> IndexOptions {
    IndexOptions {
        dimensions: dim,
        metric: MetricKind::IP,
        quantization: ScalarKind::I8,
        connectivity: CONNECTIVITY,
        expansion_add: EXPANSION_ADD,
        expansion_search: EXPANSION_SEARCH,
        multi: false,
    }
}

/// Maps the published index of `dir` for `flat`; `None` when there is none
/// that fits. A file that changed under the meta (another process's
/// update) is looked up again.
pub fn open(dir: &Path, flat: &FlatVectors) -> Result<Option<Index>> {
    for _ in 0..3 {
        let Some(meta) = read_meta(dir).filter(|m| m.fits(flat)) else { return Ok(None) };
        let path = meta.path(dir);
        match std::fs::metadata(&path) {
            Ok(m) if m.len() == meta.bytes => {}
            Ok(_) => bail!("the index {} is damaged (its size changed); run `paperscout doctor`", path.display()),
            Err(_) if read_meta(dir).as_ref() != Some(&meta) => continue,
            Err(e) => return Err(e).with_context(|| format!("cannot open the index {}", path.display())),
        }
        let graph = Graph::new(&options(meta.dim)).context("cannot create an index")?;
        match graph.view(&path.to_string_lossy()) {
            Ok(()) => {
                graph.change_expansion_search(EXPANSION_SEARCH);
                // A view comes with a search context per core; a server
                // searches from more threads than that at once.
                let _ = graph.reserve_capacity_and_threads(graph.size(), SEARCH_THREADS);
                return Ok(Some(Index { graph, width: EXPANSION_SEARCH.into(), meta }));
            }
            Err(_) if read_meta(dir).as_ref() != Some(&meta) => continue,
            Err(e) => bail!("cannot open the index {}: {e}; run `paperscout doctor`", path.display()),
        }
    }
    Ok(None)
}

impl Index {
    /// How wide the graph is searched (usearch's `ef`): wider finds more
    /// of the true neighbours, slower.
    pub fn set_search_width(&self, width: usize) {
        self.graph.change_expansion_search(width);
        self.width.store(width, std::sync::atomic::Ordering::Relaxed);
    }

    /// The `k` best (position, cosine) among live rows `keep` accepts: the
    /// graph proposes candidates (the filter runs inside its search), the
    /// f32 vectors order them, and rows appended since the last update are
    /// scanned exactly.
    pub fn search(&self, flat: &FlatVectors, query: &[f32], k: usize, keep: impl Fn(RowMeta) -> bool + Sync) -> Result<Vec<(usize, f32)>> {
        if k == 0 || query.len() != flat.dim {
            return Ok(Vec::new());
        }
        let covered = self.meta.count.min(flat.count);
        let admit = |key: u64| {
            let i = key as usize;
            i < covered && flat.is_live(i) && keep(flat.meta(i))
        };
        // The int8 order is coarse: where the f32 order differs more than
        // usual (calibration widens the search), rescore more candidates.
        let width = self.width.load(std::sync::atomic::Ordering::Relaxed);
        let wanted = (k * CANDIDATES_PER_RESULT).max(MIN_CANDIDATES).max(width / WIDTH_PER_CANDIDATE);
        let found = self
            .graph
            .filtered_search(query, wanted, admit)
            .map_err(|e| anyhow::anyhow!("search failed in the index for {}: {e}", self.meta.model))?;
        let keys: Vec<usize> = found.keys.iter().map(|&key| key as usize).filter(|&i| i < covered).collect();
        let mut hits = flat.score_rows(&keys, query)?;
        hits.extend(flat.top_k_in(covered..flat.count, query, k, &keep));
        hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        hits.dedup_by_key(|h| h.0);
        hits.truncate(k);
        Ok(hits)
    }

    pub fn len(&self) -> usize {
        self.graph.size()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// What [`update`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Updated {
    Current,
    Grown { added: usize, removed: usize },
    Built { added: usize },
}

/// Brings the index of `dir` up to `flat`: inserts the rows appended since
/// it was saved and removes rows that died, or builds it anew when there is
/// none that fits (or `rebuild`). The new file is published only when
/// whole, so a kill midway leaves the previous index in use.
pub fn update(dir: &Path, flat: &FlatVectors, rebuild: bool) -> Result<Updated> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let old = if rebuild { None } else { read_meta(dir).filter(|m| m.fits(flat)) };
    if let Some(m) = &old {
        if m.count == flat.count && m.retired == flat.retired {
            return Ok(Updated::Current);
        }
    }
    let graph = Graph::new(&options(flat.dim)).context("cannot create an index")?;
    let from = match &old {
        Some(m) => {
            let path = m.path(dir);
            graph.load(&path.to_string_lossy()).map_err(|e| anyhow::anyhow!("cannot load the index {}: {e}", path.display()))?;
            m.count
        }
        None => 0,
    };
    let threads = rayon::current_num_threads().max(1);
    graph
        .reserve_capacity_and_threads(flat.count.max(1), threads)
        .map_err(|e| anyhow::anyhow!("cannot reserve room for {} vectors: {e}", flat.count))?;
    let mut removed = 0;
    if from > 0 {
        for i in 0..from {
            if !flat.is_live(i) && graph.contains(i as u64) {
                graph.remove(i as u64).map_err(|e| anyhow::anyhow!("cannot update the index: {e}"))?;
                removed += 1;
            }
        }
    }
    let added = add_rows(&graph, flat, from..flat.count)?;
    let meta = save(dir, flat, &graph)?;
    remove_unreferenced(dir, &meta);
    Ok(match old {
        Some(_) => Updated::Grown { added, removed },
        None => Updated::Built { added },
    })
}

/// Rows a graph takes one at a time before the rest are added in parallel.
/// Threads that start on an empty graph link their first nodes to a graph
/// still too small to hold them well; built in parallel from the start, a
/// 4,000-row index measured recall@10 0.9935–1.000 in sixty builds and once
/// 0.977 (tests/it/index_recall.rs). Built one at a time, a small library's
/// index is also the same on every build.
const SEQUENTIAL_START: usize = 10_000;

fn add_rows(graph: &Graph, flat: &FlatVectors, rows: std::ops::Range<usize>) -> Result<usize> {
    use rayon::prelude::*;
    let live: Vec<usize> = rows.filter(|&i| flat.is_live(i)).collect();
    let alone = SEQUENTIAL_START.saturating_sub(graph.size()).min(live.len());
    let add = |&i: &usize| graph.add(i as u64, flat.vector(i)).map_err(|e| anyhow::anyhow!("cannot add a vector to the index: {e}"));
    live[..alone].iter().try_for_each(add)?;
    live[alone..].par_iter().try_for_each(add)?;
    Ok(live.len())
}

/// Saves `graph` (built from `flat`) under a file name of its own, then
/// publishes it by renaming `meta.json` into place.
fn save(dir: &Path, flat: &FlatVectors, graph: &Graph) -> Result<IndexMeta> {
    let file = format!("index-{}.usearch", super::unique_suffix());
    let path = dir.join(&file);
    let written = (|| -> Result<IndexMeta> {
        graph.save(&path.to_string_lossy()).map_err(|e| anyhow::anyhow!("cannot write the index {}: {e}", path.display()))?;
        File::open(&path).and_then(|f| f.sync_all()).with_context(|| format!("cannot write {}", path.display()))?;
        let bytes = std::fs::metadata(&path).with_context(|| format!("cannot read {}", path.display()))?.len();
        let meta = IndexMeta {
            engine: ENGINE.to_string(),
            model: flat.model.clone(),
            dim: flat.dim,
            count: flat.count,
            retired: flat.retired,
            file: file.clone(),
            bytes,
            sha256: sha256_file(&path)?,
        };
        let meta_path = dir.join("meta.json");
        let tmp = super::temp_path(&meta_path);
        std::fs::write(&tmp, serde_json::to_vec_pretty(&meta)?)
            .and_then(|()| File::open(&tmp)?.sync_all())
            .and_then(|()| std::fs::rename(&tmp, &meta_path))
            .with_context(|| format!("cannot write {}", meta_path.display()))?;
        Ok(meta)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&path);
    }
    written
}

/// Index files other than the published one, once nobody can still be
/// writing them; a reader that has one mapped keeps its pages.
const STALE_AFTER: Duration = Duration::from_secs(600);

fn remove_unreferenced(dir: &Path, keep: &IndexMeta) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let ours = name.ends_with(".usearch") || name.starts_with("meta.json.tmp-") || name.contains(".hnsw.");
        if !ours || name == keep.file {
            continue;
        }
        let old = e.metadata().and_then(|m| m.modified()).ok().and_then(|t| t.elapsed().ok()).is_some_and(|age| age > STALE_AFTER);
        // Files of the graph engine this one replaced go at once.
        if old || name.contains(".hnsw.") {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vector::dot;

    fn unit(seed: u64, dim: usize) -> Vec<f32> {
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut v: Vec<f32> = (0..dim)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 40) as f32 / (1u64 << 24) as f32 - 0.5
            })
            .collect();
        let n = dot(&v, &v).sqrt();
        v.iter_mut().for_each(|a| *a /= n);
        v
    }

    fn flat(n: usize, dim: usize) -> FlatVectors {
        let rows: Vec<(RowMeta, Vec<f32>)> = (0..n)
            .map(|i| (RowMeta { rowid: i as i64 + 1, subjects: 0, day: crate::library::vectors::FileDay::NONE }, unit(i as u64, dim)))
            .collect();
        FlatVectors::in_memory("m", dim, &rows, n as i64, 0).unwrap()
    }

    #[test]
    fn builds_grows_and_finds_rows_not_yet_indexed() {
        let dir = tempfile::tempdir().unwrap();
        let small = flat(500, 32);
        assert_eq!(update(dir.path(), &small, false).unwrap(), Updated::Built { added: 500 });
        assert_eq!(update(dir.path(), &small, false).unwrap(), Updated::Current);
        // 100 more rows: searchable before the update (scanned), and after it (indexed).
        let big = flat(600, 32);
        let index = open(dir.path(), &big).unwrap().unwrap();
        assert_eq!(index.meta.count, 500);
        for q in [3, 550, 599] {
            let hits = index.search(&big, big.vector(q), 1, |_| true).unwrap();
            assert_eq!(hits[0].0, q);
        }
        assert_eq!(update(dir.path(), &big, false).unwrap(), Updated::Grown { added: 100, removed: 0 });
        let index = open(dir.path(), &big).unwrap().unwrap();
        assert_eq!((index.meta.count, index.len()), (600, 600));
        let hits = index.search(&big, big.vector(550), 3, |m| m.rowid != big.rowid(550)).unwrap();
        assert!(hits.iter().all(|h| h.0 != 550) && hits.len() == 3);
    }

    #[test]
    fn a_missing_or_foreign_index_is_none() {
        let dir = tempfile::tempdir().unwrap();
        let f = flat(50, 8);
        assert!(open(dir.path(), &f).unwrap().is_none());
        update(dir.path(), &f, false).unwrap();
        // A file shorter than the index (rebuilt from scratch) cannot use it.
        assert!(open(dir.path(), &flat(40, 8)).unwrap().is_none());
        std::fs::write(dir.path().join("meta.json"), b"{\"file\": \"../../etc/passwd\"}").unwrap();
        assert!(read_meta(dir.path()).is_none());
    }
}
