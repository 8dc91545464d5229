//! Does the ranking learn from ratings? A simulated reader on CSFCube: the
//! query paper is the profile's one seed; the reader rates `n` papers of
//! the judged pool one at a time (grade ≥ 2 → 👍, else 👎), each chosen
//! from the current ranking's top or by the unsure rule, and the ranking is
//! retrained after each rating, as the page does. The unrated remainder is
//! then scored against the ranking with no ratings on that same remainder,
//! so the two figures are comparable.

use super::csfcube::{self, Query, QueryResult, RELEVANT_GRADE};
use crate::rank::{self, Method, Ranker, SeedVector};
use anyhow::{Context, Result};
use serde::Serialize;
use std::collections::{HashMap, HashSet};

/// Which paper the simulated reader rates next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Choice {
    /// The best-ranked unrated paper: what a reader of the digest sees first.
    Top,
    /// The unrated paper nearest the decision boundary (`daily --unsure`).
    Unsure,
}

impl Choice {
    pub const ALL: [Choice; 2] = [Choice::Top, Choice::Unsure];

    pub fn name(self) -> &'static str {
        match self {
            Choice::Top => "top",
            Choice::Unsure => "unsure",
        }
    }
}

/// Metrics of one query after `n` ratings, and without them, on the same remainder.
pub struct Outcome {
    pub with: QueryResult,
    pub without: QueryResult,
    pub liked: usize,
}

fn seed(label: &str, vector: &[f32], negative: bool) -> SeedVector {
    SeedVector { label: label.to_string(), vector: vector.to_vec(), weight: 1.0, negative, added: String::new() }
}

pub fn simulate(
    query: &Query,
    vectors: &HashMap<String, Vec<f32>>,
    background: &[Vec<f32>],
    method: Method,
    choice: Choice,
    n: usize,
) -> Result<Outcome> {
    let vector_of = |pid: &str| vectors.get(pid).map(Vec::as_slice).with_context(|| format!("no vector for paper {pid}"));
    let query_seed = seed(&query.pid, vector_of(&query.pid)?, false);
    let mut seeds = vec![query_seed.clone()];
    let mut rated: HashSet<&str> = HashSet::new();
    let mut liked = 0;
    for _ in 0..n.min(query.pool.len()) {
        let open: Vec<&(String, u8)> = query.pool.iter().filter(|(p, _)| !rated.contains(p.as_str())).collect();
        let vecs: Vec<&[f32]> = open.iter().map(|(p, _)| vector_of(p)).collect::<Result<_>>()?;
        let next = match choice {
            Choice::Top => {
                let ranker = Ranker::new(method, seeds.clone(), background);
                // Ties go to the smaller id, as in the evaluation's ranking.
                (0..open.len())
                    .max_by(|&a, &b| {
                        ranker.score(vecs[a]).score.total_cmp(&ranker.score(vecs[b]).score).then_with(|| open[b].0.cmp(&open[a].0))
                    })
                    .unwrap_or(0)
            }
            Choice::Unsure => rank::most_uncertain(&seeds, background, &vecs, 1).first().copied().unwrap_or(0),
        };
        let (pid, grade) = open[next];
        let good = *grade >= RELEVANT_GRADE;
        liked += usize::from(good);
        seeds.push(seed(pid, vecs[next], !good));
        rated.insert(pid.as_str());
    }
    let remainder = Query {
        pid: query.pid.clone(),
        facet: query.facet.clone(),
        pool: query.pool.iter().filter(|(p, _)| !rated.contains(p.as_str())).cloned().collect(),
    };
    let with = Ranker::new(method, seeds, background);
    let without = Ranker::new(method, vec![query_seed], background);
    let with = csfcube::score(&remainder, &grades_by(&remainder, vectors, |v| with.score(v).score)?);
    let without = csfcube::score(&remainder, &grades_by(&remainder, vectors, |v| without.score(v).score)?);
    Ok(Outcome { with, without, liked })
}

/// Grades in descending score order; ties to the smaller id (file order
/// would leak the answer: the pools list the best grades first).
fn grades_by(q: &Query, vectors: &HashMap<String, Vec<f32>>, score: impl Fn(&[f32]) -> f32) -> Result<Vec<u8>> {
    let mut scored = Vec::with_capacity(q.pool.len());
    for (pid, grade) in &q.pool {
        let v = vectors.get(pid).with_context(|| format!("no vector for paper {pid}"))?;
        scored.push((score(v), pid.as_str(), *grade));
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    Ok(scored.into_iter().map(|(_, _, g)| g).collect())
}
