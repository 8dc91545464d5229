//! The gist of a paper: the one sentence of its abstract that says what
//! the paper does, chosen by a linear scorer over text features
//! ([`features`]) fitted to SciTLDR's dev split and trimmed of its
//! lead-in ("In this paper, we …") and asides in brackets. `eval tldr`
//! scores it; docs/quality.md has the figures and the variants tried.
//!
//! It reads text only — no model — so it is made at ingest for every
//! paper, costs microseconds, and works on a library that has no vectors.

pub mod features;
pub mod model;
pub mod sentences;
pub mod words;

use regex::Regex;
use rustc_hash::FxHashMap;
use std::collections::HashMap;
use std::sync::LazyLock;

/// The method's number: a gist stored by another is made again. Moves
/// with any change to the choice, the trimming or the fitted weights.
pub const METHOD: i64 = 1;

/// Shorter sentences are fragments ("2.", "We"), never a gist.
const MIN_WORDS: usize = 5;

/// The gist of a paper from its title and abstract: `None` for an
/// abstract of fewer than two sentences, a withdrawal notice, or one whose
/// every candidate merely repeats the title.
pub fn of(title: &str, abstract_text: &str) -> Option<String> {
    let sentences = sentences::split(abstract_text);
    choose(title, &sentences).map(|i| trim(sentences[i]))
}

/// Which of `sentences` is the gist, by the fitted score; `None` where
/// [`of`] gives none.
pub fn choose(title: &str, sentences: &[&str]) -> Option<usize> {
    Scorer::fitted().choose(title, sentences)
}

/// A linear score over [`features`]: the fitted one ([`model`]), or one a
/// fit is trying.
pub struct Scorer {
    pub bias: f64,
    pub weights: [f64; features::COUNT],
    /// The prior the fit counted; `None` is [`model::PRIOR`].
    pub prior: Option<(HashMap<String, f64>, f64)>,
}

impl Scorer {
    pub fn fitted() -> Scorer {
        Scorer { bias: model::BIAS, weights: model::WEIGHTS, prior: None }
    }

    /// How often a word of an abstract's sentence was a word of its
    /// paper's summaries, on the fitting set; words it did not count get
    /// the prior's own default.
    pub fn prior(&self, stem: &str) -> f64 {
        match &self.prior {
            None => FITTED_PRIOR.get(stem).copied().unwrap_or(model::PRIOR_DEFAULT),
            Some((table, default)) => table.get(stem).copied().unwrap_or(*default),
        }
    }

    /// The score of each sentence (its expected ROUGE-1 against a
    /// one-line summary) and how many words it has.
    pub fn score(&self, title: &str, sentences: &[&str]) -> (Vec<f64>, Vec<usize>) {
        let prior = |w: &str| self.prior(w);
        let (rows, words) = features::of(title, sentences, &prior);
        (rows.iter().map(|f| self.bias + f.iter().zip(self.weights).map(|(x, w)| x * w).sum::<f64>()).collect(), words)
    }

    /// Which of `sentences` is the gist; `None` where [`of`] gives none.
    /// The best-scored sentence of [`MIN_WORDS`] or more that says more
    /// than the title.
    pub fn choose(&self, title: &str, sentences: &[&str]) -> Option<usize> {
        // A withdrawn paper's abstract is its notice, whatever else it says.
        if sentences.len() < 2 || sentences.iter().any(|s| WITHDRAWN.is_match(s)) {
            return None;
        }
        let (scores, words) = self.score(title, sentences);
        let mut order: Vec<usize> = (0..sentences.len()).filter(|&i| words[i] >= MIN_WORDS).collect();
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
        let title_words = content_words(title);
        order.into_iter().find(|&i| !repeats(&content_words(&trim(sentences[i])), &title_words))
    }
}

static FITTED_PRIOR: LazyLock<FxHashMap<&'static str, f64>> = LazyLock::new(|| model::PRIOR.iter().copied().collect());

static WITHDRAWN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i-u)\b(has been|is being|was|is|been) withdrawn\b|\bwithdrawn by the authors?\b|\bwithdraw(s|n)? (this|the|our) (paper|submission|article|manuscript|preprint)\b",
    )
    .expect("the withdrawal pattern is valid")
});

/// "In this paper, we propose" → "We propose": the summaries SciTLDR
/// collects start at the verb's subject.
static LEAD_IN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i-u)^(?:in this (?:paper|work|study|note|article)|here|to this end|to address (?:this|these) (?:issue|problem|challenge|limitation)s?|in particular|specifically|to (?:do so|that end)|finally|moreover|furthermore|in addition|additionally|thus|therefore|as a result|in contrast|instead)\s*,?\s*we\b",
    )
    .expect("the lead-in pattern is valid")
});

/// A sentence as the gist shows it: white space as single spaces, the
/// lead-in before "we" dropped, and asides in brackets after a space
/// ("(MPT)", "(see Sec. 3)") left out — but never a bracket inside TeX
/// math, and never so much that fewer than [`MIN_WORDS`] words are left.
pub fn trim(sentence: &str) -> String {
    let flat = sentence.split_whitespace().collect::<Vec<_>>().join(" ");
    let led = match LEAD_IN.find(&flat) {
        Some(m) => format!("We{}", &flat[m.end()..]),
        None => flat.clone(),
    };
    let out = without_asides(&led);
    if words::tokens(&out).len() >= MIN_WORDS {
        out
    } else {
        flat
    }
}

