//! `fetch` and `daily --fetch` against a scripted HTTP server on 127.0.0.1:
//! the real feeds from ../shared/fixtures/feeds, listing pages from
//! ../shared/fixtures/listings, and the failures arXiv can answer with
//! (429 with Retry-After, 503, a response past the timeout, a cut-off body).
//! No internet needed. The server is a test fixture; the product's client is ureq.

use crate::common;

use paperscout::fetch::{self, Client, Endpoints, Politeness, Via};
use paperscout::paper::Kind;
use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Clone)]
struct Reply {
    status: u16,
    headers: Vec<(&'static str, String)>,
    body: Vec<u8>,
    /// Wait this long before answering.
    delay: Duration,
    /// Send only this many bytes of the body (Content-Length still says all).
    cut_at: Option<usize>,
    /// Then this many more bytes of padding, made as they are sent.
    pad: u64,
    /// Send no Content-Length: the body ends when the connection closes.
    no_length: bool,
    /// Send the body one byte at a time, this long apart.
    drip: Option<Duration>,
}

impl Reply {
    fn ok(body: impl Into<Vec<u8>>) -> Reply {
        Reply {
            status: 200,
            headers: Vec::new(),
            body: body.into(),
            delay: Duration::ZERO,
            cut_at: None,
            pad: 0,
            no_length: false,
            drip: None,
        }
    }
    fn redirect(to: &str) -> Reply {
        Reply::status(302).header("Location", to)
    }
    fn status(status: u16) -> Reply {
        Reply { status, ..Reply::ok(format!("status {status}")) }
    }
    fn header(mut self, name: &'static str, value: &str) -> Reply {
        self.headers.push((name, value.to_string()));
        self
    }
}

/// One request as the server saw it.
#[derive(Clone, Debug)]
struct Hit {
    target: String,
    user_agent: String,
    at: Instant,
}

/// Scripted replies per path (query ignored): each request takes the next
/// reply of its path; the last one repeats. Unknown paths get 404.
struct Server {
    base: String,
    routes: Arc<Mutex<HashMap<String, VecDeque<Reply>>>>,
    hits: Arc<Mutex<Vec<Hit>>>,
}

impl Server {
    fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let base = format!("http://{}", listener.local_addr().unwrap());
        let routes: Arc<Mutex<HashMap<String, VecDeque<Reply>>>> = Arc::default();
        let hits: Arc<Mutex<Vec<Hit>>> = Arc::default();
        let (r, h) = (routes.clone(), hits.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let (r, h) = (r.clone(), h.clone());
                std::thread::spawn(move || serve(stream, &r, &h));
            }
        });
        Server { base, routes, hits }
    }

    fn route(&self, path: &str, replies: Vec<Reply>) {
        self.routes.lock().unwrap().insert(path.to_string(), replies.into());
    }

    fn hits(&self, prefix: &str) -> Vec<Hit> {
        self.hits.lock().unwrap().iter().filter(|h| h.target.starts_with(prefix)).cloned().collect()
    }
}

