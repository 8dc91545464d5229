//! Zotero's own database as a live seed source. The file is opened
//! read-only and immutable, so a running Zotero's exclusive lock does not
//! matter and nothing is ever written to it (changes Zotero still holds in
//! its journal show on the next sync). A sync remembers which seeds it
//! added (`seed_sources`), so a later sync removes only those when their
//! items leave Zotero, and never a seed the user added by hand.

use super::{lookup, SeedInput};
use crate::library::store::text_hash;
use crate::library::Library;
use crate::paper::{embedding_text, ArxivId};
use anyhow::{Context, Result};
use rusqlite::{params, Connection, OpenFlags, OptionalExtension};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

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
    anyhow::anyhow!("cannot read the Zotero database {}: {e}", db.display())
}

fn open(db: &Path) -> Result<Connection> {
    if !db.is_file() {
        anyhow::bail!("{} is not a file; give Zotero's database with --db (Zotero: Settings → Advanced → Files and Folders shows its folder)", db.display());
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(crate::library::store::uri(db, "immutable=1"), flags).map_err(|e| zotero_error(db, e))?;
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
fn collection_paths(conn: &Connection) -> rusqlite::Result<HashMap<i64, String>> {
    let mut stmt = conn.prepare("SELECT collectionID, collectionName, parentCollectionID FROM collections")?;
    let rows: Vec<(i64, String, Option<i64>)> =
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?.collect::<rusqlite::Result<_>>()?;
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
        paths.insert(*id, names.join("/"));
    }
    Ok(paths)
}

/// The arXiv id an item carries: its archive id or number (`arXiv:…`), an
/// arxiv.org URL, a `10.48550/arXiv.…` DOI, or an `arXiv: …` line in Extra.
fn arxiv_id(fields: &HashMap<String, String>) -> Option<String> {
    let prefixed = |v: &str| v.trim().get(..6).is_some_and(|p| p.eq_ignore_ascii_case("arxiv:"));
    let get = |k: &str| fields.get(k).map(String::as_str);
    let tries = [
        get("archiveID").filter(|v| prefixed(v)),
        get("url").filter(|v| v.to_ascii_lowercase().contains("arxiv.org/")),
        get("DOI").and_then(|v| v.to_ascii_lowercase().find("10.48550/arxiv.").map(|at| &v[at + 15..])),
        get("extra").and_then(|v| v.lines().find(|l| prefixed(l))),
        get("number").filter(|v| prefixed(v)),
    ];
    // `arXiv: 2603.00356` has a space the id parser does not take.
    let bare = |v: &str| if prefixed(v) { v.trim()[6..].trim().to_string() } else { v.trim().to_string() };
    tries.into_iter().flatten().find_map(|v| ArxivId::parse(&bare(v))).map(|a| a.id)
}

/// `2024-01-05 10:00:00` (UTC, as Zotero stores it) as RFC 3339.
fn rfc3339(date_added: &str) -> Option<String> {
    let t = chrono::NaiveDateTime::parse_from_str(date_added.trim(), "%Y-%m-%d %H:%M:%S").ok()?;
    Some(t.and_utc().to_rfc3339_opts(chrono::SecondsFormat::Micros, true))
}

/// What a Zotero database holds as seeds: its papers (not notes,
/// attachments, or items in the trash) in the selected collections. Items
/// without a title are counted in the second value.
pub fn read(db: &Path, sel: &Selection, lib: &Library) -> Result<(Vec<Item>, usize)> {
    let conn = open(db)?;
    let read = || -> rusqlite::Result<_> {
        let mut items: BTreeMap<i64, (String, String)> = BTreeMap::new();
        let mut stmt = conn.prepare(
            "SELECT i.itemID, i.key, i.dateAdded, t.typeName FROM items i JOIN itemTypes t ON t.itemTypeID = i.itemTypeID
             WHERE NOT EXISTS (SELECT 1 FROM deletedItems d WHERE d.itemID = i.itemID)",
        )?;
        for row in stmt.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?, r.get::<_, String>(3)?)))? {
            let (id, key, added, kind) = row?;
            if !NOT_PAPERS.contains(&kind.as_str()) {
                items.insert(id, (key, added));
            }
        }
        let mut fields: HashMap<i64, HashMap<String, String>> = HashMap::new();
        let mut stmt = conn.prepare(
            "SELECT d.itemID, f.fieldName, v.value FROM itemData d JOIN fields f ON f.fieldID = d.fieldID
             JOIN itemDataValues v ON v.valueID = d.valueID
             WHERE f.fieldName IN ('title', 'abstractNote', 'url', 'DOI', 'extra', 'archiveID', 'number')",
        )?;
        for row in stmt.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, r.get::<_, rusqlite::types::Value>(2)?)))? {
            let (id, name, value) = row?;
            let text = match value {
                rusqlite::types::Value::Text(t) => t,
                rusqlite::types::Value::Integer(n) => n.to_string(),
                rusqlite::types::Value::Real(x) => x.to_string(),
                _ => continue,
            };
            fields.entry(id).or_default().insert(name, text);
        }
        let mut in_collections: HashMap<i64, Vec<i64>> = HashMap::new();
        let mut stmt = conn.prepare("SELECT itemID, collectionID FROM collectionItems")?;
        for row in stmt.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)))? {
            let (item, coll) = row?;
            in_collections.entry(item).or_default().push(coll);
        }
        Ok((items, fields, in_collections))
    };
    let (items, fields, in_collections) = read().map_err(|e| zotero_error(db, e))?;
    let paths = collection_paths(&conn).map_err(|e| zotero_error(db, e))?;
    let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true);
    let empty = HashMap::new();
    let mut out = Vec::new();
    let mut untitled = 0;
    for (id, (key, date_added)) in items {
        let colls: Vec<String> = in_collections.get(&id).into_iter().flatten().filter_map(|c| paths.get(c).cloned()).collect();
        if !sel.keeps(&colls) {
            continue;
        }
        let f = fields.get(&id).unwrap_or(&empty);
        let title = crate::listing::text::inline(f.get("title").map(String::as_str).unwrap_or(""));
        if title.is_empty() {
            untitled += 1;
            continue;
        }
        let abstract_text = crate::listing::text::inline(f.get("abstractNote").map(String::as_str).unwrap_or(""));
        let origin = format!("zotero ({key})");
        let added = rfc3339(&date_added).unwrap_or_else(|| now.clone());
        let date = Some(added[..10].to_string());
        let seed = match arxiv_id(f) {
            // A title alone embeds poorly: the library's abstract stands in for a missing one.
            Some(aid) if abstract_text.is_empty() => match lookup(lib, &aid)? {
                Some(known) => SeedInput { origin, date, ..known },
                None => SeedInput { key: aid, title, abstract_text, origin, date },
            },
            Some(aid) => SeedInput { key: aid, title, abstract_text, origin, date },
            None => SeedInput { date, ..SeedInput::from_text(&title, &abstract_text, &origin) },
        };
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

/// The seeds of `profile` that a Zotero sync added: key → (title, abstract, added).
fn owned(conn: &Connection, profile: &str) -> Result<HashMap<String, (String, String, String)>> {
    let exists: bool = conn.query_row(
        "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'seed_sources'",
        [],
        |r| r.get(0),
    )?;
    if !exists {
        // A library no sync has written to yet (opened read-only for --dry-run).
        return Ok(HashMap::new());
    }
    let mut stmt = conn.prepare(
        "SELECT s.key, s.title, s.abstract, s.added FROM seeds s JOIN seed_sources o ON o.profile = s.profile AND o.key = s.key
         WHERE s.profile = ?1 AND o.source = 'zotero'",
    )?;
    let rows = stmt.query_map([profile], |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?, r.get(3)?))))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

