//! Inputs read a piece at a time, for `ingest`: the arXiv bulk snapshot
//! (~3 M lines, 4 GB) and files of vectors made elsewhere must not be held
//! whole. JSON lines are read in line-aligned pieces of about [`PIECE`]
//! bytes (gzipped or not) and handed on batch by batch; a Parquet export
//! (found by its `PAR1` magic) comes row group by row group; every other
//! format is a listing of a few hundred papers and is parsed whole.

use super::jsonl::{self, Records, Span, Why};
use super::Batch;
use super::{Format, ListingError};
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// Bytes of JSON lines parsed at a time (then up to the end of the line).
const PIECE: usize = 4 << 20;

/// An input being read.
pub enum Batches {
    Lines(Lines),
    /// A listing parsed whole; taken on the first call.
    Whole(Option<Batch>),
    Parquet(super::parquet::Reader),
}

impl Iterator for Batches {
    type Item = Result<Batch, ListingError>;
    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Batches::Lines(lines) => lines.next(),
            Batches::Whole(batch) => batch.take().map(Ok),
            Batches::Parquet(reader) => reader.next(),
        }
    }
}

/// Opens one input (`-` is standard input) and decides how to read it by
/// its content.
pub fn open(path: &Path) -> Result<Batches, ListingError> {
    open_with(path, PIECE)
}

fn open_with(path: &Path, piece: usize) -> Result<Batches, ListingError> {
    let source = path.display().to_string();
    let cannot_read = |e: std::io::Error| ListingError::new(&source, None, format!("cannot read: {e}"));
    let raw: Box<dyn Read + Send> =
        if source == "-" { Box::new(std::io::stdin()) } else { Box::new(std::fs::File::open(path).map_err(cannot_read)?) };
    let mut raw = BufReader::with_capacity(256 << 10, raw);
    let head = raw.fill_buf().map_err(cannot_read)?;
    if head.starts_with(super::parquet::MAGIC) {
        if source == "-" {
            return Err(ListingError::new(&source, None, "Parquet is read from a file, not from standard input"));
        }
        return super::parquet::Reader::open(path).map(Batches::Parquet);
    }
    let reader: Box<dyn BufRead + Send> = if head.starts_with(&super::GZIP_MAGIC) {
        Box::new(BufReader::with_capacity(256 << 10, flate2::read::MultiGzDecoder::new(raw)))
    } else {
        Box::new(raw)
    };
    let mut lines = Lines {
        reader,
        source,
        piece,
        line_base: 0,
        pending: Vec::new(),
        eof: false,
        papers: 0,
        skipped: 0,
        first_skip: None,
        done: false,
    };
    lines.fill(piece)?;
    let mut notes = Vec::new();
    let is_jsonl = super::decode(&lines.pending, &lines.source, &mut notes).is_ok_and(|text| super::detect(&text) == Some(Format::Jsonl));
    if is_jsonl {
        return Ok(Batches::Lines(lines));
    }
    // A listing page or feed: small, and its parsers want all of it.
    let mut bytes = std::mem::take(&mut lines.pending);
    lines.reader.read_to_end(&mut bytes).map_err(|e| lines.read_error(e))?;
    let parsed = super::parse_bytes(&bytes, &lines.source)?;
    let mut warnings = parsed.warnings.clone();
    warnings.extend(parsed.skip_summary(&lines.source));
    Ok(Batches::Whole(Some(Batch { papers: parsed.papers, given: Vec::new(), warnings, rows: false })))
}

/// JSON lines, a piece at a time.
pub struct Lines {
    reader: Box<dyn BufRead + Send>,
    source: String,
    /// Bytes parsed at a time.
    piece: usize,
    /// Lines before `pending`.
    line_base: usize,
    /// Bytes read and not yet parsed, from the start of a line.
    pending: Vec<u8>,
    eof: bool,
    papers: usize,
    skipped: usize,
    first_skip: Option<(usize, String)>,
    done: bool,
}

impl Lines {
    /// Reads whole lines until `pending` holds at least `want` bytes or the
    /// input ends.
    fn fill(&mut self, want: usize) -> Result<(), ListingError> {
        while !self.eof && self.pending.len() < want {
            match self.reader.read_until(b'\n', &mut self.pending) {
                Ok(0) => self.eof = true,
                Ok(_) => {}
                Err(e) => return Err(self.read_error(e)),
            }
        }
        Ok(())
    }

    fn read_error(&self, e: std::io::Error) -> ListingError {
        let line = (self.line_base > 0).then_some(self.line_base);
        ListingError::new(&self.source, line, format!("cannot read: {e}"))
    }

