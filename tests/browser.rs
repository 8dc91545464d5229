//! The page as a reader uses it, in a real headless Chromium driven through
//! chromedriver (WebDriver): rate a paper with a click and with the
//! keyboard, reload and see the ratings kept, find them in `seed list`,
//! and search by text. `scripts/test` installs Debian's `chromium` and
//! `chromium-driver` when they are missing.

mod common;

use common::{demo_library, json_lines, ok, Server};
use fantoccini::{Client, ClientBuilder, Locator};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

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

async fn browser(port: u16) -> Client {
    // Only plain HTTP to chromedriver, but the client is built with TLS.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let caps = serde_json::json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1200,1600"]
        }
    });
    let caps = caps.as_object().cloned().unwrap_or_default();
    ClientBuilder::rustls()
        .expect("a WebDriver client")
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

async fn rating_of(c: &Client, id: &str) -> String {
    match c.find(Locator::Css(&format!("article.paper[data-id=\"{id}\"]"))).await {
        Ok(card) => card.attr("data-rating").await.ok().flatten().unwrap_or_default(),
        Err(_) => String::new(),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn rate_reload_and_search_in_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let server = Server::start(&lib);
    let (_driver, port) = start_driver();
    let c = browser(port).await;

    c.goto(&format!("{}/", server.url)).await.unwrap();
    let cards = c.find_all(Locator::Css("article.paper")).await.unwrap();
    assert!(cards.len() >= 3, "the digest lists papers");
    let first = cards[0].attr("data-id").await.unwrap().expect("a paper id");
    let second = cards[1].attr("data-id").await.unwrap().expect("a paper id");

    // 👍 by click.
    cards[0].find(Locator::Css("button.up")).await.unwrap().click().await.unwrap();
    eventually("the liked state", 10, || async { rating_of(&c, &first).await == "1" }).await;
    let state = cards[0].find(Locator::Css(".state")).await.unwrap().text().await.unwrap();
    assert_eq!(state, "liked");

    // 👎 by keyboard: j twice moves to the second paper, n rates it.
    let body = c.find(Locator::Css("body")).await.unwrap();
    body.send_keys("jjn").await.unwrap();
    eventually("the keyboard rating", 10, || async { rating_of(&c, &second).await == "-1" }).await;

    // A reload shows both ratings, kept by the server.
    c.refresh().await.unwrap();
    eventually("the reloaded page", 10, || async { rating_of(&c, &first).await == "1" }).await;
    assert_eq!(rating_of(&c, &second).await, "-1");
    let seeds = json_lines(&ok(&lib, &["seed", "list", "--json"]));
    let find = |id: &str| seeds.iter().find(|s| s["key"] == id).cloned();
    assert_eq!(find(&first).expect("the 👍 paper is a seed")["negative"], false);
    assert_eq!(find(&second).expect("the 👎 paper is a seed")["negative"], true);

    // Undo takes the rating back.
    let card = c.find(Locator::Css(&format!("article.paper[data-id=\"{second}\"]"))).await.unwrap();
    card.find(Locator::Css("button.undo")).await.unwrap().click().await.unwrap();
    eventually("the undone rating", 10, || async { rating_of(&c, &second).await == "0" }).await;
    assert!(!ok(&lib, &["seed", "list"]).contains(&second));

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
