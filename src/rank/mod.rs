//! Scoring candidate papers against a profile of seeds, and the reason for
//! each score. Pure arithmetic on vectors and words: the profile stage
//! supplies the seeds, the report stage prints the result.
//!
//! A day is scored as a whole ([`Ranker::score_all`]): the default method
//! fuses a dense and a lexical score after putting each on the day's own
//! scale (z-scores over the candidates), so neither kind of similarity
//! drowns the other whatever its spread that day.

mod fields;
mod hybrid;
pub mod learn;
pub mod words;

use crate::vector::dot;
use fields::FieldProfile;
use hybrid::{Ratings, WordSum};
pub use hybrid::{Signals, Weights, COLD};
use learn::{sigmoid, Example, LinearModel};
use serde::Serialize;
use std::fmt;
use std::str::FromStr;
pub use words::{Terms, Vocabulary, WordCache};

/// How a candidate is scored against the seeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Meaning and words fused per day, learning from every rating (the default).
    Hybrid,
    /// Words alone: TF-IDF cosine to the liked seeds.
    Lexical,
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
    pub const ALL: [Method; 6] = [Method::Hybrid, Method::Lexical, Method::Centroid, Method::DecayedMean, Method::Knn, Method::Logistic];

    pub fn name(self) -> &'static str {
        match self {
            Method::Hybrid => "hybrid",
            Method::Lexical => "lexical",
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
            .ok_or_else(|| format!("unknown method {s:?}; use hybrid, lexical, centroid, decayed-mean, knn or logistic"))
    }
}

/// The method `daily` uses unless told otherwise (docs/quality.md).
pub const DEFAULT_METHOD: Method = Method::Hybrid;

/// One seed as the ranker sees it.
#[derive(Debug, Clone)]
pub struct SeedVector {
    /// What the reason shows: an arXiv id or a short title.
    pub label: String,
    pub vector: Vec<f32>,
    /// Its title and abstract as words.
    pub terms: Terms,
    /// Its arXiv categories, primary first (none for free text).
    pub subjects: Vec<String>,
    /// User weight (1 by default).
    pub weight: f32,
    pub negative: bool,
    /// A 👍 or 👎 on a listed paper rather than a seed the user gave.
    pub rated: bool,
    /// When the seed was added (ISO date or timestamp); newest first matters
    /// for the decayed mean.
    pub added: String,
}

/// A paper to score: its vector, its words, and the seed it is when the
/// user rated it (scored on the other seeds, so a rating moves the papers
/// around it rather than pinning the rated one).
#[derive(Debug, Clone, Copy)]
pub struct Candidate<'a> {
    pub vector: &'a [f32],
    pub terms: &'a Terms,
    /// Its arXiv categories, primary first.
    pub subjects: &'a [String],
    pub own_seed: Option<usize>,
}

/// A score and what explains it.
#[derive(Debug, Clone, Serialize)]
pub struct Scored {
    pub score: f32,
    /// The closest liked seeds, best first: (seed index, cosine).
    pub reasons: Vec<(usize, f32)>,
    /// The words it shares with the liked seeds that weigh most in its
    /// lexical score, heaviest first, as the candidate writes them.
    pub words: Vec<String>,
    /// Hybrid: the share of the score's lift that came from words rather
    /// than meaning (0 to 1).
    pub word_share: Option<f32>,
}

/// Below this cosine to its closest liked seed a pick is a weak match, and
/// says so (all-MiniLM-L6-v2 puts unrelated computer-science abstracts at
/// 0.0–0.3 of each other; docs/quality.md).
pub const WEAK_MATCH: f32 = 0.35;
/// The weight of term `id` in `t`, 0 when absent.
fn weight_of(t: &Terms, id: u32) -> f32 {
    t.entries.binary_search_by_key(&id, |e| e.0).map_or(0.0, |i| t.entries[i].1)
}

