//! Writes `src/rank/df-prior.txt`: how many papers of a corpus say each
//! common word and phrase, as the lexical index counts them. A library
//! too small to know which words are common borrows these counts
//! (`rank::vocabulary`).
//!
//!     cargo run --release --example df_prior -- ../shared/data/corpus/arxiv-cs-2025-2026.jsonl.gz > src/rank/df-prior.txt
//!
//! Reads JSON Lines (optionally gzipped) with `title` and `abstract`.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};

use anyhow::{bail, Context, Result};
use paperscout::library::lexical::{phrases, stems, word_analyzer};

/// Terms said by fewer papers than this share are left out: past it a
/// term is rare anyway, and the library's own count decides.
const MIN_SHARE: f64 = 0.002;

fn main() -> Result<()> {
    let Some(path) = std::env::args().nth(1) else { bail!("usage: df_prior CORPUS.jsonl[.gz]") };
    let file = std::fs::File::open(&path).with_context(|| format!("{path}: cannot open"))?;
    let reader: Box<dyn Read> = if path.ends_with(".gz") { Box::new(flate2::read::MultiGzDecoder::new(file)) } else { Box::new(file) };
    let mut analyzer = word_analyzer();
    let mut df: HashMap<String, u64> = HashMap::new();
    let mut docs = 0u64;
    for (n, line) in BufReader::new(reader).lines().enumerate() {
        let line = line.with_context(|| format!("{path}:{}: cannot read", n + 1))?;
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(&line).with_context(|| format!("{path}:{}: not JSON", n + 1))?;
        let field = |k: &str| v.get(k).and_then(|x| x.as_str()).unwrap_or("").trim().to_string();
        let text = format!("{}\n{}", field("title"), field("abstract"));
        let words = stems(&mut analyzer, &text);
        let mut seen: Vec<String> = words.iter().map(|w| w.stem.clone()).chain(phrases(&text, &words).map(|p| p.stem)).collect();
        seen.sort_unstable();
        seen.dedup();
        for t in seen {
            *df.entry(t).or_default() += 1;
        }
        docs += 1;
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
