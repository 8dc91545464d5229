//! The HTML of arxiv.org/list/<cat>/{new,recent,pastweek} pages, as served
//! or as saved from a browser (attributes re-quoted, MathJax output inlined).
//!
//! Entries are `<dt>`/`<dd>` pairs inside `<dl id='articles'>` (before the
//! 2024 redesign, one plain `<dl>` per section). The `<dt>`
//! holds the id link and an optional "(cross-list from …)" or "(replaced)"
//! marker; the `<dd>` holds `list-title`, `list-authors`, `list-comments`,
//! `list-journal-ref`, `list-subjects` (primary in `span.primary-subject`)
//! and, on /new pages only, the abstract in `<p class='mathjax'>`.
//! `<h3>` headings give the section ("New submissions", "Cross submissions",
//! "Replacement submissions", or the older "Cross-lists for …") and the day
//! ("Fri, 22 Nov 2024 (showing …)" on recent/pastweek pages,
//! "Showing new listings for Monday, 2 March 2026" on /new pages, "New
//! submissions for Fri, 20 Jul 18" before 2024).

use super::{fields, Format, ListingError, Parsed};
use crate::paper::{ArxivId, Kind, Paper};
use scraper::{CaseSensitivity, ElementRef, Html, Node};

mod depth;
use depth::{too_deep, MAX_DEPTH};

pub fn parse(text: &str, source: &str) -> Result<Parsed, ListingError> {
    if let Some(at) = too_deep(text, MAX_DEPTH) {
        return Err(ListingError::new(
            source,
            Some(fields::line_of(text, at)),
            format!("HTML nested more than {MAX_DEPTH} elements deep; refused (arXiv's listing pages nest about 20)"),
        ));
    }
    let document = Html::parse_document(text);
    let has_list = document.root_element().descendent_elements().any(|e| e.value().name() == "dl" && is_article_list(e));
    if !has_list {
        if says_no_updates(text) {
            let mut parsed = Parsed::new(Format::Html);
            parsed.warnings.push(format!("{source}: the page says there are no updates for its day"));
            return Ok(parsed);
        }
        return Err(ListingError::new(
            source,
            None,
            "HTML page without an arXiv article list (<dl id='articles'>, or <dl>s of \
             list-identifier entries before 2024); expected a page from \
             arxiv.org/list/<category>/new, /recent or /pastweek",
        ));
    }

    let mut walker = Walker::new(source);
    for element in document.root_element().descendent_elements() {
        match element.value().name() {
            "h3" => walker.heading(element),
            "dt" if in_article_list(element) => walker.dt(element),
            "dd" if in_article_list(element) => walker.dd(element),
            _ => {}
        }
    }
    walker.finish(text)
}

/// An arXiv day or section with nothing in it: a real page, but no paper
/// (an error to `parse_bytes`, an empty day to `fetch`).
fn says_no_updates(text: &str) -> bool {
    text.contains("No updates today") || text.contains("No updates for this time period")
}

fn in_article_list(element: ElementRef<'_>) -> bool {
    element.ancestors().filter_map(ElementRef::wrap).find(|a| a.value().name() == "dl").is_some_and(is_article_list)
}

/// Since 2024 the one `<dl id='articles'>`; before, a plain `<dl>` after
/// each section's `<h3>`, known by its first entry: a `list-identifier`
/// span, or at least a link to an abstract.
fn is_article_list(dl: ElementRef<'_>) -> bool {
    dl.value().id() == Some("articles")
        || dl
            .children()
            .filter_map(ElementRef::wrap)
            .find(|c| c.value().name() == "dt")
            .is_some_and(|dt| first_with_class(dt, "list-identifier").is_some() || dt_id(dt).is_some())
}

/// What a `<dt>` says about the entry whose `<dd>` follows.
struct Pending {
    id: ArxivId,
    kind: Option<Kind>,
    label: String,
}

/// Document-order state: current section and day, and the `<dt>` waiting
/// for its `<dd>`.
struct Walker<'a> {
    source: &'a str,
    section: Kind,
    date: Option<String>,
    pending: Option<Pending>,
    /// Whether the latest `<dd>` became a paper (the last one in `parsed`).
    last_dd_kept: bool,
    parsed: Parsed,
}

impl<'a> Walker<'a> {
    fn new(source: &'a str) -> Self {
        Walker { source, section: Kind::New, date: None, pending: None, last_dd_kept: false, parsed: Parsed::new(Format::Html) }
    }

