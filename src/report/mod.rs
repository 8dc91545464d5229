//! Presenting results: the stages before this never print.

pub mod cite;
pub mod digest;
pub mod feed;
pub mod json;
pub mod table;

use crate::workflow::digest::Digest;

/// The forms a digest is written in (`daily --format`, the e-mail, the feed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DigestFormat {
    Table,
    Json,
    Markdown,
    Html,
    /// An Atom 1.0 feed, one entry per pick.
    Atom,
    Bibtex,
    Ris,
}

/// The digest in one format; every form goes through this one function,
/// so `serve`'s feed is the same bytes as `daily --format atom`.
pub fn render(format: DigestFormat, d: &Digest) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    match format {
        DigestFormat::Table => digest::table(&mut buf, d)?,
        DigestFormat::Json => digest::json(&mut buf, d)?,
        DigestFormat::Markdown => digest::markdown(&mut buf, d)?,
        DigestFormat::Html => digest::html(&mut buf, d)?,
        DigestFormat::Atom => feed::atom(&mut buf, d)?,
        DigestFormat::Bibtex => cite::bibtex(&mut buf, &cite::of_picks(d))?,
        DigestFormat::Ris => cite::ris(&mut buf, &cite::of_picks(d))?,
    }
    Ok(buf)
}

