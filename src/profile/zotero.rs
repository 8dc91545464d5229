//! Zotero's own database as a live seed source. The file is opened
//! read-only and immutable, so a running Zotero's exclusive lock does not
//! matter and nothing is ever written to it (changes Zotero still holds in
//! its journal show on the next sync). A sync remembers which seeds it
//! added (`seed_sources`), so a later sync removes only those when their
//! items leave Zotero, and never a seed the user added by hand.

use super::seed_files::zotero_item;
use super::seeds::lookup;
use super::SeedInput;
use crate::library::store::profiles::{self, Seed};
use crate::library::store::{text_hash, Db, ProfileKey};
use crate::library::Library;
use crate::paper::embedding_text;
use anyhow::{Context, Result};
use rusqlite::limits::Limit;
use rusqlite::{ffi, Connection, OpenFlags};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::time::{Duration, Instant};

/// The longest value (text or blob) SQLite may make while reading Zotero's
/// file: a title or abstract is a few KB, so a generated column or a stored
/// cell of 400 MB fails at once instead of filling memory.
const MAX_VALUE: i32 = 1 << 20;
/// What SQLite may allocate, beyond what it held already, while it reads.
const MAX_SQLITE_HEAP: i64 = 128 << 20;
/// The text a sync may keep from the file: keys, dates, titles, abstracts,
/// collection paths (a library of 100,000 papers with abstracts holds about
/// 200 MB).
const MAX_TEXT: usize = 256 << 20;
/// How long reading may take (a library of 100,000 items takes about a second).
const MAX_TIME: Duration = Duration::from_secs(30);

/// Item types that are not papers.
const NOT_PAPERS: [&str; 3] = ["note", "attachment", "annotation"];

/// One Zotero item as a seed.
#[derive(Debug, Clone)]
pub struct Item {
    /// Zotero's key for the item (8 characters).
    pub item: String,
    pub seed: SeedInput,
    /// `dateAdded` as RFC 3339: the seed's age, so the decayed mean weights
    /// what the user saved last most.
    pub added: String,
}

/// Which collections to take items from: paths like `Reading/LLM`, matched
/// like file paths (`*` within one name, `**` across); `!GLOB` leaves out
/// every item in a matching collection.
pub struct Selection {
    include: Vec<glob::Pattern>,
    exclude: Vec<glob::Pattern>,
}

impl Selection {
    pub fn new(globs: &[String]) -> Result<Selection> {
        let mut sel = Selection { include: Vec::new(), exclude: Vec::new() };
        for g in globs {
            let (list, text) = match g.strip_prefix('!') {
                Some(rest) => (&mut sel.exclude, rest),
                None => (&mut sel.include, g.as_str()),
            };
            list.push(glob::Pattern::new(text.trim_matches('/')).with_context(|| format!("--collection {g:?} is not a glob"))?);
        }
        Ok(sel)
    }

    fn keeps(&self, paths: &[String]) -> bool {
        let opts = glob::MatchOptions { case_sensitive: true, require_literal_separator: true, require_literal_leading_dot: false };
        let any = |pats: &[glob::Pattern]| paths.iter().any(|p| pats.iter().any(|g| g.matches_with(p, opts)));
        (self.include.is_empty() || any(&self.include)) && !any(&self.exclude)
    }
}

/// An error of Zotero's file as a message only: the library's damage check
/// looks for SQLite errors in the chain and must not blame the library for
/// a broken Zotero file.
fn zotero_error(db: &Path, e: rusqlite::Error) -> anyhow::Error {
    use rusqlite::ErrorCode;
    // SQLite makes a value over the length limit NULL where a function
    // (`printf`, a generated column) builds it.
    if let rusqlite::Error::InvalidColumnType(_, column, rusqlite::types::Type::Null) = &e {
        return anyhow::anyhow!(
            "cannot read the Zotero database {}: an item's `{column}` is empty or larger than {} MiB",
            db.display(),
            MAX_VALUE >> 20
        );
    }
    let why = match e.sqlite_error_code() {
        Some(ErrorCode::TooBig) => format!("a value in it is larger than {} MiB ({e})", MAX_VALUE >> 20),
        Some(ErrorCode::OutOfMemory) => format!("reading it takes more than {} MiB ({e})", MAX_SQLITE_HEAP >> 20),
        Some(ErrorCode::OperationInterrupted) => format!("reading it takes longer than {} s", MAX_TIME.as_secs()),
        _ => e.to_string(),
    };
    anyhow::anyhow!("cannot read the Zotero database {}: {why}", db.display())
}

