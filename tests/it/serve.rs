//! `paperscout serve` end to end: the binary on an ephemeral loopback port
//! over a library built from the shared fixture pages with the real model.

use crate::common;

use crate::common::{demo_library, json_lines, ok, Server};
use serde_json::{json, Value};
use std::collections::HashMap;

fn ids(v: &[Value]) -> Vec<String> {
    v.iter().map(|p| p["id"].as_str().unwrap_or("").to_string()).collect()
}

fn array(v: Value) -> Vec<Value> {
    v.as_array().cloned().unwrap_or_else(|| panic!("not an array: {v}"))
}

#[test]
fn pages_and_their_json_twins_match_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let s = Server::start(&lib);

    // The digest: the same objects, order and scores as `daily --format json`.
    let cli = json_lines(&ok(&lib, &["daily", "--format", "json", "--top", "12", "--all"]));
    let api = array(s.json("/api/daily?top=12&all=1"));
    assert_eq!(api.len(), 12);
    assert_eq!(api, cli, "the page's JSON twin and the CLI rank alike");
    let cli = json_lines(&ok(&lib, &["daily", "--format", "json", "--date", "2026-03-02", "--method", "logistic", "--top", "5", "--all"]));
    assert_eq!(array(s.json("/api/daily?date=2026-03-02&method=logistic&top=5&all=1")), cli);

    // The page leads with the picks above the bar and says how many it
    // left below; "Show them" is the whole day.
    let (status, lead) = s.get("/");
    assert_eq!(status, 200);
    // Top's default says what it shows: this day is short, so all of it.
    assert!(lead.contains(r#"<option value="day" selected>whole day</option>"#), "{lead}");
    // A search by a name says the true count and links the next page.
    let day = array(s.json("/api/daily?top=200&all=1&include=new,cross,replaced"));
    let mut surnames: HashMap<String, usize> = HashMap::new();
    for a in day.iter().flat_map(|p| p["authors"].as_array().cloned().unwrap_or_default()) {
        if let Some(last) =
            a.as_str().and_then(|a| a.split_whitespace().last()).filter(|l| l.len() > 3 && l.chars().all(char::is_alphabetic))
        {
            *surnames.entry(last.to_string()).or_default() += 1;
        }
    }
    let (name, n) = surnames.into_iter().max_by_key(|(name, n)| (*n, name.clone())).unwrap();
    assert!(n >= 2, "{name}");
    let (_, found) = s.get(&format!("/search?q={name}&k=1"));
    assert!(found.contains(" found, showing 1–1, best first: 1 by author"), "{found}");
    let more = found.split("<p class=\"more\">").nth(1).expect("a link to more");
    assert!(more.contains(&format!("q={name}")) && more.contains("offset=1\">") && more.contains(" more</a>"), "{more}");
    // A profile not kept yet (no rating, no seed) is in its own menus, so
    // that changing Top or Method keeps it.
    let (_, new) = s.get("/?profile=triage");
    let menu = new.split("<select name=\"profile\"").nth(1).and_then(|m| m.split("</select>").next()).expect("the profile menu");
    assert!(menu.contains(r#"<option value="triage" selected>triage</option>"#), "{menu}");
    let picks = lead.split("<section id=\"picks\">").nth(1).and_then(|p| p.split("</section>").next()).expect("the picks");
    let shown = picks.matches("<article class=\"paper\"").count();
    let (before, after) = lead.split_once(" more below your bar (usual). ").expect("the count below the bar");
    let below: usize = before.rsplit("<p>").next().and_then(|n| n.parse().ok()).expect("a count");
    assert!(shown >= 3 && below > 0, "{lead}");
    assert!(after.starts_with("<a href=\"/day/2026-03-03?") && after.split('>').next().unwrap().contains("all=1"), "{after}");
    let (status, page) = s.get("/?all=1");
    assert_eq!(status, 200);
    assert!(page.contains("<meta name=\"csrf-token\" content=\""));
    assert!(page.contains("arXiv digest for 2026-03-03"));
    // The day list and the digest count the same entries.
    let listed = page.split("<b>2026-03-03</b> (").nth(1).and_then(|r| r.split(')').next()).expect("the day in the day list");
    // A day under 150 entries is shown whole, so there is nothing left to be unsure of.
    let listed: usize = listed.parse().unwrap();
    assert!(listed < 150);
    assert!(page.contains(&format!("{listed} of {listed} entries")), "the day list says {listed}:\n{page}");
    assert_eq!(page.matches("<article class=\"paper\"").count(), listed, "the whole day");
    let (_, top20) = s.get("/?top=20&all=1");
    assert_eq!(top20.matches("<article class=\"paper\"").count(), 20 + 4, "20 picks and 4 unsure papers");
    // The Top a reader chose is remembered (page.js sets the cookie), and
    // a forged cookie is ignored rather than an error.
    let remembered = |cookie: &str| {
        let req = s.request("GET", "/day/2026-03-03?all=1").set("Cookie", cookie);
        common::response(req.call()).1
    };
    assert_eq!(remembered("ps_top=20; ps_method=centroid").matches("<span class=\"rank\">").count(), 20, "remembered, and cut to it");
    assert!(remembered("ps_top=20; ps_method=centroid").contains("method <b>centroid</b>"));
    let forged = remembered("ps_top=%3Cscript%3E; ps_method=nope");
    assert!(forged.contains("method <b>hybrid</b>") && !forged.contains("<script>alert"), "{forged}");
    let first = &array(s.json("/api/daily?top=1&all=1"))[0];
    let title = first["title"].as_str().unwrap();
    let at = page.find("class=\"paper\"").unwrap();
    assert!(page[at..].contains(&format!("href=\"https://arxiv.org/abs/{}\"", first["id"].as_str().unwrap())));
    assert!(page.contains(title.split(':').next().unwrap()));
    for needle in ["👍", "👎", "more like this", "<kbd>j</kbd>", "https://arxiv.org/pdf/", "<details><summary>Abstract"] {
        assert!(page.contains(needle), "{needle}");
    }
    assert_eq!(s.get("/day/2026-03-02").0, 200);
    // A weak pick looks weak: its reason is set apart from the others'.
    let all = array(s.json("/api/daily?date=2026-03-03&include=new,cross,replaced&top=200&all=1"));
    let weak = all.iter().filter(|p| p["section"] == "pick" && p["weak"] == true).count();
    assert!(weak > 0, "the demo day has weak matches");
    let (_, page) = s.get("/day/2026-03-03?include=new,cross,replaced&top=200&all=1");
    assert_eq!(page.matches("<div class=\"reason weak\">weak: nearest seed").count(), weak, "{page}");
    // Each pick's card says what the paper does, as the JSON does.
    let gists = all.iter().filter(|p| p["section"] == "pick" && p["gist"].is_string()).count();
    assert!(gists * 10 >= all.iter().filter(|p| p["section"] == "pick").count() * 9, "nearly every abstract has a gist");
    assert_eq!(page.matches("<p class=\"gist\">").count(), gists, "{page}");
    let (_, d) = s.get("/day/2025-07-11?method=centroid&include=new&top=3&all=1");
    assert_eq!(d.matches("<span class=\"rank\">").count(), 3);
    // A day or profile the library lacks is a 404 that names what it has,
    // not an empty digest.
    let (status, page) = s.get("/day/2001-01-01");
    assert_eq!(status, 404, "{page}");
    assert!(page.contains("no listing on 2001-01-01") && page.contains("2026-03-03, 2026-03-02"), "{page}");
    let (status, body) = s.get("/api/daily?date=2001-01-01");
    assert_eq!(status, 404, "{body}");
    // A profile the reader does not have is a new one on the page (that is
    // how one starts), in listing order and saying so; the API and the feed
    // still answer 404, naming the profiles there are.
    let (status, page) = s.get("/?profile=triage");
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("id=\"new-profile\"") && page.contains("Your other profiles: default"), "{page}");
    assert!(page.contains("in listing order") && !page.contains("id=\"unsure\""), "nothing to be unsure of yet: {page}");
    let (status, body) = s.get("/api/daily?profile=typo");
    assert_eq!(status, 404);
    assert!(body.contains("no profile \\\"typo\\\"") && body.contains("the profiles are default"), "{body}");
    assert_eq!(s.get("/feed.atom?profile=typo").0, 404);
    // Every day is reachable: the bar's links, then a menu of the rest.
    let (_, page) = s.get("/day/2026-03-03");
    let days = serde_json::from_str::<Value>(&ok(&lib, &["stats", "--json"])).unwrap()["days"].as_u64().unwrap() as usize;
    let linked = page.matches("<span><a href=\"/day/").count() + 1;
    let menu = page.split("name=\"date\"").nth(1).map_or(0, |m| m.split("</select>").next().unwrap().matches("<option value=\"2").count());
    assert_eq!(linked + menu, days, "{page}");

    // Papers like one: as `like ID --json`.
    let cli = json_lines(&ok(&lib, &["like", "2603.00356", "-k", "7", "--json"]));
    assert_eq!(array(s.json("/api/like/2603.00356?k=7")), cli);
    let cli = json_lines(&ok(&lib, &["like", "2603.00356", "-k", "5", "--json", "--since", "2026-03-01", "--category", "cs.LG"]));
    assert_eq!(array(s.json("/api/like/2603.00356v1?k=5&since=2026-03-01&category=cs.LG")), cli);
    let (status, like) = s.get("/like/2603.00356");
    assert_eq!(status, 200);
    assert_eq!(like.matches("<article class=\"paper\"").count(), 1 + 20, "the paper it starts from, then 20");
    assert!(like.contains("<section id=\"origin\""));

    // Search by meaning needs the model, loaded in the background; then the
    // page finds what `search` finds: by id, name, words and meaning.
    s.wait_for_model();
    let q = "serving large language models on GPU clusters";
    let cli = json_lines(&ok(&lib, &["search", q, "-k", "6", "--json"]));
    let api = array(s.json(&format!("/api/search?q={}&k=6", q.replace(' ', "+"))));
    assert_eq!(ids(&api), ids(&cli));
    assert_eq!(api.len(), 6);
    assert!(api.iter().all(|p| p["matched"].as_array().is_some_and(|m| !m.is_empty())));
    assert_eq!(array(s.json("/api/search?q=2603.00356&k=3"))[0]["id"], "2603.00356");
    let (status, found) = s.get("/search?q=GPU+cluster+scheduling&until=2026-03-02");
    assert_eq!(status, 200);
    assert!(found.matches("<article class=\"paper\"").count() > 5);
    assert!(!found.contains(">2026-03-03<"), "the until date is honoured");
    // Each result says how it matched, and the page counts them.
    let author = api[0]["authors"][0].as_str().unwrap().to_string();
    let (_, found) = s.get(&format!("/search?q={}", author.replace(' ', "+")));
    assert!(found.contains("<span class=\"tag match\">by author"), "{found}");
    assert!(found.contains("found, best first:") && found.contains(" by author"), "{found}");

    // One paper: its record, versions, listing days and neighbours.
    let paper = s.json("/api/paper/2603.00356");
    assert_eq!(paper["id"], "2603.00356");
    assert_eq!(paper["listings"][0]["date"], "2026-03-03");
    assert!(!paper["versions"].as_array().unwrap().is_empty());
    assert_eq!(paper["neighbours"].as_array().unwrap().len(), 10);
    assert_eq!(paper["rating"], 0);
    let (status, p) = s.get("/paper/2603.00356");
    assert_eq!(status, 200);
    assert!(p.contains("Token Management in Multi-Tenant AI Inference Platforms") && p.contains("Nearest papers"));
    assert!(p.contains("<details open><summary>Abstract"), "a paper's own page shows its abstract");
    // What it does, in one sentence of its abstract, under the title.
    // The JSON keeps the TeX and the page renders it; the aside in brackets is left out.
    let gist = paper["gist"].as_str().expect("a gist");
    assert!(gist.starts_with("We introduce \\emph{token pools}, a control-plane abstraction") && !gist.contains("(token"), "{gist}");
    let at = p.find("<p class=\"gist\"><span class=\"vh\">What it does: </span>We introduce").expect("the gist under the title");
    assert!(p[at..].contains("inference-native units.</p>") && !p[at..at + 300].contains("emph"), "{p}");
    // TeX as a reader reads it, on the page; the JSON keeps the source.
    let (_, p) = s.get("/paper/2507.07144");
    assert!(p.contains("M²-MFP: A Multi-Scale") && !p.contains("M$^2$"), "{p}");
    assert!(s.json("/api/paper/2507.07144")["title"].as_str().unwrap().starts_with("M$^2$-MFP"));

    // Seeds and stats: as `seed list --json` and `stats --json`.
    assert_eq!(array(s.json("/api/seeds")), json_lines(&ok(&lib, &["seed", "list", "--json"])));
    assert_eq!(s.get("/seeds").0, 200);
    let stats = s.json("/api/stats");
    let cli: Value = serde_json::from_str(&ok(&lib, &["stats", "--json"])).unwrap();
    for key in ["papers", "versions", "days", "models", "profiles"] {
        assert_eq!(stats[key], cli[key], "{key}");
    }
    assert_eq!(s.get("/stats").0, 200);
}

#[test]
fn writes_need_the_token_and_ratings_change_the_ranking() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let s = Server::start(&lib);
    let token = s.csrf();
    let before = array(s.json("/api/daily?top=40&all=1&include=new,cross,replaced"));
    let top = before[0]["id"].as_str().unwrap().to_string();

    // Without the page's token nothing changes: another site cannot rate.
    let rating = json!({"id": top, "rating": -1}).to_string();
    assert_eq!(s.post("/api/ratings", None, &rating).0, 403);
    assert_eq!(s.post("/api/ratings", Some(&"0".repeat(64)), &rating).0, 403);
    assert_eq!(s.post("/api/seeds/remove", None, r#"{"key": "2507.07400"}"#).0, 403);
    assert_eq!(s.post("/api/filters", Some("x"), r#"{"rule": "exclude", "value": "GPU"}"#).0, 403);
    assert!(array(s.json("/api/ratings")).is_empty());
    assert_eq!(array(s.json("/api/seeds")).len(), 3);

    // 👎 on today's top paper: it becomes a disliked seed, shows its
    // rating, and the papers like it fall.
    let (status, body) = s.post("/api/ratings", Some(&token), &rating);
    assert_eq!(status, 200, "{body}");
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["rating"], -1);
    let seeds = json_lines(&ok(&lib, &["seed", "list", "--json"]));
    let seed = seeds.iter().find(|x| x["key"] == top.as_str()).expect("the rated paper is a seed");
    assert_eq!((seed["negative"].as_bool(), seed["origin"].as_str()), (Some(true), Some("rating")));
    let after = array(s.json("/api/daily?top=40&all=1&include=new,cross,replaced"));
    let rated = after.iter().find(|p| p["id"] == top.as_str()).expect("a rated paper stays on its day");
    assert_eq!(rated["rating"], -1);
    let near = array(s.json(&format!("/api/like/{top}?k=3&since=2026-03-03&until=2026-03-03")));
    assert_eq!(near.len(), 3);
    let score = |list: &[Value], id: &Value| list.iter().find(|p| p["id"] == *id).map(|p| p["score"].as_f64().unwrap());
    for n in &near {
        let (b, a) = (score(&before, &n["id"]).unwrap(), score(&after, &n["id"]).unwrap());
        assert!(a < b, "{}: {b} -> {a}", n["id"]);
    }
    let (_, page) = s.get("/?include=new,cross,replaced&top=40&all=1");
    assert!(page.contains(&format!("data-id=\"{top}\" data-rating=\"-1\"")));
    // Top 5 is five picks: the paper marked not interested is listed
    // apart, on the page and in the JSON, and counted by neither.
    let five = array(s.json("/api/daily?top=5&all=1&include=new,cross,replaced"));
    assert_eq!(five.iter().filter(|p| p["section"] == "pick").count(), 5);
    assert!(five.iter().any(|p| p["section"] == "not_interested" && p["id"] == top.as_str()));
    let (_, page) = s.get("/?include=new,cross,replaced&top=5&all=1");
    let (_, apart) = page.split_once("Marked not interested (1)").expect("the page lists it apart, and says so");
    let picks = &page[page.find("<section id=\"picks\">").unwrap()..page.find("id=\"more\"").unwrap()];
    assert_eq!(picks.matches("<article class=\"paper").count(), 5, "{picks}");
    assert!(!picks.contains(&format!("data-id=\"{top}\"")) && apart.contains(&format!("data-id=\"{top}\"")));
    assert!(page.contains(">5 of "), "the count under the heading is the picks shown");
    // A day is ranked once and kept, but a change from the command line
    // (another process) shows at the next request all the same.
    let second = after.iter().find(|p| p["rating"].is_null()).unwrap()["id"].as_str().unwrap().to_string();
    assert_eq!(array(s.json("/api/daily?top=40&all=1&include=new,cross,replaced")), after, "the same ranking, asked twice");
    ok(&lib, &["rate", &second, "+"]);
    let again = array(s.json("/api/daily?top=40&all=1&include=new,cross,replaced"));
    assert_eq!(again.iter().find(|p| p["id"] == second.as_str()).unwrap()["rating"], 1, "the CLI's rating is seen");
    ok(&lib, &["rate", &second, "0"]);

    // 👍, then clear it: the seed goes with the rating.
    assert_eq!(s.post("/api/ratings", Some(&token), &json!({"id": top, "rating": 1}).to_string()).0, 200);
    assert_eq!(array(s.json("/api/ratings"))[0]["rating"], 1);
    assert!(ok(&lib, &["seed", "list"]).contains(&top));
    assert_eq!(s.post("/api/ratings", Some(&token), &json!({"id": top, "rating": 0}).to_string()).0, 200);
    assert!(array(s.json("/api/ratings")).is_empty());
    assert!(!ok(&lib, &["seed", "list"]).contains(&top));

    // The command line rates the same way, and the server sees it.
    ok(&lib, &["rate", &top, "+"]);
    assert_eq!(array(s.json("/api/ratings"))[0]["id"], top.as_str());
    ok(&lib, &["rate", &top, "0"]);

    // Seeds: re-weight, move to another profile, remove.
    let (status, _) = s.post("/api/seeds/weight", Some(&token), r#"{"key": "2507.07400", "weight": 2.5}"#);
    assert_eq!(status, 200);
    let kv = json_lines(&ok(&lib, &["seed", "list", "--json"])).into_iter().find(|x| x["key"] == "2507.07400").unwrap();
    assert_eq!(kv["weight"], 2.5);
    assert_eq!(s.post("/api/seeds/move", Some(&token), r#"{"key": "2507.07114", "to": "systems"}"#).0, 200);
    assert_eq!(json_lines(&ok(&lib, &["seed", "list", "--json", "--profile", "systems"]))[0]["key"], "2507.07114");
    assert_eq!(s.post("/api/seeds/remove", Some(&token), r#"{"key": "2507.07400"}"#).0, 200);
    assert!(!ok(&lib, &["seed", "list"]).contains("2507.07400"));
    assert_eq!(s.post("/api/seeds/remove", Some(&token), r#"{"key": "2507.07400"}"#).0, 404);

    // Seeds from the browser, as `seed add` adds them: a paper by id or by
    // its arXiv URL, interests in a sentence.
    s.wait_for_model();
    assert_eq!(s.post("/api/seeds/add", None, r#"{"id": "2507.07400"}"#).0, 403);
    let (status, body) = s.post("/api/seeds/add", Some(&token), r#"{"id": "https://arxiv.org/abs/2507.07400v1"}"#);
    assert_eq!(status, 200, "{body}");
    let added: Value = serde_json::from_str(&body).unwrap();
    assert_eq!((added["new"].as_u64(), added["profile"].as_str()), (Some(1), Some("default")), "{body}");
    assert!(ok(&lib, &["seed", "list"]).contains("2507.07400"));
    let sentence = "scheduling LLM inference requests across GPU clusters";
    let (status, body) = s.post("/api/seeds/add", Some(&token), &json!({"text": sentence}).to_string());
    assert_eq!(status, 200, "{body}");
    let added: Value = serde_json::from_str(&body).unwrap();
    assert_eq!((added["new"].as_u64(), added["embedded"].as_u64()), (Some(1), Some(1)), "{body}");
    let listed = json_lines(&ok(&lib, &["seed", "list", "--json"]));
    assert!(
        listed.iter().any(|x| x["key"].as_str().unwrap().starts_with("text:") && x["title"].as_str().unwrap().contains("GPU clusters")),
        "{listed:?}"
    );
    for bad in
        [r#"{}"#, r#"{"id": "2507.07400", "text": "both"}"#, r#"{"id": "not an id"}"#, r#"{"id": "/etc/passwd"}"#, r#"{"text": "   "}"#]
    {
        let (status, body) = s.post("/api/seeds/add", Some(&token), bad);
        assert_eq!(status, 400, "{bad}: {body}");
    }
    let long = json!({"text": "word ".repeat(1000)}).to_string();
    assert_eq!(s.post("/api/seeds/add", Some(&token), &long).0, 400);

    // Filters: an excluded keyword hides papers, and the digest says which rule did.
    let (status, body) = s.post("/api/filters", Some(&token), r#"{"rule": "exclude", "value": "GPU"}"#);
    assert_eq!(status, 200, "{body}");
    assert_eq!(json_lines(&ok(&lib, &["filter", "list", "--json"])), vec![json!({"rule": "exclude", "value": "GPU"})]);
    let day = array(s.json("/api/daily?top=50&all=1"));
    let hidden: Vec<&Value> = day.iter().filter(|p| p["section"] == "hidden").collect();
    assert!(!hidden.is_empty());
    assert!(hidden.iter().all(|h| h["rule"].as_str().unwrap().starts_with("exclude: GPU")), "{hidden:?}");
    for p in day.iter().filter(|p| p["section"] == "pick") {
        let text = format!("{} {}", p["title"], p["abstract"]).to_lowercase();
        assert!(!text.split(|c: char| !c.is_alphanumeric()).any(|w| w == "gpu"), "{}", p["id"]);
    }
    assert_eq!(s.post("/api/filters", Some(&token), r#"{"rule": "exclude", "value": "GPU", "action": "rm"}"#).0, 200);
    assert!(ok(&lib, &["filter", "list"]).contains("no filters"));

    // Opening a paper marks it seen; a bad profile name is refused.
    assert_eq!(s.post("/api/seen", Some(&token), &json!({"id": top}).to_string()).0, 200);
    assert_eq!(s.post("/api/ratings", Some(&token), &json!({"id": top, "rating": 1, "profile": "../x"}).to_string()).0, 400);
}

/// A multipart upload of `file` as the form field `file`.
fn upload(s: &Server, token: Option<&str>, name: &str, file: &[u8]) -> (u16, String) {
    let boundary = "----paperscout-test-boundary";
    let mut body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"profile\"\r\n\r\nreading\r\n\
         --{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(file);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    let mut req = s.request("POST", "/api/seeds/upload").set("Content-Type", &format!("multipart/form-data; boundary={boundary}"));
    if let Some(t) = token {
        req = req.set("X-CSRF-Token", t);
    }
    match req.send_bytes(&body) {
        // Refused from its length alone, the connection may close while
        // the client still writes.
        Err(ureq::Error::Transport(t)) if file.len() > UPLOAD_LIMIT => (0, t.to_string()),
        r => common::response(r),
    }
}

/// The server's upload limit (serve/upload.rs).
const UPLOAD_LIMIT: usize = 8 * 1024 * 1024;

#[test]
fn exports_uploaded_tokens_renewed_and_rating_links_that_never_write() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let s = Server::start(&lib);
    let token = s.csrf();
    s.wait_for_model();

    // A BibTeX export becomes the profile's seeds, as `seed add FILE` makes them.
    let bib = std::fs::read(common::root().join("examples/seeds.bib")).unwrap();
    assert_eq!(upload(&s, None, "seeds.bib", &bib).0, 403, "an upload needs the page's token");
    let (status, body) = upload(&s, Some(&token), "seeds.bib", &bib);
    assert_eq!(status, 200, "{body}");
    let added: Value = serde_json::from_str(&body).unwrap();
    let entries = added["entries"].as_u64().unwrap();
    assert!(entries >= 2, "{body}");
    assert_eq!(added["new"].as_u64(), Some(entries), "{body}");
    assert_eq!(added["recognised"]["by_id"].as_u64(), Some(entries), "every example entry has an eprint: {body}");
    assert_eq!(added["recognised"]["title_only"].as_u64(), Some(0), "{body}");
    assert_eq!(added["profile"], "reading");
    let listed = json_lines(&ok(&lib, &["seed", "list", "--profile", "reading", "--json"]));
    assert_eq!(listed.len() as u64, entries);
    assert!(listed.iter().all(|x| x["origin"].as_str().unwrap().starts_with("seeds.bib (")), "{listed:?}");
    // The same again changes nothing; an id list of library papers works too.
    let again: Value = serde_json::from_str(&upload(&s, Some(&token), "seeds.bib", &bib).1).unwrap();
    assert_eq!((again["new"].as_u64(), again["updated"].as_u64()), (Some(0), Some(entries)));
    let day = array(s.json("/api/daily?top=3&all=1"));
    let ids: Vec<&str> = day.iter().filter_map(|p| p["id"].as_str()).collect();
    let (status, body) = upload(&s, Some(&token), "ids.txt", format!("# mine\n{}\n", ids.join("\n")).as_bytes());
    assert_eq!(status, 200, "{body}");
    // Bad files: one clear error naming the file (and line), nothing stored.
    let before = ok(&lib, &["seed", "list", "--profile", "reading"]);
    for (name, file, says) in [
        ("broken.bib", &b"@article{x,\n  title = {Unclosed\n"[..], "broken.bib"),
        ("ids.txt", &b"2501.00001\nnot an id at all\n"[..], "ids.txt:2"),
        ("empty.bib", &b"  \n"[..], "empty.bib is empty"),
        ("latin1.bib", &b"@article{x, title={Caf\xe9}}"[..], "not UTF-8"),
    ] {
        let (status, body) = upload(&s, Some(&token), name, file);
        assert_eq!(status, 400, "{name}: {body}");
        assert!(body.contains(says), "{name}: {body}");
    }
    let (status, body) = upload(&s, Some(&token), "big.bib", &vec![b'x'; 9 * 1024 * 1024]);
    assert!(status == 413 || (status == 0 && (body.contains("Broken pipe") || body.contains("reset"))), "{status} {body}");
    assert_eq!(s.get("/api/stats").0, 200, "still serving");
    assert_eq!(ok(&lib, &["seed", "list", "--profile", "reading"]), before);

    // A Zotero database on this machine, by its path (a one-person server).
    let db = dir.path().join("zotero.sqlite");
    let z = common::zotero_db(&db);
    common::add_item(
        &z,
        1,
        22,
        "AAAAAAAA",
        "2024-01-05 10:00:00",
        &[(1, "KVFlow: Efficient Prefix Caching"), (13, "http://arxiv.org/abs/2507.07400v1")],
        Some(1),
    );
    common::add_item(
        &z,
        2,
        7,
        "GGGGGGGG",
        "2026-01-01 12:00:00",
        &[(1, "A book on GPU scheduling"), (2, "Schedulers for accelerators.")],
        None,
    );
    drop(z);
    let zot = |db: &str| s.post("/api/seeds/zotero", Some(&token), &json!({"db": db, "profile": "zot"}).to_string());
    let (status, body) = zot(db.to_str().unwrap());
    assert_eq!(status, 200, "{body}");
    let synced: Value = serde_json::from_str(&body).unwrap();
    assert_eq!((synced["entries"].as_u64(), synced["new"].as_u64(), synced["embedded"].as_u64()), (Some(2), Some(2), Some(1)), "{body}");
    let keys: Vec<String> = json_lines(&ok(&lib, &["seed", "list", "--profile", "zot", "--json"]))
        .iter()
        .map(|x| x["key"].as_str().unwrap().to_string())
        .collect();
    assert!(keys.contains(&"2507.07400".to_string()) && keys.iter().any(|k| k.starts_with("text:")), "{keys:?}");
    assert_eq!(s.post("/api/seeds/zotero", None, &json!({"db": db}).to_string()).0, 403);
    let (status, body) = zot("/nonexistent/zotero.sqlite");
    assert!(status == 404 && body.contains("/nonexistent/zotero.sqlite"), "{status} {body}");
    let not_zotero = dir.path().join("notes.sqlite");
    std::fs::write(&not_zotero, b"plain text, not a database").unwrap();
    assert_eq!(zot(not_zotero.to_str().unwrap()).0, 400);

    // A page whose token went stale asks for the current one.
    assert_eq!(s.json("/api/token")["csrf"], token.as_str());

    // A digest's rating link offers the rating and writes nothing.
    let id = ids[0];
    let (status, page) = s.get(&format!("/paper/{id}?profile=linked&rate=up"));
    assert_eq!(status, 200);
    assert!(page.contains("id=\"rate-offer\"") && page.contains("Yes, I like it"), "{page}");
    assert!(!ok(&lib, &["seed", "list", "--profile", "linked"]).contains(id), "a GET never writes");
    assert_eq!(s.get(&format!("/paper/{id}?rate=sideways")).0, 400);
}

#[test]
fn bad_requests_get_clear_errors_and_the_server_stays_up() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let s = Server::start(&lib);
    let token = s.csrf();
    for (path, status) in [
        ("/api/like/not-an-id", 400),
        ("/api/like/2603.99999", 404),
        ("/api/like/2603.00356?k=abc", 400),
        ("/api/like/2603.00356?k=0", 400),
        ("/api/like/2603.00356?since=2026-02-30", 400),
        ("/api/like/2603.00356?category=%3Cscript%3E", 400),
        ("/api/daily?top=-1", 400),
        ("/api/daily?method=cosine", 400),
        ("/api/daily?include=old", 400),
        ("/api/daily?profile=..%2Fetc", 400),
        ("/api/daily?date=yesterday", 400),
        ("/api/search", 400),
        ("/api/paper/hep-th%2F9901001", 404),
        ("/api/nothing", 404),
        ("/day/2026-13-45", 400),
        ("/day/%3Cscript%3E", 400),
        ("/paper/%22%3E%3Cimg", 400),
        ("/no/such/page", 404),
    ] {
        let (got, body) = s.get(path);
        assert_eq!(got, status, "{path}: {body}");
        if path.starts_with("/api/") {
            let v: Value = serde_json::from_str(&body).unwrap_or_else(|_| panic!("{path}: not JSON: {body}"));
            assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{path}: {body}");
            // The kind, for a program: the one the status was chosen from.
            let kind = if status == 404 { "not_found" } else { "bad_input" };
            assert_eq!(v["kind"], kind, "{path}: {body}");
        } else {
            assert!(!body.contains("<script>alert") && !body.contains("<img"), "{path} echoes markup: {body}");
        }
    }
    for body in ["{", "[]", r#"{"id": 5, "rating": 1}"#, r#"{"id": "2603.00356", "rating": 7}"#, r#"{"id": "2603.00356", "rating": "x"}"#] {
        assert_eq!(s.post("/api/ratings", Some(&token), body).0, 400, "{body}");
    }
    let big = format!(r#"{{"id": "2603.00356", "rating": 1, "pad": "{}"}}"#, "x".repeat(100_000));
    // The server answers 413 from the length alone and closes without
    // reading the rest, so the client may see the connection reset instead
    // while it still writes; either way the body is refused.
    let sent = s.request("POST", "/api/ratings").set("Content-Type", "application/json").set("X-CSRF-Token", &token).send_string(&big);
    match sent {
        Err(ureq::Error::Status(code, _)) => assert_eq!(code, 413),
        Err(ureq::Error::Transport(_)) => {}
        Ok(r) => panic!("a 100 KB body was accepted: {}", r.status()),
    }
    assert!(s.json("/api/ratings").as_array().is_some_and(|a| a.is_empty()), "nothing was rated");
    assert_eq!(s.post("/api/ratings", Some(&token), r#"{"id": "2101.00001", "rating": 1}"#).0, 404);
    assert_eq!(s.get("/").0, 200, "still serving");
    // A favicon, not a 404: an SVG of its own, named by every page.
    let icon = ureq::get(&format!("{}/favicon.ico", s.url)).call().expect("favicon");
    assert_eq!(icon.content_type(), "image/svg+xml");
    assert!(icon.into_string().unwrap().starts_with("<svg xmlns='http://www.w3.org/2000/svg'"));
    assert!(s.get("/").1.contains(r#"<link rel="icon" href="/favicon.ico" type="image/svg+xml">"#));
}

#[test]
fn listing_text_is_escaped_in_every_page() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let hostile = dir.path().join("hostile.jsonl");
    let paper = json!({
        "id": "2603.09999", "version": 1, "kind": "new", "listing_date": "2026-03-04",
        "title": "Serving LLM inference on GPU clusters <script>alert(1)</script>",
        "authors": ["\"><img src=x onerror=alert(2)>", "Eve <svg onload=alert(3)>"],
        "subjects": ["cs.DC"],
        "comments": "javascript:alert(4)",
        "abstract": "Scheduling LLM inference. <a href=\"javascript:alert(5)\">click</a> <svg onload=alert(6)> \"><img src=x onerror=alert(7)> Divergence $d_{\\text{JS}}$ and <sub>raw</sub>.",
    });
    std::fs::write(&hostile, format!("{paper}\n")).unwrap();
    ok(&lib, &["ingest", hostile.to_str().unwrap()]);
    let s = Server::start(&lib);
    for path in ["/", "/day/2026-03-04?include=new,cross,replaced", "/paper/2603.09999", "/like/2603.00356?k=50", "/seeds", "/stats"] {
        let (status, page) = s.get(path);
        assert_eq!(status, 200, "{path}");
        for bad in ["<script>alert", "<img src=x", "<svg onload", "href=\"javascript:", "<a href=\"javascript"] {
            assert!(!page.contains(bad), "{path} lets {bad:?} through");
        }
        // The page's own two scripts (the scheme and view before the first
        // paint, then the page's), each allowed by its nonce; no other.
        assert_eq!(page.matches("<script").count(), 2, "{path}");
        assert_eq!(page.matches("<script nonce=\"").count(), 2, "{path}");
    }
    let (_, page) = s.get("/paper/2603.09999");
    // Escaped as character references: shown as text, not lost.
    assert!(page.contains("GPU clusters &#60;script&#62;alert(1)&#60;/script&#62;"), "the title is shown whole, escaped");
    assert!(page.contains("onerror=alert(2)"), "as text");
    // TeX as a reader reads it: a script Unicode has no letters for is set
    // as <sub>, and only TeX makes one.
    assert!(page.contains("Divergence d<sub>JS</sub> and &lt;sub&gt;raw&lt;/sub&gt;."), "{page}");
    let res = s.request("GET", "/").call().unwrap();
    let csp = res.header("content-security-policy").unwrap_or("");
    let script_src = csp.split(';').map(str::trim).find(|d| d.starts_with("script-src")).unwrap_or("");
    assert!(script_src.starts_with("script-src 'nonce-") && !script_src.contains("unsafe"), "{csp}");
}

#[test]
fn an_ingest_by_another_process_shows_without_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let s = Server::start(&lib);
    let papers = s.json("/api/stats")["papers"].as_i64().unwrap();
    assert!(s.get("/").1.contains("arXiv digest for 2026-03-03"));

    let next = dir.path().join("next.jsonl");
    let paper = json!({
        "id": "2603.08888", "version": 1, "kind": "new", "listing_date": "2026-03-04",
        "title": "Prefix caching for multi-agent LLM workflows on GPU clusters",
        "authors": ["A. Author"], "subjects": ["cs.DC"],
        "abstract": "We cache shared prompt prefixes across agents to cut time to first token.",
    });
    std::fs::write(&next, format!("{paper}\n")).unwrap();
    ok(&lib, &["ingest", next.to_str().unwrap()]);

    assert_eq!(s.json("/api/stats")["papers"].as_i64().unwrap(), papers + 1);
    let (_, page) = s.get("/");
    assert!(page.contains("arXiv digest for 2026-03-04"), "the newest day is the new one");
    assert!(page.contains("Prefix caching for multi-agent LLM workflows"));
    // Its vector is searchable at once: the server reloaded the vectors.
    let like = array(s.json("/api/like/2507.07400?k=3"));
    assert!(ids(&like).contains(&"2603.08888".to_string()), "{like:?}");
}

#[test]
fn loopback_by_default_and_no_open_door_on_the_network() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let s = Server::start(&lib);
    assert!(s.url.starts_with("http://127.0.0.1:"), "{}", s.url);

    // Without an account it will not listen where others can reach it;
    // with one it signs users in, and says when there is no TLS.
    let refused = common::output(&lib, &["serve", "--addr", "0.0.0.0:0"]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("add an account first"));
    let pw = dir.path().join("pw");
    std::fs::write(&pw, "correct horse battery\n").unwrap();
    ok(&lib, &["user", "add", "alice", "--password-file", pw.to_str().unwrap()]);
    let mut child = common::command(&lib, &["serve", "--addr", "0.0.0.0:0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(child.stderr.take().unwrap()), &mut line).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(line.starts_with("warning: serving on 0.0.0.0:") && line.contains("--tls-cert"), "{line}");

    let missing = common::output(&dir.path().join("nowhere"), &["serve", "--addr", "127.0.0.1:0"]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no library at"));
}

/// A large upload embeds its seeds outside the library's write turn and
/// stores them in small pieces: a rating sent while it runs is answered
/// before the upload is.
#[test]
fn a_rating_is_not_kept_waiting_by_a_large_upload() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    // 300 real titles and abstracts of the corpus, as BibTeX without arXiv
    // ids (nothing to look up): each needs the model.
    let gz = std::fs::File::open(common::corpus()).unwrap();
    let mut bib = String::new();
    for (i, line) in std::io::BufReader::new(flate2::read::MultiGzDecoder::new(gz)).lines().skip(5000).take(300).enumerate() {
        let v: Value = serde_json::from_str(&line.unwrap()).unwrap();
        let clean = |s: &str| s.replace(['{', '}', '\\'], " ");
        bib.push_str(&format!(
            "@article{{entry{i},\n  title = {{{}}},\n  abstract = {{{}}},\n  year = {{2025}}\n}}\n",
            clean(v["title"].as_str().unwrap()),
            clean(v["abstract"].as_str().unwrap())
        ));
    }
    let s = std::sync::Arc::new(Server::start(&lib));
    s.wait_for_model();
    let token = s.csrf();
    let started = std::time::Instant::now();
    let uploading = std::thread::spawn({
        let (s, token) = (s.clone(), token.clone());
        move || {
            let answer = upload(&s, Some(&token), "big.bib", bib.as_bytes());
            (answer, started.elapsed())
        }
    });
    std::thread::sleep(std::time::Duration::from_millis(1000));
    let asked = std::time::Instant::now();
    let (status, body) = s.post("/api/ratings", Some(&token), r#"{"id": "2507.07400", "rating": 1}"#);
    let (rated_after, rating_took) = (started.elapsed(), asked.elapsed());
    assert_eq!(status, 200, "{body}");
    let ((status, body), uploaded_after) = uploading.join().unwrap();
    assert_eq!(status, 200, "{body}");
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(answer["new"], 300, "{answer}");
    assert_eq!(answer["embedded"].as_u64().unwrap() + answer["to_embed"].as_u64().unwrap(), 300, "{answer}");
    assert!(rated_after < uploaded_after, "the rating waited for the upload: {rated_after:?} against {uploaded_after:?}");
    eprintln!("the rating took {rating_took:?}; the upload {uploaded_after:?} ({answer})");
}

/// arXiv unreachable (a loopback port nothing listens on): "Add paper"
/// answers 503 with a way forward, and neither the API's address nor the
/// resolver's words reach the reader; `seed add --fetch` says the same.
#[test]
fn an_unreachable_arxiv_is_a_503_with_a_way_forward() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    demo_library(&lib);
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let base = format!("http://127.0.0.1:{closed}");
    let quick = [("PAPERSCOUT_BASE_URL", base.as_str()), ("PAPERSCOUT_FETCH_INTERVAL_MS", "1"), ("PAPERSCOUT_FETCH_BACKOFF_MS", "1")];
    let mut serve = common::command(&lib, &["serve", "--addr", "127.0.0.1:0"]);
    serve.envs(quick);
    let s = Server::spawn(serve);
    let token = s.csrf();
    s.wait_for_model();
    let (status, body) = s.post("/api/seeds/add", Some(&token), r#"{"id": "2401.00002"}"#);
    assert_eq!(status, 503, "{body}");
    let answer: Value = serde_json::from_str(&body).unwrap();
    let message = answer["error"].as_str().unwrap();
    assert!(message.contains("arXiv could not be reached to look up 2401.00002") && message.contains("title and abstract"), "{message}");
    assert!(!message.contains("127.0.0.1") && !message.contains("http"), "{message}");
    let mut add = common::command(&lib, &["seed", "add", "2401.00002", "--fetch"]);
    add.envs(quick);
    let out = add.output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("arXiv could not be reached"), "{out:?}");
}
