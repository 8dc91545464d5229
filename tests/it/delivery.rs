//! Delivery where researchers read: the Atom feed (CLI and server, read
//! back with a feed parser), e-mail through an SMTP sink on loopback (read
//! back with a mail parser), BibTeX/RIS export and its round trip, the
//! weekly roll-up, and Zotero's database as a live seed source. On the
//! fixture library with the real model.

use crate::common;

use crate::common::{add_item, demo_library, json_lines, ok, output, zotero_db, Server};
use rusqlite::Connection;
use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::Path;

const DAY: &str = "2026-03-03";

fn picks(lib: &Path, extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["daily", "--format", "json", "--date", DAY, "--top", "12", "--all"];
    args.extend_from_slice(extra);
    json_lines(&ok(lib, &args)).into_iter().filter(|p| p["section"] == "pick").collect()
}

#[test]
fn atom_feed_reads_back_as_the_picks_and_serve_gives_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let want = picks(&lib, &[]);
    assert_eq!(want.len(), 12);
    let atom = ok(&lib, &["daily", "--format", "atom", "--date", DAY, "--top", "12", "--all"]);
    let feed = feed_rs::parser::parse(atom.as_bytes()).expect("a feed reader reads it");
    assert_eq!(feed.feed_type, feed_rs::model::FeedType::Atom);
    assert_eq!(feed.id, "urn:paperscout:feed:default");
    assert_eq!(feed.updated.unwrap().to_rfc3339(), "2026-03-03T00:00:00+00:00");
    assert_eq!(feed.entries.len(), want.len());
    for (e, p) in feed.entries.iter().zip(&want) {
        let id = p["id"].as_str().unwrap();
        assert_eq!(e.id, format!("https://arxiv.org/abs/{id}"), "stable, unversioned ids");
        assert_eq!(e.title.as_ref().unwrap().content, p["title"].as_str().unwrap());
        let authors: Vec<&str> = e.authors.iter().map(|a| a.name.as_deref().unwrap_or("")).collect();
        let want_authors: Vec<&str> = p["authors"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
        assert_eq!(authors, want_authors);
        let links: Vec<(&str, &str)> = e.links.iter().map(|l| (l.rel.as_deref().unwrap_or(""), l.href.as_str())).collect();
        assert!(links.contains(&("alternate", format!("https://arxiv.org/abs/{id}").as_str())), "{links:?}");
        assert!(links.contains(&("related", format!("https://arxiv.org/pdf/{id}").as_str())), "{links:?}");
        let summary = &e.summary.as_ref().unwrap().content;
        let reason = &p["reasons"][0];
        // A pick says how sure it is; a weak one does not call its seed close.
        let says = match p["strength"].as_str().unwrap() {
            "weak" => "weak: nearest seed",
            "worth-a-look" => "worth a look: close to your seed",
            _ => "strong: close to your seed",
        };
        assert!(summary.contains(says) && summary.contains(reason["title"].as_str().unwrap().get(..20).unwrap()), "{summary}");
        // Its TeX shown as read, as on the page.
        assert!(summary.ends_with(&*paperscout::report::math::display(p["abstract"].as_str().unwrap())), "{summary}");
        assert_eq!(e.updated.unwrap().to_rfc3339(), "2026-03-03T00:00:00+00:00");
    }

    // The server renders through the same function: the same bytes as
    // `daily` with the server as the link base, its 👍/👎 leading back to it.
    let server = Server::start(&lib);
    let (status, served) = server.get(&format!("/feed.atom?profile=default&date={DAY}&top=12&all=1"));
    assert_eq!(status, 200, "{served}");
    assert_eq!(served, ok(&lib, &["daily", "--format", "atom", "--date", DAY, "--top", "12", "--all", "--link-base", &server.url]));
    let first = want[0]["id"].as_str().unwrap();
    // In the entry's HTML content, itself escaped in XML.
    assert!(served.contains(&format!("{}/paper/{first}?profile=default&amp;amp;rate=up", server.url)), "{served}");
    let (status, _) = server.get("/feed.atom?profile=no%20such");
    assert_eq!(status, 400);
    // Feed readers find it from any page.
    let (_, page) = server.get("/");
    assert!(
        page.contains(
            &format!(r#"<link rel="alternate" type="application/atom+xml" title="paperscout: default" href="/feed.atom?profile=default&amp;token={}">"#, server.token.clone().unwrap())
        ),
        "{page}"
    );
}

/// `daily --link-base`: each pick's 👍 and 👎 lead to its page on the
/// reader's server, in every digest a person reads; without the option no
/// such link; a bad base is one line of error.
#[test]
fn rating_links_lead_to_the_server_in_html_markdown_atom_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let base = "http://lab.example:8080/";
    let daily = |format: &str, extra: &[&str]| {
        let mut args = vec!["daily", "--format", format, "--date", DAY, "--top", "12", "--all"];
        args.extend_from_slice(extra);
        ok(&lib, &args)
    };
    let link = |id: &str, profile: &str, rate: &str| format!("http://lab.example:8080/paper/{id}?profile={profile}&rate={rate}");
    let with = ["--link-base", base];

    let json = json_lines(&daily("json", &with));
    let ids: Vec<&str> = json.iter().filter(|p| p["section"] == "pick").map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), 12);
    for p in json.iter().filter(|p| p["section"] == "pick") {
        let id = p["id"].as_str().unwrap();
        assert_eq!(p["like_url"], link(id, "default", "up"));
        assert_eq!(p["dislike_url"], link(id, "default", "down"));
    }
    let html = daily("html", &with);
    let markdown = daily("markdown", &with);
    let atom = daily("atom", &with);
    let feed = feed_rs::parser::parse(atom.as_bytes()).expect("a feed reader reads it");
    assert_eq!(feed.entries.len(), 12);
    for (id, e) in ids.iter().zip(&feed.entries) {
        let (up, down) = (link(id, "default", "up"), link(id, "default", "down"));
        // HTML escapes the `&`, in the page and in the feed's HTML content.
        let (up_html, down_html) = (up.replace('&', "&amp;"), down.replace('&', "&amp;"));
        assert!(html.contains(&format!("<a href=\"{up_html}\" aria-label=\"Like: ")), "{id}: {html}");
        assert!(html.contains(&format!("<a href=\"{down_html}\" aria-label=\"Not interested: ")), "{id}: {html}");
        assert!(markdown.contains(&format!(" · [👍]({up}) [👎]({down})  \n")), "{id}: {markdown}");
        assert_eq!(e.id, format!("https://arxiv.org/abs/{id}"));
        let content = e.content.as_ref().and_then(|c| c.body.as_deref()).expect("an HTML content");
        assert!(
            content.contains(&format!("<a href=\"{up_html}\">👍 Like</a> · <a href=\"{down_html}\">👎 Not interested</a>")),
            "{content}"
        );
        assert!(content.starts_with("<p>#"), "the summary comes first: {content}");
    }
    assert!(!html.contains("&rate=") && !atom.contains("&rate="), "an unescaped & in HTML");

    // The links name the digest's profile, under a base with a path.
    ok(&lib, &["seed", "add", ids[0], "--profile", "lab-2.b"]);
    let md =
        ok(&lib, &["daily", "--format", "markdown", "--date", DAY, "--profile", "lab-2.b", "--link-base", "https://lab.example/scout"]);
    assert!(md.contains("[👎](https://lab.example/scout/paper/") && md.contains("?profile=lab-2.b&rate=down)"), "{md}");

    // Without the option: no rating link anywhere.
    for format in ["html", "markdown", "atom", "json"] {
        let out = daily(format, &[]);
        assert!(!out.contains("lab.example") && !out.contains('👍') && !out.contains("like_url"), "{format}: {out}");
    }

    // A bad base: one line naming the option, and no digest.
    for bad in ["ftp://x", "not a url", "http://h/?q=1", "http://h/#frag", "https://user:pw@h/"] {
        let o = output(&lib, &["daily", "--format", "html", "--date", DAY, "--link-base", bad]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && o.stdout.is_empty(), "{bad}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{bad}: {err}");
        assert!(err.starts_with("error: --link-base") && !err.contains("pw@"), "{bad}: {err}");
    }
}

