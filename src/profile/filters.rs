//! Per-profile filters: keywords a paper must or must not mention, authors
//! whose papers always come first, and categories to allow or deny.
//!
//! The rules, in the order they are applied:
//! 1. a paper by a pinned author is always shown, on top, whatever else says;
//! 2. `deny`: hidden when its primary category is denied;
//! 3. `allow`: when any category is allowed, hidden unless one of its
//!    categories (primary or cross-list) is;
//! 4. `exclude`: hidden when its title or abstract mentions an excluded keyword;
//! 5. `include`: when any keyword is included, hidden unless its title or
//!    abstract mentions one.
//!
//! Keywords match whole words in any of their forms (cut and stemmed as the
//! lexical index does: `blockchain` also matches "Blockchains"); a keyword
//! of several words matches them in sequence. A keyword with symbols the
//! analyzer drops (`C++`) matches as written, case-insensitively.

use crate::library::store::{profiles, Db, ProfileKey};
use crate::paper::Paper;
use anyhow::{bail, Result};
use regex::Regex;
use serde::Serialize;
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Rule {
    /// Only papers mentioning one of these keywords.
    Include,
    /// Never papers mentioning this keyword.
    Exclude,
    /// Papers by this author always on top.
    Author,
    /// Only papers in one of these categories.
    Allow,
    /// Never papers whose primary category is this one.
    Deny,
}

impl Rule {
    pub const ALL: [Rule; 5] = [Rule::Include, Rule::Exclude, Rule::Author, Rule::Allow, Rule::Deny];

    pub fn name(self) -> &'static str {
        match self {
            Rule::Include => "include",
            Rule::Exclude => "exclude",
            Rule::Author => "author",
            Rule::Allow => "allow",
            Rule::Deny => "deny",
        }
    }

    pub fn parse(s: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.name() == s)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FilterRule {
    pub rule: Rule,
    pub value: String,
}

/// What the filters say about one paper.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Keep,
    /// Shown on top; the pinned author's name as the user wrote it.
    Pinned(String),
    /// Hidden, with the rule that hid it ("exclude: blockchain").
    Hidden(String),
}

/// A profile's filters, compiled for matching.
#[derive(Debug, Default)]
pub struct Filters {
    rules: Vec<FilterRule>,
    include: Vec<(String, Keyword)>,
    exclude: Vec<(String, Keyword)>,
    authors: Vec<(String, String)>,
    allow: Vec<String>,
    deny: Vec<String>,
}

/// Checks and normalises a value for its rule.
pub fn normalise(rule: Rule, value: &str) -> Result<String> {
    let v = crate::listing::text::inline(value);
    if v.is_empty() {
        bail!("an empty {rule} filter would match nothing");
    }
    if v.chars().count() > 200 {
        bail!("a {rule} filter is at most 200 characters");
    }
    if matches!(rule, Rule::Allow | Rule::Deny) && !is_category(&v) {
        // Said the same from the command line and the page: no command.
        let several: Vec<&str> = v.split(|c: char| c.is_whitespace() || c == ',').filter(|p| !p.is_empty()).collect();
        if several.len() > 1 && several.iter().all(|p| is_category(p)) {
            bail!("{v:?} holds {} categories: a {rule} rule takes one, so add one rule each ({})", several.len(), several.join(", "));
        }
        bail!("{v:?} is not an arXiv category like cs.DC, astro-ph.GA or hep-th; an exclude rule hides papers whose title or abstract say a word");
    }
    Ok(v)
}

/// arXiv's archives, current and retired (their old-style ids still appear).
const ARCHIVES: [&str; 38] = [
    "acc-phys", "adap-org", "alg-geom", "ao-sci", "astro-ph", "atom-ph", "bayes-an", "chao-dyn", "chem-ph", "cmp-lg", "comp-gas",
    "cond-mat", "cs", "dg-ga", "econ", "eess", "funct-an", "gr-qc", "hep-ex", "hep-lat", "hep-ph", "hep-th", "math", "math-ph", "mtrl-th",
    "nlin", "nucl-ex", "nucl-th", "patt-sol", "physics", "plasm-ph", "q-alg", "q-bio", "q-fin", "quant-ph", "solv-int", "stat", "supr-con",
];

