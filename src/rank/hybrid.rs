//! The default method. Cold, it fuses meaning (the cosine to the nearest
//! liked seed) and words (the TF-IDF cosine to the liked seeds' words),
//! each first put on the day's own scale. Rated, it also learns: a
//! per-profile logistic regression over paper vectors, liked seeds and 👍
//! against 👎 (most of the negative weight) and random library papers,
//! whose prior is Rocchio's query — the seeds' mean, plus ½ the mean of the
//! 👍, less the mean of the 👎 — so that a few ratings act like Rocchio and
//! many make the model the reader's own. Its score joins the cold one with
//! a weight that grows with the number of ratings.

use super::learn::{self, Example, LinearModel};
use super::{Candidate, Ranker, SeedVector, Terms};
use crate::vector::dot;

/// Weight of meaning against words in the cold score (per-day z-scores).
pub const DENSE_WEIGHT: f32 = 0.6;
/// Liked seeds the dense part averages over (1: the nearest).
pub const NEAREST: usize = 1;
/// Rocchio's weights of the 👍 mean and the 👎 mean in the prior.
const ROCCHIO_LIKED: f32 = 0.5;
const ROCCHIO_DISLIKED: f32 = 1.0;
/// The prior's length: a cosine 0.1 higher is a logit 1 higher.
const PRIOR_SCALE: f32 = 10.0;
/// How hard the prior holds against the examples (whose weights sum to 2).
const PRIOR_STRENGTH: f32 = 1.0;
/// The learned score counts n / (n + this) after n ratings.
const RATINGS_TO_TRUST: f32 = 5.0;
/// Share of the negative weight the 👎 carry; random library papers the rest.
const DISLIKED_SHARE: f32 = 0.9;

/// A sum of TF-IDF vectors: the cosine to it is the cosine to their
/// centroid. Dense over term ids (a day's vocabulary is some ten thousand
/// terms), so every sum runs in the same order and a ranking is the same
/// to the last bit on every run.
pub struct WordSum {
    sum: Vec<f32>,
    norm2: f32,
}

impl WordSum {
    pub fn new<'a>(terms: impl Iterator<Item = (&'a Terms, f32)>) -> WordSum {
        let mut sum: Vec<f32> = Vec::new();
        for (t, w) in terms {
            for &(id, x) in &t.entries {
                let id = id as usize;
                if id >= sum.len() {
                    sum.resize(id + 1, 0.0);
                }
                sum[id] += w * x;
            }
        }
        let norm2 = sum.iter().map(|x| x * x).sum();
        WordSum { sum, norm2 }
    }

    fn overlap(&self, t: &Terms) -> f32 {
        t.entries.iter().map(|&(id, w)| w * self.weight(id).unwrap_or(0.0)).sum()
    }

    /// Cosine of `t` to the sum, without `own` (a summed vector and its weight).
    pub fn cosine(&self, t: &Terms, own: Option<(&Terms, f32)>) -> f32 {
        let mut num = self.overlap(t);
        let mut norm2 = self.norm2;
        if let Some((o, w)) = own {
            num -= w * t.dot(o);
            norm2 += -2.0 * w * self.overlap(o) + w * w * o.dot(o);
        }
        if norm2 <= 1e-12 {
            0.0
        } else {
            num / norm2.sqrt()
        }
    }

    /// A term's weight in the sum, if any seed has it.
    pub fn weight(&self, id: u32) -> Option<f32> {
        self.sum.get(id as usize).copied().filter(|&x| x != 0.0)
    }
}

/// What the ratings taught: the reader's model, and how many ratings it
/// learned from.
pub struct Ratings {
    model: LinearModel,
    count: usize,
}

fn mean(set: &[&SeedVector], dim: usize) -> Vec<f32> {
    let mut m = vec![0.0; dim];
    for s in set {
        m.iter_mut().zip(&s.vector).for_each(|(a, x)| *a += x / set.len() as f32);
    }
    m
}

