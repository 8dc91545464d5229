//! Seed profiles: the papers a user likes (or explicitly does not), read
//! from arXiv ids, BibTeX and CSL-JSON exports (Zotero, JabRef), lists of ids
//! or free text, and kept per named profile in the library.

use crate::library::store::text_hash;
use crate::library::Library;
use crate::paper::{embedding_text, ArxivId};
use anyhow::{bail, Context, Result};
use rusqlite::{params, Connection};
use seed_files::SeedFile;
use std::path::Path;

pub mod filters;
pub mod ratings;
pub mod seed_files;
pub mod zotero;

pub use seed_files::{parse_bibtex, parse_csl_json, parse_id_list, SeedInput};

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

/// Reads each item: a file (BibTeX, CSL-JSON or a list of ids, told apart by
/// content; only when `files`, which a request from the network never is)
/// or an arXiv id, which must be in the library unless `title` is given
/// with it.
pub fn read_items(
    items: &[String],
    files: bool,
    lib: &Library,
    title: Option<&str>,
    abstract_text: Option<&str>,
) -> Result<Vec<SeedInput>> {
    let mut out = Vec::new();
    for item in items {
        let path = Path::new(item);
        if files && path.is_file() {
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
            (None, None) => {
                bail!("{} is not in the library; ingest a listing that has it, or give its text with --title (and --abstract)", id.id)
            }
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

/// Reads a seed file (see `seed_files::read`); the ids of a list must be
/// papers the library has.
fn read_file(text: &str, source: &str, lib: &Library) -> Result<Vec<SeedInput>> {
    seeds_of(seed_files::read(text, source)?, source, lib)
}

/// The seeds of a file already read: a list's ids must be papers the
/// library has, and an export's entry without an abstract borrows the
/// library's.
pub fn seeds_of(file: SeedFile, source: &str, lib: &Library) -> Result<Vec<SeedInput>> {
    let seeds = match file {
        SeedFile::Seeds(seeds) => seeds,
        SeedFile::Ids(ids) => {
            let mut seeds = Vec::new();
            for (line_no, id) in ids {
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
/// What [`add`] did: seeds the profile did not have, and seeds it had and
/// now holds as given (title, weight, sign).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Added {
    pub new: usize,
    pub updated: usize,
}

pub fn add(conn: &Connection, profile: &str, seeds: &[SeedInput], weight: f32, negative: bool, now: &str) -> Result<Added> {
    let mut order: Vec<&SeedInput> = seeds.iter().collect();
    order.sort_by_cached_key(|s| recency(s));
    let start = chrono::DateTime::parse_from_rfc3339(now).ok();
    let stamp = |i: usize| match start {
        Some(t) => {
            (t + chrono::TimeDelta::microseconds(i as i64)).with_timezone(&chrono::Utc).to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
        }
        None => now.to_string(),
    };
    let mut stmt = conn.prepare_cached(
        "INSERT INTO seeds (profile, key, title, abstract, text_hash, weight, negative, added, origin)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
         ON CONFLICT(profile, key) DO UPDATE SET title = ?3, abstract = ?4, text_hash = ?5,
         weight = ?6, negative = ?7, origin = ?9",
    )?;
    let mut known = conn.prepare_cached("SELECT 1 FROM seeds WHERE profile = ?1 AND key = ?2")?;
    let mut added = Added { new: 0, updated: 0 };
    for (i, s) in order.into_iter().enumerate() {
        let hash = text_hash(&embedding_text(&s.title, &s.abstract_text));
        if known.exists(params![profile, s.key])? {
            added.updated += 1;
        } else {
            added.new += 1;
        }
        stmt.execute(params![profile, s.key, s.title, s.abstract_text, hash, weight, negative, stamp(i), s.origin])?;
    }
    Ok(added)
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
        return Ok(conn
            .query_row("SELECT count(*) FROM seeds WHERE profile = ?1 AND key = ?2", params![from, key], |r| r.get::<_, i64>(0))?
            > 0);
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
    if name.is_empty() || name.len() > 64 || !name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')) {
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
    fn seeds_added_together_are_ordered_by_the_papers_age() {
        let dir = tempfile::tempdir().unwrap();
        let store = crate::library::store::Store::open(&dir.path().join("library.sqlite")).unwrap();
        let seed =
            |key: &str| SeedInput { key: key.into(), title: key.into(), abstract_text: String::new(), origin: "t".into(), date: None };
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
}
