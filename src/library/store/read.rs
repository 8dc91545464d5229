//! The store's queries: papers, listing days, versions, and the rows and
//! vectors the derived files are built from.

use super::Store;
use crate::library::vectors::RowMeta;
use crate::listing::text::without_bidi;
use crate::paper::{embedding_text, Day, Kind, Paper};
use anyhow::Result;
use rusqlite::{params, OptionalExtension};

/// One paper as a derived vector file records it.
pub struct DerivedRow<'a> {
    pub meta: RowMeta,
    pub vector: Option<&'a [f32]>,
    pub failed: bool,
}

/// Row counts: [`Store::totals`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Totals {
    pub papers: i64,
    pub versions: i64,
    /// Distinct days listed.
    pub days: i64,
    /// (paper, day) listings.
    pub listings: i64,
    /// Vectors, of every model.
    pub vectors: i64,
}

/// A paper as stored, with what the commands that query the library show.
#[derive(Debug, Clone)]
pub struct StoredPaper {
    pub rowid: i64,
    pub paper: Paper,
    pub first_date: Option<String>,
    pub text_hash: Vec<u8>,
    /// The stored gist, where one of this text and method is stored.
    pub stored_gist: StoredGist,
}

/// What the library holds of a paper's gist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoredGist {
    /// Made for this text by this method (`None`: the abstract has none).
    Current(Option<String>),
    /// Not made yet (an older library), or not read (a bulk scan).
    NotMade,
}

/// A listing's date as the database keeps it (`YYYY-MM-DD`); one that is
/// not a calendar day is a damaged row, an error of the query that reads it.
impl rusqlite::types::FromSql for Day {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Day> {
        let text = value.as_str()?;
        Day::parse(text).ok_or_else(|| rusqlite::types::FromSqlError::Other(format!("{text:?} is not a day like 2026-03-02").into()))
    }
}

impl rusqlite::types::ToSql for Day {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(rusqlite::types::ToSqlOutput::from(self.to_string()))
    }
}

impl StoredPaper {
    /// The paper's gist: as stored, or made now where none is.
    pub fn gist(&self) -> Option<String> {
        match &self.stored_gist {
            StoredGist::Current(g) => g.clone(),
            StoredGist::NotMade => crate::gist::of(&self.paper.title, &self.paper.abstract_text),
        }
    }
}

/// One paper as listed on a given day.
#[derive(Debug, Clone)]
pub struct DayEntry {
    pub kind: Kind,
    pub paper: StoredPaper,
    /// For a replaced entry: the day the user first saw it listed.
    pub seen_before: Option<String>,
}

/// A paper with the day it was first listed, as the history replay reads it.
pub struct DatedPaper {
    pub rowid: i64,
    /// The author list as stored: a JSON array of names.
    pub authors_json: String,
    pub first_date: String,
    pub title: String,
    pub abstract_text: String,
    /// Its categories, primary first.
    pub subjects: Vec<String>,
}

/// A version of a paper the library has seen, with its title then.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Version {
    pub version: i64,
    pub title: String,
}

/// A day a paper was listed: in which category, and how.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Listing {
    pub date: String,
    pub category: String,
    pub kind: Kind,
}

impl Store {
    /// The columns [`row_to_paper`] reads, for a bulk scan: no gist.
    fn select_paper(&self) -> String {
        let affiliations = if self.has_affiliations { "p.affiliations" } else { "NULL" };
        format!("SELECT {PAPER_COLUMNS}, {affiliations}, NULL, 0 FROM papers p")
    }

    /// The same with the stored gist, for papers that are shown.
    fn select_shown_paper(&self) -> String {
        if !self.has_gists {
            return self.select_paper();
        }
        let affiliations = if self.has_affiliations { "p.affiliations" } else { "NULL" };
        format!(
            "SELECT {PAPER_COLUMNS}, {affiliations}, g.gist, g.text_hash IS p.text_hash AND g.method IS {} FROM papers p \
             LEFT JOIN gists g ON g.id = p.id",
            crate::gist::METHOD
        )
    }

