//! What every signal is: a part of the ranking that scores a whole day
//! against the seeds and says, for one paper, what in the seeds its value
//! comes from — as tantivy's `Weight` scores and `Explanation` explains.
//! The hybrid's signals are one list, [`super::registry::HYBRID`]: each entry carries its
//! name, what the page and the lift text call it, its legend line and its
//! cold weight, so a signal is added by writing its file and one line
//! here. The reasons a reader sees are the signals' own explanations,
//! never a second guess.

use super::{Candidate, SeedVector};
use serde::ser::{SerializeMap, SerializeStruct};
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

/// When a reason names what a signal found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Naming {
    /// On every line (the nearest seeds: what every reason starts from).
    Always,
    /// When it lifted the paper above the day's average at all.
    Lifting,
    /// When it gave at least this share of the lift: categories are named
    /// where they carried a pick, not on every line.
    Carrying(f32),
}

impl Naming {
    /// Whether a reason names it, given its share of the lift (`None`:
    /// a method of one signal, which has no shares).
    pub fn names(self, share: Option<f32>) -> bool {
        match (self, share) {
            (Naming::Always, _) | (_, None) => true,
            (Naming::Lifting, Some(s)) => s > 0.0,
            (Naming::Carrying(at), Some(s)) => s >= at,
        }
    }
}

/// What the ranking says of a signal, wherever it shows: JSON, `--signals`
/// files and `eval` by `name`, the lift text and the score's tooltip by
/// `label`, the page's "What the score means" by `legend`.
#[derive(Debug, PartialEq)]
pub struct Part {
    pub name: &'static str,
    pub label: &'static str,
    /// One sentence, as the page's legend lists it.
    pub legend: &'static str,
    /// Its weight in the hybrid's cold mix for a profile of one liked
    /// seed (the weights sum to 1; docs/quality.md says how each was chosen).
    pub cold: f32,
    /// The weight it gains (or, below 0, loses) per e-fold of liked seeds.
    pub per_ln_seeds: f32,
    pub naming: Naming,
}

/// A signal's name: which signal a value, a weight or a share belongs to;
/// written as its part's name ("nearest", "decayed-mean") in JSON and
/// `--signals` files.
#[derive(Debug, Clone, Copy)]
pub struct SignalId(pub &'static Part);

impl SignalId {
    pub fn name(self) -> &'static str {
        self.0.name
    }
}

impl PartialEq for SignalId {
    fn eq(&self, other: &SignalId) -> bool {
        self.0.name == other.0.name
    }
}

impl Eq for SignalId {}

impl Serialize for SignalId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.name)
    }
}

/// A seed a paper is close to: (seed index, cosine).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SeedMatch {
    pub seed: usize,
    pub similarity: f32,
}

/// What a candidate's value comes from, in the seeds' terms. `S` is how a
/// seed is named: its index in the ranker, or (in a digest) its key and title.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "of")]
pub enum Details<S = SeedMatch> {
    /// The closest liked seeds, best first.
    Seeds(Vec<S>),
    /// The distinctive words and phrases it shares with the liked seeds,
    /// heaviest first, as the candidate writes them.
    Words(Vec<String>),
    /// Its categories the liked seeds are in, most shared first.
    Fields(Vec<String>),
    /// A sentence a reason may quote as it stands.
    Note(String),
    /// Nothing a reader could check (a learned direction).
    Opaque,
}

impl<S> Details<S> {
    /// The same details with each seed named by `f`.
    pub fn map_seeds<T>(self, f: impl FnMut(S) -> T) -> Details<T> {
        match self {
            Details::Seeds(s) => Details::Seeds(s.into_iter().map(f).collect()),
            Details::Words(w) => Details::Words(w),
            Details::Fields(f) => Details::Fields(f),
            Details::Note(n) => Details::Note(n),
            Details::Opaque => Details::Opaque,
        }
    }

    /// Nothing a reason could quote.
    pub fn is_empty(&self) -> bool {
        match self {
            Details::Seeds(s) => s.is_empty(),
            Details::Words(w) | Details::Fields(w) => w.is_empty(),
            Details::Note(n) => n.is_empty(),
            Details::Opaque => true,
        }
    }
}

/// Why a candidate scored as it did, one signal's part of it: its value
/// (the signal's raw units), its share of the paper's lift above the
/// day's average (the hybrid's signals), and its details. Written as
/// `{"signal", "label", "value", "share", "details"}`.
#[derive(Debug, Clone, PartialEq)]
pub struct Explanation<S = SeedMatch> {
    pub signal: SignalId,
    pub value: f32,
    pub share: Option<f32>,
    pub details: Details<S>,
}

impl<S> Explanation<S> {
    pub fn map_seeds<T>(self, f: impl FnMut(S) -> T) -> Explanation<T> {
        Explanation { signal: self.signal, value: self.value, share: self.share, details: self.details.map_seeds(f) }
    }

    /// Whether a reason names what it found.
    pub fn named(&self) -> bool {
        !self.details.is_empty() && self.signal.0.naming.names(self.share)
    }
}

impl<S: Serialize> Serialize for Explanation<S> {
    fn serialize<Z: Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        let mut st = s.serialize_struct("Explanation", 5)?;
        st.serialize_field("signal", &self.signal)?;
        st.serialize_field("label", self.signal.0.label)?;
        st.serialize_field("value", &self.value)?;
        st.serialize_field("share", &self.share)?;
        st.serialize_field("details", &self.details)?;
        st.end()
    }
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
    fn explain(&self, seeds: &Seeds, c: &Candidate<'_>) -> Details;
}

/// A signal of the hybrid: what it is called, and how it is built from a
/// profile's seeds ([`super::registry::HYBRID`] lists them).
pub struct Registered {
    pub part: &'static Part,
    pub make: fn(&Seeds) -> Box<dyn Signal>,
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
