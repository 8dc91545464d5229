//! Who may use a shared library: accounts with argon2id password hashes,
//! the browser sessions they sign in to, and whose profiles are whose.
//!
//! Papers, vectors and indexes are shared; seeds, ratings, filters and seen
//! marks belong to a profile, and a user's profiles are stored under
//! `USER/NAME`. A profile name cannot hold a `/`, so no name of one user can
//! reach another's rows, and a library without accounts keeps its plain
//! names unchanged.

use crate::library::store::{self, Db, ProfileKey};
use anyhow::{bail, Context, Result};
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use sha2::{Digest, Sha256};
use std::sync::OnceLock;

pub use store::accounts::Removed;

/// How long a browser stays signed in without signing in again.
pub const SESSION_DAYS: i64 = 14;
/// Longer passwords are refused before hashing: argon2 reads all of it.
const MAX_PASSWORD: usize = 1024;
const MIN_PASSWORD: usize = 8;

pub fn check_user_name(name: &str) -> Result<()> {
    if name.is_empty()
        || name.len() > 32
        || name.starts_with('.')
        || !name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        bail!("{:?} is not a user name: use letters, digits, '-', '_' or '.' (at most 32)", clip(name));
    }
    Ok(())
}

fn clip(s: &str) -> String {
    s.chars().take(40).filter(|c| !c.is_control()).collect()
}

pub fn check_password(password: &str) -> Result<()> {
    if password.chars().count() < MIN_PASSWORD {
        bail!("a password has at least {MIN_PASSWORD} characters");
    }
    if password.len() > MAX_PASSWORD {
        bail!("a password has at most {MAX_PASSWORD} bytes");
    }
    Ok(())
}

/// Account names, in order; none in a library made before accounts.
pub fn names(conn: Db<'_>) -> Result<Vec<String>> {
    store::accounts::names(conn)
}

/// The profile a command acts on: `name` of `user`, else of the only
/// account, else (a library without accounts) `name` itself.
pub fn profile_for(conn: Db<'_>, user: Option<&str>, name: &str) -> Result<ProfileKey> {
    crate::profile::check_profile_name(name)?;
    let users = names(conn)?;
    match user {
        Some(u) => {
            check_user_name(u)?;
            if !users.iter().any(|x| x == u) {
                bail!("no user {u:?} in this library; add one with `paperscout user add {u}`");
            }
            Ok(ProfileKey::of(Some(u), name))
        }
        None => match users.as_slice() {
            [] => Ok(ProfileKey::of(None, name)),
            [only] => Ok(ProfileKey::of(Some(only), name)),
            many => bail!("this library has {} accounts ({}): say whose profile with --user NAME", many.len(), many.join(", ")),
        },
    }
}

fn hasher() -> Argon2<'static> {
    // argon2id, version 19, 19 MiB, 2 passes: OWASP's recommendation.
    Argon2::default()
}

fn hash_password(password: &str) -> Result<String> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| anyhow::anyhow!("no randomness for a password salt: {e}"))?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| anyhow::anyhow!("cannot encode a salt: {e}"))?;
    Ok(hasher().hash_password(password.as_bytes(), &salt).map_err(|e| anyhow::anyhow!("cannot hash the password: {e}"))?.to_string())
}

/// What adding an account made.
pub struct Added {
    /// The library's profiles it took over.
    pub adopted: Vec<String>,
    /// The key of its feed URL, shown this once (only its hash is kept).
    pub feed_key: String,
}

/// Adds an account. The first account of a library that has been used
/// without accounts takes over its profiles: they are its user's data.
pub fn add(conn: Db<'_>, name: &str, password: &str, now: &str) -> Result<Added> {
    check_user_name(name)?;
    check_password(password)?;
    let hash = hash_password(password)?;
    let feed_key = random_hex(16)?;
    match store::accounts::add(conn, name, &hash, &feed_hash(&feed_key), now)? {
        Some(adopted) => Ok(Added { adopted, feed_key }),
        None => bail!("user {name:?} exists already; change the password with `paperscout user passwd {name}`"),
    }
}

/// Removes an account, its sessions and everything its profiles held.
pub fn remove(conn: Db<'_>, name: &str) -> Result<Removed> {
    check_user_name(name)?;
    store::accounts::remove(conn, name)?.with_context(|| format!("no user {name:?} in this library"))
}

