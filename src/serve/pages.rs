//! The HTML pages. Each handler gathers what its JSON twin returns (the
//! same functions in `api`) and renders a template; templates escape
//! everything they are given.

use super::failure::Failure;
use super::read;
use super::session::{Named, Who};
use super::state::State;
use super::view::{checked_date, score_range, top_value, Card, Params};
use super::work::{blocking_as, Cost};
use crate::accounts::random_hex;
use crate::library::store::profiles::SeedKind;
use crate::library::store::ProfileKey;
use crate::profile::{self, filters, ratings};
use crate::rank::Method;
use crate::workflow::digest::{Hidden, Top};
use crate::workflow::paper::Record;
use crate::workflow::stats::Stats;
use askama::Template;
use axum::extract::{Path, Query, State as Shared};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::Extension;
use std::collections::HashMap;
use std::sync::Arc;

const SCRIPT: &str = include_str!("page.js");

/// What every page's frame shows.
pub struct Base {
    pub title: String,
    pub csrf: String,
    /// Lets exactly this response's script run (Content-Security-Policy).
    pub nonce: String,
    pub script: &'static str,
    pub profile: String,
    pub default_profile: String,
    pub profiles: Vec<String>,
    /// What every link of the page carries: `?token=…` (a server without
    /// accounts) and `profile=…` (unless the default); empty for neither.
    pub q: String,
    /// The launch key, for the page's forms and script; empty with accounts.
    pub key: String,
    pub search: String,
    pub model_status: &'static str,
    /// The page shows one paper: opening it marks it seen.
    pub opened: bool,
    /// Signed in as this user (with a sign-out button); empty otherwise.
    pub user: String,
    /// A page outside the library (sign-in): no navigation.
    pub bare: bool,
}

impl Base {
    pub(super) fn new(st: &State, who: &Who, title: impl Into<String>, profile: &str, mut profiles: Vec<String>) -> Base {
        let key = who.key.clone().unwrap_or_default();
        // A profile is kept from its first rating or seed: until then it is
        // in no list, yet every menu must show it, or the next change of
        // Top or Method would submit another profile in its place.
        if !profiles.iter().any(|p| p == profile) {
            profiles.push(profile.to_string());
        }
        let q = link_query(&key, profile, &st.default_profile);
        Base {
            title: title.into(),
            csrf: who.csrf.clone(),
            nonce: random_hex(16).unwrap_or_else(|_| "0".repeat(32)),
            script: SCRIPT,
            profile: profile.to_string(),
            default_profile: st.default_profile.clone(),
            profiles,
            q,
            key,
            search: String::new(),
            model_status: st.model_status(),
            opened: false,
            user: if who.signed_in { who.user.clone().unwrap_or_default() } else { String::new() },
            bare: false,
        }
    }

    /// The frame of a page shown before signing in.
    pub fn bare(st: &State, title: &str) -> Base {
        let mut base = Base::new(st, &Who::nobody(), title, &st.default_profile, Vec::new());
        base.bare = true;
        base
    }
}

/// The query every link of a page carries: the launch key, then the
/// profile unless it is the default.
fn link_query(key: &str, profile: &str, default: &str) -> String {
    let mut q = url::form_urlencoded::Serializer::new(String::new());
    if !key.is_empty() {
        q.append_pair("token", key);
    }
    if profile != default {
        q.append_pair("profile", profile);
    }
    let q = q.finish();
    if q.is_empty() {
        q
    } else {
        format!("?{q}")
    }
}

/// Renders with a policy that allows this page's own script and styles
/// and nothing else: an injected script or handler would not run.
pub fn render(page: &impl Template, base: &Base, status: StatusCode) -> Response {
    match page.render() {
        Ok(html) => {
            let csp = format!(
                "default-src 'none'; script-src 'nonce-{}'; style-src 'unsafe-inline'; connect-src 'self'; \
                 img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
                base.nonce
            );
            let mut res = (status, Html(html)).into_response();
            if let Ok(v) = HeaderValue::from_str(&csp) {
                res.headers_mut().insert(header::CONTENT_SECURITY_POLICY, v);
            }
            res
        }
        Err(e) => {
            crate::messages::error(format_args!("cannot render a page: {e}"));
            (StatusCode::INTERNAL_SERVER_ERROR, "internal error: cannot render the page").into_response()
        }
    }
}

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage {
    base: Base,
    status: String,
    message: String,
}

