//! The hybrid ranking on the fixture library with the real model: reasons
//! that name words, ratings that move the next order, 👎 below every
//! unrated pick, search by surname, id and phrase, and the lexical index
//! rebuilt by `doctor` when damaged.

use crate::common;
use crate::common::{demo_library, json_lines, ok, output, root};
use serde_json::{json, Value};

fn day(lib: &std::path::Path, extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["daily", "--format", "json", "--date", "2026-03-03", "--include", "new,cross,replaced"];
    args.extend_from_slice(extra);
    json_lines(&ok(lib, &args)).into_iter().filter(|p| p["section"] == "pick").collect()
}

fn position(picks: &[Value], id: &str) -> Option<usize> {
    picks.iter().position(|p| p["id"] == id)
}

#[test]
fn the_default_is_hybrid_and_its_reasons_name_shared_words() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let table = |columns: &str| {
        let out =
            common::command(&lib, &["daily", "--date", "2026-03-03", "--top", "5", "--all"]).env("COLUMNS", columns).output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    // Fitted to the terminal: a header, each title and reason wrapped in
    // the last column, and no line wider than the terminal.
    let narrow = table("80");
    let lines: Vec<&str> = narrow.lines().collect();
    assert!(lines[1].trim_start().starts_with("#  score  id") && lines[1].ends_with("title, what it does (≡), why (↳)"), "{narrow}");
    let column = lines[1].find("title").unwrap();
    for l in &lines[1..] {
        assert!(l.chars().count() <= 80, "{} columns: {l}", l.chars().count());
        assert!(l.chars().nth(column - 1) == Some(' '), "the text column holds: {l}");
    }
    assert!(lines.iter().any(|l| l.trim_start().starts_with("↳ ")), "each reason on a line of its own: {narrow}");
    let table = table("1000");
    assert!(table.contains("method hybrid"), "{table}");
    // A seed is named by its title, never by its id.
    assert!(table.contains("seed \u{201c}") && !table.contains("seed 2"), "{table}");
    let picks = day(&lib, &["--top", "10", "--all"]);
    assert_eq!(picks.len(), 10);
    let first = &picks[0];
    // Each signal explains itself: its name, label, value, share of the
    // lift and what it found.
    let signals = first["signals"].as_array().expect("signals");
    let of = |p: &Value, name: &str| -> Value {
        p["signals"].as_array().unwrap().iter().find(|s| s["signal"] == name).cloned().unwrap_or_else(|| panic!("{name} in {p}"))
    };
    let words = of(first, "words");
    assert_eq!(words["details"]["kind"], "words", "{first}");
    let words = words["details"]["of"].as_array().expect("words");
    assert!(!words.is_empty(), "the best pick shares words with the seeds: {first}");
    // The words are the candidate's own, as written in its title or abstract.
    let text = format!("{} {}", first["title"], first["abstract"]).to_lowercase();
    for w in words {
        assert!(text.contains(&w.as_str().unwrap().to_lowercase()), "{w} is not in {text}");
    }
    assert!(table.contains("shares \u{201c}"), "{table}");
    let share = of(first, "words")["share"].as_f64().expect("word share");
    assert!((0.0..=1.0).contains(&share));
    // Each signal says its part of the lift, in the registered order.
    let names: Vec<&str> = signals.iter().map(|s| s["signal"].as_str().unwrap()).collect();
    assert_eq!(names, ["nearest", "centroid", "words", "fields"], "{first}");
    assert_eq!(signals[2]["label"], "shared words");
    let total: f64 = signals.iter().map(|s| s["share"].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-3, "the best pick is lifted above the day: {first}");
    // The reasons are the nearest signal's seeds.
    assert_eq!(first["reasons"], of(first, "nearest")["details"]["of"], "{first}");
    // Each pick says how sure it is, by fixed cut points of its score, and
    // `weak` is exactly the weak strength.
    let all = day(&lib, &["--top", "200", "--all"]);
    for p in &all {
        let score = p["score"].as_f64().unwrap();
        let want = if score >= 0.75 {
            "strong"
        } else if score >= 0.4 {
            "worth-a-look"
        } else {
            "weak"
        };
        assert_eq!(p["strength"], want, "{p}");
        assert_eq!(p["weak"] == true, want == "weak", "{p}");
    }
    // The demo's 77 cs.DC papers score alike for these broad seeds: the
    // day's best is weak, and the digest says so rather than calling it close.
    let best = &all[0];
    assert!(best["strength"] == "weak" || table.contains("close to your seed"), "{best}");
    // The categories a pick shares with the seeds are its own, and the
    // seeds' categories (they are papers of the library) make some picks share them.
    for p in &all {
        let subjects = p["subjects"].as_array().unwrap();
        assert!(of(p, "fields")["details"]["of"].as_array().unwrap().iter().all(|f| subjects.contains(f)), "{p}");
    }
    assert!(all.iter().any(|p| !of(p, "fields")["details"]["of"].as_array().unwrap().is_empty()));
    // Every method stays selectable.
    for m in ["lexical", "knn", "centroid", "decayed-mean", "logistic", "hybrid"] {
        let l = json_lines(&ok(&lib, &["daily", "--date", "2026-03-03", "--format", "json", "--top", "3", "--all", "--method", m]));
        assert_eq!(l.len(), 3, "{m}");
    }
}