/// SQLite's heap limit, raised to `extra` bytes above what it uses now and
/// put back as it was when dropped. The limit is the process's, not the
/// connection's: it is held only while the Zotero file is read, when the
/// library's connection is idle (a sync is a command of its own, never run
/// by `serve`), and it leaves room for whatever the library's cache holds.
struct HeapLimit {
    hard: i64,
    soft: i64,
}

impl HeapLimit {
    fn above_current(extra: i64) -> HeapLimit {
        // SAFETY: these calls only read and set SQLite's process-wide memory
        // counters and limits, which SQLite guards with its own mutex.
        unsafe {
            let used = ffi::sqlite3_memory_used();
            let soft = ffi::sqlite3_soft_heap_limit64(-1);
            let hard = ffi::sqlite3_hard_heap_limit64(used.saturating_add(extra));
            HeapLimit { hard, soft }
        }
    }
}

impl Drop for HeapLimit {
    fn drop(&mut self) {
        // SAFETY: as above. Setting the hard limit moves the soft one, so
        // the soft one is put back after it.
        unsafe {
            ffi::sqlite3_hard_heap_limit64(self.hard);
            ffi::sqlite3_soft_heap_limit64(self.soft);
        }
    }
}

/// Text kept from the file so far, against `MAX_TEXT`.
struct Held<'a> {
    bytes: usize,
    db: &'a Path,
}

impl Held<'_> {
    fn take(&mut self, s: &str) -> Result<()> {
        self.bytes = self.bytes.saturating_add(s.len() + 64);
        if self.bytes > MAX_TEXT {
            anyhow::bail!(
                "cannot read the Zotero database {}: it holds more than {} MiB of keys, titles and abstracts",
                self.db.display(),
                MAX_TEXT >> 20
            );
        }
        Ok(())
    }
}

fn open(db: &Path) -> Result<Connection> {
    if !db.is_file() {
        anyhow::bail!(
            "{} is not a file; give Zotero's database with --db (Zotero: Settings → Advanced → Files and Folders shows its folder)",
            db.display()
        );
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(crate::library::store::uri(db, "immutable=1"), flags).map_err(|e| zotero_error(db, e))?;
    conn.set_limit(Limit::SQLITE_LIMIT_LENGTH, MAX_VALUE).map_err(|e| zotero_error(db, e))?;
    let deadline = Instant::now() + MAX_TIME;
    conn.progress_handler(10_000, Some(move || Instant::now() > deadline));
    let tables: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN
             ('items', 'itemData', 'itemDataValues', 'fields', 'itemTypes', 'collections', 'collectionItems', 'deletedItems')",
            [],
            |r| r.get(0),
        )
        .map_err(|e| zotero_error(db, e))?;
    if tables != 8 {
        anyhow::bail!("{} is not a Zotero database (it lacks Zotero's item tables)", db.display());
    }
    Ok(conn)
}

/// Each collection's path, parents first (`Reading/LLM`).
fn collection_paths(conn: &Connection, held: &mut Held) -> Result<HashMap<i64, String>> {
    let sql = |e| zotero_error(held.db, e);
    let mut stmt = conn.prepare("SELECT collectionID, collectionName, parentCollectionID FROM collections").map_err(sql)?;
    let mut rows: Vec<(i64, String, Option<i64>)> = Vec::new();
    for row in stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).map_err(sql)? {
        let row: (i64, String, Option<i64>) = row.map_err(|e| zotero_error(held.db, e))?;
        held.take(&row.1)?;
        rows.push(row);
    }
    let by_id: HashMap<i64, (&str, Option<i64>)> = rows.iter().map(|(id, n, p)| (*id, (n.as_str(), *p))).collect();
    let mut paths = HashMap::new();
    for (id, _, _) in &rows {
        let mut names = Vec::new();
        let mut at = Some(*id);
        // A damaged database could make a parent loop: stop at any depth a person would not nest to.
        while let Some(c) = at.filter(|_| names.len() < 64) {
            let Some((name, parent)) = by_id.get(&c) else { break };
            names.push(name.replace('/', "∕"));
            at = *parent;
        }
        names.reverse();
        let path = names.join("/");
        held.take(&path)?;
        paths.insert(*id, path);
    }
    Ok(paths)
}