    fn heading(&mut self, h3: ElementRef<'_>) {
        let text = fields::clean_inline(&h3.text().collect::<String>());
        let lower = text.to_ascii_lowercase();
        if let Some(date) = fields::date_in(&text) {
            self.date = Some(date);
        }
        self.section = if lower.contains("cross") {
            Kind::Cross
        } else if lower.contains("replace") {
            Kind::Replaced
        } else {
            Kind::New
        };
    }

    fn dt(&mut self, dt: ElementRef<'_>) {
        if let Some(previous) = self.pending.take() {
            self.warn(&previous.label, "has no <dd> with its details; skipped");
        }
        let text = fields::clean_inline(&dt.text().collect::<String>());
        let Some(id) = dt_id(dt) else {
            self.parsed.skip(format!("{}: entry {:?} has no arXiv id; skipped", self.source, truncate(&text, 60)));
            return;
        };
        let kind = if text.contains("(cross-list from") {
            Some(Kind::Cross)
        } else if text.contains("(replaced)") {
            Some(Kind::Replaced)
        } else {
            None
        };
        let label = format!("arXiv:{}", id.id);
        self.pending = Some(Pending { id, kind, label });
    }

    fn dd(&mut self, dd: ElementRef<'_>) {
        self.last_dd_kept = false;
        let Some(pending) = self.pending.take() else {
            self.parsed.skip(format!("{}: an entry's details (<dd>) have no <dt> with its id; skipped", self.source));
            return;
        };
        let kind = pending.kind.unwrap_or(self.section);
        let mut paper = Paper::new(pending.id, kind, self.source);
        paper.title = first_with_class(dd, "list-title").map(|e| fields::clean_inline(&element_text(e))).unwrap_or_default();
        if paper.title.is_empty() {
            self.warn(&pending.label, "has no title; skipped");
            return;
        }
        first_with_class(dd, "list-authors").map(authors).unwrap_or_default().set_on(&mut paper);
        paper.comments = first_with_class(dd, "list-comments").and_then(|e| fields::clean_optional(&element_text(e)));
        paper.journal_ref = first_with_class(dd, "list-journal-ref").and_then(|e| fields::clean_optional(&element_text(e)));
        paper.set_subjects(first_with_class(dd, "list-subjects").map(subjects).unwrap_or_default());
        paper.abstract_text = abstract_paragraph(dd).map(|p| fields::clean_lines(&element_text(p))).unwrap_or_default();
        paper.listing_date = self.date.clone();
        self.parsed.papers.push(paper);
        self.last_dd_kept = true;
    }

    fn warn(&mut self, what: &str, why: &str) {
        self.parsed.skip(format!("{}: {what} {why}", self.source));
    }

    fn finish(mut self, text: &str) -> Result<Parsed, ListingError> {
        if let Some(pending) = self.pending.take() {
            self.warn(&pending.label, "has no <dd> with its details (page cut short?); skipped");
        }
        // html5ever closes whatever a cut-off page leaves open, so a
        // truncated last entry looks complete; the raw text tells.
        let last_dd_open = text.rfind("<dd").map(|open| text[open..].find("</dd>").is_none());
        if last_dd_open == Some(true) {
            if let Some(paper) = self.parsed.papers.pop_if(|_| self.last_dd_kept) {
                self.parsed
                    .skip(format!("{}: the page ends inside the entry for arXiv:{} (truncated?); skipped it", self.source, paper.id));
            }
        } else if !ends_with_html_close(text) {
            self.parsed
                .warnings
                .push(format!("{}: the page has no closing </html> (truncated?); entries after the cut are missing", self.source));
        }
        Ok(self.parsed)
    }
}

fn ends_with_html_close(text: &str) -> bool {
    let tail = text.trim_end().as_bytes();
    tail.len() >= 7 && tail[tail.len() - 7..].eq_ignore_ascii_case(b"</html>")
}

fn truncate(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((end, _)) => &s[..end],
        None => s,
    }
}

/// The id from the `<dt>`'s links ("/abs/2411.14419", absolute when
/// browser-saved), with the version taken from the versioned HTML link
/// ("…/html/2411.14419v1") when the page has one.
fn dt_id(dt: ElementRef<'_>) -> Option<ArxivId> {
    let linked: Vec<(ArxivId, bool)> = dt
        .descendent_elements()
        .filter(|e| e.value().name() == "a")
        .filter_map(|a| a.value().attr("href"))
        .filter_map(|href| Some((id_in_href(href)?, href.contains("/abs/"))))
        .collect();
    let mut id = linked.iter().find(|(_, is_abs)| *is_abs).map(|(id, _)| id.clone()).or_else(|| {
        // Fall back to the visible "arXiv:2411.14419".
        let text: String = dt.text().collect();
        text.split_whitespace().find(|w| w.starts_with("arXiv:")).and_then(fields::arxiv_id)
    })?;
    if id.version.is_none() {
        id.version = linked.iter().filter(|(other, _)| other.id == id.id).find_map(|(other, _)| other.version);
    }
    Some(id)
}

