//! Author lines, as every format writes them, turned into names and the
//! affiliations kept apart.
//!
//! arXiv takes the author line as the submitter typed it, so one grammar
//! serves all formats:
//! - names separated by commas, semicolons and ` and ` outside parentheses;
//! - affiliations in parentheses after a name, `A. Smith (MIT)`, or as
//!   numbered markers `A (1 and 2), B (2)` resolved by a trailing list
//!   `((1) Univ A, (2) Univ B)`; older lines leave out the comma after
//!   them, `A (1,2) B (3)`, `A. Smith (MIT) B. Jones (CMU)`;
//! - a collaboration or team before its members, `LHCb collaboration:
//!   R. Aaij, …`, `MOSI.AI: D. Yu, …`, and `for the Belle Collaboration`
//!   after them;
//! - TeX accents and macros (`Schr\"odinger`), turned into Unicode.

use super::tex;
use crate::paper::Paper;
use std::collections::HashMap;

/// Names, and what the line says of each one's affiliation.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Authors {
    pub names: Vec<String>,
    /// Parallel to `names` (`""` where nothing is said); empty when the
    /// line names no affiliation at all.
    pub affiliations: Vec<String>,
}

impl Authors {
    pub fn set_on(self, paper: &mut Paper) {
        paper.authors = self.names;
        paper.affiliations = self.affiliations;
    }

    /// Appends another line's authors (a feed with one element per person).
    pub fn extend(&mut self, other: Authors) {
        let (had, has) = (!self.affiliations.is_empty(), !other.affiliations.is_empty());
        if has && !had {
            self.affiliations = vec![String::new(); self.names.len()];
        }
        let n = other.names.len();
        self.names.extend(other.names);
        if has {
            self.affiliations.extend(other.affiliations);
        } else if had {
            self.affiliations.extend(std::iter::repeat_n(String::new(), n));
        }
    }

    /// One author with an affiliation given apart (API Atom's
    /// `<arxiv:affiliation>`).
    pub fn push(&mut self, name: String, affiliation: String) {
        if affiliation.is_empty() {
            if !self.affiliations.is_empty() {
                self.affiliations.push(String::new());
            }
        } else if self.affiliations.is_empty() {
            self.affiliations = vec![String::new(); self.names.len()];
            self.affiliations.push(affiliation);
        } else {
            self.affiliations.push(affiliation);
        }
        self.names.push(name);
    }
}

