//! `paperscout serve` left running, tried as an attacker would: foreign
//! names and origins, accounts and sign-in, one user reaching for another's
//! data, floods of idle and slow connections, bursts that could open files.

use crate::common;

use crate::common::{demo_library, ok, output, Server};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

/// Sends `request` as is and returns (status, headers and body as text).
fn raw(addr: &str, request: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    (status, text)
}

fn post_raw(addr: &str, path: &str, host: &str, extra: &str, body: &str) -> (u16, String) {
    raw(
        addr,
        &format!(
            "POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n{extra}\r\n{body}",
            body.len()
        ),
    )
}

fn password_file(dir: &Path, name: &str, password: &str) -> String {
    let f = dir.join(format!("{name}.pw"));
    std::fs::write(&f, format!("{password}\n")).unwrap();
    f.to_string_lossy().into_owned()
}

pub(crate) fn add_user(lib: &Path, dir: &Path, name: &str, password: &str) {
    ok(lib, &["user", "add", name, "--password-file", &password_file(dir, name, password)]);
}

/// A browser's session with a signed-in server: no redirects followed, the
/// cookie sent back.
pub(crate) struct Browser {
    agent: ureq::Agent,
    url: String,
    cookie: String,
    csrf: String,
}

fn agent() -> ureq::Agent {
    ureq::AgentBuilder::new().redirects(0).build()
}

fn reply(r: Result<ureq::Response, ureq::Error>) -> ureq::Response {
    match r {
        Ok(res) | Err(ureq::Error::Status(_, res)) => res,
        Err(e) => panic!("request failed: {e}"),
    }
}

pub(crate) fn sign_in(url: &str, user: &str, password: &str) -> ureq::Response {
    reply(agent().post(&format!("{url}/login")).send_form(&[("user", user), ("password", password), ("next", "/seeds")]))
}

impl Browser {
    pub(crate) fn new(s: &Server, user: &str, password: &str) -> Browser {
        let res = sign_in(&s.url, user, password);
        assert_eq!(res.status(), 303, "sign-in of {user}");
        let set = res.header("set-cookie").expect("a session cookie").to_string();
        let cookie = set.split(';').next().unwrap().to_string();
        let mut b = Browser { agent: agent(), url: s.url.clone(), cookie, csrf: String::new() };
        let (status, page) = b.get("/stats");
        assert_eq!(status, 200);
        let at = page.find("name=\"csrf-token\" content=\"").expect("csrf meta tag") + 27;
        b.csrf = page[at..at + 64].to_string();
        b
    }

    pub(crate) fn get(&self, path: &str) -> (u16, String) {
        let res = reply(self.agent.get(&format!("{}{path}", self.url)).set("Cookie", &self.cookie).call());
        (res.status(), res.into_string().unwrap_or_default())
    }

    pub(crate) fn json(&self, path: &str) -> Value {
        let (status, body) = self.get(path);
        assert_eq!(status, 200, "GET {path}: {body}");
        serde_json::from_str(&body).unwrap()
    }

    pub(crate) fn post(&self, path: &str, body: Value) -> (u16, String) {
        let res = reply(
            self.agent
                .post(&format!("{}{path}", self.url))
                .set("Cookie", &self.cookie)
                .set("X-CSRF-Token", &self.csrf)
                .set("Content-Type", "application/json")
                .send_string(&body.to_string()),
        );
        (res.status(), res.into_string().unwrap_or_default())
    }
}

#[test]
fn foreign_names_and_origins_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let s = Server::start_with(&lib, &["--allow-host", "paperscout.lab.example"]);
    let addr = s.addr();
    let port = addr.rsplit(':').next().unwrap().to_string();
    let auth = s.key_header();
    let get = |host: &str| raw(&addr, &format!("GET / HTTP/1.1\r\nHost: {host}\r\n{auth}Connection: close\r\n\r\n"));

    // A page that renamed itself to 127.0.0.1 (DNS rebinding) gets no page
    // and no token.
    for host in [
        format!("evil.example:{port}"),
        "evil.example".into(),
        format!("127.0.0.1.evil.example:{port}"),
        format!("localhost:{}", port.parse::<u32>().unwrap() + 1),
    ] {
        let (status, body) = get(&host);
        assert_eq!(status, 421, "{host}: {body}");
        assert!(!body.contains("csrf-token"), "{host}");
    }
    let (status, _) = raw(&addr, "GET /api/stats HTTP/1.0\r\n\r\n");
    assert_eq!(status, 421, "no Host at all");
    for host in [
        addr.clone(),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
        "paperscout.lab.example".into(),
        "PaperScout.Lab.Example:443".into(),
    ] {
        assert_eq!(get(&host).0, 200, "{host}");
    }
    // A request line in absolute form names its host there: a proxy's
    // request for another site is not served.
    let absolute = |target: &str| raw(&addr, &format!("GET {target} HTTP/1.1\r\nHost: {addr}\r\n{auth}Connection: close\r\n\r\n")).0;
    assert_eq!(absolute(&format!("http://evil.example:{port}/")), 421);
    assert_eq!(absolute(&format!("http://{addr}/")), 200);

    // A write with the right token from a foreign page changes nothing.
    let token = s.csrf();
    let rating = json!({"id": "2507.07400", "rating": 1}).to_string();
    let with = |extra: &str| format!("X-CSRF-Token: {token}\r\n{auth}{extra}");
    for extra in [
        "Origin: http://evil.example\r\n",
        "Origin: null\r\n",
        &format!("Origin: http://localhost:{port}\r\n"),
        &format!("Origin: https://{addr}\r\n"),
        "Sec-Fetch-Site: cross-site\r\n",
        "Sec-Fetch-Site: same-site\r\n",
    ] {
        let (status, body) = post_raw(&addr, "/api/ratings", &addr, &with(extra), &rating);
        assert_eq!(status, 403, "{extra}: {body}");
    }
    assert_eq!(post_raw(&addr, "/api/ratings", &format!("evil.example:{port}"), &with("Origin: http://evil.example\r\n"), &rating).0, 421);
    assert_eq!(s.json("/api/ratings"), json!([]));

    // The server's own pages write as before.
    let (status, body) =
        post_raw(&addr, "/api/ratings", &addr, &with(&format!("Origin: http://{addr}\r\nSec-Fetch-Site: same-origin\r\n")), &rating);
    assert_eq!(status, 200, "{body}");
    assert_eq!(s.json("/api/ratings")[0]["id"], "2507.07400");
    let other = json!({"id": "2507.07114", "rating": -1}).to_string();
    assert_eq!(post_raw(&addr, "/api/ratings", &addr, &with(""), &other).0, 200, "a client that is no browser page");
}

