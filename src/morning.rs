//! A lab's morning from one server: fetch the day's listings once, then
//! rank and deliver each reader's digest by the channels they chose (an
//! e-mail address, a chat webhook). A reader's failure is theirs alone;
//! what was delivered is recorded in the library, so a day reaches a reader
//! once per channel even when the server restarts. `dry` says what each
//! reader would receive and sends nothing.

use crate::embed::ModelArgs;
use crate::fetch::FetchOpts;
use crate::library::store::deliveries::{self, Channels};
use crate::library::store::ProfileKey;
use crate::library::Library;
use crate::report::{chat::Platform, Links};
use crate::workflow::digest::{self, DayOptions};
use anyhow::{bail, Context, Result};
use std::path::Path;

/// What the morning needs beyond the library.
pub struct Morning<'a> {
    pub dir: &'a Path,
    /// Categories to fetch first (none: rank what the library has).
    pub fetch: &'a [String],
    pub fetch_opts: &'a FetchOpts,
    pub model: &'a ModelArgs,
    /// The server's public address, for the digests' 👍/👎 links.
    pub links: &'a Links,
    /// The profile each reader's digest ranks.
    pub profile: &'a str,
}

/// One reader's channel, and what became of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    /// The account ("" for the owner of a library without accounts).
    pub user: String,
    /// "email" or the chat format.
    pub channel: String,
    /// Where to, with nothing secret: an address's host only.
    pub to: String,
    pub picks: usize,
    pub outcome: Outcome,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Delivered,
    /// Delivered on an earlier run (recorded in the library).
    AlreadyDelivered,
    /// A dry run: what would be sent.
    WouldSend,
    Failed(String),
}

/// The morning's work; the day delivered and each channel's outcome.
pub fn run(m: &Morning, dry: bool) -> Result<(String, Vec<Sent>)> {
    if !m.fetch.is_empty() && !dry {
        let key = ProfileKey::of(None, m.profile);
        // No announcement today (a weekend): the newest day is delivered,
        // and the record keeps it from going out twice.
        crate::workflow::day::fetch_day(m.fetch, m.fetch_opts, m.dir, m.model, &key, false).context("the morning's fetch")?;
    }
    let lib = Library::open_read(m.dir)?;
    let day = lib.store.newest_day()?.ok_or(crate::workflow::Error::NoListings)?;
    let model = lib.store.default_model()?.context("the library holds no vectors yet")?;
    let flat = lib.flat_vectors(&model)?;
    let words = digest::words_for(lib.lexical()?.as_ref());
    let readers = deliveries::all_channels(lib.store.conn())?;
    let accounts = crate::accounts::names(lib.store.conn())?;
    let mut sent = Vec::new();
    for r in &readers {
        // A channel left by a removed account, or the owner's in a library
        // that has accounts now, is nobody's to receive.
        let known = if accounts.is_empty() { r.user.is_empty() } else { accounts.contains(&r.user) };
        if !known {
            continue;
        }
        let user = (!r.user.is_empty()).then_some(r.user.as_str());
        let opts = DayOptions { profile: ProfileKey::of(user, m.profile), ..DayOptions::default() };
        let ranked = digest::rank_listed_day(&lib, &flat, &words, None, &opts);
        for (channel, to) in channels(r) {
            let mut s = Sent { user: r.user.clone(), channel: channel.clone(), to, picks: 0, outcome: Outcome::WouldSend };
            let d = match &ranked {
                Ok(d) if d.cold => {
                    s.outcome = Outcome::Failed("the profile has no liked seeds yet".into());
                    sent.push(s);
                    continue;
                }
                Ok(d) => d,
                Err(e) => {
                    s.outcome = Outcome::Failed(format!("{e:#}"));
                    sent.push(s);
                    continue;
                }
            };
            s.picks = d.picks.len();
            if deliveries::delivered(lib.store.conn(), &r.user, &day, &channel)? {
                s.outcome = Outcome::AlreadyDelivered;
            } else if !dry {
                s.outcome = match deliver(r, &channel, d, m.links) {
                    Ok(()) => {
                        record(m.dir, &r.user, &day, &channel)?;
                        Outcome::Delivered
                    }
                    Err(e) => Outcome::Failed(format!("{e:#}")),
                };
            }
            sent.push(s);
        }
    }
    Ok((day, sent))
}

/// A reader's channels: ("email", address) and (chat format, host).
fn channels(r: &Channels) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Some(e) = &r.email {
        out.push(("email".to_string(), e.clone()));
    }
    if let (Some(url), Some(format)) = (&r.chat_url, &r.chat_format) {
        out.push((format.clone(), host_of(url)));
    }
    out
}

/// An address shown without its secret path: `https://hooks.slack.com/…`.
pub fn host_of(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(u) => format!("{}://{}/…", u.scheme(), u.host_str().unwrap_or("?")),
        Err(_) => "(an address)".into(),
    }
}

pub fn platform(format: &str) -> Option<Platform> {
    match format {
        "slack" => Some(Platform::Slack),
        "discord" => Some(Platform::Discord),
        "matrix" => Some(Platform::Matrix),
        "ntfy" => Some(Platform::Ntfy),
        _ => None,
    }
}

fn deliver(r: &Channels, channel: &str, d: &digest::Digest, links: &Links) -> Result<()> {
    if channel == "email" {
        let to = vec![r.email.clone().unwrap_or_default()];
        let smtp = std::env::var("PAPERSCOUT_SMTP").ok();
        let from = std::env::var("PAPERSCOUT_MAIL_FROM").ok();
        let delivery = crate::mail::Delivery { smtp: smtp.as_deref(), from: from.as_deref(), to: &to };
        return crate::mail::send(&delivery, crate::mail::Letter::of(d, links)?);
    }
    let Some(platform) = platform(channel) else { bail!("{channel:?} is not a chat this version posts to") };
    let url = r.chat_url.as_deref().unwrap_or_default();
    // A server-wide token serves a lab's Matrix bot or ntfy server.
    let token = std::env::var("PAPERSCOUT_POST_TOKEN").ok().filter(|t| !t.is_empty());
    crate::push::post(&crate::push::Target { url, platform, token: token.as_deref() }, d, links).map(|_| ())
}

fn record(dir: &Path, user: &str, day: &str, channel: &str) -> Result<()> {
    let lib = Library::open_write(dir)?;
    deliveries::record_delivery(lib.store.conn(), user, day, channel, &crate::library::store::now())
}
