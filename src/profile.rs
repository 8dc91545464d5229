//! Seed profiles: the papers a user likes (or explicitly does not), read
//! from arXiv ids, BibTeX and CSL-JSON exports (Zotero, JabRef), lists of ids
//! or free text, and kept per named profile in the library.

use crate::library::store::text_hash;
use crate::library::Library;
use crate::paper::{embedding_text, ArxivId};
use anyhow::{bail, Context, Result};
use biblatex::ChunksExt;
use rusqlite::{params, Connection};
use std::path::Path;

pub mod filters;
pub mod ratings;
pub mod zotero;

/// A seed as read from the user's input, before it is stored.
#[derive(Debug, Clone, PartialEq)]
pub struct SeedInput {
    /// The arXiv id when known, else `text:` + a short hash of the text.
    pub key: String,
    pub title: String,
    pub abstract_text: String,
    /// Where it came from, for `seed list`.
    pub origin: String,
    /// When the export says the user added the paper, else (for a paper
    /// without an arXiv id, whose id tells its age) its publication date;
    /// `YYYY`, `YYYY-MM` or `YYYY-MM-DD`. Orders the seeds of one `seed add`.
    pub date: Option<String>,
}

impl SeedInput {
    /// A description of what the user wants to read, used as a seed.
    pub fn from_free_text(text: &str) -> SeedInput {
        let text = crate::listing::text::inline(text);
        SeedInput::from_text(&text, "", "--text")
    }

    fn from_text(title: &str, abstract_text: &str, origin: &str) -> SeedInput {
        let hash = text_hash(&embedding_text(title, abstract_text));
        let key = format!("text:{}", hex(&hash[..6]));
        SeedInput {
            key,
            title: title.to_string(),
            abstract_text: abstract_text.to_string(),
            origin: origin.to_string(),
            date: None,
        }
    }
}

