//! A one-bit sketch of every flat vector (the sign of each dimension) with
//! the row's date and subjects beside it: what a one-shot query scans at
//! any size. At 3 M papers the flat file is 4.6 GB and an int8 copy
//! 1.15 GB, each more than one process can read in 100 ms on two cores;
//! the sketch is 216 MB. Its Hamming order finds the candidates, their f32
//! vectors in the flat file give the exact scores and order. The best few
//! thousand by Hamming distance hold the true ten nearest (see
//! `MIN_CANDIDATES` and docs/benchmarks.md), and unlike the HNSW index it
//! opens with no per-row work.
//!
//! Layout (little-endian): a 64-byte header (magic, dim, count), then one
//! row per flat row in the same order: paper rowid, subject signature,
//! day, the bits. Row `i` describes flat row `i` as it was when sketched;
//! a row that died since is skipped when rescored. It grows like the flat
//! file: rows are written past the end and synced, then the header's count
//! is rewritten, so a killed writer leaves the previous sketch. A sketch
//! that no longer matches its flat file (rebuilt, another model) is
//! replaced whole by rename.

use super::vectors::{FileDay, FlatVectors, RowMeta};
use anyhow::{Context, Result};
use std::fs::File;
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"PSSKT001";
const HEADER: usize = 64;
/// rowid (i64), subject signature (u64), day (i32), spare; then the bits.
const ROW_META: usize = 24;
/// Rows written at once when extending: a first sketch at 3 M rows reads
/// the whole flat file but never holds more than this much of it.
const WRITE_AT: usize = 8 << 20;
/// Rows read and measured at a time: 288 KB at 384 dimensions, which stays
/// in a core's cache while it is measured.
const CHUNK_ROWS: usize = 4096;
/// Candidates rescored in f32: at least this many, this many per result
/// wanted, and one per this many rows. Recall@10 depends mostly on the
/// count and slowly on the library's size: on real vectors the count that
/// reaches 0.99 went from 400 at 9 k rows to 800 at 75 k, about the cube
/// root of the size (benches/sketch_recall.py), which would be ~2,700 at
/// 3 M; one per 1,000 rows gives 3,000 there and stays ahead beyond.
const MIN_CANDIDATES: usize = 2000;
const CANDIDATES_PER_RESULT: usize = 100;
const ROWS_PER_CANDIDATE: usize = 1000;

fn words(dim: usize) -> usize {
    dim.div_ceil(64)
}

fn row_bytes(dim: usize) -> usize {
    ROW_META + 8 * words(dim)
}

/// One bit per dimension: set where the value is positive.
fn bits(v: &[f32], out: &mut Vec<u64>) {
    out.clear();
    out.extend(v.chunks(64).map(|c| c.iter().enumerate().fold(0u64, |w, (b, &x)| w | (((x > 0.0) as u64) << b))));
}

fn encode_row(out: &mut Vec<u8>, meta: RowMeta, v: &[f32], scratch: &mut Vec<u64>) {
    out.extend_from_slice(&meta.rowid.abs().to_le_bytes());
    out.extend_from_slice(&meta.subjects.to_le_bytes());
    out.extend_from_slice(&meta.day.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    bits(v, scratch);
    for w in scratch.iter() {
        out.extend_from_slice(&w.to_le_bytes());
    }
}

fn header(dim: usize, count: usize) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(MAGIC);
    h[8..16].copy_from_slice(&(dim as u64).to_le_bytes());
    h[16..24].copy_from_slice(&(count as u64).to_le_bytes());
    h
}

fn u64_at(bytes: &[u8], o: usize) -> u64 {
    u64::from_le_bytes(bytes[o..o + 8].try_into().unwrap_or([0; 8]))
}

pub struct Sketch {
    file: File,
    path: PathBuf,
    pub dim: usize,
    /// Rows sketched: flat rows `0..count`.
    pub count: usize,
    /// The rows, read once, for a process that queries many times (`serve`).
    held: Option<Vec<u8>>,
}

