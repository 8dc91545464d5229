//! Listings are written by strangers: whatever a title, author list or
//! abstract holds (terminal escape sequences, BEL, `<script>`, `onerror=`,
//! `javascript:` links), no output of `parse` or `daily` may carry it out
//! as something a terminal or a browser acts on, and no visible word may
//! be lost on the way.

use crate::common;

use crate::common::{ok, output};
use std::path::Path;
use std::process::Command;

/// `paperscout parse ARGS` (which takes no library).
fn parse(args: &[&str]) -> String {
    let o = Command::new(common::BIN).arg("parse").args(args).output().expect("run paperscout");
    assert!(o.status.success(), "parse {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    assert_no_controls("parse stderr", &String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).expect("UTF-8")
}

const EVIL_TITLE: &str = "Red \u{1b}[31malert\u{1b}[0m title\u{7} <script>alert(1)</script> [click](javascript:alert(2)) <img src=x onerror=alert(3)> <a href=\"javascript:alert(4)\">here</a>";
const EVIL_AUTHOR: &str = "Mallory \u{1b}]0;pwned\u{7}Smith";
const EVIL_ABSTRACT: &str =
    "First \u{1b}[2Jparagraph with a<b and x > y and \u{9b}6n.\n  Second paragraph \u{7}with javascript:alert(5) and <b>bold</b>.";

fn jsonl_listing(dir: &Path) -> String {
    let first = serde_json::json!({
        "id": "2603.09001", "title": EVIL_TITLE, "abstract": EVIL_ABSTRACT,
        "authors": [EVIL_AUTHOR, "Eve <script>x</script>"], "categories": ["cs.DC"], "date": "2026-03-09",
    });
    common::hostile_listing(dir, first).to_string_lossy().into_owned()
}

/// The same paper in an RSS feed, where fields may carry HTML.
fn rss_listing(dir: &Path) -> String {
    let esc = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let rss = format!(
        "<?xml version='1.0'?><rss xmlns:dc='http://purl.org/dc/elements/1.1/' version='2.0'><channel><title>cs.DC updates</title>\
         <pubDate>Mon, 09 Mar 2026 00:00:00 -0500</pubDate><item><title>{}</title><link>https://arxiv.org/abs/2603.09001</link>\
         <description>arXiv:2603.09001v1 Announce Type: new \nAbstract: {}</description><category>cs.DC</category>\
         <dc:creator>{}</dc:creator></item></channel></rss>",
        esc(EVIL_TITLE),
        esc(EVIL_ABSTRACT),
        esc(EVIL_AUTHOR)
    );
    let path = dir.join("evil.rss");
    std::fs::write(&path, rss).unwrap();
    path.to_string_lossy().into_owned()
}

/// Nothing a terminal obeys: C0 controls other than newline, DEL, C1.
fn assert_no_controls(what: &str, out: &str) {
    let bad: Vec<char> = out.chars().filter(|&c| c.is_control() && c != '\n').collect();
    assert!(bad.is_empty(), "{what}: control characters {bad:?} in\n{out}");
}

/// The reader's server that `--link-base` names for the rating links.
const LINK_BASE: &str = "http://lab.example:8080";

/// Nothing a browser or a Markdown renderer turns into markup: no tag of
/// the listing's, and every link goes to the paper's arXiv abstract page or
/// PDF, or with `--link-base` to the paper's page on that server.
fn assert_no_markup(what: &str, out: &str, link_base: Option<&str>) {
    let lower = out.to_ascii_lowercase();
    for tag in ["<script", "<img", "<a href=\"javascript", "onerror=alert(3)>"] {
        assert!(!lower.contains(tag), "{what}: {tag} in\n{out}");
    }
    let mut allowed = vec!["https://arxiv.org/abs/".to_string(), "https://arxiv.org/pdf/".to_string()];
    allowed.extend(link_base.map(|b| format!("{b}/paper/")));
    if what.contains("markdown") {
        for (at, _) in out.match_indices("](") {
            let escaped = out[..at].ends_with('\\');
            let to = &out[at + 2..];
            assert!(escaped || allowed.iter().any(|a| to.starts_with(a.as_str())), "{what}: a link in\n{out}");
        }
    }
    for (at, _) in lower.match_indices("<a ") {
        let to = &lower[at..];
        assert!(allowed.iter().any(|a| to.starts_with(&format!("<a href=\"{a}"))), "{what}: a link in\n{out}");
    }
    assert_eq!(out.contains(&format!("{LINK_BASE}/paper/")), link_base.is_some(), "{what}: rating links\n{out}");
}

/// The visible words of the evil paper, as each output shows them.
fn assert_words(what: &str, out: &str, words: &[&str]) {
    for w in words {
        assert!(out.contains(w), "{what}: {w:?} lost from\n{out}");
    }
}

#[test]
fn hostile_listings_reach_no_terminal_or_browser_as_markup() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    let jsonl = jsonl_listing(dir.path());
    let rss = rss_listing(dir.path());

    // parse: the table and JSON of both formats.
    for file in [&jsonl, &rss] {
        let table = parse(&[file]);
        assert_no_controls("parse table", &table);
        assert_words("parse table", &table, &["Red [31malert[0m title", "Mallory ]0"]);
        for line in parse(&[file, "--json"]).lines() {
            assert_no_controls("parse --json", line);
            let p: serde_json::Value = serde_json::from_str(line).unwrap();
            for field in [&p["title"], &p["abstract"], &p["authors"][0]] {
                assert_no_controls("parse --json field", field.as_str().unwrap());
            }
        }
    }
    // A JSON string is text: every character but the controls is kept.
    let p: serde_json::Value = serde_json::from_str(parse(&[&jsonl, "--json"]).lines().next().unwrap()).unwrap();
    let no_controls = |s: &str| s.chars().filter(|c| !c.is_control()).collect::<String>();
    assert_eq!(p["title"], no_controls(EVIL_TITLE));
    assert_eq!(p["authors"][0], "Mallory ]0;pwnedSmith");
    assert_eq!(p["abstract"], "First [2Jparagraph with a<b and x > y and 6n.\nSecond paragraph with javascript:alert(5) and <b>bold</b>.");

    // daily: every format, the evil paper ranked first by a seed made of it.
    ok(&lib, &["ingest", &jsonl]);
    ok(&lib, &["seed", "add", "--text", "Red alert title script click image here"]);
    // The RSS day with rating links to a server, the JSONL day without.
    for file in [&jsonl, &rss] {
        let link_base = (file == &rss).then_some(LINK_BASE);
        for format in ["table", "json", "markdown", "html"] {
            let mut args = vec!["daily", file, "--format", format, "--top", "10", "--all"];
            if let Some(base) = link_base {
                args.extend(["--link-base", base]);
            }
            let o = output(&lib, &args);
            assert!(o.status.success(), "{format}: {}", String::from_utf8_lossy(&o.stderr));
            let out = String::from_utf8(o.stdout).unwrap();
            let what = format!("daily {format} of {file}");
            assert_no_controls(&what, &out);
            assert_no_controls(&what, &String::from_utf8_lossy(&o.stderr));
            match format {
                "markdown" => {
                    assert_no_markup(&what, &out, link_base);
                    assert!(
                        out.contains("Red \\[31malert\\[0m title alert(1)")
                            || out.contains("Red \\[31malert\\[0m title &lt;script&gt;alert(1)"),
                        "{out}"
                    );
                    assert!(
                        out.contains("(https://arxiv.org/abs/2603.09001v1)") || out.contains("(https://arxiv.org/abs/2603.09001)"),
                        "{out}"
                    );
                }
                "html" => {
                    assert_no_markup(&what, &out, link_base);
                    assert_words(&what, &out, &["Red [31malert[0m title", "alert(1)", "Mallory ]0"]);
                }
                "json" => {
                    for line in out.lines() {
                        let p: serde_json::Value = serde_json::from_str(line).unwrap();
                        assert_no_controls(&what, p["title"].as_str().unwrap());
                        let like = p["like_url"].as_str().unwrap_or("");
                        assert_eq!(like.starts_with(&format!("{LINK_BASE}/paper/")), link_base.is_some(), "{what}: {line}");
                    }
                }
                _ => assert_words(&what, &out, &["Red [31malert[0m title"]),
            }
        }
    }
}

