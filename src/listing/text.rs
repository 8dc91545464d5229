//! The one text clean-up every format goes through, so that a paper reads the
//! same whichever source it came from: whitespace runs inside a line fold to
//! one space, paragraph breaks stay as `\n`, HTML entities are decoded and
//! markup is removed; LaTeX is kept as written.

/// Folds all whitespace (newlines included) into single spaces and trims.
/// For one-line fields: titles, author names, comments.
pub fn inline(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
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

/// Removes tags (`<b>`, `<a href=…>`) from text that may carry inline HTML,
/// leaving LaTeX such as `$a<b$` alone: a `<` only opens a tag when a letter
/// or `/` follows it and a `>` closes it on the same line.
pub fn strip_tags(s: &str) -> String {
    if !s.contains('<') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(pos) = rest.find('<') {
        out.push_str(&rest[..pos]);
        let after = &rest[pos + 1..];
        let opens_tag = after
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '/' || c == '!');
        let close = after.find('>').filter(|&end| !after[..end].contains(['\n', '<', '$']));
        match (opens_tag, close) {
            (true, Some(end)) => rest = &after[end + 1..],
            _ => {
                out.push('<');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
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
    }
}
