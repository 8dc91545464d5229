//! A grammar of personal names as arXiv shows them: capitalised words with
//! accents, hyphens and apostrophes, initials, particles and suffixes, plus
//! the odd forms real metadata has (lowercase "zhang", camel-case
//! "MinHyuk", all-caps "ZHANG"), which are accepted but counted; and where
//! a title can end and a list of names begin when nothing but the letters
//! says so (the glued-title split asks, and so does a name list read with
//! a title glued in front).

/// Prefixes after which a name has a second capital (McDonald, LeCun).
pub(super) const CAMEL_PREFIXES: [&str; 17] =
    ["Mc", "Mac", "Fitz", "De", "Di", "Da", "Du", "Le", "La", "Van", "Von", "Ten", "Ter", "St", "Dal", "Del", "Della"];

/// Lowercase words that occur inside names.
const PARTICLES: [&str; 35] = [
    "van", "von", "der", "den", "de", "del", "della", "delle", "dei", "degli", "di", "da", "das", "dos", "do", "du", "la", "le", "lo",
    "los", "las", "el", "al", "bin", "binti", "bint", "ibn", "ben", "ter", "ten", "te", "zu", "y", "i", "e",
];

const SUFFIXES: [&str; 9] = ["Jr", "Jr.", "Sr", "Sr.", "II", "III", "IV", "2nd", "3rd"];

/// Function words, lowercase or capitalised: they carry title phrases
/// ("…For Time Series", "…with Minimum Batch Size") and are nobody's
/// name. The first [`TITLE_END_WORDS`] of them cannot end a title
/// (prepositions can: "…Where It Comes From").
const NOT_NAMES: [&str; 45] = [
    "the", "a", "an", "and", "or", "of", "via", "for", "with", "from", "to", "in", "on", "by", "at", "into", "using", "towards", "toward",
    "through", "without", "beyond", "between", "across", "against", "versus", "is", "are", "how", "what", "why", "when", "where", "which",
    "does", "should", "not", "its", "their", "our", "this", "that", "these", "those", "based",
];
const TITLE_END_WORDS: usize = 7;

/// Capitalised forms of [`NOT_NAMES`] that are also real names ("An
/// Wang", "In Kim", "To Nguyen", "Or Patashnik", "A Smith").
const ALSO_NAMES: [&str; 8] = ["A", "An", "On", "In", "To", "By", "At", "Or"];

/// Whether `word` is a function word in lowercase or capitalised form
/// (not all caps: "VS" is somebody's initials).
fn in_word_list(list: &[&str], word: &str) -> bool {
    let mut chars = word.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    let lower = word.to_lowercase();
    let capitalised_or_lower = chars.all(char::is_lowercase) && (first.is_lowercase() || first.is_uppercase());
    capitalised_or_lower && list.contains(&lower.as_str())
}

/// A preposition, article or conjunction, which never ends a title.
pub(super) fn is_function_word(word: &str) -> bool {
    in_word_list(&NOT_NAMES[..TITLE_END_WORDS], word)
}

/// Endings of English nouns and adjectives that no name has; used to
/// doubt a lone "name" such as "Torch Applications".
const NOUN_ENDINGS: [&str; 26] = [
    "tion", "tions", "sion", "sions", "ment", "ments", "ness", "ity", "ities", "ogy", "ics", "ism", "isms", "ware", "ture", "tures",
    "ysis", "yses", "able", "ible", "ical", "ized", "ised", "ency", "works", "ators",
];

/// Longer than any one person's name.
pub(super) const MAX_NAME_BYTES: usize = 100;

/// Footnote marks some submitters leave on names ("Yi-Fan Zhang†"), and
/// the stray apostrophe of "Niccolo'".
const MARKS: [char; 8] = ['†', '‡', '*', '§', '¶', '#', '\'', '’'];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok {
    /// Capitalised word: Smith, Grímsson, Wan-Lu, O'Brien, McDonald.
    Word,
    /// Dotted initials or abbreviations: J., J.R.R., J.-P., Ll.
    Initial,
    /// A single capital without a dot: "J Smith".
    BareInitial,
    Particle,
    Suffix,
    /// A camel-case name word ("MinHyuk", "KhademSohi"): common in
    /// romanised Korean and Chinese names, but also what a cut through
    /// a glued title word and name leaves ("SeekJohn").
    Camel,
    /// A name word in an unusual form: lowercase ("zhang"), all caps
    /// ("ZHANG", "AJ"), a nickname in quotes, a stray dot or footnote
    /// mark ("Tonderski.", "Zhang†"), a lone capital ("I-Chao").
    Odd,
    Bad,
}

