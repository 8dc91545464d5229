//! What every signal is: a part of the ranking that scores a whole day
//! against the seeds and says, for one paper, what in the seeds its value
//! comes from — as tantivy's `Weight` scores and `Explanation` explains.
//! A method is one signal, or the hybrid's mix of several; the reasons a
//! reader sees are the signals' own explanations, never a second guess.

use super::{Candidate, SeedVector};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

/// The profile as every signal reads it: the seeds, and which are liked.
pub struct Seeds {
    pub all: Vec<SeedVector>,
    /// Indices of the liked seeds (given seeds and 👍).
    pub liked: Vec<usize>,
    /// Indices of the disliked ones (👎).
    pub disliked: Vec<usize>,
}

impl Seeds {
    pub fn new(all: Vec<SeedVector>) -> Seeds {
        let liked = (0..all.len()).filter(|&i| !all[i].negative).collect();
        let disliked = (0..all.len()).filter(|&i| all[i].negative).collect();
        Seeds { all, liked, disliked }
    }

    pub fn dim(&self) -> usize {
        self.all.first().map_or(0, |s| s.vector.len())
    }

    /// Σ weight · vector over the given seeds.
    pub fn weighted_sum(&self, w: impl Iterator<Item = (usize, f32)>) -> Vec<f32> {
        let mut out = vec![0.0; self.dim()];
        for (i, wi) in w {
            for (o, x) in out.iter_mut().zip(&self.all[i].vector) {
                *o += wi * x;
            }
        }
        out
    }

    /// A rated paper's own seed when it is a liked one: what a liked-side
    /// signal leaves out when it scores that paper (a rating moves the
    /// papers around it, not itself).
    pub fn own_liked(&self, c: &Candidate<'_>) -> Option<usize> {
        c.own_seed.filter(|&s| !self.all[s].negative)
    }
}

/// What a candidate's value comes from, in the seeds' terms.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "of")]
pub enum Evidence {
    /// The closest liked seeds, best first: (seed index, cosine).
    Seeds(Vec<(usize, f32)>),
    /// The distinctive words and phrases it shares with the liked seeds,
    /// heaviest first, as the candidate writes them.
    Words(Vec<String>),
    /// Its categories the liked seeds are in, most shared first.
    Fields(Vec<String>),
    /// Nothing a reader could check (a learned direction).
    Opaque,
}

/// Which signal a value, a weight or a share belongs to; written
/// kebab-case ("nearest", "decayed-mean") in JSON and `--signals` files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SignalId {
    Nearest,
    Knn,
    Centroid,
    DecayedMean,
    Logistic,
    Words,
    Fields,
    Learned,
}

/// One part of the ranking.
pub trait Signal: Send + Sync {
    /// Which signal it is.
    fn id(&self) -> SignalId;

    /// Each candidate's raw value, higher is closer to the profile. A
    /// signal summed from the seeds scores a rated paper on the other seeds
    /// (`Candidate::own_seed`); one fixed when the profile is read (a
    /// learned direction) scores every paper alike.
    fn score(&self, seeds: &Seeds, day: &[Candidate<'_>]) -> Vec<f32>;

    /// Where one candidate's value comes from.
    fn explain(&self, seeds: &Seeds, c: &Candidate<'_>) -> Evidence;
}

/// Each signal's raw values over one day, in the hybrid's order; written
/// as `{"nearest": [...], "centroid": [...], ...}`.
#[derive(Debug, Clone, Default)]
pub struct Signals {
    pub names: Vec<SignalId>,
    pub values: Vec<Vec<f32>>,
}

impl Serialize for Signals {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.names.len()))?;
        for (n, v) in self.names.iter().zip(&self.values) {
            map.serialize_entry(n, v)?;
        }
        map.end()
    }
}