/// Without accounts, another user of the machine reaches loopback too:
/// only who holds the key the server printed is answered.
#[test]
fn a_server_without_accounts_answers_only_the_key_it_printed() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let s = Server::start(&lib);
    let key = s.token.clone().expect("the printed URL carries a key");
    assert_eq!(key.len(), 64);
    let a = agent();
    // Without the key: the API says 401 in JSON; a page is a page that says
    // how to get in (a bookmark from before a restart), holding no token.
    for path in ["/api/token", "/api/seeds", "/api/stats", "/feed.atom", &format!("/api/seeds?token={}", "0".repeat(64))] {
        let res = reply(a.get(&format!("{}{path}", s.url)).call());
        assert_eq!(res.status(), 401, "{path}");
        assert!(res.header("content-type").unwrap_or_default().starts_with("application/json"), "{path}");
        assert!(!res.into_string().unwrap().contains("csrf"), "{path}");
    }
    for path in ["/", "/seeds", &format!("/day/2025-07-10?token={}", "0".repeat(64))] {
        let res = reply(a.get(&format!("{}{path}", s.url)).call());
        assert_eq!(res.status(), 401, "{path}");
        assert!(res.header("content-type").unwrap_or_default().starts_with("text/html"), "{path}");
        let page = res.into_string().unwrap();
        assert!(page.contains("Open the address the server printed") && page.contains("--token-file"), "{page}");
        assert!(!page.contains(&key) && !page.contains("<meta name=\"paperscout-key\""), "{path}");
    }
    let wrong = reply(a.get(&format!("{}/api/seeds", s.url)).set("Authorization", &format!("Bearer {}", "0".repeat(64))).call());
    assert_eq!(wrong.status(), 401);
    assert_eq!(reply(a.post(&format!("{}/api/seeds/add", s.url)).send_string("{}")).status(), 401);
    // No cookie carries the key, whatever its name: a browser would send it to every port.
    assert_eq!(
        reply(
            a.get(&format!("{}/seeds", s.url))
                .set("Cookie", &format!("paperscout_key_{}={key}", s.addr().rsplit(':').next().unwrap()))
                .call()
        )
        .status(),
        401
    );

    // The printed URL opens the page itself, with no cookie set: the key
    // travels on in the page's links and forms, and its script's header.
    let open = reply(a.get(&format!("{}/day/2026-03-03?top=3&all=1&token={key}", s.url)).call());
    assert_eq!(open.status(), 200);
    assert!(open.header("set-cookie").is_none());
    assert_eq!(open.header("referrer-policy"), Some("no-referrer"));
    let page = open.into_string().unwrap();
    assert!(page.contains(&format!("href=\"/seeds?token={key}\"")), "links carry the key");
    assert!(page.contains(&format!("<input type=\"hidden\" name=\"token\" value=\"{key}\">")), "forms carry the key");
    assert!(page.contains(&format!("<meta name=\"paperscout-key\" content=\"{key}\">")));
    assert_eq!(reply(a.get(&format!("{}/api/seeds", s.url)).set("Authorization", &format!("Bearer {key}")).call()).status(), 200);
    assert_eq!(reply(a.get(&format!("{}/feed.atom?token={key}", s.url)).call()).status(), 200);
    assert_eq!(reply(a.get(&format!("{}/favicon.ico", s.url)).call()).status(), 200);
    drop(s);

    // --token-file keeps one key across restarts, in a file of the owner's alone.
    let file = dir.path().join("key");
    let kept = Server::start_with(&lib, &["--token-file", file.to_str().unwrap()]);
    let first = kept.token.clone().unwrap();
    drop(kept);
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600);
    let again = Server::start_with(&lib, &["--token-file", file.to_str().unwrap()]);
    assert_eq!(again.token.as_deref(), Some(first.as_str()), "the same key after a restart");
    drop(again);
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = output(&lib, &["serve", "--addr", "127.0.0.1:0", "--token-file", file.to_str().unwrap()]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("chmod 600"), "{out:?}");

    // --no-token opens the door, and says so.
    let out = dir.path().join("err.txt");
    let mut cmd = common::command(&lib, &["serve", "--addr", "127.0.0.1:0", "--no-token"]);
    cmd.stderr(std::fs::File::create(&out).unwrap());
    let open = Server::spawn(cmd);
    assert!(open.token.is_none());
    assert_eq!(reply(a.get(&format!("{}/api/seeds", open.url)).call()).status(), 200);
    let warned = std::fs::read_to_string(&out).unwrap();
    assert!(warned.contains("every user of this machine can read and change this library"), "{warned}");
}

