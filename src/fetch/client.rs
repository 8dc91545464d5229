//! A polite HTTP client for arXiv: a descriptive User-Agent, one request
//! every `min_interval` at most, retries with exponential backoff on 429 and
//! 5xx (honouring `Retry-After` up to the timeout), and a deadline on every
//! request. It is careful too: redirects are followed only over http(s) to
//! the configured hosts, and a body is read only up to [`MAX_BODY`].

use std::io::Read;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Sent with every request so arXiv can tell who is calling.
pub const USER_AGENT: &str =
    concat!("paperscout/", env!("CARGO_PKG_VERSION"), " (daily arXiv digest; +https://github.com/paperscout/paperscout)");

/// The most a download may hold, decompressed. arXiv's feeds and pages are
/// a few MB; the cap keeps a huge or hostile answer (a gzip bomb) from
/// taking the machine's memory.
pub const MAX_BODY: usize = 64 << 20;

/// Redirects followed for one request.
pub const MAX_REDIRECTS: usize = 5;

/// The longest `--timeout` accepted: a day.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(24 * 3600);

/// How gently to ask. `arxiv()` is arXiv's stated limit; tests use milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Politeness {
    /// Least time between the starts of two requests.
    pub min_interval: Duration,
    /// Retries after a 429 or 5xx (so up to `max_retries + 1` attempts).
    pub max_retries: u32,
    /// First backoff; it doubles on every retry.
    pub base_backoff: Duration,
    /// Deadline for one attempt: connecting, redirects, headers and the
    /// whole body. Also the longest wait between two attempts.
    pub timeout: Duration,
}

impl Politeness {
    /// One request every 3 seconds, 4 retries from 5 s, 60 s timeout.
    pub fn arxiv() -> Politeness {
        Politeness {
            min_interval: Duration::from_secs(3),
            max_retries: 4,
            base_backoff: Duration::from_secs(5),
            timeout: Duration::from_secs(60),
        }
    }

    /// `--timeout` as given on the command line, checked: `Duration` panics
    /// on values it cannot hold.
    pub fn timeout_from_secs(secs: f64) -> Result<Duration, String> {
        if !(secs.is_finite() && secs > 0.0) || secs > MAX_TIMEOUT.as_secs_f64() {
            return Err(format!("--timeout must be a number of seconds above 0 and at most {} (a day); got {secs}", MAX_TIMEOUT.as_secs()));
        }
        Ok(Duration::from_secs_f64(secs))
    }
}

impl Default for Politeness {
    fn default() -> Self {
        Politeness::arxiv()
    }
}

/// Why a download failed; every message names the URL.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error("{url}: HTTP {status}{}", if *.attempts > 1 { format!(" (after {} attempts)", .attempts) } else { String::new() })]
    Status { url: String, status: u16, attempts: u32 },
    #[error("{url}: {message}")]
    Transport { url: String, message: String },
    #[error("{url}: the response was cut off after {received} bytes ({message})")]
    Truncated { url: String, received: usize, message: String },
    /// A redirect or a body the client does not follow or read.
    #[error("{url}: {message}")]
    Refused { url: String, message: String },
}

impl FetchError {
    /// The HTTP status, when the server answered with an error.
    pub fn status(&self) -> Option<u16> {
        match self {
            FetchError::Status { status, .. } => Some(*status),
            _ => None,
        }
    }
}

/// One agent shared by every request of a run, so the rate limit holds across them.
pub struct Client {
    agent: ureq::Agent,
    politeness: Politeness,
    last_start: Mutex<Option<Instant>>,
    /// `host:port` of every root requests go to; redirects may go nowhere else.
    hosts: Vec<String>,
    /// Reports retries and waits (stderr in the CLI).
    log: Box<dyn Fn(&str) + Send + Sync>,
}

/// What one attempt came back with.
enum Answer {
    Body(Vec<u8>),
    /// An HTTP error status, with its `Retry-After`.
    Status(u16, Option<String>),
}

impl Client {
    /// A client for arXiv's hosts; [`Client::for_hosts`] for others.
    pub fn new(politeness: Politeness) -> Client {
        // Redirects are followed by hand, to check where each one goes.
        let agent = ureq::AgentBuilder::new().user_agent(USER_AGENT).timeout(politeness.timeout).redirects(0).build();
        Client { agent, politeness, last_start: Mutex::new(None), hosts: super::Endpoints::arxiv().hosts(), log: Box::new(|_| {}) }
    }

    /// The hosts (`host:port`) redirects may lead to, besides the host of the
    /// URL asked for: those of the configured endpoints.
    pub fn for_hosts(mut self, hosts: Vec<String>) -> Client {
        self.hosts = hosts;
        self
    }

