//! The lab's morning, tried as a member who wants to turn it against the
//! lab would (issue 52): webhooks aimed at the server's own network, the
//! lab's token fished for, webhooks that hang, wait, redirect or never end
//! their answer, digests split over messages that are half accepted,
//! rating links made for one account and followed by another, titles
//! written to notify a room or reverse their text, and Settings that must
//! say what will happen. Every address a test connects to is on loopback;
//! refusals of other addresses are tested on the parsed address, before
//! any connection.

use crate::chat::recorder;
use crate::common::{self, demo_library, Server};
use crate::server_safety::{add_user, Browser};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::Path;
use std::time::{Duration, Instant};

fn wait_for(what: &str, secs: u64, mut done: impl FnMut() -> bool) {
    let end = Instant::now() + Duration::from_secs(secs);
    while !done() {
        assert!(Instant::now() < end, "waited {secs} s for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn db(lib: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(lib.join("library.sqlite")).unwrap()
}

/// Accounts made straight in the library (the morning needs their names
/// and profiles, not their passwords), each with the demo's seeds.
fn readers(lib: &Path, names: &[String]) {
    // A write through paperscout first, so that the library has every table.
    common::ok(lib, &["stats"]);
    let c = db(lib);
    for n in names {
        c.execute("INSERT INTO users (name, hash, feed, created) VALUES (?1, 'x', ?1, '2026-01-01')", [n]).unwrap();
        c.execute(
            "INSERT INTO seeds (profile, key, title, abstract, text_hash, weight, negative, added, origin)
             SELECT ?1 || '/default', key, title, abstract, text_hash, weight, negative, added, origin FROM seeds WHERE profile = 'default'",
            [n],
        )
        .unwrap();
        // Each reader's bar lets the day's top twenty lead (the demo's
        // picks are weak): a digest long enough to be split.
        c.execute("INSERT INTO profile_settings (profile, key, value) VALUES (?1 || '/default', 'bar', 'loose')", [n]).unwrap();
    }
}

fn set_chat(lib: &Path, user: &str, url: &str, format: &str, token: Option<&str>) {
    db(lib)
        .execute(
            "INSERT INTO channels (user, chat_url, chat_format, chat_token) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT(user) DO UPDATE SET chat_url = ?2, chat_format = ?3, chat_token = ?4",
            rusqlite::params![user, url, format, token],
        )
        .unwrap();
}

fn rows(lib: &Path, sql: &str) -> Vec<String> {
    let c = db(lib);
    let mut stmt = c.prepare(sql).unwrap();
    stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
}

/// A webhook that misbehaves in one way, on loopback.
#[derive(Clone, Copy, Debug)]
enum Bad {
    /// Reads the request and never answers.
    Hang,
    /// 429 with `Retry-After: 60`, every time.
    SlowDown,
    /// 302 to itself.
    RedirectLoop,
    /// 500 with a body that never ends.
    EndlessBody,
}

fn bad_hook(kind: Bad) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut line = String::new();
                while reader.read_line(&mut line).unwrap_or(0) > 2 {
                    line.clear();
                }
                let _ = match kind {
                    Bad::Hang => {
                        std::thread::sleep(Duration::from_secs(120));
                        Ok(())
                    }
                    Bad::SlowDown => stream.write_all(b"HTTP/1.1 429 Slow\r\nRetry-After: 60\r\nContent-Length: 0\r\n\r\n"),
                    Bad::RedirectLoop => stream.write_all(b"HTTP/1.1 302 Found\r\nLocation: /hook\r\nContent-Length: 0\r\n\r\n"),
                    Bad::EndlessBody => {
                        let _ = stream.write_all(b"HTTP/1.1 500 Oops\r\nTransfer-Encoding: chunked\r\n\r\n");
                        let chunk = format!("{:x}\r\n{}\r\n", 4096, &"db password=hunter2 ".repeat(205)[..4096]);
                        let end = Instant::now() + Duration::from_secs(60);
                        while Instant::now() < end && stream.write_all(chunk.as_bytes()).is_ok() {}
                        Ok(())
                    }
                };
            });
        }
    });
    url
}

