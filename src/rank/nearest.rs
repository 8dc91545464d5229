//! Closeness in meaning to the nearest liked seeds: the hybrid's first
//! signal (the single nearest), and with a pull away from the 👎, `knn`.
//! Its explanation is the closest seeds, which every pick's reason names.

use super::signal::{Details, Naming, Part, SeedMatch, Seeds, Signal, SignalId};
use super::Candidate;
use crate::vector::dot;

/// Seeds a reason names.
const REASONS: usize = 2;

/// The hybrid's: how close a paper sits to the reader's nearest seed.
pub const NEAREST: Part = Part {
    name: "nearest",
    label: "nearest seed",
    legend: "how close its title and abstract sit, in meaning, to your nearest seed",
    cold: 0.5,
    per_ln_seeds: -super::words::PER_LN_SEEDS,
    naming: Naming::Always,
};

/// `knn`'s.
pub const KNN: Part = Part {
    name: "knn",
    label: "nearest seeds",
    legend: "how close it sits, in meaning, to your three nearest seeds, less how close to what you marked not interested",
    cold: 0.0,
    per_ln_seeds: 0.0,
    naming: Naming::Always,
};

pub fn make(_: &Seeds) -> Box<dyn Signal> {
    Box::new(Nearest::one())
}

/// The mean cosine to the `k` nearest liked seeds (each times its weight),
/// less `pull` times the cosine to the nearest disliked one.
pub struct Nearest {
    id: SignalId,
    k: usize,
    pull: f32,
}

impl Nearest {
    /// The hybrid's: the single nearest liked seed.
    pub fn one() -> Nearest {
        Nearest { id: SignalId(&NEAREST), k: 1, pull: 0.0 }
    }

    /// `knn`: the three nearest, half the nearest 👎's cosine taken off.
    pub fn knn() -> Nearest {
        Nearest { id: SignalId(&KNN), k: 3, pull: 0.5 }
    }

    fn value(&self, seeds: &Seeds, c: &Candidate<'_>) -> f32 {
        let mut sims: Vec<f32> = Vec::with_capacity(seeds.liked.len());
        for &i in seeds.liked.iter().filter(|&&i| Some(i) != c.own_seed) {
            sims.push(dot(c.vector, &seeds.all[i].vector) * seeds.all[i].weight);
        }
        let mut value = mean_of_largest(&mut sims, self.k);
        if self.pull > 0.0 {
            let mut against: Vec<f32> = seeds
                .disliked
                .iter()
                .filter(|&&i| Some(i) != c.own_seed)
                .map(|&i| dot(c.vector, &seeds.all[i].vector) * seeds.all[i].weight)
                .collect();
            value -= self.pull * mean_of_largest(&mut against, 1).max(0.0);
        }
        value
    }
}

impl Signal for Nearest {
    fn id(&self) -> SignalId {
        self.id
    }

    fn score(&self, seeds: &Seeds, day: &[Candidate<'_>]) -> Vec<f32> {
        day.iter().map(|c| self.value(seeds, c)).collect()
    }

    fn explain(&self, seeds: &Seeds, c: &Candidate<'_>) -> Details {
        Details::Seeds(closest(seeds, c, REASONS))
    }
}

/// The `n` liked seeds closest to `c` by plain cosine (not its own), best
/// first.
fn closest(seeds: &Seeds, c: &Candidate<'_>, n: usize) -> Vec<SeedMatch> {
    let mut best: Vec<SeedMatch> = Vec::with_capacity(n + 1);
    for &seed in seeds.liked.iter().filter(|&&i| Some(i) != c.own_seed) {
        let similarity = dot(c.vector, &seeds.all[seed].vector);
        if best.len() < n || best.last().is_some_and(|b| similarity > b.similarity) {
            let at = best.iter().position(|b| similarity > b.similarity).unwrap_or(best.len());
            best.insert(at, SeedMatch { seed, similarity });
            best.truncate(n);
        }
    }
    best
}

/// The mean of the `k` largest values (0 when there are none), in linear time.
pub fn mean_of_largest(xs: &mut [f32], k: usize) -> f32 {
    let k = k.min(xs.len());
    if k == 0 {
        return 0.0;
    }
    if k < xs.len() {
        xs.select_nth_unstable_by(k - 1, |a, b| b.total_cmp(a));
    }
    xs[..k].iter().sum::<f32>() / k as f32
}
