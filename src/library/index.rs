//! The HNSW graph over one model's vectors (hnsw_rs), derived from the flat
//! vector file and rebuilt whenever it is missing, stale or unreadable.
//!
//! Two hnsw_rs traits shape this file: its `DistDot` asserts on the tiny
//! negative distances rounding gives unit vectors, so we bring our own
//! clamped distance; and a reloaded graph borrows its loader, so searches run
//! inside [`with_index`] rather than handing the graph out.

use super::vectors::{dot, FlatVectors};
use anndists::dist::Distance;
use anyhow::{Context, Result};
use hnsw_rs::api::AnnT;
use hnsw_rs::hnsw::Hnsw;
use hnsw_rs::hnswio::HnswIo;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Connections per node; 32 keeps recall@10 above 0.99 on MiniLM vectors.
const MAX_CONNECTIONS: usize = 32;
const EF_CONSTRUCTION: usize = 200;
/// hnsw_rs can only dump graphs built with its maximum layer count.
const MAX_LAYER: usize = 16;
const BASENAME: &str = "graph";

/// 1 − cosine for unit vectors, clamped at 0.
#[derive(Default, Clone, Copy)]
pub struct UnitCosine;

impl Distance<f32> for UnitCosine {
    fn eval(&self, a: &[f32], b: &[f32]) -> f32 {
        (1.0 - dot(a, b)).max(0.0)
    }
}

/// What the graph was built from, stored beside it to detect staleness.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IndexMeta {
    pub model: String,
    pub generation: i64,
    pub count: usize,
}

pub fn build(flat: &FlatVectors) -> Hnsw<'static, f32, UnitCosine> {
    let hnsw = Hnsw::new(MAX_CONNECTIONS, flat.count.max(1), MAX_LAYER, EF_CONSTRUCTION, UnitCosine);
    let items: Vec<(&[f32], usize)> = (0..flat.count).map(|i| (flat.vector(i), i)).collect();
    for chunk in items.chunks(4096) {
        hnsw.parallel_insert_slice(&chunk.to_vec());
    }
    hnsw
}

/// Builds the graph for `flat` and stores it in `dir` (replacing what was there).
pub fn rebuild(dir: &Path, flat: &FlatVectors) -> Result<()> {
    let hnsw = build(flat);
    let tmp = dir.with_extension("tmp");
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
    hnsw.file_dump(&tmp, BASENAME)
        .with_context(|| format!("cannot write the index into {}", tmp.display()))?;
    let meta = IndexMeta {
        model: flat.model.clone(),
        generation: flat.generation,
        count: flat.count,
    };
    std::fs::write(tmp.join("meta.json"), serde_json::to_vec(&meta)?)?;
    // The old graph goes first; if we die in between, the index is merely
    // missing and the next run rebuilds it.
    let _ = std::fs::remove_dir_all(dir);
    std::fs::rename(&tmp, dir).with_context(|| format!("cannot move the index to {}", dir.display()))?;
    Ok(())
}

pub fn read_meta(dir: &Path) -> Option<IndexMeta> {
    let bytes = std::fs::read(dir.join("meta.json")).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Loads the graph in `dir` and runs `f` on it. hnsw_rs asserts (panics) on
/// damaged files, so the load is isolated and reported as an error.
pub fn with_index<R>(dir: &Path, f: impl FnOnce(&Hnsw<'_, f32, UnitCosine>) -> R) -> Result<R> {
    let mut io = HnswIo::new(dir, BASENAME);
    let loaded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        io.load_hnsw::<f32, UnitCosine>().map(|mut h| {
            h.set_searching_mode(true);
            f(&h)
        })
    }));
    match loaded {
        Ok(Ok(r)) => Ok(r),
        Ok(Err(e)) => Err(e.context(format!("cannot load the index in {}", dir.display()))),
        Err(_) => anyhow::bail!("the index in {} is damaged", dir.display()),
    }
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