/// The paper part of a row.
fn row_meta(r: &[u8]) -> RowMeta {
    RowMeta { rowid: u64_at(r, 0) as i64, subjects: u64_at(r, 8), day: FileDay::from_le_bytes(r[16..20].try_into().unwrap_or([0; 4])) }
}

impl Sketch {
    /// Opens the sketch at `path` if it is one of `flat`'s: same dimension,
    /// no more rows, and the same papers at its first and last row.
    ///
    /// It is read, not memory-mapped: a scan touches every page once, and
    /// mapping then unmapping 216 MB of pages cost more kernel time than
    /// copying them (two thirds of a one-shot query at 1 M, measured).
    pub fn open(path: &Path, flat: &FlatVectors) -> Option<Sketch> {
        let file = File::open(path).ok()?;
        let len = file.metadata().ok()?.len() as usize;
        let mut h = [0u8; HEADER];
        file.read_exact_at(&mut h, 0).ok()?;
        if &h[..8] != MAGIC {
            return None;
        }
        let dim = u64_at(&h, 8) as usize;
        let count = u64_at(&h, 16) as usize;
        let fits = dim == flat.dim
            && count <= flat.count
            && count.checked_mul(row_bytes(dim)).and_then(|n| n.checked_add(HEADER)).is_some_and(|n| n <= len);
        if !fits {
            return None;
        }
        let sketch = Sketch { file, path: path.to_path_buf(), dim, count, held: None };
        let same = |i: usize| sketch.meta(i).is_ok_and(|m| m.rowid == flat.rowid(i).abs());
        (count == 0 || (same(0) && same(count - 1))).then_some(sketch)
    }

    /// Reads every row into memory (216 MB at 3 M): a server's queries then
    /// scan memory instead of copying the file through the page cache each
    /// time.
    pub fn hold(&mut self) -> Result<()> {
        let mut all = Vec::new();
        self.read_rows(0, self.count, &mut all)?;
        self.held = Some(all);
        Ok(())
    }

    /// Rows `start..start + n` into `buf`.
    fn read_rows(&self, start: usize, n: usize, buf: &mut Vec<u8>) -> Result<()> {
        let rb = row_bytes(self.dim);
        buf.resize(n * rb, 0);
        self.file.read_exact_at(buf, (HEADER + start * rb) as u64).with_context(|| format!("cannot read {}", self.path.display()))
    }

    /// The row's paper as it was when sketched (rowid positive even if the
    /// flat row has died since).
    pub fn meta(&self, i: usize) -> Result<RowMeta> {
        let mut buf = Vec::new();
        self.read_rows(i, 1, &mut buf)?;
        Ok(row_meta(&buf))
    }

    /// The first row that is not what `flat`'s row gives (for `doctor`).
    pub fn first_mismatch(&self, flat: &FlatVectors) -> Result<Option<usize>> {
        let rb = row_bytes(self.dim);
        let (mut buf, mut want, mut scratch) = (Vec::new(), Vec::with_capacity(rb), Vec::new());
        for start in (0..self.count).step_by(CHUNK_ROWS) {
            let n = CHUNK_ROWS.min(self.count - start);
            self.read_rows(start, n, &mut buf)?;
            for (j, row) in buf.chunks_exact(rb).enumerate() {
                let i = start + j;
                want.clear();
                encode_row(&mut want, flat.meta(i), flat.vector(i), &mut scratch);
                // A dead flat row's vector is zeroed: only its paper can be compared.
                let same = if flat.is_live(i) { row == want.as_slice() } else { row[..8] == want[..8] };
                if !same {
                    return Ok(Some(i));
                }
            }
        }
        Ok(None)
    }

    pub fn size(&self) -> u64 {
        (HEADER + self.count * row_bytes(self.dim)) as u64
    }

    /// The `k` best (position, cosine) among live rows `keep` accepts: the
    /// nearest candidates by Hamming distance among the sketched rows,
    /// rescored with their f32 vectors, plus an exact scan of flat rows
    /// sketched since.
    pub fn search(&self, flat: &FlatVectors, query: &[f32], k: usize, keep: impl Fn(RowMeta) -> bool + Sync) -> Result<Vec<(usize, f32)>> {
        self.search_among(flat, query, k, keep, (k * CANDIDATES_PER_RESULT).max(MIN_CANDIDATES).max(self.count / ROWS_PER_CANDIDATE))
    }

