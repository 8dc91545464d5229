//! The JSON twins of the pages and every write. Reads answer what the
//! command line's `--json` prints (as one JSON array instead of lines);
//! writes take a small JSON body through [`Write`], which checks the page's
//! CSRF token first. Every body and answer is a type here; an answer is
//! written with its keys in sorted order, as this API always has (serde
//! JSON's maps sort them), so that clients comparing answers see no churn.

use super::failure::{ApiError, Failure, Refusal};
use super::read;
use super::session::{Named, Who};
use super::state::{in_time, State, WORK_BUDGET};
use super::view::{checked_id, clip, Params};
use super::work::{blocking, blocking_as, Cost};
use crate::fetch::FetchOpts;
use crate::library::store::{self, Db, Listing, Version};
use crate::library::Served;
use crate::paper::Paper;
use crate::profile::{self, filters, ratings};
use crate::report;
use crate::report::digest::DigestLine;
use crate::report::json::{FoundLine, NeighbourLine};
use crate::workflow::seeds;
use crate::workflow::stats::Stats;
use axum::extract::{FromRef, FromRequest, Path, Query, Request, State as Shared};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// An answer of shape `T`, its keys in sorted order.
pub struct Answer<T>(pub T);

impl<T: Serialize> IntoResponse for Answer<T> {
    fn into_response(self) -> Response {
        match serde_json::to_value(&self.0) {
            Ok(v) => Json(v).into_response(),
            Err(e) => ApiError(Failure::from_error(e.into())).into_response(),
        }
    }
}

type Api<T> = Result<Answer<T>, ApiError>;

// ---- reads ----

/// The day for the API and the feed: the newest top 20 unless asked.
fn day_of(st: &State, who: &Who, q: &Params) -> Result<crate::workflow::digest::Digest, Failure> {
    let opts = q.day_options(q.profile(who, &st.default_profile)?.key, 0, crate::workflow::digest::Top::Count(20))?;
    read::day(st, who, q, None, opts, false)
}

pub async fn daily(Shared(st): Shared<Arc<State>>, Extension(who): Extension<Who>, Query(q): Query<Params>) -> Api<Vec<DigestLine>> {
    let d = blocking_as(Cost::Heavy, move || day_of(&st, &who, &q)).await?;
    Ok(Answer(report::digest::json_lines(&d)))
}

/// The profile's picks of the day as an Atom feed, the bytes `daily
/// --format atom --link-base` writes with this server as the base: each
/// entry's 👍/👎 lead back here, under the name the reader reached it by
/// (a `Host` the guard has already allowed).
pub async fn feed(
    Shared(st): Shared<Arc<State>>,
    Extension(who): Extension<Who>,
    headers: axum::http::HeaderMap,
    Query(q): Query<Params>,
) -> Result<Response, ApiError> {
    let scheme = if st.hosts.https() { "https" } else { "http" };
    let links = match headers.get(axum::http::header::HOST).and_then(|h| h.to_str().ok()) {
        Some(host) => report::Links::to_server(&format!("{scheme}://{host}")).map_err(|e| Failure::bad_request(format!("Host: {e}")))?,
        None => report::Links::default(),
    };
    let d = blocking_as(Cost::Heavy, move || day_of(&st, &who, &q)).await?;
    let body = crate::delivery::render(crate::delivery::DigestFormat::Atom, &d, &links).map_err(anyhow::Error::from)?;
    Ok(([(axum::http::header::CONTENT_TYPE, "application/atom+xml; charset=utf-8")], body).into_response())
}

pub async fn like(Shared(st): Shared<Arc<State>>, Path(id): Path<String>, Query(q): Query<Params>) -> Api<Vec<NeighbourLine>> {
    let (_, found) = blocking(move || read::like(&st, &id, &q)).await?;
    Ok(Answer(found.iter().map(NeighbourLine::of).collect()))
}

pub async fn search(Shared(st): Shared<Arc<State>>, Query(q): Query<Params>) -> Api<Vec<FoundLine>> {
    let (results, _) = blocking_as(Cost::Heavy, move || read::search(&st, &q)).await?;
    Ok(Answer(results.found.iter().map(FoundLine::of).collect()))
}

