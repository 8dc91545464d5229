//! Big gzipped JSON lines (the 120 MB corpus) parsed while they are being
//! decompressed: one thread inflates line-aligned chunks, the calling
//! thread parses each as it arrives, and once inflating is done both parse
//! what is left. The result is what `parse_bytes` gives for the whole
//! decompressed text, paper for paper and warning for warning (lines that
//! are not JSON or not papers, and `\r\n` line ends, included).
//!
//! A few rare inputs are left to the ordinary one-thread parse, which
//! reports them exactly as it always has: another format, invalid UTF-8, a
//! broken gzip stream, a JSON value running over a chunk boundary (JSON
//! spread over several lines). [`parse_gzip`] then gives up, as soon as it
//! sees one, and the caller parses the input the ordinary way.

use super::jsonl::{self, Records, Span, Why};
use super::{ListingError, Parsed};
use std::borrow::Cow;
use std::io::{BufRead, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Mutex;

/// Smaller inputs are parsed on the calling thread alone: a thread costs
/// little, but there is nothing worth overlapping either.
const MIN_COMPRESSED: u64 = 1 << 20;
/// Decompressed bytes per chunk (then up to the end of the line).
const CHUNK: usize = 1 << 20;
/// Read buffer for compressed input coming from a file.
pub(super) const READ_BUFFER: usize = 256 << 10;

/// True when a gzipped input of `compressed_len` bytes is worth a second
/// thread: it is big enough and there is a second core to run it.
pub(super) fn worth_it(compressed_len: u64) -> bool {
    compressed_len >= MIN_COMPRESSED && std::thread::available_parallelism().is_ok_and(|n| n.get() > 1)
}

/// One piece of decompressed text; all but the last end with `\n`.
struct Chunk {
    index: usize,
    bytes: Vec<u8>,
    last: bool,
}

/// Papers from consecutive chunks, with lines numbered from the first.
struct Segment {
    first: usize,
    next: usize,
    newlines: usize,
    records: Records,
}

/// Parses the gzip stream `compressed` as JSON lines. None: not the plain
/// case (see the module comment); the caller must parse it the usual way.
pub(super) fn parse_gzip<R: BufRead + Send>(compressed: R, source: &str) -> Option<Result<Parsed, ListingError>> {
    let (full_tx, full_rx) = mpsc::channel::<Chunk>();
    let (empty_tx, empty_rx) = mpsc::channel::<Vec<u8>>();
    let full_rx = Mutex::new(full_rx);
    let give_up = AtomicBool::new(false);
    let (inflated, mut segments) = std::thread::scope(|scope| {
        let (full_rx, give_up, helper_empty_tx) = (&full_rx, &give_up, empty_tx.clone());
        let helper = scope.spawn(move || {
            let inflated = inflate(compressed, full_tx, &empty_rx, give_up);
            if inflated.is_none() {
                give_up.store(true, Ordering::Relaxed);
            }
            // Sender dropped: the queue ends once drained. Help drain it.
            let segments = parse_chunks(full_rx, &helper_empty_tx, give_up, source);
            (inflated, segments)
        });
        let mine = parse_chunks(full_rx, &empty_tx, give_up, source);
        let (inflated, mut theirs) = match helper.join() {
            Ok(done) => done,
            Err(panic) => std::panic::resume_unwind(panic),
        };
        theirs.extend(mine);
        (inflated, theirs)
    });
    let chunks = inflated?;
    if give_up.load(Ordering::Relaxed) {
        return None;
    }
    segments.sort_by_key(|s| s.first);
    let mut merged = Records::default();
    let mut expected = 0;
    let mut line_base = 0;
    for segment in segments {
        if segment.first != expected {
            return None; // cannot happen: every chunk is parsed once
        }
        expected = segment.next;
        let Records { papers, skipped, .. } = segment.records;
        if merged.papers.is_empty() {
            merged.papers = papers;
        } else {
            merged.papers.extend(papers);
        }
        merged.skipped.extend(skipped.into_iter().map(|mut skip| {
            skip.line += line_base;
            if let Why::Json { at: Some((at, _)), .. } = &mut skip.why {
                *at += line_base;
            }
            skip
        }));
        line_base += segment.newlines;
    }
    if expected != chunks {
        return None;
    }
    Some(jsonl::finish(merged, source))
}

/// Decompresses into line-aligned chunks of about [`CHUNK`] bytes, reusing
/// the buffers that come back on `empty`. Returns how many chunks were sent,
/// or None if the stream is broken or the parsers gave up.
fn inflate<R: BufRead>(compressed: R, full: Sender<Chunk>, empty: &Receiver<Vec<u8>>, give_up: &AtomicBool) -> Option<usize> {
    let mut decoder = flate2::bufread::MultiGzDecoder::new(compressed);
    let mut carry = Vec::new();
    for index in 0.. {
        if give_up.load(Ordering::Relaxed) {
            return None;
        }
        let mut bytes = empty.try_recv().unwrap_or_else(|_| Vec::with_capacity(CHUNK + (64 << 10)));
        bytes.clear();
        bytes.append(&mut carry);
        // Fill to CHUNK bytes, then on (in steps) until a line ends.
        let mut searched = 0;
        let last = loop {
            let want = CHUNK.saturating_sub(bytes.len()).max(64 << 10);
            let got = (&mut decoder).take(want as u64).read_to_end(&mut bytes).ok()?;
            if got < want {
                break true;
            }
            if let Some(end) = bytes[searched..].iter().rposition(|&b| b == b'\n') {
                let end = searched + end + 1;
                carry.extend_from_slice(&bytes[end..]);
                bytes.truncate(end);
                break false;
            }
            searched = bytes.len();
        };
        full.send(Chunk { index, bytes, last }).ok()?;
        if last {
            return Some(index + 1);
        }
    }
    None
}

/// Takes chunks off the queue until it ends, parsing each unless some chunk
/// already made the whole attempt give up. Used buffers go back on `empty`.
fn parse_chunks(full: &Mutex<Receiver<Chunk>>, empty: &Sender<Vec<u8>>, give_up: &AtomicBool, source: &str) -> Vec<Segment> {
    let mut segments: Vec<Segment> = Vec::new();
    loop {
        let next = full.lock().unwrap_or_else(|e| e.into_inner()).recv();
        let Ok(chunk) = next else {
            return segments;
        };
        if !give_up.load(Ordering::Relaxed) {
            if segments.last().is_none_or(|s| s.next != chunk.index) {
                segments.push(Segment { first: chunk.index, next: chunk.index, newlines: 0, records: Records::default() });
            }
            let parsed = segments.last_mut().is_some_and(|segment| parse_chunk(&chunk, segment, source));
            if !parsed {
                give_up.store(true, Ordering::Relaxed);
            }
        }
        let _ = empty.send(chunk.bytes);
    }
}

/// Parses one chunk onto the end of `segment`; false if it is not the plain
/// case. The first chunk also settles what `super::decode` and
/// `super::detect` would have: BOM, binary data, JSON lines or not.
fn parse_chunk(chunk: &Chunk, segment: &mut Segment, source: &str) -> bool {
    let mut bytes = &chunk.bytes[..];
    if chunk.index == 0 {
        bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let head = &bytes[..bytes.len().min(super::BINARY_CHECK)];
        if (!chunk.last && head.len() < super::BINARY_CHECK) || head.contains(&0) {
            return false;
        }
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    // Line ends as `super::decode` makes them. A chunk ends just after a
    // `\n`, so no `\r\n` is ever split between two chunks.
    let (mut newlines, returns) = count_line_ends(bytes);
    let text = if returns {
        let text = text.replace("\r\n", "\n").replace('\r', "\n");
        newlines = count_line_ends(text.as_bytes()).0;
        Cow::Owned(text)
    } else {
        Cow::Borrowed(text)
    };
    if chunk.index == 0 && !text.trim_start().starts_with('{') {
        return false;
    }
    let span = Span::Piece { last: chunk.last };
    let first_line = segment.newlines + 1;
    if !jsonl::read_records(&text, source, first_line, span, &mut segment.records) {
        return false;
    }
    segment.newlines += newlines;
    segment.next = chunk.index + 1;
    true
}

/// Number of `\n`s, and whether there is any `\r`, in one pass over the
/// whole decompressed text: byte-sized counters per lane (flushed before
/// they can overflow) so that the loop vectorises.
fn count_line_ends(bytes: &[u8]) -> (usize, bool) {
    const LANES: usize = 32;
    let mut newlines = 0;
    let mut returns = 0u8;
    for group in bytes.chunks(LANES * usize::from(u8::MAX)) {
        let mut lane_newlines = [0u8; LANES];
        let mut lane_returns = [0u8; LANES];
        let mut blocks = group.chunks_exact(LANES);
        for block in &mut blocks {
            for j in 0..LANES {
                lane_newlines[j] += u8::from(block[j] == b'\n');
                lane_returns[j] |= u8::from(block[j] == b'\r');
            }
        }
        newlines += lane_newlines.iter().map(|&n| usize::from(n)).sum::<usize>();
        returns |= lane_returns.iter().fold(0, |acc, &r| acc | r);
        for &b in blocks.remainder() {
            newlines += usize::from(b == b'\n');
            returns |= u8::from(b == b'\r');
        }
    }
    (newlines, returns != 0)
}

#[cfg(test)]
mod tests {
    use super::super::{parse_bytes, parse_whole};
    use super::*;
    use std::io::Write;

    fn gzip(text: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(text).unwrap();
        encoder.finish().unwrap()
    }

    /// Corpus-shaped lines, about 1 kB each (so several chunks), with blank
    /// lines and a few records that are skipped, some far into the text.
    fn corpus(lines: usize) -> String {
        let mut text = String::new();
        for i in 0..lines {
            let title = if i % 1111 == 7 { String::new() } else { format!("A  title &amp; {i}") };
            let id = if i % 1777 == 3 { "nonsense".to_string() } else { format!("2503.{i:05}") };
            text.push_str(&format!(
                "{{\"id\": \"{id}\", \"title\": \"{title}\", \"abstract\": \"{}\", \
                 \"categories\": [\"cs.LG\", \"stat.ML\"], \"date\": \"2025-03-01\", \
                 \"authors\": [\"A. B\", \"C \\u00e9\"]}}\n",
                "Words, words. ".repeat(70)
            ));
            if i % 999 == 0 {
                text.push_str("\n  \n");
            }
        }
        text
    }

    fn same(a: &Result<Parsed, ListingError>, b: &Result<Parsed, ListingError>) {
        match (a, b) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.format, b.format);
                assert_eq!(a.warnings, b.warnings);
                assert_eq!(a.papers.len(), b.papers.len());
                assert!(a.papers == b.papers);
            }
            (Err(a), Err(b)) => assert_eq!(a, b),
            _ => panic!("{:?} vs {:?}", a.as_ref().err(), b.as_ref().err()),
        }
    }

    /// `text` gzipped goes through the pipeline and gives what the
    /// one-thread parse gives: its warnings, or the error.
    fn piped_as_whole(text: &[u8], source: &str) -> Vec<String> {
        let gz = gzip(text);
        let piped = parse_gzip(&gz[..], source).unwrap_or_else(|| panic!("{source}: gave up"));
        same(&piped, &parse_whole(&gz, source));
        piped.map_or_else(|e| vec![e.to_string()], |p| p.warnings)
    }

    #[test]
    fn counts_line_ends() {
        let text = "a\nb\r\n".repeat(5000) + "\n";
        for end in [0, 1, 31, 32, 33, 8159, 8160, 8161, text.len()] {
            let part = &text.as_bytes()[..end];
            let newlines = part.iter().filter(|&&b| b == b'\n').count();
            assert_eq!(count_line_ends(part), (newlines, part.contains(&b'\r')), "{end}");
        }
    }

    #[test]
    fn matches_the_whole_text_parse() {
        let text = corpus(5000);
        assert!(text.len() > 4 * CHUNK);
        let warnings = piped_as_whole(text.as_bytes(), "c.gz");
        assert_eq!(warnings.len(), 5 + 3, "{warnings:?}");
        assert!(warnings[0].starts_with("c.gz:6: "), "{warnings:?}");
        piped_as_whole(format!("\u{feff}{text}").as_bytes(), "bom");
        piped_as_whole(text.trim_end().as_bytes(), "no last newline");
        // `\r\n` and lone `\r` line ends.
        let crlf = text.replacen('\n', "\r", 3).replace('\n', "\r\n");
        piped_as_whole(crlf.as_bytes(), "crlf");
        // Two gzip members.
        let (head, tail) = text.split_at(text.len() / 2);
        let mut two = gzip(head.as_bytes());
        two.extend(gzip(tail.as_bytes()));
        same(&parse_gzip(&two[..], "m").expect("plain"), &parse_whole(&two, "m"));
    }

    #[test]
    fn lines_that_are_not_json_read_as_in_the_whole_text() {
        // serde_json counts lines in its messages from where it started
        // (the line after the last bad one), so bad lines in different
        // chunks must still give the whole-text messages.
        let mut lines: Vec<String> = corpus(4000).lines().map(str::to_string).collect();
        for (i, bad) in [
            (10, "{oops"),
            (11, "[1, 2"),
            (1500, "{\"id\": 5}"),
            (2500, "not json"),
            (2501, "{\"id\": \"2503.00001\", \"id\": \"x\"}"),
            (3000, "{\"id\": \"2503.00001\", \"title\": \"cut"),
        ] {
            lines[i] = bad.to_string();
        }
        let text = lines.join("\n");
        let warnings = piped_as_whole(text.as_bytes(), "j");
        assert!(warnings.iter().any(|w| w.contains("at line 1489 column")), "{warnings:?}");
        // A last line cut short, and nothing but bad lines.
        piped_as_whole(text.rsplit_once(", \"date\"").unwrap().0.as_bytes(), "cut");
        let error = piped_as_whole("{\"id\": 5}\n".repeat(300_000).as_bytes(), "all bad");
        assert!(error[0].starts_with("all bad:1: no readable JSON line (300000 bad)"));
    }

    #[test]
    fn leaves_everything_unusual_to_the_whole_text_parse() {
        let text = corpus(3000);
        let mid = text.len() / 2 + text[text.len() / 2..].find('\n').unwrap() + 1;
        let cases: Vec<(&str, Vec<u8>)> = vec![
            ("latin-1", [&text.as_bytes()[..mid], b"\xe9", &text.as_bytes()[mid..]].concat()),
            ("mailing", "Date: Fri, 3 Mar 23\n\\\\\n".repeat(200_000).into_bytes()),
            ("spaces", " ".repeat(3 * CHUNK).into_bytes()),
            ("one line", format!("[{}]", text.replace('\n', ",")).into_bytes()),
            ("nul", [b"{\"id\": \"\x00\"}\n", text.as_bytes()].concat()),
        ];
        for (what, bytes) in cases {
            let gz = gzip(&bytes);
            assert!(parse_gzip(&gz[..], what).is_none(), "{what}");
            same(&parse_bytes(&gz, what), &parse_whole(&gz, what));
        }
        // JSON over several lines goes through unless a chunk ends inside a
        // value; either way the result is the same.
        let spread = gzip(text.replace(", \"date\"", ",\n \"date\"").as_bytes());
        if let Some(piped) = parse_gzip(&spread[..], "spread") {
            same(&piped, &parse_whole(&spread, "spread"));
        }
        same(&parse_bytes(&spread, "spread"), &parse_whole(&spread, "spread"));
        let gz = gzip(text.as_bytes());
        let truncated = &gz[..gz.len() * 2 / 3];
        assert!(parse_gzip(truncated, "t").is_none());
        same(&parse_bytes(truncated, "t"), &parse_whole(truncated, "t"));
        assert!(parse_gzip(&b"\x1f\x8bnot gzip"[..], "n").is_none());
    }
}
