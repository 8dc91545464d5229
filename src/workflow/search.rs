//! Finding papers by what the user types: an arXiv id, an author's name,
//! words and "quoted phrases" (BM25 over the lexical index), and meaning
//! (the query's embedding), fused by reciprocal rank. `search` and `serve`
//! both call [`find`].

use crate::library::lexical::LexicalIndex;
use crate::library::vectors::RowMeta;
use crate::library::{Library, Vectors};
use crate::paper::ArxivId;
use crate::workflow::neighbours::{Neighbour, Scope};
use anyhow::Result;
use std::collections::HashMap;

/// How deep the ranked kinds of match (words, meaning) are read before
/// fusing: they have no natural end, only a floor.
const DEPTH: usize = 50;
/// How deep the exact kinds (a name, a place) are read: all of them, up to
/// this many, so that a name's count is the true one and paging reaches
/// every paper by it.
const EXACT_DEPTH: usize = 20_000;
/// Reciprocal-rank fusion's constant (Cormack et al.'s 60).
const RRF_K: f32 = 60.0;
/// A meaning match counts only this close: below it the nearest papers are
/// noise, not an answer (all-MiniLM-L6-v2 puts unrelated computer-science
/// abstracts at 0.0–0.3 of each other; docs/quality.md).
const MEANING_FLOOR: f32 = 0.35;
/// A word match counts only within this share of the best BM25 score, so
/// one common word of a long query does not make a match.
const WORDS_FLOOR: f32 = 0.3;

/// The kinds of match, each a ranked list fused with the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Match {
    Id,
    Author,
    Affiliation,
    Words,
    Meaning,
}

impl Match {
    fn weight(self) -> f32 {
        match self {
            // An exact id is the answer, whatever else matched.
            Match::Id => 100.0,
            Match::Author | Match::Affiliation => 1.5,
            Match::Words | Match::Meaning => 1.0,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Match::Id => "id",
            Match::Author => "author",
            Match::Affiliation => "affiliation",
            Match::Words => "words",
            Match::Meaning => "meaning",
        }
    }
}

/// A paper found, with the fused score (1 = first in every list that
/// found it) and how it matched.
#[derive(Debug, Clone)]
pub struct Found {
    pub hit: Neighbour,
    pub matched: Vec<Match>,
}

/// The arXiv id `query` is, when it is one and nothing else (a sentence
/// that mentions an id is searched as words).
pub fn id_query(query: &str) -> Option<ArxivId> {
    let query = query.trim();
    ArxivId::parse(query).filter(|_| !query.contains(char::is_whitespace))
}

/// One page of what a search found, and how many it found in all.
#[derive(Debug, Clone, Default)]
pub struct Results {
    pub found: Vec<Found>,
    /// Every paper the search found in the scope: each paper by a name or
    /// place it matched, and those words and meaning ranked above their
    /// floors.
    pub total: usize,
    /// Where this page starts in the whole list (0: the first).
    pub offset: usize,
}

impl Results {
    /// Papers past this page.
    pub fn more(&self) -> usize {
        self.total.saturating_sub(self.offset + self.found.len())
    }
}

/// `k` papers for `query` from `offset` on, best first, and the count of
/// all; empty when nothing clears its floor. `meaning` is the query's
/// embedding and the vectors to search, when a model is at hand (the
/// server answers by words while it loads).
pub fn find(
    lib: &Library,
    lexical: Option<&LexicalIndex>,
    meaning: Option<(&Vectors, &[f32])>,
    query: &str,
    page: std::ops::Range<usize>,
    scope: &Scope,
) -> Result<Results> {
    let query = query.trim();
    let mut lists: Vec<(Match, Vec<i64>)> = Vec::new();
    if let Some(id) = id_query(query) {
        if let Some(p) = lib.store.get_paper(&id.id)? {
            lists.push((Match::Id, vec![p.rowid]));
        }
    }
    if let Some(ix) = lexical {
        let words = ix.search(query, DEPTH)?;
        let best = words.first().map_or(0.0, |h| h.score);
        lists.push((Match::Words, words.iter().filter(|h| h.score >= WORDS_FLOOR * best).map(|h| h.rowid).collect()));
        // A name is a few words; a sentence is not searched as one.
        if query.split_whitespace().count() <= 4 {
            lists.push((Match::Author, ix.search_author(query, EXACT_DEPTH)?.iter().map(|h| h.rowid).collect()));
            lists.push((Match::Affiliation, ix.search_affiliation(query, EXACT_DEPTH)?.iter().map(|h| h.rowid).collect()));
        }
    }
    if let Some((vectors, v)) = meaning {
        let rows = scope.rows();
        let hits = vectors.search(v, DEPTH, |m: RowMeta| rows.may_admit(m))?;
        let kept = hits.into_iter().filter(|&(_, s)| s >= MEANING_FLOOR).map(|(pos, _)| vectors.flat.rowid(pos));
        lists.push((Match::Meaning, kept.collect()));
    }
    let total: f32 = lists.iter().filter(|(m, _)| *m != Match::Id).map(|(m, _)| m.weight()).sum::<f32>().max(1.0);
    let mut fused: HashMap<i64, (f32, Vec<Match>)> = HashMap::new();
    for (m, rowids) in &lists {
        for (rank, &rowid) in rowids.iter().enumerate() {
            let e = fused.entry(rowid).or_insert((0.0, Vec::new()));
            e.0 += m.weight() * (RRF_K + 1.0) / (RRF_K + 1.0 + rank as f32) / total;
            e.1.push(*m);
        }
    }
    let mut order: Vec<(i64, f32, Vec<Match>)> = fused.into_iter().map(|(r, (s, m))| (r, s, m)).collect();
    order.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    // Every paper is read to count those in the scope; with no scope (and
    // an index in step with the database) the count is the list's length,
    // and only the page is read.
    let whole = scope.since.is_none() && scope.until.is_none() && scope.category.is_none();
    let mut results = Results { found: Vec::with_capacity(page.len()), total: 0, offset: page.start };
    for (rowid, score, matched) in order {
        if whole && results.total >= page.end {
            results.total += 1;
            continue;
        }
        let Some(paper) = lib.store.get_paper_by_rowid(rowid)? else { continue };
        if !scope.admits(&paper) {
            continue;
        }
        if page.contains(&results.total) {
            results.found.push(Found { hit: Neighbour { score: score.min(1.0), paper }, matched });
        }
        results.total += 1;
    }
    Ok(results)
}
