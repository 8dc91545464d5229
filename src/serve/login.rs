//! Signing in to a shared server and out again: the login form, its
//! answer, and the session cookie set or removed. A library with accounts
//! always asks; one without (a single user, on loopback) acts for that
//! user (`session`).

use super::failure::{ApiError, Failure};
use super::guard::same_token;
use super::listen::Peer;
use super::session::{cookie_name, cookie_value, unix_now, with_cookie, Who};
use super::state::State;
use super::throttle::{Attempt, Guess, Refused};
use super::work::blocking;
use crate::accounts;
use askama::Template;
use axum::extract::{Form, Query, State as Shared};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use std::sync::Arc;

/// A local path to go back to after signing in; anything else is `/`.
fn local_path(next: Option<&str>) -> String {
    match next {
        Some(n)
            if n.starts_with('/') && !n.starts_with("//") && !n.contains('\\') && n.len() <= 2048 && !n.chars().any(char::is_control) =>
        {
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

pub async fn sign_in(Shared(st): Shared<Arc<State>>, peer: Option<axum::Extension<Peer>>, Form(c): Form<Credentials>) -> Response {
    if !st.login {
        return (StatusCode::SEE_OTHER, [(header::LOCATION, "/")]).into_response();
    }
    let next = local_path(c.next.as_deref());
    let name: String = c.user.trim().chars().take(64).collect();
    let from = peer.map(|axum::Extension(Peer(addr))| addr.ip());
    let guess = Guess::new(&name, from);
    // One line per refusal, for the administrator (and fail2ban); the name
    // is quoted, so nothing a client sends can forge a line.
    let from_text = from.map_or_else(|| "an unknown address".to_string(), |ip| ip.to_canonical().to_string());
    let attempt = match st.throttle.begin(&guess) {
        Ok(a) => a,
        Err(refused) => {
            let (status, wait, message) = match refused {
                Refused::TooMany(wait) => {
                    crate::messages::note(format_args!("sign-in refused: too many attempts for user {name:?} or from {from_text}"));
                    (StatusCode::TOO_MANY_REQUESTS, wait, "Too many failed attempts: wait a while and try again.")
                }
                Refused::Full(wait) => {
                    crate::messages::warning(format_args!("sign-in refused: too many names and addresses are trying to sign in"));
                    (StatusCode::SERVICE_UNAVAILABLE, wait, "Too many sign-ins are failing on this server: try again later.")
                }
            };
            return retry_after(login_page(&st, status, &next, &name, message), wait);
        }
    };
    // The lookup is quick; the check runs on the password threads, and
    // the attempt's slots go with it, so a client that hangs up does not
    // get its guess back. A guess the threads have no room for is turned
    // away unchecked: it remembers nothing new.
    let st2 = st.clone();
    let user = name.clone();
    let stored = blocking(move || Ok(accounts::stored_hash(st2.reader()?.store.db(), &user)?)).await;
    let checked = match stored {
        Ok(stored) => {
            let (user, password) = (name.clone(), c.password);
            let check = move |attempt: Attempt| {
                let ok = accounts::check_password_of(&user, stored.as_deref(), &password)?;
                if ok {
                    attempt.succeeded();
                } else {
                    attempt.failed();
                }
                Ok(ok)
            };
            st.hashing.run_or_return(attempt, check, Attempt::turned_away).await
        }
        Err(f) => {
            attempt.turned_away();
            Err(f)
        }
    };
    let started = match checked {
        Ok(true) => {
            let (st2, user, network) = (st.clone(), name.clone(), guess.network().map(str::to_string));
            blocking(move || Ok(Some(accounts::start_session(st2.writer()?.store.db(), &user, unix_now(), network.as_deref())?))).await
        }
        Ok(false) => Ok(None),
        Err(f) => Err(f),
    };
    match started {
        Ok(Some((token, _))) => with_cookie(&st, next, &token, accounts::SESSION_DAYS * 86_400),
        Ok(None) => {
            crate::messages::note(format_args!("sign-in failed: user {name:?} from {from_text}"));
            login_page(&st, StatusCode::UNAUTHORIZED, &next, &name, "Wrong user name or password.")
        }
        Err(f) if f.is_busy() => retry_after(login_page(&st, f.status(), &next, &name, &f.message), std::time::Duration::from_secs(5)),
        Err(f) => login_page(&st, f.status(), &next, &name, &f.message),
    }
}

fn retry_after(mut res: Response, wait: std::time::Duration) -> Response {
    if let Ok(v) = HeaderValue::from_str(&wait.as_secs().max(1).to_string()) {
        res.headers_mut().insert(header::RETRY_AFTER, v);
    }
    res
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
    if !same_token(f.csrf.as_deref().unwrap_or(""), &who.csrf) {
        return ApiError(Failure::forbidden("sign out from this server's own page")).into_response();
    }
    if let Some(token) = cookie_value(&headers, cookie_name(&st)).map(str::to_string) {
        let st2 = st.clone();
        if let Err(f) = blocking(move || Ok(accounts::end_session(st2.writer()?.store.db(), &token)?)).await {
            return ApiError(f).into_response();
        }
    }
    with_cookie(&st, "/login".into(), "", 0)
}
