//! One function per subcommand: each reads its inputs, drives the pipeline
//! stages and hands results to `report`. Nothing here parses or embeds itself.

pub mod daily;
pub mod doctor;
pub mod embed;
pub mod eval;
pub mod export;
pub mod fetch;
pub mod filter;
pub mod ingest;
pub mod like;
pub mod parse;
pub mod rate;
pub mod search;
pub mod seed;
pub mod serve;
pub mod stats;
pub mod user;

use crate::cli::{Cli, Command};
use crate::library::store::Db;
use crate::library::store::ProfileKey;

/// Whether `e` comes from writing to a pipe whose reader has gone.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| cause.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe))
}

pub fn run(cli: Cli) -> anyhow::Result<()> {
    let doctor = matches!(cli.command, Command::Doctor(_));
    let result = dispatch(cli);
    // A damaged database surfaces in whichever query reads the damage
    // first; name the file and the command that checks it.
    if doctor {
        result
    } else {
        result.map_err(crate::library::store::explain)
    }
}

fn dispatch(cli: Cli) -> anyhow::Result<()> {
    crate::messages::set_level(if cli.verbose { crate::messages::Level::Verbose } else { crate::messages::Level::Normal });
    // A server's stderr is its log: no bars in it.
    crate::messages::show_progress(!matches!(cli.command, Command::Serve(_)));
    // A profile is named the same way for one user or many; in a library
    // with accounts it is stored under its user's name.
    match cli.command {
        Command::Parse(args) => parse::run(&args),
        Command::Embed(args) => embed::run(&args),
        Command::Ingest(args) => ingest::run(&args),
        Command::Export(args) => export::run(&args),
        Command::Like(args) => like::run(&args),
        Command::Search(args) => search::run(&args),
        Command::Stats(args) => stats::run(&args),
        Command::Doctor(args) => doctor::run(&args),
        Command::Eval(args) => eval::run(&args),
        Command::Seed(args) => seed::run(&args, &own(&args.profile, &args.owner, &args.library)?),
        Command::Daily(args) => daily::run(&args, &own(&args.profile, &args.owner, &args.library)?),
        Command::Fetch(args) => fetch::run(&args),
        Command::Rate(args) => rate::run(&args, &own(&args.profile, &args.owner, &args.library)?),
        Command::Filter(args) => filter::run(&args, &own(&args.profile, &args.owner, &args.library)?),
        Command::Serve(args) => serve::run(&args),
        Command::User(args) => user::run(&args),
    }
}

/// The profile `name` as the library stores it for `owner` (see `accounts`).
pub(super) fn own(name: &str, owner: &crate::cli::OwnerArgs, library: &crate::cli::LibraryArgs) -> anyhow::Result<ProfileKey> {
    let dir = crate::library::resolve_dir(library.library.as_deref())?;
    if !dir.join("library.sqlite").exists() {
        // A library still to be made has no accounts yet.
        if let Some(u) = &owner.user {
            anyhow::bail!("no user {u:?}: there is no library at {} yet", dir.display());
        }
        crate::profile::check_profile_name(name)?;
        return Ok(ProfileKey::of(None, name));
    }
    let lib = crate::library::Library::open_read(&dir)?;
    crate::accounts::profile_for(lib.store.db(), owner.user.as_deref(), name)
}

/// Applies `change` to each of `keys` in one transaction of the existing
/// library at `dir`. When `change` finds any of them missing, nothing is
/// changed and the error (`not_found: …`) names every missing key.
pub fn change_each(
    dir: &std::path::Path,
    keys: &[String],
    not_found: &str,
    change: impl Fn(Db<'_>, &str) -> anyhow::Result<bool>,
) -> anyhow::Result<()> {
    let mut lib = crate::library::Library::open_write_existing(dir)?;
    let tx = lib.store.transaction()?;
    let mut missing = Vec::new();
    for key in keys {
        if !change(tx.db(), key)? {
            missing.push(key.as_str());
        }
    }
    if !missing.is_empty() {
        anyhow::bail!("{not_found}: {}", missing.join(", "));
    }
    tx.commit()?;
    Ok(())
}
