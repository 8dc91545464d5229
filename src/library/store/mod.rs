//! The SQLite database: the library's source of truth. Papers (current
//! fields plus every version seen), listings (which day a paper appeared, in
//! which category and section) and vectors keyed by (model, text hash).

pub mod accounts;
mod damage;
pub mod deliveries;
mod merge;
pub mod profiles;
mod read;
mod schema;
mod write;

pub use damage::{damage, explain, Damaged};
pub use profiles::ProfileKey;
pub use read::{blob_to_vec, DatedPaper, DayEntry, DerivedRow, Listing, StoredGist, StoredPaper, Totals, Version};
pub use write::{
    bump_generation, insert_vector, make_missing_gists, papers_with_text, record_failure, set_default_model, upsert_paper, vec_to_blob,
    Upsert,
};

use anyhow::{Context, Result};
use damage::{open_error, remember};
use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, Transaction};
use schema::{check_schema, profile_triggers, SCHEMA, SCHEMA_VERSION};
use std::path::{Path, PathBuf};
use std::time::Duration;

pub struct Store {
    conn: Connection,
    /// Libraries written before `embed_failures` existed lack it until
    /// their next write; a read-only open must not create it.
    has_failures: bool,
    /// Libraries written before affiliations were kept lack their column
    /// until their next write.
    has_affiliations: bool,
    /// A library written by a version that stores gists.
    has_gists: bool,
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

pub use crate::paper::text_hash;

/// Where a new library database is made before it is linked into place.
fn temp_of(path: &Path) -> PathBuf {
    let mut temp = path.as_os_str().to_owned();
    temp.push(".new");
    PathBuf::from(temp)
}

/// `base` and the files SQLite keeps beside it.
fn with_siblings(base: &Path) -> [PathBuf; 4] {
    ["", "-wal", "-shm", "-journal"].map(|s| {
        let mut p = base.as_os_str().to_owned();
        p.push(s);
        PathBuf::from(p)
    })
}

/// Makes a new library database whole beside `path` and links it into
/// place, so that a process killed while making it leaves no database or a
/// whole one: never tables without the schema's version, which no later run
/// could tell from a foreign file. A database already at `path` is kept.
fn create(path: &Path) -> Result<()> {
    let temp = temp_of(path);
    for f in with_siblings(&temp) {
        let _ = std::fs::remove_file(f);
    }
    let made = (|| {
        let conn = Connection::open(&temp)?;
        // See `Store::open`: only a new database takes a page size.
        conn.pragma_update(None, "page_size", PAGE_SIZE)?;
        // A rollback journal, not WAL, while it is made: closed, the file
        // is whole on its own, and the close says if it is not.
        initialise(&conn)?;
        conn.close().map_err(|(_, e)| e)
    })();
    made.map_err(|e| open_error(path, e))?;
    let linked = match std::fs::hard_link(&temp, path) {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        // Filesystems without hard links (FAT, some network and FUSE
        // mounts): a rename, which the library's lock keeps from racing.
        Err(_) => std::fs::rename(&temp, path).with_context(|| format!("cannot create {}", path.display())),
        Ok(()) => Ok(()),
    };
    for f in with_siblings(&temp) {
        let _ = std::fs::remove_file(f);
    }
    linked
}

/// The schema version a library database records (`None`: not a library).
fn schema_version(conn: &Connection) -> rusqlite::Result<Option<String>> {
    let has_meta: bool =
        conn.query_row("SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'meta'", [], |r| r.get(0))?;
    if !has_meta {
        return Ok(None);
    }
    conn.query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| r.get(0)).optional()
}

/// Whether a database without a schema version is a library whose
/// making was cut short by an older version: a `meta` table that holds
/// nothing but what the schema itself writes there.
fn half_made(conn: &Connection) -> rusqlite::Result<bool> {
    let has_meta: bool =
        conn.query_row("SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'meta'", [], |r| r.get(0))?;
    Ok(has_meta && conn.query_row("SELECT count(*) = 0 FROM meta WHERE key <> 'profiles'", [], |r| r.get(0))?)
}

/// Vectors are stored in a WITHOUT ROWID table, whose rows must fit a
/// quarter page or spill the rest onto an overflow page of their own: at 4
/// KB pages a 1.5 KB MiniLM vector took 4.5 KB on disk (13 GB at 3 M
/// papers). 16 KB pages hold vectors of up to ~1,000 dimensions inline.
/// Only a new database takes it; an existing one keeps its own.
const PAGE_SIZE: i64 = 16384;

/// The tables, triggers and schema version of a new library.
fn initialise(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(SCHEMA)?;
    conn.execute_batch(&profile_triggers())?;
    conn.execute("INSERT INTO meta (key, value) VALUES ('schema', ?1)", [SCHEMA_VERSION.to_string()])?;
    Ok(())
}

