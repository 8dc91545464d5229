//! The SQLite database: the library's source of truth. Papers (current
//! fields plus every version seen), listings (which day a paper appeared, in
//! which category and section) and vectors keyed by (model, text hash).

mod damage;
pub mod deliveries;
pub mod profiles;
mod read;
mod schema;
mod write;

pub use damage::{damage, explain, Damaged};
pub use profiles::ProfileKey;
pub use read::{blob_to_vec, DatedPaper, DayEntry, DerivedRow, Listing, StoredPaper, Version};
pub use write::{bump_generation, insert_vector, papers_with_text, record_failure, set_default_model, upsert_paper, vec_to_blob, Upsert};

use anyhow::Result;
use damage::{open_error, remember};
use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, Transaction};
use schema::{check_schema, profile_triggers, SCHEMA, SCHEMA_VERSION};
use std::path::Path;
use std::time::Duration;

pub struct Store {
    conn: Connection,
    /// Libraries written before `embed_failures` existed lack it until
    /// their next write; a read-only open must not create it.
    has_failures: bool,
    /// Libraries written before affiliations were kept lack their column
    /// until their next write.
    has_affiliations: bool,
}

/// `file:` URI of `path` for SQLite, with the characters URIs reserve escaped.
pub(crate) fn uri(path: &Path, query: &str) -> String {
    let mut out = String::from("file:");
    for b in path.to_string_lossy().bytes() {
        match b {
            b'%' | b'?' | b'#' => out.push_str(&format!("%{b:02X}")),
            _ => out.push(b as char),
        }
    }
    out.push('?');
    out.push_str(query);
    out
}

/// Now, as every time the library stores is written: RFC 3339 in UTC, to
/// the second (`2026-11-26T12:00:00Z`).
pub fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// Hash of the text the embedder sees; vectors are keyed by it so that a
/// replaced entry with an unchanged abstract is not embedded again.
pub fn text_hash(text: &str) -> Vec<u8> {
    use sha2::{Digest, Sha256};
    Sha256::digest(text.as_bytes())[..16].to_vec()
}

impl Store {
    /// Opens for writing, creating the tables when needed.
    pub fn open(path: &Path) -> Result<Store> {
        remember(path);
        let conn = Connection::open(path).map_err(|e| open_error(path, e))?;
        // Vectors are stored in a WITHOUT ROWID table, whose rows must fit a
        // quarter page or spill the rest onto an overflow page of its own: at
        // 4 KB pages a 1.5 KB MiniLM vector took 4.5 KB on disk (13 GB at 3 M
        // papers). 16 KB pages hold vectors of up to ~1,000 dimensions
        // inline. Only a new database takes it; an existing one keeps its own.
        conn.pragma_update(None, "page_size", 16384).map_err(|e| open_error(path, e))?;
        // WAL: readers never block the writer, and a killed writer loses only
        // its uncommitted transaction.
        conn.pragma_update(None, "journal_mode", "WAL").map_err(|e| open_error(path, e))?;
        conn.pragma_update(None, "synchronous", "NORMAL").map_err(|e| open_error(path, e))?;
        conn.busy_timeout(Duration::from_secs(30))?;
        conn.execute_batch(SCHEMA).map_err(|e| open_error(path, e))?;
        conn.execute_batch(&profile_triggers()).map_err(|e| open_error(path, e))?;
        let version: Option<String> =
            conn.query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| r.get(0)).optional().map_err(|e| open_error(path, e))?;
        match version {
            None => {
                conn.execute("INSERT INTO meta (key, value) VALUES ('schema', ?1)", [SCHEMA_VERSION.to_string()])
                    .map_err(|e| open_error(path, e))?;
            }
            Some(v) => check_schema(path, &v)?,
        }
        schema::add_columns(&conn).map_err(|e| open_error(path, e))?;
        schema::upgrade_rows(&conn).map_err(|e| open_error(path, e))?;
        Ok(Store { conn, has_failures: true, has_affiliations: true })
    }

    /// Opens for reading only: a reader needs no write access to the
    /// library, and creates nothing in it.
    pub fn open_read(path: &Path) -> Result<Store> {
        remember(path);
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let first = Self::try_open_read(&uri(path, "mode=ro"), flags);
        match first {
            Ok(store) => Ok(store),
            // WAL needs its shared-memory file; in a directory we cannot write
            // it cannot be created, but then nobody writes the database
            // either, and it can be read as immutable.
            Err(e) if matches!(e.sqlite_error_code(), Some(ErrorCode::CannotOpen | ErrorCode::ReadOnly)) => {
                Self::try_open_read(&uri(path, "immutable=1"), flags).map_err(|_| open_error(path, e))
            }
            Err(e) => Err(open_error(path, e)),
        }
        .and_then(|(store, version)| {
            match version {
                Some(v) => check_schema(path, &v)?,
                None => anyhow::bail!("{} is not a paperscout library database", path.display()),
            }
            Ok(store)
        })
    }

    fn try_open_read(uri: &str, flags: OpenFlags) -> rusqlite::Result<(Store, Option<String>)> {
        let conn = Connection::open_with_flags(uri, flags)?;
        conn.busy_timeout(Duration::from_secs(30))?;
        let has_meta: bool =
            conn.query_row("SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'meta'", [], |r| r.get(0))?;
        let version: Option<String> =
            if has_meta { conn.query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| r.get(0)).optional()? } else { None };
        let has_failures: bool =
            conn.query_row("SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'embed_failures'", [], |r| r.get(0))?;
        let has_affiliations = schema::has_column(&conn, "papers", "affiliations")?;
        Ok((Store { conn, has_failures, has_affiliations }, version))
    }

    pub fn conn(&self) -> &Connection {
        &self.conn
    }

    pub fn conn_mut(&mut self) -> &mut Connection {
        &mut self.conn
    }

    pub fn transaction(&mut self) -> Result<Transaction<'_>> {
        Ok(self.conn.transaction()?)
    }
}
