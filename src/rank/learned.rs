//! The reader's own model: a per-profile logistic regression over paper
//! vectors, liked seeds and 👍 against 👎 (most of the negative weight) and
//! random library papers, whose prior is Rocchio's query — the seeds'
//! mean, plus ½ the mean of the 👍, less the mean of the 👎 — so that a few
//! ratings act like Rocchio and many make the model the reader's own. A
//! hybrid signal once there is a rating; the unsure list's boundary.

use super::logistic::{self, Example, LinearModel, DISLIKED_SHARE};
use super::signal::{Details, Naming, Part, Seeds, Signal, SignalId};
use super::{Candidate, SeedVector};
use crate::vector::dot;

/// Rocchio's weights of the 👍 mean and the 👎 mean in the prior.
const ROCCHIO_LIKED: f32 = 0.5;
const ROCCHIO_DISLIKED: f32 = 1.0;
/// The prior's length: a cosine 0.1 higher is a logit 1 higher.
const PRIOR_SCALE: f32 = 10.0;
/// How hard the prior holds against the examples (whose weights sum to 2).
const PRIOR_STRENGTH: f32 = 1.0;

/// The reader's model: it joins the hybrid's mix with the trust its
/// ratings earn, not with a cold weight.
pub const LEARNED: Part = Part {
    name: "learned",
    label: "your ratings",
    legend: "once you rate papers, a model of your 👍 and 👎",
    cold: 0.0,
    per_ln_seeds: 0.0,
    naming: Naming::Lifting,
};

/// What the ratings taught: the reader's model, and how many ratings it
/// learned from.
pub struct Learned {
    model: LinearModel,
    pub count: usize,
}

fn mean(set: &[&SeedVector], dim: usize) -> Vec<f32> {
    let mut m = vec![0.0; dim];
    for s in set {
        m.iter_mut().zip(&s.vector).for_each(|(a, x)| *a += x / set.len() as f32);
    }
    m
}

impl Learned {
    /// `None` when the reader has rated nothing (and disliked no seed).
    pub fn new(seeds: &Seeds, background: &[Vec<f32>]) -> Option<Learned> {
        let seeds = &seeds.all;
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
        let model = logistic::train(&examples, dim, PRIOR_STRENGTH, Some(&prior));
        Some(Learned { model, count })
    }

    /// The model's probability that the reader likes `v`.
    pub fn probability(&self, v: &[f32]) -> f32 {
        self.model.probability(v)
    }
}

impl Signal for Learned {
    fn id(&self) -> SignalId {
        SignalId(&LEARNED)
    }

    fn score(&self, _: &Seeds, day: &[Candidate<'_>]) -> Vec<f32> {
        day.iter().map(|c| self.model.margin(c.vector)).collect()
    }

    fn explain(&self, _: &Seeds, _: &Candidate<'_>) -> Details {
        Details::Opaque
    }
}