/// Sets a new password, signs the user out everywhere and gives the feed a
/// new key (the old URL may be what leaked; `rotate_feed_key` shows one).
pub fn set_password(conn: Db<'_>, name: &str, password: &str) -> Result<()> {
    check_user_name(name)?;
    check_password(password)?;
    let hash = hash_password(password)?;
    if !store::accounts::set_password(conn, name, &hash, &feed_hash(&random_hex(16)?))? {
        bail!("no user {name:?} in this library");
    }
    Ok(())
}

/// The stored password hash of `name`, if it is an account (a cheap
/// lookup; [`check_password_of`] does the costly part).
pub fn stored_hash(conn: Db<'_>, name: &str) -> Result<Option<String>> {
    if check_user_name(name).is_err() {
        return Ok(None);
    }
    store::accounts::password_hash(conn, name)
}

/// Whether `password` matches `stored` (an account's hash, from
/// [`stored_hash`]). No account costs the same time as a wrong password,
/// so timing does not tell which names exist.
pub fn check_password_of(name: &str, stored: Option<&str>, password: &str) -> Result<bool> {
    static DECOY: OnceLock<String> = OnceLock::new();
    let decoy = match DECOY.get() {
        Some(d) => d.as_str(),
        None => {
            let d = hash_password("a password that no account has")?;
            DECOY.get_or_init(|| d).as_str()
        }
    };
    let known = stored.is_some() && password.len() <= MAX_PASSWORD;
    let parsed = PasswordHash::new(stored.unwrap_or(decoy)).map_err(|e| anyhow::anyhow!("the stored hash of {name:?} is damaged: {e}"))?;
    let password = &password.as_bytes()[..password.len().min(MAX_PASSWORD)];
    let ok = hasher().verify_password(password, &parsed).is_ok();
    Ok(ok && known)
}

/// A signed-in browser.
#[derive(Debug, Clone)]
pub struct Session {
    pub user: String,
    /// Must come back with every write made from this session's pages.
    pub csrf: String,
}

/// What the library keeps of a feed key: its SHA-256, as of session
/// tokens, so that reading the file opens no one's feed.
fn feed_hash(key: &str) -> String {
    token_hash(key).iter().map(|b| format!("{b:02x}")).collect()
}

/// The user whose feed `key` opens.
pub fn feed_user(conn: Db<'_>, key: &str) -> Result<Option<String>> {
    if key.len() != 32 || !key.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(None);
    }
    store::accounts::feed_user(conn, &feed_hash(key))
}

/// Gives `name`'s feed a new key, which ends the old URL; returns the key,
/// to be shown this once.
pub fn rotate_feed_key(conn: Db<'_>, name: &str) -> Result<String> {
    let key = random_hex(16)?;
    if !store::accounts::set_feed(conn, name, &feed_hash(&key))? {
        bail!("no user {name:?} in this library");
    }
    Ok(key)
}

fn token_hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// `bytes` random bytes from the operating system, in hex: session and
/// feed keys, CSRF tokens, script nonces.
pub fn random_hex(bytes: usize) -> Result<String> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| anyhow::anyhow!("no randomness from the operating system: {e}"))?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

/// Starts a session for `user`, signed in from `network` (as the sign-in
/// throttle names one): the cookie's value (256 random bits; only its hash
/// is stored) and the session.
pub fn start_session(conn: Db<'_>, user: &str, now: i64, network: Option<&str>) -> Result<(String, Session)> {
    let token = random_hex(32)?;
    let csrf = random_hex(32)?;
    let row =
        store::accounts::SessionRow { token_hash: &token_hash(&token), user, csrf: &csrf, expires: now + SESSION_DAYS * 86_400, network };
    store::accounts::start_session(conn, &row, now).context("cannot store the session")?;
    Ok((token, Session { user: user.to_string(), csrf }))
}

/// The networks each user has a live session from: (user, network).
pub fn session_networks(conn: Db<'_>, now: i64) -> Result<Vec<(String, String)>> {
    store::accounts::session_networks(conn, now)
}

/// The live session a cookie names, if any.
pub fn session(conn: Db<'_>, token: &str, now: i64) -> Result<Option<Session>> {
    if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(None);
    }
    let found = store::accounts::session(conn, &token_hash(token), now)?;
    Ok(found.map(|(user, csrf)| Session { user, csrf }))
}

pub fn end_session(conn: Db<'_>, token: &str) -> Result<()> {
    store::accounts::end_session(conn, &token_hash(token))
}
