//! Ratings: the user's 👍 and 👎 on papers, and which papers they opened.
//! A rating is data kept per profile, and it also makes the paper a seed
//! (liked or disliked), so every ranking method learns from it at once.

use crate::library::store::StoredPaper;
use anyhow::{bail, Result};
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;
use std::collections::HashMap;

/// Seeds created by a rating carry this origin; clearing the rating removes them.
pub const ORIGIN: &str = "rating";

#[derive(Debug, Clone, Serialize)]
pub struct Rating {
    pub id: String,
    pub version: Option<u32>,
    /// +1 liked, -1 not interested.
    pub rating: i8,
    pub time: String,
}

/// Reads `+`, `-`, `0` and their spelled-out forms.
pub fn parse_value(s: &str) -> Result<i8> {
    Ok(match s.trim() {
        "+" | "+1" | "1" | "like" | "up" => 1,
        "-" | "-1" | "dislike" | "down" => -1,
        "0" | "clear" | "none" => 0,
        other => bail!("{other:?} is not a rating; use + (liked), - (not interested) or 0 (clear)"),
    })
}

/// Sets (`+1`/`-1`) or clears (`0`) the profile's rating of a paper, and
/// keeps the seed it implies in step, inside the caller's transaction.
/// Returns the rating now in force.
pub fn rate(conn: &Connection, profile: &str, paper: &StoredPaper, rating: i8, now: &str) -> Result<Option<Rating>> {
    let id = &paper.paper.id;
    if rating == 0 {
        conn.execute("DELETE FROM ratings WHERE profile = ?1 AND id = ?2", params![profile, id])?;
        conn.execute("DELETE FROM seeds WHERE profile = ?1 AND key = ?2 AND origin = ?3", params![profile, id, ORIGIN])?;
        return Ok(None);
    }
    if rating != 1 && rating != -1 {
        bail!("a rating is +1, -1 or 0, not {rating}");
    }
    let version = paper.paper.version;
    conn.execute(
        "INSERT INTO ratings (profile, id, version, rating, time) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT(profile, id) DO UPDATE SET version = ?3, rating = ?4, time = ?5",
        params![profile, id, version, rating, now],
    )?;
    // A seed the user added by hand keeps its weight and origin; only its
    // sign follows the rating.
    conn.execute(
        "INSERT INTO seeds (profile, key, title, abstract, text_hash, weight, negative, added, origin)
         VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6, ?7, ?8)
         ON CONFLICT(profile, key) DO UPDATE SET negative = ?6",
        params![profile, id, paper.paper.title, paper.paper.abstract_text, paper.text_hash, rating < 0, now, ORIGIN],
    )?;
    mark_seen(conn, profile, id, now)?;
    Ok(Some(Rating { id: id.clone(), version, rating, time: now.to_string() }))
}

/// Records that the user opened a paper (the first time counts).
pub fn mark_seen(conn: &Connection, profile: &str, id: &str, now: &str) -> Result<()> {
    conn.execute("INSERT OR IGNORE INTO seen (profile, id, time) VALUES (?1, ?2, ?3)", params![profile, id, now])?;
    Ok(())
}

pub fn get(conn: &Connection, profile: &str, id: &str) -> Result<Option<Rating>> {
    Ok(conn
        .prepare_cached("SELECT id, version, rating, time FROM ratings WHERE profile = ?1 AND id = ?2")?
        .query_row(params![profile, id], row_to_rating)
        .optional()?)
}

/// The profile's ratings, newest first.
pub fn list(conn: &Connection, profile: &str) -> Result<Vec<Rating>> {
    let mut stmt = conn.prepare_cached("SELECT id, version, rating, time FROM ratings WHERE profile = ?1 ORDER BY time DESC, id")?;
    let rows = stmt.query_map([profile], row_to_rating)?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

/// id → rating, for marking a day's papers.
pub fn by_id(conn: &Connection, profile: &str) -> Result<HashMap<String, i8>> {
    Ok(list(conn, profile)?.into_iter().map(|r| (r.id, r.rating)).collect())
}

/// id → the day the user first rated or opened it.
pub fn seen_days(conn: &Connection, profile: &str) -> Result<HashMap<String, String>> {
    let mut stmt = conn.prepare_cached("SELECT id, time FROM seen WHERE profile = ?1")?;
    let rows = stmt.query_map([profile], |r| {
        let time: String = r.get(1)?;
        Ok((r.get::<_, String>(0)?, time.get(..10).unwrap_or(&time).to_string()))
    })?;
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
