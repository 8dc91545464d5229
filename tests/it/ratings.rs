//! Ratings, seen papers, unsure papers and filters from the command line,
//! on the fixture library with the real model.

use crate::common::{demo_library, json_lines, ok, output};
use serde_json::{json, Value};

fn day(lib: &std::path::Path, extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["daily", "--format", "json", "--date", "2026-03-03"];
    if !extra.contains(&"--top") {
        args.extend(["--top", "10", "--all"]);
    }
    args.extend_from_slice(extra);
    json_lines(&ok(lib, &args))
}

fn section<'a>(v: &'a [Value], name: &str) -> Vec<&'a Value> {
    v.iter().filter(|p| p["section"] == name).collect()
}

#[test]
fn a_rating_is_a_seed_and_moves_the_ranking() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let before = day(&lib, &["--top", "40", "--all", "--include", "new,cross,replaced"]);
    let top = before[0]["id"].as_str().unwrap().to_string();

    assert!(ok(&lib, &["rate", &top, "-"]).contains("not interested"));
    let after = day(&lib, &["--top", "40", "--all", "--include", "new,cross,replaced"]);
    let rated = after.iter().find(|p| p["id"] == top.as_str()).expect("still listed, with its rating");
    assert_eq!(rated["rating"], -1);
    assert!(rated["reasons"].as_array().unwrap().iter().all(|r| r["seed"] != top.as_str()), "not its own reason");
    // Papers near the disliked one lose ground under every method.
    let near = json_lines(&ok(&lib, &["like", &top, "-k", "3", "--json", "--since", "2026-03-03", "--until", "2026-03-03"]));
    let score = |l: &[Value], id: &Value| l.iter().find(|p| p["id"] == *id).and_then(|p| p["score"].as_f64());
    let moved = near.iter().filter(|n| matches!((score(&before, &n["id"]), score(&after, &n["id"])), (Some(b), Some(a)) if a < b)).count();
    assert_eq!(moved, near.len(), "{near:?}");
    assert_eq!(near.len(), 3);
    for method in ["centroid", "decayed-mean", "logistic"] {
        let b = json_lines(&ok(
            &lib,
            &[
                "daily",
                "--format",
                "json",
                "--date",
                "2026-03-03",
                "--top",
                "40",
                "--all",
                "--include",
                "new,cross,replaced",
                "--method",
                method,
            ],
        ));
        assert!(b.iter().any(|p| p["id"] == top.as_str() && p["rating"] == -1), "{method}");
    }
    assert!(json_lines(&ok(&lib, &["seed", "list", "--json"])).iter().any(|s| s["key"] == top.as_str() && s["negative"] == true));

    ok(&lib, &["rate", &top, "0"]);
    assert!(!ok(&lib, &["seed", "list"]).contains(&top));
    let bad = output(&lib, &["rate", &top, "maybe"]);
    assert!(!bad.status.success() && String::from_utf8_lossy(&bad.stderr).contains("not a rating"));
    let unknown = output(&lib, &["rate", "2101.00001", "+"]);
    assert!(!unknown.status.success() && String::from_utf8_lossy(&unknown.stderr).contains("not in the library"));
    let nowhere = output(&dir.path().join("typo"), &["rate", &top, "+"]);
    assert!(!nowhere.status.success());
    assert!(!dir.path().join("typo").exists(), "a mistyped --library creates nothing");
}

#[test]
fn seen_papers_are_not_news_again_and_unsure_ones_are_listed() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let earlier = json_lines(&ok(&lib, &["daily", "--format", "json", "--date", "2026-03-02", "--top", "3", "--all"]));
    let id = earlier[2]["id"].as_str().unwrap().to_string();
    ok(&lib, &["rate", &id, "+"]);

    // The same paper comes back days later as a replacement.
    let again = dir.path().join("replaced.jsonl");
    let mut p = earlier[2].clone();
    let o = p.as_object_mut().unwrap();
    for key in ["rank", "score", "reasons", "signals", "seen_before", "rating", "pinned", "seen", "section"] {
        o.remove(key);
    }
    o.insert("kind".into(), json!("replaced"));
    o.insert("version".into(), json!(2));
    o.insert("listing_date".into(), json!("2026-03-05"));
    std::fs::write(&again, format!("{p}\n")).unwrap();
    ok(&lib, &["ingest", again.to_str().unwrap()]);
    ok(&lib, &["seed", "add", "2603.00356"]);

    let shown = json_lines(&ok(&lib, &["daily", "--format", "json", "--date", "2026-03-05", "--include", "new,cross,replaced"]));
    let entry = shown.iter().find(|e| e["id"] == id.as_str()).expect("marked, not hidden");
    assert!(entry["seen"].is_string(), "{entry}");
    assert_eq!(entry["rating"], 1);
    let table = ok(&lib, &["daily", "--date", "2026-03-05", "--include", "new,cross,replaced"]);
    assert!(table.contains("(seen "), "{table}");
    let hidden = json_lines(&ok(
        &lib,
        &["daily", "--format", "json", "--date", "2026-03-05", "--include", "new,cross,replaced", "--unseen", "--show-filtered"],
    ));
    assert!(section(&hidden, "pick").iter().all(|e| e["id"] != id.as_str()));
    let why = section(&hidden, "hidden");
    assert_eq!(why.len(), 1);
    assert!(why[0]["rule"].as_str().unwrap().starts_with("unseen: seen "));

    // Unsure papers: beyond the picks, unrated, and as many as asked.
    let with = day(&lib, &["--unsure", "4"]);
    let picks: Vec<&Value> = section(&with, "pick");
    let unsure = section(&with, "unsure");
    assert_eq!((picks.len(), unsure.len()), (10, 4));
    for u in &unsure {
        assert!(picks.iter().all(|p| p["id"] != u["id"]));
        assert!(u["rating"].is_null());
    }
    assert!(ok(&lib, &["daily", "--date", "2026-03-03", "--unsure", "2"]).contains("unsure"));
}

