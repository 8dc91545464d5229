//! Field-level helpers shared by the feed, mailing, HTML and JSONL parsers,
//! so that the same raw value reads the same whichever format carried it.
//!
//! A field is either text (JSONL strings, mailings, the text nodes of an
//! HTML page) or text that may carry HTML (feed titles and descriptions).
//! Text is kept as written, `<` and `&` included: only whitespace is folded
//! and control characters are dropped ([`text::inline`]). Markup fields get
//! the [`super::text`] rules in one fixed order: HTML entities, then tags,
//! then whitespace.

use super::text;
use crate::paper::ArxivId;
use std::borrow::Cow;

/// [`ArxivId::parse`] for untrusted text. Identifiers and their URLs are
/// ASCII; anything else is rejected up front, because `ArxivId::parse`
/// slices by byte and would panic on some multi-byte input.
pub fn arxiv_id(s: &str) -> Option<ArxivId> {
    s.is_ascii().then(|| ArxivId::parse(s)).flatten()
}

/// Cleans a one-line text field (title, author, comments, journal reference).
pub fn clean_inline(raw: &str) -> String {
    if is_plain_line::<false>(raw) {
        return raw.to_string();
    }
    text::inline(raw)
}

/// [`clean_inline`] for a field that may carry HTML (a feed's title).
pub fn markup_inline(raw: &str) -> String {
    if is_plain_line::<true>(raw) {
        return raw.to_string();
    }
    text::inline(&text::strip_tags(&text::decode_entities(raw)))
}

/// Like [`clean_inline`], but an empty result means the field is absent.
pub fn clean_optional(raw: &str) -> Option<String> {
    Some(clean_inline(raw)).filter(|s| !s.is_empty())
}

/// Like [`markup_inline`], but an empty result means the field is absent.
pub fn markup_optional(raw: &str) -> Option<String> {
    Some(markup_inline(raw)).filter(|s| !s.is_empty())
}

/// Cleans an abstract stored the way arXiv stores them (API, RSS, mailings,
/// metadata dumps): newlines are wrapping, except that a line starting with
/// whitespace, or following a blank line, opens a new paragraph. This is the
/// rule arXiv's own pages use to place `<br>`s.
pub fn clean_abstract(raw: &str) -> String {
    if is_plain_line::<false>(raw) {
        return raw.to_string();
    }
    text::paragraphs(&mark_indented_paragraphs(raw))
}

/// [`clean_abstract`] for a feed's description, which may carry HTML.
pub fn markup_abstract(raw: &str) -> String {
    if is_plain_line::<true>(raw) {
        return raw.to_string();
    }
    let marked = mark_indented_paragraphs(raw);
    text::paragraphs(&text::strip_tags(&text::decode_entities(&marked)))
}

/// Cleans text where every `\n` is a real paragraph break, as produced by
/// walking an HTML tree (`<br>` and block ends become `\n`). The tree's text
/// nodes are text: the parser already removed the markup and decoded the
/// entities, so a `&lt;` written on the page stays a `<`.
pub fn clean_lines(raw: &str) -> String {
    text::lines(raw)
}

/// True when cleaning would not change `s`: a hot path for the JSONL corpus,
/// whose text is already whitespace-collapsed. Conservative: any control
/// character, double space or non-ASCII whitespace means "clean it", and so
/// do `&` and `<` in a `MARKUP` field.
fn is_plain_line<const MARKUP: bool>(s: &str) -> bool {
    let bytes = s.as_bytes();
    let edge_space = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_whitespace());
    if edge_space(bytes.first()) || edge_space(bytes.last()) {
        return false;
    }
    match scan::<MARKUP>(bytes) {
        Scan::Special => false,
        Scan::Ascii => true,
        Scan::NonAscii => !has_unicode_special(bytes),
    }
}

enum Scan {
    /// A control character, two spaces in a row, or `&` or `<` in markup.
    Special,
    /// None of those, and only ASCII.
    Ascii,
    /// None of those, but some non-ASCII characters.
    NonAscii,
}

