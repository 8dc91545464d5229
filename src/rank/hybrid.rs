//! The default method. Cold, it fuses meaning (the cosine to the nearest
//! liked seed and to their centroid), words (the TF-IDF cosine of words
//! and phrases to the liked seeds') and fields (the categories' cosine to
//! the liked seeds'), each first put on the day's own scale. Rated, it also learns: a
//! per-profile logistic regression over paper vectors, liked seeds and 👍
//! against 👎 (most of the negative weight) and random library papers,
//! whose prior is Rocchio's query — the seeds' mean, plus ½ the mean of the
//! 👍, less the mean of the 👎 — so that a few ratings act like Rocchio and
//! many make the model the reader's own. Its score joins the cold one with
//! a weight that grows with the number of ratings.

use super::learn::{self, Example, LinearModel};
use super::{Candidate, Ranker, SeedVector, Terms};
use crate::vector::dot;
use serde::Serialize;

/// The weights of the cold score's signals, on per-day z-scores.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Weights {
    pub nearest: f32,
    pub centroid: f32,
    pub words: f32,
    pub fields: f32,
}

/// Fit on the history replay's fit half, reported on the other half
/// (docs/quality.md, "Phrases and fields").
/// (The fit's top is flat: its ten best mixes lie within 0.001 MRR.)
pub const COLD: Weights = Weights { nearest: 0.4, centroid: 0.0, words: 0.4, fields: 0.2 };
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

/// A day's scale for one signal: its mean and standard deviation.
#[derive(Debug, Clone, Copy)]
struct Scale {
    mean: f32,
    sd: f32,
}

impl Scale {
    fn of(xs: &[f32]) -> Scale {
        let n = xs.len().max(1) as f32;
        let mean = xs.iter().sum::<f32>() / n;
        let sd = (xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f32>() / n).sqrt();
        Scale { mean, sd }
    }

    /// The distance from the mean in standard deviations (0 when the day's
    /// values do not vary).
    fn z(self, x: f32) -> f32 {
        if self.sd <= 1e-6 {
            0.0
        } else {
            (x - self.mean) / self.sd
        }
    }
}

/// Each value's distance from the mean in standard deviations (all 0 when
/// they do not vary).
fn standardise(xs: &[f32]) -> Vec<f32> {
    let scale = Scale::of(xs);
    xs.iter().map(|&x| scale.z(x)).collect()
}

impl Weights {
    fn array(self) -> [f32; 4] {
        [self.nearest, self.centroid, self.words, self.fields]
    }

    fn from_array(w: [f32; 4]) -> Weights {
        Weights { nearest: w[0], centroid: w[1], words: w[2], fields: w[3] }
    }
}

/// Ratings, 👍 and 👎 both among them, before the mix of signals is the
/// reader's own; fewer, and the cold weights hold.
const MIX_MIN_RATINGS: usize = 4;
/// The cold weights as the mix's prior logits: a paper one standard
/// deviation above the day on every signal is this many logits liked.
const MIX_PRIOR_SCALE: f32 = 2.0;
/// How hard that prior holds against the ratings (whose weights sum to 2).
const MIX_PRIOR_STRENGTH: f32 = 1.0;
/// The newest seeds and ratings the mix learns from: four weights need no
/// more, and each costs a pass over every liked seed (a reader with a
/// thousand ratings is retrained in milliseconds, not a second).
const MIX_EXAMPLES: usize = 200;