fn error_page(st: &State, who: &Who, f: Failure) -> Response {
    let base = Base::new(st, who, "Error", &st.default_profile, vec![st.default_profile.clone()]);
    let status = f.status();
    let page = ErrorPage { status: status.to_string(), message: f.message, base };
    render(&page, &page.base, status)
}

/// The profiles of the user `who` acts for, by their names, for the page's
/// profile menu: a library that cannot be read now offers the default.
pub(super) fn profiles_of(st: &State, who: &Who) -> Vec<String> {
    match read::profiles(st, who) {
        Ok(names) => names,
        Err(f) => {
            crate::messages::warning(format_args!("the profile menu: {}", f.message));
            vec![st.default_profile.clone()]
        }
    }
}

/// Runs `work` off the async threads and renders its page, or the error page.
pub(super) async fn page<F>(st: Arc<State>, who: Who, work: F) -> Response
where
    F: FnOnce(&State, &Who) -> Result<Response, Failure> + Send + 'static,
{
    page_as(Cost::Light, st, who, work).await
}

async fn page_as<F>(cost: Cost, st: Arc<State>, who: Who, work: F) -> Response
where
    F: FnOnce(&State, &Who) -> Result<Response, Failure> + Send + 'static,
{
    let (st2, who2) = (st.clone(), who.clone());
    match blocking_as(cost, move || work(&st2, &who2)).await {
        Ok(res) => res,
        Err(f) => error_page(&st, &who, f),
    }
}

#[derive(Template)]
#[template(path = "day.html")]
struct DayPage {
    base: Base,
    date: String,
    days: Vec<(String, i64)>,
    candidates: usize,
    method: String,
    methods: Vec<&'static str>,
    /// The signals the method's scores are made of: (label, what it weighs).
    legend: Vec<(&'static str, &'static str)>,
    include: String,
    includes: Vec<(&'static str, &'static str)>,
    /// The Top menu's choices, (value, label), the current one among them.
    tops: Vec<(String, String)>,
    top: String,
    /// Days older than the bar's links, for its menu.
    older: Vec<String>,
    /// The day shown is one of `older`: the menu shows it chosen.
    date_is_older: bool,
    cold: bool,
    /// The profile has nothing yet: the page is how it begins.
    new_profile: bool,
    /// The reader's other profiles, for the new-profile banner.
    known: String,
    picks: Vec<Card>,
    /// What the reader marked not interested, apart from the picks.
    not_interested: Vec<Card>,
    unsure: Vec<Card>,
    hidden: Vec<Hidden>,
    /// The profile's bar, by name.
    bar: &'static str,
    /// What the bar or the top left out, in a sentence; empty for nothing.
    more: String,
    /// The page shows the top whatever the bar.
    all: bool,
    /// This view with the bar's leftovers shown, and with the bar again.
    all_url: String,
    lead_url: String,
}

/// This day's page with `extra` parameters beside those every link carries.
fn day_url(date: &str, q: &str, extra: &str) -> String {
    with_query(&format!("/day/{date}"), q, extra)
}

/// `path` with the query every link carries (`q`: empty or `?…`) and then
/// `extra` parameters.
fn with_query(path: &str, q: &str, extra: &str) -> String {
    format!("{path}{q}{}{extra}", if q.is_empty() { '?' } else { '&' })
}

/// Unsure papers the page shows unless told otherwise.
const PAGE_UNSURE: usize = 5;

/// Days the day bar lists as links; older ones are in its menu.
const DAY_LINKS: usize = 14;