#[test]
fn accounts_are_managed_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let seeds_before = ok(&lib, &["seed", "list", "--json"]);

    // Without an account the server stays on loopback.
    let out = output(&lib, &["serve", "--addr", "0.0.0.0:0"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("paperscout user add"), "{err}");
    let out = output(&lib, &["serve", "--login"]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("user add"));

    for (name, password, why) in [("al/ice", "long enough", "not a user name"), ("alice", "short", "at least 8")] {
        let out = output(&lib, &["user", "add", name, "--password-file", &password_file(dir.path(), "x", password)]);
        assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains(why), "{name}");
    }
    let out = output(&lib, &["user", "add", "alice"]);
    assert!(!out.status.success(), "no terminal, no password file");
    assert_eq!(ok(&lib, &["user", "list"]).trim(), "no accounts: `serve` answers anyone who reaches it (on loopback only)");

    // The first account takes over the single user's profiles, in place;
    // the command line keeps working without --user while it is the only one.
    add_user(&lib, dir.path(), "alice", "correct horse battery");
    assert_eq!(ok(&lib, &["seed", "list", "--json"]), seeds_before);
    assert!(!output(&lib, &["user", "add", "alice", "--password-file", &password_file(dir.path(), "y", "another one")]).status.success());
    add_user(&lib, dir.path(), "bob", "bob's own secret");
    assert_eq!(ok(&lib, &["user", "list"]), "alice\nbob\n");
    assert_eq!(ok(&lib, &["user", "list", "--json"]), "{\"user\":\"alice\"}\n{\"user\":\"bob\"}\n");
    let out = output(&lib, &["seed", "list"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--user"), "several accounts: whose?");
    assert_eq!(ok(&lib, &["seed", "list", "--json", "--user", "alice"]), seeds_before);
    assert_eq!(ok(&lib, &["seed", "list", "--json", "--user", "bob"]), "");
    ok(&lib, &["rate", "2507.07114", "+", "--user", "bob"]);
    ok(&lib, &["filter", "add", "exclude", "blockchain", "--user", "bob"]);
    assert!(ok(&lib, &["filter", "list", "--user", "alice"]).contains("no filters"));
    assert!(!output(&lib, &["seed", "list", "--user", "carol"]).status.success());

    // The password is stored hashed, never in clear.
    let db = std::fs::read(lib.join("library.sqlite")).unwrap();
    let wal = std::fs::read(lib.join("library.sqlite-wal")).unwrap_or_default();
    for bytes in [&db, &wal] {
        assert!(!bytes.windows(21).any(|w| w == b"correct horse battery"));
    }
    let conn = rusqlite_free_hashes(&lib);
    assert!(conn.iter().all(|h| h.starts_with("$argon2id$")), "{conn:?}");

    // passwd signs out; rm takes the account's data with it.
    let s = Server::start(&lib);
    let b = Browser::new(&s, "bob", "bob's own secret");
    ok(&lib, &["user", "passwd", "bob", "--password-file", &password_file(dir.path(), "bob2", "a new secret for bob")]);
    assert_eq!(b.get("/api/seeds").0, 401, "the old session ended");
    assert_eq!(sign_in(&s.url, "bob", "bob's own secret").status(), 401);
    let b = Browser::new(&s, "bob", "a new secret for bob");
    assert_eq!(b.json("/api/ratings")[0]["id"], "2507.07114");
    let removed = ok(&lib, &["user", "rm", "bob"]);
    assert!(removed.contains("removed"), "{removed}");
    assert_eq!(b.get("/api/seeds").0, 401);
    assert_eq!(ok(&lib, &["user", "list"]), "alice\n");
    assert_eq!(ok(&lib, &["seed", "list", "--json"]), seeds_before, "alice is the only one again");
}

/// The stored password hashes, read with the sqlite3 the library ships in
/// the binary's own `export`-free way: straight from the file's text.
fn rusqlite_free_hashes(lib: &Path) -> Vec<String> {
    let db = std::fs::read(lib.join("library.sqlite")).unwrap();
    let wal = std::fs::read(lib.join("library.sqlite-wal")).unwrap_or_default();
    let mut found = Vec::new();
    for bytes in [db, wal] {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        for (i, _) in text.match_indices("$argon2") {
            found.push(text[i..].chars().take(12).collect::<String>());
        }
    }
    assert!(!found.is_empty(), "no password hash in the library");
    found
}

/// Guesses sent all at once get no more password checks than guesses sent
/// one by one: a slot is taken before the hash, not after.
#[test]
fn concurrent_guesses_are_counted_before_they_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    add_user(&lib, dir.path(), "alice", "correct horse battery");
    let s = Server::start(&lib);
    let url = s.url.clone();
    let guesses: Vec<_> = (0..60)
        .map(|i| {
            let url = url.clone();
            // The right password last, as the 60th guess.
            let password = if i == 59 { "correct horse battery".to_string() } else { format!("guess number {i}") };
            std::thread::spawn(move || {
                let res = sign_in(&url, "alice", &password);
                (res.status(), res.header("retry-after").map(str::to_string))
            })
        })
        .collect();
    let answers: Vec<(u16, Option<String>)> = guesses.into_iter().map(|t| t.join().unwrap()).collect();
    let checked = answers.iter().filter(|(status, _)| matches!(status, 401 | 303)).count();
    let refused = answers.iter().filter(|(status, _)| *status == 429).count();
    assert!(checked <= 5, "{checked} passwords checked: {answers:?}");
    assert_eq!(checked + refused, 60, "{answers:?}");
    assert!(answers.iter().filter(|(status, _)| *status == 429).all(|(_, wait)| wait.as_deref().is_some_and(|w| w.parse::<u64>().is_ok())));
    // Five failures in: the right password is refused too, unchecked.
    if answers[59].0 != 303 {
        assert_eq!(sign_in(&url, "alice", "correct horse battery").status(), 429);
    }
}

