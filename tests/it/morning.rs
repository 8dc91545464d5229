//! `serve --morning`: each reader's digest delivered by the channels they
//! set, from one server; once a day per reader across restarts; one
//! reader's failure not the others'; a dry run that sends nothing.

use crate::chat::recorder;
use crate::common::{command, demo_library, ok, Server};
use serde_json::json;
use std::time::{Duration, Instant};

fn wait_for(what: &str, secs: u64, mut done: impl FnMut() -> bool) {
    let end = Instant::now() + Duration::from_secs(secs);
    while !done() {
        assert!(Instant::now() < end, "waited {secs} s for {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn the_owner_sets_a_chat_on_settings_and_the_morning_delivers_it_once() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    // The day's top twenty lead whatever their strength (the demo's picks
    // are weak): the bar the morning reads is the profile's.
    assert!(ok(&lib, &["filter", "bar", "loose"]).contains("the loose bar"));
    let (hook, got) = recorder(vec![]);
    let secret = format!("{hook}/services/T1/B1/secret-part");

    // Settings, by the page's API: the address is kept, and never shown again.
    let s = Server::start_with(&lib, &["--allow-webhook-host", "127.0.0.1"]);
    let (status, page) = s.get("/settings");
    assert_eq!(status, 200);
    assert!(page.contains("No chat yet."));
    let token = s.csrf();
    let bad = json!({"email": "a@b, c@d", "chat_format": "", "profile": null}).to_string();
    assert_eq!(s.post("/api/settings", Some(&token), &bad).0, 400, "one address, no list");
    let half = json!({"email": "", "chat_format": "slack", "chat_url": ""}).to_string();
    assert_eq!(s.post("/api/settings", Some(&token), &half).0, 400, "a chat needs its address");
    let body = json!({"email": "me@example.org", "chat_format": "slack", "chat_url": secret}).to_string();
    let (status, answer) = s.post("/api/settings", Some(&token), &body);
    assert_eq!(status, 200, "{answer}");
    assert!(!answer.contains("secret-part"), "the address is not sent back: {answer}");
    let (_, page) = s.get("/settings");
    assert!(page.contains("slack at http://127.0.0.1") && !page.contains("secret-part"), "{page}");
    drop(s);

    // A dry run says what would go where, and sends nothing.
    let out = command(&lib, &["serve", "--morning", "00:00", "--dry-run"]).env_remove("PAPERSCOUT_SMTP").output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(said.contains("the owner by slack (http://127.0.0.1") && said.contains("would receive 20 picks"), "{said}");
    assert!(said.contains("the owner by email (me@example.org): would receive"), "{said}");
    assert!(!said.contains("secret-part"));
    assert!(got.lock().unwrap().is_empty(), "a dry run sends nothing");

    // The morning, due at once: the chat gets the day; the e-mail, without
    // an SMTP server, fails alone and is tried again later.
    let s = Server::start_with(&lib, &["--morning", "00:00", "--allow-webhook-host", "127.0.0.1"]);
    wait_for("the morning's message", 60, || !got.lock().unwrap().is_empty());
    std::thread::sleep(Duration::from_secs(1));
    let n = got.lock().unwrap().len();
    assert_eq!(got.lock().unwrap()[0].path, "/services/T1/B1/secret-part");
    assert!(got.lock().unwrap()[0].body["blocks"].as_array().is_some_and(|b| b.len() > 2));
    drop(s);
    // Restarted: the day is recorded as delivered to the chat, not sent again.
    let s = Server::start_with(&lib, &["--morning", "00:00", "--allow-webhook-host", "127.0.0.1"]);
    std::thread::sleep(Duration::from_secs(5));
    drop(s);
    assert_eq!(got.lock().unwrap().len(), n, "a day reaches a reader once");
    let out = command(&lib, &["serve", "--morning", "00:00", "--dry-run"]).output().unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("the owner by slack (http://127.0.0.1/…): already delivered")
            || String::from_utf8_lossy(&out.stdout).contains("already delivered")
    );
}

#[test]
fn one_readers_failure_does_not_stop_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let pw = dir.path().join("pw");
    std::fs::write(&pw, "correct horse battery\n").unwrap();
    for user in ["alice", "bob"] {
        ok(&lib, &["user", "add", user, "--password-file", pw.to_str().unwrap()]);
    }
    // Each has the demo's seeds (the first account took them over: give bob his own).
    ok(&lib, &["seed", "add", "--user", "bob", "--text", "scheduling and serving large language models on GPU clusters"]);
    let (hook, got) = recorder(vec![]);
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let db = rusqlite::Connection::open(lib.join("library.sqlite")).unwrap();
    db.execute("INSERT INTO channels (user, chat_url, chat_format) VALUES ('alice', ?1, 'discord')", [format!("{hook}/api/webhooks/1/a")])
        .unwrap();
    db.execute("INSERT INTO channels (user, chat_url, chat_format) VALUES ('bob', ?1, 'slack')", [format!("http://{closed}/hook")])
        .unwrap();
    drop(db);
    let out = command(&lib, &["serve", "--morning", "00:00", "--dry-run"]).output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("alice by discord") && said.contains("bob by slack"), "{said}");
    let s = Server::start_with(&lib, &["--morning", "00:00", "--allow-webhook-host", "127.0.0.1"]);
    wait_for("alice's digest", 60, || !got.lock().unwrap().is_empty());
    drop(s);
    let db = rusqlite::Connection::open(lib.join("library.sqlite")).unwrap();
    let delivered: Vec<String> = db
        .prepare("SELECT user || ' ' || channel FROM deliveries")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(delivered, vec!["alice discord".to_string()], "bob's failure is his alone, and not recorded as delivered");
}