    /// Where retry notices go.
    pub fn with_log(mut self, log: impl Fn(&str) + Send + Sync + 'static) -> Client {
        self.log = Box::new(log);
        self
    }

    pub fn politeness(&self) -> Politeness {
        self.politeness
    }

    /// GETs `url` and returns the whole body, retrying 429 and 5xx answers.
    pub fn get(&self, url: &str) -> Result<Vec<u8>, FetchError> {
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            self.wait_turn();
            let (status, retry_after) = match self.attempt(url)? {
                Answer::Body(body) => return Ok(body),
                Answer::Status(status, retry_after) => (status, retry_after),
            };
            let retryable = status == 429 || (500..600).contains(&status);
            if !retryable || attempt > self.politeness.max_retries {
                return Err(FetchError::Status { url: url.to_string(), status, attempts: attempt });
            }
            let timeout = self.politeness.timeout;
            let backoff = self.politeness.base_backoff.saturating_mul(2u32.saturating_pow(attempt - 1));
            let wait = match retry_after.as_deref().and_then(parse_retry_after) {
                Some(after) if after > timeout => {
                    (self.log)(&format!(
                        "{url}: HTTP {status}; Retry-After asks for {} s, waiting {} s (the --timeout) instead",
                        after.as_secs_f64(),
                        timeout.as_secs_f64()
                    ));
                    timeout
                }
                Some(after) => {
                    (self.log)(&format!("{url}: HTTP {status}; retrying after {} s as asked", after.as_secs_f64()));
                    after
                }
                None => {
                    let backoff = backoff.min(timeout);
                    (self.log)(&format!("{url}: HTTP {status}; retrying in {:.1} s", backoff.as_secs_f64()));
                    backoff
                }
            };
            std::thread::sleep(wait);
        }
    }

    /// One request for `url`, following redirects that stay on http(s) and
    /// on the configured hosts, all within one `timeout`.
    fn attempt(&self, url: &str) -> Result<Answer, FetchError> {
        let refused = |message: String| FetchError::Refused { url: url.to_string(), message };
        let deadline = Instant::now() + self.politeness.timeout.min(MAX_TIMEOUT);
        let mut current = url::Url::parse(url).map_err(|e| refused(format!("not a URL ({e})")))?;
        let origin = host_port(&current);
        for hop in 0..=MAX_REDIRECTS {
            if hop > 0 {
                self.wait_turn();
            }
            let Some(left) = deadline.checked_duration_since(Instant::now()).filter(|d| !d.is_zero()) else {
                return Err(timed_out(url, self.politeness.timeout));
            };
            let resp = match self.agent.get(current.as_str()).timeout(left).call() {
                Ok(resp) => resp,
                Err(ureq::Error::Status(status, resp)) => {
                    return Ok(Answer::Status(status, resp.header("Retry-After").map(str::to_string)))
                }
                Err(ureq::Error::Transport(t)) => {
                    return Err(FetchError::Transport { url: url.to_string(), message: transport_message(&t) })
                }
            };
            if !(300..400).contains(&resp.status()) {
                return read_body(url, resp, deadline, self.politeness.timeout).map(Answer::Body);
            }
            let status = resp.status();
            let Some(location) = resp.header("Location").filter(|l| !l.trim().is_empty()) else {
                return Err(refused(format!("HTTP {status} without a Location to follow")));
            };
            let next =
                current.join(location).map_err(|e| refused(format!("HTTP {status} redirect to {} is not a URL ({e})", quote(location))))?;
            if !matches!(next.scheme(), "http" | "https") {
                return Err(refused(format!("redirected to {}; only http and https redirects are followed", quote(next.as_str()))));
            }
            if current.scheme() == "https" && next.scheme() == "http" {
                return Err(refused(format!("redirected from https to plain http ({}); not followed", quote(next.as_str()))));
            }
            let host = host_port(&next);
            if host != origin && !self.hosts.contains(&host) {
                return Err(refused(format!(
                    "redirected to {}, a host other than the configured ones ({}); not followed",
                    quote(next.as_str()),
                    self.hosts.join(", ")
                )));
            }
            current = next;
        }
        Err(refused(format!("more than {MAX_REDIRECTS} redirects (the last to {})", quote(current.as_str()))))
    }

    /// Sleeps until `min_interval` has passed since the previous request began.
    fn wait_turn(&self) {
        let mut last = self.last_start.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(prev) = *last {
            let since = prev.elapsed();
            if since < self.politeness.min_interval {
                std::thread::sleep(self.politeness.min_interval - since);
            }
        }
        *last = Some(Instant::now());
    }
}