fn closed_port() -> String {
    let addr = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    format!("http://{addr}/hook")
}

#[test]
fn fifty_readers_five_bad_webhooks_the_good_delivered_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let names: Vec<String> = (0..50).map(|i| format!("u{i:02}")).collect();
    readers(&lib, &names);
    // The bad ones first: readers are ranked in the order of their names.
    let bad = [bad_hook(Bad::Hang), bad_hook(Bad::SlowDown), bad_hook(Bad::RedirectLoop), bad_hook(Bad::EndlessBody), closed_port()];
    for (n, url) in names[..5].iter().zip(&bad) {
        set_chat(&lib, n, url, "slack", None);
    }
    let (good, got) = recorder(vec![]);
    for n in &names[5..] {
        set_chat(&lib, n, &format!("{good}/hook/{n}"), "slack", None);
    }
    let start = Instant::now();
    let s = Server::start_with(&lib, &["--morning", "00:00", "--allow-webhook-host", "127.0.0.1"]);
    wait_for("the 45 good readers' digests", 120, || got.lock().unwrap().len() >= 45);
    let last = got.lock().unwrap().iter().map(|a| a.at).max().unwrap();
    let took = last.duration_since(start);
    eprintln!("45 good readers of 50 delivered {:.1} s after the server started", took.as_secs_f64());
    // One reader after another, the hanging webhook alone cost 20 s and the
    // 429 a minute or more: each good reader's digest waited behind them.
    assert!(took < Duration::from_secs(20), "the good readers waited behind the bad ones: {took:?}");
    let mut paths: Vec<String> = got.lock().unwrap().iter().map(|a| a.path.clone()).collect();
    paths.sort();
    paths.dedup();
    assert_eq!(paths.len(), 45, "each good reader once");
    // What the bad ones got is recorded by status, never by what they answered.
    wait_for("the quick failures' records", 30, || rows(&lib, "SELECT user FROM delivery_failures").len() >= 4);
    std::thread::sleep(Duration::from_secs(1));
    drop(s);
    let failures = rows(&lib, "SELECT user || ': ' || detail FROM delivery_failures ORDER BY user");
    let text = failures.join("\n");
    assert!(text.contains("u01: slack asks to wait 60 s (429)"), "{text}");
    assert!(text.contains("u02: slack answered 302 (a redirect, which is not followed)"), "{text}");
    assert!(text.contains("u03: slack refused the message: 500"), "{text}");
    assert!(text.contains("u04: cannot reach slack"), "{text}");
    assert!(!text.contains("hunter2"), "an answer's body is never kept: {text}");
    let delivered = rows(&lib, "SELECT user FROM deliveries");
    assert_eq!(delivered.len(), 45, "only a 2xx is a delivery: {delivered:?}");
    assert!(!delivered.iter().any(|u| names[..5].contains(u)));
}