/// `GET /api/paper/ID`: the paper as `parse --json` gives it, with what the
/// library knows of it.
#[derive(Serialize)]
pub struct PaperAnswer {
    #[serde(flatten)]
    paper: Paper,
    /// What the paper does ([`crate::gist`]); `null` when it has no gist.
    gist: Option<String>,
    first_date: Option<String>,
    versions: Vec<Version>,
    listings: Vec<Listing>,
    rating: i8,
    neighbours: Vec<NeighbourLine>,
}

pub async fn paper(
    Shared(st): Shared<Arc<State>>,
    Extension(who): Extension<Who>,
    Path(id): Path<String>,
    Query(q): Query<Params>,
) -> Api<PaperAnswer> {
    let r = blocking(move || read::paper(&st, &who, &id, &q)).await?;
    Ok(Answer(PaperAnswer {
        neighbours: r.neighbours.iter().map(NeighbourLine::of).collect(),
        gist: r.paper.gist(),
        first_date: r.paper.first_date,
        paper: r.paper.paper,
        versions: r.versions,
        listings: r.listings,
        rating: r.rating,
    }))
}

/// One of the profile's lists (`q.profile`, else the server's), as JSON.
async fn profile_list<T: Serialize + Send + 'static>(
    st: Arc<State>,
    who: Who,
    q: Params,
    read: fn(Db<'_>, &store::ProfileKey) -> anyhow::Result<Vec<T>>,
) -> Api<Vec<T>> {
    let list = blocking(move || {
        let named = q.profile(&who, &st.default_profile)?;
        Ok(read(st.reader()?.store.db(), &named.key)?)
    })
    .await?;
    Ok(Answer(list))
}

/// As `seed list --json`.
pub async fn seeds(Shared(st): Shared<Arc<State>>, Extension(who): Extension<Who>, Query(q): Query<Params>) -> Api<Vec<profile::Seed>> {
    profile_list(st, who, q, profile::list).await
}

pub async fn ratings(Shared(st): Shared<Arc<State>>, Extension(who): Extension<Who>, Query(q): Query<Params>) -> Api<Vec<ratings::Rating>> {
    profile_list(st, who, q, ratings::list).await
}

/// As `filter list --json`.
pub async fn filters(
    Shared(st): Shared<Arc<State>>,
    Extension(who): Extension<Who>,
    Query(q): Query<Params>,
) -> Api<Vec<filters::FilterRule>> {
    profile_list(st, who, q, filters::list).await
}

/// How `like` is answered here, as measured on this library.
#[derive(Serialize)]
pub struct LikeSearch {
    engine: &'static str,
    search_width: Option<usize>,
    recall_at_10: f32,
    queries: usize,
}

impl From<&Served> for LikeSearch {
    fn from(s: &Served) -> LikeSearch {
        LikeSearch { engine: s.engine(), search_width: s.search_width(), recall_at_10: s.recall(), queries: s.queries() }
    }
}

/// As `stats --json`, plus the model's state and how `like` is answered.
#[derive(Serialize)]
pub struct StatsAnswer {
    #[serde(flatten)]
    stats: Stats,
    model_status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    like_search: Option<LikeSearch>,
}

pub async fn stats(Shared(st): Shared<Arc<State>>, Extension(who): Extension<Who>) -> Api<StatsAnswer> {
    let answer = blocking(move || {
        // The library holds no vectors yet (503): there is no like search.
        let served = match st.reader().and_then(|lib| st.vectors(&lib)) {
            Ok(snap) => Some(LikeSearch::from(&snap.served)),
            Err(f) if f.is_busy() => None,
            Err(f) => return Err(f),
        };
        Ok(StatsAnswer { stats: read::stats(&st, &who)?, model_status: st.model_status(), like_search: served })
    })
    .await?;
    Ok(Answer(answer))
}

// ---- writes ----

/// A write's body names the profile it changes (else the server's).
pub trait NamesProfile {
    fn profile(&self) -> Option<&str>;
}

/// A write: who sends it, its JSON body, and the profile the body names,
/// resolved for them. Taking one checks the page's CSRF token before the
/// body is read; a body that does not parse is one 400 (413 and 415 keep
/// their own status).
pub struct Write<T> {
    pub who: Who,
    pub body: T,
    pub profile: Named,
}

