//! Does the ranking learn from ratings? A simulated reader on CSFCube: the
//! query paper is the profile's one seed; the reader rates `n` papers of
//! the judged pool (grade ≥ 2 → 👍, else 👎), the list's first `n` as the
//! profile without ratings ranks it, or the `n` it is least sure of, and
//! the ranking is then retrained once. The page does the same: a rating
//! does not move the list under the reader, who re-ranks when they choose.
//! It also keeps the comparison fair: the rated papers, and so the unrated
//! remainder, are the same whatever the ratings teach, where re-ranking
//! after each rating would hand a learner that finds relevant papers
//! sooner a remainder emptied of them. The remainder is scored against the
//! ranking with no ratings on that same remainder, so the two figures are
//! comparable.

use super::csfcube::{self, Encoded, Query, QueryResult, RELEVANT_GRADE};
use crate::rank::{self, Candidate, Method};
use anyhow::Result;
use serde::Serialize;

/// Which papers the simulated reader rates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Choice {
    /// The list's first papers: what a reader of the digest sees first.
    Top,
    /// The papers nearest the decision boundary (`daily --unsure`).
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
    /// The rated papers, in the order the reader rated them.
    pub rated: Vec<String>,
}

pub fn simulate(query: &Query, papers: &Encoded, background: &[String], method: Method, choice: Choice, n: usize) -> Result<Outcome> {
    let query_seed = papers.seed(&query.pid, false, false)?;
    // The pool in id order: the file lists it best grade first, so a tie
    // broken by position would leak the grades.
    let mut by_id: Vec<usize> = (0..query.pool.len()).collect();
    by_id.sort_by(|&a, &b| query.pool[a].0.cmp(&query.pool[b].0));
    let candidates: Vec<Candidate<'_>> = by_id.iter().map(|&i| papers.candidate(&query.pool[i].0)).collect::<Result<_>>()?;
    let shown = papers.ranker(method, vec![query_seed.clone()], background)?;
    let n = n.min(query.pool.len());
    let picked: Vec<usize> = match choice {
        Choice::Top => {
            let scores = shown.score_all(&candidates);
            let mut order: Vec<usize> = (0..candidates.len()).collect();
            // A stable sort: ties keep id order, as in the evaluation's ranking.
            order.sort_by(|&a, &b| scores[b].order.total_cmp(&scores[a].order));
            order.truncate(n);
            order
        }
        // Ties go to the earlier candidate, here the smaller id.
        Choice::Unsure => rank::most_uncertain(&shown, &papers.vectors_of(background), &candidates, n),
    }
    .into_iter()
    .map(|j| by_id[j])
    .collect();
    let mut seeds = vec![query_seed.clone()];
    let mut liked = 0;
    for &i in &picked {
        let (pid, grade) = &query.pool[i];
        let good = *grade >= RELEVANT_GRADE;
        liked += usize::from(good);
        seeds.push(papers.seed(pid, !good, true)?);
    }
    let rated: Vec<String> = picked.iter().map(|&i| query.pool[i].0.clone()).collect();
    let remainder = Query {
        pid: query.pid.clone(),
        facet: query.facet.clone(),
        pool: query.pool.iter().filter(|(p, _)| !rated.contains(p)).cloned().collect(),
    };
    let with = papers.ranker(method, seeds, background)?;
    let without = papers.ranker(method, vec![query_seed], background)?;
    let with = csfcube::score(&remainder, &csfcube::rank_pool(&remainder, papers, &with)?);
    let without = csfcube::score(&remainder, &csfcube::rank_pool(&remainder, papers, &without)?);
    Ok(Outcome { with, without, liked, rated })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn unit(v: [f32; 3]) -> Vec<f32> {
        let n = crate::vector::dot(&v, &v).sqrt();
        v.iter().map(|x| x / n).collect()
    }

    /// A 👍 for `a` would lift its near twin `c` above `b` if the list were
    /// re-ranked after each rating; the page keeps its order until the
    /// reader asks, so the reader's second rating goes to `b`.
    #[test]
    fn the_reader_rates_the_list_as_it_was_shown() {
        let vectors: HashMap<String, Vec<f32>> = [
            ("q", [1.0, 0.0, 0.0]),
            ("a", [1.0, 0.1, 0.0]),
            ("b", [1.0, 0.0, 0.3]),
            ("c", [1.0, 0.35, 0.0]),
            ("d", [0.0, 1.0, 0.0]),
            ("e", [0.0, 0.0, 1.0]),
        ]
        .into_iter()
        .map(|(p, v)| (p.to_string(), unit(v)))
        .collect();
        let papers = Encoded { vectors, terms: HashMap::new() };
        // Best grade first, as CSFCube's file lists a pool.
        let pool = [("a", 3), ("c", 2), ("e", 2), ("b", 0), ("d", 0)].map(|(p, g)| (p.to_string(), g)).to_vec();
        let query = Query { pid: "q".into(), facet: "method".into(), pool };
        let o = simulate(&query, &papers, &[], Method::Knn, Choice::Top, 2).unwrap();
        assert_eq!(o.rated, ["a", "b"], "re-ranked after a's 👍, c would come second");
        assert_eq!(o.liked, 1, "a 👍, then b's 👎");
        assert_eq!(o.with.relevant, 2, "c and e are left to rank");
        assert_eq!(o.with.pool, 3);
        // d and e tie (orthogonal to the query): the smaller id is shown
        // first, not the one the file lists first.
        let o = simulate(&query, &papers, &[], Method::Knn, Choice::Top, 4).unwrap();
        assert_eq!(o.rated, ["a", "b", "c", "d"]);
        assert_eq!((o.liked, o.with.relevant, o.with.pool), (2, 1, 1));
    }
}
