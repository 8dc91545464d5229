//! Posting a digest to a chat: a Slack or Discord webhook, a Matrix room's
//! send endpoint, an ntfy topic. The address and the token are secrets (a
//! webhook URL is its own password): no message here ever holds them, nor
//! what the other side answered beyond its status (an answer can hold
//! whatever a server behind the address keeps). Only a 2xx is a delivery;
//! a redirect is never followed. A `429` is waited out as its
//! `Retry-After` asks, while the time the caller gave lasts.

use super::chat::{self, Message, Platform};
use super::destination::{refusal_in, Destinations};
use crate::report::Links;
use crate::workflow::digest::Digest;
use anyhow::{bail, Result};
use sha2::{Digest as _, Sha256};
use std::io::Read;
use std::time::{Duration, Instant};

/// Where to post, and with what.
pub struct Target<'a> {
    pub url: &'a str,
    pub platform: Platform,
    /// A bearer token (Matrix's access token; an ntfy token).
    pub token: Option<&'a str>,
}

/// Connecting may take this long at most.
const CONNECT: Duration = Duration::from_secs(10);
/// One request, answer included, at most.
const REQUEST: Duration = Duration::from_secs(20);
/// Tries of one message that 429s answer, and the least wait between.
const TRIES: u32 = 5;
const LEAST_WAIT: Duration = Duration::from_millis(500);
/// The command line's whole post may wait this long for 429s.
const COMMAND_BUDGET: Duration = Duration::from_secs(5 * 60);

/// The address messages go to, and ntfy's topic (empty for the others).
fn endpoint(t: &Target) -> Result<(url::Url, String)> {
    let url =
        url::Url::parse(t.url.trim()).map_err(|_| anyhow::anyhow!("--post: not an absolute URL (it is not shown: it is a secret)"))?;
    let name = t.platform.name();
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none_or(str::is_empty) {
        bail!("--post: give the {name} address as an http:// or https:// URL");
    }
    Ok(match t.platform {
        // ntfy takes JSON at its root, the topic in the body.
        Platform::Ntfy => {
            let topic = url.path_segments().and_then(|mut s| s.next_back()).filter(|s| !s.is_empty()).map(str::to_string);
            let Some(topic) = topic else { bail!("--post: an ntfy address ends in its topic, like https://ntfy.sh/my-topic") };
            let mut root = url.clone();
            root.path_segments_mut().map_err(|_| anyhow::anyhow!("--post: not an ntfy topic address"))?.pop();
            (root, topic)
        }
        Platform::Matrix => {
            if !url.path().trim_end_matches('/').ends_with("/send/m.room.message") {
                bail!("--post: a Matrix address is a room's send endpoint, …/_matrix/client/v3/rooms/ROOM/send/m.room.message");
            }
            if t.token.is_none() {
                bail!("posting to Matrix needs the room's access token");
            }
            (url, String::new())
        }
        Platform::Slack | Platform::Discord => (url, String::new()),
    })
}

/// The messages that carry `d` to `t`, in order (checking the address's
/// form for its platform first).
pub fn messages(t: &Target, d: &Digest, links: &Links) -> Result<Vec<Message>> {
    let (_, topic) = endpoint(t)?;
    Ok(chat::messages(t.platform, d, links, &topic))
}

/// A short message of the server's own for `t` (a test of a reader's chat).
pub fn note(t: &Target, text: &str) -> Result<Message> {
    let (_, topic) = endpoint(t)?;
    Ok(chat::note(t.platform, text, &topic))
}

/// Posts `d` as `t.platform`'s messages, in order; returns how many. The
/// command line's `--post`: the user posts where they choose.
pub fn post(t: &Target, d: &Digest, links: &Links) -> Result<usize> {
    let messages = messages(t, d, links)?;
    let deadline = Instant::now() + COMMAND_BUDGET;
    let anywhere = Destinations::anywhere();
    for (i, m) in messages.iter().enumerate() {
        let body = m.body();
        send(t, &anywhere, &body, &content_id(&body), deadline)
            .map_err(|e| e.context(format!("message {} of {}", i + 1, messages.len())))?;
    }
    Ok(messages.len())
}

