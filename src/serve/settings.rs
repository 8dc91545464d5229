//! Settings: where a reader's morning digest goes (an e-mail address, a
//! chat webhook), for `serve --morning` to deliver by. Every address is
//! the reader's word, not the server's: a webhook is checked against the
//! server's [`Destinations`](crate::delivery::Destinations) when saved (and
//! again at every send), a member's e-mail address is used only once the
//! code sent to it comes back, and a reader's own chat token goes to their
//! chat's host alone. The webhook's address and the token are secrets:
//! once saved, pages show only the host, and that a token is kept.

use super::api::{Answer, NamesProfile, Write};
use super::failure::{ApiError, Failure};
use super::pages::{page, profiles_of, render, Base};
use super::session::{unix_now, Who};
use super::state::State;
use super::work::blocking;
use crate::delivery::{self, mail, push, Channel};
use crate::library::store::deliveries::{self, Channels, Confirmation, Record};
use askama::Template;
use axum::extract::State as Shared;
use axum::http::StatusCode;
use axum::response::Response;
use axum::Extension;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The chats a digest can be posted to, as the settings menu offers them.
const FORMATS: [&str; 4] = ["slack", "discord", "matrix", "ntfy"];
/// A confirmation code is good for a day.
const CODE_LIFE: i64 = 24 * 3600;
/// A reader's tests and confirmation mails, one per this long: the server
/// is no way to send a stream of requests or mails somewhere.
const SEND_SPACING: Duration = Duration::from_secs(10);
/// Confirmation codes: one a minute per reader, one in ten minutes per address.
const CODE_SPACING: Duration = Duration::from_secs(60);
const ADDRESS_SPACING: Duration = Duration::from_secs(600);
/// A test has this long to be delivered.
const TEST_BUDGET: Duration = Duration::from_secs(20);

#[derive(Template)]
#[template(path = "settings.html")]
struct SettingsPage {
    base: Base,
    email: String,
    /// "", "confirmed", "code sent", "unconfirmed".
    email_state: &'static str,
    /// The saved chat's host only; empty when none.
    chat: String,
    chat_format: String,
    token_saved: bool,
    formats: Vec<&'static str>,
    /// What the server does not do, said before the reader relies on it.
    notices: Vec<String>,
    /// The newest morning's outcome of each channel.
    records: Vec<Record>,
    /// A code from the confirmation mail's link, offered for a click.
    confirm: String,
}

/// The reader's key in the channels table: their account, or "" for the
/// owner of a library without accounts.
fn reader(who: &Who) -> String {
    who.user.clone().unwrap_or_default()
}

/// Only a member's address needs confirming: the owner of a library
/// without accounts runs the server and its mail settings.
fn email_state(member: bool, c: &Channels, code_waiting: bool) -> &'static str {
    match &c.email {
        None => "",
        Some(_) if !member || c.email_confirmed => "confirmed",
        Some(_) if code_waiting => "code sent",
        Some(_) => "unconfirmed",
    }
}

fn notices(st: &State) -> Vec<String> {
    let mut out = Vec::new();
    match &st.morning {
        None => out.push(
            "This server does not deliver mornings (it was started without --morning): what you save here is kept, \
             and nothing is sent until it is."
                .to_string(),
        ),
        Some(plan) => out.push(format!("This server delivers each morning at {} (its own time).", plan.at.format("%H:%M"))),
    }
    if !mail::configured() {
        out.push("This server has no mail server set (PAPERSCOUT_SMTP): it can post to a chat but cannot send e-mail.".into());
    }
    out
}

#[derive(Deserialize, Default)]
pub struct SettingsQuery {
    confirm: Option<String>,
}

