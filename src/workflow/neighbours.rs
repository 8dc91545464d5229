//! Papers like one paper or one text, within optional date and category
//! limits. `like` and `serve` both call [`nearest`].

use crate::library::store::StoredPaper;
use crate::library::vectors::{day_number, subject_bit, RowMeta};
use crate::library::{Library, Vectors};
use crate::paper::ArxivId;
use anyhow::{bail, Context, Result};

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

    /// Checks the dates given; call before searching.
    pub fn check(&self) -> Result<()> {
        for d in [&self.since, &self.until].into_iter().flatten() {
            check_date(d)?;
        }
        Ok(())
    }

    /// The scope as a search checks it on every row: numbers, parsed once.
    pub fn rows(&self) -> RowScope {
        let day = |d: &Option<String>| d.as_deref().map(day_number);
        RowScope { since: day(&self.since), until: day(&self.until), subject: self.category.as_deref().map(subject_bit) }
    }

    /// Whether `paper` is in the scope.
    pub fn admits(&self, paper: &StoredPaper) -> bool {
        let date = paper.first_date.as_deref();
        self.since.as_deref().is_none_or(|s| date.is_some_and(|d| d >= s))
            && self.until.as_deref().is_none_or(|u| date.is_some_and(|d| d <= u))
            && self.category.as_deref().is_none_or(|c| paper.paper.subjects.iter().any(|s| s == c))
    }
}

/// [`Scope`] in the terms of a vector file's row.
#[derive(Debug, Clone, Copy)]
pub struct RowScope {
    since: Option<i32>,
    until: Option<i32>,
    subject: Option<u64>,
}

impl RowScope {
    /// Whether row `meta` may be in the scope: exact for dates; for the
    /// category a hashed bit, so a pass is confirmed by [`Scope::admits`].
    pub fn may_admit(&self, meta: RowMeta) -> bool {
        self.since.is_none_or(|s| meta.day >= s)
            && self.until.is_none_or(|u| meta.day <= u && meta.day != 0)
            && self.subject.is_none_or(|bit| meta.subjects & bit != 0)
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
    let parsed = ArxivId::parse(id).with_context(|| format!("{:?} is not an arXiv id", id.chars().take(60).collect::<String>()))?;
    let paper =
        lib.store.get_paper(&parsed.id)?.with_context(|| format!("{} is not in the library at {}", parsed.id, lib.dir.display()))?;
    let v = lib
        .store
        .vector(model, &paper.text_hash)?
        .with_context(|| format!("{} has no vector yet; run `paperscout ingest` to embed it", parsed.id))?;
    Ok((paper, v))
}

/// The `k` papers nearest `query`, leaving out `exclude` (the query paper
/// itself). The scope is applied inside the search, row by row; the rare
/// paper that passed on a shared category bit only is dropped at the end,
/// from a few spare results asked for to make up for it.
pub fn nearest(lib: &Library, vectors: &Vectors, query: &[f32], k: usize, exclude: Option<i64>, scope: &Scope) -> Result<Vec<Neighbour>> {
    scope.check()?;
    let flat = &vectors.flat;
    let rows = scope.rows();
    let keep = |meta: RowMeta| Some(meta.rowid) != exclude && rows.may_admit(meta);
    let spare = if scope.category.is_some() { k / 4 + 5 } else { 0 };
    let hits = vectors.search(query, k + spare, keep)?;
    let mut found = Vec::with_capacity(k);
    for (pos, score) in hits {
        if let Some(paper) = lib.store.get_paper_by_rowid(flat.rowid(pos))? {
            if scope.admits(&paper) && found.len() < k {
                found.push(Neighbour { score, paper });
            }
        }
    }
    Ok(found)
}
