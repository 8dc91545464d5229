//! Engine comparison harness: each phase is its own process so that
//! /usr/bin/time reports its RSS and CPU time alone.
use std::time::Instant;
use std::io::Write;

fn cpu() -> f64 {
    let s = std::fs::read_to_string("/proc/self/stat").unwrap();
    let f: Vec<&str> = s.rsplit(')').next().unwrap().split_whitespace().collect();
    (f[11].parse::<f64>().unwrap() + f[12].parse::<f64>().unwrap()) / 100.0
}
fn rss_mb() -> f64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap();
    for l in s.lines() { if l.starts_with("VmHWM") { return l.split_whitespace().nth(1).unwrap().parse::<f64>().unwrap() / 1024.0; } }
    0.0
}
const DIM: usize = 384;
fn load_f32(path: &str) -> memmap2::Mmap { let f = std::fs::File::open(path).unwrap(); unsafe { memmap2::Mmap::map(&f).unwrap() } }
fn as_f32(m: &[u8]) -> &[f32] { let (_, f, _) = unsafe { m.align_to::<f32>() }; f }
fn dot(a: &[f32], b: &[f32]) -> f32 { let mut acc=[0f32;8]; for (x,y) in a.chunks_exact(8).zip(b.chunks_exact(8)) { for j in 0..8 { acc[j]+=x[j]*y[j]; } } acc.iter().sum() }
fn norm(v: &mut [f32]) { let n = dot(v, v).sqrt(); for x in v { *x /= n; } }

struct Rng(u64);
impl Rng { fn next(&mut self) -> u64 { self.0 ^= self.0 << 13; self.0 ^= self.0 >> 7; self.0 ^= self.0 << 17; self.0 }
  fn gauss(&mut self) -> f32 { let u = (self.next() >> 11) as f64 / (1u64<<53) as f64 + 1e-12; let v = (self.next() >> 11) as f64 / (1u64<<53) as f64; ((-2.0*u.ln()).sqrt() * (6.283185307*v).cos()) as f32 } }

#[derive(Default, Clone, Copy)]
struct Unit;
impl anndists::dist::Distance<f32> for Unit { fn eval(&self, a: &[f32], b: &[f32]) -> f32 { (1.0 - dot(a, b)).max(0.0) } }

fn queries(n: usize) -> Vec<usize> { let mut r = Rng(99); (0..200).map(|_| (r.next() as usize) % n).collect() }