/// The nearest-seed cosine under which a day's pick is weak: below the
/// model's own floor ([`WEAK_MATCH`]), or below the day's median, so that
/// a pick the words lifted high but whose meaning is far looks weak
/// wherever it ranks, and a day of little for the reader says so.
pub fn weak_below(day: &[Scored]) -> f32 {
    let mut nearest: Vec<f32> = day.iter().filter_map(|s| s.reasons.first().map(|r| r.1)).collect();
    if nearest.is_empty() {
        return WEAK_MATCH;
    }
    let mid = nearest.len() / 2;
    let (_, median, _) = nearest.select_nth_unstable_by(mid, f32::total_cmp);
    WEAK_MATCH.max(*median)
}

/// Neighbours used by `knn`.
const KNN_K: usize = 3;
/// How strongly closeness to a disliked seed lowers a `knn` score.
const NEGATIVE_PULL: f32 = 0.5;
/// Seeds shown as the reason for a pick.
const REASONS: usize = 2;
/// Words shown as the reason for a pick.
const WORDS: usize = 3;
/// Share of the negative weight the disliked seeds carry in the logistic
/// model of the unsure rule when there are any; random library papers carry
/// the rest (Scholar Inbox leans on 👎 likewise).
const DISLIKED_SHARE: f32 = 0.9;

/// A profile ready to score candidates with one method.
pub struct Ranker {
    method: Method,
    positives: Vec<usize>,
    negatives: Vec<usize>,
    seeds: Vec<SeedVector>,
    /// Centroid or decayed mean direction, or the logistic weights.
    direction: Vec<f32>,
    bias: f32,
    /// The seeds' word vectors, weighted and summed.
    words: WordSum,
    /// Each seed's weight in that sum.
    word_weights: Vec<f32>,
    /// The liked seeds' categories.
    fields: FieldProfile,
    /// The liked seeds' weighted sum and its squared length: the centroid's
    /// cosine without one seed is then a dot product, not a new mean.
    liked_sum: Vec<f32>,
    liked_norm2: f32,
    /// Hybrid: the rated papers, what the reader's weights are learned from.
    ratings: Option<Ratings>,
}

