//! The database's tables, and the schema version a library must have.

use anyhow::Result;
use std::path::Path;

pub(super) const SCHEMA_VERSION: i64 = 1;

pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS papers (
    id          TEXT PRIMARY KEY,
    version     INTEGER,
    title       TEXT NOT NULL,
    authors     TEXT NOT NULL,      -- JSON list
    abstract    TEXT NOT NULL,
    subjects    TEXT NOT NULL,      -- JSON list, primary first
    primary_cat TEXT,
    comments    TEXT,
    journal_ref TEXT,
    first_date  TEXT,               -- earliest listing date seen
    text_hash   BLOB NOT NULL,      -- hash of the text the embedder sees
    affiliations TEXT               -- JSON list beside authors; NULL where no source named one
);
CREATE TABLE IF NOT EXISTS versions (
    id        TEXT NOT NULL,
    version   INTEGER NOT NULL,     -- 0 when the source gave none
    title     TEXT NOT NULL,
    abstract  TEXT NOT NULL,
    text_hash BLOB NOT NULL,
    PRIMARY KEY (id, version)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS listings (
    id       TEXT NOT NULL,
    date     TEXT NOT NULL,
    category TEXT NOT NULL,
    kind     TEXT NOT NULL,
    source   TEXT NOT NULL,
    PRIMARY KEY (id, date, category)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS listings_by_date ON listings (date);
CREATE TABLE IF NOT EXISTS seeds (
    profile   TEXT NOT NULL,
    key       TEXT NOT NULL,        -- arXiv id, or 'text:' + hash for free text
    title     TEXT NOT NULL,
    abstract  TEXT NOT NULL,
    text_hash BLOB NOT NULL,
    weight    REAL NOT NULL DEFAULT 1,
    negative  INTEGER NOT NULL DEFAULT 0,
    added     TEXT NOT NULL,        -- RFC 3339 time the seed was added
    origin    TEXT NOT NULL,        -- where it came from (file, id, --text)
    PRIMARY KEY (profile, key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS seed_sources (
    profile TEXT NOT NULL,
    key     TEXT NOT NULL,          -- a seed that a sync added, and only such
    source  TEXT NOT NULL,          -- 'zotero'
    item    TEXT NOT NULL,          -- the item's key there
    PRIMARY KEY (profile, key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS ratings (
    profile TEXT NOT NULL,
    id      TEXT NOT NULL,
    version INTEGER,                -- the version the user rated
    rating  INTEGER NOT NULL,       -- +1 liked, -1 not interested
    time    TEXT NOT NULL,          -- RFC 3339
    PRIMARY KEY (profile, id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS seen (
    profile TEXT NOT NULL,
    id      TEXT NOT NULL,
    time    TEXT NOT NULL,          -- when the user first rated or opened it
    PRIMARY KEY (profile, id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS filters (
    profile TEXT NOT NULL,
    rule    TEXT NOT NULL,          -- include, exclude, author, allow, deny
    value   TEXT NOT NULL,
    PRIMARY KEY (profile, rule, value)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS profile_settings (
    profile TEXT NOT NULL,
    key     TEXT NOT NULL,          -- bar
    value   TEXT NOT NULL,
    PRIMARY KEY (profile, key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS vectors (
    model     TEXT NOT NULL,
    text_hash BLOB NOT NULL,
    vec       BLOB NOT NULL,        -- little-endian f32
    PRIMARY KEY (model, text_hash)
) WITHOUT ROWID;
-- Counting vectors per model (stats, doctor) reads this, 50 bytes a row,
-- instead of the table's 1.5 KB rows: 0.2 s instead of 8 s at 1 M.
CREATE INDEX IF NOT EXISTS vectors_by_model ON vectors (model);
-- Rowids papers left when their text, subjects or first date changed (they
-- move to a new rowid so that derived vector files only ever grow at the end).
CREATE TABLE IF NOT EXISTS retired (
    seq   INTEGER PRIMARY KEY AUTOINCREMENT,
    paper INTEGER NOT NULL          -- the rowid the paper left
);
-- Accounts of a shared library (`paperscout user`); their profiles are
-- stored as 'USER/NAME' in the tables above.
CREATE TABLE IF NOT EXISTS users (
    name    TEXT PRIMARY KEY,
    hash    TEXT NOT NULL,          -- argon2id, PHC string format
    feed    TEXT NOT NULL,          -- SHA-256 (hex) of the key of the user's Atom feed URL
    created TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sessions (
    token   BLOB PRIMARY KEY,       -- SHA-256 of the cookie's value
    user    TEXT NOT NULL,
    csrf    TEXT NOT NULL,
    expires INTEGER NOT NULL,       -- Unix seconds
    network TEXT                    -- where it signed in from (an IPv4 /24, an IPv6 /48), for the sign-in throttle
) WITHOUT ROWID;
-- Where each reader's morning digest goes ('' is the owner of a library
-- without accounts), and what was delivered: a day once per channel.
CREATE TABLE IF NOT EXISTS channels (
    user        TEXT PRIMARY KEY,
    email       TEXT,
    chat_url    TEXT,               -- a secret: a webhook's address is its password
    chat_format TEXT,
    chat_token  TEXT,               -- the reader's own bearer token for chat_url's host; a secret
    email_confirmed INTEGER NOT NULL DEFAULT 0, -- the reader followed the code sent to email
    email_code  TEXT,               -- SHA-256 (hex) of the code sent to email, until confirmed
    email_code_expires INTEGER,     -- Unix seconds
    email_code_tries INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS deliveries (
    user    TEXT NOT NULL,
    day     TEXT NOT NULL,
    channel TEXT NOT NULL,          -- 'email' or the chat format
    at      TEXT NOT NULL,
    PRIMARY KEY (user, day, channel)
) WITHOUT ROWID;
-- A day's digest for one reader's channel, as the messages it is sent in,
-- kept from the first try: a retry or a restart sends the same messages,
-- and only those no 2xx has accepted yet.
CREATE TABLE IF NOT EXISTS outbox (
    user     TEXT NOT NULL,
    day      TEXT NOT NULL,
    channel  TEXT NOT NULL,
    part     INTEGER NOT NULL,      -- 0-based, of parts
    parts    INTEGER NOT NULL,
    body     TEXT NOT NULL,         -- JSON: the chat message, or the letter
    accepted TEXT,                  -- when a 2xx took it; NULL until then
    PRIMARY KEY (user, day, channel, part)
) WITHOUT ROWID;
-- The last failed try of a day's channel, for Settings to show.
CREATE TABLE IF NOT EXISTS delivery_failures (
    user    TEXT NOT NULL,
    day     TEXT NOT NULL,
    channel TEXT NOT NULL,
    at      TEXT NOT NULL,
    detail  TEXT NOT NULL,          -- why, without the address's secret path
    PRIMARY KEY (user, day, channel)
) WITHOUT ROWID;
-- Each paper's gist (crate::gist), made at ingest from the text whose
-- hash it keeps, by the method whose number it keeps: a gist of other
-- text or of another method is made again. NULL: the abstract has none.
CREATE TABLE IF NOT EXISTS gists (
    id        TEXT PRIMARY KEY,
    text_hash BLOB NOT NULL,
    method    INTEGER NOT NULL,
    gist      TEXT
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS embed_failures (
    model     TEXT NOT NULL,
    text_hash BLOB NOT NULL,        -- a text this model could not embed: not tried again
    error     TEXT NOT NULL,
    PRIMARY KEY (model, text_hash)
) WITHOUT ROWID;
-- Every change to what a profile ranks by moves that profile's number in
-- meta ('profile:KEY') on, so that a server can keep a day's ranking until
-- then, whoever wrote (the page, the command line, an older paperscout).
-- 'profiles' marks a library that has the triggers.
INSERT OR IGNORE INTO meta (key, value) VALUES ('profiles', '1');
";

/// A table that holds a profile's own rows (a `profile` column).
pub(super) struct ProfileTable {
    pub name: &'static str,
    /// The profile ranks by it: a change moves the profile's number.
    pub ranks_by: bool,
}

/// Every table that holds a profile's own rows: what an account takes
/// over, and what goes with it.
pub(super) const PROFILE_TABLES: [ProfileTable; 6] = [
    ProfileTable { name: "seeds", ranks_by: true },
    // Where a synced seed came from (a Zotero item): not ranked by.
    ProfileTable { name: "seed_sources", ranks_by: false },
    ProfileTable { name: "ratings", ranks_by: true },
    ProfileTable { name: "seen", ranks_by: true },
    ProfileTable { name: "filters", ranks_by: true },
    ProfileTable { name: "profile_settings", ranks_by: true },
];

/// The triggers that move a profile's number in meta on every insert,
/// delete and update of the [`PROFILE_TABLES`] it ranks by (an update moves both the old
/// row's profile and the new one's).
pub fn profile_triggers() -> String {
    let bump = |row: &str| {
        format!(
            "INSERT INTO meta (key, value) VALUES ('profile:' || {row}.profile, '1') \
             ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1;"
        )
    };
    let mut sql = String::new();
    for table in PROFILE_TABLES.iter().filter(|t| t.ranks_by).map(|t| t.name) {
        for (event, body) in [("INSERT", bump("NEW")), ("DELETE", bump("OLD")), ("UPDATE", format!("{} {}", bump("OLD"), bump("NEW")))] {
            let name = format!("{table}_{}_moves_profile", event.to_lowercase());
            sql.push_str(&format!("CREATE TRIGGER IF NOT EXISTS {name} AFTER {event} ON {table} BEGIN {body} END;\n"));
        }
    }
    sql
}

/// Columns added since a library's tables were made: added to an older
/// library when it is first opened for writing. A reader of a library not
/// yet written by this version reads them as absent ([`has_column`]).
pub(super) fn add_columns(conn: &rusqlite::Connection) -> rusqlite::Result<()> {
    if !has_column(conn, "papers", "affiliations")? {
        conn.execute_batch("ALTER TABLE papers ADD COLUMN affiliations TEXT")?;
    }
    if !has_column(conn, "sessions", "network")? {
        conn.execute_batch("ALTER TABLE sessions ADD COLUMN network TEXT")?;
    }
    // An address saved before confirmation existed was never confirmed.
    if !has_column(conn, "channels", "chat_token")? {
        conn.execute_batch(
            "ALTER TABLE channels ADD COLUMN chat_token TEXT;
             ALTER TABLE channels ADD COLUMN email_confirmed INTEGER NOT NULL DEFAULT 0;
             ALTER TABLE channels ADD COLUMN email_code TEXT;
             ALTER TABLE channels ADD COLUMN email_code_expires INTEGER;
             ALTER TABLE channels ADD COLUMN email_code_tries INTEGER NOT NULL DEFAULT 0;",
        )?;
    }
    Ok(())
}

pub(super) fn has_column(conn: &rusqlite::Connection, table: &str, column: &str) -> rusqlite::Result<bool> {
    conn.query_row("SELECT count(*) > 0 FROM pragma_table_info(?1) WHERE name = ?2", [table, column], |r| r.get(0))
}

pub(super) fn check_schema(path: &Path, version: &str) -> Result<()> {
    if version != SCHEMA_VERSION.to_string() {
        anyhow::bail!("{}: library schema {version} is not the one this paperscout knows ({SCHEMA_VERSION})", path.display());
    }
    Ok(())
}

/// Rows written by older versions, brought up to date once per library
/// (a marker in `meta` says it was done; the server opens a writer per
/// write, which should not rescan tables each time):
/// - feed keys were kept in clear (32 hex digits): each becomes its
///   SHA-256, so the URLs given out keep working and the file no longer
///   opens anyone's feed;
/// - sentence seeds were labelled with the flag that made them (`--text`).
pub(super) fn upgrade_rows(conn: &rusqlite::Connection) -> rusqlite::Result<()> {
    use rusqlite::OptionalExtension;
    use sha2::{Digest, Sha256};
    const DONE: &str = "1";
    let done: Option<String> = conn.query_row("SELECT value FROM meta WHERE key = 'rows_upgraded'", [], |r| r.get(0)).optional()?;
    if done.as_deref() == Some(DONE) {
        return Ok(());
    }
    let clear: Vec<(String, String)> = {
        let mut stmt = conn.prepare("SELECT name, feed FROM users WHERE length(feed) = 32")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    for (name, key) in clear {
        let hash: String = Sha256::digest(key.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
        conn.execute("UPDATE users SET feed = ?2 WHERE name = ?1", [&name, &hash])?;
    }
    conn.execute("UPDATE seeds SET origin = 'sentence' WHERE origin = '--text'", [])?;
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('rows_upgraded', ?1)", [DONE])?;
    Ok(())
}
