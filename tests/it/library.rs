//! The library end to end through the binary, with the real default model:
//! ingest, re-ingest, `like`, filters, a kill mid-ingest and a second writer.

use crate::common;

use crate::common::{command as ps, corpus, pages};
use std::io::Write;
use std::path::Path;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

fn run(lib: &Path, args: &[&str]) -> Output {
    let out = common::output(lib, args);
    assert!(out.status.success(), "paperscout {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Numbers from the summary line "N new, N updated, N unchanged, N embedded …".
fn summary(o: &Output) -> [usize; 4] {
    let s = stdout(o);
    let n: Vec<usize> = s.split(|c: char| !c.is_ascii_digit()).filter_map(|t| t.parse().ok()).collect();
    assert!(n.len() >= 4, "no summary in {s:?}");
    [n[0], n[1], n[2], n[3]]
}

#[test]
fn ingest_like_and_reingest() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path();
    let mut ingest = vec!["ingest"];
    let pages = pages();
    ingest.extend(pages.iter().map(String::as_str));
    let first = run(lib, &ingest);
    // 78 entries of 77 papers: 2506.03296 is listed twice.
    let [new, updated, unchanged, embedded] = summary(&first);
    assert_eq!(new, 77);
    assert_eq!(new + updated + unchanged, 78);
    assert_eq!(embedded, 77);

    let again = run(lib, &ingest);
    assert_eq!(summary(&again), [0, 0, 78, 0], "re-ingest changed something");

    // The nearest paper to a title+abstract is that paper itself; by id, the
    // target itself is excluded.
    let json = stdout(&run(lib, &["like", "2602.23598", "-k", "5", "--json"]));
    let rows: Vec<serde_json::Value> = json.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 5);
    assert!(rows.iter().all(|r| r["id"] != "2602.23598"));
    let scores: Vec<f64> = rows.iter().map(|r| r["score"].as_f64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    for key in ["id", "version", "score", "title", "primary", "listing_date"] {
        assert!(rows[0].get(key).is_some(), "missing {key}");
    }

    let text = stdout(&run(
        lib,
        &[
            "like",
            "--text",
            "QoSFlow: Ensuring Service Quality of Distributed Workflows Using Interpretable Sensitivity Models",
            "-k",
            "1",
            "--json",
        ],
    ));
    assert!(text.contains("\"2602.23598\""), "{text}");

    // Filters are exact: every result passes, and k are still returned.
    let filtered = stdout(&run(lib, &["like", "2602.23598", "-k", "3", "--since", "2026-03-03", "--json"]));
    let rows: Vec<serde_json::Value> = filtered.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|r| r["listing_date"].as_str().unwrap() >= "2026-03-03"));
    let cat = stdout(&run(lib, &["like", "2602.23598", "-k", "2", "--category", "cs.LG", "--json"]));
    assert!(cat.lines().all(|l| l.contains("\"cs.LG\"")) && cat.lines().count() == 2, "{cat}");

    // The approximate path agrees with the exact one on this small library.
    let exact = stdout(&run(lib, &["like", "2602.23598", "-k", "5"]));
    let approx = stdout(&run(lib, &["like", "2602.23598", "-k", "5", "--approx"]));
    assert_eq!(exact, approx);
    // Who wrote it, after the title, where the listing named anyone.
    assert!(exact.lines().any(|l| l.ends_with(" — Dingyu Yang et al.")), "{exact}");

    // Derived files are rebuilt from the database when damaged.
    let derived = std::fs::read_dir(lib.join("derived")).unwrap().next().unwrap().unwrap().path();
    std::fs::write(derived.join("vectors.bin"), b"garbage").unwrap();
    for f in std::fs::read_dir(derived.join("index")).unwrap() {
        let f = f.unwrap().path();
        if f.to_string_lossy().ends_with(".usearch") {
            std::fs::write(&f, b"garbage").unwrap();
        }
    }
    assert_eq!(stdout(&run(lib, &["like", "2602.23598", "-k", "5", "--approx"])), exact);
    assert_eq!(stdout(&run(lib, &["like", "2602.23598", "-k", "5"])), exact);
    assert!(stdout(&run(lib, &["doctor"])).contains("database  ok (77 papers)"));

    let missing = common::output(lib, &["like", "2601.99999"]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("not in the library"));

    let stats = stdout(&run(lib, &["stats"]));
    assert!(stats.contains("days      3"), "{stats}");
}