const EVIL_TITLE: &str = "Evil ]]> </title><entry><id>x</id> & <script>alert(1)</script> } @misc{x, \\input{a} % $ _ ^ ~ \u{1b}[31m";
const EVIL_ABSTRACT: &str = "Line one \u{7}with a<b.\nER  - \nTY  - JOUR\n}} and more.";

/// A library whose one day holds a hostile paper and three plain ones.
fn hostile_library(dir: &Path) -> std::path::PathBuf {
    let lib = dir.join("lib");
    let path = common::hostile_listing(
        dir,
        serde_json::json!({
            "id": "2603.09001", "title": EVIL_TITLE, "abstract": EVIL_ABSTRACT,
            "authors": ["Mallory </name></author>", "Eve and Trent"], "categories": ["cs.DC"], "date": "2026-03-09",
        }),
    );
    ok(&lib, &["ingest", path.to_str().unwrap()]);
    ok(&lib, &["seed", "add", "--text", "Evil title script alert input"]);
    lib
}

#[test]
fn hostile_text_stays_text_in_atom_bibtex_and_ris() {
    let dir = tempfile::tempdir().unwrap();
    let lib = hostile_library(dir.path());
    let no_controls = |s: &str| s.chars().filter(|c| !c.is_control()).collect::<String>();

    let atom = ok(&lib, &["daily", "--format", "atom", "--all"]);
    let feed = feed_rs::parser::parse(atom.as_bytes()).expect("the feed stays well-formed");
    assert_eq!(feed.entries.len(), 4, "no entry injected");
    let evil = feed.entries.iter().find(|e| e.id == "https://arxiv.org/abs/2603.09001").expect("the hostile paper");
    // Text still, its TeX shown as read (`\input{a}` as a).
    assert_eq!(evil.title.as_ref().unwrap().content, paperscout::report::math::display(&no_controls(EVIL_TITLE)));
    assert_eq!(evil.authors[0].name.as_deref(), Some("Mallory </name></author>"));
    let stored = json_lines(&ok(&lib, &["daily", "--format", "json", "--all"]));
    let abs = stored.iter().find(|p| p["id"] == "2603.09001").unwrap()["abstract"].as_str().unwrap().to_string();
    assert!(abs.contains("ER - TY - JOUR }}"), "{abs:?}");
    assert!(evil.summary.as_ref().unwrap().content.ends_with(&abs));
    assert!(!atom.contains("<script>") && !atom.contains("]]>"), "{atom}");

    // BibTeX: one entry per pick, the text back as written (braces are
    // markup to a BibTeX reader), read by the same parser `seed add` uses.
    let bib = ok(&lib, &["daily", "--format", "bibtex", "--all"]);
    let file = dir.path().join("picks.bib");
    std::fs::write(&file, &bib).unwrap();
    ok(&lib, &["seed", "add", file.to_str().unwrap(), "--profile", "back"]);
    let back = json_lines(&ok(&lib, &["seed", "list", "--json", "--profile", "back"]));
    assert_eq!(back.len(), 4, "{bib}");
    let evil = back.iter().find(|s| s["key"] == "2603.09001").unwrap();
    let flat = |s: &str| no_controls(&s.replace(['{', '}'], "")).split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(evil["title"], flat(EVIL_TITLE), "{bib}");
    assert_eq!(evil["abstract"], flat(&EVIL_ABSTRACT.replace('\n', " ")), "{bib}");

    // RIS: one tag per line, so a line break in a field cannot start a record.
    let ris = ok(&lib, &["daily", "--format", "ris", "--all"]);
    assert_eq!(ris.matches("TY  - ").count(), 4, "{ris}");
    assert_eq!(ris.matches("\nER  - ").count() + usize::from(ris.starts_with("ER  - ")), 4, "{ris}");
    for line in ris.lines().filter(|l| !l.is_empty()) {
        assert!(line.as_bytes()[..2].iter().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit()) && &line[2..6] == "  - ", "{line:?}");
        assert!(!line.chars().any(char::is_control), "{line:?}");
    }
    assert!(ris.contains("AB  - Line one with a<b. ER - TY - JOUR }} and more.\n"), "{ris}");
}

