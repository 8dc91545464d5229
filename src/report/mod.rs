//! Presenting results: the stages before this never print.

pub mod cite;
pub mod digest;
pub mod feed;
pub mod json;
pub mod links;
pub mod math;
pub mod table;

use crate::workflow::digest::Digest;
pub use links::Links;

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
/// so `serve`'s feed is the same bytes as `daily --format atom`. `links`
/// adds the rating links (HTML, Markdown, Atom, JSON; the table and the
/// citations have none).
pub fn render(format: DigestFormat, d: &Digest, links: &Links) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    match format {
        DigestFormat::Table => digest::table(&mut buf, d, table::width())?,
        DigestFormat::Json => digest::json(&mut buf, d, links)?,
        DigestFormat::Markdown => digest::markdown(&mut buf, d, links)?,
        DigestFormat::Html => digest::html(&mut buf, d, links)?,
        DigestFormat::Atom => feed::atom(&mut buf, d, links)?,
        DigestFormat::Bibtex => cite::bibtex(&mut buf, &cite::of_picks(d))?,
        DigestFormat::Ris => cite::ris(&mut buf, &cite::of_picks(d))?,
    }
    Ok(buf)
}
