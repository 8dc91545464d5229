//! Delivery: the digest sent where a reader reads, by mail ([`mail`]) or
//! to a chat ([`push`]), and a lab's morning from one server ([`run`]):
//! fetch the day's listings once, rank each reader's profile, and deliver
//! by the channels they chose on Settings.
//!
//! A morning treats every reader's address as untrusted. Webhooks go only
//! where [`Destinations`] allows. Readers are delivered a few at a time
//! while the rest are ranked, each channel within [`CHANNEL_BUDGET`]
//! (waits a server asks for included), so a webhook that hangs or asks to
//! wait costs its own reader alone. A day's messages are kept before the
//! first is sent and each is marked when a 2xx takes it, so a retry or a
//! restart sends only what was not taken; what was delivered is recorded,
//! so a day reaches a reader once per channel. `dry` says what each reader
//! would receive and sends nothing.

pub mod chat;
pub mod destination;
pub mod feed;
mod format;
pub mod mail;
pub mod push;

pub use destination::{Destinations, Refusal};
pub use format::{render, DigestFormat};

use crate::embed::ModelArgs;
use crate::fetch::FetchOpts;
use crate::library::store::deliveries::{self, Channels, Part};
use crate::library::store::Db;
use crate::library::store::ProfileKey;
use crate::library::Library;
use crate::paper::Day;
use crate::report::Links;
use crate::workflow::digest::{self, DayOptions, Digest};
use anyhow::{Context, Result};
use chat::Platform;
use sha2::{Digest as _, Sha256};
use std::fmt;
use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The time one reader's channel has, from its first message's send to its
/// last's answer, waits for `Retry-After` included; what is left undelivered
/// is tried again at the morning's next run.
pub const CHANNEL_BUDGET: Duration = Duration::from_secs(60);
/// Channels delivered at once. Each waits on the network, not on a core.
const SENDERS: usize = 16;
/// How long a record waits for another writer (an ingest) to finish.
const WRITE_PATIENCE: Duration = Duration::from_secs(30);
/// Days a day's messages are kept after it (for a late retry).
const KEEP_DAYS: i64 = 14;

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
    /// Where readers' webhooks may go.
    pub destinations: &'a Destinations,
    /// The server's own chat token, sent to its one host only.
    pub lab_token: Option<&'a LabToken>,
}

/// The administrator's chat token (`PAPERSCOUT_POST_TOKEN`) and the host
/// it belongs to (`serve --post-token-host`): a lab's Matrix homeserver or
/// ntfy server. A reader's webhook elsewhere never receives it.
#[derive(Debug, Clone)]
pub struct LabToken {
    host: String,
    port: Option<u16>,
    token: String,
}

impl LabToken {
    /// `host` as `NAME` or `NAME:PORT` (443 when none).
    pub fn new(host: &str, token: String) -> Result<LabToken> {
        let parsed = url::Url::parse(&format!("https://{}/", host.trim()))
            .ok()
            .filter(|u| u.host_str().is_some_and(|h| !h.is_empty()) && u.path() == "/" && u.username().is_empty())
            .with_context(|| format!("--post-token-host {host:?}: give a host name, like matrix.lab.example or matrix.lab.example:8448"))?;
        Ok(LabToken { host: parsed.host_str().unwrap_or_default().to_string(), port: parsed.port(), token })
    }

    /// The token, if `url` is a place it is for: its host (same name and
    /// port) over https, or plain http to a host the administrator allowed;
    /// and there a Matrix room's send endpoint or an ntfy topic. Never any
    /// other path of that host: a member's "webhook" at
    /// `/_matrix/client/v3/logout` would have the lab's token end the lab's
    /// session.
    pub fn for_url(&self, url: &str, platform: Platform, destinations: &Destinations) -> Option<&str> {
        let u = url::Url::parse(url).ok()?;
        let host = u.host_str()?;
        let port = u.port_or_known_default()?;
        let secure = u.scheme() == "https" || destinations.allows(host, port);
        let same_port = match self.port {
            Some(p) => port == p,
            None => u.port().is_none(),
        };
        let segments: Vec<&str> = u.path_segments().map(|s| s.filter(|s| !s.is_empty()).collect()).unwrap_or_default();
        let place = match platform {
            Platform::Matrix => matches!(
                segments.as_slice(),
                ["_matrix", "client", "v3" | "r0", "rooms", room, "send", "m.room.message"] if !room.is_empty()
            ),
            Platform::Ntfy => segments.len() == 1,
            Platform::Slack | Platform::Discord => false,
        };
        let fits = secure && same_port && place && u.query().is_none() && host.eq_ignore_ascii_case(&self.host);
        fits.then_some(self.token.as_str())
    }
}

