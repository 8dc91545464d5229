//! The daily digest in four forms: a terminal table, JSON lines, Markdown
//! and one self-contained HTML page.

use crate::paper::Paper;
use crate::rank::Details;
use crate::report::links::Links;
use crate::workflow::digest::{Digest, Explained, Hidden, Pick, Reason};
use serde::Serialize;
use std::io::{self, Write};

/// Why a paper was picked, the decisive part first: the reader's own
/// rating, how sure the pick is (strong, worth a look, weak), its closest
/// seeds by meaning (by short title), and the distinctive words it shares
/// with them.
pub fn reason_text(p: &Pick) -> String {
    let rating = match p.rating {
        Some(r) if r > 0 => "you liked this",
        Some(_) => "you marked this not interested",
        None => return found_text(p),
    };
    [rating.to_string(), found_text(p)].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join("; ")
}

/// [`reason_text`] without the reader's rating: what the ranking found.
/// A page shows the rating beside its buttons, where an undo changes it.
pub fn found_text(p: &Pick) -> String {
    let mut parts: Vec<String> = Vec::new();
    let strength = p.strength.label();
    let mut seeds_named = false;
    // Each signal's finding where its part says a reason names it: the
    // nearest seeds always, words when they lifted the pick, categories
    // where they carried it, a note as the signal wrote it.
    for e in p.why.0.iter().filter(|e| e.named()) {
        match &e.details {
            Details::Seeds(r) if !seeds_named => {
                seeds_named = true;
                if p.weak {
                    parts.push(format!("{strength}: nearest seed {} ({:.2})", short_title(&r[0]), r[0].similarity));
                    continue;
                }
                let mut s = format!("{strength}: close to your seed {} ({:.2})", short_title(&r[0]), r[0].similarity);
                if let Some(r2) = r.get(1) {
                    s.push_str(&format!(", also {} ({:.2})", short_title(r2), r2.similarity));
                }
                parts.push(s);
            }
            Details::Words(w) => {
                let words: Vec<String> = w.iter().map(|w| format!("\u{201c}{}\u{201d}", shown(w))).collect();
                parts.push(format!("shares {}", words.join(", ")));
            }
            Details::Fields(f) => parts.push(format!("in your field{} {}", if f.len() > 1 { "s" } else { "" }, f.join(", "))),
            Details::Note(n) => parts.push(n.clone()),
            Details::Seeds(_) | Details::Opaque => {}
        }
    }
    parts.join("; ")
}

/// What the digest left out, in a sentence, when it left anything out:
/// the picks below the reader's bar and those above it past the top.
/// `how`: where the reader can see them ("`daily --all` shows them").
pub fn more_text(d: &Digest, how: &str) -> Option<String> {
    let mut parts = Vec::new();
    if d.past_top > 0 {
        parts.push(format!("{} more above your bar past the top {}", d.past_top, d.picks.len()));
    }
    if d.below_bar > 0 {
        parts.push(format!("{} more below your bar ({})", d.below_bar, d.bar.name()));
    }
    if parts.is_empty() {
        return None;
    }
    let how = if how.is_empty() { String::new() } else { format!(": {how}") };
    Some(format!("{}{how}", parts.join("; ")))
}

/// What each signal gave of a hybrid pick's lift above the day's average,
/// largest first: "lift: 60% shared words, 40% nearest seed".
pub fn lift_text(why: &Explained) -> Option<String> {
    let shares: Vec<(f32, &str)> = why.0.iter().filter_map(|e| Some((e.share?, e.signal.0.label))).collect();
    let mut parts: Vec<(f32, &str)> = shares.iter().copied().filter(|p| p.0 >= 0.005).collect();
    if parts.is_empty() {
        return (!shares.is_empty()).then(|| "no lift above the day's average".to_string());
    }
    parts.sort_by(|a, b| b.0.total_cmp(&a.0));
    let parts: Vec<String> = parts.iter().map(|(share, name)| format!("{:.0}% {name}", 100.0 * share)).collect();
    Some(format!("lift: {}", parts.join(", ")))
}