fn main() {
    let a: Vec<String> = std::env::args().collect();
    match a[1].as_str() {
        // make SRC_VECTORS_BIN N OUT: real vectors first, then noisy copies.
        "make" => {
            let m = load_f32(&a[2]);
            let count = u64::from_le_bytes(m[16..24].try_into().unwrap()) as usize;
            let real = &as_f32(&m[512 + count * 8..])[..count * DIM];
            let n: usize = a[3].parse().unwrap();
            let mut out = std::io::BufWriter::new(std::fs::File::create(&a[4]).unwrap());
            let mut r = Rng(12345);
            let mut v = vec![0f32; DIM];
            for i in 0..n {
                if i < count { v.copy_from_slice(&real[i*DIM..(i+1)*DIM]); }
                else { let s = (r.next() as usize) % count; for j in 0..DIM { v[j] = real[s*DIM+j] + 0.032 * r.gauss(); } norm(&mut v); }
                for x in &v { out.write_all(&x.to_le_bytes()).unwrap(); }
            }
        }
        // truth F: exact top 11 of 200 queries (self included), written as text.
        "truth" => {
            let m = load_f32(&a[2]); let d = as_f32(&m); let n = d.len() / DIM;
            use rayon::prelude::*;
            let t: Vec<String> = queries(n).par_iter().map(|&q| {
                let qv = &d[q*DIM..(q+1)*DIM];
                let mut s: Vec<(f32, usize)> = (0..n).map(|i| (dot(qv, &d[i*DIM..(i+1)*DIM]), i)).collect();
                s.select_nth_unstable_by(11, |x, y| y.0.total_cmp(&x.0)); s.truncate(11); s.sort_by(|x,y| y.0.total_cmp(&x.0));
                s.iter().map(|x| x.1.to_string()).collect::<Vec<_>>().join(" ")
            }).collect();
            std::fs::write(&a[3], t.join("\n")).unwrap();
        }
        "build" => {
            let m = load_f32(&a[3]); let d = as_f32(&m); let n = d.len() / DIM;
            let (t0, c0) = (Instant::now(), cpu());
            match a[2].as_str() {
                "usearch" => {
                    let o = usearch::IndexOptions { dimensions: DIM, metric: usearch::MetricKind::IP, quantization: usearch::ScalarKind::I8, connectivity: 16, expansion_add: 128, expansion_search: 64, multi: false };
                    let ix = usearch::Index::new(&o).unwrap();
                    ix.reserve_capacity_and_threads(n, rayon::current_num_threads()).unwrap();
                    use rayon::prelude::*;
                    (0..n).into_par_iter().for_each(|i| ix.add(i as u64, &d[i*DIM..(i+1)*DIM]).unwrap());
                    ix.save(&a[4]).unwrap();
                }
                "hnsw_rs" => {
                    let h = hnsw_rs::hnsw::Hnsw::<f32, Unit>::new(16, n, 16, 100, Unit);
                    let items: Vec<(&[f32], usize)> = (0..n).map(|i| (&d[i*DIM..(i+1)*DIM], i)).collect();
                    for c in items.chunks(4096) { h.parallel_insert_slice(&c.to_vec()); }
                    use hnsw_rs::api::AnnT;
                    h.file_dump(std::path::Path::new(&a[4]), "g").unwrap();
                }
                "i8scan" => {
                    let mut out = std::io::BufWriter::new(std::fs::File::create(&a[4]).unwrap());
                    for x in d { out.write_all(&[((x * 127.0).round().clamp(-127.0, 127.0) as i8) as u8]).unwrap(); }
                }
                _ => panic!(),
            }
            println!("build {} n={n} wall={:.1}s cpu={:.1}s peak_rss={:.0}MB", a[2], t0.elapsed().as_secs_f64(), cpu() - c0, rss_mb());
        }
        // query ENGINE VECTORS INDEX TRUTH EF
        "query" => {
            let t0 = Instant::now(); let c0 = cpu();
            let m = load_f32(&a[3]); let d = as_f32(&m); let n = d.len() / DIM;
            let truth: Vec<Vec<usize>> = std::fs::read_to_string(&a[5]).unwrap().lines().map(|l| l.split(' ').map(|x| x.parse().unwrap()).collect()).collect();
            let ef: usize = a.get(6).map(|x| x.parse().unwrap()).unwrap_or(64);
            let qs = queries(n);
            let rescore = |cands: Vec<usize>, q: usize| -> Vec<usize> {
                let qv = &d[q*DIM..(q+1)*DIM];
                let mut s: Vec<(f32, usize)> = cands.into_iter().filter(|&c| c != q).map(|c| (dot(qv, &d[c*DIM..(c+1)*DIM]), c)).collect();
                s.sort_by(|x, y| y.0.total_cmp(&x.0)); s.truncate(10); s.into_iter().map(|x| x.1).collect()
            };
            let mut lat = Vec::new(); let mut hit = 0usize;
            let open;
            let mut res: Vec<Vec<usize>> = Vec::new();
            match a[2].as_str() {
                "usearch" => {
                    let ix = usearch::Index::restore_view(&a[4]).unwrap();
                    ix.change_expansion_search(ef);
                    open = t0.elapsed().as_secs_f64();
                    for &q in &qs { let t = Instant::now(); let r = ix.search(&d[q*DIM..(q+1)*DIM], 40).unwrap(); let top = rescore(r.keys.iter().map(|&k| k as usize).collect(), q); lat.push(t.elapsed().as_secs_f64()); res.push(top); }
                }
                "hnsw_rs" => {
                    let dir = std::path::Path::new(&a[4]);
                    let mut io = hnsw_rs::hnswio::HnswIo::new(dir, "g");
                    let h = io.load_hnsw::<f32, Unit>().unwrap();
                    open = t0.elapsed().as_secs_f64();
                    for &q in &qs { let t = Instant::now(); let r = h.search(&d[q*DIM..(q+1)*DIM], 11, ef); let top: Vec<usize> = r.iter().map(|x| x.d_id).filter(|&c| c != q).take(10).collect(); lat.push(t.elapsed().as_secs_f64()); res.push(top); }
                }
                "i8scan" => {
                    let qm = load_f32(&a[4]); let qd: &[i8] = unsafe { std::slice::from_raw_parts(qm.as_ptr() as *const i8, qm.len()) };
                    open = t0.elapsed().as_secs_f64();
                    for &q in &qs {
                        let t = Instant::now();
                        let qv: Vec<i32> = d[q*DIM..(q+1)*DIM].iter().map(|x| (x*127.0).round() as i32).collect();
                        use rayon::prelude::*;
                        let mut s: Vec<(i32, usize)> = qd.par_chunks(DIM * 4096).enumerate().flat_map_iter(|(b, blk)| {
                            let mut best: Vec<(i32, usize)> = blk.chunks_exact(DIM).enumerate().map(|(j, v)| (v.iter().zip(&qv).map(|(&x, &y)| x as i32 * y).sum::<i32>(), b*4096+j)).collect();
                            let k = 200.min(best.len() - 1); best.select_nth_unstable_by(k, |x, y| y.0.cmp(&x.0)); best.truncate(k); best.into_iter()
                        }).collect();
                        s.sort_by(|x, y| y.0.cmp(&x.0)); s.truncate(200);
                        let top = rescore(s.into_iter().map(|x| x.1).collect(), q); lat.push(t.elapsed().as_secs_f64()); res.push(top);
                    }
                }
                _ => panic!(),
            }
            for (r, t) in res.iter().zip(&truth) { let want: Vec<usize> = t.iter().copied().filter(|&x| x != qs[res.len().min(0)] ).collect(); let _ = want; }
            for (i, r) in res.iter().enumerate() { let want: Vec<usize> = truth[i].iter().copied().filter(|&x| x != qs[i]).take(10).collect(); hit += r.iter().filter(|x| want.contains(x)).count(); }
            lat.sort_by(|x, y| x.total_cmp(y));
            println!("query {} n={n} ef={ef} open={:.3}s p50={:.0}us p99={:.0}us recall@10={:.4} cpu_total={:.2}s peak_rss={:.0}MB", a[2], open, lat[lat.len()/2]*1e6, lat[lat.len()*99/100]*1e6, hit as f64 / (10.0 * res.len() as f64), cpu() - c0, rss_mb());
        }
        _ => panic!(),
    }
}