#[test]
fn a_split_digest_resends_only_what_was_not_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    readers(&lib, &["alice".to_string(), "bob".to_string()]);
    // Discord holds ten picks a message: the day's twenty are two. The
    // first is accepted, the second refused.
    let (discord, got) = recorder(vec![(204, vec![]), (500, vec![])]);
    set_chat(&lib, "alice", &format!("{discord}/api/webhooks/1/a"), "discord", None);
    // Matrix: the same transaction id for every try of a message.
    let (matrix, to_matrix) = recorder(vec![(500, vec![])]);
    set_chat(&lib, "bob", &format!("{matrix}/_matrix/client/v3/rooms/!r:lab/send/m.room.message"), "matrix", Some("bob-own-token"));
    let s = Server::start_with(&lib, &["--morning", "00:00", "--allow-webhook-host", "127.0.0.1"]);
    wait_for("both tries", 60, || got.lock().unwrap().len() >= 2 && !to_matrix.lock().unwrap().is_empty());
    std::thread::sleep(Duration::from_secs(1));
    drop(s);
    assert!(rows(&lib, "SELECT user FROM deliveries").is_empty(), "half a digest is not a delivery");
    let s = Server::start_with(&lib, &["--morning", "00:00", "--allow-webhook-host", "127.0.0.1"]);
    wait_for("the retry", 60, || rows(&lib, "SELECT user FROM deliveries").len() == 2);
    drop(s);
    let got = got.lock().unwrap().clone();
    assert_eq!(
        got.len(),
        3,
        "part 1, part 2 refused, part 2 again: {:?}",
        got.iter().map(|a| a.body["content"].clone()).collect::<Vec<_>>()
    );
    assert!(got[0].body["content"].as_str().unwrap().contains("(1/2)"));
    assert!(got[1].body["content"].as_str().unwrap().contains("(2/2)"));
    assert_eq!(got[1].body, got[2].body, "the same message again, not a new ranking");
    let matrix = to_matrix.lock().unwrap().clone();
    assert_eq!(matrix.len(), 2);
    assert_eq!(matrix[0].path, matrix[1].path, "one transaction id: a homeserver that took it once shows it once");
    assert_eq!(matrix[0].header("authorization"), Some("Bearer bob-own-token"));
    assert_eq!(matrix[0].body["m.mentions"], json!({}));
}

#[test]
fn the_lab_token_goes_to_its_host_alone() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let names: Vec<String> = ["alice", "bob", "carol", "dave"].iter().map(|s| s.to_string()).collect();
    readers(&lib, &names);
    let (lab, at_lab) = recorder(vec![]);
    let (own, at_own) = recorder(vec![]);
    let lab_host = lab.trim_start_matches("http://").to_string();
    set_chat(&lib, "alice", &format!("{own}/alice-topic"), "ntfy", None);
    set_chat(&lib, "bob", &format!("{lab}/bob-topic"), "ntfy", None);
    set_chat(&lib, "carol", &format!("{own}/carol-topic"), "ntfy", Some("carol-own-token"));
    set_chat(&lib, "dave", &format!("{own}/_matrix/client/v3/rooms/!d:x/send/m.room.message"), "matrix", None);
    let command = common::command(
        &lib,
        &["serve", "--addr", "127.0.0.1:0", "--morning", "00:00", "--allow-webhook-host", "127.0.0.1", "--post-token-host", &lab_host],
    );
    let mut command = command;
    command.env("PAPERSCOUT_POST_TOKEN", "lab-secret");
    let s = Server::spawn(command);
    wait_for("three readers' digests", 60, || rows(&lib, "SELECT user FROM deliveries").len() == 3);
    std::thread::sleep(Duration::from_millis(500));
    drop(s);
    let topic = |a: &crate::chat::Arrived| a.body["topic"].as_str().unwrap_or_default().to_string();
    for a in at_own.lock().unwrap().iter() {
        match topic(a).as_str() {
            "alice-topic" => assert_eq!(a.header("authorization"), None, "the lab's token never leaves its host"),
            "carol-topic" => assert_eq!(a.header("authorization"), Some("Bearer carol-own-token")),
            other => panic!("nothing else goes there: {other:?} {}", a.path),
        }
    }
    for a in at_lab.lock().unwrap().iter() {
        assert_eq!(topic(a), "bob-topic");
        assert_eq!(a.header("authorization"), Some("Bearer lab-secret"), "the lab's own host gets the lab's token");
    }
    let failures = rows(&lib, "SELECT user || ': ' || detail FROM delivery_failures").join("\n");
    assert!(failures.contains("dave: posting to Matrix needs an access token: give yours on Settings"), "{failures}");
    // Without its host named, the lab's token goes nowhere, and the server says so.
    let out =
        common::command(&lib, &["serve", "--morning", "00:00", "--dry-run"]).env("PAPERSCOUT_POST_TOKEN", "lab-secret").output().unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("--post-token-host"), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn webhooks_into_the_servers_own_network_are_refused_on_settings_and_at_send() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let s = Server::start(&lib);
    let (page_status, page) = s.get("/settings");
    assert_eq!(page_status, 200);
    assert!(page.contains("started without --morning"), "the page says nothing will be sent");
    let token = s.csrf();
    let save =
        |url: &str| s.post("/api/settings", Some(&token), &json!({"email": "", "chat_format": "slack", "chat_url": url}).to_string());
    // Each is refused on its parsed or resolved address: nothing is sent to it.
    for (url, said) in [
        ("http://hooks.example.org/services/x", "plain http"),
        ("https://127.0.0.1:8180/x", "loopback"),
        ("https://[::1]:8180/x", "loopback"),
        ("https://localhost:8180/x", "localhost resolves to"),
        ("https://169.254.169.254/latest/meta-data/", "link-local"),
        ("https://2130706433:8180/x", "loopback"),
        ("https://[::ffff:127.0.0.1]:8180/x", "loopback"),
        ("https://10.0.0.8/x", "private"),
        ("https://[fd00::8]/x", "unique-local"),
        ("https://100.64.0.8/x", "CGNAT"),
        ("https://me:pw@hooks.example.org/x", "user name or password"),
    ] {
        let (status, body) = save(url);
        assert_eq!(status, 400, "{url}: {body}");
        assert!(body.contains(said), "{url}: {body}");
        assert!(!body.contains("/x") && !body.contains("meta-data"), "the address's path is a secret: {body}");
    }
    drop(s);

    // At send: a row that names an internal host (written before the rule,
    // or by hand) is refused at the connection, and the record says why.
    let (hook, got) = recorder(vec![]);
    set_chat(&lib, "", &hook.replace("http://127.0.0.1", "https://localhost"), "slack", None);
    let s = Server::start_with(&lib, &["--morning", "00:00"]);
    wait_for("the refusal's record", 60, || !rows(&lib, "SELECT detail FROM delivery_failures").is_empty());
    drop(s);
    let why = rows(&lib, "SELECT detail FROM delivery_failures").join("\n");
    assert!(why.contains("refused: localhost resolves to an internal address"), "{why}");
    assert!(!why.contains("127.0.0.1") && !why.contains("::1"), "where inside is not the member's to hear: {why}");
    assert!(got.lock().unwrap().is_empty(), "nothing reached the loopback listener");
    let s = Server::start(&lib);
    let (_, page) = s.get("/settings");
    assert!(page.contains("not delivered: refused: localhost resolves to"), "Settings shows the last morning's refusal");
}

