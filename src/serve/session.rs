//! Who each request acts for: the session cookie read and checked on
//! every request, or, in a library without accounts, its one user.

use super::failure::{ApiError, Failure};
use super::state::State;
use super::work::blocking;
use crate::accounts::{self, Session};
use crate::library::store::ProfileKey;
use axum::extract::{Request, State as Shared};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// Who a request acts for, put in its extensions by [`require`].
#[derive(Debug, Clone)]
pub struct Who {
    /// `None` in a library without accounts.
    pub user: Option<String>,
    /// The token this browser's writes must carry.
    pub csrf: String,
    /// Signed in with a cookie (and so can sign out).
    pub signed_in: bool,
    /// The launch key this request showed (a server without accounts): the
    /// pages' links and script carry it on.
    pub key: Option<String>,
}

impl Who {
    /// Nobody: a page shown before signing in.
    pub fn nobody() -> Who {
        Who { user: None, csrf: String::new(), signed_in: false, key: None }
    }

    /// `name` as the profile tables key it for this user.
    pub fn key(&self, name: &str) -> ProfileKey {
        ProfileKey::of(self.user.as_deref(), name)
    }

    /// The profile a request names (`name`, else the server's `default`),
    /// checked, for this user.
    pub fn profile(&self, name: Option<&str>, default: &str) -> Result<Named, Failure> {
        let name = name.map(str::trim).filter(|s| !s.is_empty()).unwrap_or(default).to_string();
        crate::profile::check_profile_name(&name).map_err(Failure::from_error)?;
        Ok(Named { key: self.key(&name), name })
    }

    /// Every write must carry the token its page was served with.
    pub fn check_csrf(&self, headers: &HeaderMap) -> Result<(), Failure> {
        let sent = headers.get("x-csrf-token").and_then(|v| v.to_str().ok()).unwrap_or("");
        if super::guard::same_token(sent, &self.csrf) {
            Ok(())
        } else {
            Err(Failure::forbidden("missing or wrong X-CSRF-Token header: reload the page and try again"))
        }
    }
}

/// A profile a request names: as its owner sees it, and as the tables key it.
#[derive(Debug, Clone)]
pub struct Named {
    pub name: String,
    pub key: ProfileKey,
}

/// The name of the session cookie; under TLS with the `__Host-` prefix, which
/// browsers accept only from a secure origin, for the whole host.
pub(super) fn cookie_name(st: &State) -> &'static str {
    if st.hosts.https() {
        "__Host-paperscout_session"
    } else {
        "paperscout_session"
    }
}

pub(super) fn cookie_value<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

pub(super) fn unix_now() -> i64 {
    chrono::Utc::now().timestamp()
}

/// Puts a [`Who`] on every request; with sign-in on, a request without a
/// live session gets 401 (API) or a redirect to /login (pages).
pub async fn require(Shared(st): Shared<Arc<State>>, mut req: Request, next: Next) -> Response {
    if !st.login {
        if let Some(owner) = &st.owner {
            if let Some(refused) = owner_only(owner, &req) {
                return refused;
            }
        }
        req.extensions_mut().insert(Who { user: None, csrf: st.csrf.clone(), signed_in: false, key: st.owner.clone() });
        return next.run(req).await;
    }
    let path = req.uri().path();
    if path == "/login" || path == "/favicon.ico" {
        return next.run(req).await;
    }
    // A feed reader cannot sign in: its URL carries the user's feed key,
    // which opens that feed and nothing else.
    if path == "/feed.atom" {
        if let Some(key) =
            req.uri().query().and_then(|q| url::form_urlencoded::parse(q.as_bytes()).find(|(k, _)| k == "key")).map(|(_, v)| v.into_owned())
        {
            let st2 = st.clone();
            return match blocking(move || Ok(accounts::feed_user(st2.reader()?.store.db(), &key)?)).await {
                Ok(Some(user)) => {
                    req.extensions_mut().insert(Who { user: Some(user), csrf: String::new(), signed_in: false, key: None });
                    next.run(req).await
                }
                Ok(None) => ApiError(Failure::unauthorized("this feed key opens no feed")).into_response(),
                Err(f) => ApiError(f).into_response(),
            };
        }
    }
    let token = cookie_value(req.headers(), cookie_name(&st)).map(str::to_string);
    let session = match token {
        Some(t) => {
            let st2 = st.clone();
            blocking(move || Ok(accounts::session(st2.reader()?.store.db(), &t, unix_now())?)).await
        }
        None => Ok(None),
    };
    match session {
        Ok(Some(Session { user, csrf })) => {
            req.extensions_mut().insert(Who { user: Some(user), csrf, signed_in: true, key: None });
            next.run(req).await
        }
        Ok(None) if path.starts_with("/api/") || path == "/feed.atom" => {
            ApiError(Failure::unauthorized("sign in first: POST /login")).into_response()
        }
        Ok(None) => {
            let here = req.uri().path_and_query().map_or("/", |p| p.as_str());
            let to = format!("/login?next={}", url::form_urlencoded::byte_serialize(here.as_bytes()).collect::<String>());
            (StatusCode::SEE_OTHER, [(header::LOCATION, to)]).into_response()
        }
        Err(f) => ApiError(f).into_response(),
    }
}

