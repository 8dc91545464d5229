//! Scoring candidate papers against a profile of seed vectors, and the
//! reason for each score. Pure arithmetic on vectors: the profile stage
//! supplies the seeds, the report stage prints the result.

use crate::library::vectors::dot;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// How a candidate is scored against the seeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Cosine to the weighted mean of the liked seeds.
    Centroid,
    /// zotero-arxiv-daily: mean similarity, newest seeds weighted most.
    DecayedMean,
    /// Mean similarity to the k nearest liked seeds, less that to disliked ones.
    Knn,
    /// A per-profile logistic regression: seeds against disliked and random papers.
    Logistic,
}

impl Method {
    pub const ALL: [Method; 4] = [Method::Centroid, Method::DecayedMean, Method::Knn, Method::Logistic];

    pub fn name(self) -> &'static str {
        match self {
            Method::Centroid => "centroid",
            Method::DecayedMean => "decayed-mean",
            Method::Knn => "knn",
            Method::Logistic => "logistic",
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Method {
    type Err = String;
    fn from_str(s: &str) -> Result<Method, String> {
        Method::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| format!("unknown method {s:?}; use centroid, decayed-mean, knn or logistic"))
    }
}

/// The method `daily` uses unless told otherwise: near the top of both
/// evaluations in docs/quality.md and robust for small profiles and libraries.
pub const DEFAULT_METHOD: Method = Method::Knn;

/// One seed as the ranker sees it.
#[derive(Debug, Clone)]
pub struct SeedVector {
    /// What the reason shows: an arXiv id or a short title.
    pub label: String,
    pub vector: Vec<f32>,
    /// User weight (1 by default).
    pub weight: f32,
    pub negative: bool,
    /// When the seed was added (ISO date or timestamp); newest first matters
    /// for the decayed mean.
    pub added: String,
}

/// A score and the seeds that explain it.
#[derive(Debug, Clone, Serialize)]
pub struct Scored {
    pub score: f32,
    /// The closest liked seeds, best first: (seed index, cosine).
    pub reasons: Vec<(usize, f32)>,
}

/// Neighbours used by `knn`.
const KNN_K: usize = 3;
/// How strongly closeness to a disliked seed lowers a score.
const NEGATIVE_PULL: f32 = 0.5;
/// Seeds shown as the reason for a pick.
const REASONS: usize = 2;

/// A profile ready to score candidates with one method.
pub struct Ranker {
    method: Method,
    positives: Vec<usize>,
    negatives: Vec<usize>,
    seeds: Vec<SeedVector>,
    /// Centroid or decayed mean direction, or the logistic weights.
    direction: Vec<f32>,
    bias: f32,
}

impl Ranker {
    /// `background` holds random library vectors: the logistic regression
    /// uses them as implicit negatives (as Scholar Inbox does).
    pub fn new(method: Method, seeds: Vec<SeedVector>, background: &[Vec<f32>]) -> Ranker {
        let positives: Vec<usize> = (0..seeds.len()).filter(|&i| !seeds[i].negative).collect();
        let negatives: Vec<usize> = (0..seeds.len()).filter(|&i| seeds[i].negative).collect();
        let dim = seeds.first().map_or(0, |s| s.vector.len());
        let mut r = Ranker { method, positives, negatives, seeds, direction: vec![0.0; dim], bias: 0.0 };
        match method {
            Method::Centroid => {
                let w: Vec<(usize, f32)> = r.positives.iter().map(|&i| (i, r.seeds[i].weight)).collect();
                r.direction = r.mean(&w);
            }
            Method::DecayedMean => {
                // Newest first; weight 1/(1+log10(rank+1)), normalised.
                let mut order = r.positives.clone();
                order.sort_by(|&a, &b| r.seeds[b].added.cmp(&r.seeds[a].added));
                let w: Vec<(usize, f32)> = order
                    .iter()
                    .enumerate()
                    .map(|(rank, &i)| (i, r.seeds[i].weight / (1.0 + ((rank + 1) as f32).log10())))
                    .collect();
                let total: f32 = w.iter().map(|x| x.1).sum();
                r.direction = r.weighted_sum(&w, if total > 0.0 { 1.0 / total } else { 0.0 });
            }
            Method::Knn => {}
            Method::Logistic => {
                let (w, b) = r.train_logistic(background);
                r.direction = w;
                r.bias = b;
            }
        }
        r
    }

    pub fn method(&self) -> Method {
        self.method
    }

    pub fn seeds(&self) -> &[SeedVector] {
        &self.seeds
    }

    fn weighted_sum(&self, w: &[(usize, f32)], scale: f32) -> Vec<f32> {
        let mut out = vec![0.0; self.direction.len()];
        for &(i, wi) in w {
            for (o, x) in out.iter_mut().zip(&self.seeds[i].vector) {
                *o += wi * scale * x;
            }
        }
        out
    }

