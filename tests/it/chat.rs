//! `daily --post`: the digest as Slack, Discord, Matrix and ntfy messages,
//! received by a loopback server that records what arrives and checked
//! against each platform's documented shape and limits; a 429 waited out;
//! any other refusal one error that never shows the address or the token.

use crate::common::{command, demo_library};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::sync::{Arc, Mutex};

#[derive(Debug, Clone)]
pub(crate) struct Arrived {
    pub method: String,
    pub path: String,
    headers: Vec<(String, String)>,
    pub body: Value,
    /// When it arrived.
    pub at: std::time::Instant,
}

impl Arrived {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// A server that answers each request with the next of `answers` (then
/// 200), and keeps what arrived.
pub(crate) fn recorder(answers: Vec<(u16, Vec<(&'static str, &'static str)>)>) -> (String, Arc<Mutex<Vec<Arrived>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let got = Arc::new(Mutex::new(Vec::new()));
    let seen = got.clone();
    std::thread::spawn(move || {
        let mut answers = answers.into_iter();
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            if reader.read_line(&mut line).is_err() {
                continue;
            }
            let mut parts = line.split_whitespace();
            let (method, path) = (parts.next().unwrap_or("").to_string(), parts.next().unwrap_or("").to_string());
            let mut headers = Vec::new();
            loop {
                let mut h = String::new();
                if reader.read_line(&mut h).unwrap_or(0) == 0 || h.trim().is_empty() {
                    break;
                }
                if let Some((k, v)) = h.split_once(':') {
                    headers.push((k.trim().to_string(), v.trim().to_string()));
                }
            }
            let len = headers.iter().find(|(k, _)| k.eq_ignore_ascii_case("content-length")).and_then(|(_, v)| v.parse().ok()).unwrap_or(0);
            let mut body = vec![0; len];
            reader.read_exact(&mut body).unwrap();
            let body = serde_json::from_slice(&body).unwrap_or(Value::Null);
            seen.lock().unwrap().push(Arrived { method, path, headers, body, at: std::time::Instant::now() });
            let (status, extra) = answers.next().unwrap_or((200, vec![]));
            let mut reply = format!("HTTP/1.1 {status} X\r\nContent-Length: 2\r\nConnection: close\r\n");
            for (k, v) in extra {
                reply.push_str(&format!("{k}: {v}\r\n"));
            }
            reply.push_str("\r\nok");
            let _ = stream.write_all(reply.as_bytes());
        }
    });
    (url, got)
}

/// The three demo days ranked together, every kind: more picks than one
/// Slack message or one Discord message holds.
fn post(lib: &Path, url: &str, format: &str, env: &[(&str, &str)]) -> std::process::Output {
    let mut c = command(
        lib,
        &[
            "daily",
            "--since",
            "2025-07-01",
            "--include",
            "new,cross,replaced",
            "--top",
            "200",
            "--all",
            "--post",
            url,
            "--format",
            format,
            "--link-base",
            "http://lab.example:8080",
        ],
    );
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

/// Nine in ten of `texts` at least: a paper whose abstract is one
/// sentence has no gist.
fn mostly(texts: &[String], has: impl Fn(&str) -> bool) -> bool {
    !texts.is_empty() && texts.iter().filter(|t| has(t)).count() * 10 >= texts.len() * 9
}

fn picks_in(texts: &[String]) -> Vec<usize> {
    let mut ranks: Vec<usize> = Vec::new();
    for t in texts {
        for n in 1..300 {
            if t.contains(&format!("*{n}.* ")) || t.starts_with(&format!("{n}. ")) {
                ranks.push(n);
            }
        }
    }
    ranks
}

#[test]
fn slack_gets_block_kit_within_its_limits_split_over_messages() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let (url, got) = recorder(vec![]);
    let out = post(&lib, &format!("{url}/services/T000/B000/secret"), "slack", &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.is_empty(), "posted, not printed");
    let got = got.lock().unwrap().clone();
    assert!(got.len() >= 2, "more than 48 picks take two messages: {}", got.len());
    let mut sections = Vec::new();
    for m in &got {
        assert_eq!((m.method.as_str(), m.path.as_str()), ("POST", "/services/T000/B000/secret"));
        assert!(m.header("content-type").is_some_and(|c| c.starts_with("application/json")));
        let blocks = m.body["blocks"].as_array().expect("blocks");
        assert!(blocks.len() <= 50, "{} blocks", blocks.len());
        assert!(m.body["text"].as_str().is_some_and(|t| !t.is_empty()), "a fallback text for notifications");
        assert_eq!(blocks[0]["type"], "header");
        assert!(blocks[0]["text"]["text"].as_str().unwrap().chars().count() <= 150);
        for b in blocks.iter().filter(|b| b["type"] == "section") {
            let text = b["text"]["text"].as_str().unwrap();
            assert_eq!(b["text"]["type"], "mrkdwn");
            assert!(text.chars().count() <= 3000, "{} characters", text.chars().count());
            sections.push(text.to_string());
        }
    }
    // Every pick once, in order, with its links and its reason.
    let ranks = picks_in(&sections);
    assert_eq!(ranks, (1..=sections.len()).collect::<Vec<_>>());
    for s in &sections {
        assert!(s.contains("<https://arxiv.org/abs/") && s.contains("|PDF>"), "{s}");
        assert!(s.contains("<http://lab.example:8080/paper/") && s.contains("&rate=up|👍>"), "{s}");
        assert!(s.contains("\n_"), "the reason: {s}");
    }
    // What each paper does, between its names and the reason.
    assert!(mostly(&sections, |s| s.contains("\n≡ ")), "the gists: {sections:?}");
}

