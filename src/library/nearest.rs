//! How a query finds a paper's nearest neighbours: through the HNSW
//! index, the one-bit sketch or an exact scan of the flat vectors, and
//! how a long-lived reader measures which of them to trust.

use super::derived::warn_unshared;
use super::sketch::Sketch;
use super::vectors::{FlatVectors, RowMeta};
use super::{index, Library, INDEX_FROM};
use anyhow::Result;

impl Library {
    /// The flat vectors and, as `use_index` says, the index over them.
    pub fn vectors(&self, model: &str, use_index: UseIndex) -> Result<Vectors> {
        let flat = self.flat_vectors(model)?;
        let dir = self.index_dir(model);
        let index = match use_index {
            UseIndex::Never => None,
            UseIndex::IfBuilt if flat.count < INDEX_FROM => None,
            // A server that finds the index damaged answers by scanning.
            UseIndex::IfBuilt => index::open(&dir, &flat).unwrap_or_else(|e| {
                crate::messages::warning(format_args!("{e:#}; searching by exact scan meanwhile"));
                None
            }),
            UseIndex::Always => match index::open(&dir, &flat) {
                Ok(Some(ix)) => Some(ix),
                found => {
                    let rebuild = found.is_err();
                    if let Err(e) = found {
                        crate::messages::warning(format_args!("{e:#}; rebuilding it"));
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
        Ok(Vectors { flat, index, sketch })
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
/// [`Vectors::calibrate`] on `queries` of the library's own papers.
#[derive(Debug, Clone, PartialEq)]
pub enum Served {
    /// The index, searched `width` wide, where its recall@10 against the
    /// sketch's answers was `recall` (at least [`SERVED_RECALL`]).
    Index { width: usize, recall: f32, queries: usize },
    /// The sketch, held in memory: no width of the index reached
    /// [`SERVED_RECALL`]; `best` is the most any reached.
    Sketch { queries: usize, best: f32 },
    /// Nothing to measure (no index, or no sketch to measure it against):
    /// queries go as [`Vectors::search`] finds them.
    Unmeasured,
}

impl Served {
    /// What answers: `index`, `sketch`, or `exact` where nothing was measured.
    pub fn engine(&self) -> &'static str {
        match self {
            Served::Index { .. } => "index",
            Served::Sketch { .. } => "sketch",
            Served::Unmeasured => "exact",
        }
    }

    pub fn search_width(&self) -> Option<usize> {
        match self {
            Served::Index { width, .. } => Some(*width),
            _ => None,
        }
    }

    /// Recall@10 measured for what answers (the sketch is its own truth).
    pub fn recall(&self) -> f32 {
        match self {
            Served::Index { recall, .. } => *recall,
            _ => 1.0,
        }
    }

    /// The library's papers it was measured on.
    pub fn queries(&self) -> usize {
        match self {
            Served::Index { queries, .. } | Served::Sketch { queries, .. } => *queries,
            Served::Unmeasured => 0,
        }
    }
}

impl std::fmt::Display for Served {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Served::Index { width, recall, queries } => {
                write!(f, "the index, searched {width} wide (recall@10 {recall:.3} on {queries} of its papers)")
            }
            Served::Sketch { queries, best } => {
                write!(f, "the sketch (the index reached no recall of {SERVED_RECALL:.2} on {queries} of its papers; at best {best:.3})")
            }
            Served::Unmeasured => f.write_str("an exact scan or the sketch (nothing to measure)"),
        }
    }
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
            return Ok(Served::Unmeasured);
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
        let mut served = Served::Sketch { queries: sample.len(), best: 0.0 };
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
                served = Served::Index { width, recall, queries: sample.len() };
                break;
            }
            if let Served::Sketch { best, .. } = &mut served {
                *best = best.max(recall);
            }
        }
        self.serve_as(&served)?;
        Ok(served)
    }

    /// Answers from then on as `served` (a calibration of this same index)
    /// says: the index at its width, or the sketch, held in memory. A
    /// calibration that measured nothing (no index or no sketch) changes
    /// nothing.
    pub fn serve_as(&mut self, served: &Served) -> Result<()> {
        match served {
            Served::Index { width, .. } => {
                if let Some(ix) = &self.index {
                    ix.set_search_width(*width);
                }
            }
            Served::Sketch { .. } => {
                self.index = None;
                if let Some(sketch) = &mut self.sketch {
                    sketch.hold()?;
                }
            }
            Served::Unmeasured => {}
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
