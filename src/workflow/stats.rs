//! What a library holds, for `stats` and the server's `/stats`.

use crate::library::{human_bytes, IndexState, Library};
use anyhow::Result;
use serde::Serialize;
use std::path::Path;

#[derive(Debug, Clone, Serialize)]
pub struct ModelStats {
    pub model: String,
    pub vectors: i64,
    /// One line on the index: engine, rows covered, bytes on disk.
    pub index: String,
    pub derived: IndexState,
}

#[derive(Debug, Clone, Serialize)]
pub struct Stats {
    pub library: String,
    pub papers: i64,
    pub versions: i64,
    pub days: i64,
    pub first_day: Option<String>,
    pub last_day: Option<String>,
    pub models: Vec<ModelStats>,
    /// One line on the lexical index: engine, papers held, bytes, currency.
    pub lexical: String,
    pub profiles: Vec<ProfileStats>,
    pub disk_bytes: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct ProfileStats {
    /// The profile's key (`user/name` where there are accounts), or its
    /// owner's name for it in [`collect_for`].
    pub profile: String,
    #[serde(skip)]
    pub key: crate::library::store::ProfileKey,
    pub seeds: i64,
    pub liked: i64,
    pub not_interested: i64,
    pub filters: i64,
}

/// [`collect`], with only the profiles of `user` (`None`: a library without
/// accounts), each by the name its owner sees.
pub fn collect_for(lib: &Library, user: Option<&str>) -> Result<Stats> {
    let mut s = collect(lib)?;
    s.profiles.retain_mut(|p| match p.key.name_for(user) {
        Some(name) => {
            p.profile = name.to_string();
            true
        }
        None => false,
    });
    Ok(s)
}

pub fn collect(lib: &Library) -> Result<Stats> {
    let s = &lib.store;
    let (first_day, last_day) = s.listing_span()?;
    let totals = s.totals()?;
    let mut models = Vec::new();
    for (model, n) in s.vector_counts()? {
        let derived = lib.index_state(&model)?;
        models.push(ModelStats { model, vectors: n, index: derived.describe(), derived });
    }
    let mut profiles = Vec::new();
    for key in crate::profile::names(s.db())? {
        let c = crate::library::store::profiles::counts(s.db(), &key)?;
        profiles.push(ProfileStats {
            seeds: c.seeds,
            liked: c.liked,
            not_interested: c.not_interested,
            filters: c.filters,
            profile: key.to_string(),
            key,
        });
    }
    // As it stands: stats never builds or updates it.
    let lexical = match crate::library::lexical::LexicalIndex::open(&lib.lexical_dir()) {
        Ok(Some(ix)) => {
            let behind = crate::library::lexical::behind(ix.mark, s)?;
            format!(
                "{}: {} papers, {}{}",
                crate::library::lexical::ENGINE,
                ix.len(),
                human_bytes(ix.size(&lib.lexical_dir())),
                if behind { "; behind the database (the next ingest or query catches up)" } else { "" }
            )
        }
        Ok(None) => "none yet (the next ingest or query builds it)".to_string(),
        Err(e) => format!("unreadable ({e:#}); `paperscout doctor` rebuilds it"),
    };
    Ok(Stats {
        lexical,
        library: lib.dir.display().to_string(),
        papers: totals.papers,
        versions: totals.versions,
        days: totals.days,
        first_day,
        last_day,
        models,
        profiles,
        disk_bytes: dir_size(&lib.dir),
    })
}

fn dir_size(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    entries
        .filter_map(|e| e.ok())
        .map(|e| match e.metadata() {
            Ok(m) if m.is_dir() => dir_size(&e.path()),
            Ok(m) => m.len(),
            Err(_) => 0,
        })
        .sum()
}