#[test]
fn filters_hide_pin_and_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let all = day(&lib, &["--top", "40", "--all"]);
    let last = all.iter().rev().find(|p| p["authors"].as_array().is_some_and(|a| !a.is_empty())).unwrap();
    let author = last["authors"][0].as_str().unwrap().to_string();

    ok(&lib, &["filter", "add", "author", &author]);
    ok(&lib, &["filter", "add", "include", "GPU", "LLM"]);
    ok(&lib, &["filter", "add", "deny", "cs.LG"]);
    let rules = json_lines(&ok(&lib, &["filter", "list", "--json"]));
    assert_eq!(rules.len(), 4);

    let got = day(&lib, &["--top", "40", "--all", "--show-filtered"]);
    let picks = section(&got, "pick");
    assert_eq!(picks[0]["id"], last["id"], "a pinned author's paper comes first");
    assert_eq!(picks[0]["pinned"], author.as_str());
    // Keywords match word forms: "GPUs" is GPU.
    let word = regex::Regex::new(r"(?i)(^|\W)(GPUs?|LLMs?)(\W|$)").unwrap();
    for p in &picks[1..] {
        assert!(word.is_match(&format!("{}\n{}", p["title"].as_str().unwrap(), p["abstract"].as_str().unwrap())), "{}", p["id"]);
        assert_ne!(p["primary"], "cs.LG");
    }
    let hidden = section(&got, "hidden");
    assert!(!hidden.is_empty());
    assert_eq!(hidden.len() + picks.len(), all.len(), "every entry is shown or hidden, none lost");
    assert!(hidden.iter().all(|h| {
        let r = h["rule"].as_str().unwrap();
        r == "deny: cs.lg" || r == "include: mentions none of GPU, LLM"
    }));

    for bad in
        [vec!["filter", "add", "deny", "cs DC;"], vec!["filter", "add", "include", " "], vec!["filter", "rm", "exclude", "never added"]]
    {
        assert!(!output(&lib, &bad).status.success(), "{bad:?}");
    }
    ok(&lib, &["filter", "rm", "include", "GPU", "LLM"]);
    ok(&lib, &["filter", "rm", "deny", "cs.LG"]);
    ok(&lib, &["filter", "rm", "author", &author]);
    assert!(ok(&lib, &["filter", "list"]).contains("no filters"));
}

#[test]
fn seeds_are_reweighted_and_moved_all_or_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    ok(&lib, &["seed", "weight", "2507.07400v1", "--weight", "3"]);
    let seeds = json_lines(&ok(&lib, &["seed", "list", "--json"]));
    assert_eq!(seeds.iter().find(|s| s["key"] == "2507.07400").unwrap()["weight"], 3.0);

    // One unknown key: nothing moves, and the error names it.
    let o = output(&lib, &["seed", "move", "2507.07400", "2101.00001", "--to", "systems"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("2101.00001"));
    assert!(ok(&lib, &["seed", "list", "--profile", "systems"]).contains("no seeds"));

    ok(&lib, &["seed", "move", "2507.07400", "--to", "systems"]);
    let moved = json_lines(&ok(&lib, &["seed", "list", "--json", "--profile", "systems"]));
    assert_eq!((moved.len(), moved[0]["weight"].as_f64()), (1, Some(3.0)));
    assert!(!ok(&lib, &["seed", "list"]).contains("2507.07400"));
    assert!(!output(&lib, &["seed", "weight", "2507.07114", "--weight", "0"]).status.success());
    assert!(!output(&lib, &["seed", "move", "2507.07114", "--to", "../x"]).status.success());
}