/// A reader's channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    Email,
    Chat(Platform),
}

impl Channel {
    /// As the library records it.
    pub fn name(self) -> &'static str {
        match self {
            Channel::Email => "email",
            Channel::Chat(p) => p.name(),
        }
    }

    pub fn parse(s: &str) -> Option<Channel> {
        match s {
            "email" => Some(Channel::Email),
            other => platform(other).map(Channel::Chat),
        }
    }
}

impl fmt::Display for Channel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
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

/// One reader's channel, and what became of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    /// The account ("" for the owner of a library without accounts).
    pub user: String,
    pub channel: Channel,
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
    /// Not tried, and trying again today would not help: the reader must
    /// act first (confirm an address).
    Waiting(String),
    Failed(String),
}

/// An address shown without its secret path: `https://hooks.slack.com/…`.
pub fn host_of(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(u) => format!("{}://{}/…", u.scheme(), u.host_str().unwrap_or("?")),
        Err(_) => "(an address)".into(),
    }
}

/// A channel ready to go: where, with what, and its messages.
struct Job {
    index: usize,
    user: String,
    channel: Channel,
    /// The e-mail address, or the chat's URL.
    address: String,
    token: Option<String>,
    parts: Vec<Part>,
}

/// The morning's work; the day delivered and each channel's outcome, in
/// the order of the readers' names.
pub fn run(m: &Morning, dry: bool) -> Result<(Day, Vec<Sent>)> {
    if !m.fetch.is_empty() && !dry {
        let key = ProfileKey::of(None, m.profile);
        // No announcement today (a weekend): the newest day is delivered,
        // and the record keeps it from going out twice.
        crate::workflow::day::fetch_day(m.fetch, m.fetch_opts, m.dir, m.model, &key).context("the morning's fetch")?;
    }
    let lib = Library::open_read(m.dir)?;
    let day = lib.store.newest_day()?.ok_or(crate::workflow::Error::NoListings)?;
    if !dry {
        if let Some(before) = day.days_before(KEEP_DAYS as u64) {
            write(m.dir, |c| deliveries::forget_messages_before(c, before))?;
        }
    }
    let ranking = digest::Ranking::open(&lib)?;
    let readers = deliveries::all_channels(lib.store.db())?;
    let accounts = crate::accounts::names(lib.store.db())?;
    let results: Mutex<Vec<(usize, Sent)>> = Mutex::new(Vec::new());
    let (jobs, queue) = mpsc::sync_channel::<(Job, Sent)>(SENDERS);
    let queue = Arc::new(Mutex::new(queue));
    std::thread::scope(|scope| -> Result<()> {
        for _ in 0..SENDERS {
            let (queue, results) = (queue.clone(), &results);
            scope.spawn(move || loop {
                let next = queue.lock().map(|q| q.recv());
                let Ok(Ok((job, mut s))) = next else { return };
                // A panic in one reader's delivery is that reader's failure.
                s.outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| deliver(m, day, &job)))
                    .unwrap_or_else(|_| Outcome::Failed("the delivery stopped on an internal error".into()));
                if let Ok(mut r) = results.lock() {
                    r.push((job.index, s));
                }
            });
        }
        let mut index = 0;
        let done = |s: Sent, index: usize| {
            if let Ok(mut r) = results.lock() {
                r.push((index, s));
            }
        };
        for r in &readers {
            // A channel left by a removed account, or the owner's in a library
            // that has accounts now, is nobody's to receive.
            let known = if accounts.is_empty() { r.user.is_empty() } else { accounts.contains(&r.user) };
            if !known {
                continue;
            }
            let wanted = channels(r);
            let mut open = Vec::new();
            for (channel, to) in wanted {
                let s = Sent { user: r.user.clone(), channel, to, picks: 0, outcome: Outcome::WouldSend };
                if deliveries::delivered(lib.store.db(), &r.user, day, channel.name())? {
                    done(Sent { outcome: Outcome::AlreadyDelivered, ..s }, index);
                } else if channel == Channel::Email && !r.user.is_empty() && !r.email_confirmed {
                    let why = "the address is not confirmed yet: enter the code sent to it on Settings".to_string();
                    done(Sent { outcome: Outcome::Waiting(why), ..s }, index);
                } else {
                    open.push(s);
                    continue;
                }
                index += 1;
            }
            if open.is_empty() {
                continue;
            }
            let user = (!r.user.is_empty()).then_some(r.user.as_str());
            let opts = DayOptions { profile: ProfileKey::of(user, m.profile), ..DayOptions::default() };
            let ranked = ranking.listed_day(&lib, None, &opts);
            for mut s in open {
                let i = index;
                index += 1;
                let d = match &ranked {
                    Ok(d) if d.cold => {
                        s.outcome = Outcome::Failed("the profile has no liked seeds yet".into());
                        done(s, i);
                        continue;
                    }
                    Ok(d) => d,
                    Err(e) => {
                        s.outcome = Outcome::Failed(format!("{e:#}"));
                        done(s, i);
                        continue;
                    }
                };
                s.picks = d.picks.len();
                if dry {
                    done(s, i);
                    continue;
                }
                match prepare(m, r, s.channel, d, day) {
                    Ok((address, token, parts)) => {
                        let job = Job { index: i, user: r.user.clone(), channel: s.channel, address, token, parts };
                        // The senders are gone only if they all panicked.
                        if jobs.send((job, s)).is_err() {
                            anyhow::bail!("the morning's senders stopped");
                        }
                    }
                    Err(e) => {
                        let why = format!("{e:#}");
                        let now = crate::library::store::now();
                        let _ = write(m.dir, |c| deliveries::record_failure(c, &r.user, day, s.channel.name(), &now, &why));
                        s.outcome = Outcome::Failed(why);
                        done(s, i);
                    }
                }
            }
        }
        drop(jobs);
        Ok(())
    })?;
    let mut sent = results.into_inner().unwrap_or_else(|p| p.into_inner());
    sent.sort_by_key(|(i, _)| *i);
    Ok((day, sent.into_iter().map(|(_, s)| s).collect()))
}

