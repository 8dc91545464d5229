//! A profile's seeds in the library: read from ids and files, added,
//! listed, weighted, moved and removed, embedded; its bar and its name.

use super::seed_files::SeedFile;
use crate::error::{Kind, Kinded};
use crate::library::store::{profiles, text_hash, Db, ProfileKey};
use crate::library::Library;
use crate::paper::{embedding_text, ArxivId};
use anyhow::{bail, Context, Result};
use std::path::Path;

use super::seed_files::{self, SeedInput};

/// How the seeds of one add were recognised: by an arXiv id, by their
/// title (and abstract) alone, or as a sentence of the reader's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Recognised {
    pub by_id: usize,
    pub title_only: usize,
    pub sentences: usize,
}

impl Recognised {
    pub fn of(seeds: &[SeedInput]) -> Recognised {
        let mut r = Recognised::default();
        for s in seeds {
            if s.origin == seed_files::SENTENCE {
                r.sentences += 1;
            } else if s.key.starts_with("text:") {
                r.title_only += 1;
            } else {
                r.by_id += 1;
            }
        }
        r
    }

    /// "2 by arXiv id, 1 by title only": what an add says of them.
    pub fn said(&self) -> String {
        let mut parts = Vec::new();
        if self.by_id > 0 {
            parts.push(format!("{} by arXiv id", self.by_id));
        }
        if self.title_only > 0 {
            parts.push(format!("{} by title only (no arXiv id found)", self.title_only));
        }
        if self.sentences > 0 {
            parts.push(format!("{} sentence{}", self.sentences, if self.sentences == 1 { "" } else { "s" }));
        }
        parts.join(", ")
    }
}

/// What the profile stage refuses, with its kind (crate::error).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{name:?} is not a profile name: use letters, digits, '-', '_' or '.' (at most 64)")]
    BadName { name: String },
    /// A seed named by an id the library does not have.
    #[error("{id} is not in the library; add --fetch to look it up on arXiv, ingest a listing that has it, or give its text with --title (and --abstract)")]
    NotInLibrary { id: String },
    /// The same, named on line `at` (`file:line`) of an id list.
    #[error("{at}: {id} is not in the library; add --fetch to look it up on arXiv, or ingest a listing that has it first")]
    ListedNotInLibrary { at: String, id: String },
}

impl Kinded for Error {
    fn kind(&self) -> Kind {
        match self {
            Error::BadName { .. } => Kind::BadInput,
            Error::NotInLibrary { .. } | Error::ListedNotInLibrary { .. } => Kind::NotFound,
        }
    }
}

pub use crate::library::store::profiles::Seed;

/// Reads each item: a file (BibTeX, CSL-JSON or a list of ids, told apart by
/// content; only when `files`, which a request from the network never is)
/// or an arXiv id, which must be in the library unless `title` is given
/// with it.
pub fn read_items(
    items: &[String],
    files: bool,
    lib: &Library,
    title: Option<&str>,
    abstract_text: Option<&str>,
) -> Result<Vec<SeedInput>> {
    let mut out = Vec::new();
    for item in items {
        let path = Path::new(item);
        if files && path.is_file() {
            let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {item}"))?;
            out.extend(read_file(&text, item, lib)?);
            continue;
        }
        let Some(id) = ArxivId::parse(item) else {
            bail!("{item}: neither a file nor an arXiv id");
        };
        match (lookup(lib, &id.id)?, title) {
            (_, Some(t)) => out.push(SeedInput {
                key: id.id.clone(),
                title: t.to_string(),
                abstract_text: abstract_text.unwrap_or_default().to_string(),
                origin: "command line".into(),
                date: None,
            }),
            (Some(seed), None) => out.push(seed),
            (None, None) => return Err(Error::NotInLibrary { id: id.id }.into()),
        }
    }
    Ok(out)
}

pub(super) fn lookup(lib: &Library, id: &str) -> Result<Option<SeedInput>> {
    Ok(lib.store.get_paper(id)?.map(|p| SeedInput {
        key: p.paper.id.clone(),
        title: p.paper.title,
        abstract_text: p.paper.abstract_text,
        origin: "library".into(),
        date: None,
    }))
}

