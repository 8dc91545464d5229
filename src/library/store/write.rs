//! Writes inside a transaction: a paper upserted with its listing and
//! versions (moved to a new rowid when what derived files hold of it
//! changes), vectors and embedding failures stored, the generation bumped.

use super::merge::{self, Held, Incoming, Verdict};
use super::Db;
use super::{text_hash, Store};
use crate::paper::{embedding_text, Kind, Paper};
use anyhow::Result;
use rusqlite::{params, Connection, OptionalExtension};

/// What an upsert did to one paper.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Upsert {
    New,
    Updated,
    Unchanged,
}

impl Store {
    pub fn set_default_model(&self, model: &str) -> Result<()> {
        set_default_model(self.db(), model)
    }
}

pub fn vec_to_blob(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Inserts or updates one paper and its listing inside `tx`. `gist` is
/// the gist of `p`'s own text where the caller made it already (ingest
/// makes a batch's on every core); the stored text's is made here
/// otherwise.
pub fn upsert_paper(tx: Db<'_>, p: &Paper, gist: Option<Option<String>>) -> Result<Upsert> {
    let tx = tx.sql();
    let text = embedding_text(&p.title, &p.abstract_text);
    let hash = text_hash(&text);
    let authors = serde_json::to_string(&p.authors)?;
    let subjects = serde_json::to_string(&p.subjects)?;
    let before = placement(tx, &p.id)?;
    let held: Option<Held> = tx
        .prepare_cached(
            "SELECT version, title, abstract, text_hash, authors, subjects, comments, journal_ref
             FROM papers WHERE id = ?1",
        )?
        .query_row([&p.id], |r| {
            Ok(Held {
                version: r.get(0)?,
                title: r.get(1)?,
                abstract_text: r.get(2)?,
                text_hash: r.get(3)?,
                authors: r.get(4)?,
                subjects: r.get(5)?,
                comments: r.get(6)?,
                journal_ref: r.get(7)?,
                last_listed: None,
            })
        })
        .optional()?;
    let version = p.version.map(i64::from);
    let outcome = match held {
        None => {
            tx.prepare_cached(
                "INSERT INTO papers (id, version, title, authors, abstract, subjects, primary_cat,
                 comments, journal_ref, first_date, text_hash)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            )?
            .execute(params![
                p.id,
                version,
                p.title,
                authors,
                p.abstract_text,
                subjects,
                p.primary,
                p.comments,
                p.journal_ref,
                p.listing_date,
                hash
            ])?;
            Upsert::New
        }
        Some(mut held) => {
            held.last_listed = tx.prepare_cached("SELECT max(date) FROM listings WHERE id = ?1")?.query_row([&p.id], |r| r.get(0))?;
            let incoming = Incoming { paper: p, version, text_hash: &hash, authors: &authors, subjects: &subjects };
            if merge::verdict(&held, &incoming) != Verdict::Newer {
                Upsert::Unchanged
            } else {
                tx.prepare_cached(
                    "UPDATE papers SET version = COALESCE(?2, version), title = ?3, authors = ?4,
                     abstract = ?5, subjects = ?6, primary_cat = ?7, comments = ?8,
                     journal_ref = ?9, text_hash = ?10 WHERE id = ?1",
                )?
                .execute(params![
                    p.id,
                    version,
                    p.title,
                    authors,
                    p.abstract_text,
                    subjects,
                    p.primary,
                    p.comments,
                    p.journal_ref,
                    hash
                ])?;
                Upsert::Updated
            }
        }
    };
    // Few formats name affiliations: one that does adds them, one that does
    // not leaves them. Kept only beside the same author list, so that the
    // i-th affiliation is still the i-th author's.
    if p.affiliations.iter().any(|a| !a.is_empty()) && p.affiliations.len() == p.authors.len() {
        tx.prepare_cached("UPDATE papers SET affiliations = ?3 WHERE id = ?1 AND authors = ?2 AND affiliations IS NOT ?3")?
            .execute(params![p.id, authors, serde_json::to_string(&p.affiliations)?])?;
    }
    if let Some(date) = p.listing_date.as_ref().filter(|_| outcome != Upsert::New) {
        tx.prepare_cached("UPDATE papers SET first_date = ?2 WHERE id = ?1 AND (first_date IS NULL OR first_date > ?2)")?
            .execute(params![p.id, date])?;
    }
    // A paper from a metadata dump was never seen listed: no listing day.
    if let Some(date) = p.listing_date.as_ref().filter(|_| p.kind != Kind::Snapshot) {
        let category = p.primary.clone().unwrap_or_default();
        tx.prepare_cached("INSERT OR IGNORE INTO listings (id, date, category, kind, source) VALUES (?1, ?2, ?3, ?4, ?5)")?
            .execute(params![p.id, date, category, p.kind.as_str(), p.source])?;
    }
    if !p.abstract_text.is_empty() || !p.title.is_empty() {
        tx.prepare_cached(
            "INSERT OR IGNORE INTO versions (id, version, title, abstract, text_hash)
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?
        .execute(params![p.id, version.unwrap_or(0), p.title, p.abstract_text, hash])?;
    }
    if let Some(before) = before {
        if placement(tx, &p.id)?.is_some_and(|after| after.1 != before.1) {
            move_to_new_rowid(tx, &p.id, before.0)?;
        }
    }
    make_gist(tx, &p.id, gist.map(|g| (hash, g)))?;
    Ok(outcome)
}

/// Makes and stores the gist of the paper's stored text, unless one of
/// that text by this method is stored already; `made` is a gist made
/// before, with the hash of the text it was made of.
fn make_gist(tx: &Connection, id: &str, made: Option<(Vec<u8>, Option<String>)>) -> Result<()> {
    let current: Option<(String, String, Vec<u8>, bool)> = tx
        .prepare_cached(
            "SELECT p.title, p.abstract, p.text_hash, g.text_hash IS p.text_hash AND g.method IS ?2
             FROM papers p LEFT JOIN gists g ON g.id = p.id WHERE p.id = ?1",
        )?
        .query_row(params![id, crate::gist::METHOD], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .optional()?;
    if let Some((title, abstract_text, hash, false)) = current {
        let gist = match made {
            Some((of, gist)) if of == hash => gist,
            _ => crate::gist::of(&title, &abstract_text),
        };
        tx.prepare_cached("INSERT OR REPLACE INTO gists (id, text_hash, method, gist) VALUES (?1, ?2, ?3, ?4)")?.execute(params![
            id,
            hash,
            crate::gist::METHOD,
            gist
        ])?;
    }
    Ok(())
}

/// Makes the gists a library written by an older version lacks (or made
/// by another method); how many it made. Once per library and method (a
/// mark in `meta`): every upsert since makes its paper's.
pub fn make_missing_gists(tx: Db<'_>) -> Result<usize> {
    let tx = tx.sql();
    let done: Option<i64> = tx.query_row("SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'gists'", [], |r| r.get(0)).optional()?;
    if done == Some(crate::gist::METHOD) {
        return Ok(0);
    }
    // A chunk at a time in rowid order: a library of millions never holds
    // all its abstracts in memory, and each chunk's gists are made on every core.
    const CHUNK: i64 = 10_000;
    let mut select = tx.prepare(
        "SELECT p.rowid, p.id, p.title, p.abstract, p.text_hash FROM papers p LEFT JOIN gists g ON g.id = p.id
         WHERE p.rowid > ?2 AND (g.id IS NULL OR g.method IS NOT ?1 OR g.text_hash IS NOT p.text_hash)
         ORDER BY p.rowid LIMIT ?3",
    )?;
    let mut insert = tx.prepare_cached("INSERT OR REPLACE INTO gists (id, text_hash, method, gist) VALUES (?1, ?2, ?3, ?4)")?;
    let (mut after, mut made) = (0i64, 0usize);
    loop {
        let rows = select.query_map(params![crate::gist::METHOD, after, CHUNK], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?, r.get::<_, String>(3)?, r.get::<_, Vec<u8>>(4)?))
        })?;
        let chunk: Vec<(i64, String, String, String, Vec<u8>)> = rows.collect::<rusqlite::Result<_>>()?;
        let Some(last) = chunk.last() else { break };
        after = last.0;
        let gists: Vec<Option<String>> = {
            use rayon::prelude::*;
            chunk.par_iter().map(|(_, _, title, abstract_text, _)| crate::gist::of(title, abstract_text)).collect()
        };
        for ((_, id, _, _, hash), gist) in chunk.iter().zip(gists) {
            insert.execute(params![id, hash, crate::gist::METHOD, gist])?;
        }
        made += chunk.len();
    }
    tx.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('gists', ?1)", [crate::gist::METHOD.to_string()])?;
    Ok(made)
}

