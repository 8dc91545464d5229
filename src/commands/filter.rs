use crate::cli::{BarMove, FilterAction, FilterArgs};
use crate::library::store::ProfileKey;
use crate::library::{self, Library};
use crate::profile::filters;
use crate::rank::Bar;
use anyhow::Result;
use std::io::Write;

pub fn run(args: &FilterArgs, profile: &ProfileKey) -> Result<()> {
    let dir = library::resolve_dir(args.library.library.as_deref())?;
    // Read first: a mistyped --library must not create an empty library.
    let lib = Library::open_read(&dir)?;
    match &args.action {
        FilterAction::Add { rule, values } => {
            for v in values {
                filters::normalise(*rule, v)?;
            }
            drop(lib);
            let mut lib = Library::open_write_existing(&dir)?;
            let tx = lib.store.transaction()?;
            let mut added = 0;
            for v in values {
                added += usize::from(filters::add(tx.db(), profile, *rule, v)?);
            }
            tx.commit()?;
            println!("{added} {rule} rule(s) added to profile {:?}", profile.as_str());
        }
        FilterAction::Rm { rule, values } => {
            drop(lib);
            let not_found = format!("not {rule} rules of profile {:?}", profile.as_str());
            super::change_each(&dir, values, &not_found, |tx, v| filters::remove(tx, profile, *rule, v))?;
            println!("removed {} {rule} rule(s)", values.len());
        }
        FilterAction::Bar { to } => {
            let now = crate::profile::bar(lib.store.db(), profile)?;
            let Some(to) = to else {
                println!("profile {:?}: the {} bar ({})", profile.as_str(), now.name(), bar_meaning(now));
                return Ok(());
            };
            let next = match to {
                BarMove::Strict => Bar::Strict,
                BarMove::Usual => Bar::Usual,
                BarMove::Loose => Bar::Loose,
                BarMove::Stricter => now.stricter(),
                BarMove::Looser => now.looser(),
            };
            drop(lib);
            let lib = Library::open_write_existing(&dir)?;
            crate::profile::set_bar(lib.store.db(), profile, next)?;
            println!("profile {:?}: the {} bar ({}), was {}", profile.as_str(), next.name(), bar_meaning(next), now.name());
        }
        FilterAction::List { json } => {
            let rules = filters::list(lib.store.db(), profile)?;
            let mut out = std::io::stdout().lock();
            if *json {
                for r in &rules {
                    serde_json::to_writer(&mut out, r)?;
                    out.write_all(b"\n")?;
                }
            } else if rules.is_empty() {
                writeln!(out, "profile {:?} has no filters", profile.as_str())?;
            } else {
                for r in &rules {
                    writeln!(out, "{:<8} {}", r.rule, r.value)?;
                }
            }
        }
    }
    Ok(())
}

/// What a bar lets lead, in words.
fn bar_meaning(bar: Bar) -> &'static str {
    match bar {
        Bar::Strict => "strong picks lead",
        Bar::Usual => "strong and worth-a-look picks lead",
        Bar::Loose => "the top leads whatever its strength",
    }
}