fn day_page(st: &State, who: &Who, q: &Params, date: Option<crate::paper::Day>) -> Result<Response, Failure> {
    let named = q.profile(who, &st.default_profile)?;
    let opts = q.day_options(named.key, PAGE_UNSURE, Top::Day)?;
    let known = profiles_of(st, who);
    let new_profile = !known.contains(&named.name);
    let top = opts.top;
    let all = opts.all;
    let include = opts.include.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(",");
    let page_include = include.clone();
    let (days, older) = {
        let lib = st.reader()?;
        let days = lib.store.days(DAY_LINKS, &opts.include)?;
        let older: Vec<String> = lib.store.all_days()?.into_iter().skip(days.len()).map(|d| d.to_string()).collect();
        (days, older)
    };
    let d = read::day(st, who, q, date, opts, true)?;
    let range = score_range(&d.picks);
    let base = Base::new(st, who, format!("digest {}", d.date), &d.profile, profiles_of(st, who));
    let page = DayPage {
        date: d.date.to_string(),
        days,
        candidates: d.candidates,
        method: d.method.to_string(),
        methods: Method::ALL.iter().map(|m| m.name()).collect(),
        legend: d.legend.iter().map(|p| (p.label, p.legend)).collect(),
        include,
        includes: vec![("new,cross", "new and cross-lists"), ("new", "new only"), ("new,cross,replaced", "all, with replacements")],
        tops: top_choices(top, d.candidates),
        top: top_value(top),
        date_is_older: older.contains(&d.date.to_string()),
        older,
        cold: d.cold,
        new_profile,
        known: known.join(", "),
        picks: d.picks.iter().map(|p| Card::from_pick(p, range, d.cold)).collect(),
        not_interested: d.not_interested.iter().map(|p| Card::from_pick(p, range, d.cold)).collect(),
        unsure: unsure_cards(&d.unsure, range, d.cold),
        // The page shows a title's TeX as a reader reads it; JSON keeps the source.
        hidden: d.hidden.iter().map(|h| Hidden { title: crate::report::math::display(&h.title).into_owned(), ..h.clone() }).collect(),
        bar: d.bar.name(),
        more: crate::report::digest::more_text(&d, "").unwrap_or_default(),
        all,
        all_url: day_url(&d.date.to_string(), &base.q, &format!("include={}&all=1", page_include)),
        lead_url: day_url(&d.date.to_string(), &base.q, &format!("include={}", page_include)),
        base,
    };
    Ok(render(&page, &page.base, StatusCode::OK))
}

/// The Top menu: the day's default, common counts, everything, and a count
/// the address asked for that is none of those. The default is named for
/// what it shows of a day of `entries`: all of it, or its first hundred.
fn top_choices(current: Top, entries: usize) -> Vec<(String, String)> {
    let day = if entries < Top::WHOLE_DAY_UNDER { "whole day".to_string() } else { format!("first {}", Top::LONG_DAY) };
    let mut tops: Vec<(String, String)> = vec![(top_value(Top::Day), day)];
    tops.extend([20, 50, 100, 200].map(|n| (n.to_string(), n.to_string())));
    tops.push((top_value(Top::All), "all".into()));
    let value = top_value(current);
    if !tops.iter().any(|(v, _)| *v == value) {
        tops.push((value.clone(), value));
    }
    tops
}

/// The unsure papers best first, as the reader scans every other list; the
/// ranking chose them by doubt, which says nothing about their order.
fn unsure_cards(unsure: &[crate::workflow::digest::Pick], range: (f32, f32), cold: bool) -> Vec<Card> {
    let mut sorted: Vec<_> = unsure.iter().collect();
    sorted.sort_by(|a, b| b.score.total_cmp(&a.score));
    sorted.into_iter().map(|p| Card::from_pick(p, range, cold)).collect()
}

pub async fn today(
    Shared(st): Shared<Arc<State>>,
    Extension(who): Extension<Who>,
    headers: axum::http::HeaderMap,
    Query(q): Query<Params>,
) -> Response {
    let q = q.remembered(&headers);
    page_as(Cost::Heavy, st, who, move |st, who| day_page(st, who, &q, None)).await
}

pub async fn day(
    Shared(st): Shared<Arc<State>>,
    Extension(who): Extension<Who>,
    Path(date): Path<String>,
    headers: axum::http::HeaderMap,
    Query(q): Query<Params>,
) -> Response {
    let q = q.remembered(&headers);
    page_as(Cost::Heavy, st, who, move |st, who| day_page(st, who, &q, Some(checked_date(&date)?))).await
}

#[derive(Template)]
#[template(path = "list.html")]
struct ListPage {
    base: Base,
    heading: String,
    subtitle: String,
    action: String,
    show_query: bool,
    searched: bool,
    refresh: bool,
    notice: String,
    since: String,
    until: String,
    category: String,
    /// The paper a "more like this" page starts from.
    origin: Option<Card>,
    cards: Vec<Card>,
    /// Papers past this page, and the address of the next.
    more: Option<(usize, String)>,
}