/// What a Zotero database holds as seeds: its papers (not notes,
/// attachments, or items in the trash) in the selected collections. Items
/// without a title are counted in the second value.
pub fn read(db: &Path, sel: &Selection, lib: &Library) -> Result<(Vec<Item>, usize)> {
    let conn = open(db)?;
    let mut held = Held { bytes: 0, db };
    let limit = HeapLimit::above_current(MAX_SQLITE_HEAP);
    let sql = |e| zotero_error(db, e);
    let mut items: BTreeMap<i64, (String, String)> = BTreeMap::new();
    let mut stmt = conn
        .prepare(
            "SELECT i.itemID, i.key, i.dateAdded, t.typeName FROM items i JOIN itemTypes t ON t.itemTypeID = i.itemTypeID
             WHERE NOT EXISTS (SELECT 1 FROM deletedItems d WHERE d.itemID = i.itemID)",
        )
        .map_err(sql)?;
    let rows = stmt.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?, r.get::<_, String>(3)?)));
    for row in rows.map_err(sql)? {
        let (id, key, added, kind) = row.map_err(sql)?;
        if !NOT_PAPERS.contains(&kind.as_str()) {
            held.take(&key)?;
            held.take(&added)?;
            items.insert(id, (key, added));
        }
    }
    let mut fields: HashMap<i64, HashMap<String, String>> = HashMap::new();
    let mut stmt = conn
        .prepare(
            "SELECT d.itemID, f.fieldName, v.value FROM itemData d JOIN fields f ON f.fieldID = d.fieldID
             JOIN itemDataValues v ON v.valueID = d.valueID
             WHERE f.fieldName IN ('title', 'abstractNote', 'url', 'DOI', 'extra', 'archiveID', 'number')",
        )
        .map_err(sql)?;
    let rows = stmt.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, r.get::<_, rusqlite::types::Value>(2)?)));
    for row in rows.map_err(sql)? {
        let (id, name, value) = row.map_err(sql)?;
        let text = match value {
            rusqlite::types::Value::Text(t) => t,
            rusqlite::types::Value::Integer(n) => n.to_string(),
            rusqlite::types::Value::Real(x) => x.to_string(),
            _ => continue,
        };
        held.take(&text)?;
        fields.entry(id).or_default().insert(name, text);
    }
    let mut in_collections: HashMap<i64, Vec<i64>> = HashMap::new();
    let mut stmt = conn.prepare("SELECT itemID, collectionID FROM collectionItems").map_err(sql)?;
    for row in stmt.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?))).map_err(sql)? {
        let (item, coll) = row.map_err(sql)?;
        held.take("")?;
        in_collections.entry(item).or_default().push(coll);
    }
    drop(stmt);
    let paths = collection_paths(&conn, &mut held)?;
    drop(limit);

    let now = crate::library::store::now();
    let empty = HashMap::new();
    let mut out = Vec::new();
    let mut untitled = 0;
    for (id, (key, date_added)) in items {
        let colls: Vec<String> = in_collections.get(&id).into_iter().flatten().filter_map(|c| paths.get(c).cloned()).collect();
        if !sel.keeps(&colls) {
            continue;
        }
        let Some((mut seed, added)) = zotero_item(&key, &date_added, fields.get(&id).unwrap_or(&empty), &now) else {
            untitled += 1;
            continue;
        };
        // A title alone embeds poorly: the library's abstract stands in for a missing one.
        if seed.abstract_text.is_empty() && !seed.key.starts_with("text:") {
            if let Some(known) = lookup(lib, &seed.key)? {
                seed = SeedInput { origin: seed.origin, date: seed.date, ..known };
            }
        }
        out.push(Item { item: key, seed, added });
    }
    // One seed per paper: the copy saved first gives its age.
    out.sort_by(|a, b| a.added.cmp(&b.added).then_with(|| a.item.cmp(&b.item)));
    let mut keys = HashSet::new();
    out.retain(|i| keys.insert(i.seed.key.clone()));
    Ok((out, untitled))
}