#[test]
fn a_dislike_is_listed_apart_from_the_picks_and_a_like_lifts_its_neighbours() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let before = day(&lib, &["--top", "10", "--all"]);
    let second = before[1]["id"].as_str().unwrap().to_string();
    ok(&lib, &["rate", &second, "-"]);
    let lines = json_lines(&ok(
        &lib,
        &["daily", "--format", "json", "--date", "2026-03-03", "--include", "new,cross,replaced", "--top", "10", "--all"],
    ));
    let after: Vec<Value> = lines.iter().filter(|p| p["section"] == "pick").cloned().collect();
    assert_eq!(after.len(), 10, "top 10 is ten picks, the paper marked not interested not among them");
    assert_eq!(position(&after, &second), None);
    assert!(after.iter().all(|p| p["rating"].is_null()));
    let apart: Vec<&Value> = lines.iter().filter(|p| p["section"] == "not_interested").collect();
    assert_eq!(apart.len(), 1, "listed apart, so that it can be undone");
    assert_eq!((apart[0]["id"].as_str(), apart[0]["rating"].as_i64()), (Some(second.as_str()), Some(-1)));
    // A terminal wide enough for every title on one line.
    let wide = common::command(&lib, &["daily", "--date", "2026-03-03", "--top", "10", "--all", "--include", "new,cross,replaced"])
        .env("COLUMNS", "1000")
        .output()
        .unwrap();
    let table = String::from_utf8(wide.stdout).unwrap();
    assert!(table.contains("[not interested]"));
    let (picked, set_apart) = table.split_once("\nnot interested — ").expect("the table lists it apart, under the picks");
    assert!(!picked.contains(&second) && set_apart.contains(&second), "{table}");
    // The tag widens its column for every row: each title starts where the
    // others do, and each reason (the line after) under its title.
    let lines: Vec<&str> = table.lines().collect();
    let mut titles = Vec::new();
    for p in after.iter().chain(apart.iter().copied()) {
        let title = p["title"].as_str().unwrap();
        let at = lines.iter().position(|l| l.contains(p["id"].as_str().unwrap()) && l.ends_with(title)).expect(title);
        titles.push(lines[at].chars().count() - title.chars().count());
        if p["section"] == "pick" {
            let reason = lines[at + 1];
            assert_eq!(reason.chars().take_while(|c| *c == ' ').count(), titles[0], "reason of {title} in\n{table}");
        }
    }
    assert!(titles.windows(2).all(|w| w[0] == w[1]), "title columns {titles:?} in\n{table}");

    // A 👍 on a paper far down the list lifts the papers like it.
    let all = day(&lib, &["--top", "200", "--all"]);
    let low = all[all.len() / 2]["id"].as_str().unwrap().to_string();
    let near = json_lines(&ok(&lib, &["like", &low, "-k", "3", "--json", "--since", "2026-03-03", "--until", "2026-03-03"]));
    ok(&lib, &["rate", &low, "+"]);
    let liked = day(&lib, &["--top", "200", "--all"]);
    let mut rose = 0;
    for n in &near {
        let id = n["id"].as_str().unwrap();
        if let (Some(b), Some(a)) = (position(&all, id), position(&liked, id)) {
            rose += usize::from(a < b);
        }
    }
    assert!(rose >= 2, "{rose} of {} neighbours of the liked paper rose", near.len());
    assert_eq!(liked[position(&liked, &low).unwrap()]["rating"], 1);
}

