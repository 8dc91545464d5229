//! The JSON twins of the pages and every write. Reads return what the
//! command line's `--json` prints (as one JSON array instead of lines);
//! writes take a small JSON body and the page's CSRF token.

use super::failure::{blocking, blocking_as, ApiError, Cost, Failure};
use super::guard::same_token;
use super::session::Who;
use super::state::State;
use super::view::{checked_id, clip, Params};
use crate::fetch::FetchOpts;
use crate::library::store::StoredPaper;
use crate::library::Library;
use crate::profile::{self, filters, ratings};
use crate::report;
use crate::workflow::digest::{self, Digest};
use crate::workflow::neighbours::{self, Neighbour};
use crate::workflow::search::{self, Found};
use crate::workflow::seeds;
use crate::workflow::stats;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query, State as Shared};
use axum::http::{HeaderMap, StatusCode};
use axum::Extension;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

type Api = Result<Json<Value>, ApiError>;

pub fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

// ---- the work behind both a page and its JSON twin ----

/// A day ranked for the profile in `q`: `date`, else `q.date`, else the newest day.
pub fn day_digest(st: &State, who: &Who, q: &Params, date: Option<String>, unsure: usize) -> Result<Digest, Failure> {
    let mut opts = q.day_options(&st.default_profile, unsure)?;
    let name = std::mem::take(&mut opts.profile);
    opts.profile = who.key(&name);
    let lib = st.reader()?;
    // A profile or day the library does not have is a typo or an old link,
    // not an empty digest: say which there are.
    if name != st.default_profile {
        let known = profiles_of(&lib, st, who);
        if !known.contains(&name) {
            return Err(Failure::not_found(format!("no profile {name:?}; the profiles are {}", known.join(", "))));
        }
    }
    let day = match date.or(q.date()?) {
        Some(d) if !lib.store.has_day(&d)? => {
            let days: Vec<String> = lib.store.days(7, &[])?.into_iter().map(|(d, _)| d).collect();
            return Err(Failure::not_found(match days.is_empty() {
                true => format!("no listing on {d}: the library has no listings yet"),
                false => format!("no listing on {d}; the newest days are {}", days.join(", ")),
            }));
        }
        Some(d) => d,
        None => lib
            .store
            .newest_day()?
            .ok_or_else(|| Failure::not_found("the library has no listings yet; run `paperscout ingest` with a listing"))?,
    };
    let snap = st.vectors(&lib)?;
    let mut d = digest::rank_day(&lib, &snap.vectors.flat, &snap.words, &day, &opts)?;
    d.profile = name;
    Ok(d)
}

/// The profiles `who` has, by the names they see (the server's default
/// first when it has no row yet).
pub fn profiles_of(lib: &Library, st: &State, who: &Who) -> Vec<String> {
    let keys = profile::names(lib.store.conn()).unwrap_or_default();
    let mut names: Vec<String> = keys.iter().filter_map(|k| crate::accounts::own_profile(who.user.as_deref(), k)).collect();
    if !names.contains(&st.default_profile) {
        names.insert(0, st.default_profile.clone());
    }
    names
}

pub fn like_results(st: &State, id: &str, q: &Params) -> Result<(StoredPaper, Vec<Neighbour>), Failure> {
    let id = checked_id(id)?;
    let (k, scope) = (q.k()?, q.scope()?);
    let lib = st.reader()?;
    let snap = st.vectors(&lib)?;
    let (paper, v) = neighbours::paper_query(&lib, &snap.vectors.flat.model, &id.id)?;
    let found = neighbours::nearest(&lib, &snap.vectors, &v, k, Some(paper.rowid), &scope)?;
    Ok((paper, found))
}

/// Papers found for `q` by id, name, words and meaning; while the model
/// loads, by id, name and words alone, with a note that says so.
pub fn search_results(st: &State, q: &Params) -> Result<(Vec<Found>, Option<String>), Failure> {
    let text = q.query()?.ok_or_else(|| Failure::bad_request("give the text to search for in q"))?;
    let (k, scope) = (q.k()?, q.scope()?);
    let lib = st.reader()?;
    let snap = st.vectors(&lib)?;
    let lexical = snap.lexical.as_ref();
    let (v, note) = match st.embed(&text) {
        Ok(v) => (Some(v), None),
        Err(f) if f.status == StatusCode::SERVICE_UNAVAILABLE && lexical.is_some() => (None, Some(f.message)),
        Err(f) => return Err(f),
    };
    let meaning = v.as_deref().map(|v| (&snap.vectors, v));
    Ok((search::find(&lib, lexical, meaning, &text, k, &scope)?, note))
}

