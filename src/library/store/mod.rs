//! The SQLite database: the library's source of truth. Papers (current
//! fields plus every version seen), listings (which day a paper appeared, in
//! which category and section) and vectors keyed by (model, text hash).

use super::vectors::RowMeta;
use crate::paper::{embedding_text, Kind, Paper};
use anyhow::Result;
use rusqlite::{params, Connection, ErrorCode, OpenFlags, OptionalExtension, Transaction};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

const SCHEMA_VERSION: i64 = 1;

const SCHEMA: &str = "
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
    text_hash   BLOB NOT NULL       -- hash of the text the embedder sees
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
    feed    TEXT NOT NULL,          -- the key of the user's Atom feed URL
    created TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sessions (
    token   BLOB PRIMARY KEY,       -- SHA-256 of the cookie's value
    user    TEXT NOT NULL,
    csrf    TEXT NOT NULL,
    expires INTEGER NOT NULL        -- Unix seconds
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS embed_failures (
    model     TEXT NOT NULL,
    text_hash BLOB NOT NULL,        -- a text this model could not embed: not tried again
    error     TEXT NOT NULL,
    PRIMARY KEY (model, text_hash)
) WITHOUT ROWID;
";

/// One paper as a derived vector file records it.
pub struct DerivedRow<'a> {
    pub meta: RowMeta,
    pub vector: Option<&'a [f32]>,
    pub failed: bool,
}

/// What an upsert did to one paper.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Upsert {
    New,
    Updated,
    Unchanged,
}

/// A paper as stored, with what the commands that query the library show.
#[derive(Debug, Clone)]
pub struct StoredPaper {
    pub rowid: i64,
    pub paper: Paper,
    pub first_date: Option<String>,
    pub text_hash: Vec<u8>,
}

/// One paper as listed on a given day.
#[derive(Debug, Clone)]
pub struct DayEntry {
    pub kind: Kind,
    pub paper: StoredPaper,
    /// For a replaced entry: the day the user first saw it listed.
    pub seen_before: Option<String>,
}

pub struct Store {
    conn: Connection,
    /// Libraries written before `embed_failures` existed lack it until
    /// their next write; a read-only open must not create it.
    has_failures: bool,
}

/// The database last opened, for naming it in errors that surface later.
static OPENED: Mutex<Option<PathBuf>> = Mutex::new(None);

fn is_damage(e: &rusqlite::Error) -> bool {
    matches!(e.sqlite_error_code(), Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase))
}

/// A database file SQLite finds damaged, named.
#[derive(Debug, thiserror::Error)]
#[error("the library database {} is damaged ({reason})", path.display())]
pub struct Damaged {
    pub path: PathBuf,
    pub reason: String,
}

impl Damaged {
    /// The library directory, for the command that checks it.
    pub fn dir(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new("."))
    }
}

fn damaged(path: &Path, e: &rusqlite::Error) -> anyhow::Error {
    anyhow::Error::new(Damaged { path: path.to_path_buf(), reason: e.to_string() })
}

/// The damaged database behind `e`, if that is what `e` comes from: found
/// when it was opened, or by a later query.
pub fn damage(e: &anyhow::Error) -> Option<Damaged> {
    if let Some(d) = e.chain().find_map(|c| c.downcast_ref::<Damaged>()) {
        return Some(Damaged { path: d.path.clone(), reason: d.reason.clone() });
    }
    let sql = e.chain().find_map(|c| c.downcast_ref::<rusqlite::Error>()).filter(|s| is_damage(s))?;
    let path = OPENED.lock().ok().and_then(|p| p.clone())?;
    Some(Damaged { path, reason: sql.to_string() })
}

/// Names the database and suggests `doctor` when `e` comes from a damaged
/// database file.
pub fn explain(e: anyhow::Error) -> anyhow::Error {
    match damage(&e) {
        Some(d) => anyhow::anyhow!("{d}; `paperscout doctor --library {}` checks it", d.dir().display()),
        None => e,
    }
}

