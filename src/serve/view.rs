//! Request parameters, checked, and what the templates show of a paper.

use super::failure::Failure;
use super::session::{Named, Who};
use crate::library::store::ProfileKey;
use crate::paper::{ArxivId, Day, Kind, Paper};
use crate::rank::Method;
use crate::workflow::digest::{DayOptions, Pick, Top};
use crate::workflow::neighbours::{self, Neighbour, Scope};
use serde::Deserialize;

/// Every query parameter any page takes; absent ones keep their defaults.
/// All strings, so that a malformed value is our 400 with a sentence,
/// not a deserialisation error.
#[derive(Debug, Default, Deserialize)]
pub struct Params {
    pub profile: Option<String>,
    pub method: Option<String>,
    pub include: Option<String>,
    pub top: Option<String>,
    pub unsure: Option<String>,
    pub unseen: Option<String>,
    pub filtered: Option<String>,
    /// `1`: the top whatever the bar.
    pub all: Option<String>,
    /// strict, usual or loose: this view's bar, not kept.
    pub bar: Option<String>,
    pub date: Option<String>,
    pub q: Option<String>,
    pub k: Option<String>,
    /// Where a page of search results starts (0: the first).
    pub offset: Option<String>,
    pub since: Option<String>,
    pub until: Option<String>,
    pub category: Option<String>,
    /// `up` or `down`: a digest's rating link landed here; the page offers
    /// the rating, and only a click applies it.
    pub rate: Option<String>,
    /// The account a digest's rating link was made for.
    #[serde(rename = "for")]
    pub for_user: Option<String>,
}

fn given(v: &Option<String>) -> Option<&str> {
    v.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

fn number(name: &str, v: &Option<String>, default: usize, max: usize) -> Result<usize, Failure> {
    match given(v) {
        None => Ok(default),
        Some(s) => match s.parse::<usize>() {
            Ok(n) if n <= max => Ok(n),
            _ => Err(Failure::bad_request(format!("{name} must be a whole number from 0 to {max}"))),
        },
    }
}

/// The cookies that remember the day page's Top and Method (page.js sets them).
pub const TOP_COOKIE: &str = "ps_top";
pub const METHOD_COOKIE: &str = "ps_method";

/// `day` (the whole day when it is short), `all`, or a count from 1 to 1000.
fn parse_top(s: &str) -> Result<Top, Failure> {
    match s {
        "day" => Ok(Top::Day),
        "all" => Ok(Top::All),
        n => match n.parse::<usize>() {
            Ok(n) if (1..=1000).contains(&n) => Ok(Top::Count(n)),
            _ => Err(Failure::bad_request(format!("top is day, all or a whole number from 1 to 1000, not {:?}", clip(n)))),
        },
    }
}

/// `top` as the page's menu and links write it.
pub fn top_value(top: Top) -> String {
    match top {
        Top::Count(n) => n.to_string(),
        Top::Day => "day".into(),
        Top::All => "all".into(),
    }
}

fn flag(v: &Option<String>) -> bool {
    matches!(given(v), Some("1" | "true" | "on" | "yes"))
}

impl Params {
    /// The profile the request names, else the server's `default`, for `who`.
    pub fn profile(&self, who: &Who, default: &str) -> Result<Named, Failure> {
        who.profile(self.profile.as_deref(), default)
    }

    /// The day page's choices this browser remembers (cookies its script
    /// sets when the reader changes them), where the request names none.
    /// A cookie is the client's to forge: a value that does not parse is
    /// ignored, never an error page the reader cannot leave.
    pub fn remembered(mut self, headers: &axum::http::HeaderMap) -> Params {
        if given(&self.top).is_none() {
            self.top = super::session::cookie_value(headers, TOP_COOKIE).filter(|v| parse_top(v).is_ok()).map(str::to_string);
        }
        if given(&self.method).is_none() {
            self.method = super::session::cookie_value(headers, METHOD_COOKIE).filter(|v| v.parse::<Method>().is_ok()).map(str::to_string);
        }
        self
    }

    /// How to rank, for the profile `key`; `top` where the request says none.
    pub fn day_options(&self, key: ProfileKey, unsure: usize, top: Top) -> Result<DayOptions, Failure> {
        let mut o = DayOptions { profile: key, ..DayOptions::default() };
        if let Some(m) = given(&self.method) {
            o.method = m.parse::<Method>().map_err(Failure::bad_request)?;
        }
        if let Some(inc) = given(&self.include) {
            o.include = inc
                .split(',')
                .map(|k| {
                    Kind::parse(k.trim())
                        .ok_or_else(|| Failure::bad_request(format!("include takes new, cross and replaced, not {:?}", clip(k))))
                })
                .collect::<Result<_, _>>()?;
        }
        o.top = given(&self.top).map(parse_top).transpose()?.unwrap_or(top);
        o.unsure = number("unsure", &self.unsure, unsure, 100)?;
        o.unseen = flag(&self.unseen);
        o.show_hidden = given(&self.filtered).is_none_or(|_| flag(&self.filtered));
        o.all = flag(&self.all);
        o.bar = given(&self.bar)
            .map(|b| {
                crate::rank::Bar::parse(b).ok_or_else(|| Failure::bad_request(format!("bar is strict, usual or loose, not {:?}", clip(b))))
            })
            .transpose()?;
        Ok(o)
    }

    pub fn date(&self) -> Result<Option<Day>, Failure> {
        given(&self.date).map(checked_date).transpose()
    }

    pub fn k(&self) -> Result<usize, Failure> {
        let k = number("k", &self.k, 20, 500)?;
        if k == 0 {
            return Err(Failure::bad_request("k must be at least 1"));
        }
        Ok(k)
    }

    /// The papers a search answers with: `k` of them from `offset` on.
    pub fn page(&self) -> Result<std::ops::Range<usize>, Failure> {
        let (k, offset) = (self.k()?, number("offset", &self.offset, 0, 1_000_000)?);
        Ok(offset..offset + k)
    }

    pub fn scope(&self) -> Result<Scope, Failure> {
        let since = given(&self.since).map(checked_date).transpose()?;
        let until = given(&self.until).map(checked_date).transpose()?;
        let category = given(&self.category).map(|c| {
            if c.len() <= 32 && c.chars().all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '.' | '-' | '_')) {
                Ok(c.to_string())
            } else {
                Err(Failure::bad_request(format!("{:?} is not an arXiv category like cs.DC", clip(c))))
            }
        });
        Ok(Scope { since, until, category: category.transpose()? })
    }

    pub fn query(&self) -> Result<Option<String>, Failure> {
        match given(&self.q) {
            None => Ok(None),
            Some(q) if q.chars().count() > 10_000 => Err(Failure::bad_request("the search text is longer than 10,000 characters")),
            Some(q) => Ok(Some(q.to_string())),
        }
    }

    /// The account a digest's link was made for, when it is not `who`'s:
    /// the rating is not offered to another account.
    pub fn made_for_another(&self, who: Option<&str>) -> Option<String> {
        given(&self.for_user).filter(|f| Some(*f) != who).map(clip)
    }

    /// The rating a digest link offers: its name and value.
    pub fn rate_offer(&self) -> Result<Option<(&'static str, i8)>, Failure> {
        match given(&self.rate) {
            None => Ok(None),
            Some("up") => Ok(Some(("liked", 1))),
            Some("down") => Ok(Some(("not interested", -1))),
            Some(other) => Err(Failure::bad_request(format!("rate is up or down, not {:?}", clip(other)))),
        }
    }

    pub fn value(v: &Option<String>) -> String {
        given(v).unwrap_or("").to_string()
    }
}