/// One name (or affiliation) given on its own: TeX turned into Unicode,
/// whitespace collapsed.
pub fn one(s: &str) -> String {
    let s = tex::to_unicode(s);
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Reads one author line whose whitespace is already collapsed and whose
/// markup is gone.
pub fn read(line: &str) -> Authors {
    let line = tex::to_unicode(line);
    let (line, numbered) = numbered_list(&line);
    let mut out = Authors::default();
    let mut any_affiliation = false;
    for piece in split(line).into_iter().flat_map(split_glued) {
        for piece in split_collaboration(piece) {
            let (name, affiliation) = name_and_affiliation(piece, &numbered);
            let Some(name) = clean_name(name) else {
                continue;
            };
            any_affiliation |= !affiliation.is_empty();
            out.names.push(name);
            out.affiliations.push(affiliation);
        }
    }
    if !any_affiliation {
        out.affiliations.clear();
    }
    out
}

/// Splits off a trailing `((1) Univ A, (2) Univ B)` and reads it into a
/// map from number to affiliation.
fn numbered_list(line: &str) -> (&str, HashMap<String, String>) {
    let mut map = HashMap::new();
    let trimmed = without_stray_closers(line.trim_end());
    let Some(open) = trimmed.strip_suffix(')').and_then(|_| matching_open(trimmed)) else {
        return (line, map);
    };
    let inner = &trimmed[open + 1..trimmed.len() - 1];
    let inner_trim = inner.trim_start();
    if !inner_trim.starts_with('(') || marker_at(inner_trim).is_none() {
        return (line, map);
    }
    // Positions of the `(N)` markers at the list's top level.
    let mut marks = Vec::new();
    let mut depth = 0usize;
    for (i, c) in inner.char_indices() {
        match c {
            '(' => {
                if depth == 0 {
                    if let Some((number, len)) = marker_at(&inner[i..]) {
                        marks.push((i, number, len));
                    }
                }
                depth += 1;
            }
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    for (k, &(at, ref number, len)) in marks.iter().enumerate() {
        let end = marks.get(k + 1).map_or(inner.len(), |m| m.0);
        let text = inner[at + len..end].trim().trim_end_matches([',', ';']).trim();
        if !text.is_empty() {
            map.insert(number.clone(), text.to_string());
        }
    }
    (&trimmed[..open], map)
}

/// `s` less the `)`s at its end that close nothing: "…(5) INAF-Arcetri))"
/// as a submitter typed it.
fn without_stray_closers(s: &str) -> &str {
    let opens = s.matches('(').count();
    let closes = s.matches(')').count();
    let mut out = s;
    for _ in opens..closes {
        match out.strip_suffix(')') {
            Some(rest) => out = rest.trim_end(),
            None => break,
        }
    }
    out
}

/// `(12)` or `(a)` at the start of `s`: its label and length.
fn marker_at(s: &str) -> Option<(String, usize)> {
    let rest = s.strip_prefix('(')?;
    let close = rest.find(')')?;
    let label = rest[..close].trim();
    let ok = (1..=3).contains(&label.len())
        && (label.bytes().all(|b| b.is_ascii_digit()) || (label.len() == 1 && label.bytes().all(|b| b.is_ascii_lowercase())));
    ok.then(|| (label.to_string(), close + 2))
}

/// The index of the `(` that the final `)` of `s` closes.
fn matching_open(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Names separated by commas, semicolons and ` and ` outside brackets.
fn split(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth = depth.saturating_sub(1),
            b',' | b';' if depth == 0 => {
                out.push(&line[start..i]);
                start = i + 1;
            }
            b' ' if depth == 0 && line[i..].starts_with(" and ") => {
                out.push(&line[start..i]);
                i += " and".len();
                start = i;
            }
            // Older listings join the last two with "&" (with spaces:
            // "AT&T Labs" is one name).
            b' ' if depth == 0 && line[i..].starts_with(" & ") => {
                out.push(&line[start..i]);
                i += " &".len();
                start = i;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(&line[start..]);
    out
}

const GROUPS: [&str; 6] = ["collaboration", "collaborations", "consortium", "team", "group", "project"];

fn is_group(name: &str) -> bool {
    let last = name.trim_end().rsplit(' ').next().unwrap_or("");
    GROUPS.iter().any(|g| last.eq_ignore_ascii_case(g))
}

/// `LHCb collaboration: R. Aaij` or `MOSI.AI: Donghua Yu` → the team and
/// its first member. Only a colon outside parentheses counts, so that an
/// affiliation such as `(MIT: CSAIL)` stays whole.
fn split_collaboration(piece: &str) -> Vec<&str> {
    if let Some(colon) = top_level(piece, b':') {
        let (group, member) = (&piece[..colon], &piece[colon + 1..]);
        if is_group(group) || (is_team(group) && starts_a_name(member)) {
            return vec![group, member];
        }
    }
    vec![piece]
}

/// A team named without the word "collaboration" (`MOSI.AI`, `GLM-4.5
/// Team`, `OpenAI`): a few words, one of them written the way people's
/// names never are (two capitals, a digit, a dot inside the word). An
/// initial rules it out, so that `J. McDonald: …` is never taken for one.
fn is_team(group: &str) -> bool {
    let words: Vec<&str> = group.split_whitespace().collect();
    if words.is_empty() || words.len() > 6 || words.iter().any(|w| is_initials(w)) {
        return false;
    }
    words.iter().any(|w| {
        let letters = w.chars().filter(|c| c.is_alphabetic()).count();
        let capitals = w.chars().filter(|c| c.is_uppercase()).count();
        let inner_dot = w.trim_end_matches('.').contains('.');
        letters > 0 && (capitals >= 2 || inner_dot || w.chars().any(|c| c.is_ascii_digit()))
    })
}

/// `J.`, `J.-P.`, `A.B.`: letters that stand alone between dots and hyphens.
fn is_initials(word: &str) -> bool {
    word.contains('.') && word.split(['.', '-']).all(|part| part.chars().count() <= 1)
}

/// Whether what follows a colon reads as a person: a capital first, and no
/// more words than a name has before its affiliation.
fn starts_a_name(text: &str) -> bool {
    let text = text.trim_start();
    let name = &text[..top_level(text, b'(').unwrap_or(text.len())];
    text.chars().next().is_some_and(char::is_uppercase) && (1..=6).contains(&name.split_whitespace().count())
}

/// The first `byte` of `s` outside parentheses and brackets.
fn top_level(s: &str, byte: u8) -> Option<usize> {
    let mut depth = 0usize;
    for (i, b) in s.bytes().enumerate() {
        match b {
            _ if b == byte && depth == 0 => return Some(i),
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// Splits a piece where a name follows a parenthesis with no comma between,
/// as older listings and mailings write them: `A (1,2) B (3)`, `A. Smith
/// (MIT) B. Jones (CMU)`. After numbered markers a name always starts a new
/// person; after other text it must look like an affiliation and a name,
/// since `Chun-Fu (Richard) Chen (MIT)` is one person with a nickname.
fn split_glued(piece: &str) -> Vec<&str> {
    let groups = top_level_groups(piece);
    let mut out = Vec::new();
    let mut start = 0;
    // Where the current person's name ends: their first parenthesis.
    let mut name_end = None;
    for (k, &(open, close)) in groups.iter().enumerate() {
        let next_open = groups.get(k + 1).map(|g| g.0);
        let after = piece[close + 1..next_open.unwrap_or(piece.len())].trim();
        let before = piece[start..*name_end.get_or_insert(open)].trim();
        if before.is_empty() || !after.chars().next().is_some_and(char::is_alphabetic) {
            continue;
        }
        let inner = &piece[open + 1..close];
        let split = if marker_labels(inner).is_some() {
            true
        } else {
            // Two of three signs, and a full name after: one sign alone is
            // what a nickname gives.
            let signs = [looks_like_affiliation(inner), next_open.is_some(), before.split_whitespace().count() >= 2];
            let full_name = after.split_whitespace().count() >= 2 && after.chars().next().is_some_and(char::is_uppercase);
            full_name && signs.iter().filter(|&&s| s).count() >= 2
        };
        if split {
            out.push(&piece[start..=close]);
            start = close + 1;
            name_end = None;
        }
    }
    out.push(&piece[start..]);
    out
}

/// The `(`…`)` pairs of `s` at its top level, as byte positions.
fn top_level_groups(s: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut open = 0;
    for (i, b) in s.bytes().enumerate() {
        match b {
            b'(' => {
                if depth == 0 {
                    open = i;
                }
                depth += 1;
            }
            b')' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    out.push((open, i));
                }
            }
            _ => {}
        }
    }
    out
}

/// `MIT`, `Univ. Tokyo`, `LPTHE, Paris`: more than one word, two capitals,
/// or punctuation; a nickname (`Richard`) is one plain word.
fn looks_like_affiliation(inner: &str) -> bool {
    let inner = inner.trim();
    inner.split_whitespace().count() > 1
        || inner.chars().any(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | '&' | '/'))
        || inner.chars().filter(|c| c.is_uppercase()).count() >= 2
}

/// `1,2`, `1 and 3`, `a`: the labels of numbered markers, if that is all
/// the parenthesis holds.
fn marker_labels(inner: &str) -> Option<Vec<&str>> {
    let labels: Vec<&str> = inner.split([',', ' ']).map(str::trim).filter(|w| !w.is_empty() && *w != "and" && *w != "&").collect();
    (!labels.is_empty() && labels.iter().all(|l| marker_at(&format!("({l})")).is_some())).then_some(labels)
}

/// Splits a name from the parenthesised affiliations after it; numbered
/// markers are looked up in the line's list.
fn name_and_affiliation<'a>(piece: &'a str, numbered: &HashMap<String, String>) -> (&'a str, String) {
    let mut name = piece.trim();
    let mut found: Vec<String> = Vec::new();
    while name.ends_with(')') {
        let Some(open) = matching_open(name) else {
            break;
        };
        let inner = name[open + 1..name.len() - 1].trim();
        let before = name[..open].trim_end();
        if before.is_empty() {
            break;
        }
        if let Some(labels) = marker_labels(inner) {
            for label in labels.iter().rev() {
                match numbered.get(*label) {
                    Some(text) => found.push(text.clone()),
                    None => found.push(format!("({label})")),
                }
            }
        } else if !inner.is_empty() {
            found.push(inner.to_string());
        }
        name = before;
    }
    found.reverse();
    found.dedup();
    (name, found.join("; "))
}

/// Trims, drops list debris ("and", "et al."), and the "for the" before a
/// collaboration.
fn clean_name(piece: &str) -> Option<String> {
    let collapsed = one(piece);
    let piece = collapsed.as_str();
    // "A, B, and C": the Oxford comma leaves "and C" behind.
    let piece = piece.strip_prefix("and ").unwrap_or(piece).trim();
    // "et al. (72 additional authors not shown)" marks a cut list.
    if piece.is_empty() || piece == "and" || piece.starts_with("et al") {
        return None;
    }
    for lead in ["for the ", "on behalf of the ", "on behalf of ", "for "] {
        let starts = piece.get(..lead.len()).is_some_and(|head| head.eq_ignore_ascii_case(lead));
        if starts && is_group(piece) {
            return Some(piece[lead.len()..].trim().to_string());
        }
    }
    Some(piece.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(line: &str) -> Vec<String> {
        read(line).names
    }

    #[test]
    fn plain_lists() {
        assert_eq!(names("A. Smith, B. Jones and C. Lee"), ["A. Smith", "B. Jones", "C. Lee"]);
        // A real monthly listing of 2000: "&" after an affiliation.
        let a = read("A. Aparicio (Instituto de Astrofisica de Canarias) & N. Tikhonov");
        assert_eq!(a.names, ["A. Aparicio", "N. Tikhonov"]);
        assert_eq!(a.affiliations, ["Instituto de Astrofisica de Canarias", ""]);
        assert_eq!(names("P. Smith & Q. Jones (AT&T Labs)"), ["P. Smith", "Q. Jones"]);
        assert_eq!(names("A, B, and C"), ["A", "B", "C"]);
        assert_eq!(names("Alexander Andersen"), ["Alexander Andersen"]);
        assert_eq!(names("A, B, et al. (72 additional authors not shown)"), ["A", "B"]);
        assert!(names("  ").is_empty());
        assert!(read("A, B").affiliations.is_empty());
    }

    #[test]
    fn affiliations_apart() {
        let a = read("A. B (MIT, Cambridge and Harvard), C D");
        assert_eq!(a.names, ["A. B", "C D"]);
        assert_eq!(a.affiliations, ["MIT, Cambridge and Harvard", ""]);
        let a = read(
            "A. S. Mishchenko (1 and 2) and N. Nagaosa (1 and 3) ((1) CREST, Japan Science and Technology \
             Agency, (2) Russian Research Centre ``Kurchatov Institute'', (3) The University of Tokyo)",
        );
        assert_eq!(a.names, ["A. S. Mishchenko", "N. Nagaosa"]);
        assert_eq!(
            a.affiliations,
            [
                "CREST, Japan Science and Technology Agency; Russian Research Centre \u{201C}Kurchatov Institute\u{201D}",
                "CREST, Japan Science and Technology Agency; The University of Tokyo"
            ]
        );
        let a = read("Qitong Fang (1), Haotian Li (1), Xu Wang (1)((1) Jilin Jianzhu University)");
        assert_eq!(a.names, ["Qitong Fang", "Haotian Li", "Xu Wang"]);
        assert_eq!(a.affiliations, ["Jilin Jianzhu University"; 3]);
        let a = read("Christopher Dilks (STAR Collaboration)");
        assert_eq!((a.names[0].as_str(), a.affiliations[0].as_str()), ("Christopher Dilks", "STAR Collaboration"));
        // One closing parenthesis too many, as typed in 0811.3821.
        let a = read("M.T. Beltran (1), R. Cesaroni (2) ((1) Universitat de Barcelona-CSIC (2) INAF-Arcetri))");
        assert_eq!(a.names, ["M.T. Beltran", "R. Cesaroni"]);
        assert_eq!(a.affiliations, ["Universitat de Barcelona-CSIC", "INAF-Arcetri"]);
        let mut both = read("A (X)");
        both.extend(read("B"));
        assert_eq!((both.names.len(), both.affiliations), (2, vec!["X".to_string(), String::new()]));
        let mut both = read("A");
        both.extend(read("B (Y)"));
        assert_eq!(both.affiliations, ["", "Y"]);
    }

    #[test]
    fn collaborations_and_tex() {
        assert_eq!(names("LHCb collaboration: R. Aaij, et al. (909 additional authors not shown)"), ["LHCb collaboration", "R. Aaij"]);
        assert_eq!(names("J. Dalseno, for the Belle Collaboration"), ["J. Dalseno", "Belle Collaboration"]);
        assert_eq!(names("The ATLAS Collaboration"), ["The ATLAS Collaboration"]);
        assert_eq!(names(r#"C. Bal\'azs, Hannes J\'onsson and Erwin Schr\"odinger"#), ["C. Balázs", "Hannes Jónsson", "Erwin Schrödinger"]);
        // A colon that is not after a group stays in the name.
        assert_eq!(names("Title: Foo"), ["Title: Foo"]);
    }

    #[test]
    fn names_after_a_parenthesis_without_a_comma() {
        let a = read("A. Author (1,2) B. Author (3), C. Author (4) ((1) Univ X, (2) Inst Y, (3) Lab Z, (4) Dept W)");
        assert_eq!(a.names, ["A. Author", "B. Author", "C. Author"]);
        assert_eq!(a.affiliations, ["Univ X; Inst Y", "Lab Z", "Dept W"]);
        let a = read("A. Author (MIT) B. Author (CMU)");
        assert_eq!((a.names, a.affiliations), (vec!["A. Author".to_string(), "B. Author".into()], vec!["MIT".to_string(), "CMU".into()]));
        // Markers with no list to resolve them, and a surname particle.
        let a = read("P. Dupont (1) J. van der Berg (2) and K. Lee (1 and 2)");
        assert_eq!(a.names, ["P. Dupont", "J. van der Berg", "K. Lee"]);
        assert_eq!(a.affiliations, ["(1)", "(2)", "(1); (2)"]);
        // A one-word affiliation, and a one-word name before a longer one.
        let a = read("R. S. Rao (Princeton) T. Okafor (Caltech), Deepti (IIT Delhi) M. Ito (Kyoto U.)");
        assert_eq!(a.names, ["R. S. Rao", "T. Okafor", "Deepti", "M. Ito"]);
        assert_eq!(a.affiliations, ["Princeton", "Caltech", "IIT Delhi", "Kyoto U."]);
        let a = read("J. Kowalski (Dept. of Physics, Univ. of Warsaw) L. Novak");
        assert_eq!(a.names, ["J. Kowalski", "L. Novak"]);
        assert_eq!(a.affiliations, ["Dept. of Physics, Univ. of Warsaw", ""]);
        // Nicknames are part of a name, with or without an affiliation after.
        let a = read("Chun-Wei (Rick) Lin, Meng (Daisy) Zhou (MIT) and Yan (Sue Ellen) Ko (NTU), Lars (Lasse) Berg");
        assert_eq!(a.names, ["Chun-Wei (Rick) Lin", "Meng (Daisy) Zhou", "Yan (Sue Ellen) Ko", "Lars (Lasse) Berg"]);
        assert_eq!(a.affiliations, ["", "MIT", "NTU", ""]);
        // A list cut short after a marker.
        assert_eq!(names("A. Author (1) et al. ((1) Univ X)"), ["A. Author"]);
    }

    #[test]
    fn a_team_before_a_colon() {
        assert_eq!(names("MOSI.AI: Donghua Yu, Zhengyuan Lin, Yiwei Zhao"), ["MOSI.AI", "Donghua Yu", "Zhengyuan Lin", "Yiwei Zhao"]);
        assert_eq!(names("Nova-2 Models: Ana Ruiz and Bo Li"), ["Nova-2 Models", "Ana Ruiz", "Bo Li"]);
        assert_eq!(names("DeepMind Robotics: A. Ng"), ["DeepMind Robotics", "A. Ng"]);
        let a = read("OpenLM.ai: Ana Ruiz (1), Bo Li (2) ((1) Univ X, (2) Lab Y)");
        assert_eq!(a.names, ["OpenLM.ai", "Ana Ruiz", "Bo Li"]);
        assert_eq!(a.affiliations, ["", "Univ X", "Lab Y"]);
        // What reads as a person, or has no person after it, is left alone.
        assert_eq!(names("J. McDonald: A. Smith"), ["J. McDonald: A. Smith"]);
        assert_eq!(names("Smith, J.: Jones"), ["Smith", "J.: Jones"]);
        assert_eq!(names("Anna Berg: A Study"), ["Anna Berg: A Study"]);
        assert_eq!(names("RNA-Seq: a review"), ["RNA-Seq: a review"]);
        assert_eq!(names("ACME:"), ["ACME:"]);
        assert_eq!(names(":"), [":"]);
        // A colon inside an affiliation is not the team's.
        let a = read("A. Smith (MIT: CSAIL), B. Jones");
        assert_eq!(
            (a.names, a.affiliations),
            (vec!["A. Smith".to_string(), "B. Jones".into()], vec!["MIT: CSAIL".to_string(), String::new()])
        );
    }

    /// The same lines as each format carries them reach the same reading.
    #[test]
    fn every_format_reads_them_alike() {
        let line = "MOSI.AI: Ana Ruiz (1,2) Bo Li (3), C. Dahl (1) ((1) Univ X, (2) Inst Y, (3) Lab Z)";
        let want = (
            vec!["MOSI.AI".to_string(), "Ana Ruiz".into(), "Bo Li".into(), "C. Dahl".into()],
            vec![String::new(), "Univ X; Inst Y".into(), "Lab Z".into(), "Univ X".into()],
        );
        let mailing = format!(
            "\\\\\narXiv:2306.00001\nDate: Wed, 7 Jun 2023 18:23:40 GMT   (14kb)\n\nTitle: T\nAuthors: {}\n\
             Categories: cs.CL\n\\\\\n  Abstract.\n\\\\ ( https://arxiv.org/abs/2306.00001 ,  14kb)\n",
            // Wrapped, as mailings wrap long lines, between the glued names.
            line.replacen(" Bo Li", "\n  Bo Li", 1)
        );
        let rss = format!(
            "<rss><channel><title>cs updates</title><item><title>T</title><description>arXiv:2306.00001v1 Announce Type: new \n\
             Abstract: A.</description><category>cs.CL</category><dc:creator>{line}</dc:creator></item></channel></rss>"
        );
        let raw = format!(
            "<OAI-PMH><ListRecords><record><header><identifier>oai:arXiv.org:2306.00001</identifier></header><metadata><arXivRaw>\
             <id>2306.00001</id><version version='v1'><date>Wed, 7 Jun 2023 18:23:40 GMT</date></version><title>T</title>\
             <authors>{line}</authors><categories>cs.CL</categories><abstract>A.</abstract></arXivRaw></metadata></record>\
             </ListRecords></OAI-PMH>"
        );
        let jsonl =
            format!("{{\"id\":\"2306.00001\",\"title\":\"T\",\"authors\":\"{line}\",\"categories\":\"cs.CL\",\"abstract\":\"A.\"}}\n");
        // A listing page links each name and leaves the rest as text.
        let linked = line.replace("Ana Ruiz", "<a href=\"/a/ruiz_a_1\">Ana Ruiz</a>").replace("Bo Li", "<a href=\"/a/li_b_1\">Bo Li</a>");
        let html = format!(
            "<html><body><h3>New submissions for Wed, 7 Jun 23</h3><dl><dt><a href=\"/abs/2306.00001\" title=\"Abstract\">\
             arXiv:2306.00001</a></dt><dd><div class=\"meta\"><div class=\"list-title\"><span class=\"descriptor\">Title:</span> T\
             </div><div class=\"list-authors\"><span class=\"descriptor\">Authors:</span> {linked}</div><div class=\"list-subjects\">\
             <span class=\"descriptor\">Subjects:</span> <span class=\"primary-subject\">Computation and Language (cs.CL)</span>\
             </div><p>A.</p></div></dd></dl></body></html>"
        );
        for (name, doc) in [("m.txt", mailing), ("r.xml", rss), ("o.xml", raw), ("s.jsonl", jsonl), ("l.html", html)] {
            let parsed = crate::listing::parse_bytes(doc.as_bytes(), name).unwrap_or_else(|e| panic!("{name}: {e}"));
            let p = &parsed.papers[0];
            assert_eq!((&p.authors, &p.affiliations), (&want.0, &want.1), "{name}");
        }
    }
}
