// Temporary: per-stage timing (to be deleted).
use std::io::Read;
use std::time::Instant;
fn main() {
    let path = std::path::Path::new("/work/shared/data/corpus/arxiv-cs-2025-2026.jsonl.gz");
    let n: usize = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(5);
    for _ in 0..n {
        let t = Instant::now();
        let bytes = std::fs::read(path).unwrap();
        let t_read = t.elapsed();
        let t = Instant::now();
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(&bytes[..]).read_to_end(&mut out).unwrap();
        let t_gz = t.elapsed();
        let t = Instant::now();
        let text = String::from_utf8(out).unwrap();
        let t_utf = t.elapsed();
        let t = Instant::now();
        let v: usize = serde_json::Deserializer::from_str(&text).into_iter::<serde::de::IgnoredAny>().count();
        let t_ign = t.elapsed();
        let t = Instant::now();
        let p = paperscout::listing::jsonl::parse(&text, "x").unwrap();
        let t_parse = t.elapsed();
        let t = Instant::now();
        drop(p);
        let t_drop = t.elapsed();
        let t = Instant::now();
        let p = paperscout::listing::parse_path(path).unwrap();
        let t_all = t.elapsed();
        println!("read {:?} gunzip {:?} utf8 {:?} ignored {:?}({v}) jsonl {:?} drop {:?} | parse_path {:?} ({})", t_read, t_gz, t_utf, t_ign, t_parse, t_drop, t_all, p.papers.len());
    }
}
