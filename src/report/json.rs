//! The JSON lines of `parse`, `like` and `search`, and the shapes the
//! server answers with for the same things: one type each.

use crate::paper::Paper;
use crate::workflow::neighbours::Neighbour;
use crate::workflow::search::{Found, Match};
use serde::Serialize;
use std::io::{self, Write};

/// One JSON object per paper per line, with every field of [`Paper`].
pub fn write_papers(out: &mut impl Write, papers: &[Paper]) -> io::Result<()> {
    for p in papers {
        serde_json::to_writer(&mut *out, p)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// One [`NeighbourLine`] per line.
pub fn write_neighbours(out: &mut impl Write, found: &[Neighbour]) -> io::Result<()> {
    write_lines(out, found.iter().map(NeighbourLine::of))
}

/// One [`FoundLine`] per line.
pub fn write_found(out: &mut impl Write, found: &[Found]) -> io::Result<()> {
    write_lines(out, found.iter().map(FoundLine::of))
}

/// Each item as one JSON object on a line of its own, written as the
/// server answers the same item (`serve::api::Answer`): keys in sorted
/// order and numbers as JSON's doubles, so that a line of `daily --json`
/// and its element of `/api/daily` are the same text.
pub fn write_lines<T: Serialize>(out: &mut impl Write, items: impl IntoIterator<Item = T>) -> io::Result<()> {
    for item in items {
        serde_json::to_writer(&mut *out, &serde_json::to_value(&item)?)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// A paper near another, as `like --json` prints it and the server
/// answers: the paper's identity and listing fields, the similarity, the
/// day it was first listed and its gist.
#[derive(Debug, Clone, Serialize)]
pub struct NeighbourLine {
    pub id: String,
    pub version: Option<u32>,
    /// Cosine similarity, four decimals.
    pub score: f32,
    pub title: String,
    pub authors: Vec<String>,
    /// As `parse --json` has them: only where a source named any.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub affiliations: Vec<String>,
    pub primary: Option<String>,
    pub subjects: Vec<String>,
    /// The day it was first listed.
    pub listing_date: Option<String>,
    /// What it does ([`crate::gist`]); `null` when it has no gist.
    pub gist: Option<String>,
}

impl NeighbourLine {
    pub fn of(n: &Neighbour) -> NeighbourLine {
        let p = &n.paper.paper;
        NeighbourLine {
            id: p.id.clone(),
            version: p.version,
            score: (n.score * 10_000.0).round() / 10_000.0,
            title: p.title.clone(),
            authors: p.authors.clone(),
            affiliations: p.affiliations.clone(),
            primary: p.primary.clone(),
            subjects: p.subjects.clone(),
            listing_date: n.paper.first_date.clone(),
            gist: n.paper.gist(),
        }
    }
}

/// A paper a search found: [`NeighbourLine`]'s fields and how it matched.
#[derive(Debug, Clone, Serialize)]
pub struct FoundLine {
    #[serde(flatten)]
    pub paper: NeighbourLine,
    pub matched: Vec<Match>,
}

impl FoundLine {
    pub fn of(f: &Found) -> FoundLine {
        FoundLine { paper: NeighbourLine::of(&f.hit), matched: f.matched.clone() }
    }
}