/// One pass over `bytes` for [`is_plain_line`]. Whole blocks are folded
/// branch-free into one accumulator per lane, so that the compiler
/// vectorises the loop: this runs over every title and abstract of a
/// 120 MB corpus, nearly all of them plain.
fn scan<const MARKUP: bool>(bytes: &[u8]) -> Scan {
    const LANES: usize = 32;
    let special = |a: u8, b: u8| {
        u8::from(a < b' ')
            | u8::from(a == 0x7f)
            | (u8::from(MARKUP) & (u8::from(a == b'&') | u8::from(a == b'<')))
            | (u8::from(a == b' ') & u8::from(b == b' '))
    };
    let Some(last) = bytes.len().checked_sub(1) else {
        return Scan::Ascii;
    };
    // Pairs (bytes[i], bytes[i + 1]) for every i < last, then the last byte.
    let (firsts, seconds) = (&bytes[..last], &bytes[1..]);
    let mut odd = [0u8; LANES];
    let mut high = [0u8; LANES];
    let mut a_blocks = firsts.chunks_exact(LANES);
    let mut b_blocks = seconds.chunks_exact(LANES);
    for (a, b) in (&mut a_blocks).zip(&mut b_blocks) {
        for j in 0..LANES {
            odd[j] |= special(a[j], b[j]);
            high[j] |= a[j];
        }
    }
    let mut odd = odd.iter().fold(0, |acc, &x| acc | x);
    let mut high = high.iter().fold(0, |acc, &x| acc | x);
    for (&a, &b) in a_blocks.remainder().iter().zip(b_blocks.remainder()) {
        odd |= special(a, b);
        high |= a;
    }
    let end = bytes[last];
    if odd | special(end, 0) != 0 {
        Scan::Special
    } else if (high | end) & 0x80 != 0 {
        Scan::NonAscii
    } else {
        Scan::Ascii
    }
}

/// Finds the UTF-8 encodings of the non-ASCII characters cleaning changes:
/// the C1 controls (U+0080–U+009F) and what `char::is_whitespace` accepts
/// (U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000),
/// and the bidirectional controls it drops (U+202A–202E, U+2066–2069).
fn has_unicode_special(bytes: &[u8]) -> bool {
    bytes.windows(2).enumerate().any(|(i, w)| match (w[0], w[1]) {
        (0xC2, 0x80..=0xA0) => true,
        (0xE1, 0x9A) => bytes.get(i + 2) == Some(&0x80),
        (0xE2, 0x80) => matches!(bytes.get(i + 2), Some(0x80..=0x8A | 0xA8..=0xAF)),
        (0xE2, 0x81) => matches!(bytes.get(i + 2), Some(0x9F | 0xA6..=0xA9)),
        (0xE3, 0x80) => bytes.get(i + 2) == Some(&0x80),
        _ => false,
    })
}

/// Turns "newline + indentation" into a blank line so that
/// [`text::paragraphs`] sees the paragraph break.
fn mark_indented_paragraphs(raw: &str) -> Cow<'_, str> {
    if !raw.contains("\n ") && !raw.contains("\n\t") {
        return Cow::Borrowed(raw);
    }
    let mut out = String::with_capacity(raw.len() + 16);
    for (i, line) in raw.split('\n').enumerate() {
        if i > 0 {
            let indented = line.starts_with([' ', '\t']);
            out.push_str(if indented { "\n\n" } else { "\n" });
        }
        out.push_str(line);
    }
    Cow::Owned(out)
}

/// Reads an author line ("A. Smith (MIT), B. Jones and C. Lee") into
/// names and affiliations (see [`super::authors`]).
pub fn authors(raw: &str) -> super::authors::Authors {
    super::authors::read(&clean_inline(raw))
}

/// [`authors`] for an author line that may carry HTML (a feed's).
pub fn markup_authors(raw: &str) -> super::authors::Authors {
    super::authors::read(&markup_inline(raw))
}

