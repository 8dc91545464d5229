//! Words as ROUGE counts them (Lin 2004, as Google's `rouge-score` does):
//! lower case, every run of characters other than a–z and 0–9 a break,
//! and words of more than three letters cut to their Porter stem. The
//! gist's features and the SciTLDR scorer read text the same way, so what
//! the gist is fitted to is what it is scored by.

use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::sync::LazyLock;

static PORTER: LazyLock<frostem::Stemmer> = LazyLock::new(|| frostem::Stemmer::new(frostem::Algorithm::Porter));

/// The words of `text`, lower case, ASCII letters and digits only.
pub fn tokens(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    lower.split(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit())).filter(|w| !w.is_empty()).map(str::to_owned).collect()
}

/// [`tokens`], each of more than three letters stemmed.
pub fn stems(text: &str) -> Vec<String> {
    tokens(text).into_iter().map(|w| if w.len() > 3 { PORTER.stem(&w).into_owned() } else { w }).collect()
}

/// Each distinct word a thread has read, by its stem: the gist's features
/// compare numbers, and stem each word once, not once a sentence.
#[derive(Default)]
struct Lexicon {
    /// A word as written (lower case) → its stem's number.
    words: FxHashMap<Box<str>, u32>,
    /// A stem → its number; and each number's stem and whether it is a stop word.
    numbers: FxHashMap<Box<str>, u32>,
    stems: Vec<(Box<str>, bool)>,
}

thread_local! {
    static LEXICON: RefCell<Lexicon> = RefCell::new(Lexicon::default());
}

/// Words a thread keeps before it starts afresh (at [`forget_if_full`]).
const LEXICON_WORDS: usize = 200_000;

/// Starts the thread's word numbers afresh if there are too many: call it
/// before reading a text, never while numbers from it are in use.
pub fn forget_if_full() {
    LEXICON.with_borrow_mut(|l| {
        if l.words.len() > LEXICON_WORDS {
            *l = Lexicon::default();
        }
    });
}

/// The numbers of `text`'s [`stems`], in order, appended to `out`.
pub fn stem_numbers(text: &str, out: &mut Vec<u32>) {
    let lower = text.to_lowercase();
    LEXICON.with_borrow_mut(|l| {
        for w in lower.split(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit())).filter(|w| !w.is_empty()) {
            if let Some(&n) = l.words.get(w) {
                out.push(n);
                continue;
            }
            let stem: Box<str> = if w.len() > 3 { PORTER.stem(w).into() } else { w.into() };
            let n = match l.numbers.get(&stem) {
                Some(&n) => n,
                None => {
                    let n = l.stems.len() as u32;
                    l.stems.push((stem.clone(), is_stop(&stem)));
                    l.numbers.insert(stem, n);
                    n
                }
            };
            l.words.insert(w.into(), n);
            out.push(n);
        }
    });
}

/// The stem a number stands for, and whether it is a stop word.
pub fn stem_of(number: u32) -> (String, bool) {
    LEXICON.with_borrow(|l| l.stems.get(number as usize).map(|(s, stop)| (s.to_string(), *stop)).unwrap_or_default())
}

/// Whether a number's stem is a stop word.
pub fn is_stop_number(number: u32) -> bool {
    LEXICON.with_borrow(|l| l.stems.get(number as usize).is_some_and(|(_, stop)| *stop))
}

/// Words that say nothing of a paper's subject, as [`stems`] spells them
/// ("this" is "thi"): the title overlap and the sentences' shared words
/// leave them out. Sorted, for the binary search.
pub fn is_stop(stem: &str) -> bool {
    const STOP: &[&str] = &[
        "a", "an", "and", "are", "as", "at", "base", "be", "by", "for", "from", "in", "into", "is", "it", "its", "new", "of", "on", "or",
        "our", "over", "that", "the", "their", "these", "thi", "those", "to", "toward", "under", "use", "via", "we", "with",
    ];
    STOP.binary_search(&stem).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_split_lowered_and_stemmed_as_rouge_does() {
        assert_eq!(
            tokens("Self-Supervised GANs (2020), e.g. $\\alpha$-nets!"),
            ["self", "supervised", "gans", "2020", "e", "g", "alpha", "nets"]
        );
        // Three letters or fewer are left as they are; longer words lose their endings.
        assert_eq!(stems("the networks are generalizing quickly"), ["the", "network", "are", "gener", "quickli"]);
        assert_eq!(stems("Ünïcode naïve"), ["n", "code", "na", "ve"]);
    }
}
