//! A flat, memory-mapped copy of one model's vectors, derived from the
//! database. One-shot queries (`like ID`) scan it exactly: 75k × 384 floats
//! is ~115 MB of page cache and a scan takes milliseconds, far less than
//! reloading an HNSW graph would.
//!
//! Layout (little-endian): a 512-byte header (magic, dim, count, generation,
//! model id), `count` i64 paper rowids, then `count × dim` f32.

use anyhow::{bail, Context, Result};
use memmap2::Mmap;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

const MAGIC: &[u8; 8] = b"PSVEC001";
const HEADER: usize = 512;

pub struct FlatVectors {
    map: Mmap,
    pub dim: usize,
    pub count: usize,
    pub generation: i64,
    pub model: String,
}

/// Writes rowids and vectors to `path` atomically (temp file, fsync, rename),
/// so a reader or a killed writer never sees half a file.
pub fn write(path: &Path, model: &str, generation: i64, dim: usize, rowids: &[i64], data: &[f32]) -> Result<()> {
    if data.len() != rowids.len() * dim || model.len() > HEADER - 40 {
        bail!("inconsistent vector table for {}", path.display());
    }
    let tmp = path.with_extension("tmp");
    let file = File::create(&tmp).with_context(|| format!("cannot write {}", tmp.display()))?;
    let mut w = BufWriter::with_capacity(1 << 20, file);
    let mut header = vec![0u8; HEADER];
    header[..8].copy_from_slice(MAGIC);
    header[8..16].copy_from_slice(&(dim as u64).to_le_bytes());
    header[16..24].copy_from_slice(&(rowids.len() as u64).to_le_bytes());
    header[24..32].copy_from_slice(&generation.to_le_bytes());
    header[32..36].copy_from_slice(&(model.len() as u32).to_le_bytes());
    header[36..36 + model.len()].copy_from_slice(model.as_bytes());
    w.write_all(&header)?;
    for r in rowids {
        w.write_all(&r.to_le_bytes())?;
    }
    for x in data {
        w.write_all(&x.to_le_bytes())?;
    }
    let file = w.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot replace {}", path.display()))?;
    Ok(())
}

impl FlatVectors {
    /// Opens the file; any inconsistency is an error (the caller rebuilds).
    pub fn open(path: &Path) -> Result<FlatVectors> {
        let file = File::open(path)?;
        // SAFETY: the file is only ever replaced by rename, never written in
        // place, so the mapped bytes cannot change under us.
        let map = unsafe { Mmap::map(&file)? };
        if map.len() < HEADER || &map[..8] != MAGIC {
            bail!("{} is not a paperscout vector file", path.display());
        }
        let u64_at = |o: usize| u64::from_le_bytes(map[o..o + 8].try_into().unwrap_or([0; 8]));
        let dim = u64_at(8) as usize;
        let count = u64_at(16) as usize;
        let generation = u64_at(24) as i64;
        let model_len = u32::from_le_bytes(map[32..36].try_into().unwrap_or([0; 4])) as usize;
        if model_len > HEADER - 36 {
            bail!("{} has a broken header", path.display());
        }
        let model = String::from_utf8_lossy(&map[36..36 + model_len]).into_owned();
        let expected = HEADER + count * 8 + count * dim * 4;
        if dim == 0 || map.len() != expected {
            bail!("{} is truncated or has a broken header", path.display());
        }
        Ok(FlatVectors { map, dim, count, generation, model })
    }

    pub fn rowid(&self, i: usize) -> i64 {
        let o = HEADER + i * 8;
        i64::from_le_bytes(self.map[o..o + 8].try_into().unwrap_or([0; 8]))
    }

    pub fn rowids(&self) -> impl Iterator<Item = i64> + '_ {
        (0..self.count).map(|i| self.rowid(i))
    }

    /// All vectors as one slice, `count × dim`.
    pub fn data(&self) -> &[f32] {
        let start = HEADER + self.count * 8;
        let bytes = &self.map[start..];
        // SAFETY: the map is page-aligned and `start` is a multiple of 4, so
        // the prefix is empty; f32 has no invalid bit patterns.
        let (prefix, floats, _) = unsafe { bytes.align_to::<f32>() };
        debug_assert!(prefix.is_empty());
        &floats[..self.count * self.dim]
    }

    pub fn vector(&self, i: usize) -> &[f32] {
        &self.data()[i * self.dim..(i + 1) * self.dim]
    }

    /// The `k` best (position, cosine) by exact scan among positions `keep` accepts.
    pub fn top_k(&self, query: &[f32], k: usize, keep: impl Fn(usize) -> bool) -> Vec<(usize, f32)> {
        let mut heap = BinaryHeap::with_capacity(k + 1);
        if k == 0 || query.len() != self.dim {
            return Vec::new();
        }
        for (i, v) in self.data().chunks_exact(self.dim).enumerate() {
            let s = dot(query, v);
            if heap.len() == k {
                if let Some(worst) = heap.peek() {
                    let Scored(w, _) = worst;
                    if s <= *w {
                        continue;
                    }
                }
            }
            if !keep(i) {
                continue;
            }
            heap.push(Scored(s, i));
            if heap.len() > k {
                heap.pop();
            }
        }
        let mut out: Vec<(usize, f32)> = heap.into_iter().map(|Scored(s, i)| (i, s)).collect();
        out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        out
    }
}

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
        // A truncated file is refused, not misread.
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
        assert!(FlatVectors::open(&path).is_err());
    }
}