#[test]
fn exported_seeds_and_picks_read_back_as_the_same_seeds() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let strip = |v: Vec<Value>| -> Vec<(String, String, String)> {
        v.iter()
            .map(|s| (s["key"].as_str().unwrap().into(), s["title"].as_str().unwrap().into(), s["abstract"].as_str().unwrap().into()))
            .collect()
    };
    let seeds = strip(json_lines(&ok(&lib, &["seed", "list", "--json"])));
    assert_eq!(seeds.len(), 3);
    let bib = ok(&lib, &["seed", "list", "--format", "bibtex"]);
    let file = dir.path().join("seeds.bib");
    std::fs::write(&file, &bib).unwrap();
    ok(&lib, &["seed", "add", file.to_str().unwrap(), "--profile", "copy"]);
    // Same keys, texts and order (newest first), so the same profile.
    assert_eq!(strip(json_lines(&ok(&lib, &["seed", "list", "--json", "--profile", "copy"]))), seeds, "{bib}");
    let ranked =
        |profile: &str| picks(&lib, &["--profile", profile]).iter().map(|p| (p["id"].clone(), p["score"].clone())).collect::<Vec<_>>();
    assert_eq!(ranked("copy"), ranked("default"));

    // RIS of the seeds: one record each, with the arXiv links.
    let ris = ok(&lib, &["seed", "list", "--format", "ris"]);
    assert_eq!(ris.matches("TY  - ").count(), 3);
    assert!(ris.contains("UR  - https://arxiv.org/abs/2507.07400\n") && ris.contains("DO  - 10.48550/arXiv.2507.07400\n"), "{ris}");

    // The picks as BibTeX: `seed add` of them gives those papers as seeds.
    let want = picks(&lib, &[]);
    let bib = ok(&lib, &["daily", "--format", "bibtex", "--date", DAY, "--top", "12", "--all"]);
    let file = dir.path().join("picks.bib");
    std::fs::write(&file, &bib).unwrap();
    ok(&lib, &["seed", "add", file.to_str().unwrap(), "--profile", "picks"]);
    let mut got: Vec<String> = json_lines(&ok(&lib, &["seed", "list", "--json", "--profile", "picks"]))
        .iter()
        .map(|s| s["key"].as_str().unwrap().to_string())
        .collect();
    let mut ids: Vec<String> = want.iter().map(|p| p["id"].as_str().unwrap().to_string()).collect();
    got.sort();
    ids.sort();
    assert_eq!(got, ids);
    assert!(bib.contains("note = {weak: nearest seed") || bib.contains("close to your seed"), "{bib}");
}