fn id_in_href(href: &str) -> Option<ArxivId> {
    for segment in ["/abs/", "/pdf/", "/html/", "/format/"] {
        if let Some(pos) = href.find(segment) {
            let rest = &href[pos + segment.len()..];
            let rest = rest.split(['?', '#']).next().unwrap_or(rest).trim_end_matches('/');
            return fields::arxiv_id(rest);
        }
    }
    None
}

/// `<p class='mathjax'>`, or any `<p>` on pages that dropped the class.
fn abstract_paragraph(dd: ElementRef<'_>) -> Option<ElementRef<'_>> {
    let paragraphs: Vec<ElementRef<'_>> = dd.descendent_elements().filter(|e| e.value().name() == "p").collect();
    paragraphs.iter().find(|p| p.value().has_class("mathjax", CaseSensitivity::AsciiCaseInsensitive)).or(paragraphs.first()).copied()
}

fn first_with_class<'a>(root: ElementRef<'a>, class: &str) -> Option<ElementRef<'a>> {
    root.descendent_elements().find(|e| e.value().has_class(class, CaseSensitivity::AsciiCaseInsensitive))
}

/// "(author list is unavailable)" and other link-less author lines mean no
/// authors are shown; otherwise the visible text is split like every other
/// author line, keeping affiliations with their names.
fn authors(div: ElementRef<'_>) -> super::authors::Authors {
    if !div.descendent_elements().any(|e| e.value().name() == "a") {
        return Default::default();
    }
    fields::authors(&element_text(div))
}

/// "Astrophysics of Galaxies (astro-ph.GA); Numerical Analysis (math.NA)"
/// → codes, primary (from `span.primary-subject`) first.
fn subjects(div: ElementRef<'_>) -> Vec<String> {
    let primary = first_with_class(div, "primary-subject").and_then(|span| code_in_parens(&element_text(span)).map(str::to_string));
    let all_text = element_text(div);
    let others = fields::categories(all_text.split(';').filter_map(code_in_parens));
    fields::primary_first(primary, others)
}

fn code_in_parens(s: &str) -> Option<&str> {
    let s = s.trim();
    let inner = s.strip_suffix(')')?;
    let open = inner.rfind('(')?;
    Some(inner[open + 1..].trim()).filter(|c| fields::is_category(c))
}

/// The text of an element as its author wrote it: descriptor labels
/// ("Title:") dropped, MathJax's rendered output replaced by the TeX source
/// it keeps in `<script type="math/tex">`, `<br>` and block ends as `\n`,
/// and source newlines (mere wrapping) as spaces.
fn element_text(element: ElementRef<'_>) -> String {
    let mut out = String::new();
    push_text(element, &mut out);
    out
}

fn push_text(element: ElementRef<'_>, out: &mut String) {
    for child in element.children() {
        match child.value() {
            Node::Text(t) => {
                for c in t.chars() {
                    out.push(if c == '\n' || c == '\r' { ' ' } else { c });
                }
            }
            Node::Element(e) => {
                let Some(child_el) = ElementRef::wrap(child) else {
                    continue;
                };
                match e.name() {
                    "br" => out.push('\n'),
                    "script" => push_script_math(child_el, e.attr("type"), out),
                    "style" | "noscript" | "template" => {}
                    "p" | "div" | "li" => {
                        out.push('\n');
                        push_text(child_el, out);
                        out.push('\n');
                    }
                    "mjx-container" => push_mathjax3(child_el, out),
                    _ if is_skipped(e) => {}
                    _ => push_text(child_el, out),
                }
            }
            _ => {}
        }
    }
}

/// MathJax 2 keeps the TeX in `<script type="math/tex">`; put it back
/// between the dollars arXiv's own text has.
fn push_script_math(script: ElementRef<'_>, kind: Option<&str>, out: &mut String) {
    let Some(kind) = kind.filter(|k| k.starts_with("math/tex")) else {
        return;
    };
    let tex: String = script.text().collect();
    let fence = if kind.contains("mode=display") { "$$" } else { "$" };
    out.push_str(fence);
    out.push_str(tex.trim());
    out.push_str(fence);
}

