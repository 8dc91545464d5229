//! Does the ranking learn from ratings? A simulated reader on CSFCube: the
//! query paper is the profile's one seed; the reader rates `n` papers of
//! the judged pool one at a time (grade ≥ 2 → 👍, else 👎), each chosen
//! from the current ranking's top or by the unsure rule, and the ranking is
//! retrained after each rating, as the page does. The unrated remainder is
//! then scored against the ranking with no ratings on that same remainder,
//! so the two figures are comparable.

use super::csfcube::{self, Encoded, Query, QueryResult, RELEVANT_GRADE};
use crate::rank::{self, Candidate, Method, Ranker};
use anyhow::Result;
use serde::Serialize;
use std::collections::HashSet;

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

pub fn simulate(query: &Query, papers: &Encoded, background: &[Vec<f32>], method: Method, choice: Choice, n: usize) -> Result<Outcome> {
    let query_seed = papers.seed(&query.pid, false, false)?;
    let mut seeds = vec![query_seed.clone()];
    let mut rated: HashSet<&str> = HashSet::new();
    let mut liked = 0;
    for _ in 0..n.min(query.pool.len()) {
        let open: Vec<&(String, u8)> = query.pool.iter().filter(|(p, _)| !rated.contains(p.as_str())).collect();
        let candidates: Vec<Candidate<'_>> = open.iter().map(|(p, _)| papers.candidate(p)).collect::<Result<_>>()?;
        let ranker = Ranker::new(method, seeds.clone(), background);
        let next = match choice {
            Choice::Top => {
                let scores = ranker.score_all(&candidates);
                // Ties go to the smaller id, as in the evaluation's ranking.
                (0..open.len())
                    .max_by(|&a, &b| scores[a].score.total_cmp(&scores[b].score).then_with(|| open[b].0.cmp(&open[a].0)))
                    .unwrap_or(0)
            }
            Choice::Unsure => rank::most_uncertain(&ranker, background, &candidates, 1).first().copied().unwrap_or(0),
        };
        let (pid, grade) = open[next];
        let good = *grade >= RELEVANT_GRADE;
        liked += usize::from(good);
        seeds.push(papers.seed(pid, !good, true)?);
        rated.insert(pid.as_str());
    }
    let remainder = Query {
        pid: query.pid.clone(),
        facet: query.facet.clone(),
        pool: query.pool.iter().filter(|(p, _)| !rated.contains(p.as_str())).cloned().collect(),
    };
    let with = Ranker::new(method, seeds, background);
    let without = Ranker::new(method, vec![query_seed], background);
    let with = csfcube::score(&remainder, &csfcube::rank_pool(&remainder, papers, &with)?);
    let without = csfcube::score(&remainder, &csfcube::rank_pool(&remainder, papers, &without)?);
    Ok(Outcome { with, without, liked })
}