/// A stored seed.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Seed {
    pub key: String,
    pub title: String,
    #[serde(rename = "abstract")]
    pub abstract_text: String,
    #[serde(skip)]
    pub text_hash: Vec<u8>,
    pub weight: f32,
    pub negative: bool,
    pub added: String,
    pub origin: String,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Reads each item: a file (BibTeX, CSL-JSON or a list of ids, told apart by
/// content) or an arXiv id, which must be in the library unless `title` is
/// given with it.
pub fn read_items(items: &[String], lib: &Library, title: Option<&str>, abstract_text: Option<&str>) -> Result<Vec<SeedInput>> {
    let mut out = Vec::new();
    for item in items {
        let path = Path::new(item);
        if path.is_file() {
            let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {item}"))?;
            out.extend(read_file(&text, item, lib)?);
            continue;
        }
        let Some(id) = ArxivId::parse(item) else {
            bail!("{item}: neither a file nor an arXiv id");
        };
        match (lookup(lib, &id.id)?, title) {
            (_, Some(t)) => out.push(SeedInput {
                key: id.id.clone(),
                title: t.to_string(),
                abstract_text: abstract_text.unwrap_or_default().to_string(),
                origin: "command line".into(),
                date: None,
            }),
            (Some(seed), None) => out.push(seed),
            (None, None) => bail!(
                "{} is not in the library; ingest a listing that has it, or give its text with --title (and --abstract)",
                id.id
            ),
        }
    }
    Ok(out)
}

fn lookup(lib: &Library, id: &str) -> Result<Option<SeedInput>> {
    Ok(lib.store.get_paper(id)?.map(|p| SeedInput {
        key: p.paper.id.clone(),
        title: p.paper.title,
        abstract_text: p.paper.abstract_text,
        origin: "library".into(),
        date: None,
    }))
}

/// Tells the file kinds apart by their first meaningful character.
fn read_file(text: &str, source: &str, lib: &Library) -> Result<Vec<SeedInput>> {
    let first = text.trim_start().chars().next();
    let seeds = match first {
        Some('[') | Some('{') => parse_csl_json(text, source)?,
        _ if looks_like_bibtex(text) => parse_bibtex(text, source)?,
        _ => {
            let mut seeds = Vec::new();
            for (line_no, id) in parse_id_list(text, source)? {
                match lookup(lib, &id.id)? {
                    Some(s) => seeds.push(s),
                    None => bail!("{source}:{line_no}: {} is not in the library; ingest a listing that has it first", id.id),
                }
            }
            seeds
        }
    };
    // An export entry without an abstract borrows it from the library when
    // the library has that paper: a title alone embeds poorly.
    seeds
        .into_iter()
        .map(|s| {
            if s.abstract_text.is_empty() && !s.key.starts_with("text:") {
                if let Some(known) = lookup(lib, &s.key)? {
                    return Ok(SeedInput { origin: s.origin, date: s.date, ..known });
                }
            }
            Ok(s)
        })
        .collect()
}

fn looks_like_bibtex(text: &str) -> bool {
    text.lines().map(str::trim_start).any(|l| l.starts_with('@') && l.contains('{'))
}

/// arXiv id from the fields exports use for it: `eprint`/`arxiv`/`arxivid`,
/// an arxiv.org URL, or a `10.48550/arXiv.` DOI.
fn arxiv_id_from_fields(get: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    for field in ["eprint", "arxiv", "arxivid", "arxiv_id", "number"] {
        if let Some(id) = get(field).and_then(|v| ArxivId::parse(v.trim())) {
            return Some(id.id);
        }
    }
    for field in ["url", "URL"] {
        if let Some(id) = get(field).and_then(|v| ArxivId::parse(v.trim())) {
            return Some(id.id);
        }
    }
    for field in ["doi", "DOI"] {
        if let Some(v) = get(field) {
            let lower = v.to_ascii_lowercase();
            if let Some(pos) = lower.find("arxiv.") {
                if let Some(id) = ArxivId::parse(&v[pos + 6..]) {
                    return Some(id.id);
                }
            }
        }
    }
    None
}

/// BibTeX/BibLaTeX (Zotero, JabRef): title, abstract and the arXiv id fields.
pub fn parse_bibtex(text: &str, source: &str) -> Result<Vec<SeedInput>> {
    let bib = biblatex::Bibliography::parse(text).map_err(|e| {
        let line = 1 + text[..e.span.start.min(text.len())].matches('\n').count();
        anyhow::anyhow!("{source}:{line}: not valid BibTeX: {}", e.kind)
    })?;
    let mut out = Vec::new();
    for entry in bib.iter() {
        let get = |k: &str| entry.get(k).map(|c| clean_latex(&c.format_verbatim()));
        let title = get("title").unwrap_or_default();
        if title.is_empty() {
            bail!("{source}: entry {} has no title", entry.key);
        }
        let abstract_text = get("abstract").unwrap_or_default();
        let origin = format!("{source} ({})", entry.key);
        // JabRef writes `timestamp` or `creationdate`, Better BibTeX `dateadded`.
        let added = ["dateadded", "creationdate", "timestamp"].iter().find_map(|k| get(k).and_then(|v| date_prefix(&v)));
        let published = || {
            let date = get("date").and_then(|v| date_prefix(&v));
            date.or_else(|| {
                let year = get("year").and_then(|v| date_prefix(&v))?;
                Some(match get("month").and_then(|m| month_number(&m)) {
                    Some(m) => format!("{year}-{m:02}"),
                    None => year,
                })
            })
        };
        out.push(match arxiv_id_from_fields(&get) {
            Some(id) => SeedInput { key: id, title, abstract_text, origin, date: added },
            None => SeedInput { date: added.or_else(published), ..SeedInput::from_text(&title, &abstract_text, &origin) },
        });
    }
    if out.is_empty() {
        bail!("{source}: no BibTeX entries");
    }
    Ok(out)
}

/// BibTeX protects capitals with braces; they are markup, not text.
fn clean_latex(s: &str) -> String {
    crate::listing::text::inline(&s.replace(['{', '}'], ""))
}

/// CSL-JSON (Zotero's "CSL JSON" export): a list of items, or one item.
pub fn parse_csl_json(text: &str, source: &str) -> Result<Vec<SeedInput>> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        anyhow::anyhow!("{source}:{}: not valid CSL-JSON: {e}", e.line())
    })?;
    let items = match value {
        serde_json::Value::Array(items) => items,
        obj @ serde_json::Value::Object(_) => vec![obj],
        _ => bail!("{source}: CSL-JSON must be a list of items"),
    };
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let get = |k: &str| item.get(k).and_then(|v| v.as_str()).map(crate::listing::text::inline);
        let Some(title) = get("title").filter(|t| !t.is_empty()) else {
            bail!("{source}: item {} has no title", i + 1);
        };
        let abstract_text = get("abstract").unwrap_or_default();
        let origin = format!("{source} (item {})", i + 1);
        let id = arxiv_id_from_fields(&|k: &str| get(k)).or_else(|| get("id").and_then(|v| ArxivId::parse(&v)).map(|a| a.id));
        // Zotero's own JSON has `dateAdded`; CSL-JSON only `issued`.
        let issued = || {
            let parts = item.pointer("/issued/date-parts/0")?.as_array()?;
            let n = |i: usize| parts.get(i).and_then(|v| v.as_u64().or_else(|| v.as_str()?.parse().ok()));
            let year = n(0)?;
            Some(match (n(1), n(2)) {
                (Some(m), Some(d)) => format!("{year:04}-{m:02}-{d:02}"),
                (Some(m), None) => format!("{year:04}-{m:02}"),
                _ => format!("{year:04}"),
            })
        };
        let added = get("dateAdded").and_then(|v| date_prefix(&v));
        out.push(match id {
            Some(id) => SeedInput { key: id, title, abstract_text, origin, date: added },
            None => SeedInput { date: added.or_else(issued), ..SeedInput::from_text(&title, &abstract_text, &origin) },
        });
    }
    Ok(out)
}

