//! Papers like one paper or one text, within optional date and category
//! limits. `like` and `serve` both call [`nearest`].

use crate::library::store::StoredPaper;
use crate::library::vectors::{subject_bit, FileDay, RowMeta};
use crate::library::{Library, Vectors};
use crate::paper::{ArxivId, Day};
use anyhow::Result;

/// A paper found like the target, with what the report shows of it.
#[derive(Debug, Clone)]
pub struct Neighbour {
    pub score: f32,
    pub paper: StoredPaper,
}

/// Which papers a search may return.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// First listed on or after this day.
    pub since: Option<Day>,
    /// First listed on or before this day.
    pub until: Option<Day>,
    /// Has this subject (any of its categories).
    pub category: Option<String>,
}

impl Scope {
    /// The scope as a search checks it on every row: numbers, parsed once.
    pub fn rows(&self) -> RowScope {
        let day = |d: &Option<Day>| d.map(FileDay::of);
        RowScope { since: day(&self.since), until: day(&self.until), subject: self.category.as_deref().map(subject_bit) }
    }

    /// Whether `paper` is in the scope.
    pub fn admits(&self, paper: &StoredPaper) -> bool {
        let date = paper.first_date.as_deref().and_then(Day::parse);
        self.since.is_none_or(|s| date.is_some_and(|d| d >= s))
            && self.until.is_none_or(|u| date.is_some_and(|d| d <= u))
            && self.category.as_deref().is_none_or(|c| paper.paper.subjects.iter().any(|s| s == c))
    }
}

/// [`Scope`] in the terms of a vector file's row.
#[derive(Debug, Clone, Copy)]
pub struct RowScope {
    since: Option<FileDay>,
    until: Option<FileDay>,
    subject: Option<u64>,
}

impl RowScope {
    /// Whether row `meta` may be in the scope: exact for dates; for the
    /// category a hashed bit, so a pass is confirmed by [`Scope::admits`].
    pub fn may_admit(&self, meta: RowMeta) -> bool {
        self.since.is_none_or(|s| meta.day >= s)
            && self.until.is_none_or(|u| meta.day <= u && !meta.day.is_none())
            && self.subject.is_none_or(|bit| meta.subjects & bit != 0)
    }
}

/// A day as every command and page takes it.
pub fn parse_day(d: &str) -> Result<Day> {
    Day::parse(d)
        .ok_or_else(|| super::Error::NotADate { given: crate::listing::text::inline(&d.chars().take(40).collect::<String>()) }.into())
}

/// The stored paper behind an id (any version) and its vector.
pub fn paper_query(lib: &Library, model: &str, id: &str) -> Result<(StoredPaper, Vec<f32>)> {
    let parsed = ArxivId::parse(id).ok_or_else(|| super::Error::NotAnId { given: id.chars().take(60).collect() })?;
    let paper =
        lib.store.get_paper(&parsed.id)?.ok_or_else(|| super::Error::NotInLibrary { id: parsed.id.clone(), dir: Some(lib.dir.clone()) })?;
    let v = lib.store.vector(model, &paper.text_hash)?.ok_or(super::Error::NoVector { id: parsed.id })?;
    Ok((paper, v))
}

/// The paper `id` and the `k` papers nearest it in `scope`.
pub fn like_paper(lib: &Library, vectors: &Vectors, id: &str, k: usize, scope: &Scope) -> Result<(StoredPaper, Vec<Neighbour>)> {
    let (paper, v) = paper_query(lib, &vectors.flat.model, id)?;
    let found = nearest(lib, vectors, &v, k, Some(paper.rowid), scope)?;
    Ok((paper, found))
}

/// The `k` papers nearest `query`, leaving out `exclude` (the query paper
/// itself). The scope is applied inside the search, row by row; the rare
/// paper that passed on a shared category bit only is dropped at the end,
/// from a few spare results asked for to make up for it.
pub fn nearest(lib: &Library, vectors: &Vectors, query: &[f32], k: usize, exclude: Option<i64>, scope: &Scope) -> Result<Vec<Neighbour>> {
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