/// `archive` or `archive.SUBJECT` for one of arXiv's archives: `cs.DC`,
/// `astro-ph.GA`, `hep-th`, `math.AG`.
pub fn is_category(v: &str) -> bool {
    let (archive, subject) = match v.split_once('.') {
        Some((a, s)) => (a, Some(s)),
        None => (v, None),
    };
    let archive = archive.to_ascii_lowercase();
    ARCHIVES.contains(&archive.as_str())
        && subject.is_none_or(|s| !s.is_empty() && s.len() <= 8 && s.chars().all(|c| c.is_ascii_alphabetic() || c == '-'))
}

pub fn add(conn: Db<'_>, profile: &ProfileKey, rule: Rule, value: &str) -> Result<bool> {
    let v = normalise(rule, value)?;
    profiles::add_filter(conn, profile, rule.name(), &v)
}

pub fn remove(conn: Db<'_>, profile: &ProfileKey, rule: Rule, value: &str) -> Result<bool> {
    profiles::remove_filter(conn, profile, rule.name(), &crate::listing::text::inline(value))
}

pub fn list(conn: Db<'_>, profile: &ProfileKey) -> Result<Vec<FilterRule>> {
    // A rule this version does not know is skipped, not fatal.
    Ok(profiles::filters(conn, profile)?
        .into_iter()
        .filter_map(|(rule, value)| Rule::parse(&rule).map(|rule| FilterRule { rule, value }))
        .collect())
}

pub fn load(conn: Db<'_>, profile: &ProfileKey) -> Result<Filters> {
    Filters::new(list(conn, profile)?)
}

/// A keyword compiled for matching.
#[derive(Debug)]
enum Keyword {
    /// Its stems, to be found in sequence among a paper's.
    Words(Vec<String>),
    /// Whole-word, case-insensitive, any spacing between its words.
    Literal(Regex),
}

/// A stem of a text, with where in the text its word stands.
#[derive(Debug)]
struct Stem {
    stem: String,
    from: usize,
    to: usize,
}

/// The stems of `text`, as the lexical index cuts them.
fn stems(text: &str) -> Vec<Stem> {
    let mut analyzer = crate::library::lexical::word_analyzer();
    let mut stream = analyzer.token_stream(text);
    let mut out = Vec::new();
    while let Some(t) = stream.next() {
        out.push(Stem { stem: t.text.clone(), from: t.offset_from, to: t.offset_to });
    }
    out
}

fn keyword(value: &str) -> Result<Keyword> {
    let plain = value.chars().all(|c| c.is_alphanumeric() || c.is_whitespace() || c == '-' || c == '\'');
    let words: Vec<String> = stems(value).into_iter().map(|s| s.stem).collect();
    if plain && !words.is_empty() {
        return Ok(Keyword::Words(words));
    }
    let parts: Vec<String> = value.split_whitespace().map(regex::escape).collect();
    // \b only works next to word characters; "C++" must still match alone.
    let pattern = format!(r"(?i)(?:^|[^\w]){}(?:[^\w]|$)", parts.join(r"\s+"));
    Ok(Keyword::Literal(Regex::new(&pattern)?))
}

/// Stems of one word: Snowball leaves an acronym's plural alone ("gpus"),
/// so a trailing s is forgiven either way.
fn same_word(a: &str, b: &str) -> bool {
    a == b || a.strip_suffix('s') == Some(b) || b.strip_suffix('s') == Some(a)
}

impl Keyword {
    /// The words of `text` that match, as the text writes them: a reader
    /// told "exclude: diffusion" hid a paper wants to see it said "diffuse".
    fn found_in<'t>(&self, text: &'t str, text_stems: &[Stem]) -> Option<&'t str> {
        match self {
            Keyword::Words(words) => text_stems
                .windows(words.len())
                .find(|w| w.iter().zip(words).all(|(t, k)| same_word(&t.stem, k)))
                .and_then(|w| text.get(w[0].from..w[w.len() - 1].to)),
            Keyword::Literal(re) => re.find(text).map(|m| m.as_str().trim_matches(|c: char| !c.is_alphanumeric() && !"+#".contains(c))),
        }
    }
}