/// One arXiv id per line (blank lines and `#` comments allowed).
pub fn parse_id_list(text: &str, source: &str) -> Result<Vec<(usize, ArxivId)>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let Some(id) = ArxivId::parse(line) else {
            bail!(
                "{source}:{}: {} is not an arXiv id (expected one id per line, or a BibTeX or CSL-JSON file)",
                i + 1,
                crate::listing::text::excerpt(line)
            );
        };
        out.push((i + 1, id));
    }
    if out.is_empty() {
        bail!("{source}: no arXiv ids in it");
    }
    Ok(out)
}

/// The date at the start of an export's date field (`2025-07-10 12:01:02`,
/// `2025.07.10`, `2025`), as `YYYY[-MM[-DD]]`.
fn date_prefix(v: &str) -> Option<String> {
    let v = v.trim();
    let b = v.as_bytes();
    let digits = |r: std::ops::Range<usize>| b.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    let sep = |i: usize| b.get(i).is_some_and(|c| matches!(c, b'-' | b'.' | b'/'));
    if !digits(0..4) {
        return None;
    }
    let mut out = v[..4].to_string();
    for at in [4, 7] {
        if !(sep(at) && digits(at + 1..at + 3)) {
            break;
        }
        out.push('-');
        out.push_str(&v[at + 1..at + 3]);
    }
    Some(out)
}

/// BibTeX months: `7`, `jul`, `July`.
fn month_number(m: &str) -> Option<u32> {
    let m = m.trim().to_ascii_lowercase();
    if let Ok(n) = m.parse::<u32>() {
        return (1..=12).contains(&n).then_some(n);
    }
    const MONTHS: [&str; 12] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
    let pos = MONTHS.iter().position(|p| m.get(..3) == Some(*p))?;
    Some(pos as u32 + 1)
}

/// How recent a seed is: the export's date when it has one, else an arXiv
/// id's month and number (newer ids are newer papers). Free text with no date
/// sorts oldest.
fn recency(s: &SeedInput) -> (String, u64) {
    if let Some(date) = &s.date {
        return (date.clone(), 0);
    }
    let Some(id) = ArxivId::parse(&s.key) else {
        return (String::new(), 0);
    };
    // `2507.07400` or `astro-ph/0601001`: YYMM then a serial number.
    let digits = id.id.rsplit('/').next().unwrap_or(&id.id).replace('.', "");
    let (Some(yy), Some(mm), Some(serial)) = (digits.get(..2), digits.get(2..4), digits.get(4..)) else {
        return (String::new(), 0);
    };
    let century = if yy >= "91" { "19" } else { "20" };
    (format!("{century}{yy}-{mm}"), serial.parse().unwrap_or(0))
}