/// A seed by its title, cut short, in quotes; never by its key (an id or a
/// hash says nothing at a glance).
fn short_title(r: &Reason) -> String {
    // Shown, then cut: a cut inside `$…$` would leave half a formula raw.
    format!("\u{201c}{}\u{201d}", cut_at_word(shown(r.title.trim()).trim(), SHORT_TITLE))
}

/// Paper text as a reader reads it: its TeX rendered (`$4\times$` → 4×).
/// Every text form shows it so; JSON keeps the source.
pub(crate) fn shown(s: &str) -> std::borrow::Cow<'_, str> {
    crate::report::math::display(s)
}

/// Characters of a seed's title a reason quotes.
const SHORT_TITLE: usize = 40;

/// `s` cut to at most `max` characters and then back to the end of its last
/// whole word ("Information-Aware KV Cache Compression…", not "…Compression
/// f…"), unless that would leave less than half; no dangling punctuation
/// before the ellipsis.
fn cut_at_word(s: &str, max: usize) -> String {
    let Some((end, next)) = s.char_indices().nth(max) else {
        return s.to_string();
    };
    let head = &s[..end];
    // A hyphen or an apostrophe goes on with the word ("Information-Aware").
    let whole = if !(next.is_alphanumeric() || "-'\u{2019}".contains(next)) {
        head
    } else {
        match head.rfind(char::is_whitespace) {
            Some(i) if head[..i].chars().count() >= max / 2 => &head[..i],
            _ => head,
        }
    };
    let loose = |c: char| c.is_whitespace() || ",;:-–—(/".contains(c);
    let mut whole = whole.trim_end_matches(loose);
    // Nor a dangling "for" or "with": the cut title ends on a content word.
    while let Some((rest, last)) = whole.rsplit_once(char::is_whitespace) {
        if !DANGLING.contains(&last.to_lowercase().as_str()) || rest.trim_end().chars().count() < max / 2 {
            break;
        }
        whole = rest.trim_end_matches(loose);
    }
    format!("{whole}…")
}

/// Words a cut title does not end on.
const DANGLING: &[&str] = &["a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the", "to", "via", "with"];

/// The entry's kind with what the user already did about it.
fn kind_label(p: &Pick) -> String {
    let mut s = p.paper.kind.to_string();
    if let Some(day) = &p.seen_before {
        s.push_str(&format!(" (seen {day})"));
    }
    if let Some(day) = p.seen.as_ref().filter(|d| Some(*d) != p.seen_before.as_ref()) {
        s.push_str(&format!(" (seen {day})"));
    }
    match p.rating {
        Some(r) if r > 0 => s.push_str(" [liked]"),
        Some(_) => s.push_str(" [not interested]"),
        None => {}
    }
    if let Some(a) = &p.pinned {
        s.push_str(&format!(" [pinned: {a}]"));
    }
    s
}

fn version_id(p: &Paper) -> String {
    match p.version {
        Some(v) => format!("{}v{}", p.id, v),
        None => p.id.clone(),
    }
}

/// The paper's arXiv page and PDF. Only an id of arXiv's grammar makes a
/// link: a library entry is not trusted to.
pub(crate) fn arxiv_links(p: &Paper) -> Option<(String, String)> {
    if !p.has_arxiv_id() {
        return None;
    }
    let id = version_id(p);
    Some((format!("https://arxiv.org/abs/{id}"), format!("https://arxiv.org/pdf/{id}")))
}

/// ` · bar usual` in a header, for a ranked digest.
fn bar_note(d: &Digest) -> String {
    if d.cold {
        String::new()
    } else {
        format!(" · bar {}", d.bar.name())
    }
}

fn empty_line(d: &Digest) -> String {
    format!("no entries for {} (profile {}, method {})", d.span(), d.profile, d.method)
}