fn remember(path: &Path) {
    if let Ok(mut p) = OPENED.lock() {
        *p = Some(path.to_path_buf());
    }
}

/// `Err` of a first statement, as one line naming the file.
fn open_error(path: &Path, e: rusqlite::Error) -> anyhow::Error {
    if is_damage(&e) {
        damaged(path, &e)
    } else {
        anyhow::Error::new(e).context(format!("cannot open library database {}", path.display()))
    }
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

fn check_schema(path: &Path, version: &str) -> Result<()> {
    if version != SCHEMA_VERSION.to_string() {
        anyhow::bail!(
            "{}: library schema {version} is not the one this paperscout knows ({SCHEMA_VERSION})",
            path.display()
        );
    }
    Ok(())
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
        conn.pragma_update(None, "page_size", 16384)
            .map_err(|e| open_error(path, e))?;
        // WAL: readers never block the writer, and a killed writer loses only
        // its uncommitted transaction.
        conn.pragma_update(None, "journal_mode", "WAL").map_err(|e| open_error(path, e))?;
        conn.pragma_update(None, "synchronous", "NORMAL").map_err(|e| open_error(path, e))?;
        conn.busy_timeout(Duration::from_secs(30))?;
        conn.execute_batch(SCHEMA).map_err(|e| open_error(path, e))?;
        let version: Option<String> = conn
            .query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| r.get(0))
            .optional()
            .map_err(|e| open_error(path, e))?;
        match version {
            None => {
                conn.execute(
                    "INSERT INTO meta (key, value) VALUES ('schema', ?1)",
                    [SCHEMA_VERSION.to_string()],
                )
                .map_err(|e| open_error(path, e))?;
            }
            Some(v) => check_schema(path, &v)?,
        }
        Ok(Store { conn, has_failures: true })
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
        let has_meta: bool = conn.query_row(
            "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'meta'",
            [],
            |r| r.get(0),
        )?;
        let version: Option<String> = if has_meta {
            conn.query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| r.get(0)).optional()?
        } else {
            None
        };
        let has_failures: bool = conn.query_row(
            "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'embed_failures'",
            [],
            |r| r.get(0),
        )?;
        Ok((Store { conn, has_failures }, version))
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

    /// A counter bumped by every write that changes which vectors belong to
    /// which papers; derived files record the value they were built from.
    pub fn generation(&self) -> Result<i64> {
        let g: Option<String> = self
            .conn
            .query_row("SELECT value FROM meta WHERE key = 'generation'", [], |r| r.get(0))
            .optional()?;
        Ok(g.and_then(|g| g.parse().ok()).unwrap_or(0))
    }

    /// The model the last ingest embedded with: id queries use its vectors.
    pub fn default_model(&self) -> Result<Option<String>> {
        Ok(self
            .conn
            .query_row("SELECT value FROM meta WHERE key = 'model'", [], |r| r.get(0))
            .optional()?)
    }

    pub fn set_default_model(&self, model: &str) -> Result<()> {
        set_default_model(&self.conn, model)
    }

    pub fn vector_counts(&self) -> Result<Vec<(String, i64)>> {
        let mut stmt = self.conn.prepare("SELECT model, count(*) FROM vectors GROUP BY model ORDER BY model")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    }

    /// Texts `model` could not embed, with the error (for `doctor`).
    pub fn failures(&self, model: &str) -> Result<Vec<String>> {
        if !self.has_failures {
            return Ok(Vec::new());
        }
        let mut stmt = self.conn.prepare("SELECT error FROM embed_failures WHERE model = ?1")?;
        let rows = stmt.query_map([model], |r| r.get::<_, String>(0))?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    }

    /// How many stored vectors of `model` hold NaN or infinity (a damaged
    /// model's work from before such vectors were refused).
    pub fn non_finite_vectors(&self, model: &str) -> Result<usize> {
        let mut stmt = self.conn.prepare("SELECT vec FROM vectors WHERE model = ?1")?;
        let mut rows = stmt.query([model])?;
        let mut n = 0;
        while let Some(row) = rows.next()? {
            let blob = row.get_ref(0)?.as_blob()?;
            if blob.chunks_exact(4).any(|c| !f32::from_le_bytes([c[0], c[1], c[2], c[3]]).is_finite()) {
                n += 1;
            }
        }
        Ok(n)
    }

    pub fn integrity_check(&self) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare("PRAGMA integrity_check")?;
        let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
        let msgs: Vec<String> = rows.collect::<std::result::Result<_, _>>()?;
        Ok(msgs.into_iter().filter(|m| m != "ok").collect())
    }

    pub fn count(&self, sql: &str) -> Result<i64> {
        Ok(self.conn.query_row(sql, [], |r| r.get(0))?)
    }

    pub fn get_paper(&self, id: &str) -> Result<Option<StoredPaper>> {
        let mut stmt = self.conn.prepare_cached(&format!("{SELECT_PAPER} WHERE p.id = ?1"))?;
        Ok(stmt.query_row([id], row_to_paper).optional()?)
    }

    pub fn get_paper_by_rowid(&self, rowid: i64) -> Result<Option<StoredPaper>> {
        let mut stmt = self.conn.prepare_cached(&format!("{SELECT_PAPER} WHERE p.rowid = ?1"))?;
        Ok(stmt.query_row([rowid], row_to_paper).optional()?)
    }

    /// The entries listed on `day`, one per paper (a paper listed in
    /// several categories that day counts once, by its most novel kind).
    pub fn listing_day(&self, day: &str) -> Result<Vec<DayEntry>> {
        let select = SELECT_PAPER.replace(" FROM papers p", ", l.k FROM papers p");
        let mut stmt = self.conn.prepare(&format!(
            "{select} JOIN (SELECT id, min(CASE kind WHEN 'new' THEN 0 WHEN 'cross' THEN 1 ELSE 2 END) AS k
             FROM listings WHERE date = ?1 GROUP BY id) l ON l.id = p.id ORDER BY p.rowid"
        ))?;
        let mut seen = self
            .conn
            .prepare_cached("SELECT min(date) FROM listings WHERE id = ?1 AND date < ?2")?;
        let rows = stmt.query_map([day], |r| Ok((row_to_paper(r)?, r.get::<_, i64>(12)?)))?;
        let mut out = Vec::new();
        for row in rows {
            let (paper, k) = row?;
            let kind = match k {
                0 => Kind::New,
                1 => Kind::Cross,
                _ => Kind::Replaced,
            };
            let seen_before = if kind == Kind::Replaced {
                seen.query_row(params![paper.paper.id, day], |r| r.get::<_, Option<String>>(0))?
            } else {
                None
            };
            out.push(DayEntry { kind, paper, seen_before });
        }
        Ok(out)
    }

    /// The newest day any listing was read for.
    pub fn newest_day(&self) -> Result<Option<String>> {
        Ok(self.conn.query_row("SELECT max(date) FROM listings", [], |r| r.get(0))?)
    }

    /// Listing days from `since` on, oldest first.
    pub fn days_from(&self, since: &str) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare_cached("SELECT DISTINCT date FROM listings WHERE date >= ?1 ORDER BY date")?;
        let rows = stmt.query_map([since], |r| r.get(0))?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    }

    /// Listing days, newest first, with how many papers each listed.
    pub fn days(&self, limit: usize) -> Result<Vec<(String, i64)>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT date, count(DISTINCT id) FROM listings
             WHERE date IN (SELECT DISTINCT date FROM listings ORDER BY date DESC LIMIT ?1)
             GROUP BY date ORDER BY date DESC",
        )?;
        let rows = stmt.query_map([limit as i64], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    }

    /// Every version seen of a paper: (version, title), oldest first.
    pub fn versions(&self, id: &str) -> Result<Vec<(i64, String)>> {
        let mut stmt = self.conn.prepare_cached("SELECT version, title FROM versions WHERE id = ?1 ORDER BY version")?;
        let rows = stmt.query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    }

    /// Every listing of a paper: (date, category, kind), oldest first.
    pub fn listings_of(&self, id: &str) -> Result<Vec<(String, String, String)>> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT date, category, kind FROM listings WHERE id = ?1 ORDER BY date, category")?;
        let rows = stmt.query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    }

    pub fn vector(&self, model: &str, hash: &[u8]) -> Result<Option<Vec<f32>>> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT vec FROM vectors WHERE model = ?1 AND text_hash = ?2")?;
        let blob: Option<Vec<u8>> = stmt.query_row(params![model, hash], |r| r.get(0)).optional()?;
        Ok(blob.map(|b| blob_to_vec(&b)))
    }

    /// Papers past rowid `after`, in rowid order, as derived vector files
    /// record them: `f` gets each paper's row and its vector for `model`
    /// (none when it has none), and whether its text failed to embed; it
    /// returns false to stop.
    pub fn rows_after(
        &self,
        model: &str,
        after: i64,
        mut f: impl FnMut(DerivedRow<'_>) -> Result<bool>,
    ) -> Result<()> {
        let failed = if self.has_failures {
            "EXISTS (SELECT 1 FROM embed_failures e WHERE e.model = ?1 AND e.text_hash = p.text_hash)"
        } else {
            "0"
        };
        let mut stmt = self.conn.prepare(&format!(
            "SELECT p.rowid, p.first_date, p.subjects, v.vec, {failed} FROM papers p
             LEFT JOIN vectors v ON v.model = ?1 AND v.text_hash = p.text_hash
             WHERE p.rowid > ?2 ORDER BY p.rowid"
        ))?;
        let mut rows = stmt.query(params![model, after])?;
        let mut buf = Vec::new();
        while let Some(row) = rows.next()? {
            let subjects: String = row.get(2)?;
            let subjects: Vec<String> = serde_json::from_str(&subjects).unwrap_or_default();
            let first_date: Option<String> = row.get(1)?;
            let vector = match row.get_ref(3)?.as_blob_or_null()? {
                Some(blob) => {
                    buf.clear();
                    buf.extend(blob.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])));
                    Some(buf.as_slice())
                }
                None => None,
            };
            let meta = RowMeta::new(row.get(0)?, first_date.as_deref(), &subjects);
            if !f(DerivedRow { meta, vector, failed: row.get(4)? })? {
                break;
            }
        }
        Ok(())
    }

    /// Rowids retired after log position `after`: (position, rowid).
    pub fn retired_after(&self, after: i64) -> Result<Vec<(i64, i64)>> {
        if !self.has_table("retired")? {
            return Ok(Vec::new());
        }
        let mut stmt = self.conn.prepare_cached("SELECT seq, paper FROM retired WHERE seq > ?1 ORDER BY seq")?;
        let rows = stmt.query_map([after], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    }

    /// The newest position of the retired log (0 when empty).
    pub fn retired_mark(&self) -> Result<i64> {
        if !self.has_table("retired")? {
            return Ok(0);
        }
        Ok(self.conn.query_row("SELECT coalesce(max(seq), 0) FROM retired", [], |r| r.get(0))?)
    }

    /// Whether the first paper past rowid `after` is settled (has a vector
    /// for `model` or failed to embed): then a derived file that stops at
    /// `after` has rows to append.
    pub fn settled_after(&self, model: &str, after: i64) -> Result<bool> {
        let mut next = false;
        self.rows_after(model, after, |row| {
            next = row.vector.is_some() || row.failed;
            Ok(false)
        })?;
        Ok(next)
    }

    /// The length of `model`'s vectors, if it has any.
    pub fn vector_dim(&self, model: &str) -> Result<Option<usize>> {
        Ok(self
            .conn
            .query_row("SELECT length(vec) / 4 FROM vectors WHERE model = ?1 LIMIT 1", [model], |r| r.get(0))
            .optional()?)
    }

    fn has_table(&self, name: &str) -> Result<bool> {
        Ok(self.conn.query_row(
            "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = ?1",
            [name],
            |r| r.get(0),
        )?)
    }

    /// Every paper that has a vector for `model`, with it, in rowid order
    /// (read a row at a time: `export` of millions).
    pub fn for_each_paper_with_vector(&self, model: &str, mut f: impl FnMut(&StoredPaper, &[f32]) -> Result<()>) -> Result<()> {
        let select = SELECT_PAPER.replace(" FROM papers p", ", v.vec FROM papers p");
        let mut stmt = self.conn.prepare(&format!(
            "{select} JOIN vectors v ON v.model = ?1 AND v.text_hash = p.text_hash ORDER BY p.rowid"
        ))?;
        let mut rows = stmt.query([model])?;
        while let Some(row) = rows.next()? {
            let paper = row_to_paper(row)?;
            f(&paper, &blob_to_vec(row.get_ref(12)?.as_blob()?))?;
        }
        Ok(())
    }

    /// Papers past rowid `after`, in rowid order (read a row at a time: the
    /// lexical index catches up with millions); `f` returns false to stop.
    pub fn papers_after(&self, after: i64, mut f: impl FnMut(StoredPaper) -> Result<bool>) -> Result<()> {
        let mut stmt = self.conn.prepare(&format!("{SELECT_PAPER} WHERE p.rowid > ?1 ORDER BY p.rowid"))?;
        let mut rows = stmt.query([after])?;
        while let Some(row) = rows.next()? {
            if !f(row_to_paper(row)?)? {
                break;
            }
        }
        Ok(())
    }

    /// The largest rowid a paper has (0 for an empty library).
    pub fn last_rowid(&self) -> Result<i64> {
        Ok(self.conn.query_row("SELECT coalesce(max(rowid), 0) FROM papers", [], |r| r.get(0))?)
    }

    /// Papers whose text has no vector for `model` yet: (text hash, text).
    pub fn missing_vectors(&self, model: &str) -> Result<Vec<(Vec<u8>, String)>> {
        let skip_failed = if self.has_failures {
            "AND NOT EXISTS (SELECT 1 FROM embed_failures f WHERE f.model = ?1 AND f.text_hash = p.text_hash)"
        } else {
            ""
        };
        let mut stmt = self.conn.prepare(&format!(
            "SELECT p.text_hash, p.title, p.abstract FROM papers p
             WHERE NOT EXISTS (SELECT 1 FROM vectors v WHERE v.model = ?1 AND v.text_hash = p.text_hash)
             {skip_failed} ORDER BY p.rowid"
        ))?;
        let rows = stmt.query_map([model], |r| {
            let title: String = r.get(1)?;
            let abs: String = r.get(2)?;
            Ok((r.get::<_, Vec<u8>>(0)?, embedding_text(&title, &abs)))
        })?;
        // In rowid order, so derived files (which grow in rowid order) can
        // take each chunk as soon as it is committed.
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for row in rows {
            let (hash, text) = row?;
            if seen.insert(hash.clone()) {
                out.push((hash, text));
            }
        }
        Ok(out)
    }
}

