//! The page as a reader uses it, in a real headless Chromium driven through
//! chromedriver (WebDriver): rating from the keyboard with the fold, undo,
//! re-ranking and the position kept over a reload; the compact list, a
//! phone's width and the dark scheme; seeds added from the browser; and
//! axe-core on every page in both schemes. `scripts/test` installs Debian's
//! `chromium` and `chromium-driver` when they are missing; axe-core comes
//! from npm into target/axe on first use.
//!
//! Screenshots go to target/screenshots/ (docs/screenshots/ holds copies,
//! checked by eye).

use crate::common;

use crate::common::{demo_library, json_lines, ok, root, Server};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One Chromium at a time: the machine has two cores.
static ONE_BROWSER: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn start_driver() -> (Driver, u16) {
    let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port();
    let child = Command::new("chromedriver")
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver is missing: install Debian's chromium and chromium-driver (scripts/test does)");
    let driver = Driver(child);
    let deadline = Instant::now() + Duration::from_secs(30);
    while ureq::get(&format!("http://127.0.0.1:{port}/status")).call().is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    (driver, port)
}

async fn browser(port: u16, extra: &[&str]) -> Client {
    let mut args = vec![
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1280,900",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--hide-scrollbars",
    ];
    args.extend_from_slice(extra);
    let caps = json!({ "browserName": "chrome", "goog:chromeOptions": { "args": args } });
    let caps = caps.as_object().cloned().unwrap_or_default();
    // chromedriver speaks plain HTTP on loopback.
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a Chromium session")
}

/// Polls `check` until it holds (bounded): the page updates asynchronously.
async fn eventually<F, Fut>(what: &str, secs: u64, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !check().await {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![]).await.unwrap_or_else(|e| panic!("script {script:?}: {e}"))
}

async fn rating_of(c: &Client, id: &str) -> String {
    match c.find(Locator::Css(&format!("article.paper[data-id=\"{id}\"]"))).await {
        Ok(card) => card.attr("data-rating").await.ok().flatten().unwrap_or_default(),
        Err(_) => String::new(),
    }
}

async fn current_id(c: &Client) -> String {
    js(c, "var e = document.querySelector('article.paper.current'); return e ? e.dataset.id : '';").await.as_str().unwrap_or("").to_string()
}

async fn keys(c: &Client, k: &str) {
    c.find(Locator::Css("body")).await.unwrap().send_keys(k).await.unwrap();
}

/// How tall the card is on screen: a folded card is one line.
async fn height_of(c: &Client, id: &str) -> f64 {
    js(c, &format!("return document.querySelector('article.paper[data-id=\"{id}\"]').getBoundingClientRect().height;"))
        .await
        .as_f64()
        .unwrap_or(0.0)
}

/// A copy of the demo library served, with a Chromium to read it in.
/// Holds the one browser (`ONE_BROWSER`) while it lives.
struct Demo {
    _one: tokio::sync::MutexGuard<'static, ()>,
    dir: tempfile::TempDir,
    lib: PathBuf,
    server: Server,
    _driver: Driver,
    port: u16,
    c: Client,
}

/// `prepare` changes the library before the server opens it; `ready` waits
/// for the model to load.
async fn demo(prepare: impl FnOnce(&std::path::Path), ready: bool) -> Demo {
    let one = ONE_BROWSER.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    prepare(&lib);
    let server = Server::start_with(&lib, &["--allow-webhook-host", "127.0.0.1"]);
    if ready {
        server.wait_for_model();
    }
    let (driver, port) = start_driver();
    let c = browser(port, &[]).await;
    // As its owner would: the printed address first.
    c.goto(&server.open_url()).await.unwrap();
    Demo { _one: one, dir, lib, server, _driver: driver, port, c }
}

