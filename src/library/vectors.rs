//! A flat, memory-mapped copy of one model's vectors, derived from the
//! database. One-shot queries (`like ID`) scan it exactly: 75k × 384 floats
//! is ~115 MB of page cache and a scan takes milliseconds, far less than
//! reloading an HNSW graph would.
//!
//! Layout (little-endian): a 512-byte header (magic, dim, count, generation,
//! SHA-256 of the rest of the file, model id), `count` i64 paper rowids, then
//! `count × dim` f32. Queries trust the header; `doctor` checks the sum.

use anyhow::{bail, Context, Result};
use memmap2::Mmap;
use sha2::{Digest, Sha256};
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// 002 added the checksum; older files fail the magic test and are rebuilt.
const MAGIC: &[u8; 8] = b"PSVEC002";
const HEADER: usize = 512;
const SUM_AT: usize = 32;
const MODEL_AT: usize = 68;

pub struct FlatVectors {
    storage: Storage,
    pub dim: usize,
    pub count: usize,
    pub generation: i64,
    pub model: String,
    checksum: [u8; 32],
}

/// A shared file, or a private copy for a reader that could not (or need
/// not) publish what it rebuilt.
enum Storage {
    Mapped(Mmap),
    Owned { rowids: Vec<i64>, data: Vec<f32> },
}

fn checksum(generation: i64, dim: usize, model: &str, rowids: &[i64], data: &[f32]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(generation.to_le_bytes());
    h.update((dim as u64).to_le_bytes());
    h.update(model.as_bytes());
    body_hash(&mut h, rowids.iter().map(|r| r.to_le_bytes()), data);
    h.finalize().into()
}

fn body_hash(h: &mut Sha256, rowids: impl Iterator<Item = [u8; 8]>, data: &[f32]) {
    for r in rowids {
        h.update(r);
    }
    // Hashing in blocks keeps the sum of a 100 MB file at memory speed.
    let mut buf = Vec::with_capacity(1 << 16);
    for chunk in data.chunks(1 << 14) {
        buf.clear();
        buf.extend(chunk.iter().flat_map(|x| x.to_le_bytes()));
        h.update(&buf);
    }
}

/// Writes rowids and vectors to `path` atomically: a temp file of this
/// process's own (so concurrent rebuilders never share one), fsync, rename.
/// A reader or a killed writer never sees half a file, and a reader that has
/// the old file mapped keeps reading it.
pub fn write(path: &Path, model: &str, generation: i64, dim: usize, rowids: &[i64], data: &[f32]) -> Result<()> {
    if data.len() != rowids.len() * dim || model.len() > HEADER - MODEL_AT {
        bail!("inconsistent vector table for {}", path.display());
    }
    let tmp = super::temp_path(path);
    let written = write_file(&tmp, model, generation, dim, rowids, data);
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    // A newer file may have landed while this one was built; keep it.
    if let Ok(cur) = FlatVectors::open(path) {
        if cur.model == model && cur.generation > generation {
            let _ = std::fs::remove_file(&tmp);
            return Ok(());
        }
    }
    if let Err(e) = std::fs::rename(&tmp, path) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e).with_context(|| format!("cannot replace {}", path.display()));
    }
    super::remove_stale_temps(path);
    Ok(())
}