    /// A counter bumped by every write that changes which vectors belong to
    /// which papers; derived files record the value they were built from.
    pub fn generation(&self) -> Result<i64> {
        let g: Option<String> = self.conn.query_row("SELECT value FROM meta WHERE key = 'generation'", [], |r| r.get(0)).optional()?;
        Ok(g.and_then(|g| g.parse().ok()).unwrap_or(0))
    }

    /// A number every change to the profile's seeds, ratings, seen papers
    /// or filters moves on (triggers keep it); `None` in a library not yet
    /// written by a version that keeps it.
    pub fn profile_generation(&self, profile: &super::ProfileKey) -> Result<Option<i64>> {
        let kept: Option<String> = self.conn.query_row("SELECT value FROM meta WHERE key = 'profiles'", [], |r| r.get(0)).optional()?;
        if kept.is_none() {
            return Ok(None);
        }
        let g: Option<String> = self
            .conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [format!("profile:{}", profile.as_str())], |r| r.get(0))
            .optional()?;
        Ok(Some(g.and_then(|g| g.parse().ok()).unwrap_or(0)))
    }

    /// The model the last ingest embedded with: id queries use its vectors.
    pub fn default_model(&self) -> Result<Option<String>> {
        Ok(self.conn.query_row("SELECT value FROM meta WHERE key = 'model'", [], |r| r.get(0)).optional()?)
    }

    /// The newest day a paper of `category` (as its listing's or among its
    /// subjects) was listed.
    pub fn newest_day_of(&self, category: &str) -> Result<Option<String>> {
        Ok(self.conn.query_row(
            "SELECT max(l.date) FROM listings l JOIN papers p ON p.id = l.id WHERE l.category = ?1 OR p.subjects LIKE ?2",
            params![category, format!("%\"{category}\"%")],
            |r| r.get(0),
        )?)
    }

    /// Whether the library holds any vector of `model`: one lookup, not a
    /// count of millions.
    pub fn holds_vectors(&self, model: &str) -> Result<bool> {
        Ok(self.conn.query_row("SELECT EXISTS (SELECT 1 FROM vectors WHERE model = ?1)", [model], |r| r.get(0))?)
    }

    /// The text hash of one vector of `model` (to learn its dimension).
    pub fn a_vector_hash(&self, model: &str) -> Result<Option<Vec<u8>>> {
        Ok(self.conn.query_row("SELECT text_hash FROM vectors WHERE model = ?1 LIMIT 1", [model], |r| r.get(0)).optional()?)
    }

    /// Every paper with a first listing date, in rowid order.
    pub fn dated_papers(&self) -> Result<Vec<DatedPaper>> {
        let mut stmt = self.conn.prepare(
            "SELECT rowid, authors, first_date, title, abstract, subjects FROM papers WHERE first_date IS NOT NULL ORDER BY rowid",
        )?;
        let rows = stmt.query_map([], |r| {
            let subjects: String = r.get(5)?;
            Ok(DatedPaper {
                rowid: r.get(0)?,
                authors_json: r.get(1)?,
                first_date: r.get(2)?,
                title: r.get(3)?,
                abstract_text: r.get(4)?,
                // A malformed list loses that paper's categories, not the run.
                subjects: serde_json::from_str(&subjects).unwrap_or_default(),
            })
        })?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    }

    /// The first and last listing days the library holds.
    pub fn listing_span(&self) -> Result<(Option<String>, Option<String>)> {
        Ok(self.conn.query_row("SELECT min(date), max(date) FROM listings", [], |r| Ok((r.get(0)?, r.get(1)?)))?)
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

    /// Every paper's id, in rowid order.
    pub fn ids(&self) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare("SELECT id FROM papers ORDER BY rowid")?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    }

    /// How many rows of each kind the library holds.
    pub fn totals(&self) -> Result<Totals> {
        let count = |sql: &str| -> Result<i64> { Ok(self.conn.query_row(sql, [], |r| r.get(0))?) };
        Ok(Totals {
            papers: count("SELECT count(*) FROM papers")?,
            versions: count("SELECT count(*) FROM versions")?,
            days: count("SELECT count(DISTINCT date) FROM listings")?,
            listings: count("SELECT count(*) FROM listings")?,
            vectors: count("SELECT count(*) FROM vectors")?,
        })
    }

    pub fn get_paper(&self, id: &str) -> Result<Option<StoredPaper>> {
        let mut stmt = self.conn.prepare_cached(&format!("{} WHERE p.id = ?1", self.select_shown_paper()))?;
        Ok(stmt.query_row([id], row_to_paper).optional()?)
    }

    pub fn get_paper_by_rowid(&self, rowid: i64) -> Result<Option<StoredPaper>> {
        let mut stmt = self.conn.prepare_cached(&format!("{} WHERE p.rowid = ?1", self.select_shown_paper()))?;
        Ok(stmt.query_row([rowid], row_to_paper).optional()?)
    }

    /// The entries listed on `day`, one per paper (a paper listed in
    /// several categories that day counts once, by its most novel kind).
    pub fn listing_day(&self, day: Day) -> Result<Vec<DayEntry>> {
        let select = self.select_shown_paper().replace(" FROM papers p", ", l.k FROM papers p");
        let mut stmt = self.conn.prepare(&format!(
            "{select} JOIN (SELECT id, min(CASE kind WHEN 'new' THEN 0 WHEN 'cross' THEN 1 ELSE 2 END) AS k
             FROM listings WHERE date = ?1 GROUP BY id) l ON l.id = p.id ORDER BY p.rowid"
        ))?;
        let mut seen = self.conn.prepare_cached("SELECT min(date) FROM listings WHERE id = ?1 AND date < ?2")?;
        let rows = stmt.query_map([day], |r| Ok((row_to_paper(r)?, r.get::<_, i64>(AFTER_PAPER)?)))?;
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
    pub fn newest_day(&self) -> Result<Option<Day>> {
        Ok(self.conn.query_row("SELECT max(date) FROM listings", [], |r| r.get(0))?)
    }

    /// Whether any listing was read for `day`.
    pub fn has_day(&self, day: Day) -> Result<bool> {
        let mut stmt = self.conn.prepare_cached("SELECT 1 FROM listings WHERE date = ?1 LIMIT 1")?;
        Ok(stmt.exists([day])?)
    }

    /// Listing days from `since` on, oldest first.
    pub fn days_from(&self, since: Day) -> Result<Vec<Day>> {
        let mut stmt = self.conn.prepare_cached("SELECT DISTINCT date FROM listings WHERE date >= ?1 ORDER BY date")?;
        let rows = stmt.query_map([since], |r| r.get(0))?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    }

    /// Every listing day, newest first. One index seek a day, so a library
    /// of years answers as fast as one of weeks.
    pub fn all_days(&self) -> Result<Vec<Day>> {
        let mut stmt = self.conn.prepare_cached(
            "WITH RECURSIVE d(date) AS (
               SELECT max(date) FROM listings
               UNION ALL SELECT (SELECT max(date) FROM listings WHERE date < d.date) FROM d WHERE d.date IS NOT NULL)
             SELECT date FROM d WHERE date IS NOT NULL",
        )?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    }

    /// Listing days, newest first, with how many entries of `kinds` each
    /// listed: a paper once a day, by its most novel kind that day, as a
    /// digest of that day counts them (so the two numbers agree).
    pub fn days(&self, limit: usize, kinds: &[Kind]) -> Result<Vec<(String, i64)>> {
        let wanted = |k: Kind| kinds.contains(&k) as i64;
        let mut stmt = self.conn.prepare_cached(
            "SELECT date, sum(CASE k WHEN 0 THEN ?2 WHEN 1 THEN ?3 ELSE ?4 END) FROM
               (SELECT date, id, min(CASE kind WHEN 'new' THEN 0 WHEN 'cross' THEN 1 ELSE 2 END) AS k
                FROM listings
                WHERE date IN (SELECT DISTINCT date FROM listings ORDER BY date DESC LIMIT ?1)
                GROUP BY date, id)
             GROUP BY date ORDER BY date DESC",
        )?;
        let rows = stmt.query_map(params![limit as i64, wanted(Kind::New), wanted(Kind::Cross), wanted(Kind::Replaced)], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    }

    /// Every version seen of a paper: (version, title), oldest first.
    pub fn versions(&self, id: &str) -> Result<Vec<Version>> {
        let mut stmt = self.conn.prepare_cached("SELECT version, title FROM versions WHERE id = ?1 ORDER BY version")?;
        let rows = stmt.query_map([id], |r| Ok(Version { version: r.get(0)?, title: r.get(1)? }))?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    }

    /// Every listing of a paper, oldest first.
    pub fn listings_of(&self, id: &str) -> Result<Vec<Listing>> {
        let mut stmt = self.conn.prepare_cached("SELECT date, category, kind FROM listings WHERE id = ?1 ORDER BY date, category")?;
        let rows = stmt.query_map([id], |r| {
            let kind: String = r.get(2)?;
            let kind = Kind::parse(&kind).ok_or_else(|| {
                rusqlite::Error::FromSqlConversionFailure(2, rusqlite::types::Type::Text, format!("{kind:?} is no listing kind").into())
            })?;
            Ok(Listing { date: r.get(0)?, category: r.get(1)?, kind })
        })?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    }

    pub fn vector(&self, model: &str, hash: &[u8]) -> Result<Option<Vec<f32>>> {
        let mut stmt = self.conn.prepare_cached("SELECT vec FROM vectors WHERE model = ?1 AND text_hash = ?2")?;
        let blob: Option<Vec<u8>> = stmt.query_row(params![model, hash], |r| r.get(0)).optional()?;
        Ok(blob.map(|b| blob_to_vec(&b)))
    }

    /// Papers past rowid `after`, in rowid order, as derived vector files
    /// record them: `f` gets each paper's row and its vector for `model`
    /// (none when it has none), and whether its text failed to embed; it
    /// returns false to stop.
    pub fn rows_after(&self, model: &str, after: i64, mut f: impl FnMut(DerivedRow<'_>) -> Result<bool>) -> Result<()> {
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
        Ok(self.conn.query_row("SELECT length(vec) / 4 FROM vectors WHERE model = ?1 LIMIT 1", [model], |r| r.get(0)).optional()?)
    }

    fn has_table(&self, name: &str) -> Result<bool> {
        Ok(self.conn.query_row("SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = ?1", [name], |r| r.get(0))?)
    }

    /// Every paper that has a vector for `model`, with it, in rowid order
    /// (read a row at a time: `export` of millions).
    pub fn for_each_paper_with_vector(&self, model: &str, mut f: impl FnMut(&StoredPaper, &[f32]) -> Result<()>) -> Result<()> {
        let select = self.select_paper().replace(" FROM papers p", ", v.vec FROM papers p");
        let mut stmt =
            self.conn.prepare(&format!("{select} JOIN vectors v ON v.model = ?1 AND v.text_hash = p.text_hash ORDER BY p.rowid"))?;
        let mut rows = stmt.query([model])?;
        while let Some(row) = rows.next()? {
            let paper = row_to_paper(row)?;
            f(&paper, &blob_to_vec(row.get_ref(AFTER_PAPER)?.as_blob()?))?;
        }
        Ok(())
    }

    /// Papers past rowid `after`, in rowid order (read a row at a time: the
    /// lexical index catches up with millions); `f` returns false to stop.
    pub fn papers_after(&self, after: i64, mut f: impl FnMut(StoredPaper) -> Result<bool>) -> Result<()> {
        let mut stmt = self.conn.prepare(&format!("{} WHERE p.rowid > ?1 ORDER BY p.rowid", self.select_paper()))?;
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

/// The columns [`row_to_paper`] reads first; then affiliations, the gist,
/// and whether the gist is current.
const PAPER_COLUMNS: &str = "p.rowid, p.id, p.version, p.title, p.authors, p.abstract,
    p.subjects, p.primary_cat, p.comments, p.journal_ref, p.first_date, p.text_hash";
/// The first column a query adds after [`Store::select_paper`]'s.
const AFTER_PAPER: usize = 15;

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
            title: without_bidi(r.get(3)?),
            authors: serde_json::from_str::<Vec<String>>(&authors).unwrap_or_default().into_iter().map(without_bidi).collect(),
            affiliations: r.get::<_, Option<String>>(12)?.and_then(|a| serde_json::from_str(&a).ok()).unwrap_or_default(),
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
        stored_gist: if r.get::<_, bool>(14)? { StoredGist::Current(r.get(13)?) } else { StoredGist::NotMade },
    })
}

pub fn blob_to_vec(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}