/// `h`: the cards' heading level under the page's own headings.
fn neighbour_cards(found: &[crate::workflow::neighbours::Neighbour], rated: &HashMap<String, i8>, h: u8) -> Vec<Card> {
    found
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let mut c = Card::from_neighbour(i + 1, n, rated.get(&n.paper.paper.id).copied().unwrap_or(0));
            c.h = h;
            c
        })
        .collect()
}

fn rated(st: &State, profile: &ProfileKey) -> Result<HashMap<String, i8>, Failure> {
    Ok(ratings::by_id(st.reader()?.store.db(), profile)?)
}

pub async fn like(
    Shared(st): Shared<Arc<State>>,
    Extension(who): Extension<Who>,
    Path(id): Path<String>,
    Query(q): Query<Params>,
) -> Response {
    page(st, who, move |st, who| {
        let Named { name: profile, key } = q.profile(who, &st.default_profile)?;
        let (paper, found) = read::like(st, &id, &q)?;
        let r = rated(st, &key)?;
        let mut origin = Card::new(&paper.paper, paper.first_date.as_deref()).with_gist(paper.gist().as_deref());
        origin.h = 2;
        origin.rating = r.get(&paper.paper.id).copied().unwrap_or(0);
        let page = ListPage {
            base: Base::new(st, who, format!("like {}", paper.paper.id), &profile, profiles_of(st, who)),
            heading: "More like this".into(),
            subtitle: format!("The {} papers nearest by title and abstract to:", found.len()),
            action: format!("/like/{}", paper.paper.id),
            show_query: false,
            searched: true,
            refresh: false,
            notice: String::new(),
            since: Params::value(&q.since),
            until: Params::value(&q.until),
            category: Params::value(&q.category),
            origin: Some(origin),
            cards: neighbour_cards(&found, &r, 3),
            more: None,
        };
        Ok(render(&page, &page.base, StatusCode::OK))
    })
    .await
}

pub async fn search(Shared(st): Shared<Arc<State>>, Extension(who): Extension<Who>, Query(q): Query<Params>) -> Response {
    page_as(Cost::Heavy, st, who, move |st, who| {
        let Named { name: profile, key } = q.profile(who, &st.default_profile)?;
        let text = q.query()?;
        let mut base = Base::new(st, who, "search", &profile, profiles_of(st, who));
        base.search = text.clone().unwrap_or_default();
        let (mut cards, mut notice, mut refresh, mut status) = (Vec::new(), String::new(), false, StatusCode::OK);
        let mut counts = String::new();
        let mut more = None;
        if text.is_some() {
            match read::search(st, &q) {
                Ok((results, note)) => {
                    let r = rated(st, &key)?;
                    let how: Vec<String> = results.found.iter().map(|f| matched(&f.matched)).collect();
                    counts = match_counts(&results, &how);
                    if results.more() > 0 {
                        let next = results.offset + results.found.len();
                        more = Some((results.more(), format!("{}&offset={next}", search_url(&q, &base))));
                    }
                    let hits: Vec<crate::workflow::neighbours::Neighbour> = results.found.into_iter().map(|f| f.hit).collect();
                    cards = neighbour_cards(&hits, &r, 2);
                    for (c, (how, rank)) in cards.iter_mut().zip(how.into_iter().zip(results.offset + 1..)) {
                        c.matched = how;
                        c.rank = rank;
                    }
                    if let Some(note) = note {
                        refresh = st.model_status() == "loading";
                        notice = format!("{note} Meanwhile these match by id, name and words.");
                    } else if cards.is_empty() {
                        notice = "No good match: nothing in the library has these words, this name or id, or a close meaning.".into();
                    }
                }
                // The model still loading is a state to show, not an error page.
                Err(f) if f.is_busy() => {
                    refresh = st.model_status() == "loading";
                    status = f.status();
                    notice = f.message;
                }
                Err(f) => return Err(f),
            }
        }
        let page = ListPage {
            base,
            heading: "Search".into(),
            subtitle: if counts.is_empty() {
                "By arXiv id, author, words (\"quoted phrases\" too) and meaning, best first.".into()
            } else {
                counts
            },
            action: "/search".into(),
            show_query: true,
            searched: text.is_some(),
            refresh,
            notice,
            since: Params::value(&q.since),
            until: Params::value(&q.until),
            category: Params::value(&q.category),
            origin: None,
            cards,
            more,
        };
        Ok(render(&page, &page.base, status))
    })
    .await
}

