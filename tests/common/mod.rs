//! What the end-to-end tests share: the binary, the shared data and the
//! default model, provisioned the way the README says (`models/fetch`, once).
#![allow(dead_code)]

use rusqlite::{params, Connection};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Once;

pub mod parity;

pub const BIN: &str = env!("CARGO_BIN_EXE_paperscout");

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn model_dir() -> PathBuf {
    static FETCH: Once = Once::new();
    FETCH.call_once(|| {
        let ok = Command::new(root().join("models/fetch")).arg("-q").status().expect("run models/fetch");
        assert!(ok.success(), "models/fetch failed");
    });
    root().join("models/all-MiniLM-L6-v2")
}

/// One of the three fixture listing pages.
pub fn page(name: &str) -> String {
    root().join("../shared/fixtures/listings").join(name).to_string_lossy().into_owned()
}

pub fn pages() -> Vec<String> {
    ["cs.DC-2025-07-11.txt", "cs.DC-2026-03-02.txt", "cs.DC-2026-03-03.txt"].iter().map(|p| page(p)).collect()
}

pub fn corpus() -> PathBuf {
    root().join("../shared/data/corpus/arxiv-cs-2025-2026.jsonl.gz")
}

/// `paperscout ARGS --library LIB` with the default model.
pub fn command(lib: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(BIN);
    c.args(args).arg("--library").arg(lib).env("PAPERSCOUT_MODEL", model_dir());
    c
}

pub fn output(lib: &Path, args: &[&str]) -> Output {
    command(lib, args).output().expect("run paperscout")
}

