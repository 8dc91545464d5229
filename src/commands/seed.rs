use crate::cli::{SeedAction, SeedArgs};
use crate::embed;
use crate::library::{self, Library};
use crate::profile::{self, SeedInput};
use anyhow::{bail, Result};
use std::io::Write;

/// Seeds are keyed by bare arXiv id (no version) or `text:…`.
fn seed_key(key: &str) -> String {
    crate::paper::ArxivId::parse(key).map(|a| a.id).unwrap_or_else(|| key.to_string())
}

pub fn run(args: &SeedArgs, verbose: bool) -> Result<()> {
    let dir = library::resolve_dir(args.library.library.as_deref())?;
    match &args.action {
        SeedAction::Add { items, text, title, abstract_text, negative, weight, fetch, fetch_opts } => {
            if !(weight.is_finite() && *weight > 0.0) {
                bail!("--weight must be a positive number");
            }
            if text.as_deref().is_some_and(|t| t.trim().is_empty()) {
                bail!("--text is empty; give the sentence to use as a seed");
            }
            let mut lib = Library::open_write_existing(&dir)?;
            if *fetch {
                let n = crate::commands::fetch::resolve_missing_ids(&mut lib, items, fetch_opts)?;
                if verbose && n > 0 {
                    eprintln!("{n} paper(s) looked up on arXiv and stored");
                }
            }
            let mut seeds = profile::read_items(items, &lib, title.as_deref(), abstract_text.as_deref())?;
            if let Some(t) = text {
                seeds.push(SeedInput::from_free_text(t));
            }
            let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
            let n = profile::add(lib.store.conn(), &args.profile, &seeds, *weight, *negative, &now)?;
            let embedded = embed_seeds(&mut lib, &args.profile, &args.model, verbose).map_err(|e| {
                e.context(format!(
                    "{n} seed(s) are stored in profile {:?} but not embedded; the same `seed add` with a working model embeds them",
                    args.profile
                ))
            })?;
            println!(
                "{n} {}seed(s) in profile {:?}; {embedded} embedded",
                if *negative { "negative " } else { "" },
                args.profile
            );
        }
        SeedAction::List { json } => {
            let lib = Library::open_read(&dir)?;
            let seeds = profile::list(lib.store.conn(), &args.profile)?;
            if *json {
                let mut out = std::io::stdout().lock();
                for s in &seeds {
                    serde_json::to_writer(&mut out, s)?;
                    out.write_all(b"\n")?;
                }
                return Ok(());
            }
            if seeds.is_empty() {
                println!("profile {:?} has no seeds; add some with `paperscout seed add`", args.profile);
            }
            for s in seeds {
                let mut notes = Vec::new();
                if s.negative {
                    notes.push("negative".to_string());
                }
                if s.weight != 1.0 {
                    notes.push(format!("weight {}", s.weight));
                }
                if s.abstract_text.is_empty() {
                    notes.push("title only".to_string());
                }
                let date = s.added.get(..10).unwrap_or(&s.added);
                println!(
                    "{:<18} {}  {}{}",
                    s.key,
                    date,
                    s.title,
                    if notes.is_empty() { String::new() } else { format!("  [{}]", notes.join(", ")) }
                );
            }
        }
        SeedAction::Weight { keys, weight } => {
            let not_found = format!("not seeds of profile {:?}", args.profile);
            super::change_each(&dir, keys, &not_found, |tx, key| profile::set_weight(tx, &args.profile, &seed_key(key), *weight))?;
            println!("{} seed(s) now weigh {weight}", keys.len());
        }
        SeedAction::Move { keys, to } => {
            let not_found = format!("not seeds of profile {:?}", args.profile);
            super::change_each(&dir, keys, &not_found, |tx, key| profile::move_seed(tx, &args.profile, &seed_key(key), to))?;
            println!("moved {} seed(s) to profile {to:?}", keys.len());
        }
        SeedAction::Rm { keys } => {
            let lib = Library::open_write_existing(&dir)?;
            let missing = profile::remove(lib.store.conn(), &args.profile, keys)?;
            if !missing.is_empty() {
                bail!("not seeds of profile {:?}: {}", args.profile, missing.join(", "));
            }
            println!("removed {} seed(s)", keys.len());
        }
    }
    Ok(())
}

/// Embeds the profile's seeds that have no vector for the library's model
/// (loading the model only when there is something to embed).
pub fn embed_seeds(lib: &mut Library, profile_name: &str, model: &crate::cli::ModelArgs, verbose: bool) -> Result<usize> {
    let known = lib.store.default_model()?;
    if let Some(m) = &known {
        if profile::missing_vectors(lib.store.conn(), profile_name, m)?.is_empty() {
            return Ok(0);
        }
    }
    let embedder = embed::load(&embed::args_for_library(model, known.as_deref()), verbose)?;
    profile::embed_missing(lib, profile_name, embedder.as_ref())
}