#[test]
fn since_ranks_the_days_together_each_paper_once() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let all = |extra: &[&str]| {
        let mut args = vec!["daily", "--format", "json", "--top", "500", "--all"];
        args.extend_from_slice(extra);
        json_lines(&ok(&lib, &args))
    };
    let week = all(&["--since", "2026-03-01"]);
    let (mon, tue) = (all(&["--date", "2026-03-02"]), all(&["--date", "2026-03-03"]));
    let ids = |v: &[Value]| v.iter().map(|p| p["id"].as_str().unwrap().to_string()).collect::<Vec<_>>();
    let mut unique = ids(&week);
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), week.len(), "each paper once");
    let mut both: Vec<String> = ids(&mon).into_iter().chain(ids(&tue)).collect();
    both.sort();
    both.dedup();
    assert_eq!(unique, both, "every paper of both days");
    for p in &week {
        let id = p["id"].as_str().unwrap().to_string();
        let first = if ids(&mon).contains(&id) { "2026-03-02" } else { "2026-03-03" };
        assert_eq!(p["listing_date"], first, "{id}: its first listing");
    }
    let ranks: Vec<u64> = week.iter().map(|p| p["rank"].as_u64().unwrap()).collect();
    assert!(ranks.windows(2).all(|w| w[0] < w[1]), "in the week's order: {ranks:?}");
    assert!(week.len() > mon.len().max(tue.len()), "{} vs {} + {}", week.len(), mon.len(), tue.len());
    let table = ok(&lib, &["daily", "--since", "2026-03-01", "--top", "3", "--all"]);
    assert!(table.starts_with("2026-03-02 to 2026-03-03 — 3 of"), "{table}");
    let o = output(&lib, &["daily", "--since", "2027-01-01"]);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("no listings on or after 2027-01-01"));
    let o = output(&lib, &["daily", "--since", "2026-02-30"]);
    assert!(!o.status.success());
}

