//! Where a day's announcements come from: the RSS feed first, the
//! `/list/<cat>/new` page when the feed fails, and the API (Atom) for papers
//! without an abstract and for single ids.

use super::client::Client;
use crate::listing;
use crate::paper::{Kind, Paper};
use anyhow::{anyhow, Result};

pub const ARXIV_RSS: &str = "https://rss.arxiv.org/rss/";
pub const ARXIV_LIST: &str = "https://arxiv.org/list/";
pub const ARXIV_API: &str = "https://export.arxiv.org/api/query";
pub const ARXIV_OAI: &str = "https://oaipmh.arxiv.org/oai";

/// How many ids one API query asks for.
const API_BATCH: usize = 50;

/// The three roots requests go to. arXiv's hosts are the defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoints {
    /// Prefix the category is appended to (`…/rss/` + `cs.DC`).
    pub rss: String,
    /// Prefix of the listing pages (`…/list/` + `cs.DC/new`).
    pub list: String,
    /// The API query URL (`?id_list=…` is appended).
    pub api: String,
    /// The OAI-PMH base URL (`?verb=ListRecords…` is appended).
    pub oai: String,
}

impl Endpoints {
    pub fn arxiv() -> Endpoints {
        Endpoints { rss: ARXIV_RSS.into(), list: ARXIV_LIST.into(), api: ARXIV_API.into(), oai: ARXIV_OAI.into() }
    }

    /// One root serving `/rss/<cat>`, `/list/<cat>/new`, `/api/query` and
    /// `/oai` (a mirror, or a test server).
    pub fn under(base: &str) -> Endpoints {
        let base = base.trim_end_matches('/');
        Endpoints {
            rss: format!("{base}/rss/"),
            list: format!("{base}/list/"),
            api: format!("{base}/api/query"),
            oai: format!("{base}/oai"),
        }
    }

    /// `base` when given, else arXiv with each root overridable by
    /// `PAPERSCOUT_RSS_URL`, `PAPERSCOUT_LIST_URL`, `PAPERSCOUT_API_URL` and
    /// `PAPERSCOUT_OAI_URL`.
    pub fn resolve(base: Option<&str>) -> Endpoints {
        if let Some(b) = base.filter(|b| !b.is_empty()) {
            return Endpoints::under(b);
        }
        let var = |name: &str, default: &str| std::env::var(name).ok().filter(|v| !v.is_empty()).unwrap_or_else(|| default.to_string());
        Endpoints {
            rss: var("PAPERSCOUT_RSS_URL", ARXIV_RSS),
            list: var("PAPERSCOUT_LIST_URL", ARXIV_LIST),
            api: var("PAPERSCOUT_API_URL", ARXIV_API),
            oai: var("PAPERSCOUT_OAI_URL", ARXIV_OAI),
        }
    }

    /// `host:port` of each root, the hosts a redirect may lead to.
    pub fn hosts(&self) -> Vec<String> {
        let mut hosts: Vec<String> = Vec::new();
        for root in [&self.rss, &self.list, &self.api, &self.oai] {
            if let Ok(url) = url::Url::parse(root) {
                let host = super::client::host_port(&url);
                if !hosts.contains(&host) {
                    hosts.push(host);
                }
            }
        }
        hosts
    }

    pub fn rss_url(&self, category: &str) -> String {
        format!("{}{category}", slash(&self.rss))
    }

    pub fn list_url(&self, category: &str) -> String {
        format!("{}{category}/new", slash(&self.list))
    }

    pub fn api_url(&self, ids: &[String]) -> String {
        format!("{}?id_list={}&max_results={}", self.api, ids.join(","), ids.len())
    }
}

fn slash(prefix: &str) -> String {
    if prefix.ends_with('/') {
        prefix.to_string()
    } else {
        format!("{prefix}/")
    }
}

/// Which source a category's papers came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    Rss,
    ListPage,
}

/// One category's announcements. `papers` is empty on days without any.
#[derive(Debug, Clone)]
pub struct Fetched {
    pub category: String,
    pub papers: Vec<Paper>,
    pub warnings: Vec<String>,
    pub via: Via,
}

/// Category codes look like `cs.DC`, `astro-ph.GA`, `math`, `hep-th`.
pub fn check_category(category: &str) -> Result<()> {
    let ok = !category.is_empty()
        && category.len() <= 40
        && category.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'));
    if ok {
        Ok(())
    } else {
        Err(anyhow!("{category:?} is not an arXiv category (like cs.DC or astro-ph.GA)"))
    }
}