fn serve(stream: std::net::TcpStream, routes: &Mutex<HashMap<String, VecDeque<Reply>>>, hits: &Mutex<Vec<Hit>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).is_err() {
        return;
    }
    let target = request_line.split_whitespace().nth(1).unwrap_or("/").to_string();
    let mut user_agent = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            if k.eq_ignore_ascii_case("user-agent") {
                user_agent = v.trim().to_string();
            }
        }
    }
    hits.lock().unwrap().push(Hit { target: target.clone(), user_agent, at: Instant::now() });
    let path = target.split('?').next().unwrap().to_string();
    let reply = {
        let mut routes = routes.lock().unwrap();
        match routes.get_mut(&path) {
            Some(q) if q.len() > 1 => q.pop_front().unwrap(),
            Some(q) => q.front().cloned().unwrap_or_else(|| Reply::status(404)),
            None => Reply::status(404),
        }
    };
    std::thread::sleep(reply.delay);
    let mut out = stream;
    let mut head = format!("HTTP/1.1 {} Scripted\r\nConnection: close\r\n", reply.status);
    if !reply.no_length {
        head.push_str(&format!("Content-Length: {}\r\n", reply.body.len() as u64 + reply.pad));
    }
    for (k, v) in &reply.headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let body = &reply.body[..reply.cut_at.unwrap_or(reply.body.len())];
    if out.write_all(head.as_bytes()).is_err() {
        return;
    }
    if let Some(gap) = reply.drip {
        for byte in body {
            if out.write_all(std::slice::from_ref(byte)).and_then(|_| out.flush()).is_err() {
                return;
            }
            std::thread::sleep(gap);
        }
        return;
    }
    if out.write_all(body).is_err() {
        return;
    }
    // Padding stops when the client hangs up.
    let chunk = vec![b' '; 1 << 16];
    let mut left = reply.pad;
    while left > 0 {
        let n = left.min(chunk.len() as u64) as usize;
        if out.write_all(&chunk[..n]).is_err() {
            return;
        }
        left -= n as u64;
    }
    let _ = out.flush();
}

fn feeds() -> PathBuf {
    common::root().join("../shared/fixtures/feeds")
}

fn feed(name: &str) -> Vec<u8> {
    std::fs::read(feeds().join(name)).expect("fixture feed")
}

const ALL: &str = "rss-2024-11-28__aioarxiv__all-archives.xml";
const EMPTY: &str = "rss-2024-11-28__aioarxiv__empty-test-archive.xml";
const ERROR: &str = "rss-2024-11-28__aioarxiv__error-bad-archive.xml";

/// The real feed cut after its first `n` items and closed again: a small
/// day for tests that embed.
fn feed_head(n: usize) -> Vec<u8> {
    let text = String::from_utf8(feed(ALL)).unwrap();
    let mut end = 0;
    for _ in 0..n {
        end += text[end..].find("</item>").expect("enough items") + "</item>".len();
    }
    format!("{}\n  </channel>\n</rss>\n", &text[..end]).into_bytes()
}

fn listing_page(name: &str) -> Vec<u8> {
    std::fs::read(common::page(name)).expect("fixture listing")
}

fn quick() -> Politeness {
    Politeness {
        min_interval: Duration::from_millis(10),
        max_retries: 3,
        base_backoff: Duration::from_millis(20),
        timeout: Duration::from_millis(2000),
    }
}

#[test]
fn rss_feed_gives_new_cross_and_replaced_with_a_descriptive_user_agent() {
    let s = Server::start();
    s.route("/rss/cs.DC", vec![Reply::ok(feed(ALL))]);
    let got = fetch::fetch_category(&Client::new(quick()), &Endpoints::under(&s.base), "cs.DC").unwrap();
    assert_eq!(got.via, Via::Rss);
    assert!(got.papers.len() > 1000, "{} papers", got.papers.len());
    for kind in [Kind::New, Kind::Cross, Kind::Replaced] {
        assert!(got.papers.iter().any(|p| p.kind == kind), "no {kind:?} entry");
    }
    assert!(got.papers.iter().all(|p| p.listing_date.as_deref() == Some("2024-11-28")));
    let hits = s.hits("/");
    assert_eq!(hits.len(), 1, "every paper had an abstract, so no API call: {hits:?}");
    assert!(hits[0].user_agent.starts_with("paperscout/"), "{:?}", hits[0].user_agent);
}

#[test]
fn a_429_with_retry_after_and_a_503_are_retried() {
    let s = Server::start();
    s.route("/rss/cs.DC", vec![Reply::status(429).header("Retry-After", "1"), Reply::status(503), Reply::ok(feed_head(3))]);
    let start = Instant::now();
    let got = fetch::fetch_category(&Client::new(quick()), &Endpoints::under(&s.base), "cs.DC").unwrap();
    assert_eq!(got.papers.len(), 3);
    let hits = s.hits("/rss/");
    assert_eq!(hits.len(), 3);
    let waited = hits[1].at - hits[0].at;
    assert!(waited >= Duration::from_millis(950), "Retry-After: 1 honoured, waited {waited:?}");
    assert!(start.elapsed() < Duration::from_secs(5));
}

