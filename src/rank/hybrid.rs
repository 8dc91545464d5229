//! The default method: the signals mixed on the day's own scale. Cold, each
//! signal is put on per-day z-scores and weighed by [`cold`] (the weights
//! for the profile's number of liked seeds); from a few
//! ratings the mix is the reader's own ([`mix`]); and the reader's model
//! ([`super::learned::Learned`]) joins with a weight that grows with the
//! number of ratings.

use super::calibration::Scale;
use super::logistic::{self, Example};
use super::signal::{Part, Signals};
use super::{Candidate, Ranker};

// The cold weights are the signals' own ([`Part::cold`], with the slope
// [`Part::per_ln_seeds`]; the words' is `words::PER_LN_SEEDS`).
/// Liked seeds past which the mix stops moving: about the most the
/// replay's profiles have (its authors have at most 30 papers, one of them
/// hidden), so the rule is not carried past what measured it.
const SEEDS_MEASURED: usize = 30;
/// The learned score counts n / (n + this) after n ratings.
const RATINGS_TO_TRUST: f32 = 5.0;

/// The cold weights of `parts` for a profile of `liked` liked seeds
/// (given and 👍), in their order.
pub fn cold(parts: &[&Part], liked: usize) -> Vec<f32> {
    let ln = (liked.clamp(1, SEEDS_MEASURED) as f32).ln();
    parts.iter().map(|p| (p.cold + p.per_ln_seeds * ln).max(0.0)).collect()
}

/// The cold weights for this ranker's profile.
pub fn cold_for(r: &Ranker) -> Vec<f32> {
    cold(&r.parts(), r.liked())
}

/// Ratings, 👍 and 👎 both among them, before the mix of signals is the
/// reader's own; fewer, and the cold weights hold. Five a weight: fit to
/// CSFCube's ten top ratings the mix cost MAP on both folds, and from 20 it
/// neither cost nor gained (docs/quality.md, "The list as it was shown").
const MIX_MIN_RATINGS: usize = 20;
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
/// signal can stop counting, not count against. `scales`: each signal's
/// scale, in the ranker's order (the background's, or a day's).
pub fn mix(r: &Ranker, scales: &[Scale]) -> Vec<f32> {
    let cold = cold_for(r);
    let seeds = &r.seeds().all;
    let rated = seeds.iter().filter(|s| s.rated || s.negative).count();
    let (liked, disliked) = (seeds.iter().filter(|s| !s.negative).count(), seeds.iter().filter(|s| s.negative).count());
    if rated < MIX_MIN_RATINGS || liked < 2 || disliked == 0 {
        return cold;
    }
    let mut newest: Vec<usize> = (0..seeds.len()).collect();
    newest.sort_by(|&a, &b| seeds[b].added.cmp(&seeds[a].added).then(a.cmp(&b)));
    newest.truncate(MIX_EXAMPLES);
    let papers = r.seeds().as_papers(&newest);
    let as_papers: Vec<Candidate<'_>> = newest.iter().zip(&papers).map(|(&i, p)| r.seeds().candidate(i, p)).collect();
    let own = r.signals(&as_papers);
    let features: Vec<Vec<f32>> = (0..newest.len()).map(|k| scales.iter().zip(&own.values).map(|(s, v)| s.z(v[k])).collect()).collect();
    let total = |neg: bool| newest.iter().filter(|&&i| seeds[i].negative == neg).map(|&i| seeds[i].weight).sum::<f32>();
    let (pos_w, neg_w) = (total(false), total(true));
    if pos_w <= 0.0 || neg_w <= 0.0 {
        return cold;
    }
    let examples: Vec<Example<'_>> = newest
        .iter()
        .zip(&features)
        .map(|(&i, x)| {
            let s = &seeds[i];
            Example { x, liked: !s.negative, weight: s.weight / if s.negative { neg_w } else { pos_w } }
        })
        .collect();
    let prior: Vec<f32> = cold.iter().map(|w| w * MIX_PRIOR_SCALE).collect();
    let model = logistic::train(&examples, cold.len(), MIX_PRIOR_STRENGTH, Some(&prior));
    let w: Vec<f32> = model.w.iter().map(|x| x.max(0.0)).collect();
    let sum: f32 = w.iter().sum();
    if sum <= 1e-6 {
        return cold;
    }
    w.into_iter().map(|x| x / sum).collect()
}