/// `text` less every " (…)" that holds no bracket of its own and stands
/// outside `$…$`.
fn without_asides(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_math = false;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '$' {
            in_math = !in_math;
        }
        if c == ' ' && !in_math && rest[1..].starts_with('(') {
            if let Some(close) = rest[2..].find([')', '(']).filter(|&k| rest.as_bytes()[2 + k] == b')') {
                let inner = &rest[2..2 + close];
                if inner.matches('$').count().is_multiple_of(2) {
                    rest = &rest[2 + close + 1..];
                    continue;
                }
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The distinct stems of `text` that are not stop words, by number,
/// sorted.
fn content_words(text: &str) -> Vec<u32> {
    let mut w = Vec::new();
    words::stem_numbers(text, &mut w);
    w.retain(|&n| !words::is_stop_number(n));
    w.sort_unstable();
    w.dedup();
    w
}

/// Whether a sentence says no more than the title: nearly all its words
/// are the title's.
fn repeats(sentence: &[u32], title: &[u32]) -> bool {
    let new = sentence.iter().filter(|w| title.binary_search(w).is_err()).count();
    !sentence.is_empty() && new * 5 < sentence.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// arXiv 2603.00356 as ../shared/fixtures/listings/cs.DC-2026-03-03.txt lists it.
    const TITLE: &str = "Token Management in Multi-Tenant AI Inference Platforms";

    #[test]
    fn the_gist_is_the_sentence_that_says_what_the_paper_does() {
        let abstract_text = "Multi-tenant AI inference platforms must balance resource utilization against service-level \
            guarantees under variable demand. Conventional approaches fall short: static allocation wastes capacity, \
            while rate limiting fails to account for heterogeneous resource consumption. We introduce token pools, a \
            control-plane abstraction that represents inference capacity as explicit entitlements expressed in \
            inference-native units. We evaluate the design on a Kubernetes cluster.";
        assert_eq!(
            of(TITLE, abstract_text).as_deref(),
            Some(
                "We introduce token pools, a control-plane abstraction that represents inference capacity as explicit \
                 entitlements expressed in inference-native units."
            )
        );
    }

    #[test]
    fn the_lead_in_and_asides_go_but_math_and_short_sentences_stay() {
        assert_eq!(
            trim("In this paper, we propose  Mixed Precision Training (MPT) with\n $O(n)$ cost (see Sec. 3)."),
            "We propose Mixed Precision Training with $O(n)$ cost."
        );
        assert_eq!(trim("Here we bound $f (x)$ by $g$ for all $x$."), "We bound $f (x)$ by $g$ for all $x$.");
        // Trimming that would leave a fragment leaves the sentence whole.
        assert_eq!(trim("In this work, we (the authors) win."), "In this work, we (the authors) win.");
    }

    #[test]
    fn no_gist_for_one_sentence_a_withdrawal_or_a_copy_of_the_title() {
        assert_eq!(of(TITLE, ""), None);
        assert_eq!(of(TITLE, "We introduce token pools, a control-plane abstraction for inference capacity."), None);
        assert_eq!(of(TITLE, "This paper has been withdrawn by the authors. A corrected version will follow soon."), None);
        assert_eq!(of("Some title", "This submission has been withdrawn by arXiv administrators due to a dispute. It was long."), None);
        // The sentence that says no more than the title is passed over for one that does.
        let only_title = "Token management in multi-tenant AI inference platforms. It is 3.5 times cheaper on our clusters.";
        assert_eq!(of(TITLE, only_title).as_deref(), Some("It is 3.5 times cheaper on our clusters."));
        assert_eq!(of(TITLE, "Token management in multi-tenant AI inference platforms. Yes."), None);
    }

    /// Abstracts come from outside: no text makes the gist panic, and
    /// what it gives is always words of the abstract.
    #[test]
    fn hostile_text_gives_a_gist_or_none_never_a_panic() {
        let pieces = [
            "",
            ".",
            "$",
            "(",
            " (",
            ")",
            "\\",
            "é",
            "É. ",
            "e.g. ",
            " ($x$) ",
            "We propose it. ",
            "In this paper, we ",
            "\n",
            "?!",
            "\u{202e}",
        ];
        let mut texts: Vec<String> = Vec::new();
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    texts.push(format!("{a}{b}{c}{a} Our method works well on graphs. {b}{c}"));
                }
            }
        }
        texts.push("A sentence of enough words here. ".repeat(200));
        texts.push("(".repeat(1000) + "We show a bound on every tree. " + &")".repeat(1000));
        for t in &texts {
            if let Some(g) = of("Graphs", t) {
                assert!(words::tokens(&g).len() >= MIN_WORDS, "{g:?} from {t:?}");
            }
        }
    }

    #[test]
    fn the_stop_words_are_sorted_for_their_search() {
        assert!(words::is_stop("thi") && words::is_stop("we") && !words::is_stop("token"));
    }
}