/// A paper's rowid and what the derived files record of it (text hash,
/// subjects, first date in the vector files; authors and affiliations in
/// the lexical index).
type Placement = (i64, (Vec<u8>, String, Option<String>, String, Option<String>));

fn placement(tx: &Connection, id: &str) -> Result<Option<Placement>> {
    Ok(tx
        .prepare_cached("SELECT rowid, text_hash, subjects, first_date, authors, affiliations FROM papers WHERE id = ?1")?
        .query_row([id], |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?))))
        .optional()?)
}

/// Gives a changed paper the next rowid and logs the old one, so derived
/// files append its new row and mark the old one dead instead of being
/// rewritten. Rowids only grow: the next one is past every rowid ever used.
fn move_to_new_rowid(tx: &Connection, id: &str, old: i64) -> Result<()> {
    let next: i64 = tx.query_row(
        "SELECT max((SELECT coalesce(max(rowid), 0) FROM papers), (SELECT coalesce(max(paper), 0) FROM retired)) + 1",
        [],
        |r| r.get(0),
    )?;
    tx.prepare_cached("UPDATE papers SET rowid = ?2 WHERE id = ?1")?.execute(params![id, next])?;
    tx.prepare_cached("INSERT INTO retired (paper) VALUES (?1)")?.execute([old])?;
    Ok(())
}