const SELECT_PAPER: &str = "SELECT p.rowid, p.id, p.version, p.title, p.authors, p.abstract,
    p.subjects, p.primary_cat, p.comments, p.journal_ref, p.first_date, p.text_hash FROM papers p";

fn row_to_paper(r: &rusqlite::Row<'_>) -> rusqlite::Result<StoredPaper> {
    let authors: String = r.get(4)?;
    let subjects: String = r.get(6)?;
    let first_date: Option<String> = r.get(10)?;
    Ok(StoredPaper {
        rowid: r.get(0)?,
        paper: Paper {
            id: r.get(1)?,
            version: r.get::<_, Option<i64>>(2)?.and_then(|v| u32::try_from(v).ok()),
            kind: Kind::New,
            title: r.get(3)?,
            authors: serde_json::from_str(&authors).unwrap_or_default(),
            affiliations: Vec::new(),
            abstract_text: r.get(5)?,
            subjects: serde_json::from_str(&subjects).unwrap_or_default(),
            primary: r.get(7)?,
            comments: r.get(8)?,
            journal_ref: r.get(9)?,
            listing_date: first_date.clone(),
            source: String::new(),
        },
        first_date,
        text_hash: r.get(11)?,
    })
}

pub fn vec_to_blob(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

pub fn blob_to_vec(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// The stored fields an upsert compares against.
struct Existing {
    version: Option<i64>,
    title: String,
    abstract_text: String,
    text_hash: Vec<u8>,
    authors: String,
    subjects: String,
    comments: Option<String>,
    journal_ref: Option<String>,
}

/// Inserts or updates one paper and its listing inside `tx`.
pub fn upsert_paper(tx: &Transaction<'_>, p: &Paper) -> Result<Upsert> {
    let text = embedding_text(&p.title, &p.abstract_text);
    let hash = text_hash(&text);
    let authors = serde_json::to_string(&p.authors)?;
    let subjects = serde_json::to_string(&p.subjects)?;
    let before = placement(tx, &p.id)?;
    let existing: Option<Existing> = tx
        .prepare_cached(
            "SELECT version, title, abstract, text_hash, authors, subjects, comments, journal_ref
             FROM papers WHERE id = ?1",
        )?
        .query_row([&p.id], |r| {
            Ok(Existing {
                version: r.get(0)?,
                title: r.get(1)?,
                abstract_text: r.get(2)?,
                text_hash: r.get(3)?,
                authors: r.get(4)?,
                subjects: r.get(5)?,
                comments: r.get(6)?,
                journal_ref: r.get(7)?,
            })
        })
        .optional()?;
    let version = p.version.map(i64::from);
    let outcome = match existing {
        None => {
            tx.prepare_cached(
                "INSERT INTO papers (id, version, title, authors, abstract, subjects, primary_cat,
                 comments, journal_ref, first_date, text_hash)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            )?
            .execute(params![
                p.id, version, p.title, authors, p.abstract_text, subjects, p.primary,
                p.comments, p.journal_ref, p.listing_date, hash
            ])?;
            Upsert::New
        }
        Some(Existing {
            version: old_version,
            title,
            abstract_text: abs,
            text_hash: old_hash,
            authors: old_authors,
            subjects: old_subjects,
            comments,
            journal_ref: jref,
        }) => {
            // An older version (or a listing without abstracts, like pastweek
            // pages) must not overwrite what we already know.
            let last_seen: Option<String> = tx
                .prepare_cached("SELECT max(date) FROM listings WHERE id = ?1")?
                .query_row([&p.id], |r| r.get(0))?;
            // What an earlier listing said (or an older version) never
            // overwrites what a later one said, whatever the input order.
            // A snapshot's date is its first version's, older than any
            // listing of a later version: only its version number counts.
            let older = matches!((old_version, version), (Some(o), Some(n)) if n < o)
                || (p.kind != Kind::Snapshot
                    && matches!((&p.listing_date, &last_seen), (Some(d), Some(l)) if d < l));
            let loses_abstract = p.abstract_text.is_empty() && !abs.is_empty();
            // A listing cut off mid-entry (a browser page saved or copied
            // before it finished) gives the same version with a shortened
            // abstract: what we have is the whole of it.
            let cut_short = (version.is_none() || old_version == version)
                && p.abstract_text.len() < abs.len()
                && abs.starts_with(p.abstract_text.trim_end());
            let same = title == p.title
                && abs == p.abstract_text
                && old_hash == hash
                && old_authors == authors
                && old_subjects == subjects
                && comments == p.comments
                && jref == p.journal_ref
                && (version.is_none() || old_version == version);
            if older || loses_abstract || cut_short || same {
                Upsert::Unchanged
            } else {
                tx.prepare_cached(
                    "UPDATE papers SET version = COALESCE(?2, version), title = ?3, authors = ?4,
                     abstract = ?5, subjects = ?6, primary_cat = ?7, comments = ?8,
                     journal_ref = ?9, text_hash = ?10 WHERE id = ?1",
                )?
                .execute(params![
                    p.id, version, p.title, authors, p.abstract_text, subjects, p.primary,
                    p.comments, p.journal_ref, hash
                ])?;
                Upsert::Updated
            }
        }
    };
    if let Some(date) = p.listing_date.as_ref().filter(|_| outcome != Upsert::New) {
        tx.prepare_cached(
            "UPDATE papers SET first_date = ?2 WHERE id = ?1 AND (first_date IS NULL OR first_date > ?2)",
        )?
        .execute(params![p.id, date])?;
    }
    // A paper from a metadata dump was never seen listed: no listing day.
    if let Some(date) = p.listing_date.as_ref().filter(|_| p.kind != Kind::Snapshot) {
        let category = p.primary.clone().unwrap_or_default();
        tx.prepare_cached(
            "INSERT OR IGNORE INTO listings (id, date, category, kind, source) VALUES (?1, ?2, ?3, ?4, ?5)",
        )?
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
    Ok(outcome)
}

/// A paper's rowid and what the derived files record of it (text hash,
/// subjects, first date in the vector files; authors in the lexical index).
type Placement = (i64, (Vec<u8>, String, Option<String>, String));

fn placement(tx: &Transaction<'_>, id: &str) -> Result<Option<Placement>> {
    Ok(tx
        .prepare_cached("SELECT rowid, text_hash, subjects, first_date, authors FROM papers WHERE id = ?1")?
        .query_row([id], |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))))
        .optional()?)
}

