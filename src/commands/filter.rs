use crate::cli::{FilterAction, FilterArgs};
use crate::library::store::ProfileKey;
use crate::library::{self, Library};
use crate::profile::filters;
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
                added += usize::from(filters::add(&tx, profile, *rule, v)?);
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
        FilterAction::List { json } => {
            let rules = filters::list(lib.store.conn(), profile)?;
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
