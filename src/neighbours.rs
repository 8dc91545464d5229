//! Papers like one paper or one text, within optional date and category
//! limits. `like` and `serve` both call [`nearest`].

use crate::library::store::StoredPaper;
use crate::library::vectors::FlatVectors;
use crate::library::{self, Library};
use crate::paper::ArxivId;
use anyhow::{bail, Context, Result};
use std::collections::HashSet;

/// A paper found like the target, with what the report shows of it.
#[derive(Debug, Clone)]
pub struct Neighbour {
    pub score: f32,
    pub paper: StoredPaper,
}

/// Which papers a search may return.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// First listed on or after this date (YYYY-MM-DD).
    pub since: Option<String>,
    /// First listed on or before this date.
    pub until: Option<String>,
    /// Has this subject (any of its categories).
    pub category: Option<String>,
}

impl Scope {
    pub fn is_all(&self) -> bool {
        self.since.is_none() && self.until.is_none() && self.category.is_none()
    }

    /// Rowids inside the scope, or None when it is the whole library.
    pub fn rowids(&self, lib: &Library) -> Result<Option<HashSet<i64>>> {
        if self.is_all() {
            return Ok(None);
        }
        for d in [&self.since, &self.until].into_iter().flatten() {
            check_date(d)?;
        }
        let mut stmt = lib.store.conn().prepare_cached(
            "SELECT rowid FROM papers WHERE (?1 IS NULL OR first_date >= ?1)
             AND (?2 IS NULL OR first_date <= ?2)
             AND (?3 IS NULL OR EXISTS (SELECT 1 FROM json_each(papers.subjects) WHERE value = ?3))",
        )?;
        let rows = stmt.query_map(rusqlite::params![self.since, self.until, self.category], |r| r.get::<_, i64>(0))?;
        Ok(Some(rows.collect::<std::result::Result<_, _>>()?))
    }
}

/// A date as every command takes it.
pub fn check_date(d: &str) -> Result<()> {
    if chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").is_err() {
        bail!("{:?} is not a date like 2026-03-02", crate::listing::text::inline(&d.chars().take(40).collect::<String>()));
    }
    Ok(())
}

/// The stored paper behind an id (any version) and its vector.
pub fn paper_query(lib: &Library, model: &str, id: &str) -> Result<(StoredPaper, Vec<f32>)> {
    let parsed = ArxivId::parse(id)
        .with_context(|| format!("{:?} is not an arXiv id", id.chars().take(60).collect::<String>()))?;
    let paper = lib
        .store
        .get_paper(&parsed.id)?
        .with_context(|| format!("{} is not in the library at {}", parsed.id, lib.dir.display()))?;
    let v = lib
        .store
        .vector(model, &paper.text_hash)?
        .with_context(|| format!("{} has no vector yet; run `paperscout ingest` to embed it", parsed.id))?;
    Ok((paper, v))
}

/// The `k` papers nearest `query` in `flat`, leaving out `exclude` (the
/// query paper itself). Scans exactly up to [`library::EXACT_SCAN_LIMIT`]
/// vectors, else (or with `approx`) searches the HNSW graph.
pub fn nearest(
    lib: &Library,
    flat: &FlatVectors,
    query: &[f32],
    k: usize,
    exclude: Option<i64>,
    scope: &Scope,
    approx: bool,
) -> Result<Vec<Neighbour>> {
    let allowed = scope.rowids(lib)?;
    let keep = |pos: usize| {
        let rowid = flat.rowid(pos);
        Some(rowid) != exclude && allowed.as_ref().is_none_or(|a| a.contains(&rowid))
    };
    let hits = if approx || flat.count > library::EXACT_SCAN_LIMIT {
        lib.search_index(flat, query, k, keep)?
    } else {
        flat.top_k(query, k, keep)
    };
    let mut found = Vec::with_capacity(hits.len());
    for (pos, score) in hits {
        if let Some(paper) = lib.store.get_paper_by_rowid(flat.rowid(pos))? {
            found.push(Neighbour { score, paper });
        }
    }
    Ok(found)
}
