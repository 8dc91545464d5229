//! Signing in to a shared server: the login form, session cookies, and
//! who each request acts for. A library with accounts always asks; one
//! without (a single user, on loopback) acts for that user.

use super::failure::{blocking, blocking_as, ApiError, Cost, Failure};
use super::listen::Peer;
use super::state::State;
use crate::accounts::{self, Session};
use askama::Template;
use axum::extract::{Form, Query, Request, State as Shared};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Failed sign-ins allowed per user name and per address in `WINDOW`.
const MAX_FAILURES: usize = 5;
const WINDOW: Duration = Duration::from_secs(15 * 60);
/// Names and addresses remembered at most; beyond, only addresses count.
const MAX_TRACKED: usize = 10_000;

/// Who a request acts for, put in its extensions by [`require`].
#[derive(Debug, Clone)]
pub struct Who {
    /// `None` in a library without accounts.
    pub user: Option<String>,
    /// The token this browser's writes must carry.
    pub csrf: String,
    /// Signed in with a cookie (and so can sign out).
    pub signed_in: bool,
    /// The key of this user's feed URL; empty without accounts.
    pub feed: String,
}

impl Who {
    /// Nobody: a page shown before signing in.
    pub fn nobody() -> Who {
        Who { user: None, csrf: String::new(), signed_in: false, feed: String::new() }
    }

    /// `name` as the profile tables store it for this user.
    pub fn key(&self, name: &str) -> String {
        accounts::profile_key(self.user.as_deref(), name)
    }
}

/// The name of the session cookie; under TLS with the `__Host-` prefix, which
/// browsers accept only from a secure origin, for the whole host.
fn cookie_name(st: &State) -> &'static str {
    if st.hosts.https() {
        "__Host-paperscout_session"
    } else {
        "paperscout_session"
    }
}

fn cookie_value<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

fn unix_now() -> i64 {
    chrono::Utc::now().timestamp()
}

/// Puts a [`Who`] on every request; with sign-in on, a request without a
/// live session gets 401 (API) or a redirect to /login (pages).
pub async fn require(Shared(st): Shared<Arc<State>>, mut req: Request, next: Next) -> Response {
    if !st.login {
        req.extensions_mut().insert(Who { user: None, csrf: st.csrf.clone(), signed_in: false, feed: String::new() });
        return next.run(req).await;
    }
    let path = req.uri().path();
    if path == "/login" || path == "/favicon.ico" {
        return next.run(req).await;
    }
    // A feed reader cannot sign in: its URL carries the user's feed key,
    // which opens that feed and nothing else.
    if path == "/feed.atom" {
        if let Some(key) = req.uri().query().and_then(|q| url::form_urlencoded::parse(q.as_bytes()).find(|(k, _)| k == "key")).map(|(_, v)| v.into_owned()) {
            let st2 = st.clone();
            return match blocking(move || Ok(accounts::feed_user(st2.reader()?.store.conn(), &key)?)).await {
                Ok(Some(user)) => {
                    req.extensions_mut().insert(Who { user: Some(user), csrf: String::new(), signed_in: false, feed: String::new() });
                    next.run(req).await
                }
                Ok(None) => ApiError(Failure { status: StatusCode::UNAUTHORIZED, message: "this feed key opens no feed".into() }).into_response(),
                Err(f) => ApiError(f).into_response(),
            };
        }
    }
    let token = cookie_value(req.headers(), cookie_name(&st)).map(str::to_string);
    let session = match token {
        Some(t) => {
            let st2 = st.clone();
            blocking(move || Ok(accounts::session(st2.reader()?.store.conn(), &t, unix_now())?)).await
        }
        None => Ok(None),
    };
    match session {
        Ok(Some(Session { user, csrf, feed })) => {
            req.extensions_mut().insert(Who { user: Some(user), csrf, signed_in: true, feed });
            next.run(req).await
        }
        Ok(None) if path.starts_with("/api/") || path == "/feed.atom" => {
            ApiError(Failure { status: StatusCode::UNAUTHORIZED, message: "sign in first: POST /login".into() }).into_response()
        }
        Ok(None) => {
            let here = req.uri().path_and_query().map_or("/", |p| p.as_str());
            let to = format!("/login?next={}", url::form_urlencoded::byte_serialize(here.as_bytes()).collect::<String>());
            (StatusCode::SEE_OTHER, [(header::LOCATION, to)]).into_response()
        }
        Err(f) => ApiError(f).into_response(),
    }
}

/// A local path to go back to after signing in; anything else is `/`.
fn local_path(next: Option<&str>) -> String {
    match next {
        Some(n) if n.starts_with('/') && !n.starts_with("//") && !n.contains('\\') && n.len() <= 2048 && !n.chars().any(char::is_control) => {
            n.to_string()
        }
        _ => "/".into(),
    }
}

#[derive(Template)]
#[template(path = "login.html")]
struct LoginPage {
    base: super::pages::Base,
    next: String,
    user: String,
    message: String,
}