/// Adds or updates seeds; a seed added again keeps its first date.
///
/// The decayed mean weights the newest seed most, and one `seed add` of an
/// export would give all its seeds the same time. So the seeds of one
/// addition are stamped a microsecond apart, the oldest paper first, and
/// "newest" means added last and, within one addition, the newest paper.
pub fn add(conn: &Connection, profile: &str, seeds: &[SeedInput], weight: f32, negative: bool, now: &str) -> Result<usize> {
    let mut order: Vec<&SeedInput> = seeds.iter().collect();
    order.sort_by_cached_key(|s| recency(s));
    let start = chrono::DateTime::parse_from_rfc3339(now).ok();
    let stamp = |i: usize| match start {
        Some(t) => (t + chrono::TimeDelta::microseconds(i as i64))
            .with_timezone(&chrono::Utc)
            .to_rfc3339_opts(chrono::SecondsFormat::Micros, true),
        None => now.to_string(),
    };
    let mut stmt = conn.prepare_cached(
        "INSERT INTO seeds (profile, key, title, abstract, text_hash, weight, negative, added, origin)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
         ON CONFLICT(profile, key) DO UPDATE SET title = ?3, abstract = ?4, text_hash = ?5,
         weight = ?6, negative = ?7, origin = ?9",
    )?;
    for (i, s) in order.into_iter().enumerate() {
        let hash = text_hash(&embedding_text(&s.title, &s.abstract_text));
        stmt.execute(params![profile, s.key, s.title, s.abstract_text, hash, weight, negative, stamp(i), s.origin])?;
    }
    Ok(seeds.len())
}

pub fn list(conn: &Connection, profile: &str) -> Result<Vec<Seed>> {
    let mut stmt = conn.prepare(
        "SELECT key, title, abstract, text_hash, weight, negative, added, origin FROM seeds
         WHERE profile = ?1 ORDER BY added DESC, key",
    )?;
    let rows = stmt.query_map([profile], |r| {
        Ok(Seed {
            key: r.get(0)?,
            title: r.get(1)?,
            abstract_text: r.get(2)?,
            text_hash: r.get(3)?,
            weight: r.get::<_, f64>(4)? as f32,
            negative: r.get(5)?,
            added: r.get(6)?,
            origin: r.get(7)?,
        })
    })?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

/// Removes seeds by key (arXiv ids may carry a version), and their ratings;
/// returns the keys not found.
pub fn remove(conn: &Connection, profile: &str, keys: &[String]) -> Result<Vec<String>> {
    let mut missing = Vec::new();
    for key in keys {
        let key_norm = ArxivId::parse(key).map(|a| a.id).unwrap_or_else(|| key.clone());
        let n = conn.execute("DELETE FROM seeds WHERE profile = ?1 AND key = ?2", params![profile, key_norm])?;
        conn.execute("DELETE FROM seed_sources WHERE profile = ?1 AND key = ?2", params![profile, key_norm])?;
        // A removed seed forgets the rating that made it, so the two never disagree.
        conn.execute("DELETE FROM ratings WHERE profile = ?1 AND id = ?2", params![profile, key_norm])?;
        if n == 0 {
            missing.push(key.clone());
        }
    }
    Ok(missing)
}

/// Changes a seed's weight; false when the profile has no such seed.
pub fn set_weight(conn: &Connection, profile: &str, key: &str, weight: f32) -> Result<bool> {
    if !(weight.is_finite() && weight > 0.0 && weight <= 100.0) {
        bail!("a seed's weight is a number above 0 and at most 100, not {weight}");
    }
    let n = conn.execute("UPDATE seeds SET weight = ?3 WHERE profile = ?1 AND key = ?2", params![profile, key, weight])?;
    Ok(n > 0)
}

/// Moves a seed (and its rating, if it came from one) to another profile,
/// replacing a seed with the same key there. False when there is no such seed.
/// Both are profiles as stored (see `accounts::profile_key`), checked by the caller.
pub fn move_seed(conn: &Connection, from: &str, key: &str, to: &str) -> Result<bool> {
    if from == to {
        return Ok(conn.query_row("SELECT count(*) FROM seeds WHERE profile = ?1 AND key = ?2", params![from, key], |r| {
            r.get::<_, i64>(0)
        })? > 0);
    }
    conn.execute("DELETE FROM seeds WHERE profile = ?1 AND key = ?2", params![to, key])?;
    let n = conn.execute("UPDATE seeds SET profile = ?3 WHERE profile = ?1 AND key = ?2", params![from, key, to])?;
    // A moved seed is the user's now: no sync of either profile removes it.
    conn.execute("DELETE FROM seed_sources WHERE (profile = ?1 OR profile = ?3) AND key = ?2", params![from, key, to])?;
    if n > 0 {
        conn.execute("DELETE FROM ratings WHERE profile = ?1 AND id = ?2", params![to, key])?;
        conn.execute("UPDATE ratings SET profile = ?3 WHERE profile = ?1 AND id = ?2", params![from, key, to])?;
    }
    Ok(n > 0)
}

/// Profile names appear in URLs and file names: keep them plain.
pub fn check_profile_name(name: &str) -> Result<()> {
    if name.is_empty()
        || name.len() > 64
        || !name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        bail!("{name:?} is not a profile name: use letters, digits, '-', '_' or '.' (at most 64)");
    }
    Ok(())
}

