//! Reading arXiv listings in every form a user has them.
//!
//! Each format lives in its own file and exposes
//! `fn parse(text: &str, source: &str) -> Result<Parsed, ListingError>`.
//! This module decides which one applies by looking at the content (never the
//! file name), and owns the byte-level concerns every format shares: gzip,
//! encodings, line ends and binary garbage.

pub mod atom;
mod authors;
mod batch;
pub mod browser_text;
pub mod contain;
pub(crate) mod fields;
pub mod html;
pub mod jsonl;
pub mod mailing;
pub mod oai;
mod pipeline;
pub mod rss;
// Parquet (arrow-rs), and the stream that reads it among other formats,
// only where the `parquet` feature brings arrow-rs (the fuzz build of the
// other parsers leaves it out: instrumented, it takes minutes to build).
#[cfg(feature = "parquet")]
pub mod parquet;
#[cfg(feature = "parquet")]
pub mod stream;
pub mod tex;
pub mod text;
mod xml_records;

pub use batch::{Batch, Given};

/// The date parsers for the fuzz targets in `fuzz/`, which see only public
/// items; each format keeps its own private.
#[doc(hidden)]
pub mod fuzzing {
    /// What the one author-line reader makes of `line`: names and
    /// affiliations.
    pub fn authors(line: &str) -> (Vec<String>, Vec<String>) {
        let a = super::fields::authors(line);
        (a.names, a.affiliations)
    }

    /// What each date parser makes of `s`.
    pub fn dates(s: &str) -> [Option<String>; 3] {
        [super::fields::date_in(s), super::fields::iso_date(s), super::browser_text::listing_date(s)]
    }
}

use crate::paper::Paper;
use std::borrow::Cow;
use std::fmt;
use std::io::{BufRead, Read};
use std::path::Path;

/// The input formats paperscout understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Text copied from a `/list/<cat>/new` page in a browser (both layouts).
    BrowserText,
    /// The HTML of a `/list/<cat>/{new,recent,pastweek}` page.
    Html,
    /// An rss.arxiv.org RSS 2.0 feed.
    Rss,
    /// An export.arxiv.org API Atom response, or rss.arxiv.org's Atom feed.
    Atom,
    /// arXiv's plain-text mailing (`\\`-separated blocks).
    Mailing,
    /// JSON lines of paper metadata (our corpus or the Kaggle snapshot).
    Jsonl,
    /// An OAI-PMH `ListRecords` response in the `arXiv` or `arXivRaw` format.
    Oai,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::BrowserText => "listing page text",
            Format::Html => "listing page HTML",
            Format::Rss => "RSS feed",
            Format::Atom => "Atom feed",
            Format::Mailing => "mailing text",
            Format::Jsonl => "JSONL metadata",
            Format::Oai => "OAI-PMH records",
        }
    }
}

/// What a parser found in one input.
#[derive(Debug, Clone)]
pub struct Parsed {
    pub format: Format,
    pub papers: Vec<Paper>,
    /// Everything worth a warning: entries or lines that were skipped,
    /// each saying where and why, and notes on what was read.
    pub warnings: Vec<String>,
    /// How many entries were recognised but not read, and the first reason.
    pub skipped: usize,
    pub first_skip: Option<String>,
}

impl Parsed {
    pub fn new(format: Format) -> Parsed {
        Parsed { format, papers: Vec::new(), warnings: Vec::new(), skipped: 0, first_skip: None }
    }

    /// Notes an entry that was recognised but could not be read.
    pub fn skip(&mut self, warning: String) {
        self.skipped += 1;
        if self.first_skip.is_none() {
            self.first_skip = Some(warning.clone());
        }
        self.warnings.push(warning);
    }

    /// One line for stderr when entries were dropped: how many, after the
    /// warnings that gave each reason.
    pub fn skip_summary(&self, source: &str) -> Option<String> {
        (self.skipped > 0).then(|| {
            format!(
                "{source}: {} paper(s) read as {}; {} entr{} skipped (reasons above)",
                self.papers.len(),
                self.format.name(),
                self.skipped,
                if self.skipped == 1 { "y" } else { "ies" }
            )
        })
    }
}

/// An input that could not be read as a listing. Displays as
/// `source:line: message` so the user can jump to the spot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListingError {
    pub source: String,
    pub line: Option<usize>,
    pub message: String,
}

impl ListingError {
    pub fn new(source: &str, line: Option<usize>, message: impl Into<String>) -> ListingError {
        ListingError { source: source.to_string(), line, message: message.into() }
    }
}

impl fmt::Display for ListingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}: {}", self.source, line, self.message),
            None => write!(f, "{}: {}", self.source, self.message),
        }
    }
}