/// The terminal table, `width` columns wide: a header, then each pick's
/// rank, score, id, kind and category, with its title and its reason
/// wrapped in the last column. Listings are cleaned of control characters
/// when they are parsed; a library filled before that, or a seed's title,
/// may still hold some, and no escape sequence may reach the terminal.
pub fn table(out: &mut impl Write, d: &Digest, width: usize) -> io::Result<()> {
    fn printable(s: &str) -> String {
        s.chars().map(|c| if c == '\n' || c == '\t' { ' ' } else { c }).filter(|c| !c.is_control()).collect()
    }
    if d.picks.is_empty() {
        return writeln!(out, "{}", empty_line(d));
    }
    writeln!(
        out,
        "{} — {} of {} entries · profile {} · method {}{}",
        d.span(),
        d.picks.len(),
        d.candidates,
        d.profile,
        d.method,
        bar_note(d)
    )?;
    // Columns as wide as their widest cell, so a long tag ("[not
    // interested]", "(seen …)") or an old-style id never shifts the rest.
    let rows: Vec<[String; 3]> = d
        .picks
        .iter()
        .chain(&d.unsure)
        .chain(&d.not_interested)
        .map(|p| [printable(&p.paper.id), printable(&kind_label(p)), printable(p.paper.primary.as_deref().unwrap_or("-"))])
        .collect();
    let widest = |i: usize, least: usize| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0).max(least);
    let (w_id, w_kind, w_cat) = (widest(0, 10), widest(1, 4), widest(2, 5));
    let w_rank = d.picks.iter().map(|p| p.rank.to_string().len()).max().unwrap_or(0).max(3);
    let title_at = w_rank + 2 + 5 + 2 + w_id + 2 + w_kind + 2 + w_cat + 2;
    // Never narrower than a readable column, even in a narrow terminal.
    let text_width = width.saturating_sub(title_at).max(30);
    let indent = " ".repeat(title_at);
    let wrapped = |text: &str, out: &mut dyn Write, first_line_written: bool| -> io::Result<()> {
        // Lines break between words only: "Age-Minimizing" stays whole.
        let options = textwrap::Options::new(text_width).word_splitter(textwrap::WordSplitter::NoHyphenation);
        for (i, line) in textwrap::wrap(text, options).iter().enumerate() {
            if i == 0 && first_line_written {
                writeln!(out, "{line}")?;
            } else {
                writeln!(out, "{indent}{line}")?;
            }
        }
        Ok(())
    };
    writeln!(out, "{:>w_rank$}  score  {:<w_id$}  {:<w_kind$}  {:<w_cat$}  title, what it does (≡), why (↳)", "#", "id", "kind", "cat")?;
    for (p, [id, kind, cat]) in d.picks.iter().zip(&rows) {
        write!(out, "{:>w_rank$}  {:.3}  {id:<w_id$}  {kind:<w_kind$}  {cat:<w_cat$}  ", p.rank, p.score)?;
        wrapped(&printable(&crate::report::math::display(&p.paper.title)), out, true)?;
        if let Some(gist) = &p.gist {
            wrapped(&format!("≡ {}", printable(&crate::report::math::display(gist))), out, false)?;
        }
        let why = printable(&reason_text(p));
        if !why.is_empty() {
            wrapped(&format!("↳ {why}"), out, false)?;
        }
    }
    if let Some(more) = more_text(d, "`paperscout daily --all` shows them, `paperscout filter bar looser` lets more lead") {
        writeln!(out, "\n{more}")?;
    }
    if !d.unsure.is_empty() {
        writeln!(out, "\nunsure — rating these teaches the ranking most:")?;
        for (p, [id, kind, cat]) in d.unsure.iter().zip(&rows[d.picks.len()..]) {
            write!(out, "{:w_rank$}  {:.3}  {id:<w_id$}  {kind:<w_kind$}  {cat:<w_cat$}  ", "", p.score)?;
            wrapped(&printable(&crate::report::math::display(&p.paper.title)), out, true)?;
        }
    }
    if !d.not_interested.is_empty() {
        writeln!(out, "\nnot interested — you marked these; `paperscout rate ID 0` takes a rating back:")?;
        for (p, [id, kind, cat]) in d.not_interested.iter().zip(&rows[d.picks.len() + d.unsure.len()..]) {
            write!(out, "{:w_rank$}  {:.3}  {id:<w_id$}  {kind:<w_kind$}  {cat:<w_cat$}  ", "", p.score)?;
            wrapped(&printable(&crate::report::math::display(&p.paper.title)), out, true)?;
        }
    }
    if !d.hidden.is_empty() {
        writeln!(out, "\nhidden by filters:")?;
        let w = d.hidden.iter().map(|h| printable(&h.id).chars().count()).max().unwrap_or(0).max(10);
        for h in &d.hidden {
            writeln!(out, "     {:<w$}  {}  [{}]", printable(&h.id), printable(&h.title), printable(&h.rule))?;
        }
    }
    Ok(())
}