/// What the sink was told.
#[derive(Default, Debug)]
pub(crate) struct Received {
    auth: Vec<String>,
    from: String,
    pub(crate) to: Vec<String>,
    pub(crate) data: Vec<u8>,
}

/// A plain SMTP receiver on loopback (no TLS: this is the test's own
/// machine), enough of RFC 5321 for one message: EHLO, AUTH, MAIL, RCPT,
/// DATA, QUIT.
pub(crate) fn smtp_sink() -> (String, std::thread::JoinHandle<Received>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("smtp://127.0.0.1:{}", listener.local_addr().unwrap().port());
    let handle = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        stream.set_read_timeout(Some(std::time::Duration::from_secs(120))).unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut w = stream;
        let mut got = Received::default();
        w.write_all(b"220 sink ESMTP\r\n").unwrap();
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap() == 0 {
                break;
            }
            let cmd = line.trim_end().to_string();
            let verb = cmd.split_whitespace().next().unwrap_or("").to_ascii_uppercase();
            let reply: &[u8] = match verb.as_str() {
                "EHLO" => b"250-sink\r\n250-AUTH PLAIN\r\n250 8BITMIME\r\n",
                "HELO" | "RSET" | "NOOP" => b"250 ok\r\n",
                "AUTH" => {
                    got.auth.push(cmd);
                    b"235 welcome\r\n"
                }
                "MAIL" => {
                    got.from = cmd;
                    b"250 ok\r\n"
                }
                "RCPT" => {
                    got.to.push(cmd);
                    b"250 ok\r\n"
                }
                "DATA" => {
                    w.write_all(b"354 go on\r\n").unwrap();
                    loop {
                        let mut l = Vec::new();
                        reader.read_until(b'\n', &mut l).unwrap();
                        if l == b".\r\n" || l.is_empty() {
                            break;
                        }
                        // A leading dot was doubled by the sender.
                        got.data.extend_from_slice(if l.starts_with(b"..") { &l[1..] } else { &l });
                    }
                    b"250 queued\r\n"
                }
                "QUIT" => {
                    w.write_all(b"221 bye\r\n").unwrap();
                    break;
                }
                _ => b"502 not here\r\n",
            };
            w.write_all(reply).unwrap();
        }
        got
    });
    (url, handle)
}

