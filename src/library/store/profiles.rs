//! The profile tables: seeds (and which sync added them), ratings, papers
//! seen and filters, each row under the key of the profile it belongs to.
//! Every statement on them is here; `profile` decides what to write.

use super::Db;
use anyhow::Result;
use rusqlite::types::{ToSql, ToSqlOutput};
use rusqlite::{params, OptionalExtension};
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;

/// A profile as the tables key it: `user/name` on a library with accounts,
/// where `name` is what its owner sees and types; the name alone on a
/// library without. Made by [`ProfileKey::of`] or read back from the
/// tables, so that a name is never taken for a key, nor a key shown as a
/// name.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProfileKey(String);

impl ProfileKey {
    /// The profile `name` of `user` (`None`: the library has no accounts).
    pub fn of(user: Option<&str>, name: &str) -> ProfileKey {
        match user {
            Some(u) => ProfileKey(format!("{u}/{name}")),
            None => ProfileKey(name.to_string()),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The name `user` knows this profile by, when it is theirs (for `None`,
    /// every profile without an owner).
    pub fn name_for(&self, user: Option<&str>) -> Option<&str> {
        match (user, self.0.split_once('/')) {
            (Some(u), Some((owner, name))) if owner == u => Some(name),
            (None, None) => Some(&self.0),
            _ => None,
        }
    }

    /// Whether the key has an owner (`user/name`).
    pub fn is_owned(&self) -> bool {
        self.0.contains('/')
    }
}

impl fmt::Display for ProfileKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl ToSql for ProfileKey {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        self.0.to_sql()
    }
}

/// What a profile holds: its seeds, papers liked and not, and filter rules.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub seeds: i64,
    pub liked: i64,
    pub not_interested: i64,
    pub filters: i64,
}

pub fn counts(conn: Db<'_>, profile: &ProfileKey) -> Result<Counts> {
    let conn = conn.sql();
    let count = |sql: &str| -> Result<i64> { Ok(conn.prepare_cached(sql)?.query_row([profile], |r| r.get(0))?) };
    Ok(Counts {
        seeds: count("SELECT count(*) FROM seeds WHERE profile = ?1")?,
        liked: count("SELECT count(*) FROM ratings WHERE profile = ?1 AND rating > 0")?,
        not_interested: count("SELECT count(*) FROM ratings WHERE profile = ?1 AND rating < 0")?,
        filters: count("SELECT count(*) FROM filters WHERE profile = ?1")?,
    })
}

/// Every profile that has seeds, ratings or filters, and `default`.
pub fn profile_keys(conn: Db<'_>) -> Result<Vec<ProfileKey>> {
    let conn = conn.sql();
    let mut stmt = conn.prepare_cached(
        "SELECT profile FROM seeds UNION SELECT profile FROM ratings UNION SELECT profile FROM filters
         UNION SELECT 'default' ORDER BY 1",
    )?;
    let rows = stmt.query_map([], |r| r.get(0).map(ProfileKey))?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

// ---- seeds ----

/// A stored seed.
#[derive(Debug, Clone, Serialize)]
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
    /// The categories of the library's paper of that id, primary first
    /// (none for free text, or a paper the library does not hold).
    #[serde(skip)]
    pub subjects: Vec<String>,
}

/// How a seed is known: a paper by its arXiv id, or text alone (a
/// sentence, or an export's entry without an id) under an internal key
/// that no page or list needs to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeedKind {
    Paper,
    Sentence,
    TitleOnly,
}

impl SeedKind {
    /// What a list says of it.
    pub fn label(self) -> &'static str {
        match self {
            SeedKind::Paper => "paper",
            SeedKind::Sentence => "sentence",
            SeedKind::TitleOnly => "title only, no arXiv id",
        }
    }
}

impl Seed {
    pub fn kind(&self) -> SeedKind {
        match self.key.starts_with(TEXT_KEY) {
            false => SeedKind::Paper,
            true if self.origin == SENTENCE_ORIGIN => SeedKind::Sentence,
            true => SeedKind::TitleOnly,
        }
    }
}

/// The key of a seed known by its text alone begins so.
pub const TEXT_KEY: &str = "text:";
/// The origin of a seed written as a sentence.
pub const SENTENCE_ORIGIN: &str = "sentence";

