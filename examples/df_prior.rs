//! Writes `src/rank/df-prior.txt`: how many papers of a corpus say each
//! common word and phrase, as the lexical index counts them. A library
//! too small to know which words are common borrows these counts
//! (`rank::vocabulary`).
//!
//!     cargo run --release --example df_prior -- ../shared/data/corpus/arxiv-cs-2025-2026.jsonl.gz > src/rank/df-prior.txt
//!
//! Reads the corpus as `ingest` does (any listing format, gzipped or not),
//! so the counts are of the titles and abstracts a library would index.

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

use anyhow::{bail, Result};
use paperscout::library::lexical::{phrases, stems, word_analyzer};
use paperscout::listing::stream;

/// Terms said by fewer papers than this share are left out: past it a
/// term is rare anyway, and the library's own count decides.
const MIN_SHARE: f64 = 0.002;

fn main() -> Result<()> {
    let Some(path) = std::env::args().nth(1) else { bail!("usage: df_prior CORPUS") };
    let mut analyzer = word_analyzer();
    let mut df: HashMap<String, u64> = HashMap::new();
    let mut docs = 0u64;
    for batch in stream::open(Path::new(&path))? {
        for paper in batch?.papers {
            let text = format!("{}\n{}", paper.title, paper.abstract_text);
            let words = stems(&mut analyzer, &text);
            let mut seen: Vec<String> = words.iter().map(|w| w.stem.clone()).chain(phrases(&text, &words).map(|p| p.stem)).collect();
            seen.sort_unstable();
            seen.dedup();
            for t in seen {
                *df.entry(t).or_default() += 1;
            }
            docs += 1;
        }
    }
    let min = ((docs as f64 * MIN_SHARE).ceil() as u64).max(1);
    let mut rows: Vec<(&String, &u64)> = df.iter().filter(|(_, &c)| c >= min).collect();
    rows.sort_unstable_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let mut out = std::io::stdout().lock();
    writeln!(out, "{docs}")?;
    for (term, count) in rows {
        writeln!(out, "{count}\t{term}")?;
    }
    Ok(())
}