/// Without accounts, a request must show this launch's key
/// ([`State::owner`]): in the URL as `?token=KEY`, which every link and
/// form of the pages carries, or in `Authorization: Bearer KEY`, which the
/// pages' script sends (and other scripts may). Never in a cookie: a
/// browser sends a cookie of 127.0.0.1 to every port of it, so a listener
/// another user of the machine runs on another port would receive the key
/// from one click of the owner's. What a browser sends to another port
/// unasked (cookies, and a `Referer`, which `Referrer-Policy: no-referrer`
/// withholds) holds nothing of the key. A page asked for without it is a
/// page that says how to get in, whose script may find the key in this
/// origin's own storage ([`key_page`]). `None`: go on.
fn owner_only(owner: &str, req: &Request) -> Option<Response> {
    let shown = |k: &str| super::guard::same_token(k, owner);
    let bearer = req.headers().get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Bearer "));
    let path = req.uri().path();
    let in_url = req.uri().query().is_some_and(|q| url::form_urlencoded::parse(q.as_bytes()).any(|(k, v)| k == "token" && shown(&v)));
    if bearer.is_some_and(shown) || in_url || path == "/favicon.ico" {
        return None;
    }
    let page = req.method() == axum::http::Method::GET && !path.starts_with("/api/") && path != "/feed.atom";
    if page {
        return Some(key_page());
    }
    let message = "this server answers only the user who started it: open the address `paperscout serve` printed (it carries ?token=…)";
    Some(ApiError(Failure::unauthorized(message)).into_response())
}

#[derive(askama::Template)]
#[template(path = "key.html")]
struct KeyPage {
    nonce: String,
}

/// What a page asked for without the launch key gets: a page (401) that
/// says how to get in. A browser that opened this server's printed address
/// keeps the key in this origin's storage, and the page's script comes
/// back with it once, so a bookmark or a digest's link still opens. The
/// page stands alone (it is shown to whoever asks): no frame, no key.
fn key_page() -> Response {
    use askama::Template;
    let nonce = accounts::random_hex(16).unwrap_or_else(|_| "0".repeat(32));
    let Ok(html) = (KeyPage { nonce: nonce.clone() }).render() else {
        return (StatusCode::UNAUTHORIZED, "open the address `paperscout serve` printed (it carries ?token=…)").into_response();
    };
    let mut res = (StatusCode::UNAUTHORIZED, axum::response::Html(html)).into_response();
    let csp = format!("default-src 'none'; script-src 'nonce-{nonce}'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
    if let Ok(v) = HeaderValue::from_str(&csp) {
        res.headers_mut().insert(header::CONTENT_SECURITY_POLICY, v);
    }
    res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

/// A redirect to `to` that sets the session cookie to `value` for
/// `max_age` seconds (0: removes it).
pub(super) fn with_cookie(st: &State, to: String, value: &str, max_age: i64) -> Response {
    let secure = if st.hosts.https() { "; Secure" } else { "" };
    let cookie = format!("{}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}", cookie_name(st));
    let mut res = (StatusCode::SEE_OTHER, [(header::LOCATION, to)]).into_response();
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        res.headers_mut().insert(header::SET_COOKIE, v);
    }
    res
}
