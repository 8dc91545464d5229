//! Each reader's delivery channels and the record of what was delivered,
//! so that a day reaches a reader once per channel, across restarts.

use anyhow::Result;
use rusqlite::{params, Connection, OptionalExtension};

/// Where one reader's morning digest goes. `user` is empty for the owner of
/// a library without accounts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Channels {
    pub user: String,
    pub email: Option<String>,
    pub chat_url: Option<String>,
    pub chat_format: Option<String>,
}

/// A library last written before channels were kept has no such tables
/// until its next write; read, it has no channels and no deliveries.
fn kept(conn: &Connection) -> Result<bool> {
    Ok(conn.query_row("SELECT count(*) = 2 FROM sqlite_master WHERE type = 'table' AND name IN ('channels', 'deliveries')", [], |r| {
        r.get(0)
    })?)
}

pub fn channels_of(conn: &Connection, user: &str) -> Result<Option<Channels>> {
    if !kept(conn)? {
        return Ok(None);
    }
    Ok(conn
        .prepare_cached("SELECT user, email, chat_url, chat_format FROM channels WHERE user = ?1")?
        .query_row([user], |r| Ok(Channels { user: r.get(0)?, email: r.get(1)?, chat_url: r.get(2)?, chat_format: r.get(3)? }))
        .optional()?)
}

/// Every reader with a channel, by name.
pub fn all_channels(conn: &Connection) -> Result<Vec<Channels>> {
    if !kept(conn)? {
        return Ok(Vec::new());
    }
    let mut stmt = conn.prepare_cached(
        "SELECT user, email, chat_url, chat_format FROM channels WHERE email IS NOT NULL OR chat_url IS NOT NULL ORDER BY user",
    )?;
    let rows = stmt.query_map([], |r| Ok(Channels { user: r.get(0)?, email: r.get(1)?, chat_url: r.get(2)?, chat_format: r.get(3)? }))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

pub fn set_channels(conn: &Connection, c: &Channels) -> Result<()> {
    conn.execute(
        "INSERT INTO channels (user, email, chat_url, chat_format) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(user) DO UPDATE SET email = ?2, chat_url = ?3, chat_format = ?4",
        params![c.user, c.email, c.chat_url, c.chat_format],
    )?;
    Ok(())
}

pub fn delivered(conn: &Connection, user: &str, day: &str, channel: &str) -> Result<bool> {
    if !kept(conn)? {
        return Ok(false);
    }
    Ok(conn
        .prepare_cached("SELECT 1 FROM deliveries WHERE user = ?1 AND day = ?2 AND channel = ?3")?
        .query_row([user, day, channel], |_| Ok(()))
        .optional()?
        .is_some())
}

pub fn record_delivery(conn: &Connection, user: &str, day: &str, channel: &str, at: &str) -> Result<()> {
    conn.execute("INSERT OR IGNORE INTO deliveries (user, day, channel, at) VALUES (?1, ?2, ?3, ?4)", params![user, day, channel, at])?;
    Ok(())
}