pub fn has_seed(conn: Db<'_>, profile: &ProfileKey, key: &str) -> Result<bool> {
    let conn = conn.sql();
    Ok(conn.prepare_cached("SELECT 1 FROM seeds WHERE profile = ?1 AND key = ?2")?.exists(params![profile, key])?)
}

/// Stores `seed`; one the profile has already takes its text, weight, sign
/// and origin, and keeps the time it was first added.
pub fn put_seed(conn: Db<'_>, profile: &ProfileKey, seed: &Seed) -> Result<()> {
    let conn = conn.sql();
    conn.prepare_cached(
        "INSERT INTO seeds (profile, key, title, abstract, text_hash, weight, negative, added, origin)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
         ON CONFLICT(profile, key) DO UPDATE SET title = ?3, abstract = ?4, text_hash = ?5,
         weight = ?6, negative = ?7, origin = ?9",
    )?
    .execute(params![
        profile,
        seed.key,
        seed.title,
        seed.abstract_text,
        seed.text_hash,
        seed.weight,
        seed.negative,
        seed.added,
        seed.origin
    ])?;
    Ok(())
}

/// The profile's seeds, the last added first.
pub fn seeds(conn: Db<'_>, profile: &ProfileKey) -> Result<Vec<Seed>> {
    let conn = conn.sql();
    let mut stmt = conn.prepare(
        "SELECT s.key, s.title, s.abstract, s.text_hash, s.weight, s.negative, s.added, s.origin, p.subjects
         FROM seeds s LEFT JOIN papers p ON p.id = s.key
         WHERE s.profile = ?1 ORDER BY s.added DESC, s.key",
    )?;
    let rows = stmt.query_map([profile], |r| {
        let subjects: Option<String> = r.get(8)?;
        Ok(Seed {
            subjects: subjects.and_then(|s| serde_json::from_str(&s).ok()).unwrap_or_default(),
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

/// Removes a seed, where a sync found it and the rating that made it, so
/// the two never disagree. False when the profile has no such seed.
pub fn remove_seed(conn: Db<'_>, profile: &ProfileKey, key: &str) -> Result<bool> {
    let conn = conn.sql();
    let n = conn.execute("DELETE FROM seeds WHERE profile = ?1 AND key = ?2", params![profile, key])?;
    conn.execute("DELETE FROM seed_sources WHERE profile = ?1 AND key = ?2", params![profile, key])?;
    conn.execute("DELETE FROM ratings WHERE profile = ?1 AND id = ?2", params![profile, key])?;
    Ok(n > 0)
}

/// False when the profile has no such seed.
pub fn set_seed_weight(conn: Db<'_>, profile: &ProfileKey, key: &str, weight: f32) -> Result<bool> {
    let conn = conn.sql();
    Ok(conn.execute("UPDATE seeds SET weight = ?3 WHERE profile = ?1 AND key = ?2", params![profile, key, weight])? > 0)
}

/// Moves a seed (and its rating, if it came from one) to another profile,
/// replacing a seed with the same key there; it is the user's own then, so
/// no sync of either profile removes it. False when there is no such seed.
pub fn move_seed(conn: Db<'_>, from: &ProfileKey, key: &str, to: &ProfileKey) -> Result<bool> {
    let conn = conn.sql();
    if from == to {
        return has_seed(Db(conn), from, key);
    }
    conn.execute("DELETE FROM seeds WHERE profile = ?1 AND key = ?2", params![to, key])?;
    let n = conn.execute("UPDATE seeds SET profile = ?3 WHERE profile = ?1 AND key = ?2", params![from, key, to])?;
    conn.execute("DELETE FROM seed_sources WHERE (profile = ?1 OR profile = ?3) AND key = ?2", params![from, key, to])?;
    if n > 0 {
        conn.execute("DELETE FROM ratings WHERE profile = ?1 AND id = ?2", params![to, key])?;
        conn.execute("UPDATE ratings SET profile = ?3 WHERE profile = ?1 AND id = ?2", params![from, key, to])?;
    }
    Ok(n > 0)
}

/// Seeds of the profile whose text has no vector for `model`: (hash, title,
/// abstract).
pub fn seeds_without_vector(conn: Db<'_>, profile: &ProfileKey, model: &str) -> Result<Vec<(Vec<u8>, String, String)>> {
    let conn = conn.sql();
    let mut stmt = conn.prepare(
        "SELECT s.text_hash, s.title, s.abstract FROM seeds s WHERE s.profile = ?1 AND NOT EXISTS
         (SELECT 1 FROM vectors v WHERE v.model = ?2 AND v.text_hash = s.text_hash)",
    )?;
    let rows = stmt.query_map(params![profile, model], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

/// The seeds of the profile a sync from `source` (`zotero`) added, by key:
/// (title, abstract, added). None where no sync has written yet (a library
/// opened read-only, before its first sync made the table).
pub fn synced_seeds(conn: Db<'_>, profile: &ProfileKey, source: &str) -> Result<HashMap<String, (String, String, String)>> {
    let conn = conn.sql();
    let exists: bool =
        conn.query_row("SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'seed_sources'", [], |r| r.get(0))?;
    if !exists {
        return Ok(HashMap::new());
    }
    let mut stmt = conn.prepare(
        "SELECT s.key, s.title, s.abstract, s.added FROM seeds s JOIN seed_sources o ON o.profile = s.profile AND o.key = s.key
         WHERE s.profile = ?1 AND o.source = ?2",
    )?;
    let rows = stmt.query_map(params![profile, source], |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?, r.get(3)?))))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Removes a seed a sync added (its rating, if the user gave one, stays).
pub fn remove_synced_seed(conn: Db<'_>, profile: &ProfileKey, key: &str) -> Result<()> {
    let conn = conn.sql();
    conn.execute("DELETE FROM seeds WHERE profile = ?1 AND key = ?2", params![profile, key])?;
    conn.execute("DELETE FROM seed_sources WHERE profile = ?1 AND key = ?2", params![profile, key])?;
    Ok(())
}

/// Stores a seed a sync from `source` found as `item`, with the time its
/// item was added there (which it keeps in step, unlike [`put_seed`]).
pub fn put_synced_seed(conn: Db<'_>, profile: &ProfileKey, seed: &Seed, source: &str, item: &str) -> Result<()> {
    let conn = conn.sql();
    conn.execute(
        "INSERT INTO seeds (profile, key, title, abstract, text_hash, weight, negative, added, origin)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
         ON CONFLICT(profile, key) DO UPDATE SET title = ?3, abstract = ?4, text_hash = ?5, added = ?8, origin = ?9",
        params![profile, seed.key, seed.title, seed.abstract_text, seed.text_hash, seed.weight, seed.negative, seed.added, seed.origin],
    )?;
    conn.execute(
        "INSERT OR REPLACE INTO seed_sources (profile, key, source, item) VALUES (?1, ?2, ?3, ?4)",
        params![profile, seed.key, source, item],
    )?;
    Ok(())
}

// ---- ratings and papers seen ----

#[derive(Debug, Clone, Serialize)]
pub struct Rating {
    pub id: String,
    pub version: Option<u32>,
    /// +1 liked, -1 not interested.
    pub rating: i8,
    pub time: String,
}

/// Sets the profile's rating of a paper.
pub fn put_rating(conn: Db<'_>, profile: &ProfileKey, rating: &Rating) -> Result<()> {
    let conn = conn.sql();
    conn.execute(
        "INSERT INTO ratings (profile, id, version, rating, time) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT(profile, id) DO UPDATE SET version = ?3, rating = ?4, time = ?5",
        params![profile, rating.id, rating.version, rating.rating, rating.time],
    )?;
    Ok(())
}

/// Clears the profile's rating of a paper, and the seed with `origin` it
/// made.
pub fn clear_rating(conn: Db<'_>, profile: &ProfileKey, id: &str, origin: &str) -> Result<()> {
    let conn = conn.sql();
    conn.execute("DELETE FROM ratings WHERE profile = ?1 AND id = ?2", params![profile, id])?;
    conn.execute("DELETE FROM seeds WHERE profile = ?1 AND key = ?2 AND origin = ?3", params![profile, id, origin])?;
    Ok(())
}

/// The seed a rating makes: added as `seed` says; one the profile has
/// already keeps its weight and origin, and only its sign follows.
pub fn put_rating_seed(conn: Db<'_>, profile: &ProfileKey, seed: &Seed) -> Result<()> {
    let conn = conn.sql();
    conn.execute(
        "INSERT INTO seeds (profile, key, title, abstract, text_hash, weight, negative, added, origin)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
         ON CONFLICT(profile, key) DO UPDATE SET negative = ?7",
        params![profile, seed.key, seed.title, seed.abstract_text, seed.text_hash, seed.weight, seed.negative, seed.added, seed.origin],
    )?;
    Ok(())
}

/// Records that the user opened a paper (the first time counts).
pub fn mark_seen(conn: Db<'_>, profile: &ProfileKey, id: &str, now: &str) -> Result<()> {
    let conn = conn.sql();
    conn.execute("INSERT OR IGNORE INTO seen (profile, id, time) VALUES (?1, ?2, ?3)", params![profile, id, now])?;
    Ok(())
}

pub fn rating(conn: Db<'_>, profile: &ProfileKey, id: &str) -> Result<Option<Rating>> {
    let conn = conn.sql();
    Ok(conn
        .prepare_cached("SELECT id, version, rating, time FROM ratings WHERE profile = ?1 AND id = ?2")?
        .query_row(params![profile, id], row_to_rating)
        .optional()?)
}

/// The profile's ratings, newest first.
pub fn ratings(conn: Db<'_>, profile: &ProfileKey) -> Result<Vec<Rating>> {
    let conn = conn.sql();
    let mut stmt = conn.prepare_cached("SELECT id, version, rating, time FROM ratings WHERE profile = ?1 ORDER BY time DESC, id")?;
    let rows = stmt.query_map([profile], row_to_rating)?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

/// id → the time the user first rated or opened it.
pub fn seen(conn: Db<'_>, profile: &ProfileKey) -> Result<HashMap<String, String>> {
    let conn = conn.sql();
    let mut stmt = conn.prepare_cached("SELECT id, time FROM seen WHERE profile = ?1")?;
    let rows = stmt.query_map([profile], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

fn row_to_rating(r: &rusqlite::Row<'_>) -> rusqlite::Result<Rating> {
    Ok(Rating {
        id: r.get(0)?,
        version: r.get::<_, Option<i64>>(1)?.and_then(|v| u32::try_from(v).ok()),
        rating: r.get(2)?,
        time: r.get(3)?,
    })
}

// ---- filters ----

/// False when the profile had the rule already.
pub fn add_filter(conn: Db<'_>, profile: &ProfileKey, rule: &str, value: &str) -> Result<bool> {
    let conn = conn.sql();
    Ok(conn.execute("INSERT OR IGNORE INTO filters (profile, rule, value) VALUES (?1, ?2, ?3)", params![profile, rule, value])? > 0)
}

/// False when the profile had no such rule.
pub fn remove_filter(conn: Db<'_>, profile: &ProfileKey, rule: &str, value: &str) -> Result<bool> {
    let conn = conn.sql();
    Ok(conn.execute("DELETE FROM filters WHERE profile = ?1 AND rule = ?2 AND value = ?3", params![profile, rule, value])? > 0)
}

/// The profile's filter rules as stored: (rule, value), in order.
pub fn filters(conn: Db<'_>, profile: &ProfileKey) -> Result<Vec<(String, String)>> {
    let conn = conn.sql();
    let mut stmt = conn.prepare_cached("SELECT rule, value FROM filters WHERE profile = ?1 ORDER BY rule, value")?;
    let rows = stmt.query_map([profile], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

// ---- settings ----

/// A profile's setting `key` (the digest's bar), if it was ever set; a
/// library last written before settings were kept has none.
pub fn setting(conn: Db<'_>, profile: &ProfileKey, key: &str) -> Result<Option<String>> {
    let conn = conn.sql();
    let kept: bool =
        conn.query_row("SELECT count(*) = 1 FROM sqlite_master WHERE type = 'table' AND name = 'profile_settings'", [], |r| r.get(0))?;
    if !kept {
        return Ok(None);
    }
    let mut stmt = conn.prepare_cached("SELECT value FROM profile_settings WHERE profile = ?1 AND key = ?2")?;
    let mut rows = stmt.query(params![profile, key])?;
    Ok(match rows.next()? {
        Some(r) => Some(r.get(0)?),
        None => None,
    })
}

pub fn set_setting(conn: Db<'_>, profile: &ProfileKey, key: &str, value: &str) -> Result<()> {
    let conn = conn.sql();
    conn.execute(
        "INSERT INTO profile_settings (profile, key, value) VALUES (?1, ?2, ?3)
         ON CONFLICT(profile, key) DO UPDATE SET value = excluded.value",
        params![profile, key, value],
    )?;
    Ok(())
}
