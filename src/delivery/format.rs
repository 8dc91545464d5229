//! Every form a digest is written in, through one function, so that
//! `serve`'s feed is the same bytes as `daily --format atom` and a chat's
//! messages the same as `daily --format slack`.

use super::{chat, feed};
use crate::report::{self, Links};
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
    /// Slack incoming-webhook messages (Block Kit), one JSON object a line.
    Slack,
    /// Discord webhook messages (embeds), one JSON object a line.
    Discord,
    /// Matrix `m.room.message` events (HTML), one JSON object a line.
    Matrix,
    /// ntfy JSON publishes (Markdown), one JSON object a line.
    Ntfy,
}

impl DigestFormat {
    /// The chat platform this format posts to, if it is one.
    pub fn platform(self) -> Option<chat::Platform> {
        match self {
            DigestFormat::Slack => Some(chat::Platform::Slack),
            DigestFormat::Discord => Some(chat::Platform::Discord),
            DigestFormat::Matrix => Some(chat::Platform::Matrix),
            DigestFormat::Ntfy => Some(chat::Platform::Ntfy),
            _ => None,
        }
    }
}

/// The digest in one format; every form goes through this one function,
/// so `serve`'s feed is the same bytes as `daily --format atom`. `links`
/// adds the rating links (HTML, Markdown, Atom, JSON; the table and the
/// citations have none).
pub fn render(format: DigestFormat, d: &Digest, links: &Links) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    match format {
        DigestFormat::Table => report::digest::table(&mut buf, d, report::table::width())?,
        DigestFormat::Json => report::digest::json(&mut buf, d, links)?,
        DigestFormat::Markdown => report::digest::markdown(&mut buf, d, links)?,
        DigestFormat::Html => report::digest::html(&mut buf, d, links)?,
        DigestFormat::Atom => feed::atom(&mut buf, d, links)?,
        DigestFormat::Bibtex => report::cite::bibtex(&mut buf, &report::cite::of_picks(d))?,
        DigestFormat::Ris => report::cite::ris(&mut buf, &report::cite::of_picks(d))?,
        DigestFormat::Slack | DigestFormat::Discord | DigestFormat::Matrix | DigestFormat::Ntfy => {
            let platform = format.platform().ok_or_else(|| std::io::Error::other("not a chat format"))?;
            for m in chat::messages(platform, d, links, "paperscout") {
                buf.extend_from_slice(m.body().as_bytes());
                buf.push(b'\n');
            }
        }
    }
    Ok(buf)
}
