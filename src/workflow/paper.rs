//! One paper as its own page shows it: the paper, the versions and days
//! the library has seen it in, the reader's rating and its neighbours.

use crate::library::store::{Listing, ProfileKey, StoredPaper, Version};
use crate::library::{Library, Vectors};
use crate::profile::ratings;
use crate::workflow::neighbours::{self, Neighbour};
use anyhow::Result;

/// How many neighbours a paper's record shows.
pub const NEIGHBOURS: usize = 10;

pub struct Record {
    pub paper: StoredPaper,
    pub versions: Vec<Version>,
    pub listings: Vec<Listing>,
    /// The profile's rating: +1, -1, or 0 for none.
    pub rating: i8,
    /// None where the library holds no vectors yet, or none for this paper.
    pub neighbours: Vec<Neighbour>,
}

/// The record of `id` (any version) for `profile`; `vectors`, the library's
/// when it has any.
pub fn record(lib: &Library, vectors: Option<&Vectors>, profile: &ProfileKey, id: &str) -> Result<Record> {
    let parsed = crate::paper::ArxivId::parse(id).ok_or_else(|| super::Error::NotAnId { given: id.chars().take(60).collect() })?;
    let paper = lib.store.get_paper(&parsed.id)?.ok_or_else(|| super::Error::NotInLibrary { id: parsed.id.clone(), dir: None })?;
    let neighbours = match vectors {
        Some(vectors) => match lib.store.vector(&vectors.flat.model, &paper.text_hash)? {
            Some(v) => neighbours::nearest(lib, vectors, &v, NEIGHBOURS, Some(paper.rowid), &Default::default())?,
            None => Vec::new(),
        },
        None => Vec::new(),
    };
    Ok(Record {
        versions: lib.store.versions(&paper.paper.id)?,
        listings: lib.store.listings_of(&paper.paper.id)?,
        rating: ratings::get(lib.store.db(), profile, &paper.paper.id)?.map_or(0, |r| r.rating),
        neighbours,
        paper,
    })
}
