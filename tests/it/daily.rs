//! Seeds and the daily digest end to end through the binary, on the fixture
//! pages with the real default model.

use crate::common::{json_lines, ok, output as ps, page};

#[test]
fn seeds_from_every_source_and_a_ranked_day() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    // `daily FILES` ingests first, then ranks the newest day of those files;
    // with no seeds yet it must say how to add them.
    let first = ps(&lib, &["daily", &page("cs.DC-2025-07-11.txt"), &page("cs.DC-2026-03-02.txt"), &page("cs.DC-2026-03-03.txt")]);
    assert!(!first.status.success());
    assert!(String::from_utf8_lossy(&first.stderr).contains("seed add"));

    let bib = dir.path().join("zotero.bib");
    std::fs::write(
        &bib,
        "@misc{kv, title = {{KVFlow}: Efficient Prefix Caching for Accelerating {LLM}-Based Multi-Agent Workflows},\n eprint = {2507.07400}, archivePrefix = {arXiv}}\n",
    )
    .unwrap();
    let csl = dir.path().join("zotero.json");
    std::fs::write(&csl, r#"[{"title": "Green or Fast? Learning to Balance Cold Starts and Idle Carbon in Serverless Computing", "URL": "https://arxiv.org/abs/2602.23935v1"}]"#).unwrap();
    let ids = dir.path().join("ids.txt");
    std::fs::write(&ids, "# liked\n2603.00356\n").unwrap();
    let files = ok(&lib, &["seed", "add", bib.to_str().unwrap(), csl.to_str().unwrap(), ids.to_str().unwrap()]);
    assert!(files.contains("(3 by arXiv id)"), "each export's id was read: {files}");
    let text = ok(&lib, &["seed", "add", "--text", "GPU scheduling for LLM inference serving"]);
    assert_eq!(text.trim(), "profile \"default\": 1 new seed(s) (1 sentence); 1 embedded");
    ok(&lib, &["seed", "add", "2507.07114", "--negative"]);
    // Said truthfully: nothing new, and a library paper's vector is reused.
    let again = ok(&lib, &["seed", "add", "2507.07114", "--negative"]);
    assert_eq!(
        again.trim(),
        "profile \"default\": 0 new negative seed(s), 1 already there, updated (1 by arXiv id); no text needed embedding"
    );
    ok(&lib, &["seed", "add", "2401.00001", "--title", "A paper not in the library", "--weight", "0.5"]);
    let unknown = ps(&lib, &["seed", "add", "2401.00002"]);
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("not in the library"));

    let list = ok(&lib, &["seed", "list"]);
    assert_eq!(list.lines().count(), 6, "{list}");
    // The bib entry had no abstract: it is borrowed from the library.
    let kv = list.lines().find(|l| l.starts_with("2507.07400")).unwrap();
    assert!(!kv.contains("title only"), "{kv}");
    // The sentence is called one, not "title only".
    assert!(list.lines().any(|l| l.starts_with("text:") && l.contains("[sentence]")), "{list}");
    assert!(!list.lines().any(|l| l.starts_with("text:") && l.contains("title only")), "{list}");
    assert!(list.lines().any(|l| l.starts_with("2507.07114") && l.contains("negative")));
    assert!(list.lines().any(|l| l.starts_with("2401.00001") && l.contains("weight 0.5")));
    assert!(ok(&lib, &["seed", "list", "--profile", "other"]).contains("no seeds"));

    for method in ["centroid", "decayed-mean", "knn", "logistic"] {
        let picks =
            json_lines(&ok(&lib, &["daily", "--date", "2026-03-03", "--method", method, "--format", "json", "--top", "50", "--all"]));
        // 24 new and cross entries that day, less the seed 2603.00356 itself.
        assert_eq!(picks.len(), 23, "{method}");
        let scores: Vec<f64> = picks.iter().map(|p| p["score"].as_f64().unwrap()).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{method}: {scores:?}");
        for (i, p) in picks.iter().enumerate() {
            assert_eq!(p["rank"].as_u64().unwrap() as usize, i + 1);
            assert!(["new", "cross"].contains(&p["kind"].as_str().unwrap()));
            assert!(p["id"] != "2603.00356");
            let reasons = p["reasons"].as_array().unwrap();
            assert!(!reasons.is_empty());
            assert!(reasons.iter().all(|r| r["seed"] != "2507.07114"), "a negative seed is no reason");
            for key in ["title", "authors", "primary", "subjects", "listing_date"] {
                assert!(p.get(key).is_some(), "{key}");
            }
        }
        // On a day of LLM-serving papers, something about LLM inference leads.
        let top3: String = picks[..3].iter().map(|p| p["title"].as_str().unwrap().to_lowercase()).collect();
        assert!(top3.contains("llm") || top3.contains("inference") || top3.contains("gpu"), "{method}: {top3}");
    }

    // Replaced entries seen on an earlier day are marked.
    let replaced =
        json_lines(&ok(&lib, &["daily", "--date", "2026-03-03", "--include", "replaced", "--format", "json", "--top", "100", "--all"]));
    assert!(replaced.iter().all(|p| p["kind"] == "replaced"));
    let seen = replaced.iter().find(|p| p["id"] == "2602.24237").expect("2602.24237 replaced on 2026-03-03");
    assert_eq!(seen["seen_before"], "2026-03-02");

    let table = ok(&lib, &["daily", "--top", "3", "--all"]);
    assert!(table.starts_with("2026-03-03"), "newest day by default: {table}");
    assert!(table.contains("seed \u{201c}"), "a reason names its nearest seed by title: {table}");
    let filtered = json_lines(&ok(&lib, &["daily", "--date", "2026-03-03", "--format", "json", "--min-score", "0.25"]));
    assert!(filtered.iter().all(|p| p["score"].as_f64().unwrap() >= 0.25));

    // A day the library has no listing of is a typo or a weekend, not an
    // empty digest: one error that names the days there are.
    let missing = ps(&lib, &["daily", "--date", "2026-11-22"]);
    let err = String::from_utf8_lossy(&missing.stderr);
    assert!(!missing.status.success() && missing.stdout.is_empty());
    assert!(err.contains("no listing on 2026-11-22; the newest days are 2026-03-03"), "{err}");

    let md = ok(&lib, &["daily", "--format", "markdown", "--top", "2", "--all"]);
    assert!(md.starts_with("# arXiv digest for 2026-03-03") && md.contains("](https://arxiv.org/abs/"));
    // Every pick has its PDF a click away, in the e-mail's text part too.
    assert_eq!(md.matches("· [PDF](https://arxiv.org/pdf/").count(), 2, "{md}");

    let html_path = dir.path().join("digest.html");
    ok(&lib, &["daily", "--format", "html", "--out", html_path.to_str().unwrap(), "--top", "5", "--all"]);
    let html = std::fs::read_to_string(&html_path).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    assert_eq!(html.matches("<article>").count(), 5);
    assert!(html.contains("href=\"https://arxiv.org/abs/") && html.contains("<details>"));
    assert_eq!(html.matches("<a href=\"https://arxiv.org/pdf/").count(), 5, "a PDF link per pick");
    // Self-contained: nothing is loaded from elsewhere.
    assert!(!html.contains("<script") && !html.contains("<link") && !html.contains("src="));

    ok(&lib, &["seed", "rm", "2401.00001"]);
    assert_eq!(ok(&lib, &["seed", "list"]).lines().count(), 5);
    assert!(!ps(&lib, &["seed", "rm", "2401.00001"]).status.success());
}