fn write_file(tmp: &Path, model: &str, generation: i64, dim: usize, rowids: &[i64], data: &[f32]) -> Result<()> {
    let file = File::create(tmp).with_context(|| format!("cannot write {}", tmp.display()))?;
    let mut w = BufWriter::with_capacity(1 << 20, file);
    let mut header = vec![0u8; HEADER];
    header[..8].copy_from_slice(MAGIC);
    header[8..16].copy_from_slice(&(dim as u64).to_le_bytes());
    header[16..24].copy_from_slice(&(rowids.len() as u64).to_le_bytes());
    header[24..32].copy_from_slice(&generation.to_le_bytes());
    header[SUM_AT..SUM_AT + 32].copy_from_slice(&checksum(generation, dim, model, rowids, data));
    header[64..68].copy_from_slice(&(model.len() as u32).to_le_bytes());
    header[MODEL_AT..MODEL_AT + model.len()].copy_from_slice(model.as_bytes());
    let io = |e: std::io::Error| anyhow::Error::new(e).context(format!("cannot write {}", tmp.display()));
    w.write_all(&header).map_err(io)?;
    for r in rowids {
        w.write_all(&r.to_le_bytes()).map_err(io)?;
    }
    for x in data {
        w.write_all(&x.to_le_bytes()).map_err(io)?;
    }
    let file = w.into_inner().map_err(|e| io(e.into_error()))?;
    file.sync_all().map_err(io)?;
    Ok(())
}

impl FlatVectors {
    /// Opens the file; any inconsistency of shape is an error (the caller
    /// rebuilds). The checksum is left to [`FlatVectors::verify`].
    pub fn open(path: &Path) -> Result<FlatVectors> {
        let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        // SAFETY: the file is only ever replaced by rename, never written in
        // place, so the mapped bytes cannot change under us.
        let map = unsafe { Mmap::map(&file) }.with_context(|| format!("cannot map {}", path.display()))?;
        if map.len() >= 8 && &map[..5] == b"PSVEC" && &map[..8] != MAGIC {
            bail!("{} is from another version of paperscout", path.display());
        }
        if map.len() < HEADER || &map[..8] != MAGIC {
            bail!("{} is not a paperscout vector file", path.display());
        }
        let u64_at = |o: usize| u64::from_le_bytes(map[o..o + 8].try_into().unwrap_or([0; 8]));
        let dim = u64_at(8) as usize;
        let count = u64_at(16) as usize;
        let generation = u64_at(24) as i64;
        let checksum: [u8; 32] = map[SUM_AT..SUM_AT + 32].try_into().unwrap_or([0; 32]);
        let model_len = u32::from_le_bytes(map[64..68].try_into().unwrap_or([0; 4])) as usize;
        if model_len > HEADER - MODEL_AT {
            bail!("{} has a broken header", path.display());
        }
        let model = String::from_utf8_lossy(&map[MODEL_AT..MODEL_AT + model_len]).into_owned();
        let expected = count
            .checked_mul(dim)
            .and_then(|n| n.checked_add(count)) // rowids are two floats wide
            .and_then(|n| n.checked_add(count))
            .and_then(|n| n.checked_mul(4))
            .and_then(|n| n.checked_add(HEADER));
        if dim == 0 || expected != Some(map.len()) {
            bail!("{} is truncated or has a broken header", path.display());
        }
        Ok(FlatVectors { storage: Storage::Mapped(map), dim, count, generation, model, checksum })
    }

    /// Vectors held in memory only (`data` is `rowids.len() × dim`).
    pub fn in_memory(model: &str, generation: i64, dim: usize, rowids: Vec<i64>, data: Vec<f32>) -> FlatVectors {
        let dim = dim.max(1);
        let count = rowids.len().min(data.len() / dim);
        FlatVectors {
            storage: Storage::Owned { rowids, data },
            dim,
            count,
            generation,
            model: model.to_string(),
            // Nothing to check a copy in memory against; `save` sums it.
            checksum: [0; 32],
        }
    }

    /// Writes these vectors to `path` (atomically, as [`write`]).
    pub fn save(&self, path: &Path) -> Result<()> {
        let rowids: Vec<i64> = self.rowids().collect();
        write(path, &self.model, self.generation, self.dim, &rowids, self.data())
    }

    /// Whether the contents still match the checksum written with them:
    /// a file damaged in place keeps its size and header, and only this
    /// tells it from a good one.
    pub fn verify(&self) -> bool {
        if let Storage::Owned { .. } = self.storage {
            return true;
        }
        let rowids: Vec<i64> = self.rowids().collect();
        checksum(self.generation, self.dim, &self.model, &rowids, self.data()) == self.checksum
    }

