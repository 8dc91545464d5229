//! The one text clean-up every format goes through, so that a paper reads the
//! same whichever source it came from: whitespace runs inside a line fold to
//! one space, paragraph breaks stay as `\n`, control characters are dropped;
//! LaTeX is kept as written. Formats that carry markup (feeds) also have
//! their HTML entities decoded and their tags removed first.

/// Folds all whitespace (newlines included) into single spaces and trims.
/// For one-line fields: titles, author names, comments.
///
/// Control characters that are not whitespace (ESC, BEL, DEL, the C1 set)
/// are dropped here, the one place every field passes through, so no
/// listing can send a terminal escape sequence to whoever prints it.
pub fn inline(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        let at = out.len();
        if at > 0 {
            out.push(' ');
        }
        if word.contains(dropped) {
            out.extend(word.chars().filter(|c| !dropped(*c)));
        } else {
            out.push_str(word);
        }
        // A word of control characters only leaves no double space behind.
        if out.len() == at + usize::from(at > 0) {
            out.truncate(at);
        }
    }
    out
}

/// What no field keeps: control characters, and the bidirectional
/// embeddings, overrides and isolates (U+202A–202E, U+2066–2069), with
/// which a title can show its words in another order than they are read
/// (or a file name in a reason read backwards).
fn dropped(c: char) -> bool {
    c.is_control() || is_bidi_control(c)
}

pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `s` without bidirectional controls: for text stored before they were
/// dropped at reading.
pub fn without_bidi(s: String) -> String {
    if s.contains(is_bidi_control) {
        s.chars().filter(|c| !is_bidi_control(*c)).collect()
    } else {
        s
    }
}

/// A piece of someone else's text for an error message: quoted (so that
/// control characters show as escapes) and cut to about 80 characters, so
/// that a 50 MB line does not become a 50 MB message.
pub fn excerpt(s: &str) -> String {
    const MAX: usize = 80;
    match s.char_indices().nth(MAX) {
        None => format!("{s:?}"),
        Some((end, _)) => format!("{:?}… ({} bytes)", &s[..end], s.len()),
    }
}

/// Cleans each line with [`inline`] and joins the non-empty ones with `\n`:
/// a line break in the source is a paragraph break in the result.
pub fn lines(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for line in s.lines() {
        let line = inline(line);
        if line.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&line);
    }
    out
}

/// Like [`lines`] for text whose single newlines are mere wrapping (feeds,
/// mailings): lines are joined with spaces and only blank lines separate
/// paragraphs.
pub fn paragraphs(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for para in s.split("\n\n") {
        let para = inline(para);
        if para.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&para);
    }
    out
}

/// Decodes HTML entities (`&amp;`, `&#233;`, `&eacute;` …).
pub fn decode_entities(s: &str) -> String {
    if s.contains('&') {
        html_escape::decode_html_entities(s).into_owned()
    } else {
        s.to_string()
    }
}

/// Removes HTML tags (`<b>`, `<a href=…>`, `<img …>`, comments) from
/// text that may carry inline HTML. Only tags of HTML elements count:
/// `<former design>`, `<SEG>` or `<10 ms` are text, and so is LaTeX such
/// as `$a<b$` or `$\frac13<s<1$`, because a tag name must end in space,
/// `/` or `>`. A tag may span lines and hold `$` or quoted `>`.
///
/// Removal is repeated, so that `<scr<b>ipt>` cannot reassemble a tag; the
/// passes are capped, because stripping is for reading, not for safety:
/// every output escapes what is left.
pub fn strip_tags(s: &str) -> String {
    let mut text = s.to_string();
    for _ in 0..STRIP_PASSES {
        match strip_pass(&text) {
            Some(next) => text = next,
            None => break,
        }
    }
    text
}

const STRIP_PASSES: usize = 4;

/// The longest tag looked for, in bytes: bounds the look-ahead from each
/// `<`, so that stripping stays linear on hostile text.
const MAX_TAG: usize = 1024;

/// Element names whose tags are markup, sorted for binary search: HTML's
/// (obsolete ones included, since old feeds use them) and the MathML and
/// SVG roots.
const ELEMENTS: &[&str] = &[
    "a",
    "abbr",
    "acronym",
    "address",
    "applet",
    "area",
    "article",
    "aside",
    "audio",
    "b",
    "base",
    "basefont",
    "bdi",
    "bdo",
    "bgsound",
    "big",
    "blink",
    "blockquote",
    "body",
    "br",
    "button",
    "canvas",
    "caption",
    "center",
    "cite",
    "code",
    "col",
    "colgroup",
    "data",
    "datalist",
    "dd",
    "del",
    "details",
    "dfn",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "em",
    "embed",
    "fieldset",
    "figcaption",
    "figure",
    "font",
    "footer",
    "form",
    "frame",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hgroup",
    "hr",
    "html",
    "i",
    "iframe",
    "image",
    "img",
    "input",
    "ins",
    "isindex",
    "kbd",
    "keygen",
    "label",
    "legend",
    "li",
    "link",
    "main",
    "map",
    "mark",
    "marquee",
    "math",
    "menu",
    "meta",
    "meter",
    "nav",
    "nobr",
    "noembed",
    "noframes",
    "noscript",
    "object",
    "ol",
    "optgroup",
    "option",
    "output",
    "p",
    "param",
    "picture",
    "plaintext",
    "pre",
    "progress",
    "q",
    "rp",
    "rt",
    "ruby",
    "s",
    "samp",
    "script",
    "section",
    "select",
    "small",
    "source",
    "span",
    "strike",
    "strong",
    "style",
    "sub",
    "summary",
    "sup",
    "svg",
    "table",
    "tbody",
    "td",
    "template",
    "textarea",
    "tfoot",
    "th",
    "thead",
    "time",
    "title",
    "tr",
    "track",
    "tt",
    "u",
    "ul",
    "var",
    "video",
    "wbr",
];