#[test]
fn retries_give_up_with_the_status_and_url() {
    let s = Server::start();
    s.route("/rss/cs.DC", vec![Reply::status(503)]);
    let client = Client::new(Politeness { max_retries: 2, ..quick() });
    let url = format!("{}/rss/cs.DC", s.base);
    let err = client.get(&url).unwrap_err();
    assert_eq!(err.status(), Some(503));
    let msg = err.to_string();
    assert!(msg.contains(&url) && msg.contains("HTTP 503") && msg.contains("3 attempts"), "{msg}");
    assert_eq!(s.hits("/rss/").len(), 3);
    // Backoff doubles: 20 ms, then 40 ms.
    let h = s.hits("/rss/");
    assert!(h[2].at - h[1].at >= Duration::from_millis(38), "{:?}", h[2].at - h[1].at);
}

#[test]
fn a_404_is_not_retried() {
    let s = Server::start();
    let err = Client::new(quick()).get(&format!("{}/nothing", s.base)).unwrap_err();
    assert_eq!(err.status(), Some(404));
    assert_eq!(s.hits("/nothing").len(), 1);
}

#[test]
fn a_slow_response_past_the_timeout_is_an_error_naming_the_url() {
    let s = Server::start();
    s.route("/rss/cs.DC", vec![Reply { delay: Duration::from_secs(3), ..Reply::ok(feed_head(2)) }]);
    let client = Client::new(Politeness { timeout: Duration::from_millis(300), ..quick() });
    let url = format!("{}/rss/cs.DC", s.base);
    let start = Instant::now();
    let err = client.get(&url).unwrap_err();
    assert!(start.elapsed() < Duration::from_secs(2), "took {:?}", start.elapsed());
    let msg = err.to_string();
    assert!(msg.contains(&url) && msg.contains("timed out"), "{msg}");
}

#[test]
fn a_cut_off_body_is_an_error_naming_the_url() {
    let s = Server::start();
    s.route("/rss/cs.DC", vec![Reply { cut_at: Some(5000), ..Reply::ok(feed(ALL)) }]);
    let url = format!("{}/rss/cs.DC", s.base);
    let msg = Client::new(quick()).get(&url).unwrap_err().to_string();
    assert!(msg.contains(&url) && msg.contains("cut off after 5000 bytes"), "{msg}");
}

#[test]
fn a_failing_feed_falls_back_to_the_listing_page() {
    let s = Server::start();
    s.route("/rss/cs.DC", vec![Reply { cut_at: Some(5000), ..Reply::ok(feed(ALL)) }]);
    s.route("/list/cs.DC/new", vec![Reply::ok(listing_page("cs.DC-2026-03-03.txt"))]);
    let got = fetch::fetch_category(&Client::new(quick()), &Endpoints::under(&s.base), "cs.DC").unwrap();
    assert_eq!(got.via, Via::ListPage);
    assert!(got.papers.len() > 20, "{}", got.papers.len());
    assert!(got.papers.iter().any(|p| p.id == "2603.00356"));
    assert!(got.warnings.iter().any(|w| w.contains("RSS feed failed") && w.contains("cut off")), "{:?}", got.warnings);
}

#[test]
fn a_bad_category_reports_both_sources() {
    let s = Server::start();
    s.route("/rss/astroph", vec![Reply::ok(feed(ERROR))]);
    let err = fetch::fetch_category(&Client::new(quick()), &Endpoints::under(&s.base), "astroph").unwrap_err();
    let msg = format!("{err:#}");
    assert!(msg.contains("Bad archive 'astroph'") && msg.contains("HTTP 404"), "{msg}");
}

#[test]
fn an_empty_feed_is_zero_papers() {
    let s = Server::start();
    s.route("/rss/test", vec![Reply::ok(feed(EMPTY))]);
    let got = fetch::fetch_category(&Client::new(quick()), &Endpoints::under(&s.base), "test").unwrap();
    assert!(got.papers.is_empty());
    assert_eq!(s.hits("/list/").len(), 0, "an empty day is not a failure");
}

