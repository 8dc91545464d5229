//! A damaged database file, named: found when it is opened or by a later
//! query, and explained with the command that checks it.

use rusqlite::ErrorCode;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The database last opened, for naming it in errors that surface later.
static OPENED: Mutex<Option<PathBuf>> = Mutex::new(None);

fn is_damage(e: &rusqlite::Error) -> bool {
    matches!(e.sqlite_error_code(), Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase))
}

/// A database file SQLite finds damaged, named.
#[derive(Debug, thiserror::Error)]
#[error("the library database {} is damaged ({reason})", path.display())]
pub struct Damaged {
    pub path: PathBuf,
    pub reason: String,
}

impl Damaged {
    /// The library directory, for the command that checks it.
    pub fn dir(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new("."))
    }
}

fn damaged(path: &Path, e: &rusqlite::Error) -> anyhow::Error {
    anyhow::Error::new(Damaged { path: path.to_path_buf(), reason: e.to_string() })
}

/// The damaged database behind `e`, if that is what `e` comes from: found
/// when it was opened, or by a later query.
pub fn damage(e: &anyhow::Error) -> Option<Damaged> {
    if let Some(d) = e.chain().find_map(|c| c.downcast_ref::<Damaged>()) {
        return Some(Damaged { path: d.path.clone(), reason: d.reason.clone() });
    }
    let sql = e.chain().find_map(|c| c.downcast_ref::<rusqlite::Error>()).filter(|s| is_damage(s))?;
    let path = OPENED.lock().ok().and_then(|p| p.clone())?;
    Some(Damaged { path, reason: sql.to_string() })
}

/// Names the database and suggests `doctor` when `e` comes from a damaged
/// database file.
pub fn explain(e: anyhow::Error) -> anyhow::Error {
    match damage(&e) {
        Some(d) => anyhow::anyhow!("{d}; `paperscout doctor --library {}` checks it", d.dir().display()),
        None => e,
    }
}

pub(super) fn remember(path: &Path) {
    if let Ok(mut p) = OPENED.lock() {
        *p = Some(path.to_path_buf());
    }
}

/// `Err` of a first statement, as one line naming the file.
pub(super) fn open_error(path: &Path, e: rusqlite::Error) -> anyhow::Error {
    if is_damage(&e) {
        damaged(path, &e)
    } else {
        anyhow::Error::new(e).context(format!("cannot open library database {}", path.display()))
    }
}