/// A paper with its versions, listing days, the profile's rating and its neighbours.
pub struct Record {
    pub paper: StoredPaper,
    pub versions: Vec<(i64, String)>,
    pub listings: Vec<(String, String, String)>,
    pub rating: i8,
    pub neighbours: Vec<Neighbour>,
}

pub fn paper_record(st: &State, who: &Who, id: &str, q: &Params) -> Result<Record, Failure> {
    let id = checked_id(id)?;
    let profile = who.key(&q.profile(&st.default_profile)?);
    let lib = st.reader()?;
    let paper = lib.store.get_paper(&id.id)?.ok_or_else(|| Failure::not_found(format!("{} is not in the library", id.id)))?;
    let neighbours = match st.vectors(&lib) {
        Ok(snap) => match lib.store.vector(&snap.vectors.flat.model, &paper.text_hash)? {
            Some(v) => neighbours::nearest(&lib, &snap.vectors, &v, 10, Some(paper.rowid), &Default::default())?,
            None => Vec::new(),
        },
        Err(_) => Vec::new(),
    };
    Ok(Record {
        versions: lib.store.versions(&paper.paper.id)?,
        listings: lib.store.listings_of(&paper.paper.id)?,
        rating: ratings::get(lib.store.conn(), &profile, &paper.paper.id)?.map_or(0, |r| r.rating),
        neighbours,
        paper,
    })
}

// ---- reads ----

pub async fn daily(Shared(st): Shared<Arc<State>>, Extension(who): Extension<Who>, Query(q): Query<Params>) -> Api {
    let d = blocking_as(Cost::Heavy, move || day_digest(&st, &who, &q, None, 0)).await?;
    Ok(Json(Value::Array(report::digest::json_values(&d))))
}

/// The profile's picks of the day as an Atom feed, the bytes `daily
/// --format atom --link-base` writes with this server as the base: each
/// entry's 👍/👎 lead back here, under the name the reader reached it by
/// (a `Host` the guard has already allowed).
pub async fn feed(
    Shared(st): Shared<Arc<State>>,
    Extension(who): Extension<Who>,
    headers: HeaderMap,
    Query(q): Query<Params>,
) -> Result<axum::response::Response, ApiError> {
    use axum::response::IntoResponse;
    let scheme = if st.hosts.https() { "https" } else { "http" };
    let links = headers
        .get(axum::http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .and_then(|host| report::Links::to_server(&format!("{scheme}://{host}")).ok())
        .unwrap_or_default();
    let d = blocking_as(Cost::Heavy, move || day_digest(&st, &who, &q, None, 0)).await?;
    let body = report::render(report::DigestFormat::Atom, &d, &links).map_err(anyhow::Error::from)?;
    Ok(([(axum::http::header::CONTENT_TYPE, "application/atom+xml; charset=utf-8")], body).into_response())
}

pub async fn like(Shared(st): Shared<Arc<State>>, Path(id): Path<String>, Query(q): Query<Params>) -> Api {
    let (_, found) = blocking(move || like_results(&st, &id, &q)).await?;
    Ok(Json(found.iter().map(report::json::neighbour).collect()))
}

pub async fn search(Shared(st): Shared<Arc<State>>, Query(q): Query<Params>) -> Api {
    let (found, _) = blocking_as(Cost::Heavy, move || search_results(&st, &q)).await?;
    Ok(Json(found.iter().map(report::json::found_value).collect()))
}

pub async fn paper(Shared(st): Shared<Arc<State>>, Extension(who): Extension<Who>, Path(id): Path<String>, Query(q): Query<Params>) -> Api {
    let r = blocking(move || paper_record(&st, &who, &id, &q)).await?;
    let mut obj = serde_json::to_value(&r.paper.paper).map_err(anyhow::Error::from)?;
    if let Some(o) = obj.as_object_mut() {
        o.insert("first_date".into(), json!(r.paper.first_date));
        o.insert("versions".into(), r.versions.iter().map(|(v, t)| json!({"version": v, "title": t})).collect());
        o.insert("listings".into(), r.listings.iter().map(|(d, c, k)| json!({"date": d, "category": c, "kind": k})).collect());
        o.insert("rating".into(), json!(r.rating));
        o.insert("neighbours".into(), r.neighbours.iter().map(report::json::neighbour).collect());
    }
    Ok(Json(obj))
}

/// One of the profile's lists (`q.profile`, else the server's), as JSON.
async fn profile_list<T: serde::Serialize + Send + 'static>(
    st: Arc<State>,
    who: Who,
    q: Params,
    read: fn(&rusqlite::Connection, &str) -> anyhow::Result<Vec<T>>,
) -> Api {
    let list = blocking(move || {
        let profile = who.key(&q.profile(&st.default_profile)?);
        Ok(read(st.reader()?.store.conn(), &profile)?)
    })
    .await?;
    Ok(Json(serde_json::to_value(list).map_err(anyhow::Error::from)?))
}

