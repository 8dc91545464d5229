//! Words as ROUGE counts them (Lin 2004, as Google's `rouge-score` does):
//! lower case, every run of characters other than a–z and 0–9 a break,
//! and words of more than three letters cut to their Porter stem. The
//! gist's features and the SciTLDR scorer read text the same way, so what
//! the gist is fitted to is what it is scored by.

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