/// At most 60 characters of what the user sent, for messages.
pub fn clip(s: &str) -> String {
    let t: String = s.chars().take(60).filter(|c| !c.is_control()).collect();
    if s.chars().count() > 60 {
        format!("{t}…")
    } else {
        t
    }
}

pub fn checked_date(d: &str) -> Result<Day, Failure> {
    Ok(neighbours::parse_day(d)?)
}

pub fn checked_id(id: &str) -> Result<ArxivId, Failure> {
    ArxivId::parse(id).ok_or_else(|| Failure::bad_request(format!("{:?} is not an arXiv id", clip(id))))
}

/// A paper as every page shows it.
pub struct Card {
    /// Position shown before the title; 0 shows none.
    pub rank: usize,
    /// The title's heading level, after the page's own headings (1 when
    /// the card is the page's subject).
    pub h: u8,
    pub id: String,
    pub vid: String,
    /// arXiv links, only for ids that match the id grammar.
    pub abs_url: Option<String>,
    pub pdf_url: Option<String>,
    pub title: String,
    /// The title as HTML, escaped, with the scripts Unicode cannot show
    /// as `<sub>`/`<sup>` (report::math::display_html).
    pub title_html: String,
    /// What the paper does, one sentence of its abstract ([`crate::gist`]),
    /// as HTML like `title_html`; empty when it has none.
    pub gist_html: String,
    pub authors: String,
    /// Where the authors work, each place once: "MIT · Max Planck Institute".
    pub affiliations: String,
    /// "First author et al. · primary category", for the compact list.
    pub byline: String,
    pub subjects: String,
    pub kind: String,
    pub date: String,
    pub score: Option<String>,
    /// What the score is made of, in words (the score's tooltip).
    pub score_note: String,
    /// Width of the score bar, percent.
    pub bar: u32,
    pub reason: String,
    /// The nearest seed is far: the reason says so, and looks it.
    pub weak: bool,
    /// The abstract's paragraphs as HTML (escaped; see `title_html`).
    pub paragraphs: Vec<String>,
    /// 1 liked, -1 not interested, 0 unrated.
    pub rating: i8,
    pub pinned: String,
    pub seen: String,
    pub comments: String,
    /// How a search found it ("author", "words + meaning"); empty elsewhere.
    pub matched: String,
}