pub async fn settings(
    Shared(st): Shared<Arc<State>>,
    Extension(who): Extension<Who>,
    axum::extract::Query(q): axum::extract::Query<SettingsQuery>,
) -> Response {
    page(st, who, move |st, who| {
        let lib = st.reader()?;
        let user = reader(who);
        let c = deliveries::channels_of(lib.store.db(), &user)?.unwrap_or_default();
        let waiting = deliveries::code_waiting(lib.store.db(), &user, unix_now())?;
        let records = deliveries::last_records(lib.store.db(), &user)?;
        drop(lib);
        let page = SettingsPage {
            base: Base::new(st, who, "settings", &st.default_profile, profiles_of(st, who)),
            email: c.email.clone().unwrap_or_default(),
            email_state: email_state(who.user.is_some(), &c, waiting),
            chat: c.chat_url.as_deref().map(delivery::host_of).unwrap_or_default(),
            chat_format: c.chat_format.clone().unwrap_or_default(),
            token_saved: c.chat_token.is_some(),
            formats: FORMATS.to_vec(),
            notices: notices(st),
            records,
            confirm: q.confirm.map(|c| c.chars().filter(char::is_ascii_alphanumeric).take(16).collect()).unwrap_or_default(),
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
    /// The reader's own token for the chat's host: absent keeps the saved
    /// one (while the host stays), empty removes it.
    chat_token: Option<String>,
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
    /// "confirmed", "code sent" or "unconfirmed" (with `notice` saying why).
    email_state: &'static str,
    /// The chat's host only: the address itself is not sent back.
    chat: Option<String>,
    chat_format: Option<String>,
    /// A token is kept for the chat (it is never sent back).
    chat_token_saved: bool,
    /// What the reader should know: a code sent, or why none was.
    #[serde(skip_serializing_if = "Option::is_none")]
    notice: Option<String>,
}

pub async fn save(Shared(st): Shared<Arc<State>>, w: Write<SettingsBody>) -> Result<Answer<Saved>, ApiError> {
    let user = reader(&w.who);
    let member = w.who.user.is_some();
    let b = w.body;
    let email = checked_email(b.email.trim())?;
    let format = match b.chat_format.trim() {
        "" => None,
        f if FORMATS.contains(&f) => Some(f.to_string()),
        f => return Err(Failure::bad_request(format!("the chat is one of {}, not {:?}", FORMATS.join(", "), super::view::clip(f))).into()),
    };
    let new_token = b.chat_token.map(|t| checked_token(t.trim())).transpose()?;
    let st2 = st.clone();
    let mut unresolved = None;
    let new_url = match b.chat_url.map(|u| u.trim().to_string()) {
        Some(u) if !u.is_empty() => {
            if u.len() > 2000 {
                return Err(Failure::bad_request("the chat address is longer than 2,000 characters").into());
            }
            // Resolving the name may wait on DNS: off the async threads. A
            // name that does not resolve now is kept (and checked at each send).
            let checked = blocking(move || match st2.destinations.check(&u) {
                Ok(_) => Ok((u, None)),
                Err(r @ crate::delivery::Refusal::Unresolved { .. }) => {
                    Ok((u, Some(format!("{r} from this server now; it is checked again at each send"))))
                }
                Err(r) => Err(Failure::bad_request(r.to_string())),
            })
            .await?;
            unresolved = checked.1;
            Some(Some(checked.0))
        }
        Some(_) => Some(None),
        None => None,
    };
    let st2 = st.clone();
    let (saved, code) = blocking(move || {
        let lib = st2.writer()?;
        let conn = lib.store.db();
        let old = deliveries::channels_of(conn, &user)?.unwrap_or_default();
        let chat_url = match new_url {
            Some(u) => u,
            None => old.chat_url.clone(),
        };
        if format.is_some() != chat_url.is_some() {
            return Err(Failure::bad_request("a chat needs both its address and which chat it is"));
        }
        // A kept token goes only to the host it was given for.
        let host = |u: &Option<String>| {
            u.as_deref()
                .and_then(|u| url::Url::parse(u).ok())
                .map(|u| (u.host_str().map(str::to_ascii_lowercase), u.port_or_known_default()))
        };
        let chat_token = match new_token {
            Some(t) => t,
            None if chat_url.is_some() && host(&chat_url) == host(&old.chat_url) => old.chat_token.clone(),
            None => None,
        };
        let email_changed = email != old.email;
        let c = Channels {
            user: user.clone(),
            email: email.clone(),
            email_confirmed: !member || (!email_changed && old.email_confirmed),
            chat_url,
            chat_format: format,
            chat_token,
        };
        deliveries::set_channels(conn, &c)?;
        // A member's address that is not confirmed gets a code when it is
        // new, or when none is waiting for it (mailed below).
        let waiting = deliveries::code_waiting(conn, &user, unix_now())?;
        let code = match (&c.email, member && !c.email_confirmed && (email_changed || !waiting)) {
            (Some(address), true) if mail::configured() => Some(address.clone()),
            _ => None,
        };
        let state = email_state(member, &c, waiting && !email_changed);
        let saved = Saved {
            email: c.email,
            email_state: state,
            chat: c.chat_url.as_deref().map(delivery::host_of),
            chat_format: c.chat_format,
            chat_token_saved: c.chat_token.is_some(),
            notice: None,
        };
        Ok((saved, code))
    })
    .await?;
    let mut saved = saved;
    saved.notice = match code {
        Some(address) => {
            let (sent, notice) = send_code(&st, &reader(&w.who), &address).await;
            if sent {
                saved.email_state = "code sent";
            }
            Some(notice)
        }
        None if saved.email_state == "unconfirmed" => {
            Some("this server has no mail server set, so it cannot confirm the address or send to it".to_string())
        }
        None => None,
    };
    if let Some(note) = unresolved {
        saved.notice = Some(saved.notice.map_or_else(|| note.clone(), |n| format!("{n}; {note}")));
    }
    if st.morning.is_none() {
        let note = "saved; this server was started without --morning, so nothing is sent until it is";
        saved.notice = Some(saved.notice.map_or_else(|| note.to_string(), |n| format!("{n}; {note}")));
    }
    Ok(Answer(saved))
}

/// Makes a new code for `user`'s address and mails it; whether it went,
/// and what to tell the reader. The code's hash is kept only once the
/// server may send: a code that is never mailed never replaces one that was.
/// A reader has a code a minute, an address one in ten minutes, so that the
/// server is no way to mail strangers.
async fn send_code(st: &Arc<State>, user: &str, address: &str) -> (bool, String) {
    for (key, spacing) in [(format!("code:{user}"), CODE_SPACING), (format!("code-to:{}", address.to_ascii_lowercase()), ADDRESS_SPACING)] {
        if let Err(wait) = st.may_send(&key, spacing) {
            return (false, format!("a code was mailed there moments ago: save again in {} s for a new one", wait.as_secs().max(1)));
        }
    }
    let code = match confirmation_code() {
        Ok(c) => c,
        Err(f) => return (false, f.message),
    };
    let (st2, u, hash) = (st.clone(), user.to_string(), code_hash(&code));
    if let Err(f) = blocking(move || Ok(deliveries::set_email_code(st2.writer()?.store.db(), &u, &hash, unix_now() + CODE_LIFE)?)).await {
        return (false, format!("the address is saved, but no code could be made ({})", f.message));
    }
    let link = st.morning.as_ref().and_then(|m| m.links.rate_base.clone()).map(|base| format!("{base}/settings?confirm={code}"));
    let text = format!(
        "Someone (we hope you) asked a paperscout server to send its morning digest to this address.\n\n\
         Your code: {code}\n\nEnter it on Settings{}. It is good for a day. If it was not you, do nothing: \
         no digest is sent here until the code comes back.\n",
        link.as_deref().map(|l| format!(", or open {l}")).unwrap_or_default()
    );
    let html = format!("<p>{}</p>", crate::report::digest::esc(&text).replace("\n\n", "</p><p>"));
    let letter = mail::Letter { subject: "paperscout: confirm your address".into(), text, html };
    let address = address.to_string();
    let sent =
        blocking(move || mail::send_to_reader(&address, letter, TEST_BUDGET).map_err(|e| Failure::unavailable(format!("{e:#}")))).await;
    match sent {
        Ok(()) => (true, "we mailed a code to the address: enter it here to confirm it".to_string()),
        Err(f) => (false, format!("the address is saved, but the code could not be mailed ({}); save again to retry", f.message)),
    }
}

/// 10 characters of 31 (no 0/O, 1/I/L): about 50 bits, read aloud or typed.
fn confirmation_code() -> Result<String, Failure> {
    const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
    let mut bytes = [0u8; 10];
    getrandom::fill(&mut bytes).map_err(|e| Failure::from_error(anyhow::anyhow!("no randomness for a code: {e}")))?;
    Ok(bytes.iter().map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char).collect())
}

fn code_hash(code: &str) -> String {
    use sha2::{Digest, Sha256};
    let normal: String = code.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_uppercase()).collect();
    Sha256::digest(normal.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

#[derive(Deserialize)]
pub struct ConfirmBody {
    code: String,
    profile: Option<String>,
}

impl NamesProfile for ConfirmBody {
    fn profile(&self) -> Option<&str> {
        self.profile.as_deref()
    }
}

#[derive(Serialize)]
pub struct Confirmed {
    confirmed: bool,
}

pub async fn confirm(Shared(st): Shared<Arc<State>>, w: Write<ConfirmBody>) -> Result<Answer<Confirmed>, ApiError> {
    let user = reader(&w.who);
    let hash = code_hash(&w.body.code);
    let done = blocking(move || Ok(deliveries::confirm_email(st.writer()?.store.db(), &user, &hash, unix_now())?)).await?;
    match done {
        Confirmation::Confirmed => Ok(Answer(Confirmed { confirmed: true })),
        Confirmation::Wrong(0) | Confirmation::NoneWaiting => {
            Err(Failure::bad_request("no code is waiting for this address (or it was used up): save the address again for a new one")
                .into())
        }
        Confirmation::Wrong(left) => Err(Failure::bad_request(format!("that is not the code: {left} more tries")).into()),
    }
}

#[derive(Deserialize)]
pub struct TestBody {
    /// "chat" or "email".
    channel: String,
    profile: Option<String>,
}

impl NamesProfile for TestBody {
    fn profile(&self) -> Option<&str> {
        self.profile.as_deref()
    }
}

#[derive(Serialize)]
pub struct Tested {
    delivered: bool,
    /// What happened, in one sentence (never the address's path).
    message: String,
}

/// Sends a short test to the saved chat or address, through the same
/// checks as the morning, and says what became of it.
pub async fn test(Shared(st): Shared<Arc<State>>, w: Write<TestBody>) -> Result<Answer<Tested>, ApiError> {
    let user = reader(&w.who);
    let member = w.who.user.is_some();
    let email = match w.body.channel.as_str() {
        "email" => true,
        "chat" => false,
        other => {
            return Err(Failure::bad_request(format!("a test goes to \"chat\" or \"email\", not {:?}", super::view::clip(other))).into())
        }
    };
    let st2 = st.clone();
    let u = user.clone();
    let c = blocking(move || Ok(deliveries::channels_of(st2.reader()?.store.db(), &u)?.unwrap_or_default())).await?;
    if email {
        let Some(address) = c.email.clone() else { return Err(Failure::bad_request("no e-mail address is saved").into()) };
        if member && !c.email_confirmed {
            return Err(Failure::bad_request("confirm the address first, with the code mailed to it").into());
        }
        if !mail::configured() {
            return Err(Failure::bad_request("this server has no mail server set (PAPERSCOUT_SMTP), so it sends no e-mail").into());
        }
        if let Err(wait) = st.may_send(&format!("test:{user}"), SEND_SPACING) {
            return Err(Failure::unavailable(format!("one test at a time: try again in {} s", wait.as_secs().max(1))).into());
        }
        let text = "A test from paperscout: your morning digest will arrive here.".to_string();
        let letter = mail::Letter { subject: "paperscout: a test".into(), html: format!("<p>{text}</p>"), text };
        let sent = blocking(move || Ok(mail::send_to_reader(&address, letter, TEST_BUDGET))).await?;
        return Ok(Answer(tested(sent)));
    }
    let (Some(url), Some(channel)) = (c.chat_url.clone(), c.chat_format.as_deref().and_then(Channel::parse)) else {
        return Err(Failure::bad_request("no chat is saved").into());
    };
    let Channel::Chat(platform) = channel else { return Err(Failure::bad_request("no chat is saved").into()) };
    if let Err(wait) = st.may_send(&format!("test:{user}"), SEND_SPACING) {
        return Err(Failure::unavailable(format!("one test at a time: try again in {} s", wait.as_secs().max(1))).into());
    }
    let sent = blocking(move || {
        let lab = st.morning.as_ref().and_then(|m| m.lab_token.as_ref());
        let token = c.chat_token.clone().or_else(|| lab.and_then(|t| t.for_url(&url, platform, &st.destinations)).map(str::to_string));
        let target = push::Target { url: &url, platform, token: token.as_deref() };
        let run = || {
            let note = push::note(&target, "A test from paperscout: your morning digest will arrive here.")?;
            push::send(
                &target,
                &st.destinations,
                &note.body(),
                &format!("paperscout-test-{}", crate::accounts::random_hex(8)?),
                Instant::now() + TEST_BUDGET,
            )
        };
        Ok(run())
    })
    .await?;
    Ok(Answer(tested(sent)))
}

fn tested(sent: anyhow::Result<()>) -> Tested {
    match sent {
        Ok(()) => Tested { delivered: true, message: "delivered".into() },
        Err(e) => Tested { delivered: false, message: format!("not delivered: {e:#}") },
    }
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

/// A bearer token: printable ASCII without spaces (nothing that could end
/// a header), at most 4 kB; empty removes the saved one.
fn checked_token(t: &str) -> Result<Option<String>, Failure> {
    if t.is_empty() {
        return Ok(None);
    }
    if t.len() > 4096 || !t.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(Failure::bad_request("a token is letters, digits and punctuation, without spaces (at most 4,096)"));
    }
    Ok(Some(t.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_long_and_typed_loosely() {
        let a = confirmation_code().unwrap();
        assert_eq!(a.len(), 10);
        assert_ne!(a, confirmation_code().unwrap());
        assert_eq!(code_hash(&a), code_hash(&format!(" {}-{} ", &a[..5], a[5..].to_lowercase())));
    }

    #[test]
    fn tokens_cannot_break_a_header() {
        assert_eq!(checked_token("syt_abc.DEF-123").unwrap().as_deref(), Some("syt_abc.DEF-123"));
        assert!(checked_token("").unwrap().is_none());
        for bad in ["a b", "a\r\nX-Evil: 1", "tøken", &"x".repeat(5000)] {
            assert!(checked_token(bad).is_err(), "{bad:?}");
        }
    }
}