    /// [`Sketch::search`] rescoring `wanted` candidates: fewer find less.
    pub fn search_among(
        &self,
        flat: &FlatVectors,
        query: &[f32],
        k: usize,
        keep: impl Fn(RowMeta) -> bool + Sync,
        wanted: usize,
    ) -> Result<Vec<(usize, f32)>> {
        let covered = self.count.min(flat.count);
        if k == 0 || query.len() != self.dim {
            return Ok(Vec::new());
        }
        let mut q = Vec::new();
        bits(query, &mut q);
        let candidates = self.nearest_by_bits(&q, covered, wanted, &keep)?;
        let mut hits = flat.score_rows(&candidates, query)?;
        hits.extend(flat.top_k_in(covered..flat.count, query, k, keep));
        hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        hits.truncate(k);
        Ok(hits)
    }

    /// Positions of the `wanted` rows below `covered` nearest `q` in Hamming
    /// distance, among those `keep` accepts (ties broken by position).
    fn nearest_by_bits(&self, q: &[u64], covered: usize, wanted: usize, keep: &(impl Fn(RowMeta) -> bool + Sync)) -> Result<Vec<usize>> {
        // Pass 1 measures every admitted row and counts rows per distance;
        // pass 2 takes the rows under the distance where the count reaches
        // `wanted`. Both stream the sketch; neither sorts.
        const SKIP: u16 = u16::MAX;
        let mut dist = vec![SKIP; covered];
        let parts = if covered >= 1 << 16 { rayon::current_num_threads().max(1) } else { 1 };
        let per = covered.div_ceil(parts).max(1);
        let measure = |(part, out): (usize, &mut [u16])| -> Result<Vec<usize>> {
            let mut hist = vec![0usize; self.dim + 1];
            let mut buf = Vec::new();
            let start = part * per;
            let rb = row_bytes(self.dim);
            for (c, out) in out.chunks_mut(CHUNK_ROWS).enumerate() {
                let from = start + c * CHUNK_ROWS;
                let rows = match &self.held {
                    Some(all) => &all[from * rb..(from + out.len()) * rb],
                    None => {
                        self.read_rows(from, out.len(), &mut buf)?;
                        &buf
                    }
                };
                measure(rows, rb, q, out, &mut hist, keep);
            }
            Ok(hist)
        };
        let hists: Vec<Vec<usize>> = if parts == 1 {
            dist.chunks_mut(per).enumerate().map(measure).collect::<Result<_>>()?
        } else {
            use rayon::prelude::*;
            dist.par_chunks_mut(per).enumerate().map(measure).collect::<Result<_>>()?
        };
        let mut below = 0;
        let mut limit = self.dim;
        for d in 0..=self.dim {
            let n: usize = hists.iter().map(|h| h[d]).sum();
            if below + n >= wanted {
                limit = d;
                break;
            }
            below += n;
        }
        // Rows at `limit` fill what is left, in position order.
        let mut at_limit = wanted.saturating_sub(below);
        let mut found = Vec::with_capacity(wanted);
        for (i, &d) in dist.iter().enumerate() {
            if (d as usize) < limit {
                found.push(i);
            } else if d as usize == limit && at_limit > 0 {
                at_limit -= 1;
                found.push(i);
            }
        }
        Ok(found)
    }
}

/// Hamming distances to `q` of the rows in `rows` into `out` (rows `keep`
/// refuses stay `u16::MAX`), counted into `hist`.
fn measure(rows: &[u8], rb: usize, q: &[u64], out: &mut [u16], hist: &mut [usize], keep: &impl Fn(RowMeta) -> bool) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has the instruction the function is built for.
        return unsafe { measure_popcnt(rows, rb, q, out, hist, keep) };
    }
    measure_any(rows, rb, q, out, hist, keep)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn measure_popcnt(rows: &[u8], rb: usize, q: &[u64], out: &mut [u16], hist: &mut [usize], keep: &impl Fn(RowMeta) -> bool) {
    measure_any(rows, rb, q, out, hist, keep)
}

