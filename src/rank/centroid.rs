//! Closeness to one direction in meaning: the liked seeds' centroid (a
//! hybrid signal, and the `centroid` method), or a direction fixed when the
//! profile is read (`decayed-mean`'s newest-first mean, `logistic`'s
//! learned weights).

use super::logistic::{sigmoid, LinearModel};
use super::signal::{Details, Naming, Part, Seeds, Signal, SignalId};
use super::Candidate;
use crate::vector::dot;

/// The seeds' centre: no weight cold (the replay and CSFCube found the
/// nearest seed better), a reader's ratings may give it some.
pub const CENTROID: Part = Part {
    name: "centroid",
    label: "seeds' centre",
    legend: "how close it sits, in meaning, to the centre of all your seeds",
    cold: 0.0,
    per_ln_seeds: 0.0,
    naming: Naming::Lifting,
};

/// `decayed-mean`'s direction.
pub const DECAYED_MEAN: Part = Part {
    name: "decayed-mean",
    label: "newest seeds",
    legend: "how close it sits to the mean of your seeds, the newest weighing most",
    cold: 0.0,
    per_ln_seeds: 0.0,
    naming: Naming::Lifting,
};

/// `logistic`'s direction.
pub const LOGISTIC: Part = Part {
    name: "logistic",
    label: "learned direction",
    legend: "a model of your seeds against random papers of your library",
    cold: 0.0,
    per_ln_seeds: 0.0,
    naming: Naming::Lifting,
};

pub fn make(seeds: &Seeds) -> Box<dyn Signal> {
    Box::new(Centroid::new(seeds))
}

/// The cosine to the liked seeds' weighted mean. The sum and its squared
/// length are kept, so the cosine without a rated paper's own seed is a
/// dot product, not a new mean.
pub struct Centroid {
    sum: Vec<f32>,
    norm2: f32,
}

impl Centroid {
    pub fn new(seeds: &Seeds) -> Centroid {
        let sum = seeds.weighted_sum(seeds.liked.iter().map(|&i| (i, seeds.all[i].weight)));
        let norm2 = dot(&sum, &sum);
        Centroid { sum, norm2 }
    }

    fn value(&self, seeds: &Seeds, c: &Candidate<'_>) -> f32 {
        let (mut num, mut norm2) = (dot(c.vector, &self.sum), self.norm2);
        if let Some(s) = seeds.own_liked(c) {
            let (own, w) = (&seeds.all[s].vector, seeds.all[s].weight);
            num -= w * dot(c.vector, own);
            norm2 += -2.0 * w * dot(&self.sum, own) + w * w * dot(own, own);
        }
        if norm2 <= 1e-12 {
            0.0
        } else {
            num / norm2.sqrt()
        }
    }
}

impl Signal for Centroid {
    fn id(&self) -> SignalId {
        SignalId(&CENTROID)
    }

    fn score(&self, seeds: &Seeds, day: &[Candidate<'_>]) -> Vec<f32> {
        day.iter().map(|c| self.value(seeds, c)).collect()
    }

    fn explain(&self, _: &Seeds, _: &Candidate<'_>) -> Details {
        Details::Opaque
    }
}

/// A fixed direction and bias; `logistic` reads its margin as a probability.
pub struct Direction {
    id: SignalId,
    model: LinearModel,
    probability: bool,
}

impl Direction {
    /// zotero-arxiv-daily's: the liked seeds' mean, the newest weighted
    /// most (1/(1+log10(rank+1)), rank 0 the newest).
    pub fn decayed_mean(seeds: &Seeds) -> Direction {
        let mut order = seeds.liked.clone();
        order.sort_by(|&a, &b| seeds.all[b].added.cmp(&seeds.all[a].added));
        let w: Vec<(usize, f32)> =
            order.iter().enumerate().map(|(rank, &i)| (i, seeds.all[i].weight / (1.0 + ((rank + 1) as f32).log10()))).collect();
        let total: f32 = w.iter().map(|x| x.1).sum();
        let scale = if total > 0.0 { 1.0 / total } else { 0.0 };
        let w = seeds.weighted_sum(w.into_iter().map(|(i, x)| (i, x * scale)));
        Direction { id: SignalId(&DECAYED_MEAN), model: LinearModel { w, b: 0.0 }, probability: false }
    }

    /// A logistic regression's probability.
    pub fn logistic(model: LinearModel) -> Direction {
        Direction { id: SignalId(&LOGISTIC), model, probability: true }
    }
}

impl Signal for Direction {
    fn id(&self) -> SignalId {
        self.id
    }

    fn score(&self, _: &Seeds, day: &[Candidate<'_>]) -> Vec<f32> {
        day.iter().map(|c| if self.probability { sigmoid(self.model.margin(c.vector)) } else { dot(c.vector, &self.model.w) }).collect()
    }

    fn explain(&self, _: &Seeds, _: &Candidate<'_>) -> Details {
        Details::Opaque
    }
}