/// A parsed author list and what it says about its own plausibility.
#[derive(Debug)]
pub(super) struct List {
    pub names: Vec<String>,
    /// Tokens of unusual form ([`Tok::Camel`], [`Tok::Odd`]).
    pub odd_tokens: usize,
    /// Names of one word or with an unusual token other than camel case.
    doubtful: usize,
    /// Whether a word reads like an English noun ("Applications").
    noun_like: bool,
}

impl List {
    /// Whether this list alone is evidence of authors: one well-formed
    /// name of two or more words that does not read like English nouns
    /// ("Torch Applications"), or several names of which at most half
    /// are doubtful.
    pub(super) fn is_convincing(&self) -> bool {
        match self.names.len() {
            0 => false,
            1 => self.doubtful == 0 && !self.noun_like,
            n => self.doubtful * 2 <= n,
        }
    }
}

/// Splits at top-level commas (not inside parentheses, so that an
/// affiliation "(1) MIT, (2) CMU" stays with its name) and at a
/// standalone "and" or "&".
pub(super) fn split_items(s: &str) -> Vec<&str> {
    items(s).collect()
}

/// [`split_items`] as a lazy iterator, so that a parse can stop at the
/// first item that is not a name without scanning a long line to its end.
fn items(s: &str) -> impl Iterator<Item = &str> {
    let mut chars = s.char_indices();
    let mut start = Some(0);
    std::iter::from_fn(move || {
        let from = start?;
        let mut depth = 0i32;
        for (i, c) in chars.by_ref() {
            match c {
                '(' | '[' => depth += 1,
                ')' | ']' => depth -= 1,
                ',' | ';' if depth == 0 => {
                    start = Some(i + c.len_utf8());
                    return s.get(from..i);
                }
                _ => {}
            }
        }
        start = None;
        s.get(from..)
    })
    .flat_map(split_and)
}

/// "A and B" → ["A", "B"]; the blank part before a leading "and" (an
/// Oxford comma: "A, B, and C") is dropped.
fn split_and(item: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut word_start = None;
    for (i, c) in item.char_indices().chain([(item.len(), ' ')]) {
        if !c.is_whitespace() {
            word_start.get_or_insert(i);
            continue;
        }
        if let Some(ws) = word_start.take() {
            if matches!(&item[ws..i], "and" | "&") {
                parts.push(&item[start..ws]);
                start = i;
            }
        }
    }
    parts.push(&item[start..]);
    if parts.len() > 1 && parts[0].trim().is_empty() {
        parts.remove(0);
    }
    parts
}

/// How many names [`parse_list`] reads to judge a cut before it reads
/// the whole list.
pub(super) const FIRST_NAMES: usize = 8;

/// Parses `s`, which starts right at a glued boundary, as a list of
/// personal names (the first `limit` of them, if given); None when any
/// part is not a name.
pub(super) fn parse_list(s: &str, limit: Option<usize>) -> Option<List> {
    let mut list = List { names: Vec::new(), odd_tokens: 0, doubtful: 0, noun_like: false };
    let mut empty_item = false;
    for (i, item) in items(s).enumerate().take(limit.unwrap_or(usize::MAX)) {
        let item = item.trim();
        // A trailing comma is what a page cut mid-list leaves; "A, , B"
        // is not how lists are printed.
        if empty_item {
            return None;
        }
        if item.is_empty() {
            if i == 0 {
                return None;
            }
            empty_item = true;
            continue;
        }
        let kinds = name_tokens(item)?;
        if i > 0 && kinds.iter().all(|k| *k == Tok::Suffix) {
            // "John Smith, Jr." prints the suffix as its own item.
            continue;
        }
        check_name(&kinds)?;
        let camel = kinds.iter().filter(|k| **k == Tok::Camel).count();
        let mut odd = kinds.iter().filter(|k| **k == Tok::Odd).count();
        if i == 0 {
            odd += usize::from(boundary_price(item, &kinds)?);
        }
        list.odd_tokens += camel + odd;
        if odd > 0 || kinds.len() == 1 {
            list.doubtful += 1;
        }
        list.noun_like |= item.split_whitespace().any(is_noun_like);
        list.names.push(super::text::inline(item));
    }
    (!list.names.is_empty()).then_some(list)
}