impl std::error::Error for ListingError {}

const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
/// How far into the text `decode` looks for NUL bytes.
const BINARY_CHECK: usize = 8192;

/// Reads and parses one file; `-` reads standard input.
///
/// A big gzipped file is read, decompressed and parsed at the same time
/// (see `pipeline`); everything else is read whole first.
pub fn parse_path(path: &Path) -> Result<Parsed, ListingError> {
    let source = path.display().to_string();
    some_paper(parse_path_any(path, &source), &source)
}

/// A document read in its format that gave no paper is an error, never an
/// empty success: it names the format and why the first entry was dropped.
fn some_paper(result: Result<Parsed, ListingError>, source: &str) -> Result<Parsed, ListingError> {
    let parsed = result?;
    if !parsed.papers.is_empty() {
        return Ok(parsed);
    }
    let message = match &parsed.first_skip {
        Some(first) => format!(
            "read as {} but no paper could be read: {} entr{} skipped; first: {first}",
            parsed.format.name(),
            parsed.skipped,
            if parsed.skipped == 1 { "y" } else { "ies" }
        ),
        None => match parsed.warnings.first() {
            Some(note) => format!("read as {} but it lists no paper ({note})", parsed.format.name()),
            None => format!("read as {} but it lists no paper", parsed.format.name()),
        },
    };
    Err(ListingError::new(source, None, message))
}

fn parse_path_any(path: &Path, source: &str) -> Result<Parsed, ListingError> {
    let source = source.to_string();
    let cannot_read = |e: std::io::Error| ListingError::new(&source, None, format!("cannot read: {e}"));
    let mut bytes = Vec::new();
    if source == "-" {
        std::io::stdin().lock().read_to_end(&mut bytes).map_err(cannot_read)?;
        return parse_whole(&bytes, &source);
    }
    let mut file = std::fs::File::open(path).map_err(cannot_read)?;
    if pipeline::worth_it(file.metadata().map_or(0, |m| m.len())) {
        let mut reader = std::io::BufReader::with_capacity(pipeline::READ_BUFFER, file);
        if !reader.fill_buf().is_ok_and(|head| head.starts_with(&GZIP_MAGIC)) {
            reader.read_to_end(&mut bytes).map_err(cannot_read)?;
            return parse_whole(&bytes, &source);
        }
        if let Some(result) = pipeline::parse_gzip(reader, &source) {
            return result;
        }
        // Not the plain case: start again the ordinary way, which explains.
        file = std::fs::File::open(path).map_err(cannot_read)?;
    }
    file.read_to_end(&mut bytes).map_err(cannot_read)?;
    parse_whole(&bytes, &source)
}

/// Parses a whole input held in memory. `source` names it in papers and errors.
/// Big gzipped JSON lines are decompressed and parsed at the same time, on
/// two threads (see `pipeline`); the result is the same either way.
pub fn parse_bytes(bytes: &[u8], source: &str) -> Result<Parsed, ListingError> {
    some_paper(parse_bytes_or_empty(bytes, source), source)
}

/// [`parse_bytes`] for a download where an empty document is news, not an
/// error: a feed on a day arXiv announced nothing, a search without hits.
pub fn parse_bytes_or_empty(bytes: &[u8], source: &str) -> Result<Parsed, ListingError> {
    if bytes.starts_with(&GZIP_MAGIC) && pipeline::worth_it(bytes.len() as u64) {
        if let Some(result) = pipeline::parse_gzip(bytes, source) {
            return result;
        }
    }
    parse_whole(bytes, source)
}

/// [`parse_bytes`] on one thread: decompress all, then decode, detect, parse.
fn parse_whole(bytes: &[u8], source: &str) -> Result<Parsed, ListingError> {
    let mut notes = Vec::new();
    let decompressed;
    let mut bytes = bytes;
    if bytes.starts_with(&GZIP_MAGIC) {
        let mut out = Vec::new();
        let mut decoder = flate2::read::MultiGzDecoder::new(bytes);
        if let Err(e) = decoder.read_to_end(&mut out) {
            if out.is_empty() {
                return Err(ListingError::new(source, None, format!("broken gzip data: {e}")));
            }
            notes.push(format!("{source}: gzip stream ends early ({e}); reading what was there"));
        }
        decompressed = out;
        bytes = &decompressed;
    }
    let text = decode(bytes, source, &mut notes)?;
    let format = detect(&text).ok_or_else(|| {
        ListingError::new(
            source,
            None,
            "not an arXiv listing: expected listing page text or HTML, an RSS or Atom feed, \
             mailing text, OAI-PMH records, or JSON lines of paper metadata",
        )
    })?;
    let mut parsed = match format {
        Format::BrowserText => browser_text::parse(&text, source),
        Format::Html => html::parse(&text, source),
        Format::Rss => rss::parse(&text, source),
        Format::Atom => atom::parse(&text, source),
        Format::Mailing => mailing::parse(&text, source),
        Format::Jsonl => jsonl::parse(&text, source),
        Format::Oai => oai::parse(&text, source),
    }?;
    notes.append(&mut parsed.warnings);
    parsed.warnings = notes;
    Ok(parsed)
}