#[test]
fn sign_in_sessions_and_throttling() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    add_user(&lib, dir.path(), "alice", "correct horse battery");
    let s = Server::start(&lib);

    // Without a session: pages send to the sign-in form, the API says 401.
    let res = reply(agent().get(&format!("{}/seeds?profile=default", s.url)).call());
    assert_eq!(res.status(), 303);
    assert_eq!(res.header("location"), Some("/login?next=%2Fseeds%3Fprofile%3Ddefault"));
    for path in ["/api/daily", "/api/seeds", "/api/stats", "/feed.atom"] {
        assert_eq!(reply(agent().get(&format!("{}{path}", s.url)).call()).status(), 401, "{path}");
    }
    assert_eq!(reply(agent().post(&format!("{}/api/ratings", s.url)).send_string("{}")).status(), 401);
    // The tab's icon is no secret: the sign-in form shows it too.
    let icon = reply(agent().get(&format!("{}/favicon.ico", s.url)).call());
    assert_eq!((icon.status(), icon.content_type()), (200, "image/svg+xml"));
    let form = reply(agent().get(&format!("{}/login", s.url)).call()).into_string().unwrap();
    assert!(form.contains("name=\"user\"") && form.contains("name=\"password\"") && form.contains("type=\"password\""));

    // A wrong password and an unknown user get the same answer, and no cookie.
    for (user, password) in [("alice", "wrong password"), ("mallory", "correct horse battery")] {
        let res = sign_in(&s.url, user, password);
        assert_eq!(res.status(), 401, "{user}");
        assert!(res.header("set-cookie").is_none());
        assert!(res.into_string().unwrap().contains("Wrong user name or password."));
    }

    let res = sign_in(&s.url, "alice", "correct horse battery");
    assert_eq!((res.status(), res.header("location")), (303, Some("/seeds")));
    let cookie = res.header("set-cookie").unwrap().to_string();
    let value = cookie.split(';').next().unwrap().strip_prefix("paperscout_session=").expect("the session cookie");
    assert!(value.len() >= 32 && value.bytes().all(|b| b.is_ascii_hexdigit()), "≥ 128 random bits: {value}");
    for flag in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(cookie.contains(flag), "{cookie}");
    }
    assert!(!cookie.contains("Secure"), "plain http: {cookie}");
    // An open redirect is not on offer.
    let res = reply(agent().post(&format!("{}/login", s.url)).send_form(&[
        ("user", "alice"),
        ("password", "correct horse battery"),
        ("next", "//evil.example/"),
    ]));
    assert_eq!(res.header("location"), Some("/"));

    let b = Browser::new(&s, "alice", "correct horse battery");
    assert_eq!(b.json("/api/seeds").as_array().unwrap().len(), 3);
    let (_, page) = b.get("/");
    assert!(page.contains("Sign out") && page.contains(">alice<"));
    // A feed reader cannot sign in: the feed's URL carries a key that opens
    // alice's feed and nothing else. The library keeps only its hash, so
    // the key is shown once, on a page made by a POST from her own page.
    assert!(page.contains("href=\"/feed.atom?profile=default\""), "no key in every page");
    let (_, seeds) = b.get("/seeds");
    assert!(seeds.contains("action=\"/feed-key\""));
    let forged = reply(b.agent.post(&format!("{}/feed-key", s.url)).set("Cookie", &b.cookie).send_form(&[("csrf", "0")]));
    assert_eq!(forged.status(), 403);
    let made = reply(
        b.agent.post(&format!("{}/feed-key", s.url)).set("Cookie", &b.cookie).send_form(&[("csrf", &b.csrf), ("profile", "default")]),
    );
    assert_eq!((made.status(), made.header("cache-control")), (200, Some("no-store")));
    let made = made.into_string().unwrap();
    let at = made.find("/feed.atom?profile=default&#38;key=").expect("the new feed address") + 35;
    let key = made[at..at + 32].to_string();
    let feed = reply(agent().get(&format!("{}/feed.atom?profile=default&key={key}", s.url)).call());
    assert_eq!(feed.status(), 200);
    assert!(feed.into_string().unwrap().contains("<feed"));
    assert_eq!(reply(agent().get(&format!("{}/feed.atom?key={}", s.url, "0".repeat(32))).call()).status(), 401);
    assert_eq!(reply(agent().get(&format!("{}/api/seeds?key={key}", s.url)).call()).status(), 401);
    // Not in the library's file; a new key from the command line ends it.
    let db = std::fs::read(lib.join("library.sqlite")).unwrap();
    let wal = std::fs::read(lib.join("library.sqlite-wal")).unwrap_or_default();
    let clear = |bytes: &[u8]| bytes.windows(32).any(|w| w == key.as_bytes());
    assert!(!clear(&db) && !clear(&wal), "the feed key is stored in clear");
    let rotated = ok(&lib, &["user", "feed-key", "alice", "--rotate"]);
    let new_key = rotated.split("key=").nth(1).unwrap()[..32].to_string();
    assert_eq!(reply(agent().get(&format!("{}/feed.atom?key={key}", s.url)).call()).status(), 401, "the old key ends");
    assert_eq!(reply(agent().get(&format!("{}/feed.atom?key={new_key}", s.url)).call()).status(), 200);
    assert!(!output(&lib, &["user", "feed-key", "alice"]).status.success(), "a kept key cannot be shown again");
    // Signing out needs the page's token, then ends the session.
    let out = reply(b.agent.post(&format!("{}/logout", s.url)).set("Cookie", &b.cookie).send_form(&[("csrf", "0")]));
    assert_eq!(out.status(), 403);
    let out = reply(b.agent.post(&format!("{}/logout", s.url)).set("Cookie", &b.cookie).send_form(&[("csrf", &b.csrf)]));
    assert_eq!(out.status(), 303);
    assert!(out.header("set-cookie").unwrap().contains("Max-Age=0"));
    assert_eq!(b.get("/api/seeds").0, 401);

    // Five failures (this address has had two) lock out even the right
    // password for a while, with the wait in Retry-After.
    for _ in 0..3 {
        assert_eq!(sign_in(&s.url, "alice", "guess").status(), 401);
    }
    let res = sign_in(&s.url, "alice", "correct horse battery");
    assert_eq!(res.status(), 429);
    let wait: u64 = res.header("retry-after").unwrap().parse().unwrap();
    assert!(wait > 800 && wait <= 900, "{wait}");
    assert!(res.header("set-cookie").is_none());
}