    fn next(&mut self) -> Option<Result<Batch, ListingError>> {
        if self.done {
            return None;
        }
        let result = self.next_batch();
        if result.as_ref().map_or(true, Option::is_none) {
            self.done = true;
        }
        result.transpose()
    }

    fn next_batch(&mut self) -> Result<Option<Batch>, ListingError> {
        self.fill(self.piece)?;
        if self.pending.is_empty() {
            return match self.first_skip.take() {
                Some((line, why)) if self.papers == 0 => {
                    Err(ListingError::new(&self.source, Some(line), format!("no readable JSON line ({} bad); first: {why}", self.skipped)))
                }
                // The count after the warnings that gave each reason.
                Some(_) => Ok(Some(Batch {
                    warnings: vec![format!(
                        "{}: {} paper(s) read as {}; {} line(s) skipped (reasons above)",
                        self.source,
                        self.papers,
                        Format::Jsonl.name(),
                        self.skipped
                    )],
                    ..Batch::default()
                })),
                None => Ok(None),
            };
        }
        let mut warnings = Vec::new();
        let records = loop {
            let mut records = Records::default();
            let span = if self.eof { Span::Whole } else { Span::Piece { last: false } };
            let text = super::decode(&self.pending, &self.source, &mut warnings)?;
            if jsonl::read_records(&text, &self.source, self.line_base + 1, span, &mut records) {
                break records;
            }
            drop(text);
            // A value runs on past this piece: take in more and read again.
            warnings.clear();
            let more = self.pending.len() + self.piece;
            self.fill(more)?;
        };
        self.line_base += self.pending.iter().filter(|&&b| b == b'\n').count();
        self.pending.clear();
        let Records { papers, given, skipped } = records;
        for skip in skipped {
            let why = match skip.why {
                Why::Record(why) => why,
                Why::Json { message, at: Some((_, column)) } => format!("bad JSON: {message} at column {column}"),
                Why::Json { message, at: None } => format!("bad JSON: {message}"),
            };
            if skip.embedding {
                return Err(ListingError::new(&self.source, Some(skip.line), format!("a line with an embedding cannot be read: {why}")));
            }
            self.skipped += 1;
            warnings.push(format!("{}:{}: line skipped: {why}", self.source, skip.line));
            self.first_skip.get_or_insert((skip.line, why));
        }
        self.papers += papers.len();
        Ok(Some(Batch { papers, given, warnings, rows: false }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::listing::Given;
    use crate::paper::Paper;
    use std::io::Write;

    /// Read in pieces of a few lines, a file gives what one whole parse
    /// gives, with lines counted across pieces.
    #[test]
    fn pieces_read_as_the_whole() {
        let mut lines = Vec::new();
        for i in 1..=40 {
            lines.push(format!(r#"{{"id": "2501.{i:05}", "title": "Title\n  {i}", "abstract": "A."}}"#));
        }
        lines.insert(7, "{oops".to_string());
        // One value over three lines: it runs over a piece boundary.
        lines.insert(20, "{\"id\": \"2501.09999\",\n\"title\": \"Spread\",\n\"embedding\": [0.6, 0.8], \"model\": \"m\"}".to_string());
        let text = lines.join("\n") + "\n";
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(text.as_bytes()).unwrap();
        let whole = super::super::jsonl::parse(&text, &file.path().display().to_string()).unwrap();
        let batches: Vec<Batch> = open_with(file.path(), 200).unwrap().collect::<Result<_, _>>().unwrap();
        assert!(batches.len() > 5, "{} batches", batches.len());
        let papers: Vec<Paper> = batches.iter().flat_map(|b| b.papers.clone()).collect();
        assert_eq!(papers, whole.papers);
        let warnings: Vec<&String> = batches.iter().flat_map(|b| &b.warnings).collect();
        assert_eq!(warnings.len(), 2);
        assert!(warnings[0].contains(":8: line skipped"), "{warnings:?}");
        // Then, in a last batch of its own, the count.
        assert!(warnings[1].ends_with("41 paper(s) read as JSONL metadata; 1 line(s) skipped (reasons above)"), "{warnings:?}");
        assert!(batches.last().is_some_and(|b| b.papers.is_empty()));
        let given: Vec<(&Batch, &Given)> = batches.iter().flat_map(|b| b.given.iter().map(move |g| (b, g))).collect();
        assert_eq!(given.len(), 1);
        let (b, g) = given[0];
        assert_eq!((b.papers[g.paper].id.as_str(), g.line, g.vector.as_slice()), ("2501.09999", 21, &[0.6f32, 0.8][..]));
        assert!(b.place(g).ends_with(":21"));
    }
}