    /// Weighted mean scaled to unit length, so its dot product is a cosine.
    fn mean(&self, w: &[(usize, f32)]) -> Vec<f32> {
        let mut m = self.weighted_sum(w, 1.0);
        let norm = dot(&m, &m).sqrt();
        if norm > 0.0 {
            m.iter_mut().for_each(|x| *x /= norm);
        }
        m
    }

    /// Plain batch gradient descent on the L2-regularised log loss: a few
    /// hundred examples in 384 dimensions need nothing cleverer.
    fn train_logistic(&self, background: &[Vec<f32>]) -> (Vec<f32>, f32) {
        let dim = self.direction.len();
        let mut xs: Vec<(&[f32], f32, f32)> = Vec::new();
        for &i in &self.positives {
            xs.push((&self.seeds[i].vector, 1.0, self.seeds[i].weight));
        }
        for &i in &self.negatives {
            xs.push((&self.seeds[i].vector, 0.0, self.seeds[i].weight));
        }
        for v in background {
            if v.len() == dim {
                xs.push((v, 0.0, 1.0));
            }
        }
        // Balance the classes so a few seeds are not drowned by background.
        let pos_w: f32 = xs.iter().filter(|x| x.1 > 0.5).map(|x| x.2).sum();
        let neg_w: f32 = xs.iter().filter(|x| x.1 < 0.5).map(|x| x.2).sum();
        if pos_w == 0.0 || neg_w == 0.0 {
            let w: Vec<(usize, f32)> = self.positives.iter().map(|&i| (i, 1.0)).collect();
            return (self.mean(&w), 0.0);
        }
        let (cp, cn) = (0.5 / pos_w, 0.5 / neg_w);
        let mut w = vec![0f32; dim];
        let mut b = 0f32;
        let (lr, l2) = (4.0f32, 1e-3f32);
        let mut grad = vec![0f32; dim];
        for _ in 0..300 {
            grad.iter_mut().for_each(|g| *g = 0.0);
            let mut gb = 0.0;
            for &(x, y, wt) in &xs {
                let p = sigmoid(dot(&w, x) + b);
                let c = (p - y) * wt * if y > 0.5 { cp } else { cn };
                for (g, xi) in grad.iter_mut().zip(x) {
                    *g += c * xi;
                }
                gb += c;
            }
            for (wi, g) in w.iter_mut().zip(&grad) {
                *wi -= lr * (g + l2 * *wi);
            }
            b -= lr * gb;
        }
        (w, b)
    }

    /// Mean of the `k` largest cosines between `v` and the seeds in `set`.
    fn top_mean(&self, v: &[f32], set: &[usize], k: usize, skip: Option<usize>) -> f32 {
        let mut sims: Vec<f32> = set
            .iter()
            .filter(|&&i| Some(i) != skip)
            .map(|&i| dot(v, &self.seeds[i].vector) * self.seeds[i].weight)
            .collect();
        sims.sort_by(|a, b| b.total_cmp(a));
        let k = k.min(sims.len());
        if k == 0 {
            0.0
        } else {
            sims[..k].iter().sum::<f32>() / k as f32
        }
    }

    pub fn score(&self, v: &[f32]) -> Scored {
        self.score_without(v, None)
    }