    pub fn rowid(&self, i: usize) -> i64 {
        match &self.storage {
            Storage::Mapped(map) => {
                let o = HEADER + i * 8;
                i64::from_le_bytes(map[o..o + 8].try_into().unwrap_or([0; 8]))
            }
            Storage::Owned { rowids, .. } => rowids[i],
        }
    }

    pub fn rowids(&self) -> impl Iterator<Item = i64> + '_ {
        (0..self.count).map(|i| self.rowid(i))
    }

    /// All vectors as one slice, `count × dim`.
    pub fn data(&self) -> &[f32] {
        match &self.storage {
            Storage::Mapped(map) => {
                let start = HEADER + self.count * 8;
                let bytes = &map[start..];
                // SAFETY: the map is page-aligned and `start` is a multiple of 4, so
                // the prefix is empty; f32 has no invalid bit patterns.
                let (prefix, floats, _) = unsafe { bytes.align_to::<f32>() };
                debug_assert!(prefix.is_empty());
                &floats[..self.count * self.dim]
            }
            Storage::Owned { data, .. } => &data[..self.count * self.dim],
        }
    }

    pub fn vector(&self, i: usize) -> &[f32] {
        &self.data()[i * self.dim..(i + 1) * self.dim]
    }

    /// The `k` best (position, cosine) by exact scan among positions `keep` accepts.
    /// A large scan is split across the cores: one core cannot draw the
    /// memory bandwidth a scan of ~100 MB is bound by.
    pub fn top_k(&self, query: &[f32], k: usize, keep: impl Fn(usize) -> bool + Sync) -> Vec<(usize, f32)> {
        if k == 0 || query.len() != self.dim || self.count == 0 {
            return Vec::new();
        }
        let parts = if self.count >= PARALLEL_SCAN { rayon::current_num_threads().max(1) } else { 1 };
        let per = self.count.div_ceil(parts);
        let scan = |part: usize| {
            let start = part * per;
            let end = (start + per).min(self.count);
            let mut heap = BinaryHeap::with_capacity(k + 1);
            let data = &self.data()[start * self.dim..end * self.dim];
            for (j, v) in data.chunks_exact(self.dim).enumerate() {
                let s = dot(query, v);
                if heap.len() == k {
                    if let Some(Scored(w, _)) = heap.peek() {
                        if s <= *w {
                            continue;
                        }
                    }
                }
                if !keep(start + j) {
                    continue;
                }
                heap.push(Scored(s, start + j));
                if heap.len() > k {
                    heap.pop();
                }
            }
            heap.into_vec()
        };
        let found: Vec<Scored> = if parts == 1 {
            scan(0)
        } else {
            use rayon::prelude::*;
            (0..parts).into_par_iter().flat_map_iter(scan).collect()
        };
        let mut out: Vec<(usize, f32)> = found.into_iter().map(|Scored(s, i)| (i, s)).collect();
        out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        out.truncate(k);
        out
    }
}

/// From this many vectors on, an exact scan runs on every core.
const PARALLEL_SCAN: usize = 32_768;

/// Dot product in 8 independent lanes so the compiler vectorises it.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for j in 0..8 {
            acc[j] += x[j] * y[j];
        }
    }
    let tail: f32 = ra.iter().zip(rb).map(|(x, y)| x * y).sum();
    acc.iter().sum::<f32>() + tail
}

/// Min-heap entry by score (reversed ordering) for keeping the top k.
struct Scored(f32, usize);

