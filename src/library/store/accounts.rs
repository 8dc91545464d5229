//! The accounts' rows: users (a password hash and a feed key's hash each),
//! their browser sessions, and the move of a library's profiles to its
//! first user. What a password or a token is, and how it is hashed, is
//! `crate::accounts`'s; this file only keeps what it is given.

use super::profiles::ProfileKey;
use super::schema::PROFILE_TABLES;
use super::Db;
use anyhow::Result;
use rusqlite::{params, Connection, OptionalExtension};

fn has_table(conn: &Connection, table: &str) -> Result<bool> {
    Ok(conn.query_row("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1", [table], |_| Ok(())).optional()?.is_some())
}

/// Account names, in order; none in a library made before accounts.
pub fn names(conn: Db<'_>) -> Result<Vec<String>> {
    let conn = conn.sql();
    if !has_table(conn, "users")? {
        return Ok(Vec::new());
    }
    let mut stmt = conn.prepare_cached("SELECT name FROM users ORDER BY name")?;
    let rows = stmt.query_map([], |r| r.get(0))?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

/// Adds a user, in one transaction; `None` when the name is taken. The
/// first user of a library takes over its profiles (stored under plain
/// names until then): returned are those that held rows.
pub fn add(conn: Db<'_>, name: &str, hash: &str, feed_hash: &str, now: &str) -> Result<Option<Vec<String>>> {
    let conn = conn.sql();
    let tx = conn.unchecked_transaction()?;
    let first = names(Db(&tx))?.is_empty();
    let added =
        tx.execute("INSERT OR IGNORE INTO users (name, hash, feed, created) VALUES (?1, ?2, ?3, ?4)", params![name, hash, feed_hash, now])?;
    if added == 0 {
        return Ok(None);
    }
    let mut adopted = Vec::new();
    if first {
        adopted = super::profiles::profile_keys(Db(&tx))?.into_iter().filter(|p| !p.is_owned()).map(|p| p.to_string()).collect();
        for table in PROFILE_TABLES {
            tx.execute(&format!("UPDATE {} SET profile = ?1 || '/' || profile WHERE instr(profile, '/') = 0", table.name), [name])?;
        }
        // `profile_keys` always offers `default`; it is adopted only if it held rows.
        adopted.retain(|p| has_rows(&tx, &ProfileKey::of(Some(name), p)).unwrap_or(false));
    }
    tx.commit()?;
    Ok(Some(adopted))
}

fn has_rows(conn: &Connection, key: &ProfileKey) -> Result<bool> {
    for table in PROFILE_TABLES {
        let n: i64 = conn.query_row(&format!("SELECT count(*) FROM {} WHERE profile = ?1", table.name), [key], |r| r.get(0))?;
        if n > 0 {
            return Ok(true);
        }
    }
    Ok(false)
}

/// What removing a user took with it.
pub struct Removed {
    pub rows: usize,
    pub sessions: usize,
}

/// Removes a user, its sessions and every row of its profiles, in one
/// transaction; `None` when there is no such user.
pub fn remove(conn: Db<'_>, name: &str) -> Result<Option<Removed>> {
    let conn = conn.sql();
    let tx = conn.unchecked_transaction()?;
    if tx.execute("DELETE FROM users WHERE name = ?1", [name])? == 0 {
        return Ok(None);
    }
    let sessions = tx.execute("DELETE FROM sessions WHERE user = ?1", [name])?;
    let mut rows = 0;
    for table in PROFILE_TABLES {
        rows += tx.execute(&format!("DELETE FROM {} WHERE substr(profile, 1, length(?1) + 1) = ?1 || '/'", table.name), [name])?;
    }
    tx.commit()?;
    Ok(Some(Removed { rows, sessions }))
}

/// A new password hash and feed key hash, and every session ended, in one
/// transaction; false when there is no such user.
pub fn set_password(conn: Db<'_>, name: &str, hash: &str, feed_hash: &str) -> Result<bool> {
    let conn = conn.sql();
    let tx = conn.unchecked_transaction()?;
    if tx.execute("UPDATE users SET hash = ?2, feed = ?3 WHERE name = ?1", params![name, hash, feed_hash])? == 0 {
        return Ok(false);
    }
    tx.execute("DELETE FROM sessions WHERE user = ?1", [name])?;
    tx.commit()?;
    Ok(true)
}

/// The password hash of `name`, if it is a user.
pub fn password_hash(conn: Db<'_>, name: &str) -> Result<Option<String>> {
    let conn = conn.sql();
    Ok(conn.query_row("SELECT hash FROM users WHERE name = ?1", [name], |r| r.get(0)).optional()?)
}

/// The user whose feed key hashes to `feed_hash`.
pub fn feed_user(conn: Db<'_>, feed_hash: &str) -> Result<Option<String>> {
    let conn = conn.sql();
    Ok(conn.query_row("SELECT name FROM users WHERE feed = ?1", [feed_hash], |r| r.get(0)).optional()?)
}

/// A new feed key hash for `name`; false when there is no such user.
pub fn set_feed(conn: Db<'_>, name: &str, feed_hash: &str) -> Result<bool> {
    let conn = conn.sql();
    Ok(conn.execute("UPDATE users SET feed = ?2 WHERE name = ?1", params![name, feed_hash])? > 0)
}

/// A session's row: the hash of its cookie's token and what it allows.
pub struct SessionRow<'a> {
    pub token_hash: &'a [u8],
    pub user: &'a str,
    pub csrf: &'a str,
    pub expires: i64,
    pub network: Option<&'a str>,
}

/// Keeps a new session, forgetting those expired by `now`.
pub fn start_session(conn: Db<'_>, s: &SessionRow, now: i64) -> Result<()> {
    let conn = conn.sql();
    conn.execute("DELETE FROM sessions WHERE expires <= ?1", [now])?;
    conn.execute(
        "INSERT INTO sessions (token, user, csrf, expires, network) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![s.token_hash, s.user, s.csrf, s.expires, s.network],
    )?;
    Ok(())
}

/// The networks each user has a live session from: (user, network).
pub fn session_networks(conn: Db<'_>, now: i64) -> Result<Vec<(String, String)>> {
    let conn = conn.sql();
    if !has_table(conn, "sessions")?
        || !conn.query_row("SELECT count(*) > 0 FROM pragma_table_info('sessions') WHERE name = 'network'", [], |r| r.get::<_, bool>(0))?
    {
        return Ok(Vec::new());
    }
    let mut stmt = conn.prepare("SELECT DISTINCT user, network FROM sessions WHERE expires > ?1 AND network IS NOT NULL")?;
    let rows = stmt.query_map([now], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

/// The live session of a token's hash, of a user that still exists:
/// (user, CSRF token).
pub fn session(conn: Db<'_>, token_hash: &[u8], now: i64) -> Result<Option<(String, String)>> {
    let conn = conn.sql();
    Ok(conn
        .query_row(
            "SELECT s.user, s.csrf FROM sessions s JOIN users u ON u.name = s.user
             WHERE s.token = ?1 AND s.expires > ?2",
            params![token_hash, now],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?)
}

pub fn end_session(conn: Db<'_>, token_hash: &[u8]) -> Result<()> {
    let conn = conn.sql();
    conn.execute("DELETE FROM sessions WHERE token = ?1", [token_hash])?;
    Ok(())
}