/// One JSON object per pick with every field of the table and the reasons,
/// then the unsure papers, those marked not interested and what the
/// filters hid, each object saying its `section` (pick, unsure,
/// not_interested, hidden); with a server to rate on, picks and
/// unsure papers also have `like_url` and `dislike_url`. A day without
/// entries gives no lines (the message goes to stderr).
pub fn json(out: &mut impl Write, d: &Digest, links: &Links) -> io::Result<()> {
    if d.picks.is_empty() {
        crate::messages::note(format_args!("{}", empty_line(d)));
    }
    crate::report::json::write_lines(out, lines(d, links))
}

/// The lines of [`json`], for the server's JSON twin of the page (which
/// is on the server already: no rating links).
pub fn json_lines(d: &Digest) -> Vec<DigestLine> {
    lines(d, &Links::default())
}

/// One line of `daily --json`, one element of `/api/daily`: a paper of a
/// section, or the closing word on what was left out.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "section", rename_all = "snake_case")]
pub enum DigestLine {
    Pick(RatedPick),
    Unsure(RatedPick),
    NotInterested(RatedPick),
    Hidden(Hidden),
    More(More),
}

/// A pick with where to rate it, when there is a server to rate on.
#[derive(Debug, Clone, Serialize)]
pub struct RatedPick {
    #[serde(flatten)]
    pub pick: Pick,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub like_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dislike_url: Option<String>,
}

fn lines(d: &Digest, links: &Links) -> Vec<DigestLine> {
    let rated = |p: &Pick| {
        let rate = links.rate(&p.paper, &d.profile);
        RatedPick { pick: p.clone(), like_url: rate.as_ref().map(|r| r.up.clone()), dislike_url: rate.map(|r| r.down) }
    };
    let picks = d.picks.iter().map(|p| DigestLine::Pick(rated(p)));
    let unsure = d.unsure.iter().map(|p| DigestLine::Unsure(rated(p)));
    let not_interested = d.not_interested.iter().map(|p| DigestLine::NotInterested(rated(p)));
    let hidden = d.hidden.iter().map(|h| DigestLine::Hidden(h.clone()));
    // Only when the bar or the top left something out: a list that is
    // whole says so by ending.
    let more = (!d.cold && d.below_bar + d.past_top > 0).then_some(DigestLine::More(More {
        bar: d.bar,
        below_bar: d.below_bar,
        past_top: d.past_top,
    }));
    picks.chain(unsure).chain(not_interested).chain(hidden).chain(more).collect()
}

/// The last JSON object of a ranked digest: where it stopped and what it
/// left out.
#[derive(Debug, Clone, Serialize)]
pub struct More {
    pub bar: crate::rank::Bar,
    /// Ranked papers below the bar, not listed.
    pub below_bar: usize,
    /// Papers above the bar past the top, not listed.
    pub past_top: usize,
}