/// A raw sign-in sent from `source` (a loopback address of this machine);
/// its status.
fn sign_in_from(addr: &str, source: &str, user: &str, password: &str) -> u16 {
    use socket2::{Domain, Socket, Type};
    let sock = Socket::new(Domain::IPV4, Type::STREAM, None).unwrap();
    sock.bind(&format!("{source}:0").parse::<std::net::SocketAddr>().unwrap().into()).unwrap();
    sock.connect(&addr.parse::<std::net::SocketAddr>().unwrap().into()).unwrap();
    let mut stream: TcpStream = sock.into();
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let body = url::form_urlencoded::Serializer::new(String::new()).append_pair("user", user).append_pair("password", password).finish();
    let req = format!(
        "POST /login HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    if stream.write_all(req.as_bytes()).is_err() {
        return 0;
    }
    let mut out = Vec::new();
    let _ = stream.read_to_end(&mut out);
    String::from_utf8_lossy(&out).split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0)
}

/// A flood of failed sign-ins from many addresses (issue 52): before, each
/// address was a budget of its own and 5,500 of them filled the table, so
/// that every sign-in got 503 for a quarter of an hour. Now a network (a
/// /24) shares one budget, a name is limited per network, and a session in
/// use is never touched.
#[test]
fn a_sign_in_flood_from_many_addresses_locks_no_one_out() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    add_user(&lib, dir.path(), "alice", "correct horse battery");
    let s = Server::start(&lib);
    let signed_in = Browser::new(&s, "alice", "correct horse battery");
    let addr = s.addr();
    // 1,200 made-up names from 1,200 addresses in six /24s.
    let threads: Vec<_> = (0..24)
        .map(|t| {
            let addr = addr.clone();
            std::thread::spawn(move || {
                (0..50)
                    .map(|j| {
                        sign_in_from(&addr, &format!("127.1.{}.{}", t % 6, (t / 6) * 50 + j + 1), &format!("made-up-{t}-{j}"), "guess")
                    })
                    .collect::<Vec<u16>>()
            })
        })
        .collect();
    let statuses: Vec<u16> = threads.into_iter().flat_map(|t| t.join().unwrap()).collect();
    let mut counts = std::collections::BTreeMap::new();
    for s in &statuses {
        *counts.entry(*s).or_insert(0) += 1;
    }
    eprintln!("1,200 sign-ins from six /24s: {counts:?}");
    assert!(counts.get(&401).copied().unwrap_or(0) <= 6 * 20, "each /24 gets 20 password checks at most: {counts:?}");
    assert_eq!(counts.values().sum::<usize>(), 1200);
    assert!(counts.keys().all(|s| matches!(s, 401 | 429 | 503)), "{counts:?}");
    // The session in use goes on; the right password from another network signs in.
    assert_eq!(signed_in.get("/api/seeds").0, 200, "a flood signs no one out");
    assert_eq!(sign_in_from(&addr, "127.2.0.1", "alice", "correct horse battery"), 303, "{counts:?}");
    // Guessing at her name from one network limits it there, not elsewhere.
    for i in 0..5 {
        assert_eq!(sign_in_from(&addr, &format!("127.3.0.{}", i + 1), "alice", "not her password"), 401);
    }
    assert_eq!(sign_in_from(&addr, "127.3.0.9", "alice", "correct horse battery"), 429, "limited in that network");
    assert_eq!(sign_in_from(&addr, "127.4.0.1", "alice", "correct horse battery"), 303, "and nowhere else");
}

#[test]
fn each_user_sees_and_changes_only_their_own() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    add_user(&lib, dir.path(), "alice", "correct horse battery");
    add_user(&lib, dir.path(), "bob", "bob's own secret");
    let s = Server::start(&lib);
    let alice = Browser::new(&s, "alice", "correct horse battery");
    let bob = Browser::new(&s, "bob", "bob's own secret");
    assert_ne!(alice.csrf, bob.csrf);

    assert_eq!(alice.post("/api/ratings", json!({"id": "2603.01234", "rating": 1})).0, 404);
    let day = alice.json("/api/daily?include=new,cross,replaced&top=5&all=1");
    let id = day[0]["id"].as_str().unwrap().to_string();
    assert_eq!(alice.post("/api/ratings", json!({"id": id, "rating": 1})).0, 200);
    assert_eq!(alice.post("/api/filters", json!({"rule": "exclude", "value": "blockchain"})).0, 200);
    assert_eq!(alice.post("/api/seen", json!({"id": id})).0, 200);

    // Bob has none of it, and the same paper rated his way.
    assert_eq!(bob.json("/api/ratings"), json!([]));
    assert_eq!(bob.json("/api/seeds"), json!([]));
    assert_eq!(bob.json("/api/filters"), json!([]));
    assert_eq!(bob.json(&format!("/api/paper/{id}"))["rating"], 0);
    let bobs_day = bob.json("/api/daily?include=new,cross,replaced&top=5&all=1");
    assert!(bobs_day.as_array().unwrap().iter().all(|p| p["rating"].as_i64().unwrap_or(0) == 0 && p["seen"] != true));
    assert_eq!(bob.post("/api/ratings", json!({"id": id, "rating": -1})).0, 200);
    assert_eq!(alice.json(&format!("/api/paper/{id}"))["rating"], 1);
    assert_eq!(bob.json(&format!("/api/paper/{id}"))["rating"], -1);
    let (_, page) = bob.get("/seeds");
    assert!(!page.contains("KVFlow"), "alice's seeds are not on bob's page");

    // No name reaches alice's rows: profile names cannot hold a `/`.
    for p in ["alice/default", "..%2Falice%2Fdefault", "alice%2Fdefault"] {
        assert_eq!(bob.get(&format!("/api/seeds?profile={p}")).0, 400, "{p}");
    }
    assert_eq!(bob.post("/api/seeds/remove", json!({"key": "2507.07400", "profile": "alice/default"})).0, 400);
    assert_eq!(bob.post("/api/seeds/remove", json!({"key": "2507.07400"})).0, 404);
    assert_eq!(bob.post("/api/seeds/move", json!({"key": "2507.07400", "to": "x"})).0, 404);
    // A token is its session's own: alice's does not write for bob.
    let forged = reply(
        bob.agent
            .post(&format!("{}/api/ratings", s.url))
            .set("Cookie", &bob.cookie)
            .set("X-CSRF-Token", &alice.csrf)
            .set("Content-Type", "application/json")
            .send_string(&json!({"id": id, "rating": 1}).to_string()),
    );
    assert_eq!(forged.status(), 403);
    let stats = bob.json("/api/stats");
    let names: Vec<&str> = stats["profiles"].as_array().unwrap().iter().map(|p| p["profile"].as_str().unwrap()).collect();
    assert!(names.iter().all(|n| !n.contains("alice")), "{names:?}");
    assert_eq!(alice.json("/api/seeds").as_array().unwrap().len(), 4, "3 seeds and the liked paper");
    assert_eq!(alice.json("/api/filters")[0]["value"], "blockchain");
}