fn login_page(st: &State, status: StatusCode, next: &str, user: &str, message: &str) -> Response {
    let mut base = super::pages::Base::bare(st, "Sign in");
    base.csrf = String::new();
    let page = LoginPage { base, next: next.to_string(), user: user.to_string(), message: message.to_string() };
    let mut res = super::pages::render(&page, &page.base, status);
    res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

#[derive(Deserialize, Default)]
pub struct NextParam {
    next: Option<String>,
}

pub async fn form(Shared(st): Shared<Arc<State>>, Query(q): Query<NextParam>) -> Response {
    if !st.login {
        return (StatusCode::SEE_OTHER, [(header::LOCATION, "/")]).into_response();
    }
    login_page(&st, StatusCode::OK, &local_path(q.next.as_deref()), "", "")
}

#[derive(Deserialize)]
pub struct Credentials {
    user: String,
    password: String,
    next: Option<String>,
}

/// Failed sign-ins by user name and by address, in the last `WINDOW`.
#[derive(Default)]
pub struct Throttle {
    failures: Mutex<HashMap<String, VecDeque<Instant>>>,
}

impl Throttle {
    /// How long until `keys` may try again, if any of them is over the limit.
    fn wait(&self, keys: &[String]) -> Option<Duration> {
        let now = Instant::now();
        let map = self.failures.lock().ok()?;
        keys.iter()
            .filter_map(|k| map.get(k))
            .filter_map(|times| {
                let recent: Vec<&Instant> = times.iter().filter(|t| now.duration_since(**t) < WINDOW).collect();
                (recent.len() >= MAX_FAILURES).then(|| WINDOW.saturating_sub(now.duration_since(*recent[recent.len() - MAX_FAILURES])))
            })
            .max()
    }

    fn fail(&self, keys: &[String]) {
        let now = Instant::now();
        let Ok(mut map) = self.failures.lock() else { return };
        if map.len() >= MAX_TRACKED {
            map.retain(|_, times| times.back().is_some_and(|t| now.duration_since(*t) < WINDOW));
        }
        for k in keys {
            if map.len() >= MAX_TRACKED && !map.contains_key(k) && !k.starts_with("addr:") {
                continue;
            }
            let times = map.entry(k.clone()).or_default();
            times.retain(|t| now.duration_since(*t) < WINDOW);
            times.push_back(now);
            if times.len() > MAX_FAILURES {
                times.pop_front();
            }
        }
    }

    fn forget(&self, key: &str) {
        if let Ok(mut map) = self.failures.lock() {
            map.remove(key);
        }
    }
}

/// The address failures count against: a whole /64 for IPv6, which one
/// client usually has.
fn address_key(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => format!("addr:{v4}"),
        IpAddr::V6(v6) => {
            let s = v6.segments();
            format!("addr:{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
    }
}

pub async fn sign_in(Shared(st): Shared<Arc<State>>, peer: Option<axum::Extension<Peer>>, Form(c): Form<Credentials>) -> Response {
    if !st.login {
        return (StatusCode::SEE_OTHER, [(header::LOCATION, "/")]).into_response();
    }
    let next = local_path(c.next.as_deref());
    let name: String = c.user.trim().chars().take(64).collect();
    let mut keys = vec![format!("user:{name}")];
    let from = peer.map(|axum::Extension(Peer(addr))| addr.ip());
    if let Some(ip) = from {
        keys.push(address_key(ip));
    }
    // One line per refusal, for the administrator (and fail2ban); the name
    // is quoted, so nothing a client sends can forge a line.
    let from_text = from.map_or_else(|| "an unknown address".to_string(), |ip| ip.to_string());
    if let Some(wait) = st.throttle.wait(&keys) {
        eprintln!("sign-in refused: too many failures for user {name:?} or from {from_text}");
        let mut res = login_page(&st, StatusCode::TOO_MANY_REQUESTS, &next, &name, "Too many failed attempts: wait a while and try again.");
        if let Ok(v) = HeaderValue::from_str(&wait.as_secs().max(1).to_string()) {
            res.headers_mut().insert(header::RETRY_AFTER, v);
        }
        return res;
    }
    let st2 = st.clone();
    let (user, password) = (name.clone(), c.password);
    let started = blocking_as(Cost::Heavy, move || {
        if !accounts::verify(st2.reader()?.store.conn(), &user, &password)? {
            return Ok(None);
        }
        let lib = st2.writer()?;
        Ok(Some(accounts::start_session(lib.store.conn(), &user, unix_now())?))
    })
    .await;
    match started {
        Ok(Some((token, _))) => {
            st.throttle.forget(&keys[0]);
            with_cookie(&st, next, &token, accounts::SESSION_DAYS * 86_400)
        }
        Ok(None) => {
            eprintln!("sign-in failed: user {name:?} from {from_text}");
            st.throttle.fail(&keys);
            login_page(&st, StatusCode::UNAUTHORIZED, &next, &name, "Wrong user name or password.")
        }
        Err(f) => login_page(&st, f.status, &next, &name, &f.message),
    }
}

#[derive(Deserialize)]
pub struct SignOut {
    csrf: Option<String>,
}

pub async fn sign_out(
    Shared(st): Shared<Arc<State>>,
    axum::Extension(who): axum::Extension<Who>,
    headers: HeaderMap,
    Form(f): Form<SignOut>,
) -> Response {
    if !who.signed_in {
        return (StatusCode::SEE_OTHER, [(header::LOCATION, "/")]).into_response();
    }
    if !super::api::same_token(f.csrf.as_deref().unwrap_or(""), &who.csrf) {
        return ApiError(Failure::forbidden("sign out from this server's own page")).into_response();
    }
    if let Some(token) = cookie_value(&headers, cookie_name(&st)).map(str::to_string) {
        let st2 = st.clone();
        if let Err(f) = blocking(move || Ok(accounts::end_session(st2.writer()?.store.conn(), &token)?)).await {
            return ApiError(f).into_response();
        }
    }
    with_cookie(&st, "/login".into(), "", 0)
}

/// A redirect to `to` that sets the session cookie to `value` for
/// `max_age` seconds (0: removes it).
fn with_cookie(st: &State, to: String, value: &str, max_age: i64) -> Response {
    let secure = if st.hosts.https() { "; Secure" } else { "" };
    let cookie = format!("{}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}", cookie_name(st));
    let mut res = (StatusCode::SEE_OTHER, [(header::LOCATION, to)]).into_response();
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        res.headers_mut().insert(header::SET_COOKIE, v);
    }
    res
}
