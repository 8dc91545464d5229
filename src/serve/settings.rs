//! Settings: where a reader's morning digest goes (an e-mail address, a
//! chat webhook), for `serve --morning` to deliver by. The webhook's
//! address is a secret: once saved, pages show only its host.

use super::api::{Answer, NamesProfile, Write};
use super::failure::{blocking, ApiError, Failure};
use super::pages::{page, profiles_of, render, Base};
use super::session::Who;
use super::state::State;
use crate::library::store::deliveries::{self, Channels};
use crate::morning;
use askama::Template;
use axum::extract::State as Shared;
use axum::http::StatusCode;
use axum::response::Response;
use axum::Extension;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The chats a digest can be posted to, as the settings menu offers them.
const FORMATS: [&str; 4] = ["slack", "discord", "matrix", "ntfy"];

#[derive(Template)]
#[template(path = "settings.html")]
struct SettingsPage {
    base: Base,
    email: String,
    /// The saved chat's host only; empty when none.
    chat: String,
    chat_format: String,
    formats: Vec<&'static str>,
}

/// The reader's key in the channels table: their account, or "" for the
/// owner of a library without accounts.
fn reader(who: &Who) -> String {
    who.user.clone().unwrap_or_default()
}

pub async fn settings(Shared(st): Shared<Arc<State>>, Extension(who): Extension<Who>) -> Response {
    page(st, who, move |st, who| {
        let c = deliveries::channels_of(st.reader()?.store.conn(), &reader(who))?.unwrap_or_default();
        let page = SettingsPage {
            base: Base::new(st, who, "settings", &st.default_profile, profiles_of(st, who)),
            email: c.email.unwrap_or_default(),
            chat: c.chat_url.as_deref().map(morning::host_of).unwrap_or_default(),
            chat_format: c.chat_format.unwrap_or_default(),
            formats: FORMATS.to_vec(),
        };
        Ok(render(&page, &page.base, StatusCode::OK))
    })
    .await
}

#[derive(Deserialize)]
pub struct SettingsBody {
    email: String,
    /// A new address; absent keeps the saved one, empty removes it.
    chat_url: Option<String>,
    chat_format: String,
    profile: Option<String>,
}

impl NamesProfile for SettingsBody {
    fn profile(&self) -> Option<&str> {
        self.profile.as_deref()
    }
}

#[derive(Serialize)]
pub struct Saved {
    email: Option<String>,
    /// The chat's host only: the address itself is not sent back.
    chat: Option<String>,
    chat_format: Option<String>,
}

pub async fn save(Shared(st): Shared<Arc<State>>, w: Write<SettingsBody>) -> Result<Answer<Saved>, ApiError> {
    let user = reader(&w.who);
    let b = w.body;
    let email = checked_email(b.email.trim())?;
    let format = match b.chat_format.trim() {
        "" => None,
        f if FORMATS.contains(&f) => Some(f.to_string()),
        f => return Err(Failure::bad_request(format!("the chat is one of {}, not {:?}", FORMATS.join(", "), super::view::clip(f))).into()),
    };
    let new_url = b.chat_url.map(|u| checked_chat_url(u.trim())).transpose()?;
    let saved = blocking(move || {
        let lib = st.writer()?;
        let conn = lib.store.conn();
        let old = deliveries::channels_of(conn, &user)?.unwrap_or_default();
        let chat_url = match new_url {
            Some(u) => u,
            None => old.chat_url,
        };
        if format.is_some() != chat_url.is_some() {
            return Err(Failure::bad_request("a chat needs both its address and which chat it is"));
        }
        let c = Channels { user, email, chat_url, chat_format: format };
        deliveries::set_channels(conn, &c)?;
        Ok(Saved { email: c.email, chat: c.chat_url.as_deref().map(morning::host_of), chat_format: c.chat_format })
    })
    .await?;
    Ok(Answer(saved))
}

/// One address, or none: no list, no display name, nothing a header could
/// be made of.
fn checked_email(e: &str) -> Result<Option<String>, Failure> {
    if e.is_empty() {
        return Ok(None);
    }
    let ok = e.len() <= 254
        && e.matches('@').count() == 1
        && !e.starts_with('@')
        && !e.ends_with('@')
        && e.chars().all(|c| c.is_ascii_graphic() && !matches!(c, '<' | '>' | ',' | ';' | '"' | '(' | ')' | '\\'));
    if ok {
        Ok(Some(e.to_string()))
    } else {
        Err(Failure::bad_request("give one e-mail address, like me@example.org"))
    }
}

fn checked_chat_url(u: &str) -> Result<Option<String>, Failure> {
    if u.is_empty() {
        return Ok(None);
    }
    let parsed = url::Url::parse(u).map_err(|_| Failure::bad_request("the chat address is not an absolute URL"))?;
    if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none_or(str::is_empty) || u.len() > 2000 {
        return Err(Failure::bad_request("the chat address is an http:// or https:// URL"));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(Failure::bad_request("the chat address must not hold a user name or password"));
    }
    Ok(Some(u.to_string()))
}