/// Every profile that has seeds, ratings or filters, and `default`.
pub fn names(conn: &Connection) -> Result<Vec<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT profile FROM seeds UNION SELECT profile FROM ratings UNION SELECT profile FROM filters
         UNION SELECT 'default' ORDER BY 1",
    )?;
    let rows = stmt.query_map([], |r| r.get(0))?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

/// Seeds of `profile` whose text has no vector for `model`: (hash, text).
pub fn missing_vectors(conn: &Connection, profile: &str, model: &str) -> Result<Vec<(Vec<u8>, String)>> {
    let mut stmt = conn.prepare(
        "SELECT s.text_hash, s.title, s.abstract FROM seeds s WHERE s.profile = ?1 AND NOT EXISTS
         (SELECT 1 FROM vectors v WHERE v.model = ?2 AND v.text_hash = s.text_hash)",
    )?;
    let rows = stmt.query_map(params![profile, model], |r| {
        let (t, a): (String, String) = (r.get(1)?, r.get(2)?);
        Ok((r.get::<_, Vec<u8>>(0)?, embedding_text(&t, &a)))
    })?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

/// Embeds the profile's seeds that have no vector for `embedder`'s model,
/// which must be the library's. Returns how many were embedded.
pub fn embed_missing(lib: &mut Library, profile: &str, embedder: &dyn crate::embed::Embedder) -> Result<usize> {
    let id = embedder.model_id().to_string();
    let known = lib.store.default_model()?;
    if let Some(k) = known.as_deref().filter(|k| *k != id) {
        bail!(crate::embed::model_mismatch(k, &id));
    }
    let missing = missing_vectors(lib.store.conn(), profile, &id)?;
    if missing.is_empty() {
        return Ok(0);
    }
    lib.store.set_default_model(&id)?;
    let texts: Vec<&str> = missing.iter().map(|(_, t)| t.as_str()).collect();
    let vecs = embedder.embed(&texts, &|_| {})?;
    let tx = lib.store.transaction()?;
    for ((hash, _), v) in missing.iter().zip(&vecs) {
        crate::library::store::insert_vector(&tx, &id, hash, v)?;
    }
    // A seed's text can be a paper's too: derived vector files must notice.
    crate::library::store::bump_generation(&tx)?;
    tx.commit()?;
    Ok(missing.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bibtex_from_zotero() {
        let bib = r#"
@misc{rashid_qosflow_2026,
  title = {{QoSFlow}: Ensuring Service Quality of Distributed Workflows},
  author = {Rashid, Md Hasanur and Firoz, Jesun},
  year = {2026},
  eprint = {2602.23598},
  archivePrefix = {arXiv},
  abstract = {With the increasing importance of distributed
              scientific workflows, ...},
}
@article{other,
  title = {A paper without an arXiv id},
  doi = {10.1000/xyz},
}
@article{doi_only,
  title = {Found by its DOI},
  doi = {10.48550/arXiv.2507.07114},
}"#;
        let seeds = parse_bibtex(bib, "z.bib").unwrap();
        assert_eq!(seeds.len(), 3);
        assert_eq!(seeds[0].key, "2602.23598");
        assert_eq!(seeds[0].title, "QoSFlow: Ensuring Service Quality of Distributed Workflows");
        assert!(seeds[0].abstract_text.starts_with("With the increasing importance of distributed scientific"));
        assert!(seeds[1].key.starts_with("text:"));
        assert_eq!(seeds[2].key, "2507.07114");
        let err = parse_bibtex("@article{x, title = {unclosed", "bad.bib").unwrap_err().to_string();
        assert!(err.starts_with("bad.bib:"), "{err}");
    }

    #[test]
    fn csl_json_from_zotero() {
        let csl = r#"[{"id": "http://zotero.org/users/1/items/ABC", "type": "article",
            "title": "Distributed Training under Packet Loss", "abstract": "State-of-the-art  models",
            "URL": "http://arxiv.org/abs/2507.07114v1", "number": "arXiv:2507.07114"},
            {"id": "x", "title": "No id here"}]"#;
        let seeds = parse_csl_json(csl, "z.json").unwrap();
        assert_eq!(seeds[0].key, "2507.07114");
        assert_eq!(seeds[0].abstract_text, "State-of-the-art models");
        assert!(seeds[1].key.starts_with("text:"));
        assert!(parse_csl_json("[{\"title\": 3}]", "z.json").is_err());
        assert!(parse_csl_json("{", "z.json").unwrap_err().to_string().starts_with("z.json:1"));
    }

    #[test]
    fn seeds_added_together_are_ordered_by_the_papers_age() {
        let dir = tempfile::tempdir().unwrap();
        let store = crate::library::store::Store::open(&dir.path().join("library.sqlite")).unwrap();
        let seed = |key: &str| SeedInput { key: key.into(), title: key.into(), abstract_text: String::new(), origin: "t".into(), date: None };
        let ids = ["2401.00001", "2507.07400", "astro-ph/0601001", "2507.00012"];
        let seeds: Vec<SeedInput> = ids.iter().map(|k| seed(k)).collect();
        add(store.conn(), "p", &seeds, 1.0, false, "2026-03-01T10:00:00Z").unwrap();
        let keys = |store: &crate::library::store::Store| list(store.conn(), "p").unwrap().into_iter().map(|s| s.key).collect::<Vec<_>>();
        assert_eq!(keys(&store), ["2507.07400", "2507.00012", "2401.00001", "astro-ph/0601001"]);
        // A later addition comes first, however old its paper.
        add(store.conn(), "p", &[seed("1501.00001")], 1.0, false, "2026-03-02T09:00:00Z").unwrap();
        assert_eq!(keys(&store)[0], "1501.00001");

        // The decayed mean then weights the newest paper of one addition most.
        let listed = list(store.conn(), "p").unwrap();
        let vectors: Vec<crate::rank::SeedVector> = listed
            .iter()
            .map(|s| crate::rank::SeedVector {
                label: s.key.clone(),
                vector: if s.key == "2507.07400" { vec![0.0, 1.0] } else { vec![1.0, 0.0] },
                terms: crate::rank::Terms::default(),
                weight: 1.0,
                negative: false,
                rated: false,
                added: s.added.clone(),
            })
            .filter(|v| v.added.starts_with("2026-03-01"))
            .collect();
        let r = crate::rank::Ranker::new(crate::rank::Method::DecayedMean, vectors, &[]);
        // The newest of four weighs 1 of 1 + 1/1.30 + 1/1.48 + 1/1.60 (33%).
        let none = crate::rank::Terms::default();
        let score = |v: &[f32]| r.score_one(&crate::rank::Candidate { vector: v, terms: &none, own_seed: None }).score;
        let newest_share = score(&[0.0, 1.0]) / (score(&[0.0, 1.0]) + score(&[1.0, 0.0]));
        assert!((newest_share - 0.326).abs() < 0.01, "{newest_share}");

        // An export's "added" date outranks the ids; a paper without an id
        // goes by its publication date.
        let bib = "@misc{a, title = {A}, eprint = {2507.07400}, dateadded = {2024-01-05 10:00:00}}\n\
                   @misc{b, title = {B}, eprint = {2401.00001}, dateadded = {2025-02-01}}\n\
                   @misc{c, title = {C}, year = {2024}, month = {jun}}";
        let seeds = parse_bibtex(bib, "z.bib").unwrap();
        assert_eq!(seeds.iter().map(|s| s.date.as_deref()).collect::<Vec<_>>(), [Some("2024-01-05"), Some("2025-02-01"), Some("2024-06")]);
        add(store.conn(), "q", &seeds, 1.0, false, "2026-03-03T09:00:00Z").unwrap();
        let q: Vec<String> = list(store.conn(), "q").unwrap().into_iter().map(|s| s.title).collect();
        assert_eq!(q, ["B", "C", "A"]);
    }

    #[test]
    fn id_lists() {
        let ids = parse_id_list("# mine\n2602.23598v2\n\narXiv:astro-ph/0601001 # old\n", "ids.txt").unwrap();
        assert_eq!(ids.iter().map(|(l, i)| (*l, i.id.as_str())).collect::<Vec<_>>(), vec![(2, "2602.23598"), (4, "astro-ph/0601001")]);
        let err = parse_id_list("2602.23598\nnot an id\n", "ids.txt").unwrap_err().to_string();
        assert!(err.starts_with("ids.txt:2:"), "{err}");
    }
}