impl<S, T> FromRequest<S> for Write<T>
where
    S: Send + Sync,
    Arc<State>: FromRef<S>,
    T: DeserializeOwned + NamesProfile,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let who = req.extensions().get::<Who>().cloned().ok_or_else(|| Failure::forbidden("no session for this request"))?;
        who.check_csrf(req.headers())?;
        let body = match Json::<T>::from_request(req, state).await {
            Ok(Json(body)) => body,
            Err(e) => {
                let refusal = Refusal::of_rejection(e.status());
                return Err(Failure { refusal, message: format!("bad request body: {}", e.body_text()) }.into());
            }
        };
        let st = Arc::<State>::from_ref(state);
        let profile = who.profile(body.profile(), &st.default_profile)?;
        Ok(Write { who, body, profile })
    }
}

macro_rules! names_profile {
    ($($t:ty),*) => {$(
        impl NamesProfile for $t {
            fn profile(&self) -> Option<&str> {
                self.profile.as_deref()
            }
        }
    )*};
}
names_profile!(RateBody, SeenBody, SeedBody, AddSeedBody, FilterBody, BarBody);

#[derive(Deserialize)]
pub struct RateBody {
    id: String,
    rating: i8,
    profile: Option<String>,
}

#[derive(Serialize)]
pub struct Rated {
    id: String,
    rating: i8,
    profile: String,
}

pub async fn rate(Shared(st): Shared<Arc<State>>, w: Write<RateBody>) -> Api<Rated> {
    let Write { body: b, profile: p, .. } = w;
    if !(-1..=1).contains(&b.rating) {
        return Err(Failure::bad_request("rating is 1 (liked), -1 (not interested) or 0 (clear)").into());
    }
    let id = checked_id(&b.id)?;
    let answer = blocking(move || {
        let mut lib = st.writer()?;
        let paper = lib.store.get_paper(&id.id)?.ok_or_else(|| Failure::not_found(format!("{} is not in the library", id.id)))?;
        let tx = lib.store.transaction().map_err(Failure::from)?;
        let r = ratings::rate(tx.db(), &p.key, &paper, b.rating, &store::now())?;
        tx.commit()?;
        drop(lib);
        // A paper's vector is normally stored already; one that is not is
        // embedded now, if the model is up, so the new seed counts at once
        // (briefly: a rating answers within a second or so).
        if let Ok(e) = st.embedder() {
            st.embed_seeds(&p.key, e.as_ref(), std::time::Instant::now() + RATE_EMBED_BUDGET)?;
        }
        Ok(Rated { id: paper.paper.id, rating: r.map_or(0, |r| r.rating), profile: p.name })
    })
    .await?;
    Ok(Answer(answer))
}

#[derive(Deserialize)]
pub struct SeenBody {
    id: String,
    profile: Option<String>,
}

#[derive(Serialize)]
pub struct Seen {
    id: String,
    seen: bool,
    profile: String,
}

pub async fn seen(Shared(st): Shared<Arc<State>>, w: Write<SeenBody>) -> Api<Seen> {
    let Write { body: b, profile: p, .. } = w;
    let id = checked_id(&b.id)?;
    let answer = blocking(move || {
        let lib = st.writer()?;
        if lib.store.get_paper(&id.id)?.is_none() {
            return Err(Failure::not_found(format!("{} is not in the library", id.id)));
        }
        ratings::mark_seen(lib.store.db(), &p.key, &id.id, &store::now())?;
        Ok(Seen { id: id.id, seen: true, profile: p.name })
    })
    .await?;
    Ok(Answer(answer))
}

/// A seed named in a write: by its key, for removing, weighing or moving.
#[derive(Deserialize)]
pub struct SeedBody {
    key: String,
    profile: Option<String>,
    weight: Option<f32>,
    to: Option<String>,
}

fn seed_key(key: &str) -> Result<String, Failure> {
    if key.starts_with("text:") && key.len() <= 64 {
        return Ok(key.to_string());
    }
    Ok(checked_id(key)?.id)
}

fn no_seed(key: &str, p: &Named) -> Failure {
    Failure::not_found(format!("{} is not a seed of profile {:?}", clip(key), p.name))
}

#[derive(Serialize)]
pub struct SeedRemoved {
    key: String,
    removed: bool,
    profile: String,
}

