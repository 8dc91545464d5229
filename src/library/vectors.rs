//! A flat, memory-mapped copy of one model's paper vectors, derived from the
//! database and grown by appending: an ingest adds its papers at the end
//! instead of rewriting 4.6 GB at 3 M papers.
//!
//! Layout (little-endian): a 512-byte header (magic, dim, count, the paper
//! rowid the file is complete up to, how far the log of retired rowids was
//! applied, model id), then `count` rows of `ROW_META` bytes (paper rowid,
//! subject signature, first-listing day) and `dim` f32.
//!
//! Rows are appended in rowid order, and a paper whose text, subjects or
//! date change is given a new rowid (see `store::upsert_paper`), so a file
//! only ever grows at the end; the row of the old rowid is marked dead in
//! place (rowid negated, vector zeroed). Every row carries what `--since`,
//! `--until` and `--category` need, so a search evaluates them per candidate
//! without asking the database.
//!
//! Appending writes the rows past the end, syncs them, then rewrites the
//! header: a writer killed midway leaves the old header, which still
//! describes a whole file (the next writer cuts the unfinished tail off).
//! Readers map the file once and read only the rows their header counted.

use crate::paper::Day;
use crate::vector::dot;
use anyhow::{bail, Context, Result};
use memmap2::Mmap;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{Seek, SeekFrom, Write};
use std::os::unix::fs::FileExt;
use std::path::Path;

/// 003 made rows self-describing and the file appendable.
const MAGIC: &[u8; 8] = b"PSVEC003";
const HEADER: usize = 512;
const MODEL_AT: usize = 44;
/// rowid (i64), subject signature (u64), first-listing day as YYYYMMDD (i32), spare.
const ROW_META: usize = 24;

/// What a row says about its paper, besides the vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowMeta {
    pub rowid: i64,
    pub subjects: u64,
    pub day: FileDay,
}

impl RowMeta {
    /// `first_date` as YYYY-MM-DD (or none) and the subjects, as stored.
    pub fn new(rowid: i64, first_date: Option<&str>, subjects: &[String]) -> RowMeta {
        RowMeta { rowid, subjects: signature(subjects), day: first_date.and_then(Day::parse).map_or(FileDay::NONE, FileDay::of) }
    }
}

/// A paper's first listing [`Day`] as a row of the vector files keeps it:
/// four bytes, the number YYYYMMDD (which orders as the days do), 0 for
/// none. A plain number because rows are filtered by it in a scan's inner
/// loop over millions of rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct FileDay(pub(crate) i32);

impl FileDay {
    pub const NONE: FileDay = FileDay(0);

    pub fn of(day: Day) -> FileDay {
        FileDay(day.number())
    }

    pub fn is_none(self) -> bool {
        self == FileDay::NONE
    }

    pub(crate) fn from_le_bytes(b: [u8; 4]) -> FileDay {
        FileDay(i32::from_le_bytes(b))
    }

    pub(crate) fn to_le_bytes(self) -> [u8; 4] {
        self.0.to_le_bytes()
    }
}

/// One bit per subject, hashed: a row whose bit is clear certainly lacks
/// the subject; a set bit is confirmed against the paper itself.
pub fn signature(subjects: &[String]) -> u64 {
    subjects.iter().fold(0, |s, c| s | subject_bit(c))
}

pub fn subject_bit(subject: &str) -> u64 {
    // FNV-1a: stable across builds and platforms, unlike std's hasher.
    let h = subject.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3));
    1 << (h % 64)
}

pub struct FlatVectors {
    storage: Storage,
    /// The mapped file, for reading scattered rows without faulting them in.
    file: Option<File>,
    pub dim: usize,
    /// Rows, dead ones included.
    pub count: usize,
    /// Every paper with a rowid up to this one is in the file, or has no
    /// vector for good (its text failed to embed).
    pub through: i64,
    /// The log of retired rowids is applied up to this sequence number.
    pub retired: i64,
    pub model: String,
}

/// A shared file, or a private copy (same layout) for a reader that could
/// not update the shared one.
enum Storage {
    Mapped(Mmap),
    Owned(Vec<u64>),
}

