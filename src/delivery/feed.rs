//! The digest as an Atom 1.0 feed (RFC 4287), for feed readers. Each pick
//! is an entry whose id is the paper's unversioned abs URL, so a reader that
//! polls every morning never shows the same paper twice.

use crate::report::digest::{esc, reason_text};
use crate::report::links::{encode, Links, Rate};
use crate::workflow::digest::{Digest, Pick};
use quick_xml::events::{BytesDecl, BytesText, Event};
use quick_xml::Writer;
use std::io::{self, Write};

/// XML 1.0 cannot carry most control characters even escaped; a line break
/// in a one-line field (a title) is a space.
fn xml_text(s: &str, one_line: bool) -> String {
    s.chars()
        .map(|c| if one_line && (c == '\n' || c == '\r' || c == '\t') { ' ' } else { c })
        .filter(|&c| c == '\n' || c == '\t' || !c.is_control())
        .filter(|&c| c != '\u{fffe}' && c != '\u{ffff}')
        .collect()
}

/// The feed's own id: one per profile, the same every day; the name is
/// percent-encoded, so every profile gets a distinct, valid id.
pub fn feed_id(profile: &str) -> String {
    format!("urn:paperscout:feed:{}", encode(profile))
}

/// The paper's id when it has arXiv's grammar: only such an id makes a link.
fn arxiv_id(p: &Pick) -> Option<&str> {
    p.paper.has_arxiv_id().then_some(p.paper.id.as_str())
}

fn timestamp(date: impl std::fmt::Display) -> String {
    format!("{date}T00:00:00Z")
}

fn text<W: Write>(w: &mut Writer<W>, name: &str, value: &str) -> io::Result<()> {
    w.create_element(name).write_text_content(BytesText::new(value))?;
    Ok(())
}

/// The summary as HTML with the rating links under it, for readers that
/// show an entry's content (most do, and a text summary links nothing).
fn content_html(summary: &str, rate: &Rate) -> String {
    let mut html: String = summary.split("\n\n").map(|para| format!("<p>{}</p>", esc(para).replace('\n', "<br>"))).collect();
    html.push_str(&format!("<p><a href=\"{}\">👍 Like</a> · <a href=\"{}\">👎 Not interested</a></p>", esc(&rate.up), esc(&rate.down)));
    html
}

fn entry<W: Write>(w: &mut Writer<W>, p: &Pick, d: &Digest, links: &Links) -> io::Result<()> {
    let date = d.date;
    w.create_element("entry").write_inner_content(|w| {
        let (id, arxiv) = match arxiv_id(p) {
            Some(id) => (format!("https://arxiv.org/abs/{id}"), Some(id)),
            None => (format!("urn:paperscout:paper:{}", encode(&p.paper.id)), None),
        };
        text(w, "id", &id)?;
        w.create_element("title")
            .with_attribute(("type", "text"))
            .write_text_content(BytesText::new(&xml_text(&crate::report::digest::shown(&p.paper.title), true)))?;
        text(w, "updated", &timestamp(p.paper.listing_date.clone().unwrap_or_else(|| date.to_string())))?;
        for a in &p.paper.authors {
            w.create_element("author").write_inner_content(|w| text(w, "name", &xml_text(a, true)))?;
        }
        if let Some(id) = arxiv {
            let abs = format!("https://arxiv.org/abs/{id}");
            let pdf = format!("https://arxiv.org/pdf/{id}");
            w.create_element("link")
                .with_attributes([("rel", "alternate"), ("type", "text/html"), ("href", abs.as_str())])
                .write_empty()?;
            w.create_element("link")
                .with_attributes([("rel", "related"), ("type", "application/pdf"), ("title", "PDF"), ("href", pdf.as_str())])
                .write_empty()?;
        }
        for c in &p.paper.subjects {
            w.create_element("category").with_attribute(("term", xml_text(c, true).as_str())).write_empty()?;
        }
        let mut summary = format!("#{} · score {:.3} · {}", p.rank, p.score, p.paper.kind);
        if !d.cold {
            summary.push_str(&format!(" · {}", p.strength.label()));
        }
        if let Some(gist) = &p.gist {
            summary.push_str(&format!("\n≡ {}", crate::report::digest::shown(gist)));
        }
        let reason = reason_text(p);
        if !reason.is_empty() {
            summary.push_str(&format!("\n{reason}"));
        }
        if !p.paper.abstract_text.is_empty() {
            summary.push_str("\n\n");
            summary.push_str(&crate::report::digest::shown(&p.paper.abstract_text));
        }
        let summary = xml_text(&summary, false);
        w.create_element("summary").with_attribute(("type", "text")).write_text_content(BytesText::new(&summary))?;
        if let Some(rate) = links.rate(&p.paper, &d.profile) {
            w.create_element("content")
                .with_attribute(("type", "html"))
                .write_text_content(BytesText::new(&content_html(&summary, &rate)))?;
        }
        Ok(())
    })?;
    Ok(())
}

/// One feed per profile: its picks, newest listing date as `updated`.
/// With a server to rate on, each entry's content is its summary and the
/// 👍 / 👎 links as HTML.
pub fn atom(out: &mut impl Write, d: &Digest, links: &Links) -> io::Result<()> {
    let mut w = Writer::new_with_indent(&mut *out, b' ', 1);
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("utf-8"), None)))?;
    w.create_element("feed").with_attribute(("xmlns", "http://www.w3.org/2005/Atom")).write_inner_content(|w| {
        text(w, "id", &feed_id(&d.profile))?;
        text(w, "title", &xml_text(&format!("paperscout: {}", d.profile), true))?;
        let mut sub = format!("{} of {} entries for {}, method {}", d.picks.len(), d.candidates, d.span(), d.method);
        if let Some(more) = crate::report::digest::more_text(d, "") {
            sub.push_str(&format!("; {more}"));
        }
        text(w, "subtitle", &sub)?;
        text(w, "updated", &timestamp(d.date))?;
        // Atom needs an author for the feed when an entry may have none.
        w.create_element("author").write_inner_content(|w| text(w, "name", "paperscout"))?;
        text(w, "generator", "paperscout")?;
        for p in &d.picks {
            entry(w, p, d, links)?;
        }
        Ok(())
    })?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_text_are_safe_for_xml() {
        assert_eq!(feed_id("default"), "urn:paperscout:feed:default");
        assert_eq!(feed_id("a b/<c>"), "urn:paperscout:feed:a%20b%2F%3Cc%3E");
        assert_eq!(xml_text("a\u{1b}[31m\nb\u{0}", true), "a[31m b");
        assert_eq!(xml_text("a\nb\u{7}", false), "a\nb");
    }
}