/// One candidate's score with no day to scale by: the signals' raw values
/// under the cold weights `cold`. Only a comparison between candidates
/// scored the same way means anything: the words' BM25 match runs to tens
/// where the cosines stay under 1.
pub fn raw(signals: &Signals, cold: &[f32], i: usize) -> f32 {
    let total: f32 = cold.iter().sum();
    signals.values.iter().zip(cold).map(|(v, w)| w * v[i]).sum::<f32>() / total
}

/// A day fused: each candidate's score, and each part's share of its lift
/// over the day's average (0 to 1 each): the signals in their order, then
/// the reader's model when it joined.
pub struct Fused {
    pub score: Vec<f32>,
    pub shares: Vec<Vec<f32>>,
}

/// Each signal's scale over `signals` (a day's, or the background's),
/// then the reader's model's margins' when given.
pub fn scales_of(signals: &Signals, learned: Option<&[f32]>) -> Vec<Scale> {
    signals.values.iter().map(|v| Scale::of(v)).chain(learned.map(Scale::of)).collect()
}

/// Fuses a day's signals under weights `w`, each read on its scale in
/// `scales` (the signals' in order, then the reader's model's); `learned`,
/// that model's margins and the number of ratings it learned from, joins
/// with the trust those ratings earn.
pub fn fuse(signals: &Signals, w: &[f32], learned: Option<(Vec<f32>, usize)>, scales: &[Scale]) -> Fused {
    let on = |v: &[f32], s: Option<&Scale>| -> Vec<f32> { v.iter().map(|&x| s.map_or(0.0, |s| s.z(x))).collect() };
    let z: Vec<Vec<f32>> = signals.values.iter().zip(0..).map(|(v, k)| on(v, scales.get(k))).collect();
    let n = signals.values.first().map_or(0, Vec::len);
    let (learned, trust) = match learned {
        Some((margins, count)) => (Some(on(&margins, scales.get(signals.values.len()))), count as f32 / (count as f32 + RATINGS_TO_TRUST)),
        None => (None, 0.0),
    };
    let mut score = Vec::with_capacity(n);
    let mut shares = Vec::with_capacity(n);
    for i in 0..n {
        let mut parts: Vec<f32> = z.iter().zip(w).map(|(z, w)| (1.0 - trust) * w * z[i]).collect();
        if let Some(l) = &learned {
            parts.push(trust * l[i]);
        }
        score.push(parts.iter().sum());
        let lift: f32 = parts.iter().map(|p| p.max(0.0)).sum();
        shares.push(parts.iter().map(|p| if lift > 0.0 { p.max(0.0) / lift } else { 0.0 }).collect());
    }
    Fused { score, shares }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank::registry::{id, parts as hybrid_parts};
    use crate::rank::signal::SignalId;
    use crate::rank::HYBRID;
    use crate::rank::{Method, SeedVector, Terms, Vocabulary};
    use crate::vector::dot;

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

    fn weight(w: &[f32], of: SignalId) -> f32 {
        w[HYBRID.iter().position(|r| SignalId(r.part) == of).unwrap()]
    }

    fn cold(liked: usize) -> Vec<f32> {
        super::cold(&hybrid_parts(), liked)
    }

    /// A reader whose 👎 are near their 👍 in meaning but not in words,
    /// `n` ratings of them, and a day of papers half of which share the 👍's
    /// words: the reader's mix, and the cold weights it started from.
    fn mix_after(n: usize) -> (Vec<f32>, Vec<f32>) {
        let mut vocab = Vocabulary::new(None);
        let ratings = [
            ([1.0, 0.0, 0.0], "speculative decoding drafts", false),
            ([0.2, 1.0, 0.0], "speculative decoding trees", false),
            ([0.0, 0.3, 1.0], "speculative decoding verification", false),
            ([0.9, 0.1, 0.1], "protein folding", true),
            ([0.3, 0.9, 0.1], "weather forecasting", true),
        ];
        // Each round of the five a little apart in meaning and words, so
        // that no rating has an exact twin among the others.
        let seeds: Vec<SeedVector> = (0..n)
            .map(|k| {
                let ([x, y, z], words, negative) = ratings[k % ratings.len()];
                let round = (k / ratings.len()) as f32;
                seed(&mut vocab, [x + 0.1 * round, y, z + 0.05 * round], &format!("{words} round{round}"), negative)
            })
            .collect();
        let r = Ranker::new(Method::Hybrid, seeds, &[]);
        let day: Vec<(Vec<f32>, Terms)> = (0..20)
            .map(|i| {
                let t = i as f32 / 20.0;
                let words = if i % 2 == 0 { "speculative decoding" } else { "graph coloring" };
                (vec![1.0 - t, t, 0.5 * t], vocab.terms(words, ""))
            })
            .collect();
        let c: Vec<Candidate<'_>> =
            day.iter().map(|(v, t)| Candidate { paper: &crate::paper::UNKNOWN, vector: v, terms: t, own_seed: None }).collect();
        (mix(&r, &scales_of(&r.signals(&c), None)), cold_for(&r))
    }

    #[test]
    fn a_reader_whose_dislikes_are_near_in_meaning_but_not_in_words_learns_to_weigh_words() {
        let (w, cold) = mix_after(MIX_MIN_RATINGS);
        assert!(weight(&w, id("words")) > weight(&cold, id("words")), "{w:?}");
        assert!((w.iter().sum::<f32>() - 1.0).abs() < 1e-5 && w.iter().all(|&x| x >= 0.0), "{w:?}");
    }

    #[test]
    fn more_liked_seeds_move_weight_from_meaning_to_words() {
        let at = |n: usize, id| weight(&cold(n), id);
        assert_eq!(cold(1), HYBRID.iter().map(|r| r.part.cold).collect::<Vec<_>>());
        assert_eq!(cold(0), cold(1), "no liked seed weighs as one");
        for n in [1, 2, 3, 5, 10, 30, 300] {
            let w = cold(n);
            assert!((w.iter().sum::<f32>() - 1.0).abs() < 1e-6 && w.iter().all(|&x| x >= 0.0), "{n}: {w:?}");
            assert_eq!(at(n, id("fields")), 0.2, "fields keep their weight");
        }
        assert!(at(1, id("words")) < at(2, id("words")) && at(2, id("words")) < at(10, id("words")));
        assert!(at(1, id("nearest")) > at(2, id("nearest")) && at(2, id("nearest")) > at(10, id("nearest")));
        assert!((at(10, id("words")) - (0.3 + 0.1 * 10f32.ln())).abs() < 1e-6);
        assert_eq!(cold(30), cold(300), "no further than the replay measured");
    }

    #[test]
    fn too_few_ratings_keep_the_cold_mix() {
        // One rating short of the mix, the same reader keeps the cold weights.
        let (w, cold) = mix_after(MIX_MIN_RATINGS - 1);
        assert_eq!(w, cold);
    }

    #[test]
    fn shares_split_the_lift_among_the_signals_that_lift() {
        let signals = Signals { names: vec![id("nearest"), id("words")], values: vec![vec![0.0, 1.0], vec![1.0, 0.0]] };
        let f = fuse(&signals, &[0.75, 0.25], None, &scales_of(&signals, None));
        assert!(f.score[1] > f.score[0]);
        assert_eq!(f.shares[1], vec![1.0, 0.0], "the second paper is lifted by the first signal alone");
        assert_eq!(f.shares[0], vec![0.0, 1.0]);
        // The reader's model, once it joins, has its share beside them.
        let f = fuse(&signals, &[0.75, 0.25], Some((vec![0.0, 1.0], 5)), &scales_of(&signals, Some(&[0.0, 1.0])));
        assert_eq!(f.shares[1].len(), 3);
        // Trust 5/(5+5) = ½: the model's ½·1 beside the first signal's ½·¾.
        assert!((f.shares[1][2] - 4.0 / 7.0).abs() < 1e-6, "{:?}", f.shares[1]);
    }
}