/// The model queries use: the one whose vectors were last stored.
pub fn set_default_model(conn: Db<'_>, model: &str) -> Result<()> {
    let conn = conn.sql();
    conn.execute(
        "INSERT INTO meta (key, value) VALUES ('model', ?1)
         ON CONFLICT(key) DO UPDATE SET value = ?1",
        [model],
    )?;
    Ok(())
}

pub fn bump_generation(tx: Db<'_>) -> Result<()> {
    let tx = tx.sql();
    tx.execute(
        "INSERT INTO meta (key, value) VALUES ('generation', '1')
         ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1",
        [],
    )?;
    Ok(())
}

/// Stores a vector; a non-finite one is refused, as it would rank every
/// paper as NaN.
pub fn insert_vector(tx: Db<'_>, model: &str, hash: &[u8], v: &[f32]) -> Result<()> {
    let tx = tx.sql();
    if v.is_empty() || v.iter().any(|x| !x.is_finite()) {
        anyhow::bail!("model {model} gave an empty or non-finite vector (NaN or infinity); not stored");
    }
    tx.prepare_cached("INSERT OR REPLACE INTO vectors (model, text_hash, vec) VALUES (?1, ?2, ?3)")?.execute(params![
        model,
        hash,
        vec_to_blob(v)
    ])?;
    Ok(())
}

/// Records that `model` could not embed the text `hash`, so later ingests
/// skip it instead of failing on it again.
pub fn record_failure(tx: Db<'_>, model: &str, hash: &[u8], error: &str) -> Result<()> {
    let tx = tx.sql();
    tx.prepare_cached("INSERT OR REPLACE INTO embed_failures (model, text_hash, error) VALUES (?1, ?2, ?3)")?
        .execute(params![model, hash, error])?;
    Ok(())
}

/// Ids of the papers whose current text has this hash.
pub fn papers_with_text(tx: Db<'_>, hash: &[u8]) -> Result<Vec<String>> {
    let tx = tx.sql();
    let mut stmt = tx.prepare_cached("SELECT id FROM papers WHERE text_hash = ?1 ORDER BY id")?;
    let rows = stmt.query_map([hash], |r| r.get::<_, String>(0))?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}