/// Author names compared without case, spacing or initials' full stops.
fn author_key(name: &str) -> String {
    name.split_whitespace().map(|w| w.trim_matches('.').to_lowercase()).collect::<Vec<_>>().join(" ")
}

impl Filters {
    pub fn new(rules: Vec<FilterRule>) -> Result<Filters> {
        let mut f = Filters::default();
        for r in &rules {
            match r.rule {
                Rule::Include => f.include.push((r.value.clone(), keyword(&r.value)?)),
                Rule::Exclude => f.exclude.push((r.value.clone(), keyword(&r.value)?)),
                Rule::Author => f.authors.push((r.value.clone(), author_key(&r.value))),
                Rule::Allow => f.allow.push(r.value.to_ascii_lowercase()),
                Rule::Deny => f.deny.push(r.value.to_ascii_lowercase()),
            }
        }
        f.rules = rules;
        Ok(f)
    }

    pub fn rules(&self) -> &[FilterRule] {
        &self.rules
    }

    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    pub fn judge(&self, p: &Paper) -> Verdict {
        if !self.authors.is_empty() {
            for a in &p.authors {
                let key = author_key(a);
                if let Some((name, _)) = self.authors.iter().find(|(_, k)| !k.is_empty() && *k == key) {
                    return Verdict::Pinned(name.clone());
                }
            }
        }
        let lower = |s: &str| s.to_ascii_lowercase();
        let primary = p.primary.as_deref().or(p.subjects.first().map(String::as_str)).map(lower);
        if let Some(primary) = &primary {
            if let Some(d) = self.deny.iter().find(|d| *d == primary) {
                return Verdict::Hidden(format!("deny: {d}"));
            }
        }
        if !self.allow.is_empty() && !p.subjects.iter().any(|s| self.allow.contains(&lower(s))) {
            return Verdict::Hidden(format!("allow: not in {}", self.allow.join(", ")));
        }
        if self.include.is_empty() && self.exclude.is_empty() {
            return Verdict::Keep;
        }
        let text = format!("{}\n{}", p.title, p.abstract_text);
        let text_stems = stems(&text);
        if let Some((k, said)) = self.exclude.iter().find_map(|(k, kw)| kw.found_in(&text, &text_stems).map(|said| (k, said))) {
            let said = crate::listing::text::inline(said);
            return Verdict::Hidden(if said.eq_ignore_ascii_case(k) {
                format!("exclude: {k}")
            } else {
                format!("exclude: {k} (says \u{201c}{said}\u{201d})")
            });
        }
        if !self.include.is_empty() && !self.include.iter().any(|(_, kw)| kw.found_in(&text, &text_stems).is_some()) {
            let names: Vec<&str> = self.include.iter().map(|(k, _)| k.as_str()).collect();
            return Verdict::Hidden(format!("include: mentions none of {}", names.join(", ")));
        }
        Verdict::Keep
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paper::{ArxivId, Kind};

    fn paper(title: &str, abs: &str, authors: &[&str], subjects: &[&str]) -> Paper {
        let mut p = Paper::new(ArxivId::parse("2603.00001").unwrap(), Kind::New, "test");
        p.title = title.into();
        p.abstract_text = abs.into();
        p.authors = authors.iter().map(|s| s.to_string()).collect();
        p.set_subjects(subjects.iter().map(|s| s.to_string()).collect());
        p
    }

    fn filters(rules: &[(Rule, &str)]) -> Filters {
        Filters::new(rules.iter().map(|(r, v)| FilterRule { rule: *r, value: normalise(*r, v).unwrap() }).collect()).unwrap()
    }

    #[test]
    fn keywords_match_whole_words_in_any_form_without_case() {
        let f = filters(&[(Rule::Exclude, "blockchain"), (Rule::Exclude, "graph  neural network")]);
        let keep = paper("Ledgers everywhere", "A blockchainy idea.", &[], &["cs.DC"]);
        assert_eq!(f.judge(&keep), Verdict::Keep, "a word inside a longer word is not the word");
        let plural = paper("Blockchains everywhere", "", &[], &["cs.DC"]);
        assert_eq!(
            f.judge(&plural),
            Verdict::Hidden("exclude: blockchain (says \u{201c}Blockchains\u{201d})".into()),
            "a plural is the word"
        );
        let networks = paper("T", "Graph neural networks, trained.", &[], &["cs.LG"]);
        assert_eq!(
            f.judge(&networks),
            Verdict::Hidden("exclude: graph neural network (says \u{201c}Graph neural networks\u{201d})".into())
        );
        let acronyms = filters(&[(Rule::Exclude, "GPU")]);
        assert!(matches!(acronyms.judge(&paper("Many GPUs", "", &[], &["cs.DC"])), Verdict::Hidden(_)));
        let hit = paper("On BLOCKCHAIN consensus", "", &[], &["cs.DC"]);
        assert_eq!(f.judge(&hit), Verdict::Hidden("exclude: blockchain".into()));
        let phrase = paper("T", "We train a graph\nneural network on it.", &[], &["cs.LG"]);
        assert_eq!(f.judge(&phrase), Verdict::Hidden("exclude: graph neural network".into()), "the words as the paper spaces them");
        // Other forms of a word match, and the reader is told which.
        let f = filters(&[(Rule::Exclude, "diffusion")]);
        let diffuse = paper("Heat", "Particles diffuse through the lattice.", &[], &["cond-mat"]);
        assert_eq!(f.judge(&diffuse), Verdict::Hidden("exclude: diffusion (says \u{201c}diffuse\u{201d})".into()));
        let f = filters(&[(Rule::Include, "C++"), (Rule::Include, "GPU")]);
        assert_eq!(f.judge(&paper("Fast C++ kernels", "", &[], &["cs.PL"])), Verdict::Keep);
        assert_eq!(f.judge(&paper("GPUs", "", &[], &["cs.PL"])), Verdict::Keep, "a plural is the word");
        assert_eq!(f.judge(&paper("TPUs", "", &[], &["cs.PL"])), Verdict::Hidden("include: mentions none of C++, GPU".into()));
        assert_eq!(f.judge(&paper("On (GPU) clusters", "", &[], &["cs.DC"])), Verdict::Keep);
    }

    #[test]
    fn pinned_authors_win_and_categories_filter() {
        let f = filters(&[(Rule::Author, "Ion  Stoica"), (Rule::Deny, "cs.CR"), (Rule::Allow, "cs.DC"), (Rule::Exclude, "ray")]);
        let pinned = paper("Ray on security", "", &["Alice B", "ion stoica"], &["cs.CR"]);
        assert_eq!(f.judge(&pinned), Verdict::Pinned("Ion Stoica".into()));
        assert_eq!(f.judge(&paper("T", "", &[], &["cs.CR", "cs.DC"])), Verdict::Hidden("deny: cs.cr".into()));
        assert_eq!(f.judge(&paper("T", "", &[], &["cs.LG", "cs.DC"])), Verdict::Keep, "a cross-list into an allowed category counts");
        assert!(matches!(f.judge(&paper("T", "", &[], &["cs.LG"])), Verdict::Hidden(r) if r.starts_with("allow:")));
        assert!(normalise(Rule::Deny, "cs DC; drop").is_err());
        for good in ["cs.DC", "astro-ph.GA", "hep-th", "math.AG", "q-bio.NC", "stat.ML", "cond-mat.str-el"] {
            assert!(normalise(Rule::Allow, good).is_ok(), "{good}");
        }
        for bad in ["blockchain", "cs.", "xx.YY", "cs.DC.x", "csDC"] {
            let e = normalise(Rule::Deny, bad).unwrap_err().to_string();
            assert!(e.contains("is not an arXiv category") && !e.contains("`"), "{bad}: {e}");
        }
        // Two categories in one box are two rules, not an exclude.
        let e = normalise(Rule::Allow, "cs.CL cs.AI").unwrap_err().to_string();
        assert!(e.contains("holds 2 categories") && e.contains("(cs.CL, cs.AI)") && !e.contains("exclude"), "{e}");
        assert!(normalise(Rule::Include, "   ").is_err());
    }
}