    /// Scores a candidate that is itself seed `skip` (a paper the user
    /// rated) on the other seeds, so a rating moves the papers around it
    /// rather than pinning the rated one to the top or bottom. Centroid,
    /// decayed-mean and logistic directions keep it: one seed among many
    /// moves them little.
    pub fn score_without(&self, v: &[f32], skip: Option<usize>) -> Scored {
        let mut reasons: Vec<(usize, f32)> = self
            .positives
            .iter()
            .filter(|&&i| Some(i) != skip)
            .map(|&i| (i, dot(v, &self.seeds[i].vector)))
            .collect();
        reasons.sort_by(|a, b| b.1.total_cmp(&a.1));
        reasons.truncate(REASONS);
        let score = match self.method {
            Method::Centroid | Method::DecayedMean => dot(v, &self.direction),
            Method::Knn => {
                let pos = self.top_mean(v, &self.positives, KNN_K, skip);
                let neg = if self.negatives.iter().all(|&i| Some(i) == skip) {
                    0.0
                } else {
                    self.top_mean(v, &self.negatives, 1, skip)
                };
                pos - NEGATIVE_PULL * neg.max(0.0)
            }
            Method::Logistic => sigmoid(dot(v, &self.direction) + self.bias),
        };
        Scored { score, reasons }
    }
}

/// Candidates nearest the profile's decision boundary: where one rating
/// teaches the most (uncertainty sampling, as Scholar Inbox starts cold).
/// Only a classifier has a boundary, so whatever method ranks the day, the
/// boundary is the logistic model's (liked seeds against disliked ones and
/// library background) at probability ½. Returns indices into `candidates`,
/// most uncertain first.
pub fn most_uncertain(seeds: &[SeedVector], background: &[Vec<f32>], candidates: &[&[f32]], n: usize) -> Vec<usize> {
    if n == 0 || candidates.is_empty() || seeds.iter().all(|s| s.negative) {
        return Vec::new();
    }
    let model = Ranker::new(Method::Logistic, seeds.to_vec(), background);
    let mut by_margin: Vec<(f32, usize)> =
        candidates.iter().enumerate().map(|(i, v)| ((model.score(v).score - 0.5).abs(), i)).collect();
    by_margin.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    by_margin.into_iter().take(n).map(|(_, i)| i).collect()
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(v: &[f32]) -> Vec<f32> {
        let n = dot(v, v).sqrt();
        v.iter().map(|x| x / n).collect()
    }

    fn seed(label: &str, v: &[f32], negative: bool, added: &str) -> SeedVector {
        SeedVector { label: label.into(), vector: unit(v), weight: 1.0, negative, added: added.into() }
    }

    #[test]
    fn every_method_prefers_what_is_like_the_seeds() {
        let seeds = vec![
            seed("a", &[1.0, 0.1, 0.0], false, "2026-01-01"),
            seed("b", &[0.9, 0.0, 0.2], false, "2026-02-01"),
            seed("c", &[0.0, 0.0, 1.0], true, "2026-02-01"),
        ];
        let background: Vec<Vec<f32>> = vec![unit(&[0.0, 1.0, 0.0]), unit(&[0.0, 0.7, 0.7]), unit(&[-1.0, 0.2, 0.0])];
        let near = unit(&[1.0, 0.05, 0.1]);
        let far = unit(&[0.0, 0.3, 1.0]);
        for m in Method::ALL {
            let r = Ranker::new(m, seeds.clone(), &background);
            let (s_near, s_far) = (r.score(&near), r.score(&far));
            assert!(s_near.score > s_far.score, "{m}: {} <= {}", s_near.score, s_far.score);
            assert_eq!(s_near.reasons.len(), 2);
            assert!(s_near.reasons[0].1 >= s_near.reasons[1].1);
        }
    }

    #[test]
    fn decayed_mean_weights_newest_seed_most() {
        let seeds = vec![seed("old", &[1.0, 0.0], false, "2025-01-01"), seed("new", &[0.0, 1.0], false, "2026-01-01")];
        let r = Ranker::new(Method::DecayedMean, seeds, &[]);
        assert!(r.score(&[0.0, 1.0]).score > r.score(&[1.0, 0.0]).score);
    }

    #[test]
    fn a_negative_seed_lowers_knn_scores() {
        let liked = seed("a", &[1.0, 0.0], false, "");
        let disliked = seed("n", &[0.6, 0.8], true, "");
        let v = unit(&[0.8, 0.6]);
        let without = Ranker::new(Method::Knn, vec![liked.clone()], &[]).score(&v).score;
        let with = Ranker::new(Method::Knn, vec![liked, disliked], &[]).score(&v).score;
        assert!(with < without);
    }

    #[test]
    fn a_rated_paper_is_scored_on_the_other_seeds() {
        let a = seed("a", &[1.0, 0.0], false, "");
        let b = seed("b", &[0.0, 1.0], false, "");
        let r = Ranker::new(Method::Knn, vec![a.clone(), b], &[]);
        let own = r.score(&a.vector);
        let without = r.score_without(&a.vector, Some(0));
        assert!(without.score < own.score);
        assert!(without.reasons.iter().all(|&(i, _)| i != 0), "a paper is not its own reason");
    }

    #[test]
    fn uncertain_candidates_sit_between_liked_and_disliked() {
        let seeds = vec![seed("like", &[1.0, 0.0, 0.0], false, ""), seed("nope", &[0.0, 1.0, 0.0], true, "")];
        let background = vec![unit(&[0.0, 0.8, 0.6]), unit(&[0.1, 0.9, 0.0])];
        let liked = unit(&[1.0, 0.05, 0.0]);
        let middle = unit(&[0.7, 0.7, 0.0]);
        let disliked = unit(&[0.05, 1.0, 0.0]);
        let c: Vec<&[f32]> = vec![&liked, &middle, &disliked];
        assert_eq!(most_uncertain(&seeds, &background, &c, 1), vec![1]);
        assert_eq!(most_uncertain(&seeds, &background, &c, 5).len(), 3);
        assert!(most_uncertain(&seeds, &background, &c, 0).is_empty());
    }

    #[test]
    fn names_round_trip() {
        for m in Method::ALL {
            assert_eq!(m.name().parse::<Method>().unwrap(), m);
        }
        assert!("cosine".parse::<Method>().is_err());
    }
}
