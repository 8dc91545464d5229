//! Offline evaluation of ranking quality: an expert-judged benchmark
//! (`csfcube`) and a replay of the library's own history (`history`).
//!
//! This module holds the pieces both share: ranking metrics, a small
//! deterministic random generator and medians. The metrics follow the
//! definitions of the CSFCube evaluation script (`ranking_eval.py` with
//! `rank_metrics.py` from github.com/iesl/CSFCube) so that our figures can be
//! set beside published ones; where that script departs from textbook
//! definitions the comment says so.

pub mod csfcube;
pub mod feedback;
pub mod history;
pub mod rouge;
pub mod tldr;

use crate::rank::Strength;
use serde::Serialize;

/// Discounted cumulative gain of the first `k` grades, as CSFCube's script
/// computes it (`dcg_at_k(r, k, method=0)`): the gain is the grade itself
/// (not 2^grade − 1) and the weights are 1, 1, 1/log2(3), 1/log2(4), … —
/// ranks 1 and 2 both count fully.
pub fn dcg(grades: &[u8], k: usize) -> f64 {
    grades.iter().take(k).enumerate().map(|(i, &g)| if i == 0 { f64::from(g) } else { f64::from(g) / ((i + 1) as f64).log2() }).sum()
}

/// NDCG at `k` of a ranked list of grades. The ideal ranking is every
/// grade of the list sorted best first: the list is the whole judged pool,
/// so the ideal comes from all judged relevances of the query. A query
/// whose pool has no positive grade scores 0 (as in the CSFCube script).
pub fn ndcg(ranked: &[u8], k: usize) -> f64 {
    let mut ideal = ranked.to_vec();
    ideal.sort_unstable_by(|a, b| b.cmp(a));
    let best = dcg(&ideal, k);
    if best == 0.0 {
        0.0
    } else {
        dcg(ranked, k) / best
    }
}

/// CSFCube's "NDCG%20": NDCG at 20% of the pool size, rounded down as the
/// script's `int(0.20 * n)` does (20 for a pool of 100, 50 for one of 250).
pub fn ndcg_pct20(ranked: &[u8]) -> f64 {
    ndcg(ranked, ranked.len() / 5)
}

/// Average precision of a ranked list of grades, a grade of at least
/// `threshold` being relevant: the mean of precision@rank over the ranks of
/// the relevant items. The list is the whole judged pool, so the
/// denominator is every relevant judged item; no relevant item gives 0.
pub fn average_precision(ranked: &[u8], threshold: u8) -> f64 {
    let mut hits = 0usize;
    let mut sum = 0.0;
    for (i, &g) in ranked.iter().enumerate() {
        if g >= threshold {
            hits += 1;
            sum += hits as f64 / (i + 1) as f64;
        }
    }
    if hits == 0 {
        0.0
    } else {
        sum / hits as f64
    }
}

/// Expected reciprocal rank of the best of `k` relevant items placed at
/// random among `n`: the baseline any ranking method has to beat.
pub fn random_reciprocal_rank(n: usize, k: usize) -> f64 {
    if k == 0 || n == 0 || k > n {
        return 0.0;
    }
    // P(best rank >= r) = C(n-r+1, k) / C(n, k), built up one rank at a time.
    let mut at_least = 1.0f64;
    let mut expected = 0.0;
    for r in 1..=(n - k + 1) {
        let left = (n - r + 1) as f64;
        let next = at_least * (left - k as f64) / left;
        expected += (at_least - next) / r as f64;
        at_least = next;
    }
    expected
}

/// Median of a list of counts (the lower middle one for an even count).
pub fn median(values: &[usize]) -> usize {
    let mut v = values.to_vec();
    v.sort_unstable();
    if v.is_empty() {
        0
    } else {
        v[(v.len() - 1) / 2]
    }
}