/// A reader's channels and where each goes (an address's host only).
fn channels(r: &Channels) -> Vec<(Channel, String)> {
    let mut out = Vec::new();
    if let Some(e) = &r.email {
        out.push((Channel::Email, e.clone()));
    }
    if let (Some(url), Some(channel)) = (&r.chat_url, r.chat_format.as_deref().and_then(Channel::parse)) {
        out.push((channel, host_of(url)));
    }
    out
}

/// The token a reader's chat gets: their own, else the lab's for its own
/// host; never the lab's anywhere else.
fn token_for(m: &Morning, r: &Channels) -> Option<String> {
    if let Some(own) = &r.chat_token {
        return Some(own.clone());
    }
    let url = r.chat_url.as_deref()?;
    let platform = r.chat_format.as_deref().and_then(platform)?;
    m.lab_token.and_then(|t| t.for_url(url, platform, m.destinations)).map(str::to_string)
}

/// The channel's messages for the day, kept before any is sent (or those
/// kept on an earlier try), with where they go.
fn prepare(m: &Morning, r: &Channels, channel: Channel, d: &Digest, day: Day) -> Result<(String, Option<String>, Vec<Part>)> {
    let (address, token, bodies) = match channel {
        Channel::Email => {
            let address = r.email.clone().unwrap_or_default();
            let letter = mail::Letter::of(d, m.links)?;
            (address, None, vec![serde_json::to_string(&letter)?])
        }
        Channel::Chat(platform) => {
            let url = r.chat_url.clone().unwrap_or_default();
            let token = token_for(m, r);
            if platform == Platform::Matrix && token.is_none() {
                anyhow::bail!("posting to Matrix needs an access token: give yours on Settings");
            }
            let target = push::Target { url: &url, platform, token: token.as_deref() };
            let bodies = push::messages(&target, d, m.links)?.iter().map(|v| v.body()).collect();
            (url, token, bodies)
        }
    };
    let parts = write(m.dir, |c| deliveries::plan(c, &r.user, day, channel.name(), &bodies))?;
    Ok((address, token, parts))
}