/// As `seed list --json`.
pub async fn seeds(Shared(st): Shared<Arc<State>>, Extension(who): Extension<Who>, Query(q): Query<Params>) -> Api {
    profile_list(st, who, q, profile::list).await
}

pub async fn ratings(Shared(st): Shared<Arc<State>>, Extension(who): Extension<Who>, Query(q): Query<Params>) -> Api {
    profile_list(st, who, q, ratings::list).await
}

/// As `filter list --json`.
pub async fn filters(Shared(st): Shared<Arc<State>>, Extension(who): Extension<Who>, Query(q): Query<Params>) -> Api {
    profile_list(st, who, q, filters::list).await
}

/// As `stats --json`, plus the model's state.
/// The library's figures, with only the profiles of the user `who` acts for.
pub fn own_stats(st: &State, who: &Who) -> Result<stats::Stats, Failure> {
    let mut s = stats::collect(&*st.reader()?)?;
    s.profiles.retain_mut(|p| match crate::accounts::own_profile(who.user.as_deref(), &p.profile) {
        Some(name) => {
            p.profile = name;
            true
        }
        None => false,
    });
    Ok(s)
}

pub async fn stats(Shared(st): Shared<Arc<State>>, Extension(who): Extension<Who>) -> Api {
    let (s, model, served) = blocking(move || {
        let served = st.reader().and_then(|lib| st.vectors(&lib)).ok().map(|snap| snap.served.clone());
        Ok((own_stats(&st, &who)?, st.model_status(), served))
    })
    .await?;
    let mut v = serde_json::to_value(s).map_err(anyhow::Error::from)?;
    if let Some(o) = v.as_object_mut() {
        o.insert("model_status".into(), json!(model));
        // How `like` is answered here, as measured on this library.
        if let Some(sv) = served {
            let engine = if sv.search_width.is_some() {
                "index"
            } else if sv.queries > 0 {
                "sketch"
            } else {
                "exact"
            };
            o.insert(
                "like_search".into(),
                json!({"engine": engine, "search_width": sv.search_width, "recall_at_10": sv.recall, "queries": sv.queries}),
            );
        }
    }
    Ok(Json(v))
}

// ---- writes ----

/// Every write must carry the token its page was served with.
pub(super) fn check_csrf(who: &Who, headers: &HeaderMap) -> Result<(), Failure> {
    let sent = headers.get("x-csrf-token").and_then(|v| v.to_str().ok()).unwrap_or("");
    if same_token(sent, &who.csrf) {
        Ok(())
    } else {
        Err(Failure::forbidden("missing or wrong X-CSRF-Token header: reload the page and try again"))
    }
}

pub(super) fn body<T>(b: Result<Json<T>, JsonRejection>) -> Result<T, Failure> {
    b.map(|Json(v)| v).map_err(|e| {
        // Too large and not JSON keep their own status; every other body
        // that does not fit (bad syntax, wrong types) is a plain 400.
        let status = match e.status() {
            s @ (StatusCode::PAYLOAD_TOO_LARGE | StatusCode::UNSUPPORTED_MEDIA_TYPE) => s,
            _ => StatusCode::BAD_REQUEST,
        };
        Failure { status, message: format!("bad request body: {}", e.body_text()) }
    })
}

/// The profile a write names: its name, and its key as stored for `who`.
pub(super) fn profile_of(st: &State, who: &Who, p: &Option<String>) -> Result<(String, String), Failure> {
    let name = Params { profile: p.clone(), ..Default::default() }.profile(&st.default_profile)?;
    let key = who.key(&name);
    Ok((name, key))
}

#[derive(Deserialize)]
pub struct RateBody {
    id: String,
    rating: i8,
    profile: Option<String>,
}

