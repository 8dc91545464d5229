//! Ratings: the user's 👍 and 👎 on papers, and which papers they opened.
//! A rating is data kept per profile, and it also makes the paper a seed
//! (liked or disliked), so every ranking method learns from it at once.

use crate::library::store::profiles::{self, Seed};
use crate::library::store::{Db, ProfileKey, StoredPaper};
use anyhow::{bail, Result};
use std::collections::HashMap;

pub use profiles::{mark_seen, Rating};

/// Seeds created by a rating carry this origin; clearing the rating removes them.
pub const ORIGIN: &str = "rating";

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
pub fn rate(conn: Db<'_>, profile: &ProfileKey, paper: &StoredPaper, rating: i8, now: &str) -> Result<Option<Rating>> {
    let id = &paper.paper.id;
    if rating == 0 {
        profiles::clear_rating(conn, profile, id, ORIGIN)?;
        return Ok(None);
    }
    if rating != 1 && rating != -1 {
        bail!("a rating is +1, -1 or 0, not {rating}");
    }
    let r = Rating { id: id.clone(), version: paper.paper.version, rating, time: now.to_string() };
    profiles::put_rating(conn, profile, &r)?;
    // A seed the user added by hand keeps its weight and origin; only its
    // sign follows the rating.
    let seed = Seed {
        key: id.clone(),
        title: paper.paper.title.clone(),
        abstract_text: paper.paper.abstract_text.clone(),
        text_hash: paper.text_hash.clone(),
        weight: 1.0,
        negative: rating < 0,
        added: now.to_string(),
        origin: ORIGIN.to_string(),
        subjects: Vec::new(),
    };
    profiles::put_rating_seed(conn, profile, &seed)?;
    mark_seen(conn, profile, id, now)?;
    Ok(Some(r))
}

pub fn get(conn: Db<'_>, profile: &ProfileKey, id: &str) -> Result<Option<Rating>> {
    profiles::rating(conn, profile, id)
}

/// The profile's ratings, newest first.
pub fn list(conn: Db<'_>, profile: &ProfileKey) -> Result<Vec<Rating>> {
    profiles::ratings(conn, profile)
}

/// id → rating, for marking a day's papers.
pub fn by_id(conn: Db<'_>, profile: &ProfileKey) -> Result<HashMap<String, i8>> {
    Ok(list(conn, profile)?.into_iter().map(|r| (r.id, r.rating)).collect())
}

/// id → the day the user first rated or opened it.
pub fn seen_days(conn: Db<'_>, profile: &ProfileKey) -> Result<HashMap<String, String>> {
    Ok(profiles::seen(conn, profile)?.into_iter().map(|(id, time)| (id, time.get(..10).unwrap_or(&time).to_string())).collect())
}