/// Sends the parts no 2xx has taken yet, in order, marking each as it is
/// taken; the first failure ends the channel's try.
fn deliver(m: &Morning, day: Day, job: &Job) -> Outcome {
    let deadline = Instant::now() + CHANNEL_BUDGET;
    let name = job.channel.name();
    for p in job.parts.iter().filter(|p| !p.accepted) {
        let sent = match job.channel {
            Channel::Email => serde_json::from_str::<mail::Letter>(&p.body)
                .map_err(anyhow::Error::from)
                .and_then(|letter| mail::send_to_reader(&job.address, letter, deadline.saturating_duration_since(Instant::now()))),
            Channel::Chat(platform) => {
                let target = push::Target { url: &job.address, platform, token: job.token.as_deref() };
                push::send(&target, m.destinations, &p.body, &transaction(&job.user, day, name, p.part), deadline)
            }
        };
        let recorded = match &sent {
            Ok(()) => write(m.dir, |c| deliveries::accept_part(c, &job.user, day, name, p.part, &crate::library::store::now())),
            Err(e) => {
                let why = if p.parts > 1 { format!("message {} of {}: {e:#}", p.part + 1, p.parts) } else { format!("{e:#}") };
                let _ = write(m.dir, |c| deliveries::record_failure(c, &job.user, day, name, &crate::library::store::now(), &why));
                return Outcome::Failed(why);
            }
        };
        if let Err(e) = recorded {
            return Outcome::Failed(format!("delivered, but not recorded: {e:#}"));
        }
    }
    match write(m.dir, |c| deliveries::record_delivery(c, &job.user, day, name, &crate::library::store::now())) {
        Ok(()) => Outcome::Delivered,
        Err(e) => Outcome::Failed(format!("delivered, but not recorded: {e:#}")),
    }
}

/// Matrix's transaction id of a part: the same for every try of it, so a
/// homeserver that took it once takes a resend as the same event.
fn transaction(user: &str, day: Day, channel: &str, part: usize) -> String {
    let h = Sha256::digest(format!("{user}\n{day}\n{channel}\n{part}").as_bytes());
    format!("paperscout-{}", h.iter().take(12).map(|b| format!("{b:02x}")).collect::<String>())
}

/// One short write: the morning never holds the library's write lock
/// while it waits on the network. The senders take turns here rather than
/// at the lock, which is for other processes (and the pages' writes).
fn write<T>(dir: &Path, f: impl FnOnce(Db<'_>) -> Result<T>) -> Result<T> {
    static TURN: Mutex<()> = Mutex::new(());
    let _turn = TURN.lock().unwrap_or_else(|p| p.into_inner());
    let lib = Library::open_write_within(dir, WRITE_PATIENCE)?;
    f(lib.store.db())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lab_token_fits_its_host_and_a_place_to_post_alone() {
        let lab = LabToken::new("matrix.lab.example", "syt_lab".into()).unwrap();
        let open = Destinations::default();
        let fits = |url: &str, p: Platform| lab.for_url(url, p, &open).is_some();
        let room = "https://matrix.lab.example/_matrix/client/v3/rooms/!abc:lab.example/send/m.room.message";
        assert!(fits(room, Platform::Matrix));
        assert!(fits("https://MATRIX.lab.example/topic", Platform::Ntfy));
        // Another host, port, scheme or path of the host gets nothing.
        for (url, p) in [
            ("https://matrix.lab.example.evil.example/_matrix/client/v3/rooms/!a/send/m.room.message", Platform::Matrix),
            ("https://matrix.lab.example:8448/_matrix/client/v3/rooms/!a/send/m.room.message", Platform::Matrix),
            ("http://matrix.lab.example/_matrix/client/v3/rooms/!a/send/m.room.message", Platform::Matrix),
            ("https://matrix.lab.example/_matrix/client/v3/logout", Platform::Matrix),
            ("https://matrix.lab.example/_matrix/client/v3/logout", Platform::Slack),
            ("https://matrix.lab.example/_synapse/admin/v1/users", Platform::Ntfy),
            (&format!("{room}?access_token=x"), Platform::Matrix),
            ("https://matrix.lab.example/topic", Platform::Discord),
        ] {
            assert!(!fits(url, p), "{url}");
        }
        let with_port = LabToken::new("ntfy.lab.example:8443", "tk".into()).unwrap();
        assert!(with_port.for_url("https://ntfy.lab.example:8443/t", Platform::Ntfy, &open).is_some());
        assert!(with_port.for_url("https://ntfy.lab.example/t", Platform::Ntfy, &open).is_none());
        assert!(LabToken::new("https://x/y", "t".into()).is_err());
    }
}
