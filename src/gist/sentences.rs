//! An abstract cut into sentences. arXiv abstracts are hard-wrapped text
//! with TeX in them, so a full stop ends a sentence only where what
//! follows starts one, and never inside `$…$`, after an abbreviation
//! ("e.g.", "et al.", "Fig.") or inside brackets.

/// Words after which a full stop does not end the sentence, lower case.
const ABBREVIATIONS: &[&str] = &[
    "al", "approx", "cf", "ch", "cor", "def", "dr", "e.g", "eq", "eqs", "etc", "fig", "figs", "i.e", "lem", "mr", "ms", "no", "nos", "pp",
    "prof", "prop", "ref", "refs", "resp", "sec", "sect", "st", "thm", "viz", "vol", "vs", "w.r.t",
];

/// The sentences of `text`, trimmed, in order. A line break that leaves a
/// blank line, or one the source kept as a paragraph break (`\n` in a
/// stored abstract), ends a sentence too.
pub fn split(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for paragraph in text.split('\n') {
        split_paragraph(paragraph, &mut out);
    }
    out
}

fn split_paragraph<'a>(text: &'a str, out: &mut Vec<&'a str>) {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut in_math = false;
    let mut depth = 0i32;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1, // an escaped character: `\$`, `\.`
            b'$' => in_math = !in_math,
            b'(' | b'[' | b'{' if !in_math => depth += 1,
            b')' | b']' | b'}' if !in_math => depth = (depth - 1).max(0),
            b'.' | b'!' | b'?' if !in_math && depth == 0 => {
                // Closing quotes and brackets belong to the sentence they close.
                let mut end = i + 1;
                while end < bytes.len() && matches!(bytes[end], b'"' | b'\'' | b')' | b']') {
                    end += 1;
                }
                if ends_sentence(text, start, i, end) {
                    push(&text[start..end], out);
                    start = end;
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    push(&text[start..], out);
}

/// Whether the mark at `mark` (its sentence begun at `start`, closers up
/// to `end`) ends a sentence: white space follows, then what can open one.
fn ends_sentence(text: &str, start: usize, mark: usize, end: usize) -> bool {
    let rest = &text[end..];
    let next = rest.trim_start();
    if next.len() == rest.len() {
        return false; // "3.5", "arXiv.org", "e.g.," — no space after the mark
    }
    let opens =
        next.chars().next().is_some_and(|c| c.is_uppercase() || c.is_ascii_digit() || matches!(c, '$' | '(' | '[' | '"' | '\\' | '`'));
    if !opens || text.as_bytes()[mark] != b'.' {
        return opens;
    }
    let word = text[start..mark].rsplit(|c: char| c.is_whitespace() || c == '(').next().unwrap_or("");
    let word = word.to_lowercase();
    !ABBREVIATIONS.contains(&word.as_str())
}

fn push<'a>(s: &'a str, out: &mut Vec<&'a str>) {
    let s = s.trim();
    if !s.is_empty() {
        out.push(s);
    }
}

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn full_stops_in_numbers_math_abbreviations_and_brackets_do_not_end_a_sentence() {
        let text = "We reach 93.5% accuracy (see Fig. 2). Prior work, e.g. Smith et al. 2020, used $O(n\\log n)$ time. Is it tight? Yes! \
                    Our bound $f(x) = 1. Then$ holds.\nA second paragraph";
        assert_eq!(
            split(text),
            [
                "We reach 93.5% accuracy (see Fig. 2).",
                "Prior work, e.g. Smith et al. 2020, used $O(n\\log n)$ time.",
                "Is it tight?",
                "Yes!",
                "Our bound $f(x) = 1. Then$ holds.",
                "A second paragraph"
            ]
        );
    }

    #[test]
    fn a_stop_before_a_lower_case_word_is_not_an_end() {
        assert_eq!(split("The i.e. rule holds. vs. the other one."), ["The i.e. rule holds. vs. the other one."]);
        assert_eq!(split("It ends \"here.\" Then (a) holds."), ["It ends \"here.\"", "Then (a) holds."]);
    }
}
