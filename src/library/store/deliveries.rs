//! Each reader's delivery channels, and the record of what was delivered:
//! the messages each day's digest is sent in, each marked when a 2xx took
//! it, so that a day reaches a reader once per channel across retries and
//! restarts, and a split digest never posts its first part twice.

use super::schema::has_column;
use super::Db;
use crate::paper::Day;
use anyhow::Result;
use rusqlite::{params, Connection, OptionalExtension};

/// Where one reader's morning digest goes. `user` is empty for the owner of
/// a library without accounts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Channels {
    pub user: String,
    pub email: Option<String>,
    /// The reader followed the code sent to `email`.
    pub email_confirmed: bool,
    pub chat_url: Option<String>,
    pub chat_format: Option<String>,
    /// The reader's own token for `chat_url`'s host (Matrix, ntfy).
    pub chat_token: Option<String>,
}

/// A library last written before these tables were kept has none of them
/// until its next write; read, it has no channels and no deliveries.
fn has_table(conn: &Connection, table: &str) -> Result<bool> {
    Ok(conn.query_row("SELECT count(*) = 1 FROM sqlite_master WHERE type = 'table' AND name = ?1", [table], |r| r.get(0))?)
}

/// The columns read, as an older library (not yet written by this
/// version) has them.
fn columns(conn: &Connection) -> Result<&'static str> {
    Ok(if has_column(conn, "channels", "chat_token")? {
        "user, email, email_confirmed, chat_url, chat_format, chat_token"
    } else {
        "user, email, 0, chat_url, chat_format, NULL"
    })
}

fn row(r: &rusqlite::Row) -> rusqlite::Result<Channels> {
    Ok(Channels {
        user: r.get(0)?,
        email: r.get(1)?,
        email_confirmed: r.get::<_, i64>(2)? != 0,
        chat_url: r.get(3)?,
        chat_format: r.get(4)?,
        chat_token: r.get(5)?,
    })
}

pub fn channels_of(conn: Db<'_>, user: &str) -> Result<Option<Channels>> {
    let conn = conn.sql();
    if !has_table(conn, "channels")? {
        return Ok(None);
    }
    let sql = format!("SELECT {} FROM channels WHERE user = ?1", columns(conn)?);
    Ok(conn.prepare(&sql)?.query_row([user], row).optional()?)
}