fn is_element(name: &str) -> bool {
    ELEMENTS.binary_search(&name.to_ascii_lowercase().as_str()).is_ok()
}

/// One left-to-right removal of tags; `None` when there was none.
fn strip_pass(s: &str) -> Option<String> {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    let mut removed = false;
    // Once a search for `-->` fails, every later one would too.
    let mut comments_end = true;
    while let Some(pos) = rest.find('<') {
        out.push_str(&rest[..pos]);
        let candidate = &rest[pos..];
        let len = if candidate.starts_with("<!--") && comments_end {
            let end = candidate[4..].find("-->").map(|e| e + 4 + 3);
            comments_end = end.is_some();
            end
        } else {
            tag_len(candidate)
        };
        match len {
            Some(len) => {
                removed = true;
                rest = &candidate[len..];
            }
            None => {
                out.push('<');
                rest = &candidate[1..];
            }
        }
    }
    out.push_str(rest);
    removed.then_some(out)
}

/// Length of the tag at the start of `s` (which starts with `<`), if it
/// is one: `<name`, `</name` or `<!doctype`, then space, `/` or `>`, then
/// attributes (quoted values may hold `>` and `<`) up to `>`.
fn tag_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 1;
    if b.get(i) == Some(&b'/') {
        i += 1;
    }
    let name_start = i;
    while b.get(i).is_some_and(|c| c.is_ascii_alphanumeric() || (*c == b'!' && i == name_start)) {
        i += 1;
    }
    let name = &s[name_start..i];
    let known = name.eq_ignore_ascii_case("!doctype") || (name.as_bytes().first().is_some_and(u8::is_ascii_alphabetic) && is_element(name));
    if !known || !b.get(i).is_some_and(|c| c.is_ascii_whitespace() || matches!(c, b'/' | b'>')) {
        return None;
    }
    let mut quote: Option<u8> = None;
    let mut after_equals = false;
    while let Some(&c) = b.get(i) {
        if i >= MAX_TAG {
            return None;
        }
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                b'>' => return Some(i + 1),
                b'<' => return None,
                b'"' | b'\'' if after_equals => quote = Some(c),
                _ => {}
            },
        }
        if quote.is_none() && !c.is_ascii_whitespace() {
            after_equals = c == b'=';
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_and_keeps_paragraphs() {
        assert_eq!(inline("  a \t b\n c  "), "a b c");
        assert_eq!(lines(" a  b \n\n  c\n"), "a b\nc");
        assert_eq!(paragraphs("a\nb\n\nc"), "a b\nc");
    }

    #[test]
    fn markup_and_latex() {
        assert_eq!(decode_entities("R&amp;D &#233; &lt;x&gt;"), "R&D é <x>");
        assert_eq!(strip_tags("a <b>bold</b> and $a<b$ and x < y"), "a bold and $a<b$ and x < y");
        assert_eq!(strip_tags("broken <a href"), "broken <a href");
        assert_eq!(strip_tags("$\\frac{1}{3}<s<1$ and $x<b>c$"), "$\\frac{1}{3}<s<1$ and $xc$");
    }

    #[test]
    fn only_html_elements_are_tags() {
        for text in
            ["<10 ms to <2 ms", "the <former architecture> design", "\\texttt{<SEG>}", "<human, tool, object>", "<copy lines=\"i-j\"/>"]
        {
            assert_eq!(strip_tags(text), text);
        }
        assert_eq!(strip_tags("a <!-- note --> b <!DOCTYPE html> c"), "a  b  c");
    }

    #[test]
    fn tags_cannot_hide_from_stripping() {
        // Reassembled, split across lines, `$` or `>` inside, upper case.
        for (raw, clean) in [
            ("<scr<script>ipt>alert(1)</script>", "alert(1)"),
            ("x<scr<scr<b>ipt>ipt>y", "xy"),
            ("a<img\nsrc=x\nonerror=alert(1)>b", "ab"),
            ("a<img src=x onerror=\"$.get('//e')\">b", "ab"),
            ("a<a href='javascript:x()' title=\"1 > 0\">link</a>", "alink"),
            ("<SCRIPT>x</SCRIPT >", "x"),
        ] {
            assert_eq!(strip_tags(raw), clean, "{raw:?}");
        }
    }

    #[test]
    fn stripping_hostile_text_stays_linear() {
        let hostile = "<b \"<b '".repeat(200_000) + &"<b ".repeat(200_000) + &"<!--".repeat(100_000);
        let start = std::time::Instant::now();
        let out = strip_tags(&hostile);
        assert_eq!(out.len(), hostile.len());
        assert!(start.elapsed() < std::time::Duration::from_secs(5), "{:?}", start.elapsed());
    }

    #[test]
    fn excerpts_are_short() {
        assert_eq!(excerpt("ab\u{1b}"), "\"ab\\u{1b}\"");
        let long = "é".repeat(1_000_000);
        let e = excerpt(&long);
        assert!(e.chars().count() < 110 && e.ends_with("(2000000 bytes)"), "{e}");
    }

    #[test]
    fn control_characters_go() {
        assert_eq!(inline("\u{1b}[2J a\u{7}b \u{1b}"), "[2J ab");
        assert_eq!(lines("a\u{1b}\n\u{7}\nb"), "a\nb");
    }
}