#[test]
fn discord_gets_embeds_within_its_limits_and_pings_no_one() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let (url, got) = recorder(vec![]);
    let out = post(&lib, &format!("{url}/api/webhooks/1/secret"), "discord", &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let got = got.lock().unwrap().clone();
    let mut titles = Vec::new();
    let mut descriptions = Vec::new();
    for m in &got {
        let embeds = m.body["embeds"].as_array().expect("embeds");
        assert!(!embeds.is_empty() && embeds.len() <= 10, "{} embeds", embeds.len());
        let total: usize = embeds
            .iter()
            .map(|e| ["title", "description"].iter().map(|k| e[k].as_str().map_or(0, |s| s.chars().count())).sum::<usize>())
            .sum();
        assert!(total <= 6000, "{total} characters in one message's embeds");
        assert!(m.body["content"].as_str().unwrap().chars().count() <= 2000);
        assert_eq!(m.body["allowed_mentions"]["parse"], serde_json::json!([]), "a title's @everyone pings no one");
        for e in embeds {
            assert!(e["title"].as_str().unwrap().chars().count() <= 256);
            assert!(e["url"].as_str().unwrap().starts_with("https://arxiv.org/abs/"));
            let d = e["description"].as_str().unwrap();
            assert!(d.chars().count() <= 4096 && d.contains("[PDF](https://arxiv.org/pdf/") && d.contains("&rate=down)"), "{d}");
            titles.push(e["title"].as_str().unwrap().to_string());
            descriptions.push(d.to_string());
        }
    }
    assert!(mostly(&descriptions, |d| d.contains("\n≡ ")), "the gists: {descriptions:?}");
    assert!(got.len() >= 5, "10 embeds a message: {} messages for {} picks", got.len(), titles.len());
    assert_eq!(picks_in(&titles), (1..=titles.len()).collect::<Vec<_>>());
}

#[test]
fn matrix_gets_room_messages_with_html_and_the_token_it_needs() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let (url, got) = recorder(vec![]);
    let room = format!("{url}/_matrix/client/v3/rooms/!abc:example.org/send/m.room.message");
    // Without its token: one error, and nothing sent.
    let out = post(&lib, &room, "matrix", &[]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("access token"));
    assert!(got.lock().unwrap().is_empty());
    let token = dir.path().join("token");
    std::fs::write(&token, "syt_secret_token\n").unwrap();
    let token = token.to_str().unwrap();
    let out = command(&lib, &["daily", "--date", "2026-03-03", "--post", &room, "--format", "matrix", "--post-token-file", token])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let got = got.lock().unwrap().clone();
    assert_eq!(got.len(), 1);
    let m = &got[0];
    assert_eq!(m.method, "PUT", "a transaction id makes a resend one event");
    assert!(m.path.starts_with("/_matrix/client/v3/rooms/!abc:example.org/send/m.room.message/paperscout-"), "{}", m.path);
    assert_eq!(m.header("authorization"), Some("Bearer syt_secret_token"));
    assert_eq!(m.body["msgtype"], "m.text");
    assert_eq!(m.body["format"], "org.matrix.custom.html");
    let html = m.body["formatted_body"].as_str().unwrap();
    assert!(html.contains("<ol start=\"1\"><li><b><a href=\"https://arxiv.org/abs/"), "{html}");
    assert!(m.body["body"].as_str().unwrap().starts_with("arXiv digest for 2026-03-03"));
    assert!(html.contains("<br>≡ ") && m.body["body"].as_str().unwrap().contains("\n   ≡ "), "the gists: {html}");
}

#[test]
fn ntfy_gets_markdown_under_its_size_and_429_is_waited_out() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let (url, got) = recorder(vec![(429, vec![("Retry-After", "1")])]);
    let start = std::time::Instant::now();
    let out = post(&lib, &format!("{url}/papers-test"), "ntfy", &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(start.elapsed().as_secs_f64() >= 1.0, "Retry-After is honoured");
    let got = got.lock().unwrap().clone();
    assert!(got.len() >= 3, "the refused message sent again, then the rest: {}", got.len());
    assert_eq!(got[0].body, got[1].body, "the same message once more after the 429");
    for m in &got {
        assert_eq!((m.method.as_str(), m.path.as_str()), ("POST", "/"), "JSON is published at ntfy's root");
        assert_eq!(m.body["topic"], "papers-test");
        assert_eq!(m.body["markdown"], true);
        let text = m.body["message"].as_str().unwrap();
        assert!(text.len() <= 4096, "{} bytes", text.len());
        assert!(text.contains("](https://arxiv.org/abs/"));
        assert!(text.contains("  \n≡ "), "the gists: {text}");
    }
}

#[test]
fn a_refusal_is_one_error_that_shows_neither_address_nor_token() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let (url, got) = recorder(vec![(404, vec![])]);
    let out = post(&lib, &format!("{url}/services/T000/B000/secret"), "slack", &[("PAPERSCOUT_POST_TOKEN", "tok_hidden")]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("slack refused the message: 404"), "{err}");
    assert!(!err.contains("secret") && !err.contains("tok_hidden") && !err.contains(&url), "{err}");
    assert_eq!(got.lock().unwrap().len(), 1, "no retry after a 404");
    // Nobody listening: the same, by kind of failure.
    let closed = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let out = post(&lib, &format!("http://{closed}/services/T000/B000/secret"), "slack", &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("cannot reach slack") && !err.contains("secret"), "{err}");
    // --post without a chat format is told which to give.
    let out = post(&lib, "http://example.invalid/hook", "markdown", &[]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--format slack, discord, matrix or ntfy"));
}