/// How a search found a paper, in words, the most telling first: "author",
/// "author + words", "words + meaning".
fn matched(how: &[crate::workflow::search::Match]) -> String {
    let mut how = how.to_vec();
    how.sort_by_key(|m| *m as u8);
    how.iter().map(|m| m.name()).collect::<Vec<_>>().join(" + ")
}

/// "20 found: 2 by author, 18 by words + meaning", kinds in the order first met.
fn match_counts(results: &crate::workflow::search::Results, how: &[String]) -> String {
    if how.is_empty() {
        return if results.total > 0 { format!("{} found; none past {}.", results.total, results.total) } else { String::new() };
    }
    let mut kinds: Vec<(&str, usize)> = Vec::new();
    for h in how {
        match kinds.iter_mut().find(|(k, _)| k == h) {
            Some((_, n)) => *n += 1,
            None => kinds.push((h, 1)),
        }
    }
    let parts: Vec<String> = kinds.iter().map(|(k, n)| format!("{n} by {k}")).collect();
    let (from, to) = (results.offset + 1, results.offset + how.len());
    let shown = if from == 1 && to == results.total { String::new() } else { format!(", showing {from}–{to}") };
    format!("{} found{shown}, best first: {}.", results.total, parts.join(", "))
}

/// This search's address (query, scope and page size, with the token and
/// profile every link carries), for its next page.
fn search_url(q: &Params, base: &Base) -> String {
    let mut u = url::form_urlencoded::Serializer::new(String::new());
    for (name, v) in [("q", &q.q), ("k", &q.k), ("since", &q.since), ("until", &q.until), ("category", &q.category)] {
        if let Some(v) = v.as_deref().filter(|v| !v.trim().is_empty()) {
            u.append_pair(name, v);
        }
    }
    with_query("/search", &base.q, &u.finish())
}