pub async fn rate(
    Shared(st): Shared<Arc<State>>,
    Extension(who): Extension<Who>,
    headers: HeaderMap,
    b: Result<Json<RateBody>, JsonRejection>,
) -> Api {
    check_csrf(&who, &headers)?;
    let b = body(b)?;
    let (profile, owned) = profile_of(&st, &who, &b.profile)?;
    if !(-1..=1).contains(&b.rating) {
        return Err(Failure::bad_request("rating is 1 (liked), -1 (not interested) or 0 (clear)").into());
    }
    let id = checked_id(&b.id)?;
    let v = blocking(move || {
        let mut lib = st.writer()?;
        let paper = lib.store.get_paper(&id.id)?.ok_or_else(|| Failure::not_found(format!("{} is not in the library", id.id)))?;
        let tx = lib.store.transaction().map_err(Failure::from)?;
        let r = ratings::rate(&tx, &owned, &paper, b.rating, &now())?;
        tx.commit().map_err(anyhow::Error::from)?;
        // A paper's vector is normally stored already; one that is not is
        // embedded now, if the model is up, so the new seed counts at once.
        if let Ok(e) = st.embedder() {
            profile::embed_missing(&mut lib, &owned, e.as_ref())?;
        }
        Ok(json!({"id": paper.paper.id, "rating": r.map_or(0, |r| r.rating), "profile": profile}))
    })
    .await?;
    Ok(Json(v))
}

#[derive(Deserialize)]
pub struct SeenBody {
    id: String,
    profile: Option<String>,
}

pub async fn seen(
    Shared(st): Shared<Arc<State>>,
    Extension(who): Extension<Who>,
    headers: HeaderMap,
    b: Result<Json<SeenBody>, JsonRejection>,
) -> Api {
    check_csrf(&who, &headers)?;
    let b = body(b)?;
    let (profile, owned) = profile_of(&st, &who, &b.profile)?;
    let id = checked_id(&b.id)?;
    let v = blocking(move || {
        let lib = st.writer()?;
        if lib.store.get_paper(&id.id)?.is_none() {
            return Err(Failure::not_found(format!("{} is not in the library", id.id)));
        }
        ratings::mark_seen(lib.store.conn(), &owned, &id.id, &now())?;
        Ok(json!({"id": id.id, "seen": true, "profile": profile}))
    })
    .await?;
    Ok(Json(v))
}

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