pub async fn remove_seed(Shared(st): Shared<Arc<State>>, w: Write<SeedBody>) -> Api<SeedRemoved> {
    let Write { body: b, profile: p, .. } = w;
    let key = seed_key(&b.key)?;
    let answer = blocking(move || {
        let mut lib = st.writer()?;
        let tx = lib.store.transaction().map_err(Failure::from)?;
        if !profile::remove(tx.db(), &p.key, std::slice::from_ref(&key))?.is_empty() {
            return Err(no_seed(&key, &p));
        }
        tx.commit()?;
        Ok(SeedRemoved { key, removed: true, profile: p.name })
    })
    .await?;
    Ok(Answer(answer))
}

#[derive(Deserialize)]
pub struct AddSeedBody {
    /// An arXiv id (`2507.07400`, `hep-th/9901001v2`) or its abs/pdf URL.
    id: Option<String>,
    /// Interests described in a sentence or two.
    text: Option<String>,
    profile: Option<String>,
    #[serde(default)]
    negative: bool,
}

#[derive(Serialize)]
pub struct SeedsAdded {
    profile: String,
    new: usize,
    updated: usize,
    embedded: usize,
    looked_up: Vec<String>,
}

/// The longest interest text taken: a few paragraphs, not a book.
const MAX_SEED_TEXT: usize = 4_000;
/// Time for embedding the seeds a rating brings: its own one; what a
/// larger backlog leaves is embedded later.
const RATE_EMBED_BUDGET: std::time::Duration = std::time::Duration::from_secs(1);

/// `POST /api/seeds/add` `{"id": …}` or `{"text": …}`: a seed added from
/// the browser as `seed add` adds it. A paper the library lacks is looked
/// up on arXiv first, outside any lock; the text is embedded with the
/// model the server holds (503 while it loads).
pub async fn add_seed(Shared(st): Shared<Arc<State>>, w: Write<AddSeedBody>) -> Api<SeedsAdded> {
    let deadline = std::time::Instant::now() + WORK_BUDGET;
    let Write { body: b, profile: p, .. } = w;
    let (items, text) = match (b.id.as_deref().map(str::trim), b.text.as_deref().map(str::trim)) {
        (Some(id), None) if !id.is_empty() => (vec![checked_id(id)?.id], None),
        (None, Some(t)) if !t.is_empty() && t.len() <= MAX_SEED_TEXT => (Vec::new(), Some(t.to_string())),
        (None, Some(t)) if !t.is_empty() => {
            return Err(Failure::bad_request(format!("the text is {} bytes; at most {MAX_SEED_TEXT} are taken", t.len())).into())
        }
        _ => return Err(Failure::bad_request("give {\"id\": an arXiv id or URL} or {\"text\": a sentence about your interests}").into()),
    };
    let embedder = st.embedder()?;
    let answer = blocking_as(Cost::Heavy, move || {
        let missing = seeds::missing_ids(&*st.reader()?, &items, false)?;
        let found = if missing.is_empty() { Vec::new() } else { seeds::look_up(&missing, &FetchOpts::from_env())? };
        in_time(deadline, "looking the papers up on arXiv")?;
        let mut lib = st.writer()?;
        lib.add_papers(&found)?;
        let request = seeds::SeedRequest {
            items: &items,
            files: false,
            text: text.as_deref(),
            title: None,
            abstract_text: None,
            weight: 1.0,
            negative: b.negative,
            fetch: None,
        };
        let done = seeds::add_with(&mut lib, &p.key, &request, |_| Ok(0))?;
        drop(lib);
        let embedded = st.embed_seeds(&p.key, embedder.as_ref(), deadline)?;
        Ok(SeedsAdded {
            profile: p.name,
            new: done.added.new,
            updated: done.added.updated,
            embedded: embedded.embedded,
            looked_up: found.into_iter().map(|p| p.id).collect(),
        })
    })
    .await?;
    Ok(Answer(answer))
}

#[derive(Serialize)]
pub struct SeedWeighed {
    key: String,
    weight: f32,
    profile: String,
}