/// xorshift64*: a few lines, deterministic for a given seed on every
/// platform, and plenty for sampling evaluation cases (not for secrets).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // Spread the seed (splitmix64 step) so that seeds 0, 1, 2 … start far
        // apart; the state must never be 0.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)).max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (n > 0); the modulo bias is far below what matters here.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// `k` distinct items of `items` in random order (all of them when k ≥ len).
    pub fn sample<T: Clone>(&mut self, items: &[T], k: usize) -> Vec<T> {
        let mut v = items.to_vec();
        let k = k.min(v.len());
        for i in 0..k {
            let j = i + self.below(v.len() - i);
            v.swap(i, j);
        }
        v.truncate(k);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn dcg_uses_linear_gains_and_full_weight_for_the_first_two_ranks() {
        // By hand: 3 + 1/1 + 2/log2(3) + 0/log2(4).
        let want = 3.0 + 1.0 + 2.0 / 3f64.log2();
        assert!(close(dcg(&[3, 1, 2, 0], 4), want));
        assert!(close(dcg(&[3, 1, 2, 0], 1), 3.0));
        // The doctests of rank_metrics.py (method 0), which CSFCube uses.
        let r = [3, 2, 3, 0, 0, 1, 2, 2, 3, 0];
        assert!(close(dcg(&r, 2), 5.0));
        assert!(close(dcg(&r, 10), 9.605_117_739_188_811));
        assert!(close(ndcg(&[2, 1, 2, 0], 4), 0.920_303_207_764_292_2));
    }

    #[test]
    fn ndcg_takes_its_ideal_from_the_whole_pool_not_the_top_k() {
        // Ranked [1, 3, 0, 2]; at k = 2 the ideal is the best two of the
        // whole pool (3, 2), not a re-sort of the top two (3, 1).
        let ranked = [1, 3, 0, 2];
        // DCG@2 = 1 + 3 = 4; ideal DCG@2 = 3 + 2 = 5.
        assert!(close(ndcg(&ranked, 2), 4.0 / 5.0));
        // At k = 4: DCG = 1 + 3 + 0 + 2/2 = 5; ideal = 3 + 2 + 1/log2(3) + 0.
        assert!(close(ndcg(&ranked, 4), 5.0 / (5.0 + 1.0 / 3f64.log2())));
        assert!(close(ndcg(&[3, 2, 1, 0], 4), 1.0));
        assert!(close(ndcg(&[0, 0, 0], 3), 0.0));
        assert!(close(ndcg(&[2, 1], 0), 0.0));
    }

    #[test]
    fn ndcg_pct20_cuts_at_a_fifth_of_the_pool() {
        // Ten items: k = 2. Ranked [0, 3, 3, …]: DCG@2 = 0 + 3; ideal 3 + 3.
        let mut ranked = vec![0u8, 3, 3];
        ranked.resize(10, 0);
        assert!(close(ndcg_pct20(&ranked), 0.5));
        // Pools of 100 and 250 cut at 20 and 50, as int(0.2 * n) does.
        assert_eq!(100 / 5, 20);
        assert_eq!(250 / 5, 50);
    }

    #[test]
    fn average_precision_counts_grades_from_the_threshold_up() {
        // Relevant (>= 2) at ranks 1, 3 and 5: (1/1 + 2/3 + 3/5) / 3.
        let ranked = [3, 0, 2, 1, 2];
        assert!(close(average_precision(&ranked, 2), (1.0 + 2.0 / 3.0 + 0.6) / 3.0));
        // Grade 1 is not relevant at threshold 2 but is at threshold 1.
        assert!(close(average_precision(&[1, 2], 2), 0.5));
        assert!(close(average_precision(&[1, 2], 1), 1.0));
        assert!(close(average_precision(&[0, 1, 1], 2), 0.0));
        // The rank_metrics.py doctest.
        let r = [1, 1, 0, 1, 0, 1, 0, 0, 0, 1];
        assert!(close(average_precision(&r, 1), 0.783_333_333_333_333_3));
    }

    #[test]
    fn random_reciprocal_rank_matches_small_cases() {
        // One item among 4: (1 + 1/2 + 1/3 + 1/4) / 4.
        assert!(close(random_reciprocal_rank(4, 1), (1.0 + 0.5 + 1.0 / 3.0 + 0.25) / 4.0));
        // Two among 3: best rank 1 with p 2/3, rank 2 with p 1/3.
        assert!(close(random_reciprocal_rank(3, 2), 2.0 / 3.0 + 1.0 / 6.0));
        assert!(close(random_reciprocal_rank(5, 5), 1.0));
        assert!(close(random_reciprocal_rank(0, 1), 0.0));
    }

    #[test]
    fn median_and_rng_are_deterministic() {
        assert_eq!(median(&[5, 1, 3]), 3);
        assert_eq!(median(&[4, 1, 3, 2]), 2);
        assert_eq!(median(&[]), 0);
        let items: Vec<u32> = (0..100).collect();
        let a = Rng::new(7).sample(&items, 10);
        let b = Rng::new(7).sample(&items, 10);
        assert_eq!(a, b);
        assert_ne!(a, Rng::new(8).sample(&items, 10));
        let mut distinct = a.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), 10);
        assert_eq!(Rng::new(1).sample(&items, 500).len(), 100);
    }
}