/// True for arXiv category codes (`cs.DC`, `astro-ph`, `cond-mat.str-el`),
/// false for the MSC/ACM classes (`14C20`, `I.2.7`) that some sources mix in.
pub fn is_category(s: &str) -> bool {
    let (archive, sub) = match s.split_once('.') {
        Some((a, b)) => (a, Some(b)),
        None => (s, None),
    };
    let archive_ok =
        archive.len() >= 2 && archive.as_bytes()[0].is_ascii_lowercase() && archive.bytes().all(|b| b.is_ascii_lowercase() || b == b'-');
    let sub_ok = sub.is_none_or(|sub| !sub.is_empty() && sub.bytes().all(|b| b.is_ascii_alphabetic() || b == b'-'));
    archive_ok && sub_ok
}

/// Keeps the category codes among `terms`, in order, without repeats.
pub fn categories<'a>(terms: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut out = Categories::default();
    for term in terms {
        out.push(term);
    }
    out.into_vec()
}

/// [`categories`] one term at a time, for callers that see the terms one
/// by one (a JSON list being deserialized).
#[derive(Default)]
pub struct Categories(Vec<String>);

impl Categories {
    pub fn push(&mut self, term: &str) {
        let term = term.trim();
        if is_category(term) && !self.0.iter().any(|c| c == term) {
            self.0.push(term.to_string());
        }
    }

    pub fn into_vec(self) -> Vec<String> {
        self.0
    }
}

/// Puts `primary` in front of `others` (dropping its repeat there).
pub fn primary_first(primary: Option<String>, others: Vec<String>) -> Vec<String> {
    match primary {
        Some(p) => {
            let rest: Vec<String> = others.into_iter().filter(|c| *c != p).collect();
            let mut out = Vec::with_capacity(rest.len() + 1);
            out.push(p);
            out.extend(rest);
            out
        }
        None => others,
    }
}

const MONTHS: [&str; 12] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/// Finds the first "day month year" date in free text, as written in arXiv
/// headers, headings and feeds: "Fri, 22 Nov 2024 (showing …)",
/// "Showing new listings for Monday, 2 March 2026", "Fri,  3 Mar 23 01:29:12 GMT".
/// Returns it as `YYYY-MM-DD`; two-digit years are 20xx. A day the calendar
/// lacks ("31 Nov 2024") is no date.
pub fn date_in(s: &str) -> Option<String> {
    let words: Vec<&str> = s.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()).collect();
    words.windows(3).find_map(|w| {
        let day: u32 = w[0].parse().ok().filter(|d| (1..=31).contains(d))?;
        let month = month_number(w[1])?;
        let year = match w[2].len() {
            4 => w[2].parse::<u32>().ok()?,
            2 => 2000 + w[2].parse::<u32>().ok()?,
            _ => return None,
        };
        calendar_day(year, month, day)
    })
}

/// A month's name as listings and exports write it ("Mar", "Mar.",
/// "March", "Sept"), 1 to 12; not a longer word that starts like one
/// ("Marble").
pub(crate) fn month_number(word: &str) -> Option<u32> {
    let word = word.trim_end_matches('.').to_ascii_lowercase();
    if word.len() < 3 {
        return None;
    }
    let pos = MONTHS.iter().position(|m| word.starts_with(m))?;
    // Accept "Mar" and "March", not "Marble".
    let full =
        ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"][pos];
    (word.len() == 3 || full.starts_with(&word) || word == "sept").then_some(pos as u32 + 1)
}

/// The `YYYY-MM-DD` at the start of an ISO timestamp ("2017-07-27T08:18:33Z").
pub fn iso_date(s: &str) -> Option<String> {
    let s = s.trim();
    // Bytes, not `str` slices: a date from a feed may hold a multi-byte
    // character anywhere ("2016-12\u{fffd}"), and only the shape check
    // proves the ten bytes are ASCII.
    let b = s.as_bytes().get(..10)?;
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    if !(digits(0..4) && b[4] == b'-' && digits(5..7) && b[7] == b'-' && digits(8..10)) {
        return None;
    }
    let number = |r: std::ops::Range<usize>| b[r].iter().fold(0, |n, d| n * 10 + u32::from(d - b'0'));
    calendar_day(number(0..4), number(5..7), number(8..10))
}

