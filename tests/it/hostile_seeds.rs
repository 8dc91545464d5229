//! Hostile seed and import files: `@string`, `crossref` and `xdata` cycles
//! and blow-ups, nesting, byte-order marks, a Zotero database whose cells
//! grow without end, Parquet dates the calendar lacks. Each must end in one
//! clear error naming the file (and the entry or row) in little memory,
//! with the library unchanged; the legitimate forms must still work.

use crate::common;

use crate::common::{command, json_lines, ok};
use std::path::{Path, PathBuf};

/// What a hostile file may cost the process that reads it.
const MAX_RSS_KB: i64 = 300 * 1024;

struct Run {
    success: bool,
    stdout: String,
    stderr: String,
    /// Peak resident memory of the child, in KB.
    max_rss_kb: i64,
}

/// Starts its arguments as a command and writes the command's peak memory
/// (KB) to the file named first. A child's peak counts the memory of the
/// process that started it (Linux carries it over `vfork` and `exec`), so
/// the test, grown by the tests beside it, does not start paperscout itself.
const MEASURE: &str = "import resource, subprocess, sys
code = subprocess.run(sys.argv[2:]).returncode
open(sys.argv[1], 'w').write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(code)";

/// Runs `paperscout ARGS --library LIB` and measures its peak memory.
fn run(lib: &Path, args: &[&str]) -> Run {
    let paperscout = command(lib, args);
    let rss = tempfile::NamedTempFile::new().unwrap();
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(MEASURE)
        .arg(rss.path())
        .arg(paperscout.get_program())
        .args(paperscout.get_args())
        .envs(paperscout.get_envs().filter_map(|(k, v)| Some((k, v?))))
        .output()
        .expect("run python3 and paperscout");
    let max_rss_kb = std::fs::read_to_string(rss.path()).unwrap().trim().parse().expect("peak memory");
    Run {
        success: out.status.success(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        max_rss_kb,
    }
}

/// A library of four papers, and the state a refused file must leave alone.
fn library(dir: &Path) -> PathBuf {
    let lib = dir.join("lib");
    let listing = common::hostile_listing(
        dir,
        serde_json::json!({
            "id": "2603.09001", "title": "Prefix caching for LLM serving", "abstract": "KV caches shared across requests.",
            "authors": ["A. Author"], "categories": ["cs.DC"], "date": "2026-03-09",
        }),
    );
    ok(&lib, &["ingest", listing.to_str().unwrap()]);
    ok(&lib, &["seed", "add", "2603.09001"]);
    lib
}

fn state(lib: &Path) -> (String, String) {
    (ok(lib, &["seed", "list", "--json"]), ok(lib, &["stats"]))
}

/// The file is refused with one line naming it and saying `why`, in little
/// memory, and the library is as it was.
fn refused(lib: &Path, args: &[&str], file: &str, why: &str) {
    let before = state(lib);
    let r = run(lib, args);
    let err = r.stderr.trim();
    assert!(!r.success, "{file} was accepted: {}", r.stdout);
    assert_eq!(err.lines().count(), 1, "{file}: one line, not {err}");
    assert!(err.contains(file) && err.contains(why), "{file}: expected {why:?} in {err}");
    assert!(!err.contains("panicked") && !err.contains("overflow"), "{err}");
    assert!(r.max_rss_kb < MAX_RSS_KB, "{file}: {} MB", r.max_rss_kb / 1024);
    assert_eq!(state(lib), before, "{file} changed the library");
}

fn doubling(n: usize) -> String {
    let mut s = "@string{s0 = \"x\"}\n".to_string();
    for i in 1..=n {
        s.push_str(&format!("@string{{s{i} = s{} # s{}}}\n", i - 1, i - 1));
    }
    s + &format!("@misc{{e, title = s{n}}}\n")
}

#[test]
fn hostile_bibtex_ends_in_one_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    let mut diamond = "@xdata{d0, note = {x}}\n".to_string();
    for i in 1..=40 {
        diamond.push_str(&format!("@xdata{{d{i}, xdata = {{d{},d{}}}}}\n", i - 1, i - 1));
    }
    diamond.push_str("@misc{e, title = {T}, xdata = {d40}}\n");
    let nested = |n: usize| format!("@misc{{e, title = {{{}x{}}}}}\n", "{".repeat(n), "}".repeat(n));
    let cases: Vec<(&str, String, &str)> = vec![
        ("self.bib", "@string{a = \"x\" # a}\n@misc{e, title = a}\n".into(), "self.bib:1: @string \"a\" refers to itself"),
        (
            "cycle.bib",
            "@misc{e, title = a}\n@string{a = \"x\" # b}\n@string{b = \"y\" # a}\n".into(),
            "cycle.bib:2: @string \"a\" refers to itself through \"b\"",
        ),
        ("double26.bib", doubling(26), "double26.bib:28: field \"title\" of entry \"e\" expands to more than 1 MiB"),
        ("double40.bib", doubling(40), "more than 32 deep"),
        ("double13-empty.bib", doubling(13).replace("\"x\"", "\"\""), "more than 4096 pieces"),
        (
            "crossref.bib",
            "@misc{a, title = {A}, crossref = {b}}\n@misc{b, title = {B}, crossref = {a}}\n".into(),
            "crossref.bib:1: entry \"a\" inherits from itself through \"b\"",
        ),
        (
            "xdata.bib",
            "@misc{a, title = {A}, xdata = {b}}\n@xdata{b, xdata = {a}}\n".into(),
            "xdata.bib:1: entry \"a\" inherits from itself through \"b\"",
        ),
        (
            "xdata-self.bib",
            "@xdata{b, note = {n}, xdata = {b}}\n@misc{a, title = {A}}\n".into(),
            "xdata-self.bib:1: entry \"b\" inherits from itself",
        ),
        ("diamond.bib", diamond, "copies more than 4 MiB"),
        (
            "braces100k.bib",
            nested(100_000),
            "braces100k.bib:1: field \"title\" of entry \"e\" nests braces or @string references more than 32 deep",
        ),
        ("braces1M.bib", nested(1_000_000), "more than 32 deep"),
        ("flat.bib", format!("@misc{{e, title = {{{}}}}}\n", "{}".repeat(100_000)), "more than 4096 pieces"),
    ];
    for (name, text, why) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        refused(&lib, &["seed", "add", path.to_str().unwrap()], name, why);
    }
}