pub fn plan(conn: &Connection, profile: &str, items: Vec<Item>) -> Result<Plan> {
    let mine = owned(conn, profile)?;
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
            None => {
                let exists = conn
                    .query_row("SELECT 1 FROM seeds WHERE profile = ?1 AND key = ?2", params![profile, item.seed.key], |_| Ok(()))
                    .optional()?
                    .is_some();
                if exists {
                    plan.by_hand += 1;
                } else {
                    plan.add.push(item);
                }
            }
        }
    }
    plan.remove = mine.into_iter().filter(|(k, _)| !present.contains(k)).map(|(k, (t, _, _))| (k, t)).collect();
    plan.remove.sort();
    Ok(plan)
}

/// Carries out a plan in one transaction.
pub fn apply(lib: &mut Library, profile: &str, plan: &Plan) -> Result<()> {
    let tx = lib.store.transaction()?;
    for item in plan.add.iter().chain(&plan.update) {
        let s = &item.seed;
        let hash = text_hash(&embedding_text(&s.title, &s.abstract_text));
        tx.execute(
            "INSERT INTO seeds (profile, key, title, abstract, text_hash, weight, negative, added, origin)
             VALUES (?1, ?2, ?3, ?4, ?5, 1, 0, ?6, ?7)
             ON CONFLICT(profile, key) DO UPDATE SET title = ?3, abstract = ?4, text_hash = ?5, added = ?6, origin = ?7",
            params![profile, s.key, s.title, s.abstract_text, hash, item.added, s.origin],
        )?;
        tx.execute(
            "INSERT OR REPLACE INTO seed_sources (profile, key, source, item) VALUES (?1, ?2, 'zotero', ?3)",
            params![profile, s.key, item.item],
        )?;
    }
    for (key, _) in &plan.remove {
        tx.execute("DELETE FROM seeds WHERE profile = ?1 AND key = ?2", params![profile, key])?;
        tx.execute("DELETE FROM seed_sources WHERE profile = ?1 AND key = ?2", params![profile, key])?;
    }
    tx.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arxiv_ids_from_every_field_zotero_keeps_them_in() {
        let f = |k: &str, v: &str| HashMap::from([(k.to_string(), v.to_string())]);
        assert_eq!(arxiv_id(&f("archiveID", "arXiv:2401.00001")).as_deref(), Some("2401.00001"));
        assert_eq!(arxiv_id(&f("url", "http://arxiv.org/abs/2507.07400v2")).as_deref(), Some("2507.07400"));
        assert_eq!(arxiv_id(&f("DOI", "10.48550/arXiv.2602.23598")).as_deref(), Some("2602.23598"));
        assert_eq!(arxiv_id(&f("extra", "tex.ids: x\narXiv: 2603.00356\n")).as_deref(), Some("2603.00356"));
        assert_eq!(arxiv_id(&f("number", "arXiv:astro-ph/0601001")).as_deref(), Some("astro-ph/0601001"));
        assert_eq!(arxiv_id(&f("number", "2401.00001")), None, "a bare report number is not taken for an id");
        assert_eq!(arxiv_id(&f("url", "https://example.org/2401.00001")), None);
        assert_eq!(rfc3339("2024-01-05 10:00:00").as_deref(), Some("2024-01-05T10:00:00.000000Z"));
        assert_eq!(rfc3339("yesterday"), None);
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