#[tokio::test(flavor = "multi_thread")]
async fn rate_by_keyboard_fold_undo_rerank_and_search() {
    let d = demo(|_| {}, false).await;
    let (lib, server, c) = (d.lib.clone(), &d.server, d.c.clone());

    // The digest leads with the papers above the bar, at least three, and
    // says how many it left below; "Looser" lets the day's top lead, and
    // the profile keeps it.
    c.goto(&server.page_url("/")).await.unwrap();
    let lead = c.find_all(Locator::Css("#picks article.paper")).await.unwrap().len();
    let more = c.find(Locator::Css("#more")).await.unwrap().text().await.unwrap();
    assert!(lead >= 3 && more.contains("more below your bar (usual). Show them") && more.contains("Your bar: usual"), "{lead}: {more}");
    c.find(Locator::Css("button[data-act=bar][data-to=looser]")).await.unwrap().click().await.unwrap();
    let bar = "var m = document.getElementById('more'); return m ? m.textContent : '';";
    eventually("the looser bar", 10, || async { js(&c, bar).await.as_str().is_some_and(|t| t.contains("Your bar: loose")) }).await;
    assert!(ok(&lib, &["filter", "bar"]).contains("the loose bar"));
    let ids: Vec<String> = {
        let cards = c.find_all(Locator::Css("#picks article.paper")).await.unwrap();
        assert!(cards.len() >= 5, "the digest lists papers");
        let mut v = Vec::new();
        for card in &cards {
            v.push(card.attr("data-id").await.unwrap().expect("a paper id"));
        }
        v
    };
    // The first unread paper is selected on load.
    assert_eq!(current_id(&c).await, ids[0]);

    // `y` rates and moves on; `n` folds the paper away at once and moves on.
    keys(&c, "y").await;
    eventually("the liked state", 10, || async { rating_of(&c, &ids[0]).await == "1" }).await;
    eventually("the move to the next paper", 10, || async { current_id(&c).await == ids[1] }).await;
    let tall = height_of(&c, &ids[1]).await;
    keys(&c, "n").await;
    eventually("the 👎 rating", 10, || async { rating_of(&c, &ids[1]).await == "-1" }).await;
    eventually("the move past the 👎 paper", 10, || async { current_id(&c).await == ids[2] }).await;
    let folded = height_of(&c, &ids[1]).await;
    assert!(folded < tall / 2.0 && folded < 60.0, "the 👎 paper folds to a line ({tall} px -> {folded} px)");
    let pending = c.find(Locator::Css("#pending")).await.unwrap();
    assert!(pending.is_displayed().await.unwrap());
    assert!(pending.text().await.unwrap().contains("2 ratings are not in this order yet"));
    // The message a 👎 brings never lies over a control: a click at the
    // centre of "Re-rank now" reaches it while the message shows.
    let reach = "var t = document.getElementById('toast'), b = document.querySelector('#pending button'), r = b.getBoundingClientRect(); \
                 var e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); return [!t.hidden, e === b || b.contains(e)];";
    assert_eq!(js(&c, reach).await, json!([true, true]), "the toast covers Re-rank now");

    // Undo by key brings the folded paper back, and selects it.
    keys(&c, "u").await;
    eventually("the undone 👎", 10, || async { rating_of(&c, &ids[1]).await == "0" }).await;
    assert!(height_of(&c, &ids[1]).await > folded * 1.5, "the paper unfolds");
    assert_eq!(current_id(&c).await, ids[1]);
    assert!(pending.text().await.unwrap().contains("1 rating is not in this order yet"));
    // And the undo button on the fold line does the same.
    keys(&c, "n").await;
    eventually("the second 👎", 10, || async { rating_of(&c, &ids[1]).await == "-1" }).await;
    let card = c.find(Locator::Css(&format!("article.paper[data-id=\"{}\"]", ids[1]))).await.unwrap();
    card.find(Locator::Css("button.undo")).await.unwrap().click().await.unwrap();
    eventually("the undone rating", 10, || async { rating_of(&c, &ids[1]).await == "0" }).await;
    // The click selected the paper; `n` folds it again.
    assert_eq!(current_id(&c).await, ids[1]);
    keys(&c, "n").await;
    eventually("the third 👎", 10, || async { rating_of(&c, &ids[1]).await == "-1" }).await;
    let at = current_id(&c).await;
    assert_eq!(at, ids[2]);

    // `?` shows the keys.
    keys(&c, "?").await;
    let help = c.find(Locator::Css("dialog#help")).await.unwrap();
    assert!(help.is_displayed().await.unwrap(), "? opens the key list");
    assert!(help.text().await.unwrap().contains("re-rank"));
    help.find(Locator::Css("button")).await.unwrap().click().await.unwrap();
    eventually("the closed key list", 10, || async { !help.is_displayed().await.unwrap_or(true) }).await;

    // From deep in the list: a 👍 there, then re-rank. The page reloads
    // ranked with the ratings, says what moved where the reader is, and
    // keeps the selected paper; u still undoes the last rating.
    for _ in 0..12 {
        keys(&c, "j").await;
    }
    let deep = current_id(&c).await;
    keys(&c, "y").await;
    eventually("the deep 👍", 10, || async { rating_of(&c, &deep).await == "1" }).await;
    let at = current_id(&c).await;
    assert_ne!(at, deep);
    keys(&c, "r").await;
    eventually("the re-ranked page", 20, || async {
        match c.find(Locator::Css("#moved")).await {
            Ok(m) => m.is_displayed().await.unwrap_or(false),
            Err(_) => false,
        }
    })
    .await;
    let moved = c.find(Locator::Css("#moved")).await.unwrap().text().await.unwrap();
    // Each rated paper's own move, not a sum of them.
    assert!(moved.starts_with("Re-ranked: ") && moved.contains(" new in your top 20; "), "{moved}");
    assert!(moved.contains("👎 \u{201c}") && moved.contains(" → listed apart"), "{moved}");
    assert!(moved.contains("👍 \u{201c}") && moved.matches(" → #").count() >= 1 && !moved.contains("went"), "{moved}");
    assert_eq!(current_id(&c).await, at, "the position survives the reload");
    let seen = js(&c, "var r = document.getElementById('moved').getBoundingClientRect(), p = document.querySelector('article.paper.current').getBoundingClientRect(); \
                       return [r.top >= 0 && r.bottom <= innerHeight, p.top < innerHeight && p.bottom > 0, scrollY > 600];").await;
    assert_eq!(seen, json!([true, true, true]), "the summary is on the screen the reader is on, deep in the list");
    std::fs::write(screenshot_dir().join("desktop-reranked.png"), c.screenshot().await.unwrap()).unwrap();
    assert_eq!(rating_of(&c, &ids[0]).await, "1");
    assert_eq!(rating_of(&c, &ids[1]).await, "-1");
    assert!(!c.find(Locator::Css("#pending")).await.unwrap().is_displayed().await.unwrap());
    let seeds = json_lines(&ok(&lib, &["seed", "list", "--json"]));
    let find = |id: &str| seeds.iter().find(|s| s["key"] == id).cloned();
    assert_eq!(find(&ids[0]).expect("the 👍 paper is a seed")["negative"], false);
    assert_eq!(find(&ids[1]).expect("the 👎 paper is a seed")["negative"], true);
    // u after the reload undoes the last rating, and selects that paper.
    keys(&c, "u").await;
    eventually("the deep 👍 undone across the reload", 10, || async { rating_of(&c, &deep).await == "0" }).await;
    let at = current_id(&c).await;
    assert_eq!(at, deep);

    // A plain reload keeps the position too.
    c.refresh().await.unwrap();
    eventually("the reloaded page", 10, || async { current_id(&c).await == at }).await;

    // The re-ranked page lists the 👎 paper apart; its undo restores its
    // state and its place (after the paper it followed when rated).
    let apart = format!("#not-interested article.paper[data-id=\"{}\"]", ids[1]);
    js(&c, &format!("document.querySelector('{apart}').scrollIntoView({{block: 'center'}}); return 1;")).await;
    c.find(Locator::Css(&format!("{apart} button.undo"))).await.unwrap().click().await.unwrap();
    eventually("the undone 👎, back in its place", 10, || async { rating_of(&c, &ids[1]).await == "0" }).await;
    let back = js(&c, &format!("var e = document.querySelector('article.paper[data-id=\"{}\"]'); \
                                return [!!e.closest('#picks'), e.previousElementSibling && e.previousElementSibling.dataset.id, \
                                        e.querySelector('.state').textContent, /not interested/.test(e.querySelector('.reason') ? e.querySelector('.reason').textContent : ''), \
                                        document.getElementById('not-interested-title').hidden];", ids[1])).await;
    assert_eq!(back, json!([true, ids[0], "", false, true]), "undo after a re-rank: state and place restored");

    // A mouse user who clicked one paper and then scrolled on comes back,
    // after a re-rank, to the paper first on screen, where it was.
    let first_on_screen = "var top = document.querySelector('header.top').getBoundingClientRect().bottom; \
        var cs = document.querySelectorAll('#picks article.paper'); \
        for (var i = 0; i < cs.length; i++) { var r = cs[i].getBoundingClientRect(); if (r.top >= top - 1 && r.top < innerHeight) return [cs[i].dataset.id, Math.round(r.top)]; } return null;";
    let card = c.find(Locator::Css(&format!("#picks article.paper[data-id=\"{}\"]", ids[4]))).await.unwrap();
    js(
        &c,
        &format!("document.querySelector('#picks article.paper[data-id=\"{}\"]').scrollIntoView({{block: 'center'}}); return 1;", ids[4]),
    )
    .await;
    card.find(Locator::Css("button.down")).await.unwrap().click().await.unwrap();
    eventually("the mouse's 👎", 10, || async { rating_of(&c, &ids[4]).await == "-1" }).await;
    js(&c, "var cs = document.querySelectorAll('#picks article.paper'); cs[14].scrollIntoView({block: 'start'}); window.scrollBy(0, -document.querySelector('header.top').getBoundingClientRect().bottom - 10); return 1;").await;
    let reading = js(&c, first_on_screen).await;
    c.find(Locator::Css("#pending button[data-act=rerank]")).await.unwrap().click().await.unwrap();
    eventually("the page re-ranked by mouse", 20, || async {
        match c.find(Locator::Css("#moved")).await {
            Ok(m) => m.is_displayed().await.unwrap_or(false),
            Err(_) => false,
        }
    })
    .await;
    let after = js(&c, first_on_screen).await;
    assert_eq!(after[0], reading[0], "the reader is back at the paper first on screen ({reading} -> {after})");
    assert!((after[1].as_i64().unwrap() - reading[1].as_i64().unwrap()).abs() <= 2, "at the same height: {reading} -> {after}");
    assert_eq!(current_id(&c).await, reading[0].as_str().unwrap());

    // A stale token (as after a server restart) is refreshed and the
    // rating sent again, not lost.
    let stale = "0".repeat(64);
    let (status, _) = server.post("/api/ratings", Some(&stale), &json!({"id": ids[3], "rating": 1}).to_string());
    assert_eq!(status, 403, "the server refuses a wrong token");
    js(&c, &format!("document.querySelector('meta[name=csrf-token]').content = '{stale}'; return 1;")).await;
    // Clear of the sticky header, where a hand would click it.
    js(&c, &format!("document.querySelector('article.paper[data-id=\"{}\"]').scrollIntoView({{block: 'center'}}); return 1;", ids[3]))
        .await;
    let card = c.find(Locator::Css(&format!("article.paper[data-id=\"{}\"]", ids[3]))).await.unwrap();
    card.find(Locator::Css("button.up")).await.unwrap().click().await.unwrap();
    eventually("the rating after a token refresh", 10, || async { rating_of(&c, &ids[3]).await == "1" }).await;
    let fresh = js(&c, "return document.querySelector('meta[name=csrf-token]').content;").await;
    assert_eq!(fresh.as_str(), Some(server.csrf().as_str()), "the page holds the server's token again");

    // Search from the header; while the model loads the page says so and
    // reloads itself, so waiting for results covers both.
    let q = c.find(Locator::Css("form.search input[name=q]")).await.unwrap();
    q.send_keys("scheduling LLM inference on GPU clusters").await.unwrap();
    c.find(Locator::Css("form.search button")).await.unwrap().click().await.unwrap();
    eventually("search results", 120, || async {
        c.find_all(Locator::Css("#results article.paper")).await.map(|r| !r.is_empty()).unwrap_or(false)
    })
    .await;
    let url = c.current_url().await.unwrap();
    assert_eq!(url.path(), "/search");
    let results = c.find_all(Locator::Css("#results article.paper")).await.unwrap();
    assert!(results.len() >= 10);
    c.close().await.unwrap();
}