/// How often a paper was relevant at each strength, and across bands of
/// the calibrated score (a reliability table): whether "strong" means
/// more than "worth a look", and that more than "weak".
#[derive(Debug, Clone, Serialize)]
pub struct Reliability {
    pub by_strength: Vec<ReliabilityRow>,
    pub by_score: Vec<ReliabilityRow>,
}

/// Papers in one group and how many of them were relevant, with the
/// share's 95 % Wilson interval.
#[derive(Debug, Clone, Serialize)]
pub struct ReliabilityRow {
    pub label: String,
    pub papers: usize,
    pub relevant: usize,
    pub share: f64,
    pub low: f64,
    pub high: f64,
}

impl ReliabilityRow {
    fn of(label: String, relevant: impl Iterator<Item = bool>) -> ReliabilityRow {
        let (mut papers, mut yes) = (0, 0);
        for r in relevant {
            papers += 1;
            yes += usize::from(r);
        }
        let (share, low, high) = wilson(yes, papers);
        ReliabilityRow { label, papers, relevant: yes, share, low, high }
    }
}

/// The share and its 95 % Wilson score interval.
fn wilson(yes: usize, n: usize) -> (f64, f64, f64) {
    if n == 0 {
        return (0.0, 0.0, 0.0);
    }
    let (n, p, z) = (n as f64, yes as f64 / n as f64, 1.96f64);
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    (p, (centre - half).max(0.0), (centre + half).min(1.0))
}

impl Reliability {
    /// From each scored paper: its calibrated score, its strength, and
    /// whether it was relevant.
    pub fn of(scored: &[(f32, Strength, bool)]) -> Reliability {
        let by_strength = Strength::ALL
            .iter()
            .map(|&s| ReliabilityRow::of(s.label().to_string(), scored.iter().filter(|x| x.1 == s).map(|x| x.2)))
            .collect();
        let by_score = (0..10)
            .map(|b| {
                let (lo, hi) = (b as f32 / 10.0, (b + 1) as f32 / 10.0);
                let inside = |x: f32| x >= lo && (x < hi || (b == 9 && x <= 1.0));
                ReliabilityRow::of(format!("{lo:.1}–{hi:.1}"), scored.iter().filter(|x| inside(x.0)).map(|x| x.2))
            })
            .filter(|r| r.papers > 0)
            .collect();
        Reliability { by_strength, by_score }
    }
}

#[cfg(test)]
mod reliability_tests {
    use super::*;

    #[test]
    fn wilson_matches_a_known_interval() {
        // 8 of 10: 0.8, Wilson 95 % about 0.490–0.943.
        let (p, lo, hi) = wilson(8, 10);
        assert!((p - 0.8).abs() < 1e-9 && (lo - 0.4902).abs() < 1e-3 && (hi - 0.9433).abs() < 1e-3, "{lo} {hi}");
        assert_eq!(wilson(0, 0), (0.0, 0.0, 0.0));
    }

    #[test]
    fn rows_count_each_strength_and_band() {
        let r = Reliability::of(&[(0.9, Strength::Strong, true), (0.8, Strength::Strong, false), (0.1, Strength::Weak, false)]);
        assert_eq!((r.by_strength[0].papers, r.by_strength[0].relevant), (2, 1));
        assert_eq!(r.by_strength[1].papers, 0);
        assert_eq!(r.by_score.iter().map(|b| b.papers).sum::<usize>(), 3);
    }
}