#[test]
fn strings_crossref_xdata_and_byte_order_marks_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    let bib = dir.path().join("good.bib");
    std::fs::write(
        &bib,
        "\u{feff}@string{venue = \"Proc. \" # sys}\n@string{sys = {SOSP}}\n\
         @proceedings{sosp, title = venue, year = 2025}\n\
         @xdata{shared, eprint = {2603.09002}}\n\
         @inproceedings{p, title = {Serving} # { } # sys, crossref = {sosp}, xdata = {shared}}\n",
    )
    .unwrap();
    let out = ok(&lib, &["seed", "add", bib.to_str().unwrap(), "--profile", "bib"]);
    assert!(out.starts_with("profile \"bib\": 2 new seed(s)"), "{out}");
    let seeds = json_lines(&ok(&lib, &["seed", "list", "--json", "--profile", "bib"]));
    let titles: Vec<&str> = seeds.iter().map(|s| s["title"].as_str().unwrap()).collect();
    assert!(titles.contains(&"Proc. SOSP"), "{titles:?}");
    assert!(seeds.iter().any(|s| s["key"] == "2603.09002"), "the id through xdata: {seeds:?}");

    let csl = dir.path().join("good.json");
    std::fs::write(&csl, "\u{feff}[{\"title\": \"Cold starts\", \"URL\": \"http://arxiv.org/abs/2603.09003v1\"}]").unwrap();
    assert!(ok(&lib, &["seed", "add", csl.to_str().unwrap(), "--profile", "csl"]).starts_with("profile \"csl\": 1 new seed(s)"));
    let ids = dir.path().join("ids.txt");
    std::fs::write(&ids, "\u{feff}2603.09004\r\n# a comment\r\n").unwrap();
    assert!(ok(&lib, &["seed", "add", ids.to_str().unwrap(), "--profile", "ids"]).starts_with("profile \"ids\": 1 new seed(s)"));
    let keys = json_lines(&ok(&lib, &["seed", "list", "--json", "--profile", "ids"]));
    assert_eq!(keys[0]["key"], "2603.09004");
}