/// Reads a seed file (see `seed_files::read`); the ids of a list must be
/// papers the library has.
fn read_file(text: &str, source: &str, lib: &Library) -> Result<Vec<SeedInput>> {
    seeds_of(seed_files::read(text, source)?, source, lib)
}

/// The seeds of a file already read: a list's ids must be papers the
/// library has, and an export's entry without an abstract borrows the
/// library's.
pub fn seeds_of(file: SeedFile, source: &str, lib: &Library) -> Result<Vec<SeedInput>> {
    let seeds = match file {
        SeedFile::Seeds(seeds) => seeds,
        SeedFile::Ids(ids) => {
            let mut seeds = Vec::new();
            for (line_no, id) in ids {
                match lookup(lib, &id.id)? {
                    Some(s) => seeds.push(s),
                    None => return Err(Error::ListedNotInLibrary { at: format!("{source}:{line_no}"), id: id.id }.into()),
                }
            }
            seeds
        }
    };
    // An export entry without an abstract borrows it from the library when
    // the library has that paper: a title alone embeds poorly.
    seeds
        .into_iter()
        .map(|s| {
            if s.abstract_text.is_empty() && !s.key.starts_with("text:") {
                if let Some(known) = lookup(lib, &s.key)? {
                    return Ok(SeedInput { origin: s.origin, date: s.date, ..known });
                }
            }
            Ok(s)
        })
        .collect()
}

/// How recent a seed is: the export's date when it has one, else an arXiv
/// id's month and number (newer ids are newer papers). Free text with no date
/// sorts oldest.
fn recency(s: &SeedInput) -> (String, u64) {
    if let Some(date) = &s.date {
        return (date.clone(), 0);
    }
    let Some(id) = ArxivId::parse(&s.key) else {
        return (String::new(), 0);
    };
    // `2507.07400` or `astro-ph/0601001`: YYMM then a serial number.
    let digits = id.id.rsplit('/').next().unwrap_or(&id.id).replace('.', "");
    let (Some(yy), Some(mm), Some(serial)) = (digits.get(..2), digits.get(2..4), digits.get(4..)) else {
        return (String::new(), 0);
    };
    let century = if yy >= "91" { "19" } else { "20" };
    (format!("{century}{yy}-{mm}"), serial.parse().unwrap_or(0))
}

/// Adds or updates seeds; a seed added again keeps its first date.
///
/// The decayed mean weights the newest seed most, and one `seed add` of an
/// export would give all its seeds the same time. So the seeds of one
/// addition are stamped a microsecond apart, the oldest paper first, and
/// "newest" means added last and, within one addition, the newest paper.
/// What [`add`] did: seeds the profile did not have, and seeds it had and
/// now holds as given (title, weight, sign).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Added {
    pub new: usize,
    pub updated: usize,
}

pub fn add(conn: Db<'_>, profile: &ProfileKey, seeds: &[SeedInput], weight: f32, negative: bool, now: &str) -> Result<Added> {
    let mut order: Vec<&SeedInput> = seeds.iter().collect();
    order.sort_by_cached_key(|s| recency(s));
    let start = chrono::DateTime::parse_from_rfc3339(now).ok();
    let stamp = |i: usize| match start {
        Some(t) => {
            (t + chrono::TimeDelta::microseconds(i as i64)).with_timezone(&chrono::Utc).to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
        }
        None => now.to_string(),
    };
    let mut added = Added { new: 0, updated: 0 };
    for (i, s) in order.into_iter().enumerate() {
        if profiles::has_seed(conn, profile, &s.key)? {
            added.updated += 1;
        } else {
            added.new += 1;
        }
        let seed = Seed {
            key: s.key.clone(),
            title: s.title.clone(),
            abstract_text: s.abstract_text.clone(),
            text_hash: text_hash(&embedding_text(&s.title, &s.abstract_text)),
            weight,
            negative,
            added: stamp(i),
            origin: s.origin.clone(),
            subjects: Vec::new(),
        };
        profiles::put_seed(conn, profile, &seed)?;
    }
    Ok(added)
}