/// `YYYY-MM-DD` when that day exists: listing days are compared, grouped
/// and parsed as dates later, so "2024-11-31" must not get in.
pub(crate) fn calendar_day(year: u32, month: u32, day: u32) -> Option<String> {
    let date = chrono::NaiveDate::from_ymd_opt(i32::try_from(year).ok()?, month, day)?;
    Some(date.format("%Y-%m-%d").to_string())
}

/// Line numbers for increasing byte offsets without rescanning the text
/// from the start each time (inputs have tens of thousands of records).
pub struct LineCounter<'a> {
    text: &'a str,
    offset: usize,
    line: usize,
}

impl<'a> LineCounter<'a> {
    pub fn new(text: &'a str) -> Self {
        LineCounter { text, offset: 0, line: 1 }
    }

    /// 1-based line of `offset`; cheap when offsets only grow.
    pub fn line_at(&mut self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        if offset < self.offset {
            return line_of(self.text, offset);
        }
        let newlines = self.text.as_bytes()[self.offset..offset].iter().filter(|&&b| b == b'\n').count();
        self.line += newlines;
        self.offset = offset;
        self.line
    }
}

/// 1-based line number of a byte offset, for messages.
pub fn line_of(text: &str, offset: usize) -> usize {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    1 + text.as_bytes()[..end].iter().filter(|&&b| b == b'\n').count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cleans_abstract_paragraphs() {
        assert_eq!(clean_abstract("  One\nline.\n  Two  para.\n"), "One line.\nTwo para.");
        assert_eq!(markup_abstract("a &amp; b <i>c</i>\n\nd"), "a & b c\nd");
        assert_eq!(clean_abstract("a &amp; b <i>c</i>\n\nd"), "a &amp; b <i>c</i>\nd");
        assert_eq!(clean_abstract("plain text"), "plain text");
        assert_eq!(clean_abstract("$a<b$ and  x"), "$a<b$ and x");
        assert_eq!(markup_abstract("$a<b$ and  x"), "$a<b$ and x");
    }

    /// JSON strings, mailings and page text are text: nothing between `<`
    /// and `>` is markup there.
    #[test]
    fn text_fields_keep_angle_brackets() {
        let raw = "tail latency from <10 ms to <2 ms, unlike the <former architecture> design; \
                   also a<b and x > y, R&amp;D, <b>not bold</b>";
        assert_eq!(clean_inline(raw), raw);
        assert_eq!(clean_abstract(raw), raw);
        assert_eq!(authors("A <a@b.org>, B").names, ["A <a@b.org>", "B"]);
    }

    #[test]
    fn control_characters_are_dropped_and_paragraphs_kept() {
        let raw = "Red\u{1b}[31m alert\u{7}\u{7f}\u{9b}2J \u{1b}\u{7} end";
        for clean in [clean_inline(raw), markup_inline(raw), clean_abstract(raw), markup_abstract(raw)] {
            assert_eq!(clean, "Red[31m alert2J end");
        }
        assert_eq!(clean_abstract("One\u{1b}.\n\nTwo\u{7}."), "One.\nTwo.");
        assert_eq!(clean_lines("One\u{1b}.\nTwo\u{0}."), "One.\nTwo.");
    }

    #[test]
    fn plain_line_check_matches_cleaning() {
        for s in [
            "plain",
            "two  spaces",
            " lead",
            "tab\there",
            "a&b",
            "a<b",
            "nb\u{a0}sp",
            "em\u{2003}sp",
            "ideo\u{3000}sp",
            "quote \u{201c}x\u{201d}",
            "caf\u{e9}",
            "",
            "nel\u{85}x",
        ] {
            let cleaned = text::inline(&text::strip_tags(&text::decode_entities(s)));
            if is_plain_line::<true>(s) {
                assert_eq!(cleaned, s, "{s:?}");
            }
            if is_plain_line::<false>(s) {
                assert_eq!(text::inline(s), s, "{s:?}");
            }
        }
        assert!(is_plain_line::<true>("quote \u{201c}x\u{201d} caf\u{e9}"));
        assert!(!is_plain_line::<true>("em\u{2003}sp"));
        assert!(is_plain_line::<false>("a<b & c"));
        for control in ["\u{7f}", "\u{80}", "\u{9b}", "\u{85}", "\u{1b}"] {
            assert!(!is_plain_line::<false>(&format!("a{control}b")), "{control:?}");
        }
        // Long lines (the blocked scan) with one odd spot anywhere.
        let base = "abcdefghij".repeat(10);
        for len in [31, 32, 33, 34, 63, 64, 65, 100] {
            let line = &base[..len];
            assert!(is_plain_line::<true>(line), "{len}");
            for at in 1..len - 1 {
                for odd in ["&", "<", "\n", "\t", "  ", "\u{a0}", "\u{3000}", "\u{e9}", "\u{7f}", "\u{1b}"] {
                    let s = format!("{}{odd}{}", &line[..at], &line[at..]);
                    assert_eq!(is_plain_line::<true>(&s), odd == "\u{e9}", "{s:?}");
                    let text_plain = matches!(odd, "\u{e9}" | "&" | "<");
                    assert_eq!(is_plain_line::<false>(&s), text_plain, "{s:?}");
                }
            }
        }
    }

    #[test]
    fn rejects_non_ascii_ids_without_panicking() {
        assert_eq!(arxiv_id("arXiv:2303.01382v2").map(|i| i.version), Some(Some(2)));
        for bad in ["2303\u{fffd}01382", "2303.\u{fffd}0961", "ar\u{e9}iv:2303.01382"] {
            assert!(arxiv_id(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn category_codes() {
        for ok in ["cs.DC", "astro-ph", "cond-mat.str-el", "q-fin.ST", "gr-qc"] {
            assert!(is_category(ok), "{ok}");
        }
        for bad in ["14C20, 14A20", "I.2.7", "68T50", "", "cs.", "Cs.DC", "cs DC"] {
            assert!(!is_category(bad), "{bad}");
        }
        assert_eq!(primary_first(Some("b".into()), vec!["a".into(), "b".into()]), ["b", "a"]);
    }

    #[test]
    fn dates() {
        assert_eq!(date_in("Fri, 22 Nov 2024 (showing 75 of 75 entries )").as_deref(), Some("2024-11-22"));
        assert_eq!(date_in("Showing new listings for Monday, 2 March 2026").as_deref(), Some("2026-03-02"));
        assert_eq!(date_in("Date: Fri,  3 Mar 23 01:29:12 GMT").as_deref(), Some("2023-03-03"));
        assert_eq!(date_in("/* Tue, 28 Feb 2023 */").as_deref(), Some("2023-02-28"));
        assert_eq!(date_in("New submissions (showing 6 of 6 entries)"), None);
        assert_eq!(date_in("2 Marble 2020"), None);
        assert_eq!(iso_date("2017-07-27T08:18:33Z").as_deref(), Some("2017-07-27"));
        assert_eq!(iso_date("2017-13-27"), None);
        assert_eq!(iso_date("27.07.2017"), None);
        assert_eq!(iso_date("2017-07-2é"), None);
        // Multi-byte characters inside the first ten bytes once panicked.
        for bad in ["2016-12\u{fffd}", "25-\u{2019}08-1", "2016-\u{e9}2-01", "\u{fffd}\u{fffd}\u{fffd}x"] {
            assert_eq!(iso_date(bad), None, "{bad}");
        }
    }

    /// Found by the `rss` fuzz target: a feed dated "Thu, 31 Nov 2024" gave
    /// its papers the listing day 2024-11-31.
    #[test]
    fn days_the_calendar_lacks_are_no_dates() {
        assert_eq!(date_in("Thu, 31 Nov 2024 00:00:00 -0500"), None);
        assert_eq!(date_in("29 Feb 2023"), None);
        assert_eq!(date_in("29 Feb 2024").as_deref(), Some("2024-02-29"));
        // The next date in the text still counts.
        assert_eq!(date_in("31 Nov 2024, then 1 Dec 2024").as_deref(), Some("2024-12-01"));
        assert_eq!(iso_date("2024-11-31T00:00:00Z"), None);
        assert_eq!(iso_date("2023-02-29"), None);
        assert_eq!(iso_date("2024-02-29").as_deref(), Some("2024-02-29"));
    }
}