#[test]
fn https_sessions_are_secure_cookies() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    add_user(&lib, dir.path(), "alice", "correct horse battery");
    let cert = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let (cert_pem, key_pem) = (dir.path().join("cert.pem"), dir.path().join("key.pem"));
    std::fs::write(&cert_pem, cert.cert.pem()).unwrap();
    std::fs::write(&key_pem, cert.key_pair.serialize_pem()).unwrap();
    let s = Server::start_with(&lib, &["--tls-cert", cert_pem.to_str().unwrap(), "--tls-key", key_pem.to_str().unwrap()]);
    assert!(s.url.starts_with("https://"), "{}", s.url);

    let mut roots = rustls::RootCertStore::empty();
    roots.add(cert.cert.der().clone()).unwrap();
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let agent = ureq::AgentBuilder::new().redirects(0).tls_config(std::sync::Arc::new(config)).build();
    let url = s.url.replace("127.0.0.1", "localhost");
    let res = reply(agent.post(&format!("{url}/login")).send_form(&[("user", "alice"), ("password", "correct horse battery")]));
    assert_eq!(res.status(), 303);
    let cookie = res.header("set-cookie").unwrap();
    assert!(cookie.starts_with("__Host-paperscout_session=") && cookie.contains("; Secure"), "{cookie}");
    // Plain HTTP on the TLS port gets nothing.
    let (status, _) = raw(&s.addr(), &format!("GET /login HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", s.addr()));
    assert_eq!(status, 0);
}

/// The descriptors the server holds on files of the library.
fn library_files_open(pid: u32, lib: &Path) -> usize {
    let lib = lib.canonicalize().unwrap();
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .flatten()
        .filter(|e| std::fs::read_link(e.path()).is_ok_and(|t| t.starts_with(&lib)))
        .count()
}

/// The tests open a thousand connections themselves: this process's soft
/// descriptor limit goes up to its hard one. Returns the limit.
fn raise_descriptor_limit() -> usize {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit and setrlimit only read and write the struct given.
    unsafe {
        libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit);
        limit.rlim_cur = limit.rlim_max;
        libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit);
    }
    limit.rlim_cur as usize
}

#[test]
fn idle_and_slow_clients_cannot_starve_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    // A lower hard limit than ~1,300 scales the flood down with it.
    let idle = 1100.min(raise_descriptor_limit().saturating_sub(200));
    let server_fds = idle * 1024 / 1100;
    eprintln!("{idle} idle connections against a server limited to {server_fds} descriptors");
    // As configured by default, and with a connection cap above the
    // descriptor limit, where accepting runs out of descriptors and must
    // wait for the idle ones to time out.
    flood(&lib, "512", idle, server_fds);
    flood(&lib, "4096", idle, server_fds);
}

fn flood(lib: &Path, max_connections: &str, idle_connections: usize, server_fds: usize) {
    let mut cmd = std::process::Command::new("sh");
    cmd.arg("-c")
        .arg(r#"ulimit -n "$3" && exec "$0" serve --addr 127.0.0.1:0 --library "$1" --max-connections "$2""#)
        .arg(common::BIN)
        .arg(lib)
        .arg(max_connections)
        .arg(server_fds.to_string())
        .env("PAPERSCOUT_MODEL", common::model_dir());
    let s = Server::spawn(cmd);
    let addr = s.addr();
    assert_eq!(s.get("/api/stats").0, 200);

    // More idle connections than the server has descriptors, and a client
    // that sends its head a byte at a time.
    let idle: Vec<TcpStream> = (0..idle_connections).filter_map(|_| TcpStream::connect(&addr).ok()).collect();
    assert!(idle.len() * 10 >= idle_connections * 9, "only {} connections", idle.len());
    let slow = std::thread::spawn({
        let addr = addr.clone();
        move || {
            let mut c = TcpStream::connect(&addr).unwrap();
            let started = Instant::now();
            for b in b"GET /api/stats HTTP/1.1\r\nHost: x\r\nX-Slow: ".iter().cycle() {
                if c.write_all(&[*b]).is_err() || started.elapsed() > Duration::from_secs(120) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(200));
            }
            started.elapsed()
        }
    });

    let started = Instant::now();
    let client = ureq::AgentBuilder::new().timeout(Duration::from_secs(5)).build();
    loop {
        if let Ok(res) = client
            .get(&format!("{}/api/stats", s.url))
            .set("Authorization", &format!("Bearer {}", s.token.clone().unwrap_or_default()))
            .call()
        {
            assert_eq!(res.status(), 200);
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(45), "nobody served for 45 s (cap {max_connections})");
    }
    eprintln!("cap {max_connections}: served again after {:?} with {} idle connections", started.elapsed(), idle.len());
    let dropped = slow.join().unwrap();
    assert!(dropped < Duration::from_secs(60), "the slow client was dropped after {dropped:?}");
    drop(idle);
    assert_eq!(s.get("/api/stats").0, 200, "the server lives");
    assert!(library_files_open(s.pid(), lib) <= 32);
}