/// Whether the first name, which starts at the glued boundary, starts
/// in an unusual way (Some(true)) or in a way that rules the cut out
/// (None). A cut left of the true boundary makes a camel-case word
/// there ("Deep|SeekJohn Smith"), and a cut through an acronym makes a
/// bare or all-caps one ("3|D Reconstruction", "Ne|RF and…"); but
/// "SungHo Kim" and "M Rita Verdelho" are real first authors. Camel
/// case (priced as a token already) and bare capitals are allowed at a
/// price, other odd forms not at all.
fn boundary_price(item: &str, kinds: &[Tok]) -> Option<bool> {
    match kinds.first()? {
        Tok::Word | Tok::Initial | Tok::Particle => Some(false),
        Tok::BareInitial => Some(true),
        Tok::Camel => item.chars().nth(1).is_some_and(char::is_lowercase).then_some(false),
        Tok::Odd | Tok::Suffix | Tok::Bad => None,
    }
}

/// How many names `title` would end with if it were cut inside an
/// author list: "…ResolutionAli Dehaghi, Bo Chen, Hossein Khadem" cut
/// at "Khadem|Sohi" leaves "Ali Dehaghi" (glued to the title), "Bo
/// Chen" and the piece "Hossein Khadem" on the title side. A real title
/// does not end in a list of names.
pub(super) fn trailing_names(title: &str) -> usize {
    let items = split_items(title);
    let Some((last, before)) = items.split_last() else {
        return 0;
    };
    let run =
        before.iter().rev().take_while(|item| name_tokens(item.trim()).is_some_and(|k| k.len() >= 2 && check_name(&k).is_some())).count();
    // The item where the run stops may be the title with the first
    // author glued to it.
    let glued_first = before.len().checked_sub(run + 1).and_then(|i| before.get(i)).is_some_and(|item| ends_with_glued_name(item));
    let names = run + usize::from(glued_first);
    // The piece before the cut is part of a name too, when names
    // precede it.
    let piece = names > 0 && name_tokens(last.trim()).is_some_and(|kinds| check_name(&kinds).is_some());
    names + usize::from(piece)
}

/// Whether `item` ends in a name glued to preceding text, as the first
/// author is glued to the title.
fn ends_with_glued_name(item: &str) -> bool {
    // A name is short: only its last few dozen characters matter.
    let from = item.len().saturating_sub(MAX_NAME_BYTES);
    let mut prev: Option<char> = None;
    item.char_indices().any(|(pos, c)| {
        let Some(p) = prev.replace(c) else {
            return false;
        };
        if pos < from {
            return false;
        }
        let name = &item[pos..];
        is_split_candidate(p, c)
            && title_can_end(&item[..pos], name)
            && name_tokens(name.trim()).is_some_and(|kinds| {
                kinds.len() >= 2 && matches!(kinds.first(), Some(Tok::Word | Tok::Initial)) && check_name(&kinds).is_some()
            })
    })
}

/// Classifies the tokens of one list item, with an affiliation in
/// parentheses removed; None when the parentheses are misplaced.
fn name_tokens(item: &str) -> Option<Vec<Tok>> {
    let name = strip_affiliations(item)?;
    // "Eric~Granger": a LaTeX tie is a space.
    Some(name.split(|c: char| c.is_whitespace() || c == '~').filter(|t| !t.is_empty()).map(classify).collect())
}

/// "John Smith (MIT)" → "John Smith": parenthesised groups may only
/// close a name, never sit inside or be glued to a word.
fn strip_affiliations(item: &str) -> Option<&str> {
    let Some(open) = item.find('(') else {
        return (!item.contains(')')).then_some(item);
    };
    let mut depth = 0i32;
    for c in item[open..].chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ if depth == 0 && !c.is_whitespace() => return None,
            _ => {}
        }
        if depth < 0 {
            return None;
        }
    }
    (depth == 0).then_some(item[..open].trim_end())
}

