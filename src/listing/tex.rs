//! TeX accents and letter macros in names, as arXiv's mailings, metadata
//! snapshot and OAI records still carry them (`Schr\"odinger`, `{\'E}cole`,
//! `\v{S}r\'amek`), turned into the Unicode the other formats show.
//!
//! Only for names and affiliations: titles and abstracts keep their TeX,
//! which is mostly mathematics a reader wants to see as written.

use std::borrow::Cow;
use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};

/// `s` with TeX accents, letter macros, escaped specials, protective braces,
/// ties and TeX quotes turned into Unicode, in NFC. Unknown commands lose
/// their name and keep their argument (`\textit{Foo}` → `Foo`). Text
/// without any of it comes back borrowed.
pub fn to_unicode(s: &str) -> Cow<'_, str> {
    if !s.contains(['\\', '{', '}', '~', '`']) && !s.contains("''") {
        return nfc(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => command(&mut chars, &mut out),
            '{' | '}' => {}
            '~' => out.push(' '),
            '`' if chars.peek() == Some(&'`') => {
                chars.next();
                out.push('\u{201C}');
            }
            '\'' if chars.peek() == Some(&'\'') => {
                chars.next();
                out.push('\u{201D}');
            }
            _ => out.push(c),
        }
    }
    Cow::Owned(nfc(&out).into_owned())
}

fn nfc(s: &str) -> Cow<'_, str> {
    match is_nfc_quick(s.chars()) {
        IsNormalized::Yes => Cow::Borrowed(s),
        _ => Cow::Owned(s.nfc().collect()),
    }
}

type Chars<'a> = std::iter::Peekable<std::str::Chars<'a>>;

/// After a backslash: one command and its argument.
fn command(chars: &mut Chars<'_>, out: &mut String) {
    let Some(&first) = chars.peek() else {
        return;
    };
    if !first.is_ascii_alphabetic() {
        chars.next();
        match first {
            '&' | '%' | '$' | '_' | '#' | '{' | '}' => out.push(first),
            '\\' | ' ' => out.push(' '),
            _ => match accent_mark(first) {
                Some(mark) => accent(chars, mark, out, false),
                None => out.push(first),
            },
        }
        return;
    }
    let mut name = String::new();
    while let Some(&c) = chars.peek() {
        if !c.is_ascii_alphabetic() || name.len() >= 32 {
            break;
        }
        name.push(c);
        chars.next();
    }
    if let Some(mark) = (name.len() == 1).then(|| accent_mark_named(name.as_bytes()[0])).flatten() {
        accent(chars, mark, out, true);
        return;
    }
    if let Some(letter) = letter(&name) {
        out.push_str(letter);
        // `\o{}bro`, `\ss bach`: the space or empty group only ends the name.
        if chars.peek() == Some(&' ') {
            chars.next();
        }
        return;
    }
    // Unknown: `\textit{x}` keeps x (the braces go with the other braces).
    if chars.peek() == Some(&' ') {
        chars.next();
    }
}

/// Applies the combining `mark` to the next base letter: `{a}`, `a`, `{\i}`,
/// or for named accents also ` a`.
fn accent(chars: &mut Chars<'_>, mark: char, out: &mut String, named: bool) {
    if named {
        while chars.peek() == Some(&' ') {
            chars.next();
        }
    }
    let braced = chars.peek() == Some(&'{');
    if braced {
        chars.next();
    }
    let base = match chars.peek() {
        Some('\\') => {
            chars.next();
            let mut name = String::new();
            while let Some(&c) = chars.peek().filter(|c| c.is_ascii_alphabetic()) {
                if name.len() >= 8 {
                    break;
                }
                name.push(c);
                chars.next();
            }
            // Dotless i and j carry accents in TeX; Unicode puts them on i, j.
            match name.as_str() {
                "i" => Some("i".to_string()),
                "j" => Some("j".to_string()),
                other => letter(other).map(str::to_string),
            }
        }
        Some('}') if braced => None,
        Some(_) => chars.next().map(String::from),
        None => None,
    };
    if braced {
        while chars.peek() == Some(&' ') {
            chars.next();
        }
        if chars.peek() == Some(&'}') {
            chars.next();
        }
    }
    match base {
        Some(base) => {
            out.push_str(&base);
            out.push(mark);
        }
        // `\'{}` alone: the spacing form of the accent.
        None => out.push(spacing_form(mark)),
    }
}

fn accent_mark(c: char) -> Option<char> {
    Some(match c {
        '\'' => '\u{301}',
        '`' => '\u{300}',
        '^' => '\u{302}',
        '"' => '\u{308}',
        '~' => '\u{303}',
        '=' => '\u{304}',
        '.' => '\u{307}',
        _ => return None,
    })
}

fn accent_mark_named(c: u8) -> Option<char> {
    Some(match c {
        b'u' => '\u{306}',
        b'v' => '\u{30C}',
        b'H' => '\u{30B}',
        b'c' => '\u{327}',
        b'k' => '\u{328}',
        b'r' => '\u{30A}',
        b'd' => '\u{323}',
        b'b' => '\u{331}',
        b't' => '\u{361}',
        _ => return None,
    })
}

fn spacing_form(mark: char) -> char {
    match mark {
        '\u{301}' => '\u{B4}',
        '\u{300}' => '`',
        '\u{302}' => '^',
        '\u{308}' => '\u{A8}',
        '\u{303}' => '~',
        _ => ' ',
    }
}

fn letter(name: &str) -> Option<&'static str> {
    Some(match name {
        "o" => "ø",
        "O" => "Ø",
        "ae" => "æ",
        "AE" => "Æ",
        "oe" => "œ",
        "OE" => "Œ",
        "aa" => "å",
        "AA" => "Å",
        "ss" => "ß",
        "l" => "ł",
        "L" => "Ł",
        "i" => "ı",
        "j" => "ȷ",
        "dh" => "ð",
        "DH" => "Ð",
        "th" => "þ",
        "TH" => "Þ",
        "ng" => "ŋ",
        "NG" => "Ŋ",
        "dj" => "đ",
        "DJ" => "Đ",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::to_unicode;

    #[test]
    fn accents_and_letters() {
        for (tex, want) in [
            (r#"Schr\"odinger"#, "Schrödinger"),
            (r"{\'E}cole", "École"),
            (r"\v{S}r\'amek", "Šrámek"),
            (r"Gon\c{c}alo", "Gonçalo"),
            (r"Gon\c calo", "Gonçalo"),
            (r"Mikkel {\O}bro", "Mikkel Øbro"),
            (r"Tom\'a\v{s} Vina\v{r}", "Tomáš Vinař"),
            (r"Bro\v{n}a Brejov\'a", "Broňa Brejová"),
            (r"Ne\'{\i}ca", "Neíca"),
            (r"Erd\H{o}s", "Erdős"),
            (r"Wei\ss mann", "Weißmann"),
            (r"\L{}ukasz", "Łukasz"),
            (r"R. Tom\`as", "R. Tomàs"),
            (r"J.~Smith", "J. Smith"),
            (r"``Kurchatov Institute''", "\u{201C}Kurchatov Institute\u{201D}"),
            (r"AT\&T", "AT&T"),
            (r"\textit{Foo}", "Foo"),
            ("plain", "plain"),
            ("trailing \\", "trailing "),
            ("e\u{301}", "é"),
        ] {
            assert_eq!(to_unicode(tex), want, "{tex}");
        }
    }
}