/// Turns bytes into text with `\n` line ends. Binary data is an error; stray
/// invalid UTF-8 in otherwise textual data is replaced and reported. Valid
/// UTF-8 with `\n` line ends (the usual case) is used in place, not copied.
fn decode<'a>(bytes: &'a [u8], source: &str, notes: &mut Vec<String>) -> Result<Cow<'a, str>, ListingError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if bytes.iter().take(BINARY_CHECK).any(|&b| b == 0) {
        return Err(ListingError::new(source, None, "binary data, not a listing"));
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(e) => {
            let line = 1 + bytes[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count();
            let lossy = String::from_utf8_lossy(bytes);
            let bad = lossy.matches('\u{FFFD}').count();
            if bad * 20 > lossy.chars().count().max(1) {
                return Err(ListingError::new(source, Some(line), "not UTF-8 text"));
            }
            notes.push(format!("{source}:{line}: invalid UTF-8 replaced by U+FFFD ({bad} place(s))"));
            Cow::Owned(lossy.into_owned())
        }
    };
    Ok(if text.contains('\r') { Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n")) } else { text })
}

/// Decides the format from the first meaningful content.
pub fn detect(text: &str) -> Option<Format> {
    let head: &str = {
        let trimmed = text.trim_start();
        let mut end = trimmed.len().min(16 * 1024);
        while !trimmed.is_char_boundary(end) {
            end -= 1;
        }
        &trimmed[..end]
    };
    if head.is_empty() {
        return None;
    }
    if head.starts_with('{') {
        return Some(Format::Jsonl);
    }
    if head.starts_with('<') {
        return detect_markup(&head.to_ascii_lowercase());
    }
    if browser_text::looks_like(head) {
        return Some(Format::BrowserText);
    }
    if mailing::looks_like(head) {
        return Some(Format::Mailing);
    }
    None
}

/// Tells feeds from web pages by their root element. Any HTML document goes
/// to the HTML parser, which explains what it expected when the page is not
/// an arXiv listing; XML that is neither RSS nor Atom is not ours.
fn detect_markup(lower: &str) -> Option<Format> {
    // Compare local names: feeds may use a namespace prefix (`<rdf:RDF>`).
    match root_element(lower).map(|name| name.rsplit(':').next().unwrap_or(name)) {
        Some("html") => Some(Format::Html),
        Some("rss" | "rdf") => Some(Format::Rss),
        Some("feed") => Some(Format::Atom),
        Some("oai-pmh") => Some(Format::Oai),
        // A fragment of a listing page (`<dl id='articles'>`, `<div …>`).
        _ if lower.contains("list-title")
            || lower.contains("id='articles'")
            || lower.contains("id=\"articles\"")
            || lower.contains("<body") =>
        {
            Some(Format::Html)
        }
        _ => None,
    }
}

/// Name of the first element, after any XML declaration, comments and
/// doctype (`<!doctype html>` counts as `html`).
fn root_element(lower: &str) -> Option<&str> {
    let mut rest = lower.trim_start();
    loop {
        let skip_to = if rest.starts_with("<?") {
            "?>"
        } else if rest.starts_with("<!--") {
            "-->"
        } else if let Some(doctype) = rest.strip_prefix("<!doctype") {
            if doctype.trim_start().starts_with("html") {
                return Some("html");
            }
            // An internal subset (`<!DOCTYPE rss [ <!ENTITY …> ]>`) holds
            // `>`s of its own; the doctype ends at the `>` after its `]`.
            // Its entities are never expanded (see `xml_records`).
            let open = doctype.find(['[', '>'])?;
            if doctype.as_bytes()[open] == b'[' {
                let close = doctype[open..].find(']')?;
                let skip = "<!doctype".len() + open + close;
                rest = &rest[skip..];
            }
            ">"
        } else {
            break;
        };
        let end = rest.find(skip_to)?;
        rest = rest[end + skip_to.len()..].trim_start();
    }
    let name = rest.strip_prefix('<')?;
    let end = name.find(|c: char| c.is_whitespace() || c == '>' || c == '/').unwrap_or(name.len());
    Some(&name[..end])
}