/// A name has one to seven tokens, at least one a word, and does not
/// start with a suffix or end in a particle.
fn check_name(kinds: &[Tok]) -> Option<()> {
    let (first, last) = (kinds.first()?, kinds.last()?);
    let ok = kinds.len() <= 7
        && !kinds.contains(&Tok::Bad)
        && kinds.iter().any(|k| matches!(k, Tok::Word | Tok::Camel | Tok::Odd))
        && *last != Tok::Particle
        && *first != Tok::Suffix;
    ok.then_some(())
}

fn classify(tok: &str) -> Tok {
    if PARTICLES.contains(&tok) {
        return Tok::Particle;
    }
    if SUFFIXES.contains(&tok) {
        return Tok::Suffix;
    }
    if in_word_list(&NOT_NAMES, tok) && !ALSO_NAMES.contains(&tok) {
        return Tok::Bad;
    }
    if let Some(kind) = classify_capitals(tok) {
        return kind;
    }
    if is_abbreviation(tok) {
        return Tok::Initial;
    }
    if is_name_word(tok) {
        return Tok::Word;
    }
    if is_camel_word(tok) {
        return Tok::Camel;
    }
    if is_odd_word(tok) {
        return Tok::Odd;
    }
    // "Zhang†", "Tonderski.", "\"Richie\"": a name word with a mark.
    let bare = tok.trim_end_matches(MARKS).trim_end_matches('.').trim_matches(['"', '“', '”']);
    if bare != tok && !bare.is_empty() && matches!(classify(bare), Tok::Word | Tok::Camel | Tok::Odd) {
        return Tok::Odd;
    }
    Tok::Bad
}

/// Tokens made of capitals, dots and hyphens: initials or all-caps words.
fn classify_capitals(tok: &str) -> Option<Tok> {
    if !tok.chars().all(|c| c.is_uppercase() || c == '.' || c == '-') {
        return None;
    }
    let letters = tok.chars().filter(|c| c.is_uppercase()).count();
    let dotted = tok.contains('.');
    if letters == 0 {
        return Some(Tok::Bad);
    }
    if letters == 1 {
        return Some(if dotted { Tok::Initial } else { Tok::BareInitial });
    }
    if dotted {
        // "J.R.R." and "J.-P." dot every letter; "CJ." is not initials.
        let mut chars = tok.chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_uppercase() && chars.peek() != Some(&'.') {
                return Some(Tok::Bad);
            }
        }
        return Some(Tok::Initial);
    }
    Some(if tok.contains('-') { Tok::Bad } else { Tok::Odd })
}

/// "Ll.", "Th.", "Chr.": a capital, one to three small letters, a dot.
fn is_abbreviation(tok: &str) -> bool {
    let Some(body) = tok.strip_suffix('.') else {
        return false;
    };
    let mut chars = body.chars();
    let n = body.chars().count();
    chars.next().is_some_and(char::is_uppercase) && (2..=4).contains(&n) && chars.all(char::is_lowercase)
}

/// Capitalised words, optionally joined by hyphens or apostrophes, with
/// a second capital only after a known prefix; lowercase particles may
/// lead ("al-Farabi", "d'Alembert").
fn is_name_word(tok: &str) -> bool {
    let Some(first) = tok.chars().next() else {
        return false;
    };
    if first.is_lowercase() {
        let Some(sep) = tok.find(['-', '\'', '’']) else {
            return false;
        };
        let lead = &tok[..sep];
        let sep_len = tok[sep..].chars().next().map_or(1, char::len_utf8);
        let rest = &tok[sep + sep_len..];
        return lead.chars().count() <= 4
            && lead.chars().all(char::is_lowercase)
            && rest.chars().next().is_some_and(char::is_uppercase)
            && is_name_word(rest);
    }
    if !first.is_uppercase() {
        return false;
    }
    // Segments with the separators before and after them.
    let mut segments = Vec::new();
    let (mut start, mut before) = (0, None);
    for (i, c) in tok.char_indices() {
        if matches!(c, '-' | '\'' | '’') {
            segments.push((before, &tok[start..i], Some(c)));
            start = i + c.len_utf8();
            before = Some(c);
        }
    }
    segments.push((before, &tok[start..], None));
    if segments.len() > 4 {
        return false;
    }
    let last = segments.len() - 1;
    segments.iter().enumerate().all(|(i, &(before, seg, after))| {
        // "O'Brien", "Garcia-O'Donnell": a lone capital before an
        // apostrophe. (Not before a hyphen: "3D-Grounded", "T-Cell".)
        let lone_capital = seg.chars().count() == 1 && matches!(after, Some('\'' | '’'));
        // "Montes-y-Gómez", "Graell-i-Amat".
        let particle = i > 0 && i < last && before == Some('-') && PARTICLES.contains(&seg);
        // "Squeeze-and-Excitation" is no name; "Cohen-Or", "Yu'an" are.
        let function_word = before == Some('-') && seg.chars().all(char::is_lowercase) && is_function_word(seg);
        lone_capital || particle || (is_name_segment(seg, i == 0) && !function_word)
    })
}

