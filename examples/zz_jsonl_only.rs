// Temporary: jsonl::parse in a loop for perf (to be deleted).
use std::io::Read;
use std::time::Instant;
fn main() {
    let path = std::path::Path::new("/work/shared/data/corpus/arxiv-cs-2025-2026.jsonl.gz");
    let n: usize = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(5);
    let bytes = std::fs::read(path).unwrap();
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(&bytes[..]).read_to_end(&mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    for _ in 0..n {
        let t = Instant::now();
        let p = paperscout::listing::jsonl::parse(&text, "x").unwrap();
        let a = t.elapsed();
        let t = Instant::now();
        drop(p);
        println!("jsonl {:?} drop {:?}", a, t.elapsed());
    }
}