#[derive(Template)]
#[template(path = "paper.html")]
struct PaperPage {
    base: Base,
    c: Card,
    versions: Vec<crate::library::store::Version>,
    listings: Vec<crate::library::store::Listing>,
    neighbours: Vec<Card>,
    /// A digest's rating link: what it offers ("liked", 1), applied on a click.
    rate_offer: Option<(&'static str, i8)>,
    /// The account a digest's link was made for, when another is signed in.
    made_for: Option<String>,
}

pub async fn paper(
    Shared(st): Shared<Arc<State>>,
    Extension(who): Extension<Who>,
    Path(id): Path<String>,
    Query(q): Query<Params>,
) -> Response {
    page(st, who, move |st, who| {
        let Named { name: profile, key } = q.profile(who, &st.default_profile)?;
        let Record { paper, mut versions, listings, rating, neighbours } = read::paper(st, who, &id, &q)?;
        for v in &mut versions {
            v.title = crate::report::math::display(&v.title).into_owned();
        }
        let r = rated(st, &key)?;
        let mut rate_offer = q.rate_offer()?;
        let made_for = rate_offer.and(q.made_for_another(who.user.as_deref()));
        if made_for.is_some() {
            rate_offer = None;
        }
        let mut c = Card::new(&paper.paper, paper.first_date.as_deref()).with_gist(paper.gist().as_deref());
        c.rating = rating;
        c.h = 1;
        let mut base = Base::new(st, who, paper.paper.id.clone(), &profile, profiles_of(st, who));
        base.opened = true;
        let page = PaperPage { base, c, versions, listings, neighbours: neighbour_cards(&neighbours, &r, 3), rate_offer, made_for };
        Ok(render(&page, &page.base, StatusCode::OK))
    })
    .await
}

#[derive(Template)]
#[template(path = "seeds.html")]
struct SeedsPage {
    base: Base,
    seeds: Vec<profile::Seed>,
    liked: usize,
    disliked: usize,
    filters: Vec<filters::FilterRule>,
    rules: Vec<&'static str>,
    /// Offer to read a Zotero database by path: only a one-person server.
    zotero: bool,
}

pub async fn seeds(Shared(st): Shared<Arc<State>>, Extension(who): Extension<Who>, Query(q): Query<Params>) -> Response {
    page(st, who, move |st, who| {
        let Named { name: profile, key } = q.profile(who, &st.default_profile)?;
        let profiles = profiles_of(st, who);
        let lib = st.reader()?;
        let conn = lib.store.db();
        let rs = ratings::list(conn, &key)?;
        let page = SeedsPage {
            base: Base::new(st, who, format!("seeds of {profile}"), &profile, profiles),
            seeds: profile::list(conn, &key)?,
            liked: rs.iter().filter(|r| r.rating > 0).count(),
            disliked: rs.iter().filter(|r| r.rating < 0).count(),
            filters: filters::list(conn, &key)?,
            rules: filters::Rule::ALL.iter().map(|r| r.name()).collect(),
            zotero: !st.login,
        };
        Ok(render(&page, &page.base, StatusCode::OK))
    })
    .await
}

#[derive(Template)]
#[template(path = "stats.html")]
struct StatsPage {
    base: Base,
    s: Stats,
    disk: String,
}

pub async fn stats(Shared(st): Shared<Arc<State>>, Extension(who): Extension<Who>, Query(q): Query<Params>) -> Response {
    page(st, who, move |st, who| {
        let profile = q.profile(who, &st.default_profile)?.name;
        let s = read::stats(st, who)?;
        let page = StatsPage {
            base: Base::new(st, who, "stats", &profile, profiles_of(st, who)),
            disk: crate::library::human_bytes(s.disk_bytes),
            s,
        };
        Ok(render(&page, &page.base, StatusCode::OK))
    })
    .await
}

pub async fn not_found(Shared(st): Shared<Arc<State>>, who: Option<Extension<Who>>, uri: axum::http::Uri) -> Response {
    if uri.path().starts_with("/api/") {
        return super::failure::ApiError(Failure::not_found(format!("no endpoint {}", super::view::clip(uri.path())))).into_response();
    }
    match who {
        Some(Extension(who)) => error_page(&st, &who, Failure::not_found("no such page")),
        None => error_page(&st, &Who::nobody(), Failure::not_found("no such page")),
    }
}

#[derive(Template)]
#[template(path = "feed_key.html")]
struct FeedKeyPage {
    base: Base,
    url: String,
}

#[derive(serde::Deserialize)]
pub struct NewFeedKey {
    csrf: Option<String>,
    profile: Option<String>,
}

/// A new key for the signed-in user's feed, shown on this page only: the
/// library keeps its hash, and the old address stops working.
pub async fn new_feed_key(
    Shared(st): Shared<Arc<State>>,
    Extension(who): Extension<Who>,
    headers: axum::http::HeaderMap,
    axum::Form(f): axum::Form<NewFeedKey>,
) -> Response {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or_default().to_string();
    page(st, who, move |st, who| {
        let Some(user) = who.user.as_deref().filter(|_| who.signed_in) else {
            return Err(Failure::forbidden("a feed address belongs to a signed-in user"));
        };
        if !super::guard::same_token(f.csrf.as_deref().unwrap_or(""), &who.csrf) {
            return Err(Failure::forbidden("make a feed address from this server's own page"));
        }
        let Named { name: profile, .. } = who.profile(f.profile.as_deref(), &st.default_profile)?;
        let key = crate::accounts::rotate_feed_key(st.writer()?.store.db(), user)?;
        let scheme = if st.hosts.https() { "https" } else { "http" };
        let query = url::form_urlencoded::Serializer::new(String::new()).append_pair("profile", &profile).append_pair("key", &key).finish();
        let page = FeedKeyPage {
            base: Base::new(st, who, "your feed address", &profile, profiles_of(st, who)),
            url: format!("{scheme}://{host}/feed.atom?{query}"),
        };
        let mut res = render(&page, &page.base, StatusCode::OK);
        res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        Ok(res)
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tops_default_is_named_for_what_it_shows() {
        let label = |entries| top_choices(Top::Day, entries)[0].1.clone();
        assert_eq!(label(Top::WHOLE_DAY_UNDER - 1), "whole day");
        assert_eq!(label(537), format!("first {}", Top::LONG_DAY));
        // A count the address asked for is offered, and chosen.
        assert!(top_choices(Top::Count(7), 300).iter().any(|(v, l)| v == "7" && l == "7"));
    }
}