fn is_name_segment(seg: &str, first: bool) -> bool {
    let chars: Vec<char> = seg.chars().collect();
    let Some(&head) = chars.first() else {
        return false;
    };
    if chars.len() < 2 || !(head.is_uppercase() || (!first && head.is_lowercase())) {
        return false;
    }
    if !chars.iter().all(|&c| c.is_alphabetic() || is_combining_mark(c)) {
        return false;
    }
    let inner_caps: Vec<usize> = (1..chars.len()).filter(|&k| chars[k].is_uppercase()).collect();
    match inner_caps.as_slice() {
        [] => true,
        [k] => {
            let prefix: String = chars[..*k].iter().collect();
            CAMEL_PREFIXES.contains(&prefix.as_str()) && chars.get(k + 1).is_some_and(|c| c.is_lowercase())
        }
        _ => false,
    }
}

/// One word of letters in camel case ("MinHyuk", "KhudaBukhsh",
/// "ONeill"): it starts with a capital, ends in a small letter and never
/// has three capitals in a row, which keeps out acronyms glued to a name
/// ("GPUsJin", "SplattingM").
fn is_camel_word(tok: &str) -> bool {
    let chars: Vec<char> = tok.chars().collect();
    chars.len() >= 3
        && chars.iter().all(|&c| c.is_alphabetic() || is_combining_mark(c))
        && chars.first().is_some_and(|c| c.is_uppercase())
        && chars.last().is_some_and(|c| c.is_lowercase())
        && !chars.windows(3).any(|w| w.iter().all(|c| c.is_uppercase()))
}

/// Forms names rarely but really take, per hyphen- or apostrophe-joined
/// segment: all lowercase ("zhang"), all caps ("ZHANG", "CH-Wang"),
/// camel case, or a lone capital joined to a longer segment ("I-Chao",
/// "Chung-I").
fn is_odd_word(tok: &str) -> bool {
    let segments: Vec<&str> = tok.split(['-', '\'', '’']).collect();
    let lone_capital_ok = segments.len() > 1 && segments.iter().any(|s| s.chars().count() >= 2);
    segments.iter().all(|seg| {
        if lone_capital_ok && seg.chars().count() == 1 && seg.chars().all(char::is_uppercase) {
            return true;
        }
        let chars: Vec<char> = seg.chars().collect();
        let letters = chars.iter().all(|&c| c.is_alphabetic() || is_combining_mark(c));
        let lower = chars.iter().all(|c| !c.is_uppercase());
        let upper = chars.iter().all(|c| !c.is_lowercase());
        let camel = chars.first().is_some_and(|c| c.is_uppercase())
            && chars.last().is_some_and(|c| c.is_lowercase())
            && !chars.windows(3).any(|w| w.iter().all(|c| c.is_uppercase()));
        chars.len() >= 2 && letters && (lower || upper || camel) && !(lower && is_function_word(seg))
    })
}

fn is_combining_mark(c: char) -> bool {
    matches!(c, '\u{0300}'..='\u{036F}')
}

fn is_noun_like(tok: &str) -> bool {
    let lower = tok.to_lowercase();
    NOUN_ENDINGS.iter().any(|end| lower.ends_with(end) && lower.chars().count() >= end.chars().count() + 3)
}

/// A name starts with a capital glued to the title's last character, or
/// with a lowercase particle ("de la Fontaine") glued after a title ending
/// in closing punctuation.
pub(super) fn is_split_candidate(prev: char, c: char) -> bool {
    if prev.is_whitespace() {
        return false;
    }
    c.is_uppercase() || (c.is_lowercase() && matches!(prev, ')' | '?' | '!' | '"' | '”' | '’' | ']'))
}