fn row_bytes(dim: usize) -> usize {
    ROW_META + 4 * dim
}

fn header(model: &str, dim: usize, count: usize, through: i64, retired: i64) -> Result<[u8; HEADER]> {
    if model.len() > HEADER - MODEL_AT {
        bail!("model id {model:?} is too long");
    }
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(MAGIC);
    h[8..16].copy_from_slice(&(dim as u64).to_le_bytes());
    h[16..24].copy_from_slice(&(count as u64).to_le_bytes());
    h[24..32].copy_from_slice(&through.to_le_bytes());
    h[32..40].copy_from_slice(&retired.to_le_bytes());
    h[40..44].copy_from_slice(&(model.len() as u32).to_le_bytes());
    h[MODEL_AT..MODEL_AT + model.len()].copy_from_slice(model.as_bytes());
    Ok(h)
}

fn encode_row(out: &mut Vec<u8>, meta: RowMeta, v: &[f32]) {
    out.extend_from_slice(&meta.rowid.to_le_bytes());
    out.extend_from_slice(&meta.subjects.to_le_bytes());
    out.extend_from_slice(&meta.day.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    for x in v {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

/// Parsed header: (dim, count, through, retired, model).
type Header = (usize, usize, i64, i64, String);

fn parse_header(bytes: &[u8], path: &Path) -> Result<Header> {
    if bytes.len() >= 8 && &bytes[..5] == b"PSVEC" && &bytes[..8] != MAGIC {
        bail!("{} is from another version of paperscout", path.display());
    }
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        bail!("{} is not a paperscout vector file", path.display());
    }
    let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().unwrap_or([0; 8]));
    let dim = u64_at(8) as usize;
    let count = u64_at(16) as usize;
    let through = u64_at(24) as i64;
    let retired = u64_at(32) as i64;
    let model_len = u32::from_le_bytes(bytes[40..44].try_into().unwrap_or([0; 4])) as usize;
    if model_len > HEADER - MODEL_AT || dim == 0 || dim > 1 << 16 {
        bail!("{} has a broken header", path.display());
    }
    let model = String::from_utf8_lossy(&bytes[MODEL_AT..MODEL_AT + model_len]).into_owned();
    let needed = count.checked_mul(row_bytes(dim)).and_then(|n| n.checked_add(HEADER));
    // Longer is fine: the unfinished tail of a killed append.
    if needed.is_none_or(|n| n > bytes.len()) {
        bail!("{} is truncated or has a broken header", path.display());
    }
    Ok((dim, count, through, retired, model))
}

impl FlatVectors {
    /// Maps the file; any inconsistency of shape is an error (the caller
    /// rebuilds). Whether the rows match the database is `doctor`'s check.
    pub fn open(path: &Path) -> Result<FlatVectors> {
        let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        // SAFETY: rows inside the header's count are never rewritten except
        // to mark them dead (a whole-row change a reader may see or not);
        // the file is replaced only by rename.
        let map = unsafe { Mmap::map(&file) }.with_context(|| format!("cannot map {}", path.display()))?;
        let (dim, count, through, retired, model) = parse_header(&map, path)?;
        Ok(FlatVectors { storage: Storage::Mapped(map), file: Some(file), dim, count, through, retired, model })
    }

    /// Rows held in memory only.
    pub fn in_memory(model: &str, dim: usize, rows: &[(RowMeta, Vec<f32>)], through: i64, retired: i64) -> Result<FlatVectors> {
        let dim = dim.max(1);
        let mut bytes = header(model, dim, rows.len(), through, retired)?.to_vec();
        for (meta, v) in rows {
            if v.len() != dim {
                bail!("a vector of {} numbers among vectors of {dim}", v.len());
            }
            encode_row(&mut bytes, *meta, v);
        }
        let words = bytes
            .chunks(8)
            .map(|c| {
                let mut w = [0u8; 8];
                w[..c.len()].copy_from_slice(c);
                u64::from_le_bytes(w)
            })
            .collect();
        Ok(FlatVectors { storage: Storage::Owned(words), file: None, dim, count: rows.len(), through, retired, model: model.to_string() })
    }

    fn bytes(&self) -> &[u8] {
        match &self.storage {
            Storage::Mapped(map) => map,
            // SAFETY: u64 words viewed as bytes; any byte pattern is valid.
            Storage::Owned(words) => unsafe { std::slice::from_raw_parts(words.as_ptr().cast::<u8>(), words.len() * 8) },
        }
    }

    fn row(&self, i: usize) -> &[u8] {
        let n = row_bytes(self.dim);
        let start = HEADER + i * n;
        &self.bytes()[start..start + n]
    }

    pub fn meta(&self, i: usize) -> RowMeta {
        let r = self.row(i);
        RowMeta {
            rowid: i64::from_le_bytes(r[0..8].try_into().unwrap_or([0; 8])),
            subjects: u64::from_le_bytes(r[8..16].try_into().unwrap_or([0; 8])),
            day: FileDay::from_le_bytes(r[16..20].try_into().unwrap_or([0; 4])),
        }
    }

    /// The paper rowid of row `i`; negative for a dead row.
    pub fn rowid(&self, i: usize) -> i64 {
        self.meta(i).rowid
    }

    pub fn is_live(&self, i: usize) -> bool {
        self.rowid(i) > 0
    }

    pub fn live(&self) -> usize {
        (0..self.count).filter(|&i| self.is_live(i)).count()
    }

    pub fn vector(&self, i: usize) -> &[f32] {
        let bytes = &self.row(i)[ROW_META..];
        // SAFETY: the map is page-aligned (owned rows are u64-aligned) and
        // every row starts at a multiple of 4; f32 has no invalid patterns.
        let (prefix, floats, _) = unsafe { bytes.align_to::<f32>() };
        debug_assert!(prefix.is_empty());
        &floats[..self.dim]
    }

    /// (position, cosine with `query`) of the live rows among `rows`. The
    /// rows of a mapped file are read rather than touched through the map:
    /// a few thousand rows scattered over gigabytes would each cost a page
    /// fault that maps (and may read ahead) 64 KB around the row.
    pub fn score_rows(&self, rows: &[usize], query: &[f32]) -> Result<Vec<(usize, f32)>> {
        let Some(file) = &self.file else {
            return Ok(rows.iter().filter(|&&i| self.is_live(i)).map(|&i| (i, dot(query, self.vector(i)))).collect());
        };
        let n = row_bytes(self.dim);
        let mut buf = vec![0u8; n];
        let mut v = vec![0f32; self.dim];
        let mut out = Vec::with_capacity(rows.len());
        for &i in rows.iter().filter(|&&i| i < self.count) {
            file.read_exact_at(&mut buf, (HEADER + i * n) as u64).context("cannot read the flat vectors")?;
            if i64::from_le_bytes(buf[..8].try_into().unwrap_or([0; 8])) <= 0 {
                continue;
            }
            for (x, b) in v.iter_mut().zip(buf[ROW_META..].chunks_exact(4)) {
                *x = f32::from_le_bytes(b.try_into().unwrap_or([0; 4]));
            }
            out.push((i, dot(query, &v)));
        }
        Ok(out)
    }

    /// The row holding `rowid`, by binary search: rows are in rowid order
    /// (dead ones by the rowid they had).
    pub fn position(&self, rowid: i64) -> Option<usize> {
        let (mut lo, mut hi) = (0, self.count);
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.rowid(mid).abs().cmp(&rowid) {
                Ordering::Less => lo = mid + 1,
                Ordering::Greater => hi = mid,
                Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    /// Bytes on disk (or in memory) the rows take.
    pub fn size(&self) -> u64 {
        (HEADER + self.count * row_bytes(self.dim)) as u64
    }

    /// The `k` best (position, cosine) by exact scan among live rows that
    /// `keep` accepts. A large scan is split across the cores: one core
    /// cannot draw the memory bandwidth a scan of ~100 MB is bound by.
    pub fn top_k(&self, query: &[f32], k: usize, keep: impl Fn(RowMeta) -> bool + Sync) -> Vec<(usize, f32)> {
        self.top_k_in(0..self.count, query, k, keep)
    }

    /// [`FlatVectors::top_k`] over the rows in `range` only.
    pub fn top_k_in(
        &self,
        range: std::ops::Range<usize>,
        query: &[f32],
        k: usize,
        keep: impl Fn(RowMeta) -> bool + Sync,
    ) -> Vec<(usize, f32)> {
        let range = range.start.min(self.count)..range.end.min(self.count);
        if k == 0 || query.len() != self.dim || range.is_empty() {
            return Vec::new();
        }
        let len = range.len();
        let parts = if len >= PARALLEL_SCAN { rayon::current_num_threads().max(1) } else { 1 };
        let per = len.div_ceil(parts);
        let scan = |part: usize| {
            let start = range.start + part * per;
            let end = (start + per).min(range.end);
            let mut heap = BinaryHeap::with_capacity(k + 1);
            for i in start..end {
                let s = dot(query, self.vector(i));
                if heap.len() == k {
                    if let Some(Scored(w, _)) = heap.peek() {
                        if s <= *w {
                            continue;
                        }
                    }
                }
                if !self.is_live(i) || !keep(self.meta(i)) {
                    continue;
                }
                heap.push(Scored(s, i));
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

/// Writes a whole file atomically: a temp file of this process's own, fsync,
/// rename. A reader that has the old file mapped keeps reading it.
pub fn write(path: &Path, flat: &FlatVectors) -> Result<()> {
    let tmp = super::temp_path(path);
    let written = (|| -> Result<()> {
        let mut f = File::create(&tmp).with_context(|| format!("cannot write {}", tmp.display()))?;
        let end = HEADER + flat.count * row_bytes(flat.dim);
        f.write_all(&flat.bytes()[..end]).and_then(|()| f.sync_all()).with_context(|| format!("cannot write {}", tmp.display()))
    })();
    if let Err(e) = written.and_then(|()| std::fs::rename(&tmp, path).with_context(|| format!("cannot replace {}", path.display()))) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    super::remove_stale_temps(path);
    Ok(())
}

/// The writer's side of the file: appends rows, marks rows dead and
/// publishes both by rewriting the header. The caller holds the derived
/// files' lock, so there is one appender at a time.
pub struct Appender {
    file: File,
    path: std::path::PathBuf,
    dim: usize,
    count: usize,
    through: i64,
    retired: i64,
    model: String,
    last_rowid: i64,
    added: usize,
    pending: Vec<u8>,
}

/// Rows are written out in pieces of this size: a first build at 3 M
/// papers must not hold 4.6 GB in memory.
const FLUSH_AT: usize = 32 << 20;

impl Appender {
    /// Opens `path` for appending, or starts it anew (empty) when it is
    /// missing, unreadable, of another version, model or dimension.
    pub fn open(path: &Path, model: &str, dim: usize) -> Result<Appender> {
        let current = FlatVectors::open(path).ok().filter(|f| f.model == model && f.dim == dim);
        let (count, through, retired, last_rowid) = match &current {
            Some(f) => (f.count, f.through, f.retired, if f.count > 0 { f.rowid(f.count - 1).abs() } else { 0 }),
            None => {
                write(path, &FlatVectors::in_memory(model, dim, &[], 0, 0)?)?;
                (0, 0, 0, 0)
            }
        };
        drop(current);
        let file =
            File::options().read(true).write(true).open(path).with_context(|| format!("cannot open {} for writing", path.display()))?;
        // A killed append may have left rows past the header's count.
        let end = (HEADER + count * row_bytes(dim)) as u64;
        let mut file = file;
        file.set_len(end)
            .and_then(|()| file.seek(SeekFrom::Start(end)).map(drop))
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(Appender {
            file,
            path: path.to_path_buf(),
            dim,
            count,
            through,
            retired,
            model: model.to_string(),
            last_rowid,
            added: 0,
            pending: Vec::new(),
        })
    }

    pub fn through(&self) -> i64 {
        self.through
    }

    pub fn retired(&self) -> i64 {
        self.retired
    }

    /// Queues a row; rowids must grow.
    pub fn push(&mut self, meta: RowMeta, v: &[f32]) -> Result<()> {
        if v.len() != self.dim {
            bail!("a vector of {} numbers for model {} whose vectors have {}", v.len(), self.model, self.dim);
        }
        if meta.rowid <= self.last_rowid {
            bail!("rows out of order in {}", self.path.display());
        }
        self.last_rowid = meta.rowid;
        encode_row(&mut self.pending, meta, v);
        self.added += 1;
        self.through = self.through.max(meta.rowid);
        if self.pending.len() >= FLUSH_AT {
            self.flush()?;
        }
        Ok(())
    }

    /// Writes queued rows past the published end; unseen until `commit`.
    fn flush(&mut self) -> Result<()> {
        self.file.write_all(&self.pending).with_context(|| format!("cannot write {}", self.path.display()))?;
        self.pending.clear();
        Ok(())
    }

    /// Records that papers up to `rowid` are all in the file or have no vector.
    pub fn settle(&mut self, rowid: i64) {
        self.through = self.through.max(rowid);
    }

    /// Marks the row of `rowid` dead, if the file has it. Rows past the
    /// header's count are not looked at: they are queued, not written.
    pub fn retire(&mut self, rowid: i64, seq: i64, flat: &FlatVectors) -> Result<()> {
        if let Some(i) = flat.position(rowid).filter(|&i| flat.is_live(i)) {
            let mut row = Vec::with_capacity(row_bytes(self.dim));
            let m = flat.meta(i);
            encode_row(&mut row, RowMeta { rowid: -rowid, ..m }, &vec![0.0; self.dim]);
            let at = (HEADER + i * row_bytes(self.dim)) as u64;
            self.file.write_all_at(&row, at).with_context(|| format!("cannot write {}", self.path.display()))?;
        }
        self.retired = self.retired.max(seq);
        Ok(())
    }

    /// Writes the queued rows, syncs, then publishes the new count in the
    /// header. Returns how many rows were added.
    pub fn commit(mut self) -> Result<usize> {
        self.flush()?;
        let io = |e: std::io::Error| anyhow::Error::new(e).context(format!("cannot write {}", self.path.display()));
        let added = self.added;
        self.file.sync_data().map_err(io)?;
        let h = header(&self.model, self.dim, self.count + added, self.through, self.retired)?;
        self.file.write_all_at(&h, 0).map_err(io)?;
        self.file.sync_data().map_err(io)?;
        Ok(added)
    }
}

/// From this many vectors on, an exact scan runs on every core.
const PARALLEL_SCAN: usize = 32_768;

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

    fn meta(rowid: i64) -> RowMeta {
        RowMeta { rowid, subjects: 0, day: FileDay::NONE }
    }

    fn append(path: &Path, rows: &[(i64, [f32; 2])]) {
        let mut a = Appender::open(path, "m", 2).unwrap();
        for (r, v) in rows {
            a.push(meta(*r), v).unwrap();
        }
        a.commit().unwrap();
    }

    #[test]
    fn appends_scan_and_retire() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.bin");
        append(&path, &[(10, [1.0, 0.0]), (20, [0.0, 1.0])]);
        append(&path, &[(30, [0.6, 0.8])]);
        let f = FlatVectors::open(&path).unwrap();
        assert_eq!((f.dim, f.count, f.through, f.model.as_str()), (2, 3, 30, "m"));
        assert_eq!((0..3).map(|i| f.rowid(i)).collect::<Vec<_>>(), vec![10, 20, 30]);
        let top = f.top_k(&[1.0, 0.0], 2, |_| true);
        assert_eq!(top.iter().map(|t| t.0).collect::<Vec<_>>(), vec![0, 2]);
        assert_eq!(f.position(20), Some(1));
        assert_eq!(f.position(25), None);

        let mut a = Appender::open(&path, "m", 2).unwrap();
        a.retire(10, 1, &f).unwrap();
        a.commit().unwrap();
        // The mapping a reader already holds sees the row die too.
        assert!(!f.is_live(0));
        let g = FlatVectors::open(&path).unwrap();
        assert_eq!((g.retired, g.live(), g.position(10)), (1, 2, Some(0)));
        let top = g.top_k(&[1.0, 0.0], 2, |_| true);
        assert_eq!(top.iter().map(|t| t.0).collect::<Vec<_>>(), vec![2, 1]);
        // Rows must come in rowid order.
        let mut a = Appender::open(&path, "m", 2).unwrap();
        assert!(a.push(meta(5), &[1.0, 0.0]).is_err());
    }

    /// A writer killed after writing rows but before the header leaves a
    /// file that reads as before; the next writer cuts the tail off.
    #[test]
    fn an_unpublished_tail_is_ignored_then_cut() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.bin");
        append(&path, &[(1, [1.0, 0.0])]);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes.extend_from_slice(&[7u8; 30]);
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(FlatVectors::open(&path).unwrap().count, 1);
        append(&path, &[(2, [0.0, 1.0])]);
        let f = FlatVectors::open(&path).unwrap();
        assert_eq!((f.count, f.rowid(1), f.vector(1)), (2, 2, &[0.0, 1.0][..]));
        // A truncated file is refused, not misread.
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
        assert!(FlatVectors::open(&path).is_err());
    }

    #[test]
    fn another_model_or_dimension_starts_the_file_anew() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.bin");
        append(&path, &[(1, [1.0, 0.0])]);
        let a = Appender::open(&path, "other", 2).unwrap();
        assert_eq!(a.through(), 0);
        a.commit().unwrap();
        assert_eq!(FlatVectors::open(&path).unwrap().count, 0);
    }

    #[test]
    fn in_memory_rows_read_like_a_file() {
        let rows = vec![(meta(7), vec![1.0, 0.0]), (RowMeta { rowid: 9, subjects: 3, day: FileDay(20250316) }, vec![0.0, 1.0])];
        let f = FlatVectors::in_memory("m", 2, &rows, 9, 0).unwrap();
        assert_eq!((f.count, f.rowid(1), f.vector(1), f.meta(1).day), (2, 9, &[0.0, 1.0][..], FileDay(20250316)));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.bin");
        write(&path, &f).unwrap();
        let g = FlatVectors::open(&path).unwrap();
        assert_eq!((g.through, g.meta(1)), (9, f.meta(1)));
    }

    #[test]
    fn days_and_signatures() {
        assert_eq!(RowMeta::new(1, Some("2025-03-16"), &[]).day, FileDay(20250316));
        assert_eq!(RowMeta::new(1, Some("16 Mar 2025"), &[]).day, FileDay::NONE);
        assert_eq!(RowMeta::new(1, Some("2025-02-30"), &[]).day, FileDay::NONE);
        assert!(FileDay::of(Day::parse("2025-12-31").unwrap()) < FileDay::of(Day::parse("2026-01-01").unwrap()));
        let s = signature(&["cs.LG".to_string(), "stat.ML".to_string()]);
        assert_ne!(s & subject_bit("cs.LG"), 0);
        assert_ne!(s & subject_bit("stat.ML"), 0);
    }

    /// Split across cores, the scan still returns exactly the brute-force top k.
    #[test]
    fn a_parallel_scan_finds_what_a_full_sort_finds() {
        let (n, dim) = (PARALLEL_SCAN + 1_234, 8);
        let mut x = 12345u64;
        let mut rows = Vec::with_capacity(n);
        for r in 0..n {
            let v: Vec<f32> = (0..dim)
                .map(|_| {
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    ((x >> 33) as f32 / (1u64 << 31) as f32) - 0.5
                })
                .collect();
            rows.push((meta(r as i64 + 1), v));
        }
        let f = FlatVectors::in_memory("m", dim, &rows, n as i64, 0).unwrap();
        let q = [0.3, -0.2, 0.5, 0.1, -0.4, 0.2, 0.0, 0.6];
        // Row i holds rowid i + 1.
        let keep = |m: RowMeta| m.rowid % 7 != 4;
        let mut all: Vec<(usize, f32)> = (0..n).filter(|&i| i % 7 != 3).map(|i| (i, dot(&q, &rows[i].1))).collect();
        all.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        all.truncate(25);
        assert_eq!(f.top_k(&q, 25, keep), all);
    }
}