pub async fn remove_seed(
    Shared(st): Shared<Arc<State>>,
    Extension(who): Extension<Who>,
    headers: HeaderMap,
    b: Result<Json<SeedBody>, JsonRejection>,
) -> Api {
    check_csrf(&who, &headers)?;
    let b = body(b)?;
    let (profile, owned) = profile_of(&st, &who, &b.profile)?;
    let key = seed_key(&b.key)?;
    let v = blocking(move || {
        let mut lib = st.writer()?;
        let tx = lib.store.transaction().map_err(Failure::from)?;
        let missing = profile::remove(&tx, &owned, std::slice::from_ref(&key))?;
        if !missing.is_empty() {
            return Err(Failure::not_found(format!("{} is not a seed of profile {profile:?}", clip(&key))));
        }
        tx.commit().map_err(anyhow::Error::from)?;
        Ok(json!({"key": key, "removed": true, "profile": profile}))
    })
    .await?;
    Ok(Json(v))
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

/// The longest interest text taken: a few paragraphs, not a book.
const MAX_SEED_TEXT: usize = 4_000;

/// `POST /api/seeds/add` `{"id": …}` or `{"text": …}`: a seed added from
/// the browser as `seed add` adds it. A paper the library lacks is looked
/// up on arXiv first, outside any lock; the text is embedded with the
/// model the server holds (503 while it loads).
pub async fn add_seed(
    Shared(st): Shared<Arc<State>>,
    Extension(who): Extension<Who>,
    headers: HeaderMap,
    b: Result<Json<AddSeedBody>, JsonRejection>,
) -> Api {
    check_csrf(&who, &headers)?;
    let b = body(b)?;
    let (profile, owned) = profile_of(&st, &who, &b.profile)?;
    let (items, text) = match (b.id.as_deref().map(str::trim), b.text.as_deref().map(str::trim)) {
        (Some(id), None) if !id.is_empty() => (vec![checked_id(id)?.id], None),
        (None, Some(t)) if !t.is_empty() && t.len() <= MAX_SEED_TEXT => (Vec::new(), Some(t.to_string())),
        (None, Some(t)) if !t.is_empty() => {
            return Err(Failure::bad_request(format!("the text is {} bytes; at most {MAX_SEED_TEXT} are taken", t.len())).into())
        }
        _ => return Err(Failure::bad_request("give {\"id\": an arXiv id or URL} or {\"text\": a sentence about your interests}").into()),
    };
    let embedder = st.embedder()?;
    let v = blocking_as(Cost::Heavy, move || {
        let missing = seeds::missing_ids(&*st.reader()?, &items, false)?;
        let found = if missing.is_empty() { Vec::new() } else { seeds::look_up(&missing, &FetchOpts::from_env())? };
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
        let done = seeds::add_with(&mut lib, &owned, &request, false, |lib| profile::embed_missing(lib, &owned, embedder.as_ref()))?;
        Ok(json!({
            "profile": profile,
            "new": done.added.new,
            "updated": done.added.updated,
            "embedded": done.embedded,
            "looked_up": found.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(),
        }))
    })
    .await?;
    Ok(Json(v))
}

pub async fn weigh_seed(
    Shared(st): Shared<Arc<State>>,
    Extension(who): Extension<Who>,
    headers: HeaderMap,
    b: Result<Json<SeedBody>, JsonRejection>,
) -> Api {
    check_csrf(&who, &headers)?;
    let b = body(b)?;
    let (profile, owned) = profile_of(&st, &who, &b.profile)?;
    let key = seed_key(&b.key)?;
    let weight = b.weight.ok_or_else(|| Failure::bad_request("give the new weight"))?;
    if !(weight.is_finite() && weight > 0.0 && weight <= 100.0) {
        return Err(Failure::bad_request("a weight is a number above 0 and at most 100").into());
    }
    let v = blocking(move || {
        let lib = st.writer()?;
        if !profile::set_weight(lib.store.conn(), &owned, &key, weight)? {
            return Err(Failure::not_found(format!("{} is not a seed of profile {profile:?}", clip(&key))));
        }
        Ok(json!({"key": key, "weight": weight, "profile": profile}))
    })
    .await?;
    Ok(Json(v))
}

pub async fn move_seed(
    Shared(st): Shared<Arc<State>>,
    Extension(who): Extension<Who>,
    headers: HeaderMap,
    b: Result<Json<SeedBody>, JsonRejection>,
) -> Api {
    check_csrf(&who, &headers)?;
    let b = body(b)?;
    let (profile, owned) = profile_of(&st, &who, &b.profile)?;
    let key = seed_key(&b.key)?;
    let to = b.to.clone().ok_or_else(|| Failure::bad_request("give the profile to move to in `to`"))?;
    crate::profile::check_profile_name(&to).map_err(|e| Failure::bad_request(e.to_string()))?;
    let v = blocking(move || {
        let mut lib = st.writer()?;
        let tx = lib.store.transaction().map_err(Failure::from)?;
        if !profile::move_seed(&tx, &owned, &key, &who.key(&to))? {
            return Err(Failure::not_found(format!("{} is not a seed of profile {profile:?}", clip(&key))));
        }
        tx.commit().map_err(anyhow::Error::from)?;
        // The seed's vector is shared by text, so the new profile needs none.
        Ok(json!({"key": key, "profile": to, "from": profile}))
    })
    .await?;
    Ok(Json(v))
}

#[derive(Deserialize)]
pub struct FilterBody {
    rule: String,
    value: String,
    /// "add" (the default) or "rm".
    action: Option<String>,
    profile: Option<String>,
}

pub async fn change_filter(
    Shared(st): Shared<Arc<State>>,
    Extension(who): Extension<Who>,
    headers: HeaderMap,
    b: Result<Json<FilterBody>, JsonRejection>,
) -> Api {
    check_csrf(&who, &headers)?;
    let b = body(b)?;
    let (profile, owned) = profile_of(&st, &who, &b.profile)?;
    let rule = filters::Rule::parse(&b.rule)
        .ok_or_else(|| Failure::bad_request(format!("{:?} is not a rule: include, exclude, author, allow or deny", clip(&b.rule))))?;
    let add = match b.action.as_deref().unwrap_or("add") {
        "add" => true,
        "rm" => false,
        other => return Err(Failure::bad_request(format!("action is add or rm, not {:?}", clip(other))).into()),
    };
    if add {
        filters::normalise(rule, &b.value).map_err(|e| Failure::bad_request(e.to_string()))?;
    }
    let v = blocking(move || {
        let lib = st.writer()?;
        let changed = if add {
            filters::add(lib.store.conn(), &owned, rule, &b.value)?
        } else {
            filters::remove(lib.store.conn(), &owned, rule, &b.value)?
        };
        Ok(json!({"rule": rule, "value": b.value, "action": if add { "add" } else { "rm" }, "changed": changed, "profile": profile}))
    })
    .await?;
    Ok(Json(v))
}
