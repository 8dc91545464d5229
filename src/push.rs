//! Posting a digest to a chat: a Slack or Discord webhook, a Matrix room's
//! send endpoint, an ntfy topic. The address and the token are secrets (a
//! webhook URL is its own password): no message here ever holds them.
//! A `429` is waited out as its `Retry-After` asks (up to a minute, a few
//! times); any other refusal is one error naming the platform and status.

use crate::report::chat::{self, Platform};
use crate::report::Links;
use crate::workflow::digest::Digest;
use anyhow::{bail, Context, Result};
use serde_json::Value;
use std::hash::{Hash, Hasher};
use std::io::Read;
use std::time::Duration;

/// Where to post, and with what.
pub struct Target<'a> {
    pub url: &'a str,
    pub platform: Platform,
    /// A bearer token (Matrix's access token; an ntfy token).
    pub token: Option<&'a str>,
}

/// Attempts after a 429 before giving up.
const RETRIES: u32 = 4;
/// The longest wait a `Retry-After` is granted.
const LONGEST_WAIT: Duration = Duration::from_secs(60);
/// Deadline of one request.
const TIMEOUT: Duration = Duration::from_secs(30);

/// Posts `d` as `t.platform`'s messages, in order; returns how many.
pub fn post(t: &Target, d: &Digest, links: &Links) -> Result<usize> {
    let name = t.platform.name();
    let url =
        url::Url::parse(t.url.trim()).map_err(|_| anyhow::anyhow!("--post: not an absolute URL (it is not shown: it is a secret)"))?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none_or(str::is_empty) {
        bail!("--post: give the {name} address as an http:// or https:// URL");
    }
    if t.platform == Platform::Matrix && t.token.is_none() {
        bail!("posting to Matrix needs the room's access token: set PAPERSCOUT_POST_TOKEN or give --post-token-file");
    }
    let (endpoint, topic) = match t.platform {
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
            (url.clone(), String::new())
        }
        Platform::Slack | Platform::Discord => (url.clone(), String::new()),
    };
    let messages = chat::messages(t.platform, d, links, &topic);
    let agent = ureq::AgentBuilder::new().timeout(TIMEOUT).user_agent(crate::fetch::USER_AGENT).redirects(0).build();
    for (i, m) in messages.iter().enumerate() {
        let (method, at) = match t.platform {
            // The transaction id makes a resend of the same message (a
            // retry, a second run of the same day) one event, not two.
            Platform::Matrix => ("PUT", format!("{}/{}", endpoint.as_str().trim_end_matches('/'), transaction(m))),
            _ => ("POST", endpoint.to_string()),
        };
        send(&agent, method, &at, t.token, m, name).with_context(|| format!("message {} of {} to {name}", i + 1, messages.len()))?;
    }
    Ok(messages.len())
}

fn transaction(m: &Value) -> String {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    m.to_string().hash(&mut h);
    format!("paperscout-{:016x}", h.finish())
}

fn send(agent: &ureq::Agent, method: &str, url: &str, token: Option<&str>, body: &Value, name: &str) -> Result<()> {
    let body = body.to_string();
    for attempt in 0..=RETRIES {
        let mut req = agent.request(method, url).set("Content-Type", "application/json");
        if let Some(t) = token {
            req = req.set("Authorization", &format!("Bearer {t}"));
        }
        match req.send_string(&body) {
            Ok(_) => return Ok(()),
            Err(ureq::Error::Status(429, r)) => {
                let wait = retry_after(r);
                if attempt == RETRIES {
                    bail!("{name} still asks to slow down (429) after {} tries", RETRIES + 1);
                }
                if wait > LONGEST_WAIT {
                    bail!("{name} asks to wait {} s before posting again (429); try later", wait.as_secs());
                }
                std::thread::sleep(wait);
            }
            Err(ureq::Error::Status(code, r)) => {
                let text: String = r.into_string().unwrap_or_default().chars().filter(|c| !c.is_control()).take(200).collect();
                bail!("{name} refused the message: {code} {}", text.trim());
            }
            // ureq's own message names the URL, which is a secret: only its kind.
            Err(ureq::Error::Transport(e)) => bail!("cannot reach {name}: {}", e.kind()),
        }
    }
    bail!("{name}: no answer")
}

/// How long a 429 asks to wait: `Retry-After` in seconds, else Discord's
/// `retry_after` in the body, else a second.
fn retry_after(r: ureq::Response) -> Duration {
    let header = r.header("Retry-After").and_then(|v| v.trim().parse::<f64>().ok());
    let secs = header.or_else(|| {
        let body: Value = serde_json::from_reader(r.into_reader().take(64 << 10)).ok()?;
        body["retry_after"].as_f64()
    });
    Duration::from_secs_f64(secs.filter(|s| s.is_finite() && *s >= 0.0).unwrap_or(1.0).min(3600.0))
}