#[test]
fn search_finds_a_paper_by_surname_id_and_phrase_first() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let papers = json_lines(&ok(
        &lib,
        &["daily", "--date", "2026-03-03", "--format", "json", "--top", "200", "--all", "--include", "new,cross,replaced"],
    ));
    let target = papers.iter().find(|p| p["authors"].as_array().is_some_and(|a| a.len() >= 2)).unwrap();
    let id = target["id"].as_str().unwrap();
    let first = |args: &[&str]| -> Value {
        let mut a = vec!["search", "--json", "-k", "5"];
        a.extend_from_slice(args);
        json_lines(&ok(&lib, &a)).into_iter().next().unwrap_or(Value::Null)
    };
    // By id, with or without version and prefix.
    assert_eq!(first(&[id])["id"], id);
    assert_eq!(first(&[&format!("arXiv:{id}v1")])["id"], id);
    assert_eq!(first(&[id])["matched"][0], "id");
    // By a phrase of its title.
    let title = target["title"].as_str().unwrap();
    let phrase: Vec<&str> = title.split_whitespace().take(6).collect();
    assert_eq!(first(&["--no-meaning", &format!("\"{}\"", phrase.join(" "))])["id"], id, "{title}");
    // By an author's surname and full name: that author's papers come first.
    let author = target["authors"][0].as_str().unwrap();
    let surname = author.split_whitespace().last().unwrap();
    let by_name = json_lines(&ok(&lib, &["search", "--json", "-k", "20", "--no-meaning", author]));
    assert!(by_name[0]["authors"].as_array().unwrap().iter().any(|a| a.as_str() == Some(author)), "{by_name:?}");
    let by_surname = first(&["--no-meaning", surname]);
    assert!(by_surname["authors"].as_array().unwrap().iter().any(|a| a.as_str().unwrap().contains(surname)));
    // Nothing near: no nearest noise, a plain message.
    let none = output(&lib, &["search", "qwzxv", "plokhj"]);
    assert!(none.status.success());
    assert!(String::from_utf8_lossy(&none.stdout).trim().is_empty());
    assert!(String::from_utf8_lossy(&none.stderr).contains("no good match"));
}

#[test]
fn old_style_ids_are_found_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    let feed = root().join("../shared/fixtures/feeds/api-atom-2026__arxiv.py__id_astro-ph_0601001_s0_m100_3150dca9dc76.xml");
    ok(&lib, &["ingest", "--no-embed", feed.to_str().unwrap()]);
    let found = json_lines(&ok(&lib, &["search", "--json", "astro-ph/0601001"]));
    assert_eq!(found[0]["id"], "astro-ph/0601001");
}

#[test]
fn doctor_rebuilds_a_damaged_lexical_index_and_ingest_grows_it() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let doctor = ok(&lib, &["doctor"]);
    let line = doctor.lines().nth(1).unwrap();
    assert!(line.starts_with("lexical index ok ("), "{doctor}");
    let papers: usize = line["lexical index ok (".len()..].split(' ').next().unwrap().parse().unwrap();
    assert!(papers > 50);

    // Damage: its commit record overwritten.
    let meta = lib.join("derived/lexical/meta.json");
    std::fs::write(&meta, b"{ not json").unwrap();
    let repaired = ok(&lib, &["doctor"]);
    assert!(repaired.lines().nth(1).unwrap().starts_with("lexical index rebuilt (unreadable"), "{repaired}");
    assert!(ok(&lib, &["doctor"]).lines().nth(1).unwrap().starts_with(&format!("lexical index ok ({papers} papers")));

    // Gone altogether: the next search makes it again.
    std::fs::remove_dir_all(lib.join("derived/lexical")).unwrap();
    let found = json_lines(&ok(&lib, &["search", "--json", "--no-meaning", "GPU"]));
    assert!(!found.is_empty());
    assert!(ok(&lib, &["doctor"]).contains(&format!("lexical index ok ({papers} papers)")));
}

