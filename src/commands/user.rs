use crate::accounts;
use crate::cli::{UserAction, UserArgs};
use crate::library::{self, Library};
use anyhow::{bail, Context, Result};
use std::path::Path;

pub fn run(args: &UserArgs) -> Result<()> {
    let dir = library::resolve_dir(args.library.library.as_deref())?;
    match &args.action {
        UserAction::Add { name, password_file } => {
            accounts::check_user_name(name)?;
            let password = password(password_file.as_deref(), name, true)?;
            let lib = Library::open_write_existing(&dir)?;
            let now = crate::library::store::now();
            let added = accounts::add(lib.store.db(), name, &password, &now)?;
            println!("user {name:?} added");
            if !added.adopted.is_empty() {
                println!("the library's profiles ({}) are now {name}'s", added.adopted.join(", "));
            }
            println!("{}", feed_line(&added.feed_key));
        }
        UserAction::List { json } => {
            let lib = Library::open_read(&dir)?;
            let names = accounts::names(lib.store.db())?;
            if *json {
                /// One line of `user list --json`.
                #[derive(serde::Serialize)]
                struct UserLine {
                    user: String,
                }
                crate::report::json::write_lines(&mut std::io::stdout().lock(), names.into_iter().map(|user| UserLine { user }))?;
                return Ok(());
            }
            if names.is_empty() {
                println!("no accounts: `serve` answers anyone who reaches it (on loopback only)");
            }
            for n in names {
                println!("{n}");
            }
        }
        UserAction::Rm { name } => {
            let lib = Library::open_write_existing(&dir)?;
            let r = accounts::remove(lib.store.db(), name)?;
            println!("user {name:?} removed, with {} profile rows and {} sessions", r.rows, r.sessions);
        }
        UserAction::Passwd { name, password_file } => {
            accounts::check_user_name(name)?;
            let lib = Library::open_write_existing(&dir)?;
            if !accounts::names(lib.store.db())?.contains(name) {
                bail!("no user {name:?} in this library");
            }
            let password = password(password_file.as_deref(), name, true)?;
            accounts::set_password(lib.store.db(), name, &password)?;
            println!("password of {name:?} changed; its browser sessions and its feed URL have ended");
        }
        UserAction::FeedKey { name, rotate } => {
            accounts::check_user_name(name)?;
            if !rotate {
                bail!("the feed key of {name:?} was shown when it was made; only its hash is kept. `--rotate` makes a new one (the old URL stops working)");
            }
            let lib = Library::open_write_existing(&dir)?;
            let key = accounts::rotate_feed_key(lib.store.db(), name)?;
            println!("{}", feed_line(&key));
        }
    }
    Ok(())
}

fn feed_line(key: &str) -> String {
    format!(
        "feed URL (shown once): /feed.atom?key={key} after the server's address; `paperscout user feed-key NAME --rotate` makes a new one"
    )
}

/// The new password: the first line of `file`, else asked for twice
/// without echo on the terminal.
fn password(file: Option<&Path>, name: &str, confirm: bool) -> Result<String> {
    if let Some(f) = file {
        let text = std::fs::read_to_string(f).with_context(|| format!("cannot read the password file {}", f.display()))?;
        let first = text.strip_prefix('\u{feff}').unwrap_or(&text).lines().next().unwrap_or("");
        accounts::check_password(first).with_context(|| format!("{}", f.display()))?;
        return Ok(first.to_string());
    }
    let p = rpassword::prompt_password(format!("password for {name}: "))
        .context("cannot read a password (give --password-file FILE when there is no terminal)")?;
    accounts::check_password(&p)?;
    if confirm {
        let again = rpassword::prompt_password("again: ").context("cannot read a password")?;
        if again != p {
            bail!("the two passwords differ; nothing changed");
        }
    }
    Ok(p)
}