/// Zotero's tables, as `delivery::zotero_db` builds them, with `items.key`
/// and `itemDataValues.value` given by the caller.
fn zotero_db(path: &Path, key: &str, value: &str) -> rusqlite::Connection {
    let c = rusqlite::Connection::open(path).unwrap();
    c.execute_batch(&format!(
        "CREATE TABLE itemTypes (itemTypeID INTEGER PRIMARY KEY, typeName TEXT, templateItemTypeID INT, display INT DEFAULT 1);
         CREATE TABLE fields (fieldID INTEGER PRIMARY KEY, fieldName TEXT, fieldFormatID INT);
         CREATE TABLE items (itemID INTEGER PRIMARY KEY, itemTypeID INT NOT NULL,
             dateAdded TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, libraryID INT, key {key});
         CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value {value});
         CREATE TABLE itemData (itemID INT, fieldID INT, valueID, PRIMARY KEY (itemID, fieldID));
         CREATE TABLE collections (collectionID INTEGER PRIMARY KEY, collectionName TEXT NOT NULL, parentCollectionID INT DEFAULT NULL,
             libraryID INT, key TEXT NOT NULL);
         CREATE TABLE collectionItems (collectionID INT, itemID INT, orderIndex INT DEFAULT 0, PRIMARY KEY (collectionID, itemID));
         CREATE TABLE deletedItems (itemID INTEGER PRIMARY KEY, dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL);
         INSERT INTO itemTypes (itemTypeID, typeName) VALUES (22, 'journalArticle');
         INSERT INTO fields (fieldID, fieldName) VALUES (1, 'title');"
    ))
    .unwrap();
    c
}

#[test]
fn a_zotero_database_cannot_grow_a_cell_past_a_mebibyte() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());

    // 400 MB keys, computed as they are read (8.6 GB before the limits).
    let generated = dir.path().join("generated.sqlite");
    let z = zotero_db(&generated, "TEXT GENERATED ALWAYS AS (printf('%.*c', 400000000, 'x')) VIRTUAL", "UNIQUE");
    z.execute_batch(
        "INSERT INTO items (itemID, itemTypeID, dateAdded, libraryID) VALUES (1, 22, '2024-01-05 10:00:00', 1), (2, 22, '2024-01-05 10:00:00', 1);
         INSERT INTO itemDataValues VALUES (1, 'A title'); INSERT INTO itemData VALUES (1, 1, 1), (2, 1, 1);",
    )
    .unwrap();
    drop(z);
    refused(
        &lib,
        &["seed", "sync", "zotero", "--db", generated.to_str().unwrap()],
        "generated.sqlite",
        "an item's `key` is empty or larger than 1 MiB",
    );

    // A stored title of 2 MB.
    let stored = dir.path().join("stored.sqlite");
    let z = zotero_db(&stored, "TEXT NOT NULL", "UNIQUE");
    z.execute("INSERT INTO items (itemID, itemTypeID, dateAdded, libraryID, key) VALUES (1, 22, '2024-01-05 10:00:00', 1, 'AAAAAAAA')", [])
        .unwrap();
    z.execute("INSERT INTO itemDataValues VALUES (1, ?1)", ["t".repeat(2 << 20)]).unwrap();
    z.execute("INSERT INTO itemData VALUES (1, 1, 1)", []).unwrap();
    drop(z);
    refused(&lib, &["seed", "sync", "zotero", "--db", stored.to_str().unwrap()], "stored.sqlite", "a value in it is larger than 1 MiB");
}

#[test]
fn parquet_dates_must_be_days_the_calendar_has() {
    use paperscout::paper::{ArxivId, Kind, Paper};
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    for (n, bad) in ["2026-02-30", "<script>alert(1)</script>", "2026-2-3", "２０２６-01-01"].iter().enumerate() {
        let name = format!("bad{n}.parquet");
        let path = dir.path().join(&name);
        let mut w = paperscout::listing::parquet::Writer::create(&path, "sentence-transformers/all-MiniLM-L6-v2", 4).unwrap();
        for (i, date) in ["2026-03-01", bad, "2026-03-02"].iter().enumerate() {
            let mut p = Paper::new(ArxivId { id: format!("2603.0800{i}"), version: Some(1) }, Kind::Snapshot, "t");
            p.title = format!("Paper {i}");
            p.abstract_text = "An abstract.".into();
            w.push(&p, Some(date), &[0.5, 0.5, 0.5, 0.5]).unwrap();
        }
        w.finish().unwrap();
        let why = format!("{name}: row 2: date {bad:?} is not a calendar date");
        refused(&lib, &["ingest", path.to_str().unwrap()], &name, &why);
    }
}