/// The reader's mix of the signals: a logistic regression of what they
/// liked (seeds and 👍) against what they did not (👎), each scored on
/// the other seeds as a day's paper would be and put on this day's scale,
/// with the cold weights as its prior. A reader whose 👎 share their
/// field but not their words learns to weigh words; one who likes far
/// from their seeds' words learns to weigh meaning. Never below 0: a
/// signal can stop counting, not count against.
fn mix(r: &Ranker, day: &Signals) -> Weights {
    let seeds = r.seeds();
    let rated = seeds.iter().filter(|s| s.rated || s.negative).count();
    let (liked, disliked) = (seeds.iter().filter(|s| !s.negative).count(), seeds.iter().filter(|s| s.negative).count());
    if rated < MIX_MIN_RATINGS || liked < 2 || disliked == 0 {
        return COLD;
    }
    let mut newest: Vec<usize> = (0..seeds.len()).collect();
    newest.sort_by(|&a, &b| seeds[b].added.cmp(&seeds[a].added).then(a.cmp(&b)));
    newest.truncate(MIX_EXAMPLES);
    let as_papers: Vec<Candidate<'_>> = newest
        .iter()
        .map(|&i| {
            let s = &seeds[i];
            Candidate { vector: &s.vector, terms: &s.terms, subjects: &s.subjects, own_seed: Some(i) }
        })
        .collect();
    let own = r.signals(&as_papers);
    let scales = [Scale::of(&day.nearest), Scale::of(&day.centroid), Scale::of(&day.words), Scale::of(&day.fields)];
    let features: Vec<[f32; 4]> = (0..newest.len())
        .map(|k| {
            let raw = [own.nearest[k], own.centroid[k], own.words[k], own.fields[k]];
            std::array::from_fn(|j| scales[j].z(raw[j]))
        })
        .collect();
    let total = |neg: bool| newest.iter().filter(|&&i| seeds[i].negative == neg).map(|&i| seeds[i].weight).sum::<f32>();
    let (pos_w, neg_w) = (total(false), total(true));
    if pos_w <= 0.0 || neg_w <= 0.0 {
        return COLD;
    }
    let examples: Vec<Example<'_>> = newest
        .iter()
        .zip(&features)
        .map(|(&i, x)| {
            let s = &seeds[i];
            Example { x, liked: !s.negative, weight: s.weight / if s.negative { neg_w } else { pos_w } }
        })
        .collect();
    let prior = COLD.array().map(|w| w * MIX_PRIOR_SCALE);
    let model = learn::train(&examples, 4, MIX_PRIOR_STRENGTH, Some(&prior));
    let mut w: [f32; 4] = std::array::from_fn(|k| model.w[k].max(0.0));
    let sum: f32 = w.iter().sum();
    if sum <= 1e-6 {
        return COLD;
    }
    w.iter_mut().for_each(|x| *x /= sum);
    Weights::from_array(w)
}

/// Each signal's raw value for every candidate of a day, before the day's
/// scale is put on them.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Signals {
    /// Cosine to the nearest liked seed.
    pub nearest: Vec<f32>,
    /// Cosine to the liked seeds' mean direction.
    pub centroid: Vec<f32>,
    /// TF-IDF cosine of words and phrases to the liked seeds'.
    pub words: Vec<f32>,
    /// Cosine of the categories to the liked seeds'.
    pub fields: Vec<f32>,
}

