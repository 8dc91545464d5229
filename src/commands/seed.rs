use crate::cli::{SeedAction, SeedArgs};
use crate::embed;
use crate::library::{self, store, Library};
use crate::profile::{self, SeedInput};
use anyhow::{bail, Result};

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
        SeedAction::List => {
            let lib = Library::open_read(&dir)?;
            let seeds = profile::list(lib.store.conn(), &args.profile)?;
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
    let id = embedder.model_id().to_string();
    if known.as_deref().is_some_and(|k| k != id) {
        bail!(embed::model_mismatch(&known.unwrap_or_default(), &id));
    }
    lib.store.set_default_model(&id)?;
    let missing = profile::missing_vectors(lib.store.conn(), profile_name, &id)?;
    let texts: Vec<&str> = missing.iter().map(|(_, t)| t.as_str()).collect();
    let vecs = embedder.embed(&texts, &|_| {})?;
    let tx = lib.store.transaction()?;
    for ((hash, _), v) in missing.iter().zip(&vecs) {
        store::insert_vector(&tx, &id, hash, v)?;
    }
    // A seed's text can be a paper's too: derived vector files must notice.
    store::bump_generation(&tx)?;
    tx.commit()?;
    Ok(missing.len())
}