#[test]
fn requests_keep_the_minimum_interval() {
    let s = Server::start();
    s.route("/x", vec![Reply::ok("x")]);
    let client = Client::new(Politeness { min_interval: Duration::from_millis(150), ..quick() });
    for _ in 0..3 {
        client.get(&format!("{}/x", s.base)).unwrap();
    }
    let h = s.hits("/x");
    for pair in h.windows(2) {
        assert!(pair[1].at - pair[0].at >= Duration::from_millis(140), "{:?}", pair[1].at - pair[0].at);
    }
}

#[test]
fn the_api_fills_papers_the_feed_lacks_abstracts_for() {
    let s = Server::start();
    // A one-item feed for a paper the API fixture describes, with no abstract.
    let rss = r#"<?xml version='1.0' encoding='UTF-8'?>
<rss xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns:dc="http://purl.org/dc/elements/1.1/" version="2.0">
  <channel>
    <title>cs.LG updates on arXiv.org</title>
    <link>http://rss.arxiv.org/rss/cs.LG</link>
    <description>cs.LG updates on the arXiv.org e-print archive.</description>
    <pubDate>Thu, 28 Nov 2024 00:00:00 -0500</pubDate>
    <item>
      <title>A paper from the feed</title>
      <link>https://arxiv.org/abs/1605.08386</link>
      <description>arXiv:1605.08386v1 Announce Type: new
Abstract: </description>
      <category>cs.LG</category>
      <arxiv:announce_type>new</arxiv:announce_type>
      <dc:creator>Someone</dc:creator>
    </item>
  </channel>
</rss>
"#;
    s.route("/rss/cs.LG", vec![Reply::ok(rss)]);
    s.route("/api/query", vec![Reply::ok(feed("api-atom-2026__arxiv.py__id_1605.08386_s0_m100_199195aa31ad.xml"))]);
    let got = fetch::fetch_category(&Client::new(quick()), &Endpoints::under(&s.base), "cs.LG").unwrap();
    assert_eq!(got.papers.len(), 1, "{:?}", got.warnings);
    let p = &got.papers[0];
    assert!(p.abstract_text.len() > 100, "abstract filled: {p:?}");
    assert_eq!(p.kind, Kind::New);
    assert_eq!(p.listing_date.as_deref(), Some("2024-11-28"), "the listing's date stays");
    let api = s.hits("/api/query");
    assert_eq!(api.len(), 1);
    assert!(api[0].target.contains("id_list=1605.08386"), "{}", api[0].target);
}

/// `paperscout fetch …` against the server, with test delays.
fn cli(server: &Server, lib: &std::path::Path, args: &[&str]) -> std::process::Output {
    common::command(lib, args)
        .env("PAPERSCOUT_BASE_URL", &server.base)
        .env("PAPERSCOUT_FETCH_INTERVAL_MS", "10")
        .env("PAPERSCOUT_FETCH_BACKOFF_MS", "20")
        .output()
        .expect("run paperscout")
}