/// Text as Markdown shows it, nothing more: HTML is escaped (`<script>`,
/// `<img onerror=…>` stay visible text, not markup), Markdown's own
/// punctuation is backslash-escaped so that no link, image, emphasis or
/// table cell is made of a listing's words, and control characters go.
pub(crate) fn md(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '#' | '!' => {
                o.push('\\');
                o.push(c);
            }
            '\n' | '\r' | '\t' => o.push(' '),
            c if c.is_control() => {}
            c => o.push(c),
        }
    }
    o
}

pub fn markdown(out: &mut impl Write, d: &Digest, links: &Links) -> io::Result<()> {
    // A code span has no escapes: backticks and controls are left out.
    fn md_code(s: &str) -> String {
        s.chars().filter(|&c| c != '`' && !c.is_control()).collect()
    }
    writeln!(out, "# arXiv digest for {}\n", d.span())?;
    if d.picks.is_empty() {
        return writeln!(out, "{}", empty_line(d));
    }
    writeln!(
        out,
        "{} of {} entries, profile `{}`, method `{}`{}.\n",
        d.picks.len(),
        d.candidates,
        md_code(&d.profile),
        d.method,
        md(&bar_note(d))
    )?;
    for p in &d.picks {
        let arxiv = arxiv_links(&p.paper);
        let title = match &arxiv {
            Some((abs, _)) => format!("[{}]({abs})", md(&shown(&p.paper.title))),
            None => format!("{} ({})", md(&shown(&p.paper.title)), md(&version_id(&p.paper))),
        };
        let mut more = arxiv.map(|(_, pdf)| format!(" · [PDF]({pdf})")).unwrap_or_default();
        if let Some(rate) = links.rate(&p.paper, &d.profile) {
            more.push_str(&format!(" · [👍]({}) [👎]({})", rate.up, rate.down));
        }
        writeln!(
            out,
            "{}. **{title}** — {:.3} · `{}` · {}{more}  ",
            p.rank,
            p.score,
            md_code(p.paper.primary.as_deref().unwrap_or("-")),
            md(&kind_label(p))
        )?;
        if !p.paper.authors.is_empty() {
            writeln!(out, "   {}  ", md(&p.paper.authors.join(", ")))?;
        }
        if let Some(gist) = &p.gist {
            writeln!(out, "   ≡ {}  ", md(&shown(gist)))?;
        }
        writeln!(out, "   _{}_\n", md(&reason_text(p)))?;
    }
    if let Some(more) = more_text(d, "") {
        writeln!(out, "{}.", md(&more))?;
    }
    Ok(())
}

pub(crate) fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

