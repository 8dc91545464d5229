//! ROUGE-1, ROUGE-2 and ROUGE-L F1 as SciTLDR reports them (Cachola et
//! al. 2020, `scripts/cal-rouge.py`): words read as [`crate::gist::words`]
//! reads them (Porter stems), and a prediction scored against each of a
//! paper's gold summaries, keeping the one with the best ROUGE-1 and that
//! summary's ROUGE-2 and ROUGE-L ("multi-max"). Checked against Google's
//! `rouge-score` 0.1.2 (docs/quality.md).

use crate::gist::words::stems;
use std::collections::HashMap;

/// F1 of ROUGE-1, -2 and -L, each in 0..=1.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Rouge {
    pub r1: f64,
    pub r2: f64,
    pub rl: f64,
}

/// The score of `prediction` against one `target`.
pub fn score(target: &str, prediction: &str) -> Rouge {
    score_words(&stems(target), &stems(prediction))
}

/// The score against the best of `targets` by ROUGE-1, the first on a tie;
/// zero for no target.
pub fn multi_max(targets: &[String], prediction: &str) -> Rouge {
    let p = stems(prediction);
    let mut best: Option<Rouge> = None;
    for t in targets {
        let s = score_words(&stems(t), &p);
        if best.is_none_or(|b| s.r1 > b.r1) {
            best = Some(s);
        }
    }
    best.unwrap_or_default()
}

fn score_words(target: &[String], prediction: &[String]) -> Rouge {
    Rouge { r1: n_gram_f1(target, prediction, 1), r2: n_gram_f1(target, prediction, 2), rl: lcs_f1(target, prediction) }
}

fn f1(overlap: usize, predicted: usize, wanted: usize) -> f64 {
    if overlap == 0 || predicted == 0 || wanted == 0 {
        return 0.0;
    }
    let (p, r) = (overlap as f64 / predicted as f64, overlap as f64 / wanted as f64);
    2.0 * p * r / (p + r)
}

fn n_gram_f1(target: &[String], prediction: &[String], n: usize) -> f64 {
    let (t, p) = (grams(target, n), grams(prediction, n));
    let overlap = p.iter().map(|(g, k)| (*k).min(t.get(g).copied().unwrap_or(0))).sum();
    f1(overlap, p.values().sum(), t.values().sum())
}

fn grams(words: &[String], n: usize) -> HashMap<&[String], usize> {
    let mut c: HashMap<&[String], usize> = HashMap::new();
    for g in words.windows(n) {
        *c.entry(g).or_default() += 1;
    }
    c
}

fn lcs_f1(target: &[String], prediction: &[String]) -> f64 {
    let mut row = vec![0usize; prediction.len() + 1];
    for t in target {
        let mut diagonal = 0;
        for (j, p) in prediction.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if t == p { diagonal + 1 } else { above.max(row[j]) };
            diagonal = above;
        }
    }
    f1(row[prediction.len()], prediction.len(), target.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values printed by `rouge_score.rouge_scorer.RougeScorer(["rouge1",
    /// "rouge2", "rougeL"], use_stemmer=True).score(target, prediction)`.
    #[test]
    fn scores_agree_with_rouge_score() {
        let s = score(
            "We propose adaptive loss scaling to improve mixed precision training.",
            "We introduce a loss scaling-based training method called adaptive loss scaling.",
        );
        assert!((s.r1 - 0.45454545454545453).abs() < 1e-9, "{s:?}");
        assert!((s.r2 - 0.19999999999999998).abs() < 1e-9, "{s:?}");
        assert!((s.rl - 0.3636363636363636).abs() < 1e-9, "{s:?}");
        assert_eq!(score("", "anything"), Rouge::default());
    }

    #[test]
    fn multi_max_keeps_the_best_targets_other_scores() {
        let targets = ["the cat sat".to_string(), "a cat sat on the mat".to_string()];
        let s = multi_max(&targets, "the cat sat on a mat");
        // R1 against the second target (1.0 vs 0.667); R2 is that target's, not the best R2.
        assert!((s.r1 - 1.0).abs() < 1e-9);
        assert!((s.r2 - 0.4).abs() < 1e-9 && (s.rl - 2.0 / 3.0).abs() < 1e-9, "{s:?}");
    }
}