/// Each named affiliation once, in the order the authors name them (one
/// author's several are split at their `; `).
fn places(affiliations: &[String]) -> String {
    let mut out: Vec<&str> = Vec::new();
    for a in affiliations.iter().flat_map(|a| a.split("; ")).map(str::trim).filter(|a| !a.is_empty()) {
        if !out.contains(&a) {
            out.push(a);
        }
    }
    out.join(" · ")
}

impl Card {
    pub fn new(p: &Paper, date: Option<&str>) -> Card {
        let valid = p.has_arxiv_id();
        let vid = match p.version {
            Some(v) => format!("{}v{v}", p.id),
            None => p.id.clone(),
        };
        let lead = match p.authors.as_slice() {
            [] => String::new(),
            [one] => one.clone(),
            [a, b] => format!("{a}, {b}"),
            [a, ..] => format!("{a} et al."),
        };
        Card {
            rank: 0,
            h: 3,
            id: p.id.clone(),
            abs_url: valid.then(|| format!("https://arxiv.org/abs/{vid}")),
            pdf_url: valid.then(|| format!("https://arxiv.org/pdf/{vid}")),
            vid,
            // TeX shown as a reader reads it: `($r=0.83$)` as (r=0.83).
            title: crate::report::math::display(&p.title).into_owned(),
            title_html: crate::report::math::display_html(&p.title),
            gist_html: String::new(),
            authors: p.authors.join(", "),
            affiliations: places(&p.affiliations),
            byline: [lead, p.subjects.first().cloned().unwrap_or_default()]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(" · "),
            subjects: p.subjects.join(", "),
            kind: String::new(),
            date: date.unwrap_or("").to_string(),
            score: None,
            score_note: String::new(),
            bar: 0,
            reason: String::new(),
            weak: false,
            paragraphs: p.abstract_text.split('\n').filter(|s| !s.trim().is_empty()).map(crate::report::math::display_html).collect(),
            rating: 0,
            pinned: String::new(),
            seen: String::new(),
            comments: p.comments.clone().unwrap_or_default(),
            matched: String::new(),
        }
    }

    /// The card with the paper's gist.
    pub fn with_gist(mut self, gist: Option<&str>) -> Card {
        self.gist_html = gist.map(crate::report::math::display_html).unwrap_or_default();
        self
    }

    /// `range` is the (lowest, highest) score on the page: bars show where a
    /// paper falls within today's spread.
    pub fn from_pick(p: &Pick, range: (f32, f32), cold: bool) -> Card {
        let mut c = Card::new(&p.paper, p.paper.listing_date.as_deref()).with_gist(p.gist.as_deref());
        c.rank = p.rank;
        c.kind = p.paper.kind.to_string();
        if let Some(day) = &p.seen_before {
            c.seen = format!("first listed {day}");
        }
        if let Some(day) = &p.seen {
            c.seen = format!("seen {day}");
        }
        if !cold {
            c.score = Some(format!("{:.3}", p.score));
            c.score_note = score_note(p);
            let (lo, hi) = range;
            c.bar = if hi > lo { (15.0 + 85.0 * (p.score - lo) / (hi - lo)).round() as u32 } else { 100 };
        }
        c.reason = crate::report::digest::found_text(p);
        c.weak = p.weak;
        c.rating = p.rating.unwrap_or(0);
        c.pinned = p.pinned.clone().unwrap_or_default();
        c
    }

    pub fn from_neighbour(rank: usize, n: &Neighbour, rating: i8) -> Card {
        let mut c = Card::new(&n.paper.paper, n.paper.first_date.as_deref()).with_gist(n.paper.gist().as_deref());
        c.rank = rank;
        c.score = Some(format!("{:.3}", n.score));
        c.score_note = format!("similarity {:.3}: cosine of the two title+abstract embeddings (1 is the same text)", n.score);
        c.bar = (n.score.clamp(0.0, 1.0) * 100.0).round() as u32;
        c.rating = rating;
        c
    }
}

/// The score's parts as a sentence: its nearest seed and, for the hybrid
/// ranking, what each signal gave of its lift.
fn score_note(p: &Pick) -> String {
    let mut s = format!("score {:.3}, ranking today's papers", p.score);
    if let Some(r) = p.why.reasons().first() {
        s.push_str(&format!("; nearest seed at cosine {:.2}{}", r.similarity, if p.weak { " (a weak match)" } else { "" }));
    }
    if let Some(lift) = crate::report::digest::lift_text(&p.why) {
        s.push_str(&format!("; {lift}"));
    }
    s
}

pub fn score_range(picks: &[Pick]) -> (f32, f32) {
    picks.iter().fold((f32::MAX, f32::MIN), |(lo, hi), p| (lo.min(p.score), hi.max(p.score)))
}