#[test]
fn settings_test_sends_confirms_addresses_and_keeps_tokens_to_their_host() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    add_user(&lib, dir.path(), "alice", "correct horse battery");
    let (smtp, mail) = crate::delivery::smtp_sink();
    let mut command = common::command(&lib, &["serve", "--addr", "127.0.0.1:0", "--allow-webhook-host", "127.0.0.1", "--morning", "23:59"]);
    command.env("PAPERSCOUT_SMTP", &smtp).env("PAPERSCOUT_MAIL_FROM", "lab@example.org");
    let s = Server::spawn(command);
    let alice = Browser::new(&s, "alice", "correct horse battery");

    // A chat, with her own token, and a test that says what became of it.
    let (hook, got) = recorder(vec![]);
    let body = json!({"email": "", "chat_format": "ntfy", "chat_url": format!("{hook}/alice"), "chat_token": "alice-token"});
    let (status, saved) = alice.post("/api/settings", body);
    assert_eq!(status, 200, "{saved}");
    assert!(saved.contains("\"chat_token_saved\":true") && !saved.contains("alice-token"), "{saved}");
    let (status, tested) = alice.post("/api/settings/test", json!({"channel": "chat"}));
    assert_eq!(status, 200, "{tested}");
    assert_eq!(serde_json::from_str::<Value>(&tested).unwrap()["delivered"], true, "{tested}");
    {
        let got = got.lock().unwrap();
        assert_eq!(got.len(), 1);
        assert!(got[0].body["message"].as_str().unwrap().contains("A test from paperscout"));
        assert_eq!(got[0].header("authorization"), Some("Bearer alice-token"));
    }
    let (status, again) = alice.post("/api/settings/test", json!({"channel": "chat"}));
    assert_eq!(status, 503, "one test at a time: {again}");
    // Another host: the token stays behind with the old one.
    let (other, at_other) = recorder(vec![(302, vec![("Location", "/elsewhere")])]);
    let (status, saved) = alice.post("/api/settings", json!({"email": "", "chat_format": "ntfy", "chat_url": format!("{other}/alice")}));
    assert_eq!(status, 200);
    assert!(saved.contains("\"chat_token_saved\":false"), "{saved}");
    std::thread::sleep(Duration::from_secs(10));
    let (_, tested) = alice.post("/api/settings/test", json!({"channel": "chat"}));
    let tested: Value = serde_json::from_str(&tested).unwrap();
    assert_eq!(tested["delivered"], false);
    assert!(tested["message"].as_str().unwrap().contains("a redirect, which is not followed"), "{tested}");
    assert_eq!(at_other.lock().unwrap()[0].header("authorization"), None);

    // Her address is used only once the code mailed to it comes back.
    let (status, saved) = alice.post("/api/settings", json!({"email": "alice@example.org", "chat_format": "ntfy"}));
    assert_eq!(status, 200, "{saved}");
    let saved: Value = serde_json::from_str(&saved).unwrap();
    assert_eq!(saved["email_state"], "code sent", "{saved}");
    let received = mail.join().unwrap();
    assert!(received.to.iter().any(|t| t.contains("alice@example.org")));
    let text = String::from_utf8_lossy(&received.data).into_owned();
    let code = text.split("Your code: ").nth(1).expect("a code in the mail")[..10].to_string();
    let (status, wrong) = alice.post("/api/settings/confirm", json!({"code": "AAAAAAAAAA"}));
    assert_eq!(status, 400);
    assert!(wrong.contains("4 more tries"), "{wrong}");
    let out = common::output(&lib, &["serve", "--morning", "00:00", "--dry-run"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("alice by email (alice@example.org): waiting: the address is not confirmed"));
    let (status, done) = alice.post("/api/settings/confirm", json!({"code": code.to_lowercase()}));
    assert_eq!(status, 200, "{done}");
    let (_, page) = alice.get("/settings");
    assert!(page.contains("Confirmed: the digest goes here."), "{page}");
    let out = common::output(&lib, &["serve", "--morning", "00:00", "--dry-run"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("alice by email (alice@example.org): would receive"));
}

#[test]
fn the_mornings_rating_links_rate_for_their_account() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    add_user(&lib, dir.path(), "alice", "correct horse battery");
    add_user(&lib, dir.path(), "bob", "correct horse battery");
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let base = format!("http://127.0.0.1:{port}");
    let (hook, got) = recorder(vec![]);
    set_chat(&lib, "alice", &format!("{hook}/alice"), "slack", None);
    let s = Server::spawn(common::command(
        &lib,
        &["serve", "--addr", &format!("127.0.0.1:{port}"), "--morning", "00:00", "--link-base", &base, "--allow-webhook-host", "127.0.0.1"],
    ));
    wait_for("alice's digest", 60, || !got.lock().unwrap().is_empty());
    let text = got.lock().unwrap()[0].body.to_string();
    let at = text.find(&format!("{base}/paper/")).expect("a rating link");
    let link = text[at..].split('|').next().unwrap().to_string();
    assert!(link.contains("profile=default&for=alice&rate=up"), "{link}");
    let path = link.trim_start_matches(&base).to_string();
    let id = path.trim_start_matches("/paper/").split('?').next().unwrap().to_string();

    // Alice follows it signed in: the page offers the rating, her click applies it.
    let alice = Browser::new(&s, "alice", "correct horse battery");
    let (status, page) = alice.get(&path);
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("id=\"rate-offer\"") && page.contains("mark this paper as <b>liked</b>"), "{page}");
    assert!(alice.json("/api/ratings").as_array().unwrap().iter().all(|r| r["id"] != id.as_str()), "a GET never writes");
    let (status, rated) = alice.post("/api/ratings", json!({"id": id, "rating": 1, "profile": "default"}));
    assert_eq!(status, 200, "{rated}");
    assert!(alice.json("/api/ratings").as_array().unwrap().iter().any(|r| r["id"] == id.as_str() && r["rating"] == 1));
    // Bob, signed in on the same browser, is told whose link it is.
    let bob = Browser::new(&s, "bob", "correct horse battery");
    let (status, page) = bob.get(&path);
    assert_eq!(status, 200);
    assert!(page.contains("made for <b>alice</b>") && !page.contains("Yes, I like it"), "{page}");
}