#[inline(always)]
fn measure_any(rows: &[u8], rb: usize, q: &[u64], out: &mut [u16], hist: &mut [usize], keep: &impl Fn(RowMeta) -> bool) {
    for (row, slot) in rows.chunks_exact(rb).zip(out.iter_mut()) {
        if !keep(row_meta(row)) {
            continue;
        }
        let bits = &row[ROW_META..];
        let d: u32 = q.iter().enumerate().map(|(w, &qw)| (qw ^ u64_at(bits, 8 * w)).count_ones()).sum();
        *slot = d as u16;
        hist[d as usize] += 1;
    }
}

/// Brings the sketch at `path` up to `flat`: appends rows for the flat rows
/// past its end, or writes it anew when it is not `flat`'s. The caller
/// holds the derived files' lock. Returns the rows added.
pub fn extend(path: &Path, flat: &FlatVectors) -> Result<usize> {
    let Some(current) = Sketch::open(path, flat) else {
        return rebuild(path, flat);
    };
    let start = current.count;
    drop(current);
    if start == flat.count {
        return Ok(0);
    }
    let mut file =
        File::options().read(true).write(true).open(path).with_context(|| format!("cannot open {} for writing", path.display()))?;
    let io = |e: std::io::Error| anyhow::Error::new(e).context(format!("cannot write {}", path.display()));
    // A killed writer may have left rows past the published count.
    let end = (HEADER + start * row_bytes(flat.dim)) as u64;
    file.set_len(end).map_err(io)?;
    write_rows(&mut file, end, flat, start).map_err(io)?;
    file.sync_data().map_err(io)?;
    file.write_all_at(&header(flat.dim, flat.count), 0).map_err(io)?;
    file.sync_data().map_err(io)?;
    Ok(flat.count - start)
}

