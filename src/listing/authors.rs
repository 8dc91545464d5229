//! Author lines, as every format writes them, turned into names and the
//! affiliations kept apart.
//!
//! arXiv takes the author line as the submitter typed it, so one grammar
//! serves all formats:
//! - names separated by commas, semicolons and ` and ` outside parentheses;
//! - affiliations in parentheses after a name, `A. Smith (MIT)`, or as
//!   numbered markers `A (1 and 2), B (2)` resolved by a trailing list
//!   `((1) Univ A, (2) Univ B)`;
//! - a collaboration before its members, `LHCb collaboration: R. Aaij, …`,
//!   and `for the Belle Collaboration` after them;
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
    for piece in split(line) {
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

/// `LHCb collaboration: R. Aaij` → the collaboration and its first member.
fn split_collaboration(piece: &str) -> Vec<&str> {
    if let Some((group, member)) = piece.split_once(':') {
        if is_group(group) {
            return vec![group, member];
        }
    }
    vec![piece]
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
        let labels: Vec<&str> = inner.split([',', ' ']).map(str::trim).filter(|w| !w.is_empty() && *w != "and" && *w != "&").collect();
        let is_marker = !labels.is_empty() && labels.iter().all(|l| marker_at(&format!("({l})")).is_some());
        if is_marker {
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
}