/// axe-core's script, installed from npm into target/axe on first use.
fn axe_source() -> String {
    const VERSION: &str = "4.14.1";
    let dir = root().join("target/axe");
    let file = dir.join("node_modules/axe-core/axe.min.js");
    let installed = std::fs::read_to_string(dir.join("node_modules/axe-core/package.json")).unwrap_or_default();
    if !file.is_file() || !installed.contains(&format!("\"version\": \"{VERSION}\"")) {
        std::fs::create_dir_all(&dir).unwrap();
        let status = Command::new("npm")
            .args(["install", "--no-save", "--no-audit", "--no-fund", "--silent", "--prefix"])
            .arg(&dir)
            .arg(format!("axe-core@{VERSION}"))
            .status()
            .expect("npm is missing: the accessibility check installs axe-core with it");
        assert!(status.success(), "npm install axe-core@{VERSION} failed");
    }
    std::fs::read_to_string(&file).expect("axe-core's axe.min.js")
}

/// The serious and critical violations axe-core finds on the open page.
async fn axe(c: &Client, source: &str) -> Vec<String> {
    c.execute(source, vec![]).await.expect("axe-core loads");
    let found = c
        .execute_async(
            "var done = arguments[arguments.length - 1];
             axe.run(document, { resultTypes: ['violations'] }).then(function (r) {
               done(r.violations.filter(function (v) { return v.impact === 'serious' || v.impact === 'critical'; })
                 .map(function (v) { return v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 3).map(function (n) {
                   return n.target.join(' ') + ' ' + (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 160); }).join(' | '); }));
             }, function (e) { done(['axe failed: ' + e]); });",
            vec![],
        )
        .await
        .expect("axe-core runs");
    found.as_array().map(|a| a.iter().map(|v| v.as_str().unwrap_or("").to_string()).collect()).unwrap_or_default()
}

