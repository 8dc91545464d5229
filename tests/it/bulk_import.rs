//! The arXiv bulk snapshot, vectors made elsewhere (`embed` → `ingest`,
//! `--shard`) and the Parquet export, end to end on the shared sample.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;

fn sample() -> PathBuf {
    common::root().join("../shared/fixtures/snapshot/arxiv-metadata-oai-snapshot.sample.json")
}

fn sample_lines() -> Vec<serde_json::Value> {
    common::json_lines(&std::fs::read_to_string(sample()).unwrap())
}

/// `paperscout ARGS` for commands without a library (`parse`, `embed`).
fn plain(args: &[&str]) -> Output {
    std::process::Command::new(common::BIN).args(args).env("PAPERSCOUT_MODEL", common::model_dir()).output().unwrap()
}

fn plain_ok(args: &[&str]) -> String {
    let out = plain(args);
    assert!(out.status.success(), "paperscout {args:?} failed: {}", stderr(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn db(lib: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open_with_flags(lib.join("library.sqlite"), rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap()
}

fn count(lib: &Path, sql: &str) -> i64 {
    db(lib).query_row(sql, [], |r| r.get(0)).unwrap()
}

/// The snapshot's text habits undone: wrapped lines joined, edges trimmed.
fn unwrapped(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every line of the sample: old and new ids, the newest version, the first
/// version's day as the paper's date, wrapped titles and abstracts joined,
/// authors split, and no listing day.
#[test]
fn snapshot_sample_parses_field_by_field() {
    let out = plain_ok(&["parse", "--json", sample().to_str().unwrap()]);
    let papers = common::json_lines(&out);
    let lines = sample_lines();
    assert_eq!(papers.len(), 2003);
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let mut multi_version = 0;
    for (p, l) in papers.iter().zip(&lines) {
        assert_eq!(p["id"], l["id"]);
        assert_eq!(p["kind"], "snapshot");
        let versions = l["versions"].as_array().unwrap();
        let newest = versions.iter().map(|v| v["version"].as_str().unwrap()[1..].parse::<u64>().unwrap()).max();
        assert_eq!(p["version"].as_u64(), newest, "{}", l["id"]);
        multi_version += usize::from(versions.len() > 1);
        // "Sun, 16 Mar 2025 20:43:38 GMT" → 2025-03-16
        let created: Vec<&str> = versions[0]["created"].as_str().unwrap().split_whitespace().collect();
        let month = months.iter().position(|m| *m == created[2]).unwrap() + 1;
        let day: u32 = created[1].parse().unwrap();
        assert_eq!(p["listing_date"], format!("{}-{month:02}-{day:02}", created[3]), "{}", l["id"]);
        let title = p["title"].as_str().unwrap();
        assert!(l["title"].as_str().unwrap().contains("\n  ") || !title.is_empty());
        assert_eq!(title, unwrapped(l["title"].as_str().unwrap()));
        let abs = p["abstract"].as_str().unwrap();
        assert!(!abs.contains('\n') && !abs.starts_with(' ') && !abs.ends_with(' '), "{abs:?}");
        assert_eq!(abs, unwrapped(l["abstract"].as_str().unwrap()));
        let cats: Vec<&str> = l["categories"].as_str().unwrap().split(' ').collect();
        assert_eq!(p["subjects"], serde_json::json!(cats));
        assert_eq!(p["authors"].as_array().unwrap().len(), l["authors_parsed"].as_array().unwrap().len(), "{}", l["id"]);
        assert_eq!(p["comments"], l["comments"]);
    }
    assert!(multi_version > 100, "{multi_version} papers with several versions");
    let old: Vec<&str> = papers[2000..].iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(old, ["hep-th/9901001", "math.AG/0501001", "cs/0312045"]);
    assert_eq!(papers[2000]["listing_date"], "1999-01-01");
    // LaTeX accents in names become the Unicode other formats show.
    assert_eq!(papers[1]["authors"][1], "Elena Ortega-Beltrán");

    // Stored: a date for `like --since`, but no listing day for `daily`.
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    let out = common::ok(&lib, &["ingest", "--no-embed", sample().to_str().unwrap()]);
    assert!(out.starts_with("2003 new, 0 updated, 0 unchanged, 0 embedded"), "{out}");
    assert_eq!(count(&lib, "SELECT count(*) FROM listings"), 0);
    assert_eq!(count(&lib, "SELECT count(*) FROM papers WHERE first_date IS NULL"), 0);
    let (version, date): (i64, String) = db(&lib)
        .query_row("SELECT version, first_date FROM papers WHERE id = 'math.AG/0501001'", [], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap();
    assert_eq!((version, date.as_str()), (1, "1999-01-01"));
    assert!(common::ok(&lib, &["stats"]).contains("days      0"));
}

/// The first `n` sample lines with `embedding` and `model` from `embed`.
fn embedded_sample(dir: &Path, n: usize) -> (PathBuf, Vec<serde_json::Value>) {
    let input = dir.join("part.json");
    let text: Vec<String> = std::fs::read_to_string(sample()).unwrap().lines().take(n).map(String::from).collect();
    std::fs::write(&input, text.join("\n") + "\n").unwrap();
    let out = plain_ok(&["embed", input.to_str().unwrap()]);
    let path = dir.join("part.vectors.jsonl");
    std::fs::write(&path, &out).unwrap();
    (path, common::json_lines(&out))
}

fn write_lines(path: &Path, lines: &[serde_json::Value]) {
    let text: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    std::fs::write(path, text.join("\n") + "\n").unwrap();
}

fn stored_vector(lib: &Path, id: &str) -> Vec<f32> {
    let blob: Vec<u8> = db(lib)
        .query_row("SELECT v.vec FROM papers p JOIN vectors v ON v.text_hash = p.text_hash WHERE p.id = ?1", [id], |r| r.get(0))
        .unwrap();
    blob.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// Vectors made by `embed` are stored as they are, without embedding; a
/// vector that does not fit the library stops the ingest with the place
/// and both sides named, and the library stays as it was.
#[test]
fn vectors_made_elsewhere_are_imported_or_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (good, lines) = embedded_sample(dir.path(), 12);
    let model = lines[0]["model"].as_str().unwrap().to_string();
    assert!(model.starts_with("all-MiniLM-L6-v2:"), "{model}");
    assert!(lines.iter().all(|l| l["embedding"].as_array().unwrap().len() == 384 && l["model"] == model.as_str()));

    let lib = dir.path().join("lib");
    let out = common::ok(&lib, &["ingest", good.to_str().unwrap()]);
    assert!(out.starts_with("12 new, 0 updated, 0 unchanged, 0 embedded, 12 vectors imported"), "{out}");
    for l in &lines {
        let given: Vec<f32> = l["embedding"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect();
        assert_eq!(stored_vector(&lib, l["id"].as_str().unwrap()), given, "bit for bit");
    }
    assert!(common::ok(&lib, &["stats"]).contains(&format!("vectors   12 for {model}")));

    let before = (count(&lib, "SELECT count(*) FROM papers"), count(&lib, "SELECT count(*) FROM vectors"));
    let bad = dir.path().join("bad.jsonl");
    let refused = |edit: &dyn Fn(&mut serde_json::Value), raw: Option<&dyn Fn(String) -> String>| -> String {
        // Line 5 goes bad; lines 1–4 and 6–12 are new papers that must not be stored either.
        let mut edited: Vec<serde_json::Value> = lines.clone();
        for l in edited.iter_mut() {
            l["id"] = format!("2602.{}", &l["id"].as_str().unwrap()[5..]).into();
        }
        edit(&mut edited[4]);
        write_lines(&bad, &edited);
        if let Some(raw) = raw {
            std::fs::write(&bad, raw(std::fs::read_to_string(&bad).unwrap())).unwrap();
        }
        let out = common::output(&lib, &["ingest", bad.to_str().unwrap()]);
        assert!(!out.status.success());
        assert_eq!((count(&lib, "SELECT count(*) FROM papers"), count(&lib, "SELECT count(*) FROM vectors")), before);
        stderr(&out)
    };
    let at = format!("{}:5:", bad.display());

    let err = refused(&|l| l["model"] = "other-model:0123456789ab".into(), None);
    assert!(err.contains(&at) && err.contains("other-model:0123456789ab") && err.contains(&model), "{err}");

    let err = refused(
        &|l| {
            let v = l["embedding"].as_array_mut().unwrap();
            v.truncate(383);
            let norm = v.iter().map(|x| x.as_f64().unwrap().powi(2)).sum::<f64>().sqrt();
            for x in v.iter_mut() {
                *x = (x.as_f64().unwrap() / norm).into();
            }
        },
        None,
    );
    assert!(err.contains(&at) && err.contains("383 dimensions") && err.contains("has 384"), "{err}");

    // JSON has no NaN: a line carrying one is not JSON, and is refused rather than skipped.
    let err = refused(&|l| l["embedding"][7] = 12345.5.into(), Some(&|t: String| t.replacen("12345.5", "NaN", 1)));
    assert!(err.contains(&at) && err.contains("embedding"), "{err}");
    let err = refused(&|l| l["embedding"][7] = 1e39.into(), None);
    assert!(err.contains(&at) && err.contains("NaN or infinity"), "{err}");
    let err = refused(&|l| l["embedding"][7] = 3.0.into(), None);
    assert!(err.contains(&at) && err.contains("not 1"), "{err}");
    let err = refused(&|l| l["text"] = "Some other text.".into(), None);
    assert!(err.contains(&at) && err.contains("`text`"), "{err}");
}

/// Shards embed disjoint lines that together are the whole input.
#[test]
fn shards_together_are_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    let (_, whole) = embedded_sample(dir.path(), 10);
    let input = dir.path().join("part.json");
    let mut parts: Vec<serde_json::Value> = Vec::new();
    for i in 0..3 {
        let shard = format!("{i}/3");
        let out = common::json_lines(&plain_ok(&["embed", "--shard", &shard, input.to_str().unwrap()]));
        let ids: Vec<&str> = out.iter().map(|l| l["id"].as_str().unwrap()).collect();
        let expected: Vec<&str> = whole.iter().skip(i).step_by(3).map(|l| l["id"].as_str().unwrap()).collect();
        assert_eq!(ids, expected, "shard {shard}");
        parts.extend(out);
    }
    assert_eq!(parts.len(), whole.len());
    for w in &whole {
        let p = parts.iter().find(|p| p["id"] == w["id"]).unwrap();
        let (a, b) = (p["embedding"].as_array().unwrap(), w["embedding"].as_array().unwrap());
        let dot: f64 = a.iter().zip(b).map(|(x, y)| x.as_f64().unwrap() * y.as_f64().unwrap()).sum();
        assert!(dot > 0.9999, "{}: cosine {dot}", w["id"]);
        assert_eq!((&p["model"], &p["title"]), (&w["model"], &w["title"]));
    }
    for bad in ["3/3", "1", "x/2", "0/0"] {
        assert!(!plain(&["embed", "--shard", bad, input.to_str().unwrap()]).status.success(), "{bad}");
    }
}

/// Library → Parquet → another library: every paper field and every
/// vector, bit for bit. The file is known by its content, not its name.
#[test]
fn parquet_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let (good, _) = embedded_sample(dir.path(), 30);
    let first = dir.path().join("first");
    common::ok(&first, &["ingest", good.to_str().unwrap()]);
    // A paper from a listing day too, embedded here.
    common::ok(&first, &["ingest", &common::page("cs.DC-2026-03-02.txt")]);
    let file = dir.path().join("papers.export");
    let out = common::ok(&first, &["export", file.to_str().unwrap()]);
    let n = count(&first, "SELECT count(*) FROM papers");
    assert!(out.starts_with(&format!("{n} papers with 384-dimensional vectors")), "{out}");
    assert_eq!(&std::fs::read(&file).unwrap()[..4], b"PAR1");

    let second = dir.path().join("second");
    let out = common::ok(&second, &["ingest", file.to_str().unwrap()]);
    assert!(out.starts_with(&format!("{n} new, 0 updated, 0 unchanged, 0 embedded, {n} vectors imported")), "{out}");
    let rows = |lib: &Path| -> Vec<Vec<rusqlite::types::Value>> {
        let conn = db(lib);
        let mut stmt = conn
            .prepare(
                "SELECT p.id, p.version, p.title, p.authors, p.abstract, p.subjects, p.primary_cat, p.comments,
                 p.journal_ref, p.first_date, p.text_hash, v.model, v.vec
                 FROM papers p JOIN vectors v ON v.text_hash = p.text_hash ORDER BY p.id",
            )
            .unwrap();
        let rows = stmt.query_map([], |r| (0..13).map(|i| r.get(i)).collect::<Result<Vec<_>, _>>()).unwrap();
        rows.collect::<Result<_, _>>().unwrap()
    };
    let (a, b) = (rows(&first), rows(&second));
    assert_eq!(a.len() as i64, n);
    assert_eq!(a, b);

    let again = common::ok(&second, &["ingest", file.to_str().unwrap()]);
    assert!(again.starts_with(&format!("0 new, 0 updated, {n} unchanged")), "{again}");
}