pub fn list(conn: Db<'_>, profile: &ProfileKey) -> Result<Vec<Seed>> {
    profiles::seeds(conn, profile)
}

/// Removes seeds by key (arXiv ids may carry a version), and their ratings;
/// returns the keys not found.
pub fn remove(conn: Db<'_>, profile: &ProfileKey, keys: &[String]) -> Result<Vec<String>> {
    let mut missing = Vec::new();
    for key in keys {
        let key_norm = ArxivId::parse(key).map(|a| a.id).unwrap_or_else(|| key.clone());
        if !profiles::remove_seed(conn, profile, &key_norm)? {
            missing.push(key.clone());
        }
    }
    Ok(missing)
}

/// Changes a seed's weight; false when the profile has no such seed.
pub fn set_weight(conn: Db<'_>, profile: &ProfileKey, key: &str, weight: f32) -> Result<bool> {
    if !(weight.is_finite() && weight > 0.0 && weight <= 100.0) {
        bail!("a seed's weight is a number above 0 and at most 100, not {weight}");
    }
    profiles::set_seed_weight(conn, profile, key, weight)
}

/// Moves a seed (and its rating, if it came from one) to another profile,
/// replacing a seed with the same key there. False when there is no such seed.
pub fn move_seed(conn: Db<'_>, from: &ProfileKey, key: &str, to: &ProfileKey) -> Result<bool> {
    profiles::move_seed(conn, from, key, to)
}

/// Profile names appear in URLs and file names: keep them plain.
/// Where the profile's digest stops ([`crate::rank::Bar`]); the usual bar
/// until the reader moves it. A value this version does not know reads as
/// the usual bar.
pub fn bar(conn: Db<'_>, profile: &ProfileKey) -> Result<crate::rank::Bar> {
    Ok(profiles::setting(conn, profile, BAR)?.and_then(|v| crate::rank::Bar::parse(&v)).unwrap_or_default())
}

pub fn set_bar(conn: Db<'_>, profile: &ProfileKey, bar: crate::rank::Bar) -> Result<()> {
    profiles::set_setting(conn, profile, BAR, bar.name())
}

/// The settings key of the bar.
const BAR: &str = "bar";

pub fn check_profile_name(name: &str) -> Result<()> {
    if name.is_empty() || name.len() > 64 || !name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')) {
        return Err(Error::BadName { name: name.to_string() }.into());
    }
    Ok(())
}

/// Every profile that has seeds, ratings or filters, and `default`.
pub fn names(conn: Db<'_>) -> Result<Vec<ProfileKey>> {
    profiles::profile_keys(conn)
}

/// The profiles of `user` (`None`: a library without accounts) by the
/// names they see, with `always` first when it holds nothing yet.
pub fn names_for(conn: Db<'_>, user: Option<&str>, always: &str) -> Result<Vec<String>> {
    let mut names: Vec<String> = names(conn)?.iter().filter_map(|k| k.name_for(user).map(str::to_string)).collect();
    if !names.iter().any(|n| n == always) {
        names.insert(0, always.to_string());
    }
    Ok(names)
}

/// Seeds of `profile` whose text has no vector for `model`: (hash, text).
pub fn missing_vectors(conn: Db<'_>, profile: &ProfileKey, model: &str) -> Result<Vec<(Vec<u8>, String)>> {
    Ok(profiles::seeds_without_vector(conn, profile, model)?.into_iter().map(|(hash, t, a)| (hash, embedding_text(&t, &a))).collect())
}

/// Refuses a model other than the one the library's vectors are of.
pub fn check_model(store: &crate::library::store::Store, model: &str) -> Result<()> {
    let known = store.default_model()?;
    if let Some(k) = known.as_deref().filter(|k| *k != model) {
        bail!(crate::embed::model_mismatch(k, model));
    }
    Ok(())
}