/// Today's announcements for one category: the RSS feed, else the listing
/// page; then abstracts from the API for papers that came without one.
pub fn fetch_category(client: &Client, endpoints: &Endpoints, category: &str) -> Result<Fetched> {
    check_category(category)?;
    let rss_url = endpoints.rss_url(category);
    let rss = client.get(&rss_url).map_err(anyhow::Error::from).and_then(|body| parse_download(client, body, &rss_url));
    let (mut parsed, via, mut warnings) = match rss {
        Ok(parsed) => (parsed, Via::Rss, Vec::new()),
        Err(rss_err) => {
            let list_url = endpoints.list_url(category);
            let page = client.get(&list_url).map_err(anyhow::Error::from).and_then(|body| parse_download(client, body, &list_url));
            match page {
                Ok(parsed) => (parsed, Via::ListPage, vec![format!("the RSS feed failed ({rss_err:#}); used the listing page")]),
                Err(page_err) => {
                    return Err(anyhow!("cannot fetch {category}: RSS feed: {rss_err:#}; listing page: {page_err:#}"));
                }
            }
        }
    };
    warnings.append(&mut parsed.warnings);
    let mut papers = parsed.papers;
    if let Err(e) = fill_abstracts(client, endpoints, &mut papers) {
        warnings.push(format!("abstracts from the API: {e:#}; those papers keep their titles only"));
    }
    Ok(Fetched { category: category.to_string(), papers, warnings, via })
}

/// Fills title, abstract, authors and subjects of papers that lack an
/// abstract from the API; kind and listing date stay the listing's.
pub fn fill_abstracts(client: &Client, endpoints: &Endpoints, papers: &mut [Paper]) -> Result<usize> {
    let missing: Vec<String> = papers.iter().filter(|p| p.abstract_text.is_empty()).map(|p| p.id.clone()).collect();
    let mut filled = 0;
    for chunk in missing.chunks(API_BATCH) {
        for found in fetch_ids(client, endpoints, chunk)? {
            for p in papers.iter_mut().filter(|p| p.id == found.id && p.abstract_text.is_empty()) {
                p.abstract_text = found.abstract_text.clone();
                if p.title.is_empty() {
                    p.title = found.title.clone();
                }
                if p.authors.is_empty() {
                    p.authors = found.authors.clone();
                }
                if p.subjects.is_empty() {
                    p.set_subjects(found.subjects.clone());
                }
                filled += 1;
            }
        }
    }
    Ok(filled)
}

/// Papers by id from the API (Atom), in one query per `API_BATCH` ids.
pub fn fetch_ids(client: &Client, endpoints: &Endpoints, ids: &[String]) -> Result<Vec<Paper>> {
    let mut out = Vec::new();
    for chunk in ids.chunks(API_BATCH) {
        let url = endpoints.api_url(chunk);
        let body = client.get(&url)?;
        let parsed = parse_download(client, body, &url)?;
        out.extend(parsed.papers.into_iter().filter(|p| !p.title.is_empty()));
    }
    Ok(out)
}

/// Parses a download on a thread of its own, giving it the client's
/// timeout: a hostile page may be slow to parse even within the size and
/// depth bounds, and a download must not hang the run. A parser that
/// overruns is left to finish in the background; the run goes on or ends.
fn parse_download(client: &Client, body: Vec<u8>, url: &str) -> Result<listing::Parsed> {
    let timeout = client.politeness().timeout;
    let (tx, rx) = std::sync::mpsc::channel();
    let source = url.to_string();
    std::thread::Builder::new()
        .name("parse-download".into())
        .spawn(move || {
            let _ = tx.send(listing::parse_bytes_or_empty(&body, &source));
        })
        .map_err(|e| anyhow!("{url}: cannot start the parser: {e}"))?;
    match rx.recv_timeout(timeout) {
        Ok(parsed) => Ok(parsed?),
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
            Err(anyhow!("{url}: parsing took longer than the timeout ({} s); gave up", timeout.as_secs_f64()))
        }
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => Err(anyhow!("{url}: the parser failed on this response")),
    }
}

/// Papers of several categories as one listing: a paper in two feeds is
/// kept once, as `new` rather than `cross`, `cross` rather than `replaced`.
pub fn merge(fetched: &[Fetched]) -> Vec<Paper> {
    fn rank(k: Kind) -> u8 {
        match k {
            Kind::New => 0,
            Kind::Cross => 1,
            _ => 2,
        }
    }
    let mut out: Vec<Paper> = Vec::new();
    let mut index = std::collections::HashMap::new();
    for p in fetched.iter().flat_map(|f| &f.papers) {
        match index.get(&p.id) {
            Some(&i) => {
                let kept: &mut Paper = &mut out[i];
                if rank(p.kind) < rank(kept.kind) {
                    *kept = p.clone();
                }
            }
            None => {
                index.insert(p.id.clone(), out.len());
                out.push(p.clone());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        let e = Endpoints::under("http://127.0.0.1:9/");
        assert_eq!(e.rss_url("cs.DC"), "http://127.0.0.1:9/rss/cs.DC");
        assert_eq!(e.list_url("cs.DC"), "http://127.0.0.1:9/list/cs.DC/new");
        assert_eq!(
            e.api_url(&["2501.00001".into(), "2501.00002".into()]),
            "http://127.0.0.1:9/api/query?id_list=2501.00001,2501.00002&max_results=2"
        );
        let a = Endpoints::arxiv();
        assert_eq!(a.rss_url("astro-ph.GA"), "https://rss.arxiv.org/rss/astro-ph.GA");
        assert_eq!(a.list_url("cs.LG"), "https://arxiv.org/list/cs.LG/new");
    }

    #[test]
    fn categories() {
        assert!(check_category("astro-ph.GA").is_ok());
        assert!(check_category("cs.DC").is_ok());
        assert!(check_category("cs/DC").is_err());
        assert!(check_category("").is_err());
    }
}