#[test]
fn keyword_filters_match_word_forms_and_categories_must_look_like_one() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let all = day(&lib, &["--top", "200", "--all"]);
    let with_gpus = all.iter().filter(|p| format!("{} {}", p["title"], p["abstract"]).contains("GPUs")).count();
    assert!(with_gpus > 0);
    ok(&lib, &["filter", "add", "exclude", "gpu"]);
    let kept = day(&lib, &["--top", "200", "--all"]);
    let mentions_gpu = |p: &Value| {
        let text = format!("{} {}", p["title"], p["abstract"]).to_lowercase();
        text.split(|c: char| !c.is_alphanumeric()).any(|w| w == "gpu" || w == "gpus")
    };
    assert!(kept.len() < all.len() && !kept.iter().any(mentions_gpu), "GPUs hidden too");
    let bad = output(&lib, &["filter", "add", "deny", "blockchain"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not an arXiv category"));
}

#[test]
fn the_digest_stops_at_the_bar_and_says_how_many_are_below_it() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let lines = |extra: &[&str]| {
        let mut args = vec!["daily", "--format", "json", "--date", "2026-03-03"];
        args.extend_from_slice(extra);
        json_lines(&ok(&lib, &args))
    };
    let whole = lines(&["--top", "200", "--all"]);
    assert!(whole.iter().all(|p| p["section"] == "pick"), "a whole list has nothing more to say");
    let above = |threshold: f64| whole.iter().filter(|p| p["score"].as_f64().unwrap() >= threshold).count();
    for (bar, threshold) in [("strict", 0.75), ("usual", 0.4), ("loose", 0.0)] {
        let got = lines(&["--bar", bar]);
        let picks: Vec<&Value> = got.iter().filter(|p| p["section"] == "pick").collect();
        // At least three, at most the top (20), the ones above the bar first.
        let want = above(threshold).clamp(3, 20);
        assert_eq!(picks.len(), want, "{bar}");
        let lead = above(threshold).min(20);
        assert!(picks[..lead].iter().all(|p| p["score"].as_f64().unwrap() >= threshold), "{bar}");
        let more = got.iter().find(|p| p["section"] == "more");
        let below = whole.len() - above(threshold).max(want);
        match more {
            Some(m) => {
                assert_eq!(m["bar"], bar);
                assert_eq!(m["below_bar"].as_u64().unwrap() as usize, below, "{bar}: {m}");
                assert_eq!(m["past_top"].as_u64().unwrap() as usize, above(threshold).saturating_sub(20), "{bar}");
            }
            None => assert_eq!(below + above(threshold).saturating_sub(20), 0, "{bar}: nothing left out, nothing said"),
        }
    }
    // The table says it in words, and how to see the rest.
    let table = ok(&lib, &["daily", "--date", "2026-03-03"]);
    assert!(
        table.contains(" · bar usual") && table.contains("more below your bar (usual): `paperscout daily --all` shows them"),
        "{table}"
    );
    // The profile keeps its bar; a step at either end stays there.
    assert!(ok(&lib, &["filter", "bar"]).contains("the usual bar"));
    assert!(ok(&lib, &["filter", "bar", "stricter"]).contains("the strict bar"));
    assert!(ok(&lib, &["filter", "bar", "stricter"]).contains("the strict bar"));
    assert!(lines(&[]).iter().any(|p| p["section"] == "more" && p["bar"] == "strict"));
    assert!(ok(&lib, &["filter", "bar", "loose"]).contains("was strict"));
    let loose = lines(&[]);
    assert_eq!(loose.iter().filter(|p| p["section"] == "pick").count(), 20, "loose: the top twenty whatever their strength");
    assert_eq!(loose.last().unwrap()["past_top"].as_u64().unwrap() as usize, whole.len() - 20, "the rest are past the top");
    assert!(ok(&lib, &["filter", "bar", "looser", "--profile", "other"]).contains("the loose bar"), "per profile");
    assert!(ok(&lib, &["filter", "bar", "stricter"]).contains("the usual bar"));
}

