//! `paperscout embed [FILE|-]`: JSON lines with a `text` field in, the same
//! lines with an added `embedding` out, in input order.

use crate::cli::EmbedArgs;
use crate::embed;
use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{BufRead, BufWriter, IsTerminal, Write};
use std::time::Instant;

/// Texts embedded per round; output is written after each round.
const CHUNK: usize = 4096;
/// Inputs shorter than this get no progress bar.
const PROGRESS_MIN: usize = 64;

#[derive(Debug)]
struct Line {
    raw: String,
    text: String,
    /// The object already has an `embedding` key (it gets replaced).
    has_embedding: bool,
}

fn parse_line(raw: String, n: usize) -> Result<Line> {
    let value: serde_json::Value =
        serde_json::from_str(&raw).with_context(|| format!("line {n}: not JSON"))?;
    let obj = value
        .as_object()
        .with_context(|| format!("line {n}: not a JSON object"))?;
    let text = match obj.get("text") {
        Some(serde_json::Value::String(s)) => s.clone(),
        _ => bail!("line {n}: no string field `text`"),
    };
    let has_embedding = obj.contains_key("embedding");
    Ok(Line {
        raw,
        text,
        has_embedding,
    })
}

fn read_lines(args: &EmbedArgs) -> Result<Vec<Line>> {
    let reader: Box<dyn BufRead> = if args.file.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let f = std::fs::File::open(&args.file)
            .with_context(|| format!("cannot open {}", args.file.display()))?;
        Box::new(std::io::BufReader::new(f))
    };
    let mut lines = Vec::new();
    for (i, line) in reader.lines().enumerate() {
        let line = line.with_context(|| format!("cannot read {}", args.file.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        lines.push(parse_line(line, i + 1)?);
    }
    Ok(lines)
}

/// The input line with `"embedding": [...]` added as its last field; the
/// rest of the line is passed through byte for byte.
fn with_embedding(line: &Line, v: &[f32]) -> Result<String> {
    let vector = serde_json::to_string(v)?;
    if line.has_embedding {
        let mut value: serde_json::Value = serde_json::from_str(&line.raw)?;
        if let Some(obj) = value.as_object_mut() {
            obj.insert("embedding".into(), serde_json::from_str(&vector)?);
        }
        return Ok(serde_json::to_string(&value)?);
    }
    let body = line.raw.trim_end();
    let body = &body[..body.len() - 1]; // drop the closing brace
    let empty = body.trim_end().ends_with('{');
    Ok(format!(
        "{}{}\"embedding\":{vector}}}",
        body,
        if empty { "" } else { "," }
    ))
}

pub fn run(args: &EmbedArgs, verbose: bool) -> Result<()> {
    let lines = read_lines(args)?;
    let embedder = embed::load(&args.model, verbose)?;
    let start = Instant::now();
    let bar = if lines.len() >= PROGRESS_MIN && std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(lines.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} texts {per_sec} eta {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for (c, chunk) in lines.chunks(CHUNK).enumerate() {
        let texts: Vec<&str> = chunk.iter().map(|l| l.text.as_str()).collect();
        let offset = c * CHUNK;
        let vectors = embedder.embed(&texts, &|done| bar.set_position((offset + done) as u64))?;
        for (line, v) in chunk.iter().zip(&vectors) {
            writeln!(out, "{}", with_embedding(line, v)?)?;
        }
    }
    out.flush()?;
    bar.finish_and_clear();
    if verbose {
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "embedded {} texts in {secs:.2} s ({:.1} texts/s) with {}",
            lines.len(),
            lines.len() as f64 / secs.max(1e-9),
            embedder.model_id()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(raw: &str) -> Line {
        parse_line(raw.to_string(), 1).unwrap()
    }

    #[test]
    fn adds_embedding_keeping_the_line() {
        let l = line(r#"{"id": "2501.00001", "text": "x", "z": [1, 2]}"#);
        assert_eq!(
            with_embedding(&l, &[0.5, -1.0]).unwrap(),
            r#"{"id": "2501.00001", "text": "x", "z": [1, 2],"embedding":[0.5,-1.0]}"#
        );
        let l = line(r#"{"text":"x","embedding":[9]}"#);
        let v: serde_json::Value =
            serde_json::from_str(&with_embedding(&l, &[1.0]).unwrap()).unwrap();
        assert_eq!(v["embedding"], serde_json::json!([1.0]));
    }

    #[test]
    fn rejects_lines_without_text() {
        assert!(parse_line("[1]".into(), 3)
            .unwrap_err()
            .to_string()
            .contains("line 3"));
        assert!(parse_line(r#"{"text": 5}"#.into(), 4).is_err());
        assert!(parse_line("{".into(), 5).is_err());
    }
}