impl Ranker {
    /// `background` holds random library vectors: the logistic models use
    /// them as implicit negatives (as Scholar Inbox does).
    pub fn new(method: Method, seeds: Vec<SeedVector>, background: &[Vec<f32>]) -> Ranker {
        let positives: Vec<usize> = (0..seeds.len()).filter(|&i| !seeds[i].negative).collect();
        let negatives: Vec<usize> = (0..seeds.len()).filter(|&i| seeds[i].negative).collect();
        let dim = seeds.first().map_or(0, |s| s.vector.len());
        let mut r = Ranker {
            method,
            positives,
            negatives,
            seeds,
            direction: vec![0.0; dim],
            bias: 0.0,
            words: WordSum::new(std::iter::empty()),
            word_weights: Vec::new(),
            fields: FieldProfile::default(),
            liked_sum: Vec::new(),
            liked_norm2: 0.0,
            ratings: None,
        };
        let liked: Vec<(usize, f32)> = r.positives.iter().map(|&i| (i, r.seeds[i].weight)).collect();
        r.liked_sum = r.weighted_sum(&liked, 1.0);
        r.liked_norm2 = dot(&r.liked_sum, &r.liked_sum);
        // Liked seeds only: a 👎's words subtracted (Rocchio) lowered
        // CSFCube's rated rows by 5 MAP (docs/quality.md).
        r.word_weights = r.seeds.iter().map(|s| if s.negative { 0.0 } else { s.weight }).collect();
        r.words = WordSum::new(r.seeds.iter().zip(&r.word_weights).filter(|(_, &w)| w != 0.0).map(|(s, &w)| (&s.terms, w)));
        r.fields = FieldProfile::new(r.positives.iter().map(|&i| (r.seeds[i].subjects.as_slice(), r.seeds[i].weight)));
        match method {
            Method::Centroid => r.direction = r.centroid(),
            Method::DecayedMean => {
                // Newest first; weight 1/(1+log10(rank+1)), normalised.
                let mut order = r.positives.clone();
                order.sort_by(|&a, &b| r.seeds[b].added.cmp(&r.seeds[a].added));
                let w: Vec<(usize, f32)> =
                    order.iter().enumerate().map(|(rank, &i)| (i, r.seeds[i].weight / (1.0 + ((rank + 1) as f32).log10()))).collect();
                let total: f32 = w.iter().map(|x| x.1).sum();
                r.direction = r.weighted_sum(&w, if total > 0.0 { 1.0 / total } else { 0.0 });
            }
            Method::Knn | Method::Lexical => {}
            Method::Logistic => {
                let m = r.train(background, 1e-3, None);
                r.direction = m.w;
                r.bias = m.b;
            }
            Method::Hybrid => {
                r.direction = r.centroid();
                r.ratings = Ratings::learn(&r.seeds, background);
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

    /// The liked seeds' weighted mean direction.
    fn centroid(&self) -> Vec<f32> {
        let w: Vec<(usize, f32)> = self.positives.iter().map(|&i| (i, self.seeds[i].weight)).collect();
        self.mean(&w)
    }

    /// The categories' cosine to the liked seeds' (without seed `skip`'s part).
    fn field_similarity(&self, subjects: &[String], skip: Option<usize>) -> f32 {
        let own = skip.filter(|&s| !self.seeds[s].negative).map(|s| (self.seeds[s].subjects.as_slice(), self.seeds[s].weight));
        self.fields.cosine(subjects, own)
    }

    /// The cosine to the liked seeds' mean direction, without seed
    /// `skip`'s part.
    fn centroid_similarity(&self, v: &[f32], skip: Option<usize>) -> f32 {
        let (mut num, mut norm2) = (dot(v, &self.liked_sum), self.liked_norm2);
        if let Some(s) = skip.filter(|&s| !self.seeds[s].negative) {
            let (own, w) = (&self.seeds[s].vector, self.seeds[s].weight);
            num -= w * dot(v, own);
            norm2 += -2.0 * w * dot(&self.liked_sum, own) + w * w * dot(own, own);
        }
        if norm2 <= 1e-12 {
            0.0
        } else {
            num / norm2.sqrt()
        }
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

    /// Liked seeds against disliked seeds and library background, each side
    /// weighing the same in all. `disliked_share` gives the disliked seeds
    /// that share of the negative side (the rest to background); without it
    /// every negative example weighs the same.
    fn train(&self, background: &[Vec<f32>], l2: f32, disliked_share: Option<f32>) -> LinearModel {
        let dim = self.direction.len();
        let bg: Vec<&Vec<f32>> = background.iter().filter(|v| v.len() == dim).collect();
        let pos_w: f32 = self.positives.iter().map(|&i| self.seeds[i].weight).sum();
        let neg_w: f32 = self.negatives.iter().map(|&i| self.seeds[i].weight).sum();
        if pos_w <= 0.0 || (neg_w <= 0.0 && bg.is_empty()) {
            let w: Vec<(usize, f32)> = self.positives.iter().map(|&i| (i, 1.0)).collect();
            return LinearModel { w: self.mean(&w), b: 0.0 };
        }
        let (neg_scale, bg_scale) = match disliked_share {
            Some(share) if neg_w > 0.0 && !bg.is_empty() => (share / neg_w, (1.0 - share) / bg.len() as f32),
            Some(_) if neg_w > 0.0 => (1.0 / neg_w, 0.0),
            _ => {
                let total = neg_w + bg.len() as f32;
                (1.0 / total, 1.0 / total)
            }
        };
        let mut examples = Vec::with_capacity(self.seeds.len() + bg.len());
        for &i in &self.positives {
            examples.push(Example { x: &self.seeds[i].vector, liked: true, weight: self.seeds[i].weight / pos_w });
        }
        for &i in &self.negatives {
            examples.push(Example { x: &self.seeds[i].vector, liked: false, weight: self.seeds[i].weight * neg_scale });
        }
        for v in bg {
            examples.push(Example { x: v, liked: false, weight: bg_scale });
        }
        learn::train(&examples, dim, l2, None)
    }

    /// Mean of the `k` largest cosines between `v` and the seeds in `set`.
    fn top_mean(&self, v: &[f32], set: &[usize], k: usize, skip: Option<usize>) -> f32 {
        let mut sims: Vec<f32> =
            set.iter().filter(|&&i| Some(i) != skip).map(|&i| dot(v, &self.seeds[i].vector) * self.seeds[i].weight).collect();
        mean_of_largest(&mut sims, k)
    }

    /// TF-IDF cosine between a candidate and the liked seeds' summed word
    /// vector (without seed `skip`'s part).
    fn word_similarity(&self, terms: &Terms, skip: Option<usize>) -> f32 {
        self.words.cosine(terms, self.own_words(skip))
    }

    /// Seed `skip`'s part of the word sum: its words and weight.
    fn own_words(&self, skip: Option<usize>) -> Option<(&Terms, f32)> {
        skip.map(|s| (&self.seeds[s].terms, self.word_weights[s])).filter(|(_, w)| *w != 0.0)
    }

    /// The candidate's words that weigh most in [`Self::word_similarity`],
    /// without seed `skip`'s part (a rated paper shares every word with
    /// itself, which is no reason): phrases first, and no word a phrase
    /// shown already says ("speculative decoding", not also "decoding").
    fn shared_words(&self, terms: &Terms, skip: Option<usize>) -> Vec<String> {
        let own = self.own_words(skip);
        let mut parts: Vec<(f32, usize)> = terms
            .entries
            .iter()
            .enumerate()
            .filter_map(|(i, (t, w))| {
                let p = self.words.weight(*t)? - own.map_or(0.0, |(o, ow)| ow * weight_of(o, *t));
                Some((w * p, i))
            })
            .filter(|(c, _)| *c > 1e-6)
            .filter(|&(_, i)| terms.surface[i].chars().count() > 1 && terms.surface[i].chars().any(char::is_alphabetic))
            .collect();
        parts.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        // Of the heaviest few, the phrases lead.
        parts.truncate(2 * WORDS);
        parts.sort_by_key(|&(_, i)| !terms.phrase[i]);
        let mut out: Vec<String> = Vec::with_capacity(WORDS);
        for (_, i) in parts {
            let w = shown(&terms.surface[i]);
            let said = |o: &String| o.to_lowercase().split(|c: char| !c.is_alphanumeric()).any(|x| x == w.to_lowercase());
            if terms.phrase[i] || !out.iter().any(said) {
                out.push(w);
            }
            if out.len() == WORDS {
                break;
            }
        }
        out
    }

    /// The cosines of `v` to every liked seed but `skip`: (seed, cosine).
    fn liked_cosines(&self, v: &[f32], skip: Option<usize>) -> Vec<(usize, f32)> {
        self.positives.iter().filter(|&&i| Some(i) != skip).map(|&i| (i, dot(v, &self.seeds[i].vector))).collect()
    }

    /// The closest of the liked seeds, best first.
    fn reasons(&self, cosines: &[(usize, f32)]) -> Vec<(usize, f32)> {
        let mut best: Vec<(usize, f32)> = Vec::with_capacity(REASONS + 1);
        for &(i, c) in cosines {
            if best.len() < REASONS || c > best[best.len() - 1].1 {
                let at = best.iter().position(|b| c > b.1).unwrap_or(best.len());
                best.insert(at, (i, c));
                best.truncate(REASONS);
            }
        }
        best
    }

    /// One method's score of one candidate, before any per-day scaling.
    fn dense_score(&self, c: &Candidate<'_>) -> f32 {
        let v = c.vector;
        match self.method {
            Method::Centroid | Method::DecayedMean => dot(v, &self.direction),
            Method::Knn => self.top_mean(v, &self.positives, KNN_K, c.own_seed) - self.negative_pull(c),
            Method::Logistic => sigmoid(dot(v, &self.direction) + self.bias),
            Method::Lexical => self.word_similarity(c.terms, c.own_seed),
            Method::Hybrid => self.top_mean(v, &self.positives, hybrid::NEAREST, c.own_seed),
        }
    }

    /// `knn`'s penalty: half the cosine to the nearest disliked seed.
    fn negative_pull(&self, c: &Candidate<'_>) -> f32 {
        if self.negatives.iter().all(|&i| Some(i) == c.own_seed) {
            return 0.0;
        }
        NEGATIVE_PULL * self.top_mean(c.vector, &self.negatives, 1, c.own_seed).max(0.0)
    }

    /// The hybrid's signals for a day, raw (`eval history --signals`).
    pub fn signals(&self, candidates: &[Candidate<'_>]) -> Signals {
        let nearest = candidates.iter().map(|c| self.top_mean(c.vector, &self.positives, hybrid::NEAREST, c.own_seed)).collect();
        Signals::of(self, candidates, nearest)
    }

    /// Scores every candidate of a day (or any set ranked together).
    pub fn score_all(&self, candidates: &[Candidate<'_>]) -> Vec<Scored> {
        // One pass over the liked seeds per candidate gives both the reasons
        // and (for the hybrid and knn) the dense similarity.
        let mut dense = Vec::with_capacity(candidates.len());
        let mut scored: Vec<Scored> = candidates
            .iter()
            .map(|c| {
                let cosines = self.liked_cosines(c.vector, c.own_seed);
                let weighted = || cosines.iter().map(|&(i, x)| x * self.seeds[i].weight).collect::<Vec<f32>>();
                let score = match self.method {
                    Method::Hybrid => mean_of_largest(&mut weighted(), hybrid::NEAREST),
                    Method::Knn => mean_of_largest(&mut weighted(), KNN_K) - self.negative_pull(c),
                    _ => self.dense_score(c),
                };
                dense.push(score);
                Scored { score, reasons: self.reasons(&cosines), words: self.shared_words(c.terms, c.own_seed), word_share: None }
            })
            .collect();
        if self.method != Method::Hybrid {
            return scored;
        }
        let signals = Signals::of(self, candidates, dense);
        let day = hybrid::score(self, candidates, &signals);
        for (i, s) in scored.iter_mut().enumerate() {
            s.score = sigmoid(day.fused[i]);
            s.word_share = Some(day.word_share[i]);
        }
        scored
    }

    /// [`Self::score_all`] for one candidate alone (no day to scale by: a
    /// hybrid score is then the mean of its raw dense and word similarities).
    pub fn score_one(&self, c: &Candidate<'_>) -> Scored {
        let mut s = self.score_all(std::slice::from_ref(c)).remove(0);
        if self.method == Method::Hybrid {
            s.score = Signals::of(self, std::slice::from_ref(c), vec![self.dense_score(c)]).raw(0);
        }
        s
    }

    /// How sure the profile is about each candidate: the distance of a
    /// model's probability from ½ (smallest = least sure). The hybrid's own
    /// model once there are ratings; before, and for the other methods, a
    /// logistic regression of the liked seeds against disliked seeds and
    /// library background.
    pub fn uncertainty(&self, background: &[Vec<f32>], candidates: &[Candidate<'_>]) -> Vec<f32> {
        if self.method == Method::Hybrid {
            if let Some(p) = hybrid::probabilities(self, candidates) {
                return p.into_iter().map(|p| (p - 0.5).abs()).collect();
            }
        }
        let model = self.train(background, 1e-3, Some(DISLIKED_SHARE));
        candidates.iter().map(|c| (model.probability(c.vector) - 0.5).abs()).collect()
    }
}

/// The mean of the `k` largest values (0 when there are none), in linear time.
fn mean_of_largest(xs: &mut [f32], k: usize) -> f32 {
    let k = k.min(xs.len());
    if k == 0 {
        return 0.0;
    }
    if k < xs.len() {
        xs.select_nth_unstable_by(k - 1, |a, b| b.total_cmp(a));
    }
    xs[..k].iter().sum::<f32>() / k as f32
}

/// A word as a reason shows it: lower case, unless it is an acronym or a
/// name written with capitals inside (GPU, LoRA, PyTorch).
fn shown(w: &str) -> String {
    if w.chars().skip(1).any(char::is_uppercase) {
        w.to_string()
    } else {
        w.to_lowercase()
    }
}

/// Candidates nearest the profile's decision boundary: where one rating
/// teaches the most (uncertainty sampling, as Scholar Inbox starts cold).
/// The boundary is the learned model's (liked seeds against disliked ones
/// and library background) at probability ½. Returns indices into
/// `candidates`, most uncertain first.
pub fn most_uncertain(ranker: &Ranker, background: &[Vec<f32>], candidates: &[Candidate<'_>], n: usize) -> Vec<usize> {
    if n == 0 || candidates.is_empty() || ranker.positives.is_empty() {
        return Vec::new();
    }
    let margins = ranker.uncertainty(background, candidates);
    let mut by_margin: Vec<(f32, usize)> = margins.into_iter().enumerate().map(|(i, m)| (m, i)).collect();
    by_margin.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    by_margin.into_iter().take(n).map(|(_, i)| i).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(v: &[f32]) -> Vec<f32> {
        let n = dot(v, v).sqrt();
        v.iter().map(|x| x / n).collect()
    }

    fn seed(label: &str, v: &[f32], negative: bool, added: &str) -> SeedVector {
        SeedVector {
            label: label.into(),
            vector: unit(v),
            terms: Terms::default(),
            subjects: Vec::new(),
            weight: 1.0,
            negative,
            rated: false,
            added: added.into(),
        }
    }

    fn scores(r: &Ranker, vs: &[&[f32]]) -> Vec<f32> {
        let none = Terms::default();
        let c: Vec<Candidate<'_>> = vs.iter().map(|v| Candidate { vector: v, terms: &none, subjects: &[], own_seed: None }).collect();
        r.score_all(&c).into_iter().map(|s| s.score).collect()
    }

    #[test]
    fn every_method_prefers_what_is_like_the_seeds() {
        let mut vocab = Vocabulary::new(None);
        let mut seeds = vec![
            seed("a", &[1.0, 0.1, 0.0], false, "2026-01-01"),
            seed("b", &[0.9, 0.0, 0.2], false, "2026-02-01"),
            seed("c", &[0.0, 0.0, 1.0], true, "2026-02-01"),
        ];
        seeds[0].terms = vocab.terms("KV cache prefetching", "for LLM serving");
        seeds[1].terms = vocab.terms("Prefetching the KV cache", "");
        seeds[2].terms = vocab.terms("Protein folding", "");
        let background: Vec<Vec<f32>> = vec![unit(&[0.0, 1.0, 0.0]), unit(&[0.0, 0.7, 0.7]), unit(&[-1.0, 0.2, 0.0])];
        let near = unit(&[1.0, 0.05, 0.1]);
        let far = unit(&[0.0, 0.3, 1.0]);
        let near_words = vocab.terms("KV caches prefetched", "");
        let far_words = vocab.terms("folding proteins", "");
        for m in Method::ALL {
            let r = Ranker::new(m, seeds.clone(), &background);
            let s = r.score_all(&[
                Candidate { vector: &near, terms: &near_words, subjects: &[], own_seed: None },
                Candidate { vector: &far, terms: &far_words, subjects: &[], own_seed: None },
            ]);
            assert!(s[0].score > s[1].score, "{m}: {} <= {}", s[0].score, s[1].score);
            assert_eq!(s[0].reasons.len(), 2);
            assert!(s[0].reasons[0].1 >= s[0].reasons[1].1);
            let mut words = s[0].words.clone();
            words.sort();
            // Phrases first, and no word a phrase shown already says.
            assert_eq!(words, ["KV caches", "caches prefetched"], "{m}");
            assert!(s[1].words.is_empty(), "a disliked seed's words are no reason");
        }
    }

    #[test]
    fn shared_words_are_shown_as_the_candidate_writes_them() {
        let mut vocab = Vocabulary::new(None);
        let mut s = seed("a", &[1.0, 0.0], false, "");
        s.terms = vocab.terms("Caching for serverless functions", "");
        let r = Ranker::new(Method::Hybrid, vec![s], &[]);
        let t = vocab.terms("Serverless caches", "");
        let out = r.score_all(&[Candidate { vector: &[1.0, 0.0], terms: &t, subjects: &[], own_seed: None }]);
        let mut words = out[0].words.clone();
        words.sort();
        assert_eq!(words, vec!["caches", "serverless"]);
    }

    #[test]
    fn a_rated_paper_shares_no_words_with_itself() {
        let mut vocab = Vocabulary::new(None);
        let mut own = seed("own", &[1.0, 0.0], false, "");
        own.terms = vocab.terms("Speculative decoding drafts", "");
        let mut other = seed("other", &[0.8, 0.6], false, "");
        other.terms = vocab.terms("Speculative sampling", "");
        let r = Ranker::new(Method::Hybrid, vec![own.clone(), other], &[]);
        let t = own.terms.clone();
        let out = r.score_all(&[Candidate { vector: &[1.0, 0.0], terms: &t, subjects: &[], own_seed: Some(0) }]);
        assert_eq!(out[0].words, vec!["speculative"], "only what it shares with the other seed");
        assert_eq!(out[0].reasons[0].0, 1, "its nearest seed is another one");
    }

    #[test]
    fn decayed_mean_weights_newest_seed_most() {
        let seeds = vec![seed("old", &[1.0, 0.0], false, "2025-01-01"), seed("new", &[0.0, 1.0], false, "2026-01-01")];
        let r = Ranker::new(Method::DecayedMean, seeds, &[]);
        let s = scores(&r, &[&[0.0, 1.0], &[1.0, 0.0]]);
        assert!(s[0] > s[1]);
    }

    #[test]
    fn a_negative_seed_lowers_knn_scores() {
        let liked = seed("a", &[1.0, 0.0], false, "");
        let disliked = seed("n", &[0.6, 0.8], true, "");
        let v = unit(&[0.8, 0.6]);
        let without = scores(&Ranker::new(Method::Knn, vec![liked.clone()], &[]), &[&v])[0];
        let with = scores(&Ranker::new(Method::Knn, vec![liked, disliked], &[]), &[&v])[0];
        assert!(with < without);
    }

    #[test]
    fn a_dislike_sinks_what_is_like_it_in_the_hybrid() {
        let liked = seed("a", &[1.0, 0.0, 0.0], false, "");
        let mut disliked = seed("n", &[0.7, 0.7, 0.0], true, "");
        disliked.rated = true;
        let close_to_dislike = unit(&[0.75, 0.66, 0.0]);
        let other = unit(&[0.75, 0.0, 0.66]);
        let bg = vec![unit(&[0.0, 0.0, 1.0]), unit(&[0.0, 1.0, 0.0])];
        let before = scores(&Ranker::new(Method::Hybrid, vec![liked.clone()], &bg), &[&close_to_dislike, &other]);
        let after = scores(&Ranker::new(Method::Hybrid, vec![liked, disliked], &bg), &[&close_to_dislike, &other]);
        assert!(before[0] >= before[1] - 0.05, "{before:?}");
        assert!(after[0] < after[1], "{after:?}");
    }

    #[test]
    fn a_rated_paper_is_scored_on_the_other_seeds() {
        let a = seed("a", &[1.0, 0.0], false, "");
        let b = seed("b", &[0.0, 1.0], false, "");
        let r = Ranker::new(Method::Knn, vec![a.clone(), b], &[]);
        let none = Terms::default();
        let own = r.score_one(&Candidate { vector: &a.vector, terms: &none, subjects: &[], own_seed: None });
        let without = r.score_one(&Candidate { vector: &a.vector, terms: &none, subjects: &[], own_seed: Some(0) });
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
        let none = Terms::default();
        let c: Vec<Candidate<'_>> =
            [&liked, &middle, &disliked].iter().map(|v| Candidate { vector: v, terms: &none, subjects: &[], own_seed: None }).collect();
        let r = Ranker::new(Method::Hybrid, seeds, &background);
        assert_eq!(most_uncertain(&r, &background, &c, 1), vec![1]);
        assert_eq!(most_uncertain(&r, &background, &c, 5).len(), 3);
        assert!(most_uncertain(&r, &background, &c, 0).is_empty());
    }

    #[test]
    fn names_round_trip() {
        for m in Method::ALL {
            assert_eq!(m.name().parse::<Method>().unwrap(), m);
        }
        assert!("cosine".parse::<Method>().is_err());
    }
}