#[test]
fn chat_messages_stay_text_and_within_their_limits() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    // A title written as an attack, stored as an older paperscout kept it.
    let evil = format!("@room @everyone <!here> \u{202E}fdp.exe\u{202C} {}", "Scheduling LLM inference ".repeat(2400));
    let id: String =
        db(&lib).query_row("SELECT id FROM listings WHERE date = '2026-03-03' AND kind = 'new' LIMIT 1", [], |r| r.get(0)).unwrap();
    db(&lib)
        .execute(
            "UPDATE papers SET title = ?2, authors = ?3 WHERE id = ?1",
            rusqlite::params![id, evil, json!(["Eve \u{2066}Mallory\u{2069}"]).to_string()],
        )
        .unwrap();
    let token = dir.path().join("token");
    std::fs::write(&token, "syt_x\n").unwrap();
    let mut bodies = Vec::new();
    for format in ["slack", "discord", "matrix", "ntfy"] {
        let (url, got) = recorder(vec![]);
        let target = match format {
            "matrix" => format!("{url}/_matrix/client/v3/rooms/!r:x/send/m.room.message"),
            "ntfy" => format!("{url}/topic"),
            _ => format!("{url}/hook"),
        };
        let out = common::command(
            &lib,
            &[
                "daily",
                "--date",
                "2026-03-03",
                "--top",
                "50",
                "--all",
                "--post",
                &target,
                "--format",
                format,
                "--post-token-file",
                token.to_str().unwrap(),
            ],
        )
        .output()
        .unwrap();
        assert!(out.status.success(), "{format}: {}", String::from_utf8_lossy(&out.stderr));
        for a in got.lock().unwrap().iter() {
            bodies.push((format, a.body.clone()));
        }
    }
    for (format, body) in &bodies {
        let text = body.to_string();
        assert!(!text.contains('\u{202E}') && !text.contains('\u{2066}'), "{format}: a bidi control");
        match *format {
            "matrix" => {
                assert_eq!(body["m.mentions"], json!({}), "no one is notified");
                assert!(text.len() <= 65_536, "a homeserver takes the event: {} bytes", text.len());
            }
            "slack" => {
                assert!(!text.contains("@everyone") && !text.contains("@room"), "each @ is set apart");
                for block in body["blocks"].as_array().unwrap() {
                    if block["type"] == "section" {
                        assert_eq!(block["text"]["verbatim"], true);
                    }
                }
            }
            "discord" => {
                assert_eq!(body["allowed_mentions"], json!({"parse": []}));
                for e in body["embeds"].as_array().unwrap() {
                    let title = e["title"].as_str().unwrap();
                    assert!(!title.contains(" @everyone") && title.chars().count() <= 256, "{title}");
                }
            }
            _ => {}
        }
    }
    assert!(bodies.iter().any(|(f, b)| *f == "discord" && b.to_string().contains("\\\\@everyone")), "the title escaped");
    // The pages, the feed and the mail of the same library.
    let s = Server::start(&lib);
    for path in [format!("/paper/{id}"), "/day/2026-03-03".into(), "/feed.atom".into(), "/api/daily?date=2026-03-03".into()] {
        let (status, body) = s.get(&path);
        assert_eq!(status, 200, "{path}");
        assert!(!body.contains('\u{202E}') && !body.contains('\u{2066}'), "{path}");
    }
}