/// What a sync changes in a profile.
#[derive(Debug, Default)]
pub struct Plan {
    pub add: Vec<Item>,
    /// Seeds this sync owns whose item's title, abstract or date changed.
    pub update: Vec<Item>,
    /// Seeds this sync added whose items are gone (or left the selection): (key, title).
    pub remove: Vec<(String, String)>,
    /// Items that already were seeds the user added otherwise: left alone.
    pub by_hand: usize,
}

/// Seed sources' name for a Zotero sync.
const SOURCE: &str = "zotero";

pub fn plan(conn: Db<'_>, profile: &ProfileKey, items: Vec<Item>) -> Result<Plan> {
    let mine = profiles::synced_seeds(conn, profile, SOURCE)?;
    let mut plan = Plan::default();
    let mut present = HashSet::new();
    for item in items {
        present.insert(item.seed.key.clone());
        match mine.get(&item.seed.key) {
            Some((t, a, added)) => {
                if *t != item.seed.title || *a != item.seed.abstract_text || *added != item.added {
                    plan.update.push(item);
                }
            }
            None if profiles::has_seed(conn, profile, &item.seed.key)? => plan.by_hand += 1,
            None => plan.add.push(item),
        }
    }
    plan.remove = mine.into_iter().filter(|(k, _)| !present.contains(k)).map(|(k, (t, _, _))| (k, t)).collect();
    plan.remove.sort();
    Ok(plan)
}

/// Carries out a plan in one transaction.
pub fn apply(lib: &mut Library, profile: &ProfileKey, plan: &Plan) -> Result<()> {
    let tx = lib.store.transaction()?;
    for item in plan.add.iter().chain(&plan.update) {
        let s = &item.seed;
        let seed = Seed {
            key: s.key.clone(),
            title: s.title.clone(),
            abstract_text: s.abstract_text.clone(),
            text_hash: text_hash(&embedding_text(&s.title, &s.abstract_text)),
            weight: 1.0,
            negative: false,
            added: item.added.clone(),
            origin: s.origin.clone(),
            subjects: Vec::new(),
        };
        profiles::put_synced_seed(tx.db(), profile, &seed, SOURCE, &item.item)?;
    }
    for (key, _) in &plan.remove {
        profiles::remove_synced_seed(tx.db(), profile, key)?;
    }
    tx.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_heap_limit_is_put_back() {
        // SAFETY: reads SQLite's limits only.
        let now = || unsafe { (ffi::sqlite3_hard_heap_limit64(-1), ffi::sqlite3_soft_heap_limit64(-1)) };
        let before = now();
        {
            let _limit = HeapLimit::above_current(MAX_SQLITE_HEAP);
            let (hard, soft) = now();
            assert!(hard >= MAX_SQLITE_HEAP && soft == hard, "{hard} {soft}");
        }
        assert_eq!(now(), before);
    }

    #[test]
    fn collection_globs() {
        let sel = Selection::new(&["Reading/**".into(), "!**/Old".into()]).unwrap();
        assert!(sel.keeps(&["Reading/LLM".into()]));
        assert!(sel.keeps(&["Other".into(), "Reading/GPU/Serving".into()]));
        assert!(!sel.keeps(&["Reading/LLM/Old".into()]));
        assert!(!sel.keeps(&["Reading/LLM".into(), "Archive/Old".into()]), "an ignored collection wins");
        assert!(!sel.keeps(&[]));
        let one = Selection::new(&["Reading/*".into()]).unwrap();
        assert!(one.keeps(&["Reading/LLM".into()]) && !one.keeps(&["Reading/LLM/Deep".into()]));
        assert!(Selection::new(&[]).unwrap().keeps(&[]));
        assert!(Selection::new(&["[".into()]).is_err());
    }
}