#[test]
fn a_name_finds_every_paper_of_that_person_paged_with_the_true_count() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    // A metadata dump as arXiv's snapshot has it: 27 papers with a Wang
    // among their authors (23 by Wei Wang), 4 by Giuseppe Carenini and 3 by
    // other Giuseppes; topics vary so that words alone cannot find them.
    let topics = ["graph neural networks", "protein folding", "sparse attention", "query optimisation", "robot grasping"];
    let mut lines = Vec::new();
    let mut paper = |n: usize, authors: &str| {
        let topic = topics[n % topics.len()];
        lines.push(
            json!({
                "id": format!("2401.{:05}", n + 1),
                "authors": authors,
                "title": format!("A study of {topic}, part {n}"),
                "abstract": format!("We study {topic} in setting number {n} and report what we measured."),
                "categories": "cs.LG",
                "versions": [{"version": "v1", "created": "Mon, 1 Jan 2024 00:00:00 GMT"}],
                "update_date": "2024-01-02"
            })
            .to_string(),
        );
    };
    for n in 0..23 {
        paper(n, &format!("Wei Wang, Co Author{n}"));
    }
    for n in 23..27 {
        paper(n, &format!("Jun Wang, Other Person{n}"));
    }
    for n in 27..31 {
        paper(n, "Giuseppe Carenini, Raymond Ng");
    }
    for n in 31..34 {
        paper(n, &format!("Giuseppe Rossi{n}, Anna Bianchi"));
    }
    let dump = dir.path().join("dump.jsonl");
    std::fs::write(&dump, lines.join("\n") + "\n").unwrap();
    ok(&lib, &["ingest", dump.to_str().unwrap()]);

    let search = |args: &[&str]| {
        let mut a = vec!["search", "--json", "--no-meaning"];
        a.extend_from_slice(args);
        let out = common::command(&lib, &a).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        (json_lines(&String::from_utf8(out.stdout).unwrap()), String::from_utf8(out.stderr).unwrap())
    };
    // A surname: every paper by a Wang, counted truly, a page at a time.
    let (first, said) = search(&["-k", "10", "Wang"]);
    assert_eq!(first.len(), 10);
    assert!(said.contains("27 found, showing 1–10; 17 more: --offset 10"), "{said}");
    let (last, said) = search(&["-k", "10", "--offset", "20", "Wang"]);
    assert_eq!(last.len(), 7, "{said}");
    assert!(said.contains("27 found, showing 21–27") && !said.contains("more"), "{said}");
    let (all, _) = search(&["-k", "100", "Wang"]);
    let ids: std::collections::HashSet<&str> = all.iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), 27, "every Wang, each once");
    assert!(all.iter().all(|p| p["matched"].as_array().unwrap().contains(&json!("author"))), "match types stay shown");
    let paged: Vec<Value> = first.into_iter().chain(search(&["-k", "10", "--offset", "10", "Wang"]).0).chain(last).collect();
    assert_eq!(paged, all, "pages are the whole list, in order");
    // A full name is that person, not others who share a first name.
    let (carenini, said) = search(&["-k", "20", "Giuseppe Carenini"]);
    assert!(said.contains("4 found"), "{said}");
    assert!(carenini.iter().all(|p| p["authors"][0] == "Giuseppe Carenini"), "{carenini:?}");
    let (wei, _) = search(&["-k", "50", "Wei Wang"]);
    assert_eq!(wei.len(), 23);
}