#[test]
fn the_digest_arrives_by_mail_as_text_and_html() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let want = picks(&lib, &[]);
    let secret = dir.path().join("smtp-password");
    std::fs::write(&secret, "s3cret-from-file\n").unwrap();
    let (url, sink) = smtp_sink();
    let out_file = dir.path().join("digest.html");
    let o = common::command(
        &lib,
        &[
            "daily",
            "--date",
            DAY,
            "--top",
            "12",
            "--all",
            "--mail-to",
            "reader@example.org",
            "--format",
            "html",
            "--out",
            out_file.to_str().unwrap(),
            "--link-base",
            "https://lab.example",
        ],
    )
    .env("PAPERSCOUT_SMTP", &url)
    .env("PAPERSCOUT_SMTP_USER", "digest@example.org")
    .env("PAPERSCOUT_SMTP_PASSWORD_FILE", &secret)
    .env_remove("PAPERSCOUT_SMTP_PASSWORD")
    .output()
    .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stdout.is_empty(), "mailed, so nothing on stdout");
    assert!(std::fs::read_to_string(&out_file).unwrap().contains("<h1>arXiv digest for 2026-03-03</h1>"));
    let got = sink.join().unwrap();
    // The password came from the file named in the environment.
    assert_eq!(got.auth, ["AUTH PLAIN AGRpZ2VzdEBleGFtcGxlLm9yZwBzM2NyZXQtZnJvbS1maWxl"]);
    assert!(got.from.contains("<digest@example.org>") && got.to == ["RCPT TO:<reader@example.org>"], "{got:?}");

    let msg = mail_parser::MessageParser::default().parse(&got.data).expect("a parsable message");
    assert_eq!(msg.subject(), Some("paperscout: 12 papers for 2026-03-03"));
    assert_eq!(msg.text_body.len(), 1);
    assert_eq!(msg.html_body.len(), 1);
    let text = msg.body_text(0).unwrap();
    let html = msg.body_html(0).unwrap();
    assert!(html.contains("<h1>arXiv digest for 2026-03-03</h1>"), "{html}");
    assert!(text.starts_with("# arXiv digest for 2026-03-03"), "{text}");
    for p in &want {
        let id = p["id"].as_str().unwrap();
        assert!(text.contains(&format!("https://arxiv.org/abs/{id}")), "{id} missing from the text part");
        assert!(html.contains(&format!("https://arxiv.org/abs/{id}")), "{id} missing from the HTML part");
        let title = p["title"].as_str().unwrap().replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
        assert!(html.contains(&title), "{title}");
        // 👍 and 👎 lead to the paper's page on the reader's server.
        let up = format!("https://lab.example/paper/{id}?profile=default&rate=up");
        assert!(text.contains(&format!("[👍]({up})")), "{id}: no 👍 in the text part");
        assert!(html.contains(&format!("href=\"{}\"", up.replace('&', "&amp;"))), "{id}: no 👍 in the HTML part");
    }
}

#[test]
fn a_failed_send_is_one_error_and_the_file_is_still_written() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    // A port nobody listens on.
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let out_file = dir.path().join("digest.md");
    let run = |smtp: &str, extra: &[(&str, &str)]| {
        let mut c = common::command(
            &lib,
            &[
                "daily",
                "--date",
                DAY,
                "--mail-to",
                "reader@example.org",
                "--format",
                "markdown",
                "--out",
                out_file.to_str().unwrap(),
                "--smtp",
                smtp,
            ],
        );
        c.env_remove("PAPERSCOUT_SMTP_USER").env_remove("PAPERSCOUT_SMTP_PASSWORD").env_remove("PAPERSCOUT_SMTP_PASSWORD_FILE");
        for (k, v) in extra {
            c.env(k, v);
        }
        c.output().unwrap()
    };
    let o = run(&format!("smtp://127.0.0.1:{port}"), &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(err.contains(&format!("cannot send the digest through smtp://127.0.0.1:{port}")), "{err}");
    assert!(std::fs::read_to_string(&out_file).unwrap().starts_with("# arXiv digest for 2026-03-03"));

    // STARTTLS required by the URL, and a server that does not offer it:
    // nothing is sent in the clear.
    let (url, sink) = smtp_sink();
    let o = run(&format!("{url}?tls=required"), &[("PAPERSCOUT_SMTP_USER", "me@example.org"), ("PAPERSCOUT_SMTP_PASSWORD", "hunter2")]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("cannot send the digest through"), "{err}");
    let got = sink.join().unwrap();
    assert!(got.auth.is_empty() && got.data.is_empty(), "{got:?}");

    // No password on the command line, no clear text across the network, no half-set login.
    let o = run("smtps://me:hunter2@mail.example.org", &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("must not hold a user name or password") && !err.contains("hunter2"), "{err}");
    let o = run("smtp://mail.example.org:25", &[]);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("in the clear"));
    let o = run(&format!("smtp://127.0.0.1:{port}"), &[("PAPERSCOUT_SMTP_USER", "me")]);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("PAPERSCOUT_SMTP_PASSWORD"));
    let o =
        run(&format!("smtp://127.0.0.1:{port}"), &[("PAPERSCOUT_SMTP_USER", "me"), ("PAPERSCOUT_SMTP_PASSWORD_FILE", "/nonexistent/pw")]);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("/nonexistent/pw"));
}

