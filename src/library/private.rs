//! A library is its owner's alone: it holds password and session hashes,
//! CSRF tokens and every rating, so on a machine shared with other users
//! its directory is 0700 and its files 0600, whatever the umask.

use anyhow::{Context, Result};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// From here on, what this process creates is its user's alone: the
/// database, SQLite's WAL and shared-memory files, the vectors, and the
/// files usearch and tantivy write, which no call of ours could reach one
/// by one. Process-wide, as umask is.
pub fn restrict_new_files() {
    // SAFETY: umask only swaps the process's file-creation mask; it cannot fail.
    unsafe {
        libc::umask(0o077);
    }
}

/// A file or directory that group or others may use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exposed {
    pub path: PathBuf,
    pub mode: u32,
}

impl std::fmt::Display for Exposed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({:04o})", self.path.display(), self.mode & 0o7777)
    }
}

/// Everything in `dir`, `dir` included, that group or others may read,
/// write or enter (symbolic links are not followed).
pub fn exposed(dir: &Path) -> Result<Vec<Exposed>> {
    let mut found = Vec::new();
    walk(dir, &mut |path, mode| {
        if mode & 0o077 != 0 {
            found.push(Exposed { path: path.to_path_buf(), mode });
        }
        Ok(())
    })?;
    Ok(found)
}

/// Takes group's and others' rights away from everything in `dir`;
/// returns how many it changed.
pub fn make_private(dir: &Path) -> Result<usize> {
    let mut changed = 0;
    walk(dir, &mut |path, mode| {
        if mode & 0o077 != 0 {
            match std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode & 0o7700)) {
                Ok(()) => changed += 1,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(e).with_context(|| format!("cannot change the permissions of {}", path.display())),
            }
        }
        Ok(())
    })?;
    Ok(changed)
}

/// Visits `path` and what it holds; a file another process removed
/// meanwhile (an ingest's temporary files) is passed over.
fn walk(path: &Path, visit: &mut dyn FnMut(&Path, u32) -> Result<()>) -> Result<()> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    if meta.file_type().is_symlink() {
        return Ok(());
    }
    visit(path, meta.permissions().mode())?;
    if meta.is_dir() {
        let entries = match std::fs::read_dir(path) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        };
        for entry in entries {
            let entry = entry.with_context(|| format!("cannot read {}", path.display()))?;
            walk(&entry.path(), visit)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_others_may_read_is_found_and_made_private() {
        let dir = tempfile::tempdir().unwrap();
        let lib = dir.path().join("lib");
        std::fs::create_dir_all(lib.join("index")).unwrap();
        std::fs::write(lib.join("library.sqlite"), b"x").unwrap();
        std::fs::write(lib.join("index/meta.json"), b"{}").unwrap();
        for (p, mode) in [("", 0o755), ("index", 0o750), ("library.sqlite", 0o644), ("index/meta.json", 0o600)] {
            std::fs::set_permissions(lib.join(p), std::fs::Permissions::from_mode(mode)).unwrap();
        }
        let found: Vec<u32> = exposed(&lib).unwrap().iter().map(|e| e.mode & 0o777).collect();
        assert_eq!(found.len(), 3, "{found:?}");
        assert_eq!(make_private(&lib).unwrap(), 3);
        assert!(exposed(&lib).unwrap().is_empty());
        assert_eq!(std::fs::metadata(&lib).unwrap().permissions().mode() & 0o777, 0o700);
        assert_eq!(std::fs::metadata(lib.join("library.sqlite")).unwrap().permissions().mode() & 0o777, 0o600);
    }
}