/// Writes the whole sketch of `flat` to a file of its own and renames it
/// over `path`: a reader that has the old one mapped keeps reading it.
pub fn rebuild(path: &Path, flat: &FlatVectors) -> Result<usize> {
    let tmp = super::temp_path(path);
    let written = (|| -> std::io::Result<()> {
        let mut file = File::create(&tmp)?;
        file.write_all(&header(flat.dim, 0))?;
        write_rows(&mut file, HEADER as u64, flat, 0)?;
        file.sync_data()?;
        file.write_all_at(&header(flat.dim, flat.count), 0)?;
        file.sync_data()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(anyhow::Error::new(e).context(format!("cannot write {}", path.display())));
    }
    Ok(flat.count)
}

fn write_rows(file: &mut File, mut at: u64, flat: &FlatVectors, start: usize) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(WRITE_AT + row_bytes(flat.dim));
    let mut scratch = Vec::new();
    for i in start..flat.count {
        encode_row(&mut buf, flat.meta(i), flat.vector(i), &mut scratch);
        if buf.len() >= WRITE_AT || i + 1 == flat.count {
            file.write_all_at(&buf, at)?;
            at += buf.len() as u64;
            buf.clear();
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vector::dot;

    fn flat(rows: &[(i64, Vec<f32>)]) -> FlatVectors {
        let rows: Vec<_> = rows
            .iter()
            .map(|(id, v)| (RowMeta { rowid: *id, subjects: 1 << (id % 64), day: FileDay(20260101 + *id as i32) }, v.clone()))
            .collect();
        let through = rows.last().map_or(0, |r| r.0.rowid);
        FlatVectors::in_memory("m", rows.first().map_or(1, |r| r.1.len()), &rows, through, 0).unwrap()
    }

    fn unit(seed: u64, dim: usize) -> Vec<f32> {
        // A small deterministic generator: tests need spread, not quality.
        let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let v: Vec<f32> = (0..dim)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                (s % 2001) as f32 / 1000.0 - 1.0
            })
            .collect();
        let n = dot(&v, &v).sqrt();
        v.into_iter().map(|x| x / n).collect()
    }

    #[test]
    fn bits_follow_signs_across_words() {
        let mut v = vec![-1.0f32; 70];
        v[0] = 0.5;
        v[63] = 0.1;
        v[64] = 2.0;
        let mut out = Vec::new();
        bits(&v, &mut out);
        assert_eq!(out, vec![1 | 1 << 63, 1]);
    }

    /// 400 clusters of 50 noisy copies of a random unit vector: the ten
    /// nearest of a row are its cluster mates, far fewer than the rows.
    fn clustered(n: usize, dim: usize) -> Vec<(i64, Vec<f32>)> {
        (0..n)
            .map(|i| {
                let centre = unit((i % 400) as u64 + 1, dim);
                let noise = unit(1_000_000 + i as u64, dim);
                let v: Vec<f32> = centre.iter().zip(&noise).map(|(c, e)| c + 0.6 * e).collect();
                let n = dot(&v, &v).sqrt();
                (i as i64 + 1, v.into_iter().map(|x| x / n).collect())
            })
            .collect()
    }

    #[test]
    fn finds_what_an_exact_scan_finds_and_grows() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sketch.bin");
        let all = clustered(20_000, 128);
        let first = flat(&all[..16_000]);
        assert_eq!(extend(&path, &first).unwrap(), 16_000);
        let whole = flat(&all);
        // The sketch covers 16,000 rows; the rest are scanned exactly.
        let s = Sketch::open(&path, &whole).unwrap();
        assert_eq!(s.count, 16_000);
        for q in [5usize, 9_999, 15_999, 18_000] {
            let query = whole.vector(q).to_vec();
            let exact = whole.top_k(&query, 10, |_| true);
            // 200 candidates of 16,000 rows: the bits must do the finding.
            assert_eq!(s.search_among(&whole, &query, 10, |_| true, 200).unwrap(), exact, "query {q}");
            assert_eq!(s.search(&whole, &query, 10, |_| true).unwrap(), exact);
        }
        assert_eq!(extend(&path, &whole).unwrap(), 4_000);
        let s = Sketch::open(&path, &whole).unwrap();
        assert_eq!(s.count, 20_000);
        assert_eq!(s.first_mismatch(&whole).unwrap(), None);
        // Scope: only even days, never the query itself.
        let query = whole.vector(18_000).to_vec();
        let keep = |m: RowMeta| m.day.0 % 2 == 0 && m.rowid != 18_001;
        let got = s.search_among(&whole, &query, 5, keep, 200).unwrap();
        assert_eq!(got, whole.top_k(&query, 5, keep));
        assert!(got.iter().all(|&(i, _)| keep(whole.meta(i))));
        // Held in memory (as `serve` holds it), the same answers.
        let mut held = Sketch::open(&path, &whole).unwrap();
        held.hold().unwrap();
        assert_eq!(held.search_among(&whole, &query, 5, keep, 200).unwrap(), got);
        for q in [5usize, 12_345, 19_999] {
            let query = whole.vector(q).to_vec();
            assert_eq!(held.search(&whole, &query, 10, |_| true).unwrap(), s.search(&whole, &query, 10, |_| true).unwrap());
        }
    }

    #[test]
    fn a_sketch_of_other_rows_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sketch.bin");
        let a = flat(&(1..=50).map(|i| (i, unit(i as u64, 16))).collect::<Vec<_>>());
        extend(&path, &a).unwrap();
        // Rebuilt flat rows start at another paper: the old sketch is not theirs.
        let b = flat(&(7..=40).map(|i| (i, unit(i as u64, 16))).collect::<Vec<_>>());
        assert!(Sketch::open(&path, &b).is_none());
        assert_eq!(extend(&path, &b).unwrap(), 34);
        let s = Sketch::open(&path, &b).unwrap();
        assert_eq!(s.first_mismatch(&b).unwrap(), None);
        // A torn write past the count is ignored, then overwritten.
        std::fs::OpenOptions::new().append(true).open(&path).unwrap().write_all(&[7; 100]).unwrap();
        assert_eq!(Sketch::open(&path, &b).unwrap().count, 34);
    }
}
