//! `paperscout embed [FILE|-]`: JSON lines in, the same lines with an added
//! `embedding` and the `model` that made it out, in input order, a chunk at
//! a time (a corpus of millions streams through). A line's text is its
//! `text` field, else the paper it describes (title and abstract, cleaned
//! as `ingest` cleans them), so the vectors of a metadata dump key to the
//! papers `ingest` makes of it. `--shard I/N` embeds every N-th line.

use crate::cli::{EmbedArgs, Shard};
use crate::embed;
use crate::listing::jsonl;
use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{BufRead, BufWriter, IsTerminal, Write};
use std::time::Instant;

/// Texts embedded per round; output is written after each round.
const CHUNK: usize = 4096;

#[derive(Debug)]
struct Line {
    raw: String,
    text: String,
    /// The object already has an `embedding` or `model` key (replaced).
    has_embedding: bool,
}

fn parse_line(raw: String, n: usize) -> Result<Line> {
    let value: serde_json::Value = serde_json::from_str(&raw).with_context(|| format!("line {n}: not JSON"))?;
    let obj = value.as_object().with_context(|| format!("line {n}: not a JSON object"))?;
    let text = match obj.get("text") {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(_) => bail!("line {n}: `text` is not a string"),
        None => match jsonl::parse(&raw, "-") {
            Ok(parsed) if parsed.warnings.is_empty() && parsed.papers.len() == 1 => parsed.papers[0].embedding_text(),
            _ => bail!("line {n}: no string field `text`, and not a paper with an id and a title"),
        },
    };
    let has_embedding = obj.contains_key("embedding") || obj.contains_key("model");
    Ok(Line { raw, text, has_embedding })
}

/// The input line with `"embedding": [...]` and `"model": "..."` added as
/// its last fields; the rest of the line is passed through byte for byte.
fn with_embedding(line: &Line, v: &[f32], model: &str) -> Result<String> {
    let vector = serde_json::to_string(v)?;
    if line.has_embedding {
        let mut value: serde_json::Value = serde_json::from_str(&line.raw)?;
        if let Some(obj) = value.as_object_mut() {
            obj.remove("embedding");
            obj.remove("model");
            obj.insert("embedding".into(), serde_json::from_str(&vector)?);
            obj.insert("model".into(), model.into());
        }
        return Ok(serde_json::to_string(&value)?);
    }
    let body = line.raw.trim_end();
    let body = &body[..body.len() - 1]; // drop the closing brace
    let empty = body.trim_end().ends_with('{');
    Ok(format!("{}{}\"embedding\":{vector},\"model\":{}}}", body, if empty { "" } else { "," }, serde_json::to_string(model)?))
}

/// Reads up to [`CHUNK`] lines of this shard; `index` counts every line
/// read so far, blank or not, so each shard takes lines by position.
fn read_chunk(reader: &mut dyn BufRead, index: &mut usize, shard: Option<Shard>, file: &str) -> Result<Vec<Line>> {
    let mut lines = Vec::new();
    let mut raw = String::new();
    while lines.len() < CHUNK {
        raw.clear();
        if reader.read_line(&mut raw).with_context(|| format!("cannot read {file}"))? == 0 {
            break;
        }
        let i = *index;
        *index += 1;
        if raw.trim().is_empty() || shard.is_some_and(|s| !s.takes(i)) {
            continue;
        }
        let mut line = raw.trim_end_matches(['\n', '\r']);
        if i == 0 {
            // A file saved by an editor that marks UTF-8.
            line = line.strip_prefix('\u{feff}').unwrap_or(line);
        }
        lines.push(parse_line(line.to_string(), i + 1).with_context(|| file.to_string())?);
    }
    Ok(lines)
}

pub fn run(args: &EmbedArgs) -> Result<()> {
    let file = args.file.display().to_string();
    let mut reader: Box<dyn BufRead> = if file == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let f = std::fs::File::open(&args.file).with_context(|| format!("cannot open {file}"))?;
        Box::new(std::io::BufReader::new(f))
    };
    let embedder = embed::load(&args.model)?;
    let start = Instant::now();
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::no_length();
        bar.set_style(ProgressStyle::with_template("{pos} texts {per_sec}").unwrap_or_else(|_| ProgressStyle::default_bar()));
        bar
    } else {
        ProgressBar::hidden()
    };
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let (mut index, mut done) = (0, 0);
    loop {
        let chunk = read_chunk(reader.as_mut(), &mut index, args.shard, &file)?;
        if chunk.is_empty() {
            break;
        }
        let texts: Vec<&str> = chunk.iter().map(|l| l.text.as_str()).collect();
        let vectors = embedder.embed(&texts, &|n| bar.set_position((done + n) as u64))?;
        for (line, v) in chunk.iter().zip(&vectors) {
            writeln!(out, "{}", with_embedding(line, v, embedder.model_id())?)?;
        }
        out.flush()?;
        done += chunk.len();
    }
    bar.finish_and_clear();
    if crate::messages::verbose() {
        let secs = start.elapsed().as_secs_f64();
        crate::messages::note(format_args!(
            "embedded {done} texts in {secs:.2} s ({:.1} texts/s) with {}",
            done as f64 / secs.max(1e-9),
            embedder.model_id()
        ));
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
    fn adds_embedding_and_model_keeping_the_line() {
        let l = line(r#"{"id": "2501.00001", "text": "x", "z": [1, 2]}"#);
        assert_eq!(
            with_embedding(&l, &[0.5, -1.0], "m:1").unwrap(),
            r#"{"id": "2501.00001", "text": "x", "z": [1, 2],"embedding":[0.5,-1.0],"model":"m:1"}"#
        );
        let l = line(r#"{"text":"x","embedding":[9],"model":"old"}"#);
        let v: serde_json::Value = serde_json::from_str(&with_embedding(&l, &[1.0], "m:2").unwrap()).unwrap();
        assert_eq!((&v["embedding"], &v["model"]), (&serde_json::json!([1.0]), &serde_json::json!("m:2")));
    }

    /// A snapshot line has no `text`: its text is the paper's, cleaned.
    #[test]
    fn a_paper_line_is_embedded_as_its_paper_text() {
        let l = line(r#"{"id":"hep-th/9901001","title":"Wrapped\n  title","abstract":"  One\ntwo.\n","versions":[{"version":"v1"}]}"#);
        assert_eq!(l.text, "Wrapped title. One two.");
    }

    #[test]
    fn rejects_lines_without_text() {
        assert!(parse_line("[1]".into(), 3).unwrap_err().to_string().contains("line 3"));
        assert!(parse_line(r#"{"text": 5}"#.into(), 4).is_err());
        assert!(parse_line(r#"{"id": "2501.00001"}"#.into(), 4).is_err(), "no title");
        assert!(parse_line("{".into(), 5).is_err());
    }
}