/// A Matrix transaction id from a message's bytes: a resend of the same
/// message is the same event.
fn content_id(body: &str) -> String {
    let h = Sha256::digest(body.as_bytes());
    format!("paperscout-{}", h.iter().take(12).map(|b| format!("{b:02x}")).collect::<String>())
}

/// Posts one message's JSON `body`, through `policy`, by `deadline`. `txn` is Matrix's
/// transaction id: the same id twice is one event, so a message whose
/// acceptance was not recorded can be sent again safely there.
pub fn send(t: &Target, policy: &Destinations, body: &str, txn: &str, deadline: Instant) -> Result<()> {
    let name = t.platform.name();
    // The address's form (https, or http to an allowed host) at every send
    // too: a row written before the rule, or by hand, is held to it.
    policy.check_form(t.url).map_err(|r| anyhow::anyhow!("refused: {r}"))?;
    let (endpoint, _) = endpoint(t)?;
    let (method, at) = match t.platform {
        Platform::Matrix => ("PUT", format!("{}/{}", endpoint.as_str().trim_end_matches('/'), crate::report::links::encode(txn))),
        _ => ("POST", endpoint.to_string()),
    };
    for _ in 0..TRIES {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            bail!("ran out of time for {name}");
        }
        let agent = policy.agent(CONNECT.min(left), REQUEST.min(left));
        let mut req = agent.request(method, &at).set("Content-Type", "application/json");
        if let Some(token) = t.token {
            req = req.set("Authorization", &format!("Bearer {token}"));
        }
        match req.send_string(body) {
            Ok(r) if (200..300).contains(&r.status()) => return Ok(()),
            Ok(r) if (300..400).contains(&r.status()) => {
                bail!("{name} answered {} (a redirect, which is not followed): not delivered", r.status())
            }
            Ok(r) => bail!("{name} refused the message: {}", r.status()),
            Err(ureq::Error::Status(429, r)) => {
                let wait = retry_after(r).max(LEAST_WAIT);
                let left = deadline.saturating_duration_since(Instant::now());
                if wait >= left {
                    bail!("{name} asks to wait {} s (429), longer than the time left for it; tried again later", wait.as_secs());
                }
                std::thread::sleep(wait);
            }
            Err(ureq::Error::Status(code, _)) => bail!("{name} refused the message: {code}"),
            Err(ureq::Error::Transport(e)) => match refusal_in(&e) {
                Some(refusal) => {
                    // The reader hears the rule; the administrator's log, the address.
                    crate::messages::note(format_args!("a {name} webhook was refused: {}", refusal.in_full()));
                    bail!("refused: {refusal}")
                }
                // ureq's own message names the URL, which is a secret: only its kind.
                None => bail!("cannot reach {name}: {}", e.kind()),
            },
        }
    }
    bail!("{name} still asks to slow down (429) after {TRIES} tries")
}

/// How long a 429 asks to wait: `Retry-After` in seconds, else Discord's
/// `retry_after` in the body (read up to 64 kB), else a second.
fn retry_after(r: ureq::Response) -> Duration {
    let header = r.header("Retry-After").and_then(|v| v.trim().parse::<f64>().ok());
    /// Discord's 429 body.
    #[derive(serde::Deserialize)]
    struct RateLimited {
        retry_after: f64,
    }
    let secs = header.or_else(|| {
        let body: RateLimited = serde_json::from_reader(r.into_reader().take(64 << 10)).ok()?;
        Some(body.retry_after)
    });
    Duration::from_secs_f64(secs.filter(|s| s.is_finite() && *s >= 0.0).unwrap_or(1.0).min(3600.0))
}
