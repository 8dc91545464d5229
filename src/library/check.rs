//! `doctor`'s checks of the derived files: each is compared with what
//! it is built from, brought up to date when whole and rebuilt when not;
//! each check returns what it found and did, for `doctor` to print.

use super::vectors::FlatVectors;
use super::{index, lexical, lock_derived, sketch, Library, INDEX_FROM};
use anyhow::Result;
use sketch::Sketch;

impl Library {
    /// `doctor`'s check of the lexical index: readable, of this format, and
    /// holding exactly the database's papers up to its mark; else rebuilt.
    pub fn check_lexical(&self, rebuild: bool) -> Result<String> {
        let dir = self.lexical_dir();
        let why = match lexical::LexicalIndex::open(&dir) {
            _ if rebuild => "as asked".to_string(),
            Ok(None) => "missing".to_string(),
            Err(e) => format!("unreadable: {e:#}"),
            Ok(Some(ix)) => {
                let held = ix.rowids()?;
                let mut want = Vec::with_capacity(held.len());
                self.store.papers_after(0, |p| {
                    if p.rowid > ix.mark.through {
                        return Ok(false);
                    }
                    want.push(p.rowid);
                    Ok(true)
                })?;
                if held == want {
                    drop(ix);
                    let done = self.update_lexical(false)?;
                    let grown = if done.added + done.removed > 0 {
                        format!("; {} added, {} removed", done.added, done.removed)
                    } else {
                        String::new()
                    };
                    return Ok(format!("lexical index ok ({} papers{grown})", held.len()));
                }
                format!("damaged: {} papers where the database has {}", held.len(), want.len())
            }
        };
        let done = self.update_lexical(true)?;
        Ok(format!("lexical index rebuilt ({why}; {} papers)", done.added))
    }

    /// `doctor`'s check of the sketch: every row must be what its flat row
    /// gives; else it is written anew. None is needed below [`INDEX_FROM`].
    pub fn check_sketch(&self, flat: &FlatVectors, rebuild: bool) -> Result<String> {
        let path = self.sketch_path(&flat.model);
        if flat.count < INDEX_FROM && !path.exists() {
            return Ok(String::new());
        }
        let _lock = lock_derived(&self.model_dir(&flat.model))?;
        let why = match Sketch::open(&path, flat) {
            _ if rebuild => "as asked".to_string(),
            None if !path.exists() => "missing".to_string(),
            None => "of other rows".to_string(),
            Some(s) => match s.first_mismatch(flat) {
                Ok(None) => {
                    let added = sketch::extend(&path, flat)?;
                    let grown = if added > 0 { format!("; {added} added") } else { String::new() };
                    return Ok(format!("; sketch ok ({} rows{grown})", s.count));
                }
                Ok(Some(i)) => format!("damaged: row {i} differs from the vectors"),
                Err(e) => format!("unreadable: {e:#}"),
            },
        };
        sketch::rebuild(&path, flat)?;
        Ok(format!("; sketch rebuilt ({why})"))
    }

    /// `doctor`'s check of the flat vectors: every live row must be the
    /// database's paper and vector, in order. A file that is not is
    /// rebuilt from scratch. Returns the vectors and what was done.
    pub fn check_flat(&self, model: &str) -> Result<(FlatVectors, String)> {
        let path = self.flat_path(model);
        let why = match FlatVectors::open(&path) {
            Ok(f) if f.model != model => "of another model".to_string(),
            Ok(f) => match self.compare_flat(&f)? {
                None => {
                    let flat = self.sync_flat(model)?;
                    return Ok((flat, format!("vectors ok ({} rows, {} live)", f.count, f.live())));
                }
                Some(why) => why,
            },
            Err(_) if !path.exists() => "missing".to_string(),
            Err(e) => format!("unreadable: {e:#}"),
        };
        let dir = self.model_dir(model);
        {
            let _lock = lock_derived(&dir)?;
            let _ = std::fs::remove_file(&path);
        }
        let flat = self.sync_flat(model)?;
        Ok((flat, format!("vectors rebuilt ({why})")))
    }

