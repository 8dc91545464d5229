//! The vectors a ranking reads from the library's mapped file: the day's
//! papers', and the background sample its scores are read against.

use crate::library::vectors::FlatVectors;
use crate::library::Library;
use crate::paper::Paper;
use crate::rank::{Candidate, Terms, WordCache};
use anyhow::Result;
use std::sync::Mutex;

/// Background papers a profile's scores are read against, and the logistic
/// method (and the unsure rule) learn "not this" from.
pub(super) const BACKGROUND: usize = 200;
/// Of those, the first this many are what the profile's scores are read
/// against ([`Ranker::calibrate`]): enough for a mean and a spread.
pub(super) const CALIBRATION_PAPERS: usize = 100;

/// The kept papers' vectors, read from the mapped file in one pass; a
/// paper the file does not hold yet (embedded since it was opened) is read
/// from the database, one not embedded at all has none. Each row is copied
/// and its rowid read again after: an ingest that revises a paper meanwhile
/// retires its row in place (rowid negated, vector zeroed), and such a row
/// is read from the database instead of half-written.
pub(super) fn vectors_of<'a>(
    lib: &Library,
    flat: &FlatVectors,
    papers: impl ExactSizeIterator<Item = (i64, &'a [u8])>,
) -> Result<Vec<Option<Vec<f32>>>> {
    let mut out = Vec::with_capacity(papers.len());
    for (rowid, text_hash) in papers {
        let mapped = flat.position(rowid).filter(|&i| flat.is_live(i)).map(|i| (i, flat.vector(i).to_vec()));
        match mapped.filter(|&(i, _)| flat.is_live(i)) {
            Some((_, v)) => out.push(Some(v)),
            None => out.push(lib.store.vector(&flat.model, text_hash)?),
        }
    }
    Ok(out)
}

/// Papers of the library outside the day, as a profile's background: what
/// its scores are read against (the calibration), and what the logistic
/// models learn "not this" from.
pub(super) struct Background {
    pub vectors: Vec<Vec<f32>>,
    /// The words and categories of the first papers, those the
    /// calibration reads.
    pub terms: Vec<Terms>,
    pub papers: Vec<Paper>,
}

impl Background {
    /// Evenly spaced library papers outside today's candidates and the
    /// seeds (a seed scores itself as close as can be): deterministic, so
    /// the same day ranks the same way twice.
    pub fn sample(
        lib: &Library,
        flat: &FlatVectors,
        words: &Mutex<WordCache>,
        exclude: &[i64],
        seeds: &std::collections::HashSet<&[u8]>,
    ) -> Result<Background> {
        let step = (flat.count / BACKGROUND).max(1);
        let exclude: std::collections::HashSet<i64> = exclude.iter().copied().collect();
        let mut papers = Vec::with_capacity(BACKGROUND);
        for i in (0..flat.count).step_by(step).filter(|&i| flat.is_live(i) && !exclude.contains(&flat.rowid(i))) {
            if papers.len() == BACKGROUND {
                break;
            }
            let vector = flat.vector(i).to_vec();
            // The calibration's share is read whole; the rest lends its
            // vector alone (cutting an abstract's words is most of what a
            // cold `daily` spends on its background).
            if papers.len() >= CALIBRATION_PAPERS {
                papers.push((vector, None));
                continue;
            }
            // Revised since the file was mapped: its row is retired (rowid
            // negated, vector zeroed) and this sample goes without it.
            if let (Some(p), true) = (lib.store.get_paper_by_rowid(flat.rowid(i))?, flat.is_live(i)) {
                if !seeds.contains(p.text_hash.as_slice()) {
                    papers.push((vector, Some(p)));
                }
            }
        }
        let read: Vec<&crate::library::store::StoredPaper> = papers.iter().filter_map(|(_, p)| p.as_ref()).collect();
        let terms =
            super::terms_of(words, read.iter().map(|p| (p.text_hash.as_slice(), p.paper.title.as_str(), p.paper.abstract_text.as_str())))?;
        let (vectors, papers): (Vec<Vec<f32>>, Vec<Option<_>>) = papers.into_iter().unzip();
        Ok(Background { vectors, terms, papers: papers.into_iter().flatten().map(|p| p.paper).collect() })
    }

    /// The papers the calibration reads: the first [`CALIBRATION_PAPERS`].
    pub fn candidates(&self) -> Vec<Candidate<'_>> {
        (0..self.terms.len())
            .map(|i| Candidate { paper: &self.papers[i], vector: &self.vectors[i], terms: &self.terms[i], own_seed: None })
            .collect()
    }
}