/// Every reader with a channel, by name.
pub fn all_channels(conn: Db<'_>) -> Result<Vec<Channels>> {
    let conn = conn.sql();
    if !has_table(conn, "channels")? {
        return Ok(Vec::new());
    }
    let sql = format!("SELECT {} FROM channels WHERE email IS NOT NULL OR chat_url IS NOT NULL ORDER BY user", columns(conn)?);
    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt.query_map([], row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Saves a reader's channels. A new e-mail address starts unconfirmed,
/// with no code yet; the same address keeps its state.
pub fn set_channels(conn: Db<'_>, c: &Channels) -> Result<()> {
    let conn = conn.sql();
    conn.execute(
        "INSERT INTO channels (user, email, chat_url, chat_format, chat_token, email_confirmed) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT(user) DO UPDATE SET
             email_confirmed = CASE WHEN email IS ?2 THEN email_confirmed ELSE ?6 END,
             email_code = CASE WHEN email IS ?2 THEN email_code ELSE NULL END,
             email_code_tries = CASE WHEN email IS ?2 THEN email_code_tries ELSE 0 END,
             email = ?2, chat_url = ?3, chat_format = ?4, chat_token = ?5",
        params![c.user, c.email, c.chat_url, c.chat_format, c.chat_token, c.email_confirmed],
    )?;
    Ok(())
}

/// Keeps the hash of a code just sent to the reader's address.
pub fn set_email_code(conn: Db<'_>, user: &str, code_hash: &str, expires: i64) -> Result<()> {
    let conn = conn.sql();
    conn.execute(
        "UPDATE channels SET email_code = ?2, email_code_expires = ?3, email_code_tries = 0 WHERE user = ?1",
        params![user, code_hash, expires],
    )?;
    Ok(())
}

/// What a confirmation code did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirmation {
    Confirmed,
    /// Wrong; this many tries are left for this code.
    Wrong(u32),
    /// No code is waiting (none sent, expired, or used up).
    NoneWaiting,
}

/// Tries a code is good for.
pub const CODE_TRIES: u32 = 5;

/// Checks `code_hash` against the code sent to `user`'s address: the
/// address is confirmed, or one try is used (the last one ends the code).
pub fn confirm_email(conn: Db<'_>, user: &str, code_hash: &str, now: i64) -> Result<Confirmation> {
    let conn = conn.sql();
    let waiting: Option<(Option<String>, Option<i64>, i64)> = conn
        .query_row("SELECT email_code, email_code_expires, email_code_tries FROM channels WHERE user = ?1", [user], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .optional()?;
    let Some((Some(stored), Some(expires), tries)) = waiting else { return Ok(Confirmation::NoneWaiting) };
    if expires <= now || tries >= i64::from(CODE_TRIES) {
        conn.execute("UPDATE channels SET email_code = NULL WHERE user = ?1", [user])?;
        return Ok(Confirmation::NoneWaiting);
    }
    // Hashes compared: timing tells nothing of the code.
    if stored == code_hash {
        conn.execute("UPDATE channels SET email_confirmed = 1, email_code = NULL, email_code_tries = 0 WHERE user = ?1", [user])?;
        return Ok(Confirmation::Confirmed);
    }
    let used = tries + 1;
    if used >= i64::from(CODE_TRIES) {
        conn.execute("UPDATE channels SET email_code = NULL, email_code_tries = ?2 WHERE user = ?1", params![user, used])?;
    } else {
        conn.execute("UPDATE channels SET email_code_tries = ?2 WHERE user = ?1", params![user, used])?;
    }
    Ok(Confirmation::Wrong(CODE_TRIES.saturating_sub(used as u32)))
}

/// Whether a code is waiting for the reader's address.
pub fn code_waiting(conn: Db<'_>, user: &str, now: i64) -> Result<bool> {
    let conn = conn.sql();
    if !has_column(conn, "channels", "email_code")? {
        return Ok(false);
    }
    Ok(conn
        .query_row(
            "SELECT 1 FROM channels WHERE user = ?1 AND email_code IS NOT NULL AND email_code_expires > ?2",
            params![user, now],
            |_| Ok(()),
        )
        .optional()?
        .is_some())
}

pub fn delivered(conn: Db<'_>, user: &str, day: Day, channel: &str) -> Result<bool> {
    let conn = conn.sql();
    if !has_table(conn, "deliveries")? {
        return Ok(false);
    }
    Ok(conn
        .prepare_cached("SELECT 1 FROM deliveries WHERE user = ?1 AND day = ?2 AND channel = ?3")?
        .query_row(params![user, day, channel], |_| Ok(()))
        .optional()?
        .is_some())
}

/// The whole channel delivered: every part accepted.
pub fn record_delivery(conn: Db<'_>, user: &str, day: Day, channel: &str, at: &str) -> Result<()> {
    let conn = conn.sql();
    conn.execute("INSERT OR IGNORE INTO deliveries (user, day, channel, at) VALUES (?1, ?2, ?3, ?4)", params![user, day, channel, at])?;
    conn.execute("DELETE FROM delivery_failures WHERE user = ?1 AND day = ?2 AND channel = ?3", params![user, day, channel])?;
    Ok(())
}

/// The last failed try of a channel, replacing the one before.
pub fn record_failure(conn: Db<'_>, user: &str, day: Day, channel: &str, at: &str, detail: &str) -> Result<()> {
    let conn = conn.sql();
    conn.execute(
        "INSERT OR REPLACE INTO delivery_failures (user, day, channel, at, detail) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![user, day, channel, at, detail],
    )?;
    Ok(())
}

/// One message of a day's digest for a channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// 0-based.
    pub part: usize,
    pub parts: usize,
    pub body: String,
    pub accepted: bool,
}

/// The messages planned for a day's channel, in order; none if none were.
pub fn planned(conn: Db<'_>, user: &str, day: Day, channel: &str) -> Result<Vec<Part>> {
    let conn = conn.sql();
    if !has_table(conn, "outbox")? {
        return Ok(Vec::new());
    }
    let mut stmt = conn.prepare_cached(
        "SELECT part, parts, body, accepted IS NOT NULL FROM outbox WHERE user = ?1 AND day = ?2 AND channel = ?3 ORDER BY part",
    )?;
    let rows = stmt.query_map(params![user, day, channel], |r| {
        Ok(Part { part: r.get::<_, i64>(0)? as usize, parts: r.get::<_, i64>(1)? as usize, body: r.get(2)?, accepted: r.get(3)? })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Keeps the messages of a day's channel, unless some are kept already
/// (then those stay: what was sent once is what is sent again); returns
/// what is kept.
pub fn plan(conn: Db<'_>, user: &str, day: Day, channel: &str, bodies: &[String]) -> Result<Vec<Part>> {
    let conn = conn.sql();
    let tx = conn.unchecked_transaction()?;
    let kept = planned(Db(&tx), user, day, channel)?;
    if !kept.is_empty() {
        return Ok(kept);
    }
    for (i, body) in bodies.iter().enumerate() {
        tx.execute(
            "INSERT INTO outbox (user, day, channel, part, parts, body) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![user, day, channel, i as i64, bodies.len() as i64, body],
        )?;
    }
    let kept = planned(Db(&tx), user, day, channel)?;
    tx.commit()?;
    Ok(kept)
}

/// A 2xx took this part.
pub fn accept_part(conn: Db<'_>, user: &str, day: Day, channel: &str, part: usize, at: &str) -> Result<()> {
    let conn = conn.sql();
    conn.execute(
        "UPDATE outbox SET accepted = ?5 WHERE user = ?1 AND day = ?2 AND channel = ?3 AND part = ?4 AND accepted IS NULL",
        params![user, day, channel, part as i64, at],
    )?;
    Ok(())
}

/// What Settings shows of a reader's newest morning, by channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub day: String,
    pub channel: String,
    pub at: String,
    /// None: delivered.
    pub failure: Option<String>,
}

/// The reader's records of the newest day any channel of theirs was tried.
pub fn last_records(conn: Db<'_>, user: &str) -> Result<Vec<Record>> {
    let conn = conn.sql();
    if !has_table(conn, "delivery_failures")? {
        return Ok(Vec::new());
    }
    let mut stmt = conn.prepare(
        "WITH tried AS (
             SELECT day, channel, at, NULL AS failure FROM deliveries WHERE user = ?1
             UNION ALL SELECT day, channel, at, detail FROM delivery_failures WHERE user = ?1)
         SELECT day, channel, at, failure FROM tried WHERE day = (SELECT max(day) FROM tried) ORDER BY channel",
    )?;
    let rows = stmt.query_map([user], |r| Ok(Record { day: r.get(0)?, channel: r.get(1)?, at: r.get(2)?, failure: r.get(3)? }))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Forgets the messages of days before `day` (their deliveries stay
/// recorded): the outbox holds a few days, not a year of digests.
pub fn forget_messages_before(conn: Db<'_>, day: Day) -> Result<()> {
    let conn = conn.sql();
    conn.execute("DELETE FROM outbox WHERE day < ?1", [day])?;
    conn.execute("DELETE FROM delivery_failures WHERE day < ?1", [day])?;
    Ok(())
}