/// `host:port` of a URL, the port made explicit, for comparing origins.
pub fn host_port(url: &url::Url) -> String {
    let host = url.host_str().unwrap_or_default().to_ascii_lowercase();
    match url.port_or_known_default() {
        Some(port) => format!("{host}:{port}"),
        None => host,
    }
}

/// A server's text in a message: quoted and cut, so that a hostile header
/// cannot fill the screen.
fn quote(s: &str) -> String {
    let cut: String = s.chars().take(120).collect();
    if cut.len() < s.len() {
        format!("{:?}…", cut)
    } else {
        format!("{cut:?}")
    }
}

fn timed_out(url: &str, timeout: Duration) -> FetchError {
    FetchError::Transport { url: url.to_string(), message: format!("timed out: the download took longer than {} s", timeout.as_secs_f64()) }
}

/// Reads the body as it arrives, decompressed, until [`MAX_BODY`] or the
/// deadline: neither a huge answer, nor a gzip bomb, nor a server that
/// sends a byte a second can hold the client. A body that is itself gzip
/// (a `.gz` file served as such) is inflated here under the same cap.
fn read_body(url: &str, resp: ureq::Response, deadline: Instant, timeout: Duration) -> Result<Vec<u8>, FetchError> {
    let too_large =
        || FetchError::Refused { url: url.to_string(), message: format!("the response is larger than {} MiB; refused", MAX_BODY >> 20) };
    // ureq reads Content-Length of the compressed transfer; above the cap
    // the decompressed body would be too.
    if resp.header("Content-Length").and_then(|v| v.trim().parse::<u64>().ok()).is_some_and(|n| n > MAX_BODY as u64) {
        return Err(too_large());
    }
    let mut body = read_capped(resp.into_reader(), deadline).map_err(|e| match e {
        Capped::TooLarge => too_large(),
        Capped::Late => timed_out(url, timeout),
        Capped::Io(e, _) if is_timeout(&e) => timed_out(url, timeout),
        Capped::Io(e, received) => FetchError::Truncated { url: url.to_string(), received, message: e.to_string() },
    })?;
    if body.starts_with(&[0x1f, 0x8b]) {
        body = read_capped(flate2::read::MultiGzDecoder::new(&body[..]), deadline).map_err(|e| match e {
            Capped::TooLarge => FetchError::Refused {
                url: url.to_string(),
                message: format!("the response inflates to more than {} MiB; refused", MAX_BODY >> 20),
            },
            Capped::Late => timed_out(url, timeout),
            Capped::Io(e, _) => FetchError::Transport { url: url.to_string(), message: format!("broken gzip data: {e}") },
        })?;
    }
    Ok(body)
}

enum Capped {
    TooLarge,
    Late,
    /// The error and how many bytes came before it.
    Io(std::io::Error, usize),
}

fn read_capped(mut reader: impl Read, deadline: Instant) -> Result<Vec<u8>, Capped> {
    let mut body = Vec::new();
    let mut buf = vec![0u8; 64 << 10];
    loop {
        if Instant::now() >= deadline {
            return Err(Capped::Late);
        }
        match reader.read(&mut buf) {
            Ok(0) => return Ok(body),
            Ok(n) if body.len() + n > MAX_BODY => return Err(Capped::TooLarge),
            Ok(n) => body.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Capped::Io(e, body.len())),
        }
    }
}

fn is_timeout(e: &std::io::Error) -> bool {
    matches!(e.kind(), std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock)
}

fn transport_message(t: &ureq::Transport) -> String {
    let text = t.to_string();
    // ureq's message starts with the URL already; keep only the reason.
    let reason = match t.message() {
        Some(m) => m.to_string(),
        None => text,
    };
    let io_timeout = std::error::Error::source(t)
        .and_then(|s| s.downcast_ref::<std::io::Error>())
        .is_some_and(|e| matches!(e.kind(), std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock));
    if io_timeout || reason.to_ascii_lowercase().contains("timed out") {
        format!("timed out ({reason})")
    } else {
        reason
    }
}

/// `Retry-After` as seconds or as an HTTP date.
pub fn parse_retry_after(value: &str) -> Option<Duration> {
    let v = value.trim();
    if let Ok(secs) = v.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let when = chrono::DateTime::parse_from_rfc2822(v).ok()?;
    let ms = (when.with_timezone(&chrono::Utc) - chrono::Utc::now()).num_milliseconds().max(0);
    Some(Duration::from_millis(ms as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_forms() {
        assert_eq!(parse_retry_after("7"), Some(Duration::from_secs(7)));
        assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("soon"), None);
    }
}
