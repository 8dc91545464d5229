//! Temp files, through which a file is replaced whole (written beside it,
//! then renamed into place): named so that concurrent writers never share
//! one, and removed once a killed writer's are stale.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// A temp file next to `path` that no other process or thread uses:
/// concurrent rebuilders each write their own and rename it into place.
pub(crate) fn temp_path(path: &Path) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    path.with_file_name(format!("{name}.tmp-{}", unique_suffix()))
}

/// Process id plus a per-call random part.
pub(crate) fn unique_suffix() -> String {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(CALLS.fetch_add(1, Ordering::Relaxed));
    if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(t.as_nanos());
    }
    format!("{}-{:016x}", std::process::id(), h.finish())
}

/// Temp files of `path` left by killed processes: an hour old, so no live
/// writer can still be using one.
pub(crate) fn remove_stale_temps(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else { return };
    let prefix = format!("{}.tmp-", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let old =
            e.metadata().and_then(|m| m.modified()).ok().and_then(|t| t.elapsed().ok()).is_some_and(|age| age > Duration::from_secs(3600));
        if old && e.file_name().to_string_lossy().starts_with(&prefix) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}