/// Characters a title does not end with: a hyphen or an opening bracket
/// means the cut is inside a word or a group.
const NOT_TITLE_ENDS: [char; 19] = ['-', '‐', '–', '—', '/', '\\', ',', ':', ';', '(', '[', '{', '&', '=', '_', '^', '|', '~', '@'];

/// Whether `title` (with `authors` glued after it) can be a complete title.
pub(super) fn title_can_end(title: &str, authors: &str) -> bool {
    let Some(last) = title.chars().next_back() else {
        return false;
    };
    if NOT_TITLE_ENDS.contains(&last) || title.chars().filter(|c| c.is_alphanumeric()).count() < 2 {
        return false;
    }
    if !brackets_balanced(title) || !title.matches('$').count().is_multiple_of(2) {
        return false;
    }
    let fragment = title.rsplit(char::is_whitespace).next().unwrap_or(title);
    // "iCloud", "eBPF", "vLLM", "mRNA": a lone small letter glued to a
    // capital is one word, not a title end ("…how to dilute it" is one).
    if fragment.chars().count() == 1 && fragment.chars().all(char::is_lowercase) {
        return false;
    }
    // "McKinsey", "MacArthur", "O'Brien": the fragment is a name prefix.
    if CAMEL_PREFIXES.contains(&fragment) || fragment.ends_with(['\'', '’']) {
        return false;
    }
    // A title does not end in "the", "of", "via"…
    if is_function_word(fragment) {
        return false;
    }
    let mut next = authors.chars();
    let (a, b, c) = (next.next(), next.next(), next.next());
    let name_follows = b == Some('.') || b.is_some_and(char::is_lowercase);
    // "U.|S. Regions": the cut is inside dotted initials.
    if b == Some('.') && ends_with_dotted_capital(fragment) {
        return false;
    }
    // A bare capital after a digit or a short word piece is the end of
    // "3D", "CoT", "MoE", "IoT" ("3|D Reconstruction", "Co|T Reasoning"),
    // not the initial of an author ("…LearningM Rita Verdelho").
    if a.is_some_and(char::is_uppercase) && !name_follows {
        let piece = fragment.chars().rev().take_while(|c| c.is_alphabetic()).count();
        if last.is_numeric() || piece < 3 {
            return false;
        }
    }
    // Cutting inside a run of capitals is only credible when a name word
    // or a dotted initial follows ("HPC|John", "HPC|J. Smith"); "OpenB|MC
    // Environments" and "MuMM|I Experience" are acronyms cut in two, and
    // "LL|Ms" is the plural of one.
    if last.is_uppercase() && a.is_some_and(char::is_uppercase) {
        let plural = b == Some('s') && !c.is_some_and(char::is_alphabetic);
        if !name_follows || plural {
            return false;
        }
    }
    true
}

/// "U." or "U.S.": a fragment ending in a capital and a dot, with nothing
/// but dotted capitals before.
fn ends_with_dotted_capital(fragment: &str) -> bool {
    let mut chars = fragment.chars().rev();
    chars.next() == Some('.')
        && chars.next().is_some_and(char::is_uppercase)
        && chars.next().is_none_or(|c| c == '.' || !c.is_alphanumeric())
}

fn brackets_balanced(s: &str) -> bool {
    let mut depth: [i32; 3] = [0; 3];
    for c in s.chars() {
        let (slot, step) = match c {
            '(' => (0, 1),
            ')' => (0, -1),
            '[' => (1, 1),
            ']' => (1, -1),
            '{' => (2, 1),
            '}' => (2, -1),
            _ => continue,
        };
        depth[slot] += step;
        if depth[slot] < 0 {
            return false;
        }
    }
    depth == [0; 3]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_lists_that_are_not_names() {
        for s in [
            "Torch Applications",
            "Seek, Qwen, and Llama",
            "Agent Systems (MAS)John Smith",
            "John Smith, , Jane Doe",
            "BMC Environments",
            "for the Masses",
            "John Smith: A Study",
        ] {
            let list = parse_list(s, None);
            assert!(list.as_ref().is_none_or(|l| !l.is_convincing()), "{s:?} → {list:?}");
        }
        let list = parse_list("Wei ZHANG, Li WANG and Jo Bloggs (MIT)", None).expect("names");
        assert_eq!(list.names, ["Wei ZHANG", "Li WANG", "Jo Bloggs (MIT)"]);
    }
}