#[test]
fn a_thousand_concurrent_requests_share_a_few_connections() {
    let requests = 1000.min(raise_descriptor_limit().saturating_sub(200));
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let s = Server::start(&lib);
    let addr = s.addr();
    let auth = s.key_header();
    let paths = ["/api/daily?top=5&all=1", "/api/like/2507.07400?k=5", "/api/seeds", "/api/stats", "/day/2026-03-03", "/paper/2507.07400"];
    // Every request is written before any answer is read.
    let mut conns: Vec<TcpStream> = (0..requests)
        .map(|i| {
            let mut c = TcpStream::connect(&addr).unwrap();
            let req = format!("GET {} HTTP/1.1\r\nHost: {addr}\r\n{auth}Connection: close\r\n\r\n", paths[i % paths.len()]);
            c.write_all(req.as_bytes()).unwrap();
            c
        })
        .collect();
    let mut statuses = std::collections::BTreeMap::new();
    for c in &mut conns {
        c.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
        let mut out = Vec::new();
        let _ = c.read_to_end(&mut out);
        let text = String::from_utf8_lossy(&out);
        let status: u16 = text.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
        *statuses.entry(status).or_insert(0) += 1;
    }
    assert_eq!(statuses.get(&200), Some(&requests), "{statuses:?}");
    let open = library_files_open(s.pid(), &lib);
    eprintln!("{open} descriptors on library files after {requests} concurrent requests");
    assert!(open <= 32, "{open}");
}