impl Signals {
    /// `nearest` holds each candidate's cosine to its nearest liked seed
    /// (the caller has the cosines at hand for the reasons).
    pub fn of(r: &Ranker, candidates: &[Candidate<'_>], nearest: Vec<f32>) -> Signals {
        Signals {
            nearest,
            centroid: candidates.iter().map(|c| r.centroid_similarity(c.vector, c.own_seed)).collect(),
            words: candidates.iter().map(|c| r.word_similarity(c.terms, c.own_seed)).collect(),
            fields: candidates.iter().map(|c| r.field_similarity(c.subjects, c.own_seed)).collect(),
        }
    }

    /// One candidate's score with no day to scale by: the signals' raw
    /// values, weighted.
    pub fn raw(&self, i: usize) -> f32 {
        let w = COLD;
        let total = w.nearest + w.centroid + w.words + w.fields;
        (w.nearest * self.nearest[i] + w.centroid * self.centroid[i] + w.words * self.words[i] + w.fields * self.fields[i]) / total
    }
}

/// A day scored: each candidate's fused score and the share of its lift
/// over the day's average that came from words.
pub struct Scores {
    pub fused: Vec<f32>,
    pub word_share: Vec<f32>,
}

/// Scores a day from its signals.
pub fn score(r: &Ranker, candidates: &[Candidate<'_>], signals: &Signals) -> Scores {
    let w = if r.ratings.is_some() { mix(r, signals) } else { COLD };
    let (nearest, centroid) = (standardise(&signals.nearest), standardise(&signals.centroid));
    let (words, fields) = (standardise(&signals.words), standardise(&signals.fields));
    let mut fused = Vec::with_capacity(candidates.len());
    let mut word_share = Vec::with_capacity(candidates.len());
    for i in 0..candidates.len() {
        let parts = [w.nearest * nearest[i], w.centroid * centroid[i], w.words * words[i], w.fields * fields[i]];
        fused.push(parts.iter().sum());
        let lift: f32 = parts.iter().map(|p| p.max(0.0)).sum();
        word_share.push(if lift > 0.0 { parts[2].max(0.0) / lift } else { 0.0 });
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank::{Method, Vocabulary};

    fn seed(vocab: &mut Vocabulary, v: [f32; 3], words: &str, negative: bool) -> SeedVector {
        let n = dot(&v, &v).sqrt();
        SeedVector {
            label: words.into(),
            vector: v.iter().map(|x| x / n).collect(),
            terms: vocab.terms(words, ""),
            subjects: Vec::new(),
            weight: 1.0,
            negative,
            rated: true,
            added: String::new(),
        }
    }

    #[test]
    fn a_reader_whose_dislikes_are_near_in_meaning_but_not_in_words_learns_to_weigh_words() {
        let mut vocab = Vocabulary::new(None);
        let seeds = vec![
            seed(&mut vocab, [1.0, 0.0, 0.0], "speculative decoding drafts", false),
            seed(&mut vocab, [0.2, 1.0, 0.0], "speculative decoding trees", false),
            seed(&mut vocab, [0.0, 0.3, 1.0], "speculative decoding verification", false),
            seed(&mut vocab, [0.9, 0.1, 0.1], "protein folding", true),
            seed(&mut vocab, [0.3, 0.9, 0.1], "weather forecasting", true),
        ];
        let r = Ranker::new(Method::Hybrid, seeds, &[]);
        let day: Vec<(Vec<f32>, Terms)> = (0..20)
            .map(|i| {
                let t = i as f32 / 20.0;
                let words = if i % 2 == 0 { "speculative decoding" } else { "graph coloring" };
                (vec![1.0 - t, t, 0.5 * t], vocab.terms(words, ""))
            })
            .collect();
        let c: Vec<Candidate<'_>> = day.iter().map(|(v, t)| Candidate { vector: v, terms: t, subjects: &[], own_seed: None }).collect();
        let w = mix(&r, &r.signals(&c));
        assert!(w.words > COLD.words, "{w:?}");
        assert!((w.array().iter().sum::<f32>() - 1.0).abs() < 1e-5 && w.array().iter().all(|&x| x >= 0.0), "{w:?}");
    }

    #[test]
    fn too_few_ratings_keep_the_cold_mix() {
        let mut vocab = Vocabulary::new(None);
        let seeds = vec![seed(&mut vocab, [1.0, 0.0, 0.0], "a b", false), seed(&mut vocab, [0.0, 1.0, 0.0], "c d", true)];
        let r = Ranker::new(Method::Hybrid, seeds, &[]);
        let t = vocab.terms("a", "");
        let c = [Candidate { vector: &[1.0, 0.0, 0.0], terms: &t, subjects: &[], own_seed: None }];
        assert_eq!(mix(&r, &r.signals(&c)).array(), COLD.array());
    }
}