/// Gives a changed paper the next rowid and logs the old one, so derived
/// files append its new row and mark the old one dead instead of being
/// rewritten. Rowids only grow: the next one is past every rowid ever used.
fn move_to_new_rowid(tx: &Transaction<'_>, id: &str, old: i64) -> Result<()> {
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
pub fn set_default_model(conn: &Connection, model: &str) -> Result<()> {
    conn.execute(
        "INSERT INTO meta (key, value) VALUES ('model', ?1)
         ON CONFLICT(key) DO UPDATE SET value = ?1",
        [model],
    )?;
    Ok(())
}

pub fn bump_generation(tx: &Transaction<'_>) -> Result<()> {
    tx.execute(
        "INSERT INTO meta (key, value) VALUES ('generation', '1')
         ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1",
        [],
    )?;
    Ok(())
}

/// Stores a vector; a non-finite one is refused, as it would rank every
/// paper as NaN.
pub fn insert_vector(tx: &Transaction<'_>, model: &str, hash: &[u8], v: &[f32]) -> Result<()> {
    if v.is_empty() || v.iter().any(|x| !x.is_finite()) {
        anyhow::bail!("model {model} gave an empty or non-finite vector (NaN or infinity); not stored");
    }
    tx.prepare_cached("INSERT OR REPLACE INTO vectors (model, text_hash, vec) VALUES (?1, ?2, ?3)")?
        .execute(params![model, hash, vec_to_blob(v)])?;
    Ok(())
}

/// Records that `model` could not embed the text `hash`, so later ingests
/// skip it instead of failing on it again.
pub fn record_failure(tx: &Transaction<'_>, model: &str, hash: &[u8], error: &str) -> Result<()> {
    tx.prepare_cached("INSERT OR REPLACE INTO embed_failures (model, text_hash, error) VALUES (?1, ?2, ?3)")?
        .execute(params![model, hash, error])?;
    Ok(())
}

/// Ids of the papers whose current text has this hash.
pub fn papers_with_text(tx: &Transaction<'_>, hash: &[u8]) -> Result<Vec<String>> {
    let mut stmt = tx.prepare_cached("SELECT id FROM papers WHERE text_hash = ?1 ORDER BY id")?;
    let rows = stmt.query_map([hash], |r| r.get::<_, String>(0))?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}