#[test]
fn fetch_out_writes_json_lines_and_nothing_on_failure() {
    let s = Server::start();
    s.route("/rss/cs.DC", vec![Reply::status(503), Reply::ok(feed_head(5))]);
    s.route("/rss/cs.LG", vec![Reply { cut_at: Some(3000), ..Reply::ok(feed(ALL)) }]);
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    let out = dir.path().join("today.jsonl");
    let o = cli(&s, &lib, &["fetch", "cs.DC", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let papers = common::json_lines(&std::fs::read_to_string(&out).unwrap());
    assert_eq!(papers.len(), 5);
    assert!(String::from_utf8_lossy(&o.stderr).contains("HTTP 503; retrying"));

    // cs.LG's feed is cut off and it has no listing page: an error, the old
    // file stays as it was and no library appears.
    let before = std::fs::read(&out).unwrap();
    let o = cli(&s, &lib, &["fetch", "cs.DC", "cs.LG", "--ingest", "--out", out.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("cannot fetch cs.LG") && err.contains(&format!("{}/rss/cs.LG", s.base)), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), before);
    assert!(!lib.join("library.sqlite").exists(), "nothing written to the library");
}

#[test]
fn no_announcements_is_a_message_and_success() {
    let s = Server::start();
    s.route("/rss/test", vec![Reply::ok(feed(EMPTY))]);
    let dir = tempfile::tempdir().unwrap();
    let o = cli(&s, &dir.path().join("lib"), &["fetch", "test", "--ingest"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no announcements for test on "), "{err}");
}

#[test]
fn daily_fetch_ingests_and_ranks_the_fetched_day() {
    let s = Server::start();
    s.route("/rss/cs.DC", vec![Reply::status(503)]);
    s.route("/list/cs.DC/new", vec![Reply::ok(listing_page("cs.DC-2026-03-03.txt"))]);
    s.route("/rss/test", vec![Reply::ok(feed(EMPTY))]);
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    // Seeds go into an existing library: only ingest, daily and fetch create one.
    common::ok(&lib, &["ingest", &common::page("cs.DC-2026-03-02.txt")]);
    common::ok(&lib, &["seed", "add", "--text", "serving LLM inference on GPU clusters"]);
    let o = cli(&s, &lib, &["daily", "--fetch", "cs.DC", "--format", "json", "--top", "5", "--all"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let picks = common::json_lines(&String::from_utf8_lossy(&o.stdout));
    assert_eq!(picks.len(), 5);
    for (i, p) in picks.iter().enumerate() {
        assert_eq!(p["rank"], i + 1);
        assert_eq!(p["listing_date"], "2026-03-03", "the fetched day is ranked: {p}");
    }

    // A day without announcements: the message, success, no digest.
    let o = cli(&s, &lib, &["daily", "--fetch", "test"]);
    assert!(o.status.success());
    assert!(o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no announcements for test on"), "{err}");
}

#[test]
fn seed_add_fetch_resolves_ids_the_library_lacks() {
    let s = Server::start();
    s.route("/api/query", vec![Reply::ok(feed("api-atom-2026__arxiv.py__id_1605.08386_s0_m100_199195aa31ad.xml"))]);
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    common::ok(&lib, &["ingest", &common::page("cs.DC-2026-03-02.txt")]);
    // Without --fetch the id must be in the library already.
    let o = cli(&s, &lib, &["seed", "add", "1605.08386"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("not in the library"));
    assert!(s.hits("/").is_empty(), "no request without --fetch");

    let o = cli(&s, &lib, &["seed", "add", "1605.08386", "--fetch"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let api = s.hits("/api/query");
    assert_eq!(api.len(), 1);
    assert!(api[0].target.contains("id_list=1605.08386"), "{}", api[0].target);
    let list = common::ok(&lib, &["seed", "list"]);
    assert!(list.contains("1605.08386") && list.contains("Heat-bath random walks"), "{list}");
    assert!(!list.contains("title only"), "{list}");
    // A second add finds it in the library: no request.
    common::ok(&lib, &["seed", "add", "1605.08386", "--fetch", "--weight", "2"]);
    assert_eq!(s.hits("/api/query").len(), 1);

    // An id the API does not know is an error naming it.
    s.route("/api/query", vec![Reply::ok(feed("api-atom-2026__arxiv.py__id_0000.0000_s0_m100_8b51d9633a68.xml"))]);
    let o = cli(&s, &lib, &["seed", "add", "2501.00001", "--fetch"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("does not know 2501.00001"), "{err}");
}

#[test]
fn the_command_line_definitions_are_consistent() {
    use clap::{CommandFactory, Parser};
    paperscout::cli::Cli::command().debug_assert();
    let cli = paperscout::cli::Cli::try_parse_from(["paperscout", "daily", "--fetch", "cs.DC,cs.LG", "--fetch", "astro-ph.GA"]).unwrap();
    let paperscout::cli::Command::Daily(d) = cli.command else { panic!("not daily") };
    assert_eq!(d.fetch, ["cs.DC", "cs.LG", "astro-ph.GA"]);
    assert!(d.files.is_empty());
    assert!(paperscout::cli::Cli::try_parse_from(["paperscout", "daily", "--fetch", "cs.DC", "--", "x.txt"]).is_err());
    assert!(paperscout::cli::Cli::try_parse_from(["paperscout", "seed", "add", "1", "--fetch", "--title", "t"]).is_err());
}

// ------------------------------------------------ redirects, caps, deadlines

#[test]
fn redirects_stay_on_http_and_the_configured_hosts() {
    let s = Server::start();
    let other = Server::start();
    s.route("/rss/cs.DC", vec![Reply::redirect("/moved/cs.DC")]);
    s.route("/moved/cs.DC", vec![Reply::ok(feed_head(2))]);
    s.route("/file", vec![Reply::redirect("file:///etc/passwd")]);
    s.route("/away", vec![Reply::redirect(&format!("{}/x", other.base))]);
    s.route("/loop", vec![Reply::redirect("/loop")]);
    s.route("/nowhere", vec![Reply::status(301)]);
    other.route("/x", vec![Reply::ok("elsewhere")]);
    let client = Client::new(quick());

    // On the same host: followed.
    let got = fetch::fetch_category(&client, &Endpoints::under(&s.base), "cs.DC").unwrap();
    assert_eq!(got.papers.len(), 2);

    // Off http(s), to another host, or round in circles: one line naming the URL.
    for (path, says) in [
        ("/file", "only http and https"),
        ("/away", "a host other than"),
        ("/loop", "more than 5 redirects"),
        ("/nowhere", "without a Location"),
    ] {
        let url = format!("{}{path}", s.base);
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| client.get(&url)));
        let msg = outcome.unwrap_or_else(|_| panic!("{path}: panic")).unwrap_err().to_string();
        assert!(msg.starts_with(&url) && msg.contains(says) && !msg.contains('\n'), "{msg}");
    }
    assert!(other.hits("/").is_empty(), "the other host was never asked");
    assert_eq!(s.hits("/loop").len(), 6, "the first request and 5 redirects");

    // A host that is configured may be redirected to.
    let hosts = vec![s.base.trim_start_matches("http://").to_string(), other.base.trim_start_matches("http://").to_string()];
    let body = Client::new(quick()).for_hosts(hosts).get(&format!("{}/away", s.base)).unwrap();
    assert_eq!(body, b"elsewhere");
}

#[test]
fn huge_bodies_and_gzip_bombs_stop_at_the_cap() {
    // Its memory bound is the process's peak.
    if !common::in_own_process("fetch::huge_bodies_and_gzip_bombs_stop_at_the_cap") {
        return;
    }
    use std::io::Write as _;
    let s = Server::start();
    let gig = 1u64 << 30;
    // A gigabyte announced, or sent without a length: refused at 64 MiB.
    s.route("/big", vec![Reply { pad: gig, ..Reply::ok("") }]);
    s.route("/big-unannounced", vec![Reply { pad: gig, no_length: true, ..Reply::ok("") }]);
    // 256 MiB of zeros in a few hundred KB, as Content-Encoding and as a .gz body.
    let bomb = {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        let zeros = vec![0u8; 1 << 20];
        for _ in 0..256 {
            gz.write_all(&zeros).unwrap();
        }
        gz.finish().unwrap()
    };
    assert!(bomb.len() < 1 << 20, "{}", bomb.len());
    s.route("/bomb", vec![Reply::ok(bomb.clone()).header("Content-Encoding", "gzip")]);
    s.route("/bomb.gz", vec![Reply::ok(bomb)]);
    let client = Client::new(Politeness { timeout: Duration::from_secs(30), ..quick() });
    let peak_mib = || -> u64 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        let kib = status.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| l.split_whitespace().nth(1)?.parse().ok());
        kib.unwrap_or(0) / 1024
    };
    let before = peak_mib();
    for path in ["/big", "/big-unannounced", "/bomb", "/bomb.gz"] {
        let url = format!("{}{path}", s.base);
        let start = Instant::now();
        let msg = client.get(&url).unwrap_err().to_string();
        assert!(msg.starts_with(&url) && msg.contains("64 MiB"), "{path}: {msg}");
        assert!(start.elapsed() < Duration::from_secs(10), "{path}: {:?}", start.elapsed());
    }
    // The stated bound: a capped download holds at most the cap (64 MiB)
    // plus buffers; before the cap a gigabyte took 2 GB, a 1 MB bomb 1 GB.
    // (Process-wide peak: the test runs alone in its process.)
    let grown = peak_mib().saturating_sub(before);
    assert!(grown < 200, "peak memory grew by {grown} MiB");
}

#[test]
fn the_timeout_is_a_deadline_over_the_whole_download() {
    let s = Server::start();
    // Every byte comes well within any per-read timeout, the whole never.
    s.route("/drip", vec![Reply { drip: Some(Duration::from_millis(50)), ..Reply::ok(feed_head(1)) }]);
    let client = Client::new(Politeness { timeout: Duration::from_millis(600), ..quick() });
    let url = format!("{}/drip", s.base);
    let start = Instant::now();
    let msg = client.get(&url).unwrap_err().to_string();
    assert!(msg.starts_with(&url) && msg.contains("timed out"), "{msg}");
    assert!(start.elapsed() < Duration::from_secs(3), "{:?}", start.elapsed());
}

#[test]
fn retry_after_waits_no_longer_than_the_timeout_and_says_so() {
    let s = Server::start();
    s.route("/rss/cs.DC", vec![Reply::status(503).header("Retry-After", "601"), Reply::ok(feed_head(1))]);
    let log: Arc<Mutex<Vec<String>>> = Arc::default();
    let sink = log.clone();
    let client = Client::new(Politeness { max_retries: 1, timeout: Duration::from_millis(400), ..quick() })
        .with_log(move |m| sink.lock().unwrap().push(m.to_string()));
    let start = Instant::now();
    client.get(&format!("{}/rss/cs.DC", s.base)).unwrap();
    assert!(start.elapsed() < Duration::from_secs(3), "{:?}", start.elapsed());
    let log = log.lock().unwrap();
    assert!(log.iter().any(|m| m.contains("Retry-After asks for 601 s") && m.contains("0.4 s")), "{log:?}");
}

#[test]
fn an_absurd_timeout_is_a_clear_error() {
    let s = Server::start();
    let dir = tempfile::tempdir().unwrap();
    for timeout in ["1e30", "0", "-1", "NaN", "inf"] {
        let o = cli(&s, &dir.path().join("lib"), &["fetch", "cs.DC", &format!("--timeout={timeout}")]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && err.contains("--timeout") && !err.contains("panicked"), "{timeout}: {err}");
    }
    assert!(s.hits("/").is_empty());
}

/// A second and last page in arXiv's `arXiv` format: an old-style id, an
/// affiliation, and the empty token that ends the list.
const OAI_LAST: &str = "<?xml version='1.0' encoding='UTF-8'?>\n<OAI-PMH xmlns='http://www.openarchives.org/OAI/2.0/'>\
    <responseDate>2026-11-25T10:00:00Z</responseDate><request verb='ListRecords'>http://export.arxiv.org/oai2</request>\
    <ListRecords><record><header><identifier>oai:arXiv.org:hep-th/9901001</identifier><datestamp>2014-01-16</datestamp>\
    <setSpec>physics:hep-th</setSpec></header><metadata><arXiv xmlns='http://arxiv.org/OAI/arXiv/'><id>hep-th/9901001</id>\
    <created>1999-01-01</created><authors><author><keyname>G\\\"odel</keyname><forenames>Kurt</forenames>\
    <affiliation>IAS</affiliation></author></authors><title>An old paper</title><categories>hep-th gr-qc</categories>\
    <abstract>  Old.\n</abstract></arXiv></metadata></record>\
    <resumptionToken cursor='1000' completeListSize='1000'></resumptionToken></ListRecords></OAI-PMH>\n";

#[test]
fn oai_harvest_follows_resumption_tokens_politely() {
    let s = Server::start();
    let first =
        std::fs::read(common::root().join("../shared/real-documents/oai-pmh-arXivRaw-cs-2014-01-16.xml")).expect("real harvest page");
    // The flow control OAI-PMH servers use between pages: 503 + Retry-After.
    s.route("/oai", vec![Reply::ok(first), Reply::status(503).header("Retry-After", "1"), Reply::ok(OAI_LAST)]);
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    let out = dir.path().join("harvest.jsonl");
    let o = cli(&s, &lib, &["fetch", "--oai", "2014-01-01", "2014-01-16", "cs", "--out", out.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let hits = s.hits("/oai");
    assert_eq!(hits.len(), 3, "{hits:?}");
    assert_eq!(hits[0].target, "/oai?verb=ListRecords&metadataPrefix=arXivRaw&from=2014-01-01&until=2014-01-16&set=cs");
    // The token, encoded, and the same request again after the 503.
    assert_eq!(hits[1].target, "/oai?verb=ListRecords&resumptionToken=496549%7C96001");
    assert_eq!(hits[2].target, hits[1].target);
    assert!(hits[2].at - hits[1].at >= Duration::from_millis(900), "Retry-After honoured");
    let papers = common::json_lines(&std::fs::read_to_string(&out).unwrap());
    // 1,000 records on the real page, one with an id arXiv never issued
    // (0811.36489: skipped and named), and one on the last page.
    assert_eq!(papers.len(), 1000);
    assert!(err.contains("0811.36489") && err.contains("1 record(s) skipped"), "{err}");
    let old = papers.iter().find(|p| p["id"] == "hep-th/9901001").expect("old-style id");
    assert_eq!(old["authors"], serde_json::json!(["Kurt Gödel"]));
    assert_eq!(old["affiliations"], serde_json::json!(["IAS"]));
    assert_eq!(old["kind"], "snapshot");
    assert_eq!(old["listing_date"], "1999-01-01");

    // A harvest that fails on its second page writes no --out at all.
    let first = std::fs::read(common::root().join("../shared/real-documents/oai-pmh-arXivRaw-cs-2014-01-16.xml")).unwrap();
    s.route("/oai", vec![Reply::ok(first), Reply::status(404)]);
    let cut = dir.path().join("cut.jsonl");
    let o = cli(&s, &lib, &["fetch", "--oai", "2014-01-01", "2014-01-16", "cs", "--out", cut.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(!cut.exists() && !cut.with_extension("tmp").exists());

    // Into a library: the same pages, stored as papers without a listing day.
    s.route("/oai", vec![Reply::ok(OAI_LAST)]);
    let o = cli(&s, &lib, &["fetch", "--oai", "1999-01-01", "1999-01-31", "physics:hep-th", "--ingest"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(s.hits("/oai").last().unwrap().target.ends_with("set=physics%3Ahep-th"));
    let o = cli(&s, &lib, &["like", "hep-th/9901001"]);
    assert!(o.status.success(), "an old-style id is taken: {}", String::from_utf8_lossy(&o.stderr));

    // Nothing in the range: said, and not a success; bad bounds refused before any request.
    s.route("/oai", vec![Reply::ok("<OAI-PMH><error code='noRecordsMatch'>No records</error></OAI-PMH>")]);
    let o = cli(&s, &lib, &["fetch", "--oai", "2014-01-01", "2014-01-02", "cs"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("no records in set cs from 2014-01-01 until 2014-01-02"));
    let before = s.hits("/oai").len();
    for bad in [["2014-02-30", "2014-03-01", "cs"], ["2014-03-02", "2014-03-01", "cs"], ["2014-03-01", "2014-03-02", "cs&verb=Identify"]] {
        let mut args = vec!["fetch", "--oai"];
        args.extend(bad);
        let o = cli(&s, &lib, &args);
        assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("--oai"), "{bad:?}");
    }
    assert_eq!(s.hits("/oai").len(), before);
}