impl Store {
    /// Opens for writing, creating the tables when needed.
    /// Writers call it holding the library's lock.
    pub fn open(path: &Path) -> Result<Store> {
        remember(path);
        if path.exists() {
            // A creation killed after its link left a second name behind.
            for f in with_siblings(&temp_of(path)) {
                let _ = std::fs::remove_file(f);
            }
        } else {
            create(path)?;
        }
        let mut conn = Connection::open(path).map_err(|e| open_error(path, e))?;
        conn.busy_timeout(Duration::from_secs(30))?;
        // Read before anything is written, so that a foreign database is
        // refused as it was found.
        let tables: i64 = conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0)).map_err(|e| open_error(path, e))?;
        if tables == 0 {
            // An empty file: made a library in one transaction.
            conn.pragma_update(None, "page_size", PAGE_SIZE).map_err(|e| open_error(path, e))?;
            let tx = conn.transaction().map_err(|e| open_error(path, e))?;
            initialise(&tx).map_err(|e| open_error(path, e))?;
            tx.commit().map_err(|e| open_error(path, e))?;
        }
        match schema_version(&conn).map_err(|e| open_error(path, e))? {
            Some(v) => check_schema(path, &v)?,
            // Made by a version that created the tables one by one, and
            // killed before the last: its `meta` table is there and empty.
            None if half_made(&conn).map_err(|e| open_error(path, e))? => {
                conn.execute("INSERT INTO meta (key, value) VALUES ('schema', ?1)", [SCHEMA_VERSION.to_string()])
                    .map_err(|e| open_error(path, e))?;
            }
            None => anyhow::bail!("{} is not a paperscout library database", path.display()),
        }
        // WAL: readers never block the writer, and a killed writer loses only
        // its uncommitted transaction.
        conn.pragma_update(None, "journal_mode", "WAL").map_err(|e| open_error(path, e))?;
        conn.pragma_update(None, "synchronous", "NORMAL").map_err(|e| open_error(path, e))?;
        conn.execute_batch(SCHEMA).map_err(|e| open_error(path, e))?;
        conn.execute_batch(&profile_triggers()).map_err(|e| open_error(path, e))?;
        schema::add_columns(&conn).map_err(|e| open_error(path, e))?;
        schema::upgrade_rows(&conn).map_err(|e| open_error(path, e))?;
        Ok(Store { conn, has_failures: true, has_affiliations: true, has_gists: true })
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
        let version = schema_version(&conn)?;
        let has_failures: bool =
            conn.query_row("SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'embed_failures'", [], |r| r.get(0))?;
        let has_affiliations = schema::has_column(&conn, "papers", "affiliations")?;
        let has_gists: bool =
            conn.query_row("SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'gists'", [], |r| r.get(0))?;
        Ok((Store { conn, has_failures, has_affiliations, has_gists }, version))
    }

    /// The database, for the store's functions.
    pub fn db(&self) -> Db<'_> {
        Db(&self.conn)
    }

    /// A write transaction: what is done through its [`Tx::db`] lands
    /// together at [`Tx::commit`], or not at all.
    pub fn transaction(&mut self) -> Result<Tx<'_>> {
        Ok(Tx(self.conn.transaction()?))
    }

    /// A read snapshot: every read through the store until it is dropped
    /// sees the database as it was when it was taken.
    pub fn snapshot(&self) -> Result<Snapshot<'_>> {
        Ok(Snapshot { _read: self.conn.unchecked_transaction()? })
    }
}

/// The library's database as the store's functions take it. Outside the
/// store it is a handle to pass along: only the store runs SQL through it.
#[derive(Clone, Copy)]
pub struct Db<'a>(&'a Connection);

impl<'a> Db<'a> {
    fn sql(self) -> &'a Connection {
        self.0
    }
}

/// A write transaction ([`Store::transaction`]); dropped without
/// [`Tx::commit`], nothing it did remains.
pub struct Tx<'a>(Transaction<'a>);

impl Tx<'_> {
    pub fn db(&self) -> Db<'_> {
        Db(&self.0)
    }

    pub fn commit(self) -> Result<()> {
        Ok(self.0.commit()?)
    }
}

/// A read snapshot ([`Store::snapshot`]), released when dropped.
pub struct Snapshot<'a> {
    _read: Transaction<'a>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_library_is_made_whole_and_leaves_nothing_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("library.sqlite");
        // What a creation killed before its link left.
        std::fs::write(dir.path().join("library.sqlite.new"), b"half").unwrap();
        let store = Store::open(&path).unwrap();
        assert_eq!(schema_version(&store.conn).unwrap(), Some(SCHEMA_VERSION.to_string()));
        drop(store);
        let mut names: Vec<String> =
            std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        assert_eq!(names, ["library.sqlite"]);
        // Opened again, it is the same library.
        Store::open(&path).unwrap();
    }

    #[test]
    fn an_empty_file_becomes_a_library_and_a_foreign_database_is_refused_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("empty.sqlite");
        std::fs::write(&empty, b"").unwrap();
        let store = Store::open(&empty).unwrap();
        assert!(schema_version(&store.conn).unwrap().is_some());

        let foreign = dir.path().join("foreign.sqlite");
        Connection::open(&foreign).unwrap().execute_batch("CREATE TABLE notes (body TEXT)").unwrap();
        let before = std::fs::read(&foreign).unwrap();
        let err = Store::open(&foreign).err().expect("a foreign database is refused");
        assert!(err.to_string().contains("is not a paperscout library database"), "{err}");
        assert_eq!(std::fs::read(&foreign).unwrap(), before, "not a byte of it changed");
        assert!(!dir.path().join("foreign.sqlite-wal").exists());
    }

    #[test]
    fn a_library_an_older_version_was_killed_making_is_finished() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("library.sqlite");
        // Its tables, made one by one, and no schema version yet.
        Connection::open(&path).unwrap().execute_batch(SCHEMA).unwrap();
        let store = Store::open(&path).unwrap();
        assert_eq!(schema_version(&store.conn).unwrap(), Some(SCHEMA_VERSION.to_string()));
    }
}