const STYLE: &str = "
body{font:16px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f;background:#fafafa}
h1{font-size:1.5rem;margin-bottom:.2rem}.sub{color:#666;margin-top:0}
article{background:#fff;border:1px solid #e3e3e3;border-radius:8px;padding:.9rem 1.1rem;margin:.8rem 0}
article h2{font-size:1.08rem;margin:.1rem 0 .3rem}article h2 a{color:#1a4d8f;text-decoration:none}article h2 a:hover{text-decoration:underline}
.rank{color:#999;font-weight:normal;margin-right:.4rem}
.meta{font-size:.85rem;color:#555}.authors{font-size:.9rem;margin:.2rem 0}
.bar{display:inline-block;vertical-align:middle;width:7rem;height:.5rem;background:#eee;border-radius:4px;margin-right:.4rem;overflow:hidden}
.bar span{display:block;height:100%;background:#3b82c4}
.gist{margin:.3rem 0}.reason{font-size:.9rem;color:#2f5d2f;margin:.3rem 0}
details{font-size:.92rem}summary{cursor:pointer;color:#555}
.tag{font-size:.75rem;border:1px solid #ccc;border-radius:3px;padding:0 .3rem;margin-left:.3rem}
.links{font-size:.9rem;margin:.2rem 0}.links a{color:#1a4d8f}
";

/// One self-contained page: inline CSS, no scripts or external assets.
pub fn html(out: &mut impl Write, d: &Digest, links: &Links) -> io::Result<()> {
    writeln!(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")?;
    writeln!(out, "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")?;
    writeln!(out, "<title>arXiv digest {}</title><style>{STYLE}</style></head><body>", esc(&d.span()))?;
    writeln!(out, "<h1>arXiv digest for {}</h1>", esc(&d.span()))?;
    if d.picks.is_empty() {
        writeln!(out, "<p class=\"sub\">{}</p></body></html>", esc(&empty_line(d)))?;
        return Ok(());
    }
    writeln!(
        out,
        "<p class=\"sub\">{} of {} entries · profile <b>{}</b> · method <b>{}</b>{}</p>",
        d.picks.len(),
        d.candidates,
        esc(&d.profile),
        d.method,
        esc(&bar_note(d))
    )?;
    let (lo, hi) = d.picks.iter().fold((f32::MAX, f32::MIN), |(lo, hi), p| (lo.min(p.score), hi.max(p.score)));
    for p in &d.picks {
        // The bar shows the score within today's range, so the spread is visible.
        let frac = if hi > lo { 0.15 + 0.85 * (p.score - lo) / (hi - lo) } else { 1.0 };
        let id = version_id(&p.paper);
        writeln!(out, "<article>")?;
        writeln!(
            out,
            "<h2><span class=\"rank\">{}.</span><a href=\"https://arxiv.org/abs/{}\">{}</a></h2>",
            p.rank,
            esc(&id),
            esc(&shown(&p.paper.title))
        )?;
        if !p.paper.authors.is_empty() {
            writeln!(out, "<div class=\"authors\">{}</div>", esc(&p.paper.authors.join(", ")))?;
        }
        writeln!(
            out,
            "<div class=\"meta\"><span class=\"bar\" title=\"score {:.3}\"><span style=\"width:{:.0}%\"></span></span>{:.3} · {} · {}<span class=\"tag\">{}</span></div>",
            p.score,
            frac * 100.0,
            p.score,
            esc(&id),
            esc(p.paper.primary.as_deref().unwrap_or("-")),
            esc(&kind_label(p))
        )?;
        if let Some(gist) = &p.gist {
            writeln!(out, "<div class=\"gist\">{}</div>", esc(&shown(gist)))?;
        }
        writeln!(out, "<div class=\"reason\">{}</div>", esc(&reason_text(p)))?;
        if let Some((abs, pdf)) = arxiv_links(&p.paper) {
            write!(out, "<div class=\"links\"><a href=\"{}\">arXiv</a> · <a href=\"{}\">PDF</a>", esc(&abs), esc(&pdf))?;
            if let Some(rate) = links.rate(&p.paper, &d.profile) {
                let title = esc(&shown(&p.paper.title));
                write!(
                    out,
                    " · <a href=\"{}\" aria-label=\"Like: {title}\">👍 Like</a> · <a href=\"{}\" aria-label=\"Not interested: {title}\">👎 Not interested</a>",
                    esc(&rate.up),
                    esc(&rate.down)
                )?;
            }
            writeln!(out, "</div>")?;
        }
        if !p.paper.abstract_text.is_empty() {
            writeln!(out, "<details><summary>Abstract</summary>")?;
            for para in p.paper.abstract_text.split('\n') {
                writeln!(out, "<p>{}</p>", esc(para))?;
            }
            writeln!(out, "</details>")?;
        }
        writeln!(out, "</article>")?;
    }
    if let Some(more) = more_text(d, "") {
        writeln!(out, "<p class=\"sub\">{}.</p>", esc(&more))?;
    }
    writeln!(out, "</body></html>")
}

#[cfg(test)]
mod tests {
    use super::{cut_at_word, lift_text, Explained, Pick, Reason};
    use crate::rank::{Details, Explanation, SignalId, HYBRID};

    /// The first pick of a day, strong, unrated.
    fn strong_pick(paper: crate::paper::Paper, why: Explained, score: f32) -> Pick {
        Pick {
            rank: 1,
            score,
            paper,
            gist: None,
            why,
            strength: crate::rank::Strength::Strong,
            weak: false,
            seen_before: None,
            rating: None,
            pinned: None,
            seen: None,
        }
    }

    #[test]
    fn the_lift_names_each_part_largest_first_and_leaves_out_crumbs() {
        let part = |name: &str| HYBRID.iter().find(|r| r.part.name == name).unwrap().part;
        let why = |shares: &[(&str, f32)]| {
            Explained(
                shares
                    .iter()
                    .map(|&(name, share)| Explanation {
                        signal: SignalId(part(name)),
                        value: 0.0,
                        share: Some(share),
                        details: Details::Opaque,
                    })
                    .collect(),
            )
        };
        let shares = why(&[("nearest", 0.4), ("words", 0.5), ("centroid", 0.0), ("fields", 0.1)]);
        assert_eq!(lift_text(&shares).as_deref(), Some("lift: 50% shared words, 40% nearest seed, 10% categories"));
        let shares = why(&[("nearest", 0.996), ("words", 0.004)]);
        assert_eq!(lift_text(&shares).as_deref(), Some("lift: 100% nearest seed"));
        assert_eq!(lift_text(&why(&[("words", 0.0)])).as_deref(), Some("no lift above the day's average"));
        assert_eq!(lift_text(&Explained::default()), None);
    }

    #[test]
    fn a_signal_registered_in_one_place_shows_in_the_legend_and_the_reasons() {
        use crate::paper::{Paper, UNKNOWN};
        use crate::rank::{Candidate, Method, Naming, Part, Ranker, Registered, SeedVector, Seeds, Signal, Terms};
        use crate::workflow::digest::Reason;
        // A new signal: its part, its file's worth of code, and its line
        // in the list the ranker is given.
        static FRESH: Part = Part {
            name: "fresh",
            label: "freshness",
            legend: "how recently it was listed",
            cold: 0.5,
            per_ln_seeds: 0.0,
            naming: Naming::Lifting,
        };
        struct Fresh;
        impl Signal for Fresh {
            fn id(&self) -> SignalId {
                SignalId(&FRESH)
            }
            fn score(&self, _: &Seeds, day: &[Candidate<'_>]) -> Vec<f32> {
                day.iter().map(|c| if c.paper.listing_date.as_deref() == Some("2026-11-27") { 1.0 } else { 0.0 }).collect()
            }
            fn explain(&self, _: &Seeds, c: &Candidate<'_>) -> Details {
                Details::Note(format!("listed {}", c.paper.listing_date.as_deref().unwrap_or("?")))
            }
        }
        let registry: Vec<Registered> = HYBRID
            .iter()
            .map(|r| Registered { part: r.part, make: r.make })
            .chain([Registered { part: &FRESH, make: |_| Box::new(Fresh) }])
            .collect();
        let seed = SeedVector {
            label: "s".into(),
            vector: vec![1.0, 0.0],
            terms: Terms::default(),
            subjects: Vec::new(),
            weight: 1.0,
            negative: false,
            rated: false,
            added: String::new(),
        };
        let r = Ranker::with_signals(&registry, Method::Hybrid, vec![seed], &[]);
        assert!(r.legend().iter().any(|p| p.label == "freshness" && p.legend == FRESH.legend), "the page's legend lists it");
        let listed = |date: &str| Paper { listing_date: Some(date.into()), ..UNKNOWN.clone() };
        let (new, old) = (listed("2026-11-27"), listed("2026-11-20"));
        let none = Terms::default();
        let near = [0.8, 0.6];
        let day = [
            Candidate { paper: &old, vector: &near, terms: &none, own_seed: None },
            Candidate { paper: &new, vector: &near, terms: &none, own_seed: None },
            Candidate { paper: &old, vector: &[0.0, 1.0], terms: &none, own_seed: None },
        ];
        let scored = r.score_all(&day);
        assert!(scored[1].order > scored[0].order, "it counts in the mix: {scored:?}");
        let why = Explained(
            r.explain(&day[1], Some(&scored[1]))
                .into_iter()
                .map(|e| e.map_seeds(|m| Reason { seed: "s".into(), title: "A seed".into(), similarity: m.similarity }))
                .collect(),
        );
        let pick = strong_pick(new.clone(), why, scored[1].score);
        let reason = super::reason_text(&pick);
        assert!(reason.contains("listed 2026-11-27"), "the reason quotes it: {reason}");
        assert!(lift_text(&pick.why).is_some_and(|l| l.contains("% freshness")), "the lift names it");
        assert_eq!(serde_json::to_value(&pick.why).unwrap()["signals"][4]["label"], "freshness", "the JSON carries it");
    }

    #[test]
    fn a_reason_shows_tex_as_read_and_json_keeps_the_source() {
        use crate::paper::UNKNOWN;
        let part = |name: &str| HYBRID.iter().find(|r| r.part.name == name).unwrap().part;
        let seed = Reason { seed: "2401.00001".into(), title: "$L_p$-norm bounds for $T^{2}$-GRPO".into(), similarity: 0.61 };
        let why = Explained(vec![
            Explanation { signal: SignalId(part("nearest")), value: 0.6, share: Some(0.5), details: Details::Seeds(vec![seed]) },
            Explanation {
                signal: SignalId(part("words")),
                value: 0.4,
                share: Some(0.5),
                details: Details::Words(vec!["4\\times".into(), "d_{\\text{JS}}".into()]),
            },
        ]);
        let pick = strong_pick(UNKNOWN.clone(), why, 0.8);
        let reason = super::reason_text(&pick);
        assert!(reason.contains("\u{201c}Lₚ-norm bounds for T²-GRPO\u{201d}"), "{reason}");
        assert!(reason.contains("\u{201c}4×\u{201d}"), "{reason}");
        assert!(!reason.contains(['\\', '$', '{']), "{reason}");
        let json = serde_json::to_value(&pick.why).unwrap();
        assert_eq!(json["signals"][1]["details"]["of"][0], "4\\times", "{json}");
    }

    #[test]
    fn a_seed_title_is_cut_after_a_whole_word() {
        // Real seed titles of the 75k library, as the reasons quoted them.
        assert_eq!(
            cut_at_word("Information-Aware KV Cache Compression for Long-Context LLMs", 40),
            "Information-Aware KV Cache Compression…"
        );
        assert_eq!(
            cut_at_word("SSD: Spatially Speculative Decoding Accelerates Autoregressive Image Generation", 40),
            "SSD: Spatially Speculative Decoding…"
        );
        // A word that ends at the limit stays; punctuation before the cut goes.
        assert_eq!(cut_at_word("Speculative decoding drafts: a survey of trees", 27), "Speculative decoding drafts…");
        assert_eq!(cut_at_word("Speculative decoding drafts: a survey of trees", 29), "Speculative decoding drafts…");
        // Short titles are whole; one long word is cut where it must be.
        assert_eq!(cut_at_word("Protein folding", 40), "Protein folding");
        assert_eq!(cut_at_word("Pneumonoultramicroscopicsilicovolcanoconiosis", 10), "Pneumonoul…");
        assert_eq!(cut_at_word("Ab Pneumonoultramicroscopicsilicovolcanoconiosis", 10), "Ab Pneumon…");
        // A hyphenated word is one word: not "Efficient Long…".
        assert_eq!(cut_at_word("Efficient Long-Context Serving", 14), "Efficient…");
        assert_eq!(cut_at_word("Reader’s Guide to Speculative Decoding", 6), "Reader…");
        // Nor on a word that needs the rest ("…Eviction for…").
        assert_eq!(cut_at_word("Coverage-Driven KV Cache Eviction for Efficient Serving", 40), "Coverage-Driven KV Cache Eviction…");
        assert_eq!(cut_at_word("SeKV: Resolution-Adaptive KV Cache with a Budget", 40), "SeKV: Resolution-Adaptive KV Cache…");
        // Characters, not bytes.
        assert_eq!(cut_at_word("Über die Größe großer Sprachmodelle und ihre Grenzen", 20), "Über die Größe…");
    }
}