impl Ratings {
    /// `None` when the reader has rated nothing (and disliked no seed).
    pub fn learn(seeds: &[SeedVector], background: &[Vec<f32>]) -> Option<Ratings> {
        let count = seeds.iter().filter(|s| s.rated || s.negative).count();
        let given: Vec<&SeedVector> = seeds.iter().filter(|s| !s.negative && !s.rated).collect();
        let up: Vec<&SeedVector> = seeds.iter().filter(|s| !s.negative && s.rated).collect();
        let down: Vec<&SeedVector> = seeds.iter().filter(|s| s.negative).collect();
        if count == 0 || (given.is_empty() && up.is_empty()) {
            return None;
        }
        let dim = seeds[0].vector.len();
        // Rocchio's query; with no seed of the user's own, the 👍 stand in.
        let base = if given.is_empty() { mean(&up, dim) } else { mean(&given, dim) };
        let (liked, disliked) = (mean(&up, dim), mean(&down, dim));
        let mut prior: Vec<f32> = (0..dim).map(|j| base[j] + ROCCHIO_LIKED * liked[j] - ROCCHIO_DISLIKED * disliked[j]).collect();
        let norm = dot(&prior, &prior).sqrt();
        if norm > 0.0 {
            prior.iter_mut().for_each(|x| *x *= PRIOR_SCALE / norm);
        }
        let pos: Vec<&SeedVector> = given.iter().chain(&up).copied().collect();
        let bg: Vec<&Vec<f32>> = background.iter().filter(|v| v.len() == dim).collect();
        let pos_w: f32 = pos.iter().map(|s| s.weight).sum::<f32>().max(1e-6);
        let neg_w: f32 = down.iter().map(|s| s.weight).sum();
        let (down_scale, bg_scale) = match (neg_w > 0.0, bg.is_empty()) {
            (true, false) => (DISLIKED_SHARE / neg_w, (1.0 - DISLIKED_SHARE) / bg.len() as f32),
            (true, true) => (1.0 / neg_w, 0.0),
            (false, _) => (0.0, 1.0 / bg.len().max(1) as f32),
        };
        let mut examples: Vec<Example<'_>> = Vec::with_capacity(seeds.len() + bg.len());
        examples.extend(pos.iter().map(|s| Example { x: &s.vector, liked: true, weight: s.weight / pos_w }));
        examples.extend(down.iter().map(|s| Example { x: &s.vector, liked: false, weight: s.weight * down_scale }));
        examples.extend(bg.iter().map(|v| Example { x: v, liked: false, weight: bg_scale }));
        let model = learn::train(&examples, dim, PRIOR_STRENGTH, Some(&prior));
        Some(Ratings { model, count })
    }
}

/// Each value's distance from the mean in standard deviations (all 0 when
/// they do not vary).
fn standardise(xs: &[f32]) -> Vec<f32> {
    let n = xs.len().max(1) as f32;
    let mean = xs.iter().sum::<f32>() / n;
    let sd = (xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f32>() / n).sqrt();
    if sd <= 1e-6 {
        return vec![0.0; xs.len()];
    }
    xs.iter().map(|x| (x - mean) / sd).collect()
}

/// A day scored: each candidate's fused score and the share of its lift
/// over the day's average that came from words.
pub struct Scores {
    pub fused: Vec<f32>,
    pub word_share: Vec<f32>,
}

/// Scores a day; `dense` holds each candidate's cosine to its nearest liked
/// seed (the caller has the cosines at hand for the reasons).
pub fn score(r: &Ranker, candidates: &[Candidate<'_>], dense: &[f32]) -> Scores {
    let words: Vec<f32> = candidates.iter().map(|c| r.word_similarity(c.terms, c.own_seed)).collect();
    let (dense, words) = (standardise(dense), standardise(&words));
    let mut fused = Vec::with_capacity(candidates.len());
    let mut word_share = Vec::with_capacity(candidates.len());
    for (d, w) in dense.iter().zip(&words) {
        let (d, w) = (DENSE_WEIGHT * d, (1.0 - DENSE_WEIGHT) * w);
        fused.push(d + w);
        let lift = d.max(0.0) + w.max(0.0);
        word_share.push(if lift > 0.0 { w.max(0.0) / lift } else { 0.0 });
    }
    if let Some(q) = &r.ratings {
        let learned = standardise(&candidates.iter().map(|c| q.model.margin(c.vector)).collect::<Vec<_>>());
        let trust = q.count as f32 / (q.count as f32 + RATINGS_TO_TRUST);
        for (f, l) in fused.iter_mut().zip(learned) {
            *f = (1.0 - trust) * *f + trust * l;
        }
    }
    Scores { fused, word_share }
}

/// The reader's model's probability that they like each candidate, once
/// there are ratings to learn from.
pub fn probabilities(r: &Ranker, candidates: &[Candidate<'_>]) -> Option<Vec<f32>> {
    let q = r.ratings.as_ref()?;
    Some(candidates.iter().map(|c| q.model.probability(c.vector)).collect())
}