/// MathJax 3 keeps no TeX; its assistive MathML text is the best left.
fn push_mathjax3(container: ElementRef<'_>, out: &mut String) {
    if let Some(mml) = container.descendent_elements().find(|e| e.value().name() == "mjx-assistive-mml") {
        out.extend(mml.text());
    }
}

/// Labels and MathJax 2's rendered copies of formulas.
fn is_skipped(e: &scraper::node::Element) -> bool {
    ["descriptor", "MathJax_Preview", "MathJax", "MathJax_Display", "MJX_Assistive_MathML"]
        .iter()
        .any(|class| e.has_class(class, CaseSensitivity::CaseSensitive))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extracts_ids_and_codes() {
        assert_eq!(id_in_href("/abs/2603.00356").map(|i| i.id), Some("2603.00356".into()));
        let v = id_in_href("https://arxiv.org/html/2411.14419v1").unwrap();
        assert_eq!(v.version, Some(1));
        assert_eq!(code_in_parens(" Distributed, Parallel, and Cluster Computing (cs.DC)"), Some("cs.DC"));
        assert_eq!(code_in_parens("Nothing here"), None);
    }

    #[test]
    fn mathjax_markup_becomes_tex() {
        let html = "<html><body><div class='x'><span class='descriptor'>Title:</span>\n  RX J<span class=\"MathJax_Preview\"></span>\
            <span class=\"MathJax\"><nobr>0513.9−6951</nobr></span><script type=\"math/tex\">0513.9-6951</script> &amp; more\n</div></body></html>";
        let doc = Html::parse_document(html);
        let div = doc.root_element().descendent_elements().find(|e| e.value().has_class("x", CaseSensitivity::CaseSensitive)).unwrap();
        assert_eq!(fields::clean_inline(&element_text(div)), "RX J$0513.9-6951$ & more");
    }

    /// A /new page of the 2000s: plain `<dl>`s after each `<h3>`, entries
    /// without the `list-identifier` span, affiliations in the author text.
    #[test]
    fn pages_before_2024() {
        let entry = |id: &str, marker: &str, title: &str| {
            format!(
                "<dt><a name=\"item\">[1]</a>&nbsp; <a href=\"/abs/{id}\" title=\"Abstract\">arXiv:{id}</a> {marker} \
                 [<a href=\"/pdf/{id}\">pdf</a>]</dt>\n<dd><div class=\"meta\"><div class=\"list-title\">\
                 <span class=\"descriptor\">Title:</span> {title}</div><div class=\"list-authors\"><span class=\"descriptor\">Authors:</span> \
                 <a href=\"/a/smith_a_1\">A. Smith</a> (MIT), <a href=\"/a/jones_b_1\">B. Jones</a></div>\
                 <div class=\"list-subjects\"><span class=\"descriptor\">Subjects:</span> <span class=\"primary-subject\">\
                 Computational Complexity (cs.CC)</span>; Logic in Computer Science (cs.LO)</div><p>About {title}.</p></div></dd>"
            )
        };
        let page = format!(
            "<html><body><h1>Computer Science</h1><h3>New submissions for Mon, 14 Apr 08</h3><dl>{}</dl>\
             <h3>Cross-lists for Mon, 14 Apr 08</h3><dl>{}</dl><h3>Replacements for Mon, 14 Apr 08</h3><dl>{}</dl></body></html>",
            entry("0804.1234", "", "One"),
            entry("math/0703001", "(cross-list from math.LO)", "Two"),
            entry("0801.0001", "(replaced)", "Three"),
        );
        let parsed = parse(&page, "old.html").unwrap();
        let got: Vec<(&str, Kind)> = parsed.papers.iter().map(|p| (p.id.as_str(), p.kind)).collect();
        assert_eq!(got, [("0804.1234", Kind::New), ("math/0703001", Kind::Cross), ("0801.0001", Kind::Replaced)]);
        let p = &parsed.papers[0];
        assert_eq!(
            (p.authors.clone(), p.affiliations.clone()),
            (vec!["A. Smith".to_string(), "B. Jones".into()], vec!["MIT".to_string(), String::new()])
        );
        assert_eq!(p.subjects, ["cs.CC", "cs.LO"]);
        assert_eq!(p.listing_date.as_deref(), Some("2008-04-14"));
        assert_eq!(p.abstract_text, "About One.");
        // A page of something else is still refused, saying why.
        let err = parse("<html><body><dl><dt>Term</dt><dd>Definition</dd></dl></body></html>", "x.html").unwrap_err();
        assert!(err.message.contains("without an arXiv article list"), "{err}");
    }
}
