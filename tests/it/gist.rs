//! The gist end to end: `eval tldr` on SciTLDR against the figures the
//! dataset's README measured with Python's `rouge-score`, every output of
//! `daily` carrying each pick's gist, and a library written before gists
//! getting them. The choice and trimming are unit-tested in `src/gist`.

use crate::common::{demo_library, json_lines, ok, pages, root};
use std::process::{Command, Output};

/// `eval tldr` opens no library.
fn eval_tldr(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_paperscout")).args(["eval", "tldr"]).args(args).output().expect("run paperscout")
}
use serde_json::Value;

#[test]
fn eval_tldr_agrees_with_rouge_score_on_the_baselines_and_the_gist_reaches_43() {
    let test = root().join("../shared/data/tldr/scitldr-a/test.jsonl");
    let out = eval_tldr(&[test.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows = json_lines(&String::from_utf8_lossy(&out.stdout));
    let row = |method: &str| rows.iter().find(|r| r["method"] == method).unwrap_or_else(|| panic!("{method}: {rows:?}")).clone();
    let mean = |r: &Value, m: &str| r[m]["mean"].as_f64().unwrap();
    // ../shared/data/tldr/README.md: rouge-score 0.1.2, stemmed, multi-max, on test.
    for (method, r1, r2, rl) in [
        ("first sentence", 31.29, 11.42, 24.08),
        ("most title words", 39.10, 17.13, 30.39),
        ("first contribution cue", 40.18, 18.60, 32.33),
        ("title", 40.40, 20.33, 33.68),
        ("oracle sentence", 49.34, 26.05, 39.95),
    ] {
        let r = row(method);
        assert_eq!(r["papers"], 618);
        for (m, want) in [("r1", r1), ("r2", r2), ("rl", rl)] {
            assert!((mean(&r, m) - want).abs() <= 0.3, "{method} {m}: {} against rouge-score's {want}", mean(&r, m));
        }
    }
    let gist = row("gist");
    assert!(mean(&gist, "r1") >= 43.0, "{gist}");
    assert!(gist["r1"]["low"].as_f64().unwrap() < mean(&gist, "r1") && mean(&gist, "r1") < gist["r1"]["high"].as_f64().unwrap());
    // Above every baseline; below the oracle, which knows the answers.
    assert!(
        mean(&gist, "r1") > mean(&row("first contribution cue"), "r1") + 2.0 && mean(&gist, "r1") < mean(&row("oracle sentence"), "r1")
    );
}

#[test]
fn eval_tldr_names_the_file_and_line_of_a_bad_record() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, "{\"source\": [\"A.\"], \"target\": [\"B\"], \"title\": \"T\"}\n{\"source\": 3}\n").unwrap();
    let out = eval_tldr(&[bad.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.jsonl:2: not a SciTLDR record"), "{err}");
}

#[test]
fn every_output_of_daily_carries_each_picks_gist() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let day = ["daily", "--date", "2026-03-03", "--all", "--top", "10"];
    let with = |format: &str| ok(&lib, &[&day[..], &["--format", format]].concat());
    let picks: Vec<Value> = json_lines(&with("json")).into_iter().filter(|p| p["section"] == "pick").collect();
    assert_eq!(picks.len(), 10);
    for p in &picks {
        let gist = p["gist"].as_str().unwrap_or_else(|| panic!("no gist: {p}"));
        assert_ne!(gist.to_lowercase(), p["title"].as_str().unwrap().to_lowercase());
        assert!(gist.split_whitespace().count() >= 5 && gist.len() < p["abstract"].as_str().unwrap().len(), "{gist}");
    }
    let token_pools = picks.iter().find(|p| p["id"] == "2603.00356").expect("the demo's first pick");
    assert!(token_pools["gist"].as_str().unwrap().starts_with("We introduce \\emph{token pools}, a control-plane abstraction"));
    // Rendered as each format renders TeX: \emph{…} is read as its words.
    let terminal = ok(&lib, &day);
    assert!(terminal.contains("≡ We introduce token pools, a control-plane abstraction"), "{terminal}");
    assert_eq!(terminal.matches("≡ ").count(), 10, "{terminal}");
    let markdown = with("markdown");
    assert!(markdown.contains("   ≡ We introduce token pools, a control-plane abstraction"), "{markdown}");
    let html = with("html");
    assert_eq!(html.matches("<div class=\"gist\">").count(), 10, "{html}");
    let atom = with("atom");
    assert!(atom.contains("≡ We introduce token pools"), "{atom}");
}

#[test]
fn a_library_written_before_gists_shows_them_and_stores_them_on_its_next_ingest() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let db = || rusqlite::Connection::open(lib.join("library.sqlite")).unwrap();
    let count = |sql: &str| db().query_row(sql, [], |r| r.get::<_, i64>(0)).unwrap();
    let papers = count("SELECT count(*) FROM papers");
    assert_eq!(count("SELECT count(*) FROM gists"), papers, "made at ingest");
    db().execute_batch("DROP TABLE gists; DELETE FROM meta WHERE key = 'gists';").unwrap();
    // Read before any write: made as it is shown.
    let shown = json_lines(&ok(&lib, &["daily", "--date", "2026-03-03", "--all", "--top", "3", "--format", "json"]));
    assert!(shown.iter().filter(|p| p["section"] == "pick").all(|p| p["gist"].is_string()), "{shown:?}");
    // The next ingest, of nothing new, stores every paper's.
    let mut args = vec!["ingest".to_string()];
    args.extend(pages().into_iter().take(1));
    ok(&lib, &args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(count("SELECT count(*) FROM gists"), papers);
    assert!(count("SELECT count(*) FROM gists WHERE gist IS NOT NULL") * 10 >= papers * 9, "nearly every abstract has one");
}
