//! A per-profile linear model: weighted, L2-regularised logistic regression
//! over paper vectors, trained afresh after each rating (a few hundred to a
//! few thousand examples in 384 dimensions need nothing cleverer than
//! accelerated gradient descent).

use super::signal::Seeds;
use crate::vector::dot;

/// One training example: a paper vector, its label and its weight.
pub struct Example<'a> {
    pub x: &'a [f32],
    pub liked: bool,
    pub weight: f32,
}

#[derive(Debug, Clone, Default)]
pub struct LinearModel {
    pub w: Vec<f32>,
    pub b: f32,
}

impl LinearModel {
    pub fn margin(&self, x: &[f32]) -> f32 {
        dot(&self.w, x) + self.b
    }

    pub fn probability(&self, x: &[f32]) -> f32 {
        sigmoid(self.margin(x))
    }
}

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Steps of Nesterov-accelerated gradient descent: the loss is smooth and
/// strongly convex, so this many reach a model whose order no longer moves.
const STEPS: usize = 120;

/// Share of the negative weight the 👎 seeds carry when there are any;
/// random library papers carry the rest (Scholar Inbox leans on 👎
/// likewise). The reader's learned signal and the unsure rule both weigh so.
pub const DISLIKED_SHARE: f32 = 0.9;

/// Minimises Σ weight·logloss + ½·l2·|w − prior|² (the bias unpenalised):
/// a Gaussian prior centred on `prior` (zero when none), so that a few
/// examples move the model a little away from it and many move it far.
pub fn train(examples: &[Example<'_>], dim: usize, l2: f32, prior: Option<&[f32]>) -> LinearModel {
    let centre: Vec<f32> = match prior {
        Some(p) if p.len() == dim => p.to_vec(),
        _ => vec![0.0; dim],
    };
    let m = LinearModel { w: centre.clone(), b: 0.0 };
    if examples.is_empty() || dim == 0 {
        return m;
    }
    // The log loss's curvature is at most a quarter of Σ weight·(|x|² + 1)
    // (the 1 for the bias), plus the penalty's: one over that is a step
    // that cannot overshoot.
    let total: f32 = examples.iter().map(|e| e.weight * (dot(e.x, e.x) + 1.0)).sum();
    let step = 1.0 / (0.25 * total + l2);
    let mut prev = m.clone();
    let mut look = m.clone();
    let mut grad = vec![0f32; dim];
    for k in 0..STEPS {
        grad.iter_mut().for_each(|g| *g = 0.0);
        let mut gb = 0.0;
        for e in examples {
            let y = if e.liked { 1.0 } else { 0.0 };
            let c = (look.probability(e.x) - y) * e.weight;
            for (g, xi) in grad.iter_mut().zip(e.x) {
                *g += c * xi;
            }
            gb += c;
        }
        let next_w: Vec<f32> = look.w.iter().zip(&grad).zip(&centre).map(|((wi, g), c)| wi - step * (g + l2 * (wi - c))).collect();
        let next_b = look.b - step * gb;
        let momentum = k as f32 / (k as f32 + 3.0);
        for ((lw, nw), pw) in look.w.iter_mut().zip(&next_w).zip(&prev.w) {
            *lw = nw + momentum * (nw - pw);
        }
        look.b = next_b + momentum * (next_b - prev.b);
        prev = LinearModel { w: next_w, b: next_b };
    }
    prev
}

/// The liked seeds against the disliked seeds and library background,
/// each side weighing the same in all. `disliked_share` gives the
/// disliked seeds that share of the negative side (the rest to the
/// background); without it every negative example weighs the same. With
/// nothing to learn from, the liked seeds' unweighted mean direction.
pub fn liked_against(seeds: &Seeds, background: &[Vec<f32>], l2: f32, disliked_share: Option<f32>) -> LinearModel {
    let dim = seeds.dim();
    let bg: Vec<&Vec<f32>> = background.iter().filter(|v| v.len() == dim).collect();
    let side = |set: &[usize]| set.iter().map(|&i| seeds.all[i].weight).sum::<f32>();
    let (pos_w, neg_w) = (side(&seeds.liked), side(&seeds.disliked));
    if pos_w <= 0.0 || (neg_w <= 0.0 && bg.is_empty()) {
        let mut w = seeds.weighted_sum(seeds.liked.iter().map(|&i| (i, 1.0)));
        let norm = dot(&w, &w).sqrt();
        if norm > 0.0 {
            w.iter_mut().for_each(|x| *x /= norm);
        }
        return LinearModel { w, b: 0.0 };
    }
    let (neg_scale, bg_scale) = match disliked_share {
        Some(share) if neg_w > 0.0 && !bg.is_empty() => (share / neg_w, (1.0 - share) / bg.len() as f32),
        Some(_) if neg_w > 0.0 => (1.0 / neg_w, 0.0),
        _ => {
            let total = neg_w + bg.len() as f32;
            (1.0 / total, 1.0 / total)
        }
    };
    let mut examples = Vec::with_capacity(seeds.all.len() + bg.len());
    for &i in &seeds.liked {
        examples.push(Example { x: &seeds.all[i].vector, liked: true, weight: seeds.all[i].weight / pos_w });
    }
    for &i in &seeds.disliked {
        examples.push(Example { x: &seeds.all[i].vector, liked: false, weight: seeds.all[i].weight * neg_scale });
    }
    for v in bg {
        examples.push(Example { x: v, liked: false, weight: bg_scale });
    }
    train(&examples, dim, l2, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_to_separate_two_directions() {
        let a = [1.0f32, 0.0];
        let b = [0.0f32, 1.0];
        let ex = [Example { x: &a, liked: true, weight: 1.0 }, Example { x: &b, liked: false, weight: 1.0 }];
        let m = train(&ex, 2, 0.01, None);
        assert!(m.probability(&a) > 0.8, "{}", m.probability(&a));
        assert!(m.probability(&b) < 0.2, "{}", m.probability(&b));
    }

    #[test]
    fn a_strong_prior_holds_the_model_near_it() {
        let a = [1.0f32, 0.0];
        let b = [0.0f32, 1.0];
        // One example says b; the prior says a.
        let ex = [Example { x: &b, liked: true, weight: 1.0 }, Example { x: &a, liked: false, weight: 1.0 }];
        let prior = [4.0f32, 0.0];
        let held = train(&ex, 2, 100.0, Some(&prior));
        assert!(held.margin(&a) > held.margin(&b), "{held:?}");
        let free = train(&ex, 2, 0.01, Some(&prior));
        assert!(free.margin(&b) > free.margin(&a), "{free:?}");
    }
}