#[test]
fn bad_input_leaves_library_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    run(&lib, &["ingest", &common::page("cs.DC-2026-03-02.txt")]);
    let before = stdout(&run(&lib, &["stats"]));
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, b"\x00\x01\x02 binary").unwrap();
    let other = common::page("cs.DC-2026-03-03.txt");
    let out = common::output(&lib, &["ingest", &other, bad.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.txt"), "error does not name the file: {err}");
    let after = stdout(&run(&lib, &["stats"]));
    let strip = |s: &str| s.lines().filter(|l| !l.starts_with("disk")).collect::<Vec<_>>().join("\n");
    assert_eq!(strip(&before), strip(&after));
}

/// A JSONL file of `n` corpus titles (no abstracts: quick to embed).
fn title_corpus(path: &Path, n: usize) {
    let gz = std::fs::File::open(corpus()).unwrap();
    let reader = std::io::BufReader::new(flate2::read::MultiGzDecoder::new(gz));
    let mut out = std::fs::File::create(path).unwrap();
    use std::io::BufRead;
    for line in reader.lines().take(n) {
        let mut v: serde_json::Value = serde_json::from_str(&line.unwrap()).unwrap();
        v["abstract"] = serde_json::Value::String(String::new());
        writeln!(out, "{v}").unwrap();
    }
}

fn count_vectors(lib: &Path) -> i64 {
    let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY;
    match rusqlite::Connection::open_with_flags(lib.join("library.sqlite"), flags) {
        Ok(conn) => conn.query_row("SELECT count(*) FROM vectors", [], |r| r.get(0)).unwrap_or(0),
        Err(_) => 0,
    }
}

#[test]
fn killed_ingest_keeps_committed_work_and_second_writer_waits() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    let input = dir.path().join("titles.jsonl");
    title_corpus(&input, 3000);

    let mut child = ps(&lib, &["ingest", input.to_str().unwrap()]).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    // Kill it once some vectors are committed, well before it can finish.
    let start = Instant::now();
    while count_vectors(&lib) == 0 && start.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let kept = count_vectors(&lib);
    assert!(kept > 0 && kept < 3000, "{kept} vectors after the kill");

    let doctor = run(&lib, &["doctor"]);
    assert!(stdout(&doctor).contains("database  ok (3000 papers)"), "{}", stdout(&doctor));

    // Resume while a second writer starts: it must wait, then find nothing to do.
    let first = ps(&lib, &["ingest", input.to_str().unwrap()]).stdout(Stdio::piped()).spawn().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let second = ps(&lib, &["ingest", input.to_str().unwrap()]).output().unwrap();
    let first = first.wait_with_output().unwrap();
    assert!(first.status.success() && second.status.success());
    let (a, b) = (summary(&first), summary(&second));
    assert_eq!(a[3] + b[3], 3000 - kept as usize, "embedded after resume");
    assert_eq!(count_vectors(&lib), 3000);
    let stats = stdout(&run(&lib, &["stats"]));
    assert!(stats.contains("papers    3000"), "{stats}");
}

/// Affiliations a listing names are kept: in the library, in JSON, and
/// searchable; a library made before they were kept reads as before and
/// gains them at its next write.
#[test]
fn affiliations_are_kept_searchable_and_added_to_an_older_library() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    let mailing = common::root().join("../shared/real-documents/mailing-cs-AI-LG-SE-2026-01-20-full.txt");
    let mailing = mailing.to_str().unwrap();
    let found = |lib: &Path, q: &str| -> Vec<serde_json::Value> {
        let o = run(lib, &["search", q, "--no-meaning", "--json", "-k", "5"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        common::json_lines(&stdout(&o))
    };
    assert!(run(&lib, &["ingest", "--no-embed", mailing]).status.success());
    let hits = found(&lib, "Harvard Medical School");
    let hit = hits.iter().find(|h| h["id"] == "2601.13969").unwrap_or_else(|| panic!("found by where its authors work: {hits:?}"));
    assert!(hit["matched"].as_array().unwrap().contains(&"affiliation".into()), "{hit}");
    let places = hit["affiliations"].as_array().expect("affiliations in the JSON");
    assert_eq!(places.len(), hit["authors"].as_array().unwrap().len(), "one per author");
    assert!(places[0].as_str().unwrap().starts_with("Department of Biomedical Informatics, Harvard Medical School"));
    // Under the authors on the paper's page, each place once.
    let s = common::Server::start(&lib);
    let (status, page) = s.get("/paper/2601.13969");
    assert_eq!(status, 200, "{page}");
    let affil = page.split("<div class=\"affil\">").nth(1).and_then(|r| r.split("</div>").next()).expect("an affiliations line");
    assert!(affil.starts_with("Department of Biomedical Informatics, Harvard Medical School, Boston, MA, USA · "), "{affil}");
    assert_eq!(affil.matches("Department of Biomedical Informatics, Harvard Medical School").count(), 1, "each place once: {affil}");
    drop(s);

    // As a library of the version before: no column. It is read as it was,
    // and the next ingest adds the column and fills it.
    let old = dir.path().join("old");
    assert!(run(&old, &["ingest", "--no-embed", mailing]).status.success());
    let db = rusqlite::Connection::open(old.join("library.sqlite")).unwrap();
    db.execute_batch("ALTER TABLE papers DROP COLUMN affiliations").unwrap();
    drop(db);
    std::fs::remove_dir_all(old.join("derived")).ok();
    let before = found(&old, "Polonuer");
    assert!(before.iter().any(|h| h["id"] == "2601.13969" && h.get("affiliations").is_none()), "{before:?}");
    assert!(run(&old, &["ingest", "--no-embed", mailing]).status.success());
    let after = found(&old, "Harvard Medical School");
    assert!(after.iter().any(|h| h["id"] == "2601.13969" && h["affiliations"].is_array()), "{after:?}");
}