    /// `None` when every live row of `flat` is what the database says, else why not.
    fn compare_flat(&self, flat: &FlatVectors) -> Result<Option<String>> {
        let snapshot = self.store.snapshot()?;
        let mut i = 0;
        let mut problem = None;
        self.store.rows_after(&flat.model, 0, |row| {
            if row.meta.rowid > flat.through {
                return Ok(false);
            }
            let Some(v) = row.vector else { return Ok(true) };
            while i < flat.count && !flat.is_live(i) {
                i += 1;
            }
            if i >= flat.count || flat.meta(i) != row.meta || flat.vector(i) != v {
                problem = Some(format!("damaged: row {i} differs from the database"));
                return Ok(false);
            }
            i += 1;
            Ok(true)
        })?;
        drop(snapshot);
        if problem.is_none() && (i..flat.count).any(|j| flat.is_live(j)) {
            problem = Some("damaged: it holds papers the database does not".to_string());
        }
        Ok(problem)
    }

    /// `doctor`'s check of the index: whole (its checksum), of this model,
    /// holding the rows it says; else rebuilt. Below [`INDEX_FROM`] vectors
    /// queries scan, so no index is built unless `rebuild` asks.
    pub fn check_index(&self, flat: &FlatVectors, rebuild: bool) -> Result<String> {
        let dir = self.index_dir(&flat.model);
        let why = match index::read_meta(&dir) {
            _ if rebuild => "as asked".to_string(),
            None if flat.count < INDEX_FROM => return Ok(format!("no index needed ({} vectors scan in milliseconds)", flat.count)),
            None => "missing".to_string(),
            Some(m) if !m.fits(flat) => "of other vectors".to_string(),
            Some(m) => match m
                .verify(&dir)
                .and_then(|()| index::open(&dir, flat).map_err(|e| format!("{e:#}"))?.ok_or_else(|| "unreadable".to_string()))
            {
                Ok(ix) => {
                    let want = (0..ix.meta.count).filter(|&i| flat.is_live(i)).count();
                    if ix.len() == want {
                        let grown = match self.update_index(flat, false)? {
                            index::Updated::Grown { added, removed } => format!("; {added} added, {removed} removed"),
                            _ => String::new(),
                        };
                        return Ok(format!("index ok ({} vectors{grown})", ix.len()));
                    }
                    format!("damaged: {} vectors for {want} rows", ix.len())
                }
                Err(e) => format!("damaged: {e}"),
            },
        };
        self.update_index(flat, true)?;
        Ok(format!("index rebuilt ({why})"))
    }
}

#[cfg(test)]
mod tests {
    use crate::library::index;
    use crate::library::test_support::embedded_library;

    /// doctor finds derived files damaged in place, same size and all.
    #[test]
    fn doctor_rebuilds_damaged_derived_files() {
        let (_dir, lib) = embedded_library(20);
        let flat = lib.flat_vectors("m").unwrap();
        drop(flat);
        assert_eq!(lib.check_flat("m").unwrap().1, "vectors ok (20 rows, 20 live)");

        let path = lib.flat_path("m");
        let mut bytes = std::fs::read(&path).unwrap();
        let n = bytes.len();
        bytes[n - 8..].copy_from_slice(&[0, 0, 0x80, 0x3f, 0, 0, 0, 0]);
        bytes[n - 16..n - 8].copy_from_slice(&[0, 0, 0, 0, 0, 0, 0x80, 0x3f]);
        std::fs::write(&path, &bytes).unwrap();
        let (flat, note) = lib.check_flat("m").unwrap();
        assert!(note.contains("rebuilt") && note.contains("differs from the database"), "{note}");
        assert_eq!(lib.check_flat("m").unwrap().1, "vectors ok (20 rows, 20 live)");

        // Small libraries need no index; doctor builds one when asked.
        assert!(lib.check_index(&flat, false).unwrap().starts_with("no index needed"));
        assert!(lib.check_index(&flat, true).unwrap().starts_with("index rebuilt (as asked)"));
        assert!(lib.check_index(&flat, false).unwrap().starts_with("index ok"));
        let idx = lib.index_dir("m");
        let file = index::read_meta(&idx).unwrap().path(&idx);
        let mut bytes = std::fs::read(&file).unwrap();
        let n = bytes.len();
        bytes[n / 2] ^= 0x55;
        std::fs::write(&file, &bytes).unwrap();
        let note = lib.check_index(&flat, false).unwrap();
        assert!(note.contains("rebuilt") && note.contains("checksum"), "{note}");
        assert!(lib.check_index(&flat, false).unwrap().starts_with("index ok"));
    }
}