pub async fn weigh_seed(Shared(st): Shared<Arc<State>>, w: Write<SeedBody>) -> Api<SeedWeighed> {
    let Write { body: b, profile: p, .. } = w;
    let key = seed_key(&b.key)?;
    let weight = b.weight.ok_or_else(|| Failure::bad_request("give the new weight"))?;
    if !(weight.is_finite() && weight > 0.0 && weight <= 100.0) {
        return Err(Failure::bad_request("a weight is a number above 0 and at most 100").into());
    }
    let answer = blocking(move || {
        let lib = st.writer()?;
        if !profile::set_weight(lib.store.db(), &p.key, &key, weight)? {
            return Err(no_seed(&key, &p));
        }
        Ok(SeedWeighed { key, weight, profile: p.name })
    })
    .await?;
    Ok(Answer(answer))
}

#[derive(Serialize)]
pub struct SeedMoved {
    key: String,
    profile: String,
    from: String,
}

pub async fn move_seed(Shared(st): Shared<Arc<State>>, w: Write<SeedBody>) -> Api<SeedMoved> {
    let Write { who, body: b, profile: p } = w;
    let key = seed_key(&b.key)?;
    let to = b.to.as_deref().filter(|t| !t.trim().is_empty()).ok_or_else(|| Failure::bad_request("give the profile to move to in `to`"))?;
    let to = who.profile(Some(to), &st.default_profile)?;
    let answer = blocking(move || {
        let mut lib = st.writer()?;
        let tx = lib.store.transaction().map_err(Failure::from)?;
        if !profile::move_seed(tx.db(), &p.key, &key, &to.key)? {
            return Err(no_seed(&key, &p));
        }
        tx.commit()?;
        // The seed's vector is shared by text, so the new profile needs none.
        Ok(SeedMoved { key, profile: to.name, from: p.name })
    })
    .await?;
    Ok(Answer(answer))
}

/// What a filter write does; `add` when the body says nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    #[default]
    Add,
    Rm,
}

#[derive(Deserialize)]
pub struct FilterBody {
    rule: String,
    value: String,
    #[serde(default)]
    action: Action,
    profile: Option<String>,
}

#[derive(Serialize)]
pub struct FilterChanged {
    rule: filters::Rule,
    value: String,
    action: Action,
    changed: bool,
    profile: String,
}

pub async fn change_filter(Shared(st): Shared<Arc<State>>, w: Write<FilterBody>) -> Api<FilterChanged> {
    let Write { body: b, profile: p, .. } = w;
    let rule = filters::Rule::parse(&b.rule)
        .ok_or_else(|| Failure::bad_request(format!("{:?} is not a rule: include, exclude, author, allow or deny", clip(&b.rule))))?;
    if b.action == Action::Add {
        filters::normalise(rule, &b.value).map_err(|e| Failure::bad_request(e.to_string()))?;
    }
    let answer = blocking(move || {
        let lib = st.writer()?;
        let changed = match b.action {
            Action::Add => filters::add(lib.store.db(), &p.key, rule, &b.value)?,
            Action::Rm => filters::remove(lib.store.db(), &p.key, rule, &b.value)?,
        };
        Ok(FilterChanged { rule, value: b.value, action: b.action, changed, profile: p.name })
    })
    .await?;
    Ok(Answer(answer))
}

#[derive(Deserialize)]
pub struct BarBody {
    /// strict, usual or loose; or stricter or looser, one step from where it is.
    to: String,
    profile: Option<String>,
}

#[derive(Serialize)]
pub struct BarSet {
    bar: crate::rank::Bar,
    was: crate::rank::Bar,
    profile: String,
}

/// Moves where the profile's digest stops ([`crate::rank::Bar`]).
pub async fn set_bar(Shared(st): Shared<Arc<State>>, w: Write<BarBody>) -> Api<BarSet> {
    let Write { body: b, profile: p, .. } = w;
    let answer = blocking(move || {
        let lib = st.writer()?;
        let was = crate::profile::bar(lib.store.db(), &p.key)?;
        let bar = match b.to.as_str() {
            "stricter" => was.stricter(),
            "looser" => was.looser(),
            to => crate::rank::Bar::parse(to)
                .ok_or_else(|| Failure::bad_request(format!("{:?} is not a bar: strict, usual, loose, stricter or looser", clip(to))))?,
        };
        crate::profile::set_bar(lib.store.db(), &p.key, bar)?;
        Ok(BarSet { bar, was, profile: p.name })
    })
    .await?;
    Ok(Answer(answer))
}