#[test]
fn kill_9_while_users_write_loses_no_acknowledged_rating() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    add_user(&lib, dir.path(), "alice", "correct horse battery");
    add_user(&lib, dir.path(), "bob", "bob's own secret");
    let mut s = Server::start(&lib);
    let ids: Vec<String> = Browser::new(&s, "alice", "correct horse battery")
        .json("/api/daily?include=new,cross,replaced&top=40&all=1")
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_string())
        .collect();
    let acknowledged = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let writers: Vec<_> = [("alice", "correct horse battery", 1), ("bob", "bob's own secret", -1)]
        .into_iter()
        .map(|(user, password, rating)| {
            let b = Browser::new(&s, user, password);
            let (ids, acknowledged) = (ids.clone(), acknowledged.clone());
            std::thread::spawn(move || {
                for id in ids {
                    let res = b
                        .agent
                        .post(&format!("{}/api/ratings", b.url))
                        .set("Cookie", &b.cookie)
                        .set("X-CSRF-Token", &b.csrf)
                        .send_json(json!({"id": id, "rating": rating}));
                    match res {
                        Ok(r) if r.status() == 200 => acknowledged.lock().unwrap().push((user, id)),
                        _ => break,
                    }
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    s.kill();
    for w in writers {
        w.join().unwrap();
    }
    let acknowledged = acknowledged.lock().unwrap().clone();
    assert!(!acknowledged.is_empty(), "no write before the kill");
    let s = Server::start(&lib);
    for (user, password, rating) in [("alice", "correct horse battery", 1), ("bob", "bob's own secret", -1)] {
        let rated: Vec<Value> = Browser::new(&s, user, password).json("/api/ratings").as_array().unwrap().clone();
        for (_, id) in acknowledged.iter().filter(|(u, _)| *u == user) {
            let r = rated.iter().find(|r| r["id"] == id.as_str()).unwrap_or_else(|| panic!("{user}'s rating of {id} was lost"));
            assert_eq!(r["rating"], rating);
        }
    }
}

#[test]
fn a_body_that_stops_coming_is_cut_off() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let s = Server::start_with(&lib, &["--client-timeout", "2"]);
    let addr = s.addr();
    let token = s.csrf();
    let mut c = TcpStream::connect(&addr).unwrap();
    let head = format!(
        "POST /api/ratings HTTP/1.1\r\nHost: {addr}\r\nX-CSRF-Token: {token}\r\nContent-Type: application/json\r\nContent-Length: 60\r\n\r\n{{\"id\": "
    );
    c.write_all(head.as_bytes()).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let started = Instant::now();
    let mut out = Vec::new();
    let _ = c.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out);
    assert!(started.elapsed() < Duration::from_secs(10), "held for {:?}", started.elapsed());
    assert!(text.is_empty() || text.starts_with("HTTP/1.1 4"), "{text}");
    assert_eq!(s.json("/api/ratings"), json!([]));
}

/// Another user of the machine reads nothing of a library, whatever the
/// umask it was written under: 0700 folders, 0600 files; `doctor` and
/// `serve` say when it is not so, and `doctor --fix` repairs it.
#[test]
fn a_library_is_its_owners_alone() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    // Made and written under the most permissive mask.
    let permissive = |args: &str| {
        let mut cmd = std::process::Command::new("sh");
        cmd.arg("-c")
            .arg(format!(r#"umask 000 && exec "$0" {args} --library "$1""#))
            .arg(common::BIN)
            .arg(&lib)
            .arg(&common::pages()[0])
            .env("PAPERSCOUT_MODEL", common::model_dir());
        assert!(cmd.status().unwrap().success(), "{args}");
    };
    permissive(r#"ingest "$2""#);
    permissive(r#"seed add --text "speculative decoding for serving""#);
    let mode = |p: &Path| std::fs::symlink_metadata(p).unwrap().permissions().mode() & 0o777;
    let mut seen = 0;
    let mut walk = vec![lib.clone()];
    while let Some(p) = walk.pop() {
        let m = mode(&p);
        assert_eq!(m & 0o077, 0, "{} is {m:o}", p.display());
        if p.is_dir() {
            walk.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
        }
        seen += 1;
    }
    assert!(seen > 5, "{seen} files");

    // Made readable by hand: doctor and serve say so, doctor --fix repairs.
    std::fs::set_permissions(&lib, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(lib.join("library.sqlite"), std::fs::Permissions::from_mode(0o644)).unwrap();
    let report = ok(&lib, &["doctor"]);
    // (Reading it made SQLite's WAL and shared-memory files, with the
    // database's own mode: two more.)
    assert!(report.contains("readable by group or others (first: ") && report.contains("doctor --fix"), "{report}");
    let err = dir.path().join("serve.err");
    let mut serve = common::command(&lib, &["serve", "--addr", "127.0.0.1:0"]);
    serve.stderr(std::fs::File::create(&err).unwrap());
    drop(Server::spawn(serve));
    let warned = std::fs::read_to_string(&err).unwrap();
    assert!(warned.contains("other users of this machine can read this library"), "{warned}");
    let fixed = ok(&lib, &["doctor", "--fix"]);
    assert!(fixed.contains("made private: "), "{fixed}");
    assert_eq!((mode(&lib), mode(&lib.join("library.sqlite"))), (0o700, 0o600));
    assert!(ok(&lib, &["doctor"]).contains("; files private to their owner"));
}

/// A library written before feed keys were hashed: opened for writing, its
/// clear keys become hashes, and the URLs already given out keep working.
#[test]
fn clear_feed_keys_of_an_older_library_are_hashed_and_keep_working() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    add_user(&lib, dir.path(), "alice", "correct horse battery");
    let clear = "0123456789abcdef0123456789abcdef";
    {
        let c = rusqlite::Connection::open(lib.join("library.sqlite")).unwrap();
        c.execute("UPDATE users SET feed = ?1 WHERE name = 'alice'", [clear]).unwrap();
        // As an older version left it: no marker of the upgrade.
        c.execute("DELETE FROM meta WHERE key = 'rows_upgraded'", []).unwrap();
    }
    let s = Server::start(&lib);
    assert_eq!(reply(agent().get(&format!("{}/feed.atom?key={clear}", s.url)).call()).status(), 200);
    let c = rusqlite::Connection::open(lib.join("library.sqlite")).unwrap();
    let stored: String = c.query_row("SELECT feed FROM users WHERE name = 'alice'", [], |r| r.get(0)).unwrap();
    assert_eq!(stored.len(), 64, "{stored}");
    assert_ne!(stored, clear);
}

/// The same, as a second Unix user of the machine would try it: it can
/// neither read the library's files nor get anything from its server.
/// Needs root (to add that user) and curl; says SKIPPED otherwise.
#[test]
fn a_second_unix_user_reads_and_changes_nothing() {
    use std::os::unix::fs::PermissionsExt;
    use std::process::Command;
    let other = "paperscout-other";
    // SAFETY: geteuid reads the process's user id; it cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    let runs = |tool: &str, arg: &str| Command::new(tool).arg(arg).output().is_ok_and(|o| o.status.success());
    let tools = runs("curl", "--version") && runs("runuser", "--version");
    if !root || !tools {
        eprintln!("SKIPPED a_second_unix_user_reads_and_changes_nothing: needs root, curl and runuser (root {root}, tools {tools})");
        return;
    }
    let exists = |u: &str| Command::new("id").arg(u).output().is_ok_and(|o| o.status.success());
    if !exists(other) {
        let _ = Command::new("useradd").args(["--no-create-home", "--shell", "/usr/sbin/nologin", other]).status();
    }
    if !exists(other) {
        eprintln!("SKIPPED a_second_unix_user_reads_and_changes_nothing: could not add the user {other}");
        return;
    }
    let as_other = |args: &[&str]| Command::new("runuser").args(["-u", other, "--"]).args(args).output().unwrap();

    let dir = tempfile::tempdir().unwrap();
    // The folder around the library is open to all, as a home often is.
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let lib = dir.path().join("lib");
    // Made by paperscout under the usual mask, which would leave files
    // readable by all.
    let made = Command::new("sh")
        .arg("-c")
        .arg(r#"umask 022 && "$0" ingest "$2" --library "$1" && exec "$0" seed add --text "private research direction" --library "$1""#)
        .arg(common::BIN)
        .arg(&lib)
        .arg(&common::pages()[0])
        .env("PAPERSCOUT_MODEL", common::model_dir())
        .status()
        .unwrap();
    assert!(made.success());
    let db = lib.join("library.sqlite");
    let read = as_other(&["cat", db.to_str().unwrap()]);
    assert!(!read.status.success() && read.stdout.is_empty(), "{other} read the database");
    let listed = as_other(&["ls", lib.to_str().unwrap()]);
    assert!(!listed.status.success(), "{other} listed the library");

    let s = Server::start(&lib);
    let status = |method: &str, path: &str| {
        let out = as_other(&[
            "curl",
            "-s",
            "-o",
            "/dev/null",
            "-w",
            "%{http_code}",
            "-X",
            method,
            "-H",
            "Content-Type: application/json",
            "--data-binary",
            "{}",
            &format!("{}{path}", s.url),
        ]);
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    for path in ["/", "/api/token", "/api/seeds", "/seeds", "/feed.atom"] {
        assert_eq!(status("GET", path), "401", "{other} GET {path}");
    }
    assert_eq!(status("POST", "/api/seeds/zotero"), "401");
    assert_eq!(status("POST", "/api/ratings"), "401");
    assert_eq!(s.json("/api/ratings"), json!([]), "nothing changed");
}
