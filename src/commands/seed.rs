use crate::cli::{SeedAction, SeedArgs, SeedFormat, SyncSource, ZoteroArgs};
use crate::library::store::profiles::SeedKind;
use crate::library::store::ProfileKey;
use crate::library::{self, Library};
use crate::profile::{self, zotero};
use crate::report;
use crate::workflow::seeds::{self, SeedRequest};
use anyhow::{bail, Context, Result};
use std::io::Write;

/// Seeds are keyed by bare arXiv id (no version) or `text:…`.
fn seed_key(key: &str) -> String {
    crate::paper::ArxivId::parse(key).map(|a| a.id).unwrap_or_else(|| key.to_string())
}

pub fn run(args: &SeedArgs, owned: &ProfileKey) -> Result<()> {
    let dir = library::resolve_dir(args.library.library.as_deref())?;
    match &args.action {
        SeedAction::Add { items, text, title, abstract_text, negative, weight, fetch, fetch_opts } => {
            let request = SeedRequest {
                items,
                files: true,
                text: text.as_deref(),
                title: title.as_deref(),
                abstract_text: abstract_text.as_deref(),
                weight: *weight,
                negative: *negative,
                fetch: fetch.then_some(fetch_opts),
            };
            request.check()?;
            let mut lib = Library::open_write_existing(&dir)?;
            let done = seeds::add(&mut lib, owned, &request, &args.model)?;
            println!("{}", added_line(&done, *negative, owned));
        }
        SeedAction::List { json, format } => {
            let lib = Library::open_read(&dir)?;
            let seeds = profile::list(lib.store.db(), owned)?;
            let format = if *json { SeedFormat::Json } else { *format };
            let mut out = std::io::stdout().lock();
            match format {
                SeedFormat::Table => {}
                SeedFormat::Json => {
                    for s in &seeds {
                        serde_json::to_writer(&mut out, s)?;
                        out.write_all(b"\n")?;
                    }
                    return Ok(());
                }
                SeedFormat::Bibtex => return Ok(report::cite::bibtex(&mut out, &report::cite::of_seeds(&seeds))?),
                SeedFormat::Ris => return Ok(report::cite::ris(&mut out, &report::cite::of_seeds(&seeds))?),
            }
            if seeds.is_empty() {
                println!("profile {:?} has no seeds; add some with `paperscout seed add`", owned.as_str());
            }
            for s in seeds {
                let mut notes = Vec::new();
                if s.negative {
                    notes.push("negative".to_string());
                }
                if s.weight != 1.0 {
                    notes.push(format!("weight {}", s.weight));
                }
                match s.kind() {
                    kind @ (SeedKind::Sentence | SeedKind::TitleOnly) => notes.push(kind.label().to_string()),
                    SeedKind::Paper if s.abstract_text.is_empty() => notes.push("title only".to_string()),
                    SeedKind::Paper => {}
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
        SeedAction::Sync { source: SyncSource::Zotero(z) } => sync_zotero(&dir, z, args, owned)?,
        SeedAction::Weight { keys, weight } => {
            let not_found = format!("not seeds of profile {:?}", owned.as_str());
            super::change_each(&dir, keys, &not_found, |tx, key| profile::set_weight(tx, owned, &seed_key(key), *weight))?;
            println!("{} seed(s) now weigh {weight}", keys.len());
        }
        SeedAction::Move { keys, to } => {
            let to_key = super::own(to, &args.owner, &args.library)?;
            let not_found = format!("not seeds of profile {:?}", owned.as_str());
            super::change_each(&dir, keys, &not_found, |tx, key| profile::move_seed(tx, owned, &seed_key(key), &to_key))?;
            println!("moved {} seed(s) to profile {:?}", keys.len(), to_key.as_str());
        }
        SeedAction::Rm { keys } => {
            let lib = Library::open_write_existing(&dir)?;
            let missing = profile::remove(lib.store.db(), owned, keys)?;
            if !missing.is_empty() {
                bail!("not seeds of profile {:?}: {}", args.profile, missing.join(", "));
            }
            println!("removed {} seed(s)", keys.len());
        }
    }
    Ok(())
}

/// `seed sync zotero`: the profile's Zotero seeds made to match the database.
fn sync_zotero(dir: &std::path::Path, z: &ZoteroArgs, args: &SeedArgs, owned: &ProfileKey) -> Result<()> {
    let db = match &z.db {
        Some(p) => p.clone(),
        None => dirs::home_dir().context("no home directory to find ~/Zotero/zotero.sqlite in; give --db")?.join("Zotero/zotero.sqlite"),
    };
    let sel = zotero::Selection::new(&z.collections)?;
    let mut lib = if z.dry_run { Library::open_read(dir)? } else { Library::open_write_existing(dir)? };
    let (items, untitled) = zotero::read(&db, &sel, &lib)?;
    let found = items.len();
    let with_id = items.iter().filter(|i| !i.seed.key.starts_with("text:")).count();
    let plan = zotero::plan(lib.store.db(), owned, items)?;
    let mut out = std::io::stdout().lock();
    if z.dry_run || crate::messages::verbose() {
        for i in &plan.add {
            writeln!(out, "+ {:<18} {}", i.seed.key, i.seed.title)?;
        }
        for i in &plan.update {
            writeln!(out, "~ {:<18} {}", i.seed.key, i.seed.title)?;
        }
        for (key, title) in &plan.remove {
            writeln!(out, "- {key:<18} {title}")?;
        }
    }
    let verb = if z.dry_run { "would add" } else { "added" };
    let mut line = format!(
        "zotero: {found} paper(s) ({with_id} with an arXiv id); {verb} {}, updated {}, removed {} seed(s) of profile {:?}",
        plan.add.len(),
        plan.update.len(),
        plan.remove.len(),
        owned.as_str()
    );
    if plan.by_hand > 0 {
        line.push_str(&format!("; {} already seeds added otherwise, left alone", plan.by_hand));
    }
    if untitled > 0 {
        line.push_str(&format!("; {untitled} without a title skipped"));
    }
    if z.dry_run {
        writeln!(out, "{line} (dry run: nothing changed)")?;
        return Ok(());
    }
    zotero::apply(&mut lib, owned, &plan)?;
    let embedded = seeds::embed_seeds(&mut lib, owned, &args.model).map_err(|e| {
        e.context(format!(
            "the seeds are stored in profile {:?} but not embedded; the same sync with a working model embeds them",
            owned.as_str()
        ))
    })?;
    writeln!(out, "{line}; {embedded} embedded")?;
    Ok(())
}

/// What `seed add` did, in words that match it: how many seeds were new
/// and how many were already there, and whether any text had to be
/// embedded (a library paper's seed reuses the paper's vector).
fn added_line(done: &seeds::SeedsAdded, negative: bool, profile: &ProfileKey) -> String {
    let (added, embedded) = (done.added, done.embedded);
    let kind = if negative { "negative seed(s)" } else { "seed(s)" };
    let mut parts = vec![format!("{} new {kind}", added.new)];
    if added.updated > 0 {
        parts.push(format!("{} already there, updated", added.updated));
    }
    let vectors = match embedded {
        0 => "no text needed embedding".to_string(),
        n => format!("{n} embedded"),
    };
    let how = done.recognised.said();
    let how = if how.is_empty() { String::new() } else { format!(" ({how})") };
    format!("profile {:?}: {}{how}; {vectors}", profile.as_str(), parts.join(", "))
}