/// Stores the vectors of seed texts (`texts` as [`missing_vectors`] gave
/// them, `vecs` in the same order) in one short transaction, so that a
/// caller can embed outside the library's write turn and store in pieces.
pub fn store_vectors(lib: &mut Library, model: &str, texts: &[(Vec<u8>, String)], vecs: &[Vec<f32>]) -> Result<()> {
    lib.store.set_default_model(model)?;
    let tx = lib.store.transaction()?;
    for ((hash, _), v) in texts.iter().zip(vecs) {
        crate::library::store::insert_vector(tx.db(), model, hash, v)?;
    }
    // A seed's text can be a paper's too: derived vector files must notice.
    crate::library::store::bump_generation(tx.db())?;
    tx.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_added_together_are_ordered_by_the_papers_age() {
        let dir = tempfile::tempdir().unwrap();
        let store = crate::library::store::Store::open(&dir.path().join("library.sqlite")).unwrap();
        let seed =
            |key: &str| SeedInput { key: key.into(), title: key.into(), abstract_text: String::new(), origin: "t".into(), date: None };
        let ids = ["2401.00001", "2507.07400", "astro-ph/0601001", "2507.00012"];
        let seeds: Vec<SeedInput> = ids.iter().map(|k| seed(k)).collect();
        add(store.db(), &ProfileKey::of(None, "p"), &seeds, 1.0, false, "2026-03-01T10:00:00Z").unwrap();
        let keys = |store: &crate::library::store::Store| {
            list(store.db(), &ProfileKey::of(None, "p")).unwrap().into_iter().map(|s| s.key).collect::<Vec<_>>()
        };
        assert_eq!(keys(&store), ["2507.07400", "2507.00012", "2401.00001", "astro-ph/0601001"]);
        // A later addition comes first, however old its paper.
        add(store.db(), &ProfileKey::of(None, "p"), &[seed("1501.00001")], 1.0, false, "2026-03-02T09:00:00Z").unwrap();
        assert_eq!(keys(&store)[0], "1501.00001");

        // The decayed mean then weights the newest paper of one addition most.
        let listed = list(store.db(), &ProfileKey::of(None, "p")).unwrap();
        let vectors: Vec<crate::rank::SeedVector> = listed
            .iter()
            .map(|s| crate::rank::SeedVector {
                label: s.key.clone(),
                vector: if s.key == "2507.07400" { vec![0.0, 1.0] } else { vec![1.0, 0.0] },
                terms: crate::rank::Terms::default(),
                subjects: Vec::new(),
                weight: 1.0,
                negative: false,
                rated: false,
                added: s.added.clone(),
            })
            .filter(|v| v.added.starts_with("2026-03-01"))
            .collect();
        let r = crate::rank::Ranker::new(crate::rank::Method::DecayedMean, vectors, &[]);
        // The newest of four weighs 1 of 1 + 1/1.30 + 1/1.48 + 1/1.60 (33%).
        let none = crate::rank::Terms::default();
        let score =
            |v: &[f32]| r.score_one(&crate::rank::Candidate { paper: &crate::paper::UNKNOWN, vector: v, terms: &none, own_seed: None });
        let newest_share = score(&[0.0, 1.0]) / (score(&[0.0, 1.0]) + score(&[1.0, 0.0]));
        assert!((newest_share - 0.326).abs() < 0.01, "{newest_share}");

        // An export's "added" date outranks the ids; a paper without an id
        // goes by its publication date.
        let bib = "@misc{a, title = {A}, eprint = {2507.07400}, dateadded = {2024-01-05 10:00:00}}\n\
                   @misc{b, title = {B}, eprint = {2401.00001}, dateadded = {2025-02-01}}\n\
                   @misc{c, title = {C}, year = {2024}, month = {jun}}";
        let seeds = crate::profile::parse_bibtex(bib, "z.bib").unwrap();
        assert_eq!(seeds.iter().map(|s| s.date.as_deref()).collect::<Vec<_>>(), [Some("2024-01-05"), Some("2025-02-01"), Some("2024-06")]);
        add(store.db(), &ProfileKey::of(None, "q"), &seeds, 1.0, false, "2026-03-03T09:00:00Z").unwrap();
        let q: Vec<String> = list(store.db(), &ProfileKey::of(None, "q")).unwrap().into_iter().map(|s| s.title).collect();
        assert_eq!(q, ["B", "C", "A"]);
    }
}