/// Headings: one h1, and no level skipped on the way down.
async fn heading_faults(c: &Client) -> Vec<String> {
    let levels = js(
        c,
        "return Array.prototype.map.call(document.querySelectorAll('h1,h2,h3,h4,h5,h6'), function (h) { return Number(h.tagName[1]); });",
    )
    .await;
    let levels: Vec<u64> = levels.as_array().map(|a| a.iter().filter_map(Value::as_u64).collect()).unwrap_or_default();
    let mut faults = Vec::new();
    if levels.iter().filter(|&&l| l == 1).count() != 1 {
        faults.push(format!("{} h1 elements", levels.iter().filter(|&&l| l == 1).count()));
    }
    for w in levels.windows(2) {
        if w[1] > w[0] + 1 {
            faults.push(format!("h{} after h{}", w[1], w[0]));
        }
    }
    faults
}

fn screenshot_dir() -> PathBuf {
    let d = root().join("target/screenshots");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Sizes the window so that the page itself gets `width`×`height`.
async fn viewport(c: &Client, width: u32, height: u32) {
    let edge = js(c, "return [outerWidth - innerWidth, outerHeight - innerHeight];").await;
    let (dw, dh) = (edge[0].as_u64().unwrap_or(0) as u32, edge[1].as_u64().unwrap_or(0) as u32);
    c.set_window_size(width + dw, height + dh).await.unwrap();
}

/// Cards wholly on the first screen.
async fn cards_on_screen(c: &Client) -> u64 {
    js(c, "return Array.prototype.filter.call(document.querySelectorAll('article.paper'), function (e) { var r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }).length;").await.as_u64().unwrap_or(0)
}

async fn sideways(c: &Client) -> (i64, i64) {
    let v = js(c, "return [document.documentElement.scrollWidth, window.innerWidth];").await;
    (v[0].as_i64().unwrap_or(0), v[1].as_i64().unwrap_or(0))
}

/// Visible controls smaller than 24×24 CSS px, but for links inside a
/// sentence (WCAG 2.5.8's inline exception): a paragraph, list item or
/// cell with text of its own around the link.
const SMALL_TARGETS: &str = "var out = []; \
    document.querySelectorAll('a[href], button, select, input:not([type=hidden]), summary').forEach(function (e) { \
      var r = e.getBoundingClientRect(); if (!r.width || !r.height || e.closest('.vh, [hidden], dialog:not([open])')) return; \
      if (getComputedStyle(e).visibility === 'hidden') return; \
      if (e.tagName === 'A' && getComputedStyle(e).display === 'inline' && e.parentElement.textContent.trim() !== e.textContent.trim()) return; \
      if (r.width < 23.5 || r.height < 23.5) out.push(e.tagName + ' ' + (e.className || '') + ' \\'' + e.textContent.trim().slice(0, 20) + '\\' ' + Math.round(r.width) + 'x' + Math.round(r.height)); }); \
    return out.slice(0, 12);";

/// The rows the header's visible parts stand in.
const HEADER_ROWS: &str = "var tops = {}; \
    document.querySelectorAll('header.top .in > *').forEach(function (e) { var r = e.getBoundingClientRect(); \
      if (r.width && r.height && getComputedStyle(e).display !== 'none') tops[Math.round((r.top + r.bottom) / 2 / 8)] = 1; }); \
    return Object.keys(tops).length;";

#[tokio::test(flavor = "multi_thread")]
async fn compact_phone_dark_and_every_page_accessible() {
    let axe_js = axe_source();
    let d = demo(
        |lib| {
            ok(lib, &["filter", "add", "exclude", "blockchain"]);
            // The day's top leads whatever its strength: a long list to read.
            ok(lib, &["filter", "bar", "loose"]);
        },
        true,
    )
    .await;
    let (dir, lib, server, c) = (d.dir.path(), d.lib.clone(), &d.server, d.c.clone());
    let shots = screenshot_dir();

    c.goto(&server.page_url("/")).await.unwrap();
    let id = c.find(Locator::Css("#picks article.paper")).await.unwrap().attr("data-id").await.unwrap().unwrap();
    let day = js(&c, "return document.querySelector('h1').textContent.split(' ').pop();").await.as_str().unwrap_or("").to_string();
    let pages = [
        "/".to_string(),
        format!("/day/{day}"),
        "/seeds".to_string(),
        format!("/paper/{id}"),
        format!("/like/{id}"),
        "/search?q=scheduling+LLM+inference".to_string(),
        "/stats".to_string(),
        "/settings".to_string(),
        "/day/1999-01-01".to_string(),
    ];
    // The sign-in page, of a server with an account.
    let lib2 = dir.join("lib2");
    common::copy_dir(&lib, &lib2);
    let pw = dir.join("pw");
    std::fs::write(&pw, "correct horse battery\n").unwrap();
    ok(&lib2, &["user", "add", "alice", "--password-file", pw.to_str().unwrap()]);
    let accounts = Server::start(&lib2);
    let login = format!("{}/login", accounts.url);
    let urls: Vec<String> = pages.iter().map(|p| server.page_url(p)).chain([login.clone()]).collect();

    // The card view on a 1280×900 screen, then the compact list: at least
    // ten papers on the first screen, and remembered by this browser.
    viewport(&c, 1280, 900).await;
    let inner = js(&c, "return [innerWidth, innerHeight];").await;
    assert_eq!(inner, json!([1280, 900]), "the window is the screen the issue names");
    let cards_view = cards_on_screen(&c).await;
    std::fs::write(shots.join("desktop-cards.png"), c.screenshot().await.unwrap()).unwrap();
    c.find(Locator::Css("button[data-act=view]")).await.unwrap().click().await.unwrap();
    let compact = cards_on_screen(&c).await;
    assert!(compact >= 10, "{compact} papers on a 1280×900 screen in the compact list ({cards_view} as cards)");
    eprintln!("papers wholly on a 1280×900 screen: {cards_view} as cards, {compact} in the compact list");
    std::fs::write(shots.join("desktop-compact.png"), c.screenshot().await.unwrap()).unwrap();
    c.refresh().await.unwrap();
    assert_eq!(js(&c, "return document.documentElement.classList.contains('compact');").await, json!(true), "compact is remembered");
    // The abstract on demand, in the compact list.
    keys(&c, "a").await;
    assert!(c.find(Locator::Css("article.paper.current details")).await.unwrap().attr("open").await.unwrap().is_some());
    keys(&c, "c").await;

    // Every page, light: no serious or critical axe violation, one h1,
    // headings in order.
    for p in &urls {
        c.goto(p).await.unwrap();
        let v = axe(&c, &axe_js).await;
        assert!(v.is_empty(), "axe-core on {p} (light): {v:#?}");
        let h = heading_faults(&c).await;
        assert!(h.is_empty(), "headings on {p}: {h:?}");
    }

    // Dark, by the toggle; remembered; every page again.
    c.goto(&server.page_url("/")).await.unwrap();
    keys(&c, "t").await;
    let bg = js(&c, "return getComputedStyle(document.body).backgroundColor;").await;
    assert_eq!(bg, json!("rgb(18, 20, 23)"), "the dark scheme");
    std::fs::write(shots.join("desktop-dark.png"), c.screenshot().await.unwrap()).unwrap();
    for p in &urls {
        if p == &login {
            // Another origin, another storage: the toggle there.
            c.goto(p).await.unwrap();
            js(&c, "localStorage.setItem('ps.theme', 'dark'); return 1;").await;
        }
        c.goto(p).await.unwrap();
        assert_eq!(js(&c, "return document.documentElement.dataset.theme;").await, json!("dark"), "{p}");
        let v = axe(&c, &axe_js).await;
        assert!(v.is_empty(), "axe-core on {p} (dark): {v:#?}");
    }
    c.goto(&server.page_url("/")).await.unwrap();
    keys(&c, "t").await;
    assert_eq!(js(&c, "return document.documentElement.dataset.theme;").await, json!("light"));

    // A 390 px phone: no page scrolls sideways; the first paper starts on
    // the first screen.
    viewport(&c, 390, 844).await;
    for p in &urls {
        c.goto(p).await.unwrap();
        let (scroll, width) = sideways(&c).await;
        assert!(scroll <= width, "{p} scrolls sideways on a phone: {scroll} px in {width}");
        if p.ends_with("/seeds") {
            std::fs::write(shots.join("phone-seeds.png"), c.screenshot().await.unwrap()).unwrap();
        }
    }
    // The first paper on the first screen of every page that lists papers,
    // a new profile's (in listing order, with its banner) too.
    let day = server.json("/api/daily?top=20&all=1");
    let author = day.as_array().unwrap().iter().find_map(|p| p["authors"][0].as_str()).expect("a paper with authors").to_string();
    let by_name = format!("/search?q={}", author.replace(' ', "+"));
    let listing = [
        pages[0].clone(),
        pages[1].clone(),
        pages[3].clone(),
        pages[4].clone(),
        pages[5].clone(),
        by_name.clone(),
        "/?profile=fresh".into(),
    ];
    for p in &listing {
        c.goto(&server.page_url(p)).await.unwrap();
        let first = js(&c, "var r = document.querySelector('article.paper').getBoundingClientRect(); return [r.top, innerHeight];").await;
        let (top, height) = (first[0].as_f64().unwrap_or(1e9), first[1].as_f64().unwrap_or(0.0));
        assert!(top + 60.0 < height, "{p}: the first paper starts {top} px down a {height} px phone screen");
        eprintln!("phone: on {p} the first paper starts {top} px down a {height} px screen");
    }
    c.goto(&server.page_url("/")).await.unwrap();
    std::fs::write(shots.join("phone.png"), c.screenshot().await.unwrap()).unwrap();
    // A phone you can tap: every control at least 24×24 CSS px (WCAG 2.2,
    // 2.5.8; a link inside a sentence is exempt), the header one row, and
    // after a 👎 the header and the dock cover at most a quarter of it.
    for p in [pages[0].as_str(), pages[2].as_str(), pages[3].as_str(), "/?profile=fresh"] {
        c.goto(&server.page_url(p)).await.unwrap();
        for view in ["cards", "compact"] {
            let small = js(&c, SMALL_TARGETS).await;
            assert_eq!(small, json!([]), "controls under 24×24 px on a 390 px phone, {p} ({view})");
            let rows = js(&c, HEADER_ROWS).await;
            assert_eq!(rows, json!(1), "{p}: the header is one row at 390 px");
            if !p.starts_with("/?") && !p.starts_with("/seeds") {
                break;
            }
            keys(&c, "c").await;
        }
        if p == "/seeds" {
            let seeds = js(&c, "var out = []; document.querySelectorAll('table#seeds tr[data-key] input, table#seeds tr[data-key] button').forEach(function (e) { \
                var r = e.getBoundingClientRect(); if (r.left < 0 || r.right > innerWidth) out.push(e.outerHTML.slice(0, 80)); }); \
                return [out, document.querySelectorAll('table#seeds tr[data-key]').length, /text:[0-9a-f]/.test(document.body.innerText), \
                        /\\bsentence\\b/.test(document.querySelector('table#seeds').innerText)];").await;
            assert_eq!(seeds[0], json!([]), "every seed's weight, move and remove are on the phone's screen");
            assert!(seeds[1].as_u64().unwrap() >= 2, "{seeds}");
            assert_eq!((&seeds[2], &seeds[3]), (&json!(false), &json!(true)), "a sentence seed is called one; internal keys stay internal");
            std::fs::write(shots.join("phone-seeds-rows.png"), c.screenshot().await.unwrap()).unwrap();
        }
    }
    c.goto(&server.page_url("/")).await.unwrap();
    let card = c.find(Locator::Css("#picks article.paper:not([data-rating=\"-1\"]) button.down")).await.unwrap();
    card.click().await.unwrap();
    eventually("the toast and the pending re-rank", 10, || async {
        js(&c, "return !document.getElementById('toast').hidden && !document.getElementById('pending').hidden;").await == json!(true)
    })
    .await;
    let covered = js(&c, "var h = document.querySelector('header.top').getBoundingClientRect().bottom, top = innerHeight; \
        document.querySelectorAll('#dock > *').forEach(function (e) { if (!e.hidden) top = Math.min(top, e.getBoundingClientRect().top); }); \
        return [h, innerHeight - top, innerHeight];").await;
    let (head, dock, screen) = (covered[0].as_f64().unwrap(), covered[1].as_f64().unwrap(), covered[2].as_f64().unwrap());
    eprintln!("phone: header {head} px, dock after a 👎 {dock} px, of {screen} px");
    assert!(head + dock <= screen / 4.0, "header {head} px and dock {dock} px cover more than a quarter of {screen} px");
    std::fs::write(shots.join("phone-after-dislike.png"), c.screenshot().await.unwrap()).unwrap();
    c.goto(&server.page_url("/")).await.unwrap();
    // The compact list on a phone: titles wrap to two lines, never cut to a
    // few words, and never more than two.
    keys(&c, "c").await;
    let titles = js(
        &c,
        "var lh = parseFloat(getComputedStyle(document.querySelector('article.paper .pt')).lineHeight); \
         return Array.prototype.map.call(document.querySelectorAll('#picks article.paper:not([data-rating=\"-1\"]) .pt'), function (t) { \
           return [Math.round(t.getBoundingClientRect().height / lh), t.scrollWidth <= t.clientWidth + 1]; });",
    )
    .await;
    let titles = titles.as_array().unwrap();
    assert!(titles.iter().all(|t| t[1] == json!(true) && t[0].as_u64().is_some_and(|n| (1..=2).contains(&n))), "{titles:?}");
    assert!(titles.iter().any(|t| t[0] == json!(2)), "long titles take a second line: {titles:?}");
    // The reason under each compact title is readable: two lines where it
    // is long, not a few words and an ellipsis.
    let reasons = js(
        &c,
        "return Array.prototype.map.call(document.querySelectorAll('#picks article.paper:not([data-rating=\"-1\"]) .brief'), function (b) { \
           var lh = parseFloat(getComputedStyle(b).lineHeight); return [Math.round(b.getBoundingClientRect().height / lh), b.textContent.length]; });",
    )
    .await;
    let reasons = reasons.as_array().unwrap();
    assert!(reasons.iter().all(|r| r[0].as_u64().is_some_and(|n| (1..=2).contains(&n))), "{reasons:?}");
    assert!(reasons.iter().filter(|r| r[1].as_u64().unwrap() > 60).all(|r| r[0] == json!(2)), "long reasons take two lines: {reasons:?}");
    std::fs::write(shots.join("phone-compact.png"), c.screenshot().await.unwrap()).unwrap();
    keys(&c, "c").await;
    // A search by a name, as the reader sees it.
    c.goto(&server.page_url(&by_name)).await.unwrap();
    std::fs::write(shots.join("phone-search-name.png"), c.screenshot().await.unwrap()).unwrap();
    c.close().await.unwrap();

    // A browser whose system asks for dark gets it without a toggle.
    let c = browser(d.port, &["--force-dark-mode", "--blink-settings=preferredColorScheme=0"]).await;
    c.goto(&d.server.open_url()).await.unwrap();
    c.goto(&server.page_url("/")).await.unwrap();
    assert_eq!(js(&c, "return matchMedia('(prefers-color-scheme: dark)').matches;").await, json!(true));
    let bg = js(&c, "return getComputedStyle(document.body).backgroundColor;").await;
    assert_eq!(bg, json!("rgb(18, 20, 23)"), "prefers-color-scheme: dark is followed");
    c.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn seeds_added_from_the_browser_and_digest_links() {
    let d = demo(|_| {}, true).await;
    let (dir, lib, server, c) = (d.dir.path(), d.lib.clone(), &d.server, d.c.clone());
    let known = json_lines(&ok(&lib, &["seed", "list", "--json"]));
    let listed = server.json("/api/daily?top=12&all=1");
    let in_library: Vec<String> = listed
        .as_array()
        .expect("the day's papers")
        .iter()
        .filter_map(|p| p["id"].as_str().map(str::to_string))
        .filter(|id| !known.iter().any(|s| s["key"] == id.as_str()))
        .collect();
    assert!(in_library.len() >= 2);
    let from_bib = known.iter().filter(|s| s["origin"].as_str().is_some_and(|o| o.contains("seeds.bib"))).count();
    assert!(from_bib > 0);
    // A profile with nothing in it yet.
    let keys: Vec<&str> = known.iter().filter_map(|s| s["key"].as_str()).collect();
    let mut rm = vec!["seed", "rm"];
    rm.extend(keys);
    ok(&lib, &rm);

    // An empty profile's front page says how to start, and starts there;
    // with nothing liked there is nothing to be unsure of.
    c.goto(&server.page_url("/")).await.unwrap();
    let banner = c.find(Locator::Css(".banner")).await.unwrap().text().await.unwrap();
    assert!(banner.contains("Nothing liked yet"), "{banner}");
    assert_eq!(
        js(&c, "return document.getElementById('unsure') === null;").await,
        json!(true),
        "no Unsure section before anything is liked"
    );
    let url = format!("https://arxiv.org/abs/{}", in_library[0]);
    c.find(Locator::Css("#seed-id")).await.unwrap().send_keys(&url).await.unwrap();
    c.find(Locator::Css("form[data-seed=id] button")).await.unwrap().click().await.unwrap();
    eventually("the added paper", 30, || async { ok(&lib, &["seed", "list"]).contains(&in_library[0]) }).await;
    eventually("the reloaded, ranked page", 30, || async {
        c.find(Locator::Css("#toast")).await.unwrap().text().await.unwrap_or_default().contains("Added 1 seed")
    })
    .await;
    assert_eq!(js(&c, "return document.body.textContent.includes('Nothing liked yet');").await, json!(false), "the day is ranked now");
    // The forms that add a seed stay on the day page, folded.
    assert_eq!(
        js(&c, "return !!document.querySelector('details.add #seed-id') && !!document.querySelector('details.add #seed-text');").await,
        json!(true)
    );

    // A new profile, from the web: named on /seeds, begun on its day page,
    // kept from its first rating.
    c.goto(&server.page_url("/seeds")).await.unwrap();
    c.find(Locator::Css("#new-profile-form input[name=profile]")).await.unwrap().send_keys("triage\u{E007}").await.unwrap();
    eventually("the new profile's page", 10, || async {
        c.find(Locator::Css("#new-profile")).await.is_ok()
            && c.current_url().await.is_ok_and(|u| u.query_pairs().any(|(k, v)| k == "profile" && v == "triage"))
    })
    .await;
    let first = c.find(Locator::Css("#picks article.paper")).await.unwrap();
    let first_id = first.attr("data-id").await.unwrap().unwrap();
    first.find(Locator::Css("button.up")).await.unwrap().click().await.unwrap();
    eventually("the new profile's first 👍", 10, || async { rating_of(&c, &first_id).await == "1" }).await;
    assert!(ok(&lib, &["seed", "list", "--profile", "triage"]).contains(&first_id), "the profile exists now");

    // A sentence, on /seeds; and a bad id, said next to the field.
    c.goto(&server.page_url("/seeds")).await.unwrap();
    c.find(Locator::Css("#seed-text")).await.unwrap().send_keys("consensus protocols for geo-replicated databases").await.unwrap();
    c.find(Locator::Css("form[data-seed=text] button")).await.unwrap().click().await.unwrap();
    eventually("the added sentence", 30, || async { ok(&lib, &["seed", "list"]).contains("geo-replicated") }).await;
    c.goto(&server.page_url("/seeds")).await.unwrap();
    c.find(Locator::Css("#seed-id")).await.unwrap().send_keys("not-an-id").await.unwrap();
    c.find(Locator::Css("form[data-seed=id] button")).await.unwrap().click().await.unwrap();
    eventually("the error by the field", 10, || async {
        c.find(Locator::Css("form[data-seed=id] .msg")).await.unwrap().text().await.unwrap_or_default().contains("is not an arXiv id")
    })
    .await;
    // The same paper again is no new seed, and says so.
    let field = c.find(Locator::Css("#seed-id")).await.unwrap();
    field.clear().await.unwrap();
    field.send_keys(&in_library[0]).await.unwrap();
    c.find(Locator::Css("form[data-seed=id] button")).await.unwrap().click().await.unwrap();
    eventually("the seed that was one already", 30, || async {
        // The page reloads meanwhile: no toast yet is no answer yet.
        match c.find(Locator::Css("#toast")).await {
            Ok(toast) => toast.text().await.unwrap_or_default().contains("Already a seed"),
            Err(_) => false,
        }
    })
    .await;
    let (_, seeds_page) = server.get("/seeds");
    assert!(seeds_page.contains("<td>sentence</td>"), "a sentence seed's source");

    // An export, uploaded.
    let bib = root().join("examples/seeds.bib");
    c.find(Locator::Css("#seed-file")).await.unwrap().send_keys(bib.to_str().unwrap()).await.unwrap();
    c.find(Locator::Css("form[data-seed=file] button")).await.unwrap().click().await.unwrap();
    eventually("the uploaded export", 60, || async { json_lines(&ok(&lib, &["seed", "list", "--json"])).len() >= 2 + from_bib }).await;

    // A Zotero database on this computer, by its path.
    let db = dir.join("zotero.sqlite");
    let z = common::zotero_db(&db);
    common::add_item(
        &z,
        1,
        7,
        "GGGGGGGG",
        "2026-01-01 12:00:00",
        &[(1, "A book on GPU scheduling"), (2, "Schedulers for accelerators.")],
        None,
    );
    drop(z);
    c.goto(&server.page_url("/seeds")).await.unwrap();
    c.find(Locator::Css("#seed-zotero")).await.unwrap().send_keys(db.to_str().unwrap()).await.unwrap();
    c.find(Locator::Css("form[data-seed=zotero] button")).await.unwrap().click().await.unwrap();
    eventually("the Zotero seed", 30, || async { ok(&lib, &["seed", "list"]).contains("A book on GPU scheduling") }).await;

    // A filter added with Enter; a bad one is said next to the form.
    c.goto(&server.page_url("/seeds")).await.unwrap();
    let value = c.find(Locator::Css("#add-filter input[name=value]")).await.unwrap();
    value.send_keys("blockchain\u{E007}").await.unwrap();
    eventually("the added filter", 10, || async { ok(&lib, &["filter", "list"]).contains("blockchain") }).await;
    c.goto(&server.page_url("/seeds")).await.unwrap();
    c.find(Locator::Css("#add-filter select[name=rule]")).await.unwrap().send_keys("deny").await.unwrap();
    c.find(Locator::Css("#add-filter input[name=value]")).await.unwrap().send_keys("not a category!\u{E007}").await.unwrap();
    eventually("the filter error", 10, || async {
        !c.find(Locator::Css("#filter-msg")).await.unwrap().text().await.unwrap_or_default().is_empty()
    })
    .await;

    // A digest's 👎 link: the GET changes nothing; the click rates.
    let target = &in_library[1];
    c.goto(&server.page_url(&format!("/paper/{target}?rate=down"))).await.unwrap();
    let offer = c.find(Locator::Css("#rate-offer")).await.unwrap();
    assert!(offer.text().await.unwrap().contains("not interested"));
    assert!(!ok(&lib, &["seed", "list"]).contains(target.as_str()), "a GET never writes");
    offer.find(Locator::Css("button")).await.unwrap().click().await.unwrap();
    eventually("the rating from the link", 10, || async { rating_of(&c, target).await == "-1" }).await;
    let rated = json_lines(&ok(&lib, &["seed", "list", "--json"]));
    assert!(rated.iter().any(|s| s["key"] == target.as_str() && s["negative"] == true));

    // Settings: where the morning digest goes, saved from the page; the
    // webhook's address is shown by its host only, then.
    c.goto(&server.page_url("/settings")).await.unwrap();
    c.find(Locator::Css("#set-email")).await.unwrap().send_keys("me@example.org").await.unwrap();
    c.find(Locator::Css("#set-format")).await.unwrap().send_keys("slack").await.unwrap();
    c.find(Locator::Css("#set-url")).await.unwrap().send_keys("https://127.0.0.1:9/services/T0/B0/not-to-be-shown").await.unwrap();
    c.find(Locator::Css("#settings button[type=submit]")).await.unwrap().click().await.unwrap();
    eventually("the saved settings", 10, || async {
        js(&c, "return document.body.textContent.includes('slack at https://127.0.0.1/');").await == json!(true)
    })
    .await;
    assert_eq!(js(&c, "return document.documentElement.outerHTML.includes('not-to-be-shown');").await, json!(false));
    assert_eq!(js(&c, "return document.getElementById('set-email').value;").await, json!("me@example.org"));
    c.close().await.unwrap();
}

/// The launch key of a server without accounts, as another user of the
/// machine would fish for it (issue 52): a listener on another port of
/// 127.0.0.1 that the owner opens one link to. A browser sends it what it
/// sends every port of the host unasked (cookies); the key is in none of
/// it, so replaying what arrived opens nothing. A bookmark without the key
/// still opens in the owner's browser (the key is in that origin's own
/// storage), and after a restart with a new key it is a page that says
/// how to get in.
#[tokio::test(flavor = "multi_thread")]
async fn the_launch_key_never_reaches_another_port() {
    let mut d = demo(|_| {}, false).await;
    let c = d.c.clone();
    let key = d.server.token.clone().unwrap();
    c.goto(&d.server.page_url("/seeds")).await.unwrap();
    let (spy, got) = crate::chat::recorder(vec![]);
    // One click of the owner's: a link to the other port.
    js(&c, &format!("var a = document.createElement('a'); a.href = '{spy}/look?x=1'; document.body.appendChild(a); a.click(); return 1;"))
        .await;
    eventually("the listener's visit", 20, || async { !got.lock().unwrap().is_empty() }).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let arrived = got.lock().unwrap().clone();
    for a in &arrived {
        for h in ["cookie", "referer", "authorization"] {
            let v = a.header(h).unwrap_or_default();
            assert!(!v.contains(&key), "{h} of {} carried the key: {v}", a.path);
        }
        assert!(!a.path.contains(&key), "{}", a.path);
        // What arrived, replayed against the server, opens nothing.
        let mut req = ureq::get(&format!("{}/api/seeds", d.server.url));
        if let Some(cookie) = a.header("cookie") {
            req = req.set("Cookie", cookie);
        }
        assert_eq!(common::response(req.call()).0, 401, "replayed from {}", a.path);
    }
    // (The listener's own page asks it for its icon, naming itself.)
    assert!(arrived.iter().all(|a| !a.header("referer").unwrap_or_default().starts_with(&d.server.url)), "no Referer leaves a page");

    // A bookmark without the key, in the owner's browser: it opens.
    c.goto(&format!("{}/stats", d.server.url)).await.unwrap();
    eventually("the stats page through the kept key", 20, || async {
        c.find(Locator::Css("h1")).await.ok().is_some()
            && js(&c, "return document.getElementById('need-key') === null && !!document.querySelector('main h1');").await == json!(true)
    })
    .await;
    assert!(c.current_url().await.unwrap().query_pairs().any(|(k, v)| k == "token" && v == key.as_str()));

    // A restart with a new key on the same port: the bookmark is a page
    // that says how to get in (not JSON), and stays there.
    let addr = d.server.addr();
    d.server.kill();
    let again = Server::spawn(common::command(&d.lib, &["serve", "--addr", &addr]));
    assert_ne!(again.token.as_deref(), Some(key.as_str()));
    c.goto(&format!("{}/stats", again.url)).await.unwrap();
    eventually("the page that says how to get in", 20, || async {
        js(&c, "var h = document.querySelector('h1'); return h ? h.textContent : '';").await == json!("Open the address the server printed")
            && c.current_url().await.is_ok_and(|u| u.query_pairs().any(|(k, _)| k == "token"))
    })
    .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(js(&c, "return localStorage.getItem('ps.key');").await, Value::Null, "a key that opens nothing is forgotten");
    // The new printed address opens, and is kept in its place.
    c.goto(&again.open_url()).await.unwrap();
    assert_eq!(js(&c, "return localStorage.getItem('ps.key');").await, json!(again.token.clone().unwrap()));
    c.close().await.unwrap();
}