/// Runs it, asserts success and returns stdout.
pub fn ok(lib: &Path, args: &[&str]) -> String {
    let out = output(lib, args);
    assert!(out.status.success(), "paperscout {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A JSON-lines listing in `dir`: `first` (a paper with hostile text), then
/// three plain cs.DC papers of the same day. Returns its path.
pub fn hostile_listing(dir: &Path, first: serde_json::Value) -> PathBuf {
    let mut lines = vec![first];
    for (i, t) in
        ["Scheduling LLM inference on GPU clusters", "Serverless cold starts", "Consensus under Byzantine faults"].iter().enumerate()
    {
        lines.push(serde_json::json!({
            "id": format!("2603.0900{}", i + 2), "title": t, "abstract": format!("{t}: a plain abstract."),
            "authors": ["A. Author"], "categories": ["cs.DC"], "date": "2026-03-09",
        }));
    }
    let path = dir.join("evil.jsonl");
    std::fs::write(&path, lines.iter().map(|l| format!("{l}\n")).collect::<String>()).unwrap();
    path
}

pub fn json_lines(s: &str) -> Vec<serde_json::Value> {
    s.lines().map(|l| serde_json::from_str(l).expect("JSON line")).collect()
}

/// A `paperscout serve` on an ephemeral loopback port, killed when dropped.
pub struct Server {
    pub url: String,
    /// The launch key a server without accounts printed (`?token=`).
    pub token: Option<String>,
    child: std::process::Child,
    // Kept open: a server writing to a closed pipe would fail.
    _stdout: std::io::BufReader<std::process::ChildStdout>,
}

impl Server {
    pub fn start(lib: &Path) -> Server {
        Server::start_with(lib, &[])
    }

    /// With more arguments for `serve`.
    pub fn start_with(lib: &Path, extra: &[&str]) -> Server {
        let mut args = vec!["serve", "--addr", "127.0.0.1:0"];
        args.extend_from_slice(extra);
        Server::spawn(command(lib, &args))
    }

    /// `command` must run `paperscout serve` and print its URL first.
    pub fn spawn(mut command: Command) -> Server {
        use std::io::BufRead;
        let mut child = command.stdout(std::process::Stdio::piped()).spawn().expect("start paperscout serve");
        let stdout = child.stdout.take().expect("server stdout");
        let mut line = String::new();
        let mut reader = std::io::BufReader::new(stdout);
        reader.read_line(&mut line).expect("the server prints its URL");
        let printed = line
            .split_whitespace()
            .find(|w| w.starts_with("http://") || w.starts_with("https://"))
            .unwrap_or_else(|| panic!("no URL in {line:?}"));
        let (url, token) = match printed.split_once("/?token=") {
            Some((url, token)) => (url.to_string(), Some(token.to_string())),
            None => (printed.trim_end_matches('/').to_string(), None),
        };
        Server { url, token, child, _stdout: reader }
    }

    /// kill -9.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `host:port` of the server.
    pub fn addr(&self) -> String {
        self.url.rsplit('/').next().unwrap_or_default().to_string()
    }

    /// The address to open first in a browser: the printed one.
    pub fn open_url(&self) -> String {
        self.page_url("/")
    }

    /// `path` as the owner's pages link to it: with the launch key in its
    /// query (a server without accounts), as every link of the pages has.
    pub fn page_url(&self, path: &str) -> String {
        match &self.token {
            Some(t) => format!("{}{path}{}token={t}", self.url, if path.contains('?') { "&" } else { "?" }),
            None => format!("{}{path}", self.url),
        }
    }

    /// The header line a raw request of the owner's carries (with its
    /// `\r\n`), or nothing for a server without a launch key.
    pub fn key_header(&self) -> String {
        self.token.as_ref().map_or_else(String::new, |t| format!("Authorization: Bearer {t}\r\n"))
    }

    /// A request as the owner's page script sends it: the launch key in
    /// `Authorization` (a server with accounts or `--no-token` has none).
    pub fn request(&self, method: &str, path: &str) -> ureq::Request {
        let req = ureq::request(method, &format!("{}{path}", self.url));
        match &self.token {
            Some(t) => req.set("Authorization", &format!("Bearer {t}")),
            None => req,
        }
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        response(self.request("GET", path).call())
    }

    pub fn json(&self, path: &str) -> serde_json::Value {
        let (status, body) = self.get(path);
        assert_eq!(status, 200, "GET {path}: {body}");
        serde_json::from_str(&body).expect("JSON body")
    }

    /// The token every page carries.
    pub fn csrf(&self) -> String {
        let (_, page) = self.get("/stats");
        let at = page.find("name=\"csrf-token\" content=\"").expect("csrf meta tag") + 27;
        page[at..at + 64].to_string()
    }

    pub fn post(&self, path: &str, token: Option<&str>, body: &str) -> (u16, String) {
        let mut req = self.request("POST", path).set("Content-Type", "application/json");
        if let Some(t) = token {
            req = req.set("X-CSRF-Token", t);
        }
        response(req.send_string(body))
    }

    /// Waits (bounded) until the background model load has finished.
    pub fn wait_for_model(&self) {
        for _ in 0..600 {
            let stats = self.json("/api/stats");
            match stats["model_status"].as_str() {
                Some("ready") => return,
                Some("failed") => panic!("the model failed to load"),
                _ => std::thread::sleep(std::time::Duration::from_millis(100)),
            }
        }
        panic!("the model did not load within 60 s");
    }
}

pub fn response(r: Result<ureq::Response, ureq::Error>) -> (u16, String) {
    match r {
        Ok(res) => (res.status(), res.into_string().unwrap_or_default()),
        Err(ureq::Error::Status(code, res)) => (code, res.into_string().unwrap_or_default()),
        Err(e) => panic!("request failed: {e}"),
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A library of the three fixture pages with the example seeds, built once
/// per test binary; each caller gets its own copy to change.
pub fn demo_library(into: &Path) {
    static BUILT: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    let base = BUILT.get_or_init(|| {
        let dir = tempfile::tempdir().expect("temp dir");
        let lib = dir.path().join("lib");
        let mut args = vec!["ingest".to_string()];
        args.extend(pages());
        ok(&lib, &args.iter().map(String::as_str).collect::<Vec<_>>());
        ok(&lib, &["seed", "add", root().join("examples/seeds.bib").to_str().unwrap()]);
        ok(&lib, &["seed", "add", "--text", "scheduling and serving large language model inference on GPU clusters"]);
        dir
    });
    copy_dir(&base.path().join("lib"), into);
}

/// Copies a library as its owner would, keeping it private (0700 folders;
/// files keep their own modes).
pub fn copy_dir(from: &Path, to: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(to).expect("create dir");
    std::fs::set_permissions(to, std::fs::Permissions::from_mode(0o700)).expect("chmod");
    for e in std::fs::read_dir(from).expect("read dir").flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else if e.file_name() != "write.lock" {
            std::fs::copy(e.path(), &target).expect("copy file");
        }
    }
}

/// A Zotero database with Zotero's own table and column names: those of
/// `resource/schema/userdata.sql` that a sync reads, and the `fields` and
/// `itemTypes` tables Zotero builds from its schema.
pub fn zotero_db(path: &Path) -> Connection {
    let c = Connection::open(path).unwrap();
    c.execute_batch(
        "CREATE TABLE itemTypes (itemTypeID INTEGER PRIMARY KEY, typeName TEXT, templateItemTypeID INT, display INT DEFAULT 1);
         CREATE TABLE fields (fieldID INTEGER PRIMARY KEY, fieldName TEXT, fieldFormatID INT);
         CREATE TABLE items (
             itemID INTEGER PRIMARY KEY, itemTypeID INT NOT NULL,
             dateAdded TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, dateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
             clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, libraryID INT, key TEXT NOT NULL, UNIQUE (libraryID, key));
         CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value UNIQUE);
         CREATE TABLE itemData (itemID INT, fieldID INT, valueID, PRIMARY KEY (itemID, fieldID));
         CREATE TABLE collections (
             collectionID INTEGER PRIMARY KEY, collectionName TEXT NOT NULL, parentCollectionID INT DEFAULT NULL,
             dateAdded TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, dateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
             clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, libraryID INT, key TEXT NOT NULL, UNIQUE (libraryID, key));
         CREATE TABLE collectionItems (collectionID INT, itemID INT, orderIndex INT DEFAULT 0, PRIMARY KEY (collectionID, itemID));
         CREATE TABLE deletedItems (itemID INTEGER PRIMARY KEY, dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL);
         INSERT INTO itemTypes (itemTypeID, typeName) VALUES (1, 'annotation'), (2, 'attachment'), (7, 'book'), (22, 'journalArticle'), (28, 'note'), (30, 'preprint');
         INSERT INTO fields (fieldID, fieldName) VALUES (1, 'title'), (2, 'abstractNote'), (13, 'url'), (16, 'extra'), (26, 'DOI'), (60, 'number'), (120, 'archiveID');
         INSERT INTO collections (collectionID, collectionName, parentCollectionID, libraryID, key) VALUES
             (1, 'Reading', NULL, 1, 'COLLREAD'), (2, 'LLM', 1, 1, 'COLLLLM0'), (3, 'Archive', NULL, 1, 'COLLARCH'), (4, 'Old', 3, 1, 'COLLOLD0');",
    )
    .unwrap();
    c
}

pub fn add_item(c: &Connection, id: i64, kind: i64, key: &str, added: &str, fields: &[(i64, &str)], collection: Option<i64>) {
    c.execute(
        "INSERT INTO items (itemID, itemTypeID, dateAdded, libraryID, key) VALUES (?1, ?2, ?3, 1, ?4)",
        params![id, kind, added, key],
    )
    .unwrap();
    for (field, value) in fields {
        c.execute("INSERT OR IGNORE INTO itemDataValues (value) VALUES (?1)", [value]).unwrap();
        let vid: i64 = c.query_row("SELECT valueID FROM itemDataValues WHERE value = ?1", [value], |r| r.get(0)).unwrap();
        c.execute("INSERT INTO itemData (itemID, fieldID, valueID) VALUES (?1, ?2, ?3)", params![id, field, vid]).unwrap();
    }
    if let Some(coll) = collection {
        c.execute("INSERT INTO collectionItems (collectionID, itemID) VALUES (?1, ?2)", params![coll, id]).unwrap();
    }
}

/// For a test that measures its whole process (peak memory): in the test
/// run it starts this test binary again with only `test` (its path, such as
/// `"embed_bounds::a_huge_tail"`) and returns false once that run passed;
/// inside that run it returns true and the caller does the work. All the
/// integration tests share one binary, so a process-wide figure is one
/// test's only in a process of its own.
pub fn in_own_process(test: &str) -> bool {
    const ALONE: &str = "PAPERSCOUT_TEST_ALONE";
    if std::env::var_os(ALONE).is_some_and(|t| t == test) {
        return true;
    }
    let exe = std::env::current_exe().expect("the test binary's path");
    let out = Command::new(exe)
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(ALONE, test)
        .output()
        .expect("run the test binary again");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprint!("{stderr}");
    assert!(out.status.success(), "{test} in its own process failed:\n{stdout}\n{stderr}");
    // A renamed test must not pass by running nothing.
    assert!(stdout.contains("test result: ok. 1 passed"), "{test} did not run in its own process:\n{stdout}");
    false
}