#[test]
fn zotero_is_a_live_seed_source() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    let mut args = vec!["ingest".to_string()];
    args.extend(common::pages());
    ok(&lib, &args.iter().map(String::as_str).collect::<Vec<_>>());
    let db = dir.path().join("zotero.sqlite");
    let z = zotero_db(&db);
    // An arXiv URL and no abstract (the library has it), in Reading/LLM.
    add_item(
        &z,
        1,
        22,
        "AAAAAAAA",
        "2024-01-05 10:00:00",
        &[(1, "KVFlow: Efficient Prefix Caching"), (13, "http://arxiv.org/abs/2507.07400v1")],
        Some(2),
    );
    // A preprint by archive id, with its own abstract, in Reading.
    add_item(
        &z,
        2,
        30,
        "BBBBBBBB",
        "2025-06-01 08:30:00",
        &[(1, "Green or Fast? Cold starts in serverless"), (2, "Idle carbon and cold starts."), (120, "arXiv:2602.23935")],
        Some(1),
    );
    // By DOI, but in an ignored collection.
    add_item(&z, 3, 22, "CCCCCCCC", "2025-02-01 00:00:00", &[(1, "Ignored"), (26, "10.48550/arXiv.2603.00356")], Some(4));
    // Not papers, and a paper in the trash.
    add_item(&z, 4, 28, "DDDDDDDD", "2025-03-01 00:00:00", &[], Some(1));
    add_item(&z, 5, 2, "EEEEEEEE", "2025-03-01 00:00:00", &[(1, "paper.pdf")], Some(1));
    add_item(&z, 6, 22, "FFFFFFFF", "2025-03-01 00:00:00", &[(1, "Trashed"), (16, "arXiv: 2603.00100")], Some(1));
    z.execute("INSERT INTO deletedItems (itemID) VALUES (6)", []).unwrap();
    // No arXiv id at all: a text seed of its title and abstract.
    add_item(&z, 7, 7, "GGGGGGGG", "2026-01-01 12:00:00", &[(1, "A book on GPU scheduling"), (2, "Schedulers for accelerators.")], Some(1));
    // Also a seed the user added by hand: a sync leaves it alone.
    add_item(
        &z,
        8,
        22,
        "HHHHHHHH",
        "2025-01-01 00:00:00",
        &[(1, "Distributed Training under Packet Loss"), (16, "tex.ids: w\narXiv: 2507.07114")],
        Some(2),
    );
    ok(&lib, &["seed", "add", "2507.07114"]);
    let before = std::fs::read(&db).unwrap();

    let sync = |extra: &[&str]| {
        let mut a = vec![
            "seed",
            "sync",
            "zotero",
            "--db",
            db.to_str().unwrap(),
            "--collection",
            "Reading",
            "--collection",
            "Reading/**",
            "--collection",
            "!**/Old",
        ];
        a.extend_from_slice(extra);
        ok(&lib, &a)
    };
    let keys = || json_lines(&ok(&lib, &["seed", "list", "--json"]));
    let dry = sync(&["--dry-run"]);
    assert!(dry.contains("+ 2507.07400") && dry.contains("would add 3") && dry.contains("1 already seeds added otherwise"), "{dry}");
    assert_eq!(keys().len(), 1, "a dry run changes nothing");

    // Zotero is running: it holds an exclusive lock on its database.
    let running = Connection::open(&db).unwrap();
    running.execute_batch("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;").unwrap();
    let out = sync(&[]);
    assert!(out.contains("added 3, updated 0, removed 0"), "{out}");
    running.execute_batch("COMMIT;").unwrap();
    drop(running);
    assert_eq!(std::fs::read(&db).unwrap(), before, "Zotero's database is never written");

    let seeds = keys();
    let listed: Vec<(&str, &str)> = seeds.iter().map(|s| (s["key"].as_str().unwrap(), s["added"].as_str().unwrap())).collect();
    // Newest first: the hand seed (today), then by dateAdded, so the
    // decayed mean weights what the user saved last most.
    assert_eq!(listed[0].0, "2507.07114");
    assert!(listed[1].0.starts_with("text:"));
    assert_eq!(
        &listed[1..],
        &[
            (listed[1].0, "2026-01-01T12:00:00.000000Z"),
            ("2602.23935", "2025-06-01T08:30:00.000000Z"),
            ("2507.07400", "2024-01-05T10:00:00.000000Z")
        ]
    );
    let kv = seeds.iter().find(|s| s["key"] == "2507.07400").unwrap();
    assert!(!kv["abstract"].as_str().unwrap().is_empty(), "the library's abstract stands in");
    assert_eq!(kv["origin"], "zotero (AAAAAAAA)");
    assert_eq!(seeds[0]["origin"], "library");
    assert!(!picks(&lib, &[]).is_empty(), "the synced seeds are embedded and rank");

    // Zotero changes: one item trashed, one removed, one added.
    z.execute("INSERT INTO deletedItems (itemID) VALUES (2)", []).unwrap();
    z.execute("DELETE FROM collectionItems WHERE itemID = 8", []).unwrap();
    z.execute("DELETE FROM itemData WHERE itemID = 8", []).unwrap();
    z.execute("DELETE FROM items WHERE itemID = 8", []).unwrap();
    add_item(&z, 9, 22, "IIIIIIII", "2026-02-01 09:00:00", &[(1, "A new one"), (26, "https://doi.org/10.48550/arXiv.2603.00356")], Some(2));
    let out = sync(&[]);
    assert!(out.contains("added 1, updated 0, removed 1"), "{out}");
    let now: Vec<String> = keys().iter().map(|s| s["key"].as_str().unwrap().to_string()).collect();
    assert!(now.contains(&"2603.00356".to_string()) && !now.contains(&"2602.23935".to_string()), "{now:?}");
    assert!(now.contains(&"2507.07114".to_string()), "a seed added by hand stays: {now:?}");
    assert_eq!(now.len(), 4);
    // Nothing changed: nothing to do.
    assert!(sync(&[]).contains("added 0, updated 0, removed 0"));

    // Bad input: one clear error, the profile unchanged.
    let missing = output(&lib, &["seed", "sync", "zotero", "--db", dir.path().join("none.sqlite").to_str().unwrap()]);
    assert!(!missing.status.success() && String::from_utf8_lossy(&missing.stderr).contains("none.sqlite is not a file"));
    let not_zotero = output(&lib, &["seed", "sync", "zotero", "--db", lib.join("library.sqlite").to_str().unwrap()]);
    assert!(
        !not_zotero.status.success() && String::from_utf8_lossy(&not_zotero.stderr).contains("not a Zotero database"),
        "{}",
        String::from_utf8_lossy(&not_zotero.stderr)
    );
    let junk = dir.path().join("junk.sqlite");
    std::fs::write(&junk, "not a database at all, but long enough to be read as a header of one").unwrap();
    let o = output(&lib, &["seed", "sync", "zotero", "--db", junk.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("cannot read the Zotero database") && err.contains("junk.sqlite"), "{err}");
    assert!(!err.contains("library database"), "a broken Zotero file is not a broken library: {err}");
    let bad_glob = output(&lib, &["seed", "sync", "zotero", "--db", db.to_str().unwrap(), "--collection", "[oops"]);
    assert!(!bad_glob.status.success() && String::from_utf8_lossy(&bad_glob.stderr).contains("not a glob"));
    assert_eq!(keys().len(), 4);
}