/// An error quotes at most about 80 characters of the offending text: a
/// 52 MB line in an id list once came back whole in the message.
#[test]
fn errors_quote_only_a_little_of_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    let huge = "x".repeat(5_000_000);
    let ids = dir.path().join("ids.txt");
    std::fs::write(&ids, format!("2603.00356\n{huge}\n")).unwrap();
    // Seeds go into an existing library.
    let first = dir.path().join("first.jsonl");
    std::fs::write(&first, format!("{}\n", serde_json::json!({"id": "2603.09001", "title": "A first paper"}))).unwrap();
    ok(&lib, &["ingest", first.to_str().unwrap()]);
    let o = output(&lib, &["seed", "add", ids.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("ids.txt:2:") && err.contains("5000000 bytes"), "{}", &err[..err.len().min(300)]);
    assert!(err.len() < 400, "{} bytes of error", err.len());

    let jsonl = dir.path().join("bad-id.jsonl");
    let good = serde_json::json!({"id": "2603.09002", "title": "Fine"});
    let bad = serde_json::json!({"id": huge, "title": "Bad id"});
    std::fs::write(&jsonl, format!("{good}\n{bad}\n")).unwrap();
    let o = Command::new(common::BIN).args(["parse", jsonl.to_str().unwrap()]).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success() && err.contains("bad-id.jsonl:2:") && err.contains("not an arXiv id"), "{}", &err[..err.len().min(300)]);
    assert!(err.len() < 400, "{} bytes of warning", err.len());
}

/// `paperscout parse … | head -1`: the reader leaving is no failure. The
/// read end is closed before the child writes, through a command's own
/// writer (`parse`, `daily`'s writers) and through `println!` (`seed list`).
#[test]
fn a_closed_pipe_is_a_quiet_success() {
    use std::process::Stdio;
    let closed = |mut cmd: Command| {
        let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("run paperscout");
        drop(child.stdout.take());
        let o = child.wait_with_output().expect("wait");
        (o.status, String::from_utf8_lossy(&o.stderr).into_owned())
    };
    // 1,141 papers: far more than a pipe holds.
    let big = common::root().join("../shared/real-documents/mailing-cs-AI-LG-SE-2026-01-20-full.txt");
    for json in [true, false] {
        let mut cmd = Command::new(common::BIN);
        cmd.arg("parse").arg(&big);
        if json {
            cmd.arg("--json");
        }
        let (status, err) = closed(cmd);
        assert!(status.success(), "parse (json {json}): {status} {err}");
        assert!(!err.contains("Broken pipe") && !err.contains("panicked"), "{err}");
    }
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    let one = dir.path().join("one.jsonl");
    std::fs::write(&one, format!("{}\n", serde_json::json!({"id": "2603.09001", "title": "A paper"}))).unwrap();
    ok(&lib, &["ingest", "--no-embed", one.to_str().unwrap()]);
    let (status, err) = closed(common::command(&lib, &["seed", "list"]));
    assert!(status.success(), "seed list: {status} {err}");
    assert!(!err.contains("Broken pipe") && !err.contains("panicked"), "{err}");
}