impl PartialEq for Scored {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Scored {}
impl PartialOrd for Scored {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Scored {
    fn cmp(&self, o: &Self) -> Ordering {
        o.0.total_cmp(&self.0).then(self.1.cmp(&o.1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roundtrip_and_scan() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.bin");
        let data = vec![1.0, 0.0, 0.0, 1.0, 0.6, 0.8];
        write(&path, "m", 7, 2, &[10, 20, 30], &data).unwrap();
        let f = FlatVectors::open(&path).unwrap();
        assert_eq!((f.dim, f.count, f.generation, f.model.as_str()), (2, 3, 7, "m"));
        assert_eq!(f.rowids().collect::<Vec<_>>(), vec![10, 20, 30]);
        let top = f.top_k(&[1.0, 0.0], 2, |_| true);
        assert_eq!(top.iter().map(|t| t.0).collect::<Vec<_>>(), vec![0, 2]);
        let top = f.top_k(&[1.0, 0.0], 2, |i| i != 0);
        assert_eq!(top.iter().map(|t| t.0).collect::<Vec<_>>(), vec![2, 1]);
        assert!(f.verify());
        // A truncated file is refused, not misread.
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
        assert!(FlatVectors::open(&path).is_err());
    }

    /// Same size, same header, other numbers: only the checksum tells.
    #[test]
    fn scrambled_data_fails_verification() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.bin");
        let data: Vec<f32> = (0..64).map(|i| i as f32 / 64.0).collect();
        write(&path, "m", 3, 4, &(0..16).collect::<Vec<i64>>(), &data).unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        let n = bytes.len();
        bytes[n - 64..].reverse();
        std::fs::write(&path, &bytes).unwrap();
        let f = FlatVectors::open(&path).unwrap();
        assert_eq!(f.count, 16);
        assert!(!f.verify(), "a scrambled file passes the checksum");
    }

    /// Writers racing on one file each use their own temp file: none fails,
    /// no temp file is left, and the result is one whole file.
    #[test]
    fn concurrent_writers_never_fail() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.bin");
        let data: Vec<f32> = (0..4096).map(|i| i as f32).collect();
        let rowids: Vec<i64> = (0..1024).collect();
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..10 {
                        write(&path, "m", 1, 4, &rowids, &data).unwrap();
                        let f = FlatVectors::open(&path).unwrap();
                        assert_eq!(f.count, 1024);
                    }
                });
            }
        });
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, vec!["v.bin".to_string()]);
        assert!(FlatVectors::open(&path).unwrap().verify());
    }

    #[test]
    fn in_memory_copy_saves_and_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.bin");
        let f = FlatVectors::in_memory("m", 5, 2, vec![7, 9], vec![1.0, 0.0, 0.0, 1.0]);
        assert_eq!((f.count, f.rowid(1), f.vector(1)), (2, 9, &[0.0, 1.0][..]));
        f.save(&path).unwrap();
        let g = FlatVectors::open(&path).unwrap();
        assert_eq!((g.generation, g.rowids().collect::<Vec<_>>()), (5, vec![7, 9]));
        assert!(g.verify());
        // An older generation never replaces a newer file.
        FlatVectors::in_memory("m", 4, 2, vec![1], vec![1.0, 0.0]).save(&path).unwrap();
        assert_eq!(FlatVectors::open(&path).unwrap().generation, 5);
    }

    /// Split across cores, the scan still returns exactly the brute-force top k.
    #[test]
    fn a_parallel_scan_finds_what_a_full_sort_finds() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.bin");
        let (n, dim) = (PARALLEL_SCAN + 1_234, 8);
        let mut x = 12345u64;
        let mut data = Vec::with_capacity(n * dim);
        for _ in 0..n * dim {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            data.push(((x >> 33) as f32 / (1u64 << 31) as f32) - 0.5);
        }
        let rowids: Vec<i64> = (0..n as i64).collect();
        write(&path, "m", 1, dim, &rowids, &data).unwrap();
        let f = FlatVectors::open(&path).unwrap();
        let q = [0.3, -0.2, 0.5, 0.1, -0.4, 0.2, 0.0, 0.6];
        let keep = |i: usize| i % 7 != 3;
        let mut all: Vec<(usize, f32)> =
            (0..n).filter(|&i| keep(i)).map(|i| (i, dot(&q, &data[i * dim..(i + 1) * dim]))).collect();
        all.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        all.truncate(25);
        assert_eq!(f.top_k(&q, 25, keep), all);
    }
}
