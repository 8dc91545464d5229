//! Picks and seeds as BibTeX and RIS, so they go straight into a reference
//! manager. Every BibTeX value is one braced group with `{`, `}`, `\` and
//! LaTeX's specials escaped, so no text can close it or start an entry, and
//! the `biblatex` crate that `seed add` reads with gives back the same text
//! (tested); RIS is one tag per line, so a line break in a field is a space.

use crate::paper::ArxivId;
use crate::profile::Seed;
use crate::report::digest::reason_text;
use crate::workflow::digest::Digest;
use std::io::{self, Write};

/// What both formats say about one paper or seed.
pub struct Reference<'a> {
    /// An arXiv id, or a seed's `text:` key.
    pub key: &'a str,
    pub title: &'a str,
    pub authors: &'a [String],
    pub abstract_text: &'a str,
    /// `YYYY-MM-DD` (a listing day), or an RFC 3339 time (a seed's addition).
    pub date: Option<&'a str>,
    pub primary: Option<&'a str>,
    /// Why it was picked.
    pub note: Option<String>,
}

impl Reference<'_> {
    /// The key when it is an arXiv id of arXiv's grammar (only those make links).
    fn arxiv_id(&self) -> Option<&str> {
        ArxivId::parse(self.key).filter(|a| a.id == self.key && a.version.is_none()).map(|_| self.key)
    }
}

/// The picks of a digest, best first, each with its reason as a note.
pub fn of_picks(d: &Digest) -> Vec<Reference<'_>> {
    d.picks
        .iter()
        .map(|p| Reference {
            key: &p.paper.id,
            title: &p.paper.title,
            authors: &p.paper.authors,
            abstract_text: &p.paper.abstract_text,
            date: p.paper.listing_date.as_deref(),
            primary: p.paper.primary.as_deref(),
            note: Some(reason_text(p)).filter(|r| !r.is_empty()),
        })
        .collect()
}

/// A profile's seeds (as `profile::list` gives them, newest first) written
/// oldest first: `seed add` of the file then stamps them in the order they
/// had. Weights and the negative mark are the profile's, not the papers',
/// and BibTeX has no field for them.
pub fn of_seeds(seeds: &[Seed]) -> Vec<Reference<'_>> {
    seeds
        .iter()
        .rev()
        .map(|s| Reference {
            key: &s.key,
            title: &s.title,
            authors: &[],
            abstract_text: &s.abstract_text,
            date: Some(s.added.as_str()),
            primary: None,
            note: None,
        })
        .collect()
}

/// Text as one line, no control characters.
fn one_line(s: &str) -> String {
    let spaced: String = s.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    spaced.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A citation key BibTeX accepts: letters, digits and `_`.
fn cite_key(key: &str) -> String {
    let clean: String = key.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    match clean.chars().next() {
        Some(c) if c.is_ascii_alphabetic() => clean,
        _ => format!("arxiv_{clean}"),
    }
}

/// A BibTeX value in braces. `\~` and `\^` would be accents, so those two
/// go in a group of their own; the others take a backslash.
fn braced(value: &str) -> String {
    let mut out = String::from("{");
    for c in value.chars() {
        match c {
            '{' | '}' | '\\' | '%' | '&' | '$' | '#' | '_' => {
                out.push('\\');
                out.push(c);
            }
            '~' | '^' => {
                out.push('{');
                out.push(c);
                out.push('}');
            }
            c => out.push(c),
        }
    }
    out.push('}');
    out
}

pub fn bibtex(out: &mut impl Write, refs: &[Reference]) -> io::Result<()> {
    for r in refs {
        writeln!(out, "@misc{{{},", cite_key(r.key))?;
        let mut field = |name: &str, value: &str| -> io::Result<()> {
            let value = one_line(value);
            if value.is_empty() {
                Ok(())
            } else {
                writeln!(out, "  {name} = {},", braced(&value))
            }
        };
        field("title", r.title)?;
        // `and` separates people: inside one name it would make two.
        let names: Vec<String> = r.authors.iter().map(|a| one_line(a).replace(" and ", " & ")).collect();
        field("author", &names.join(" and "))?;
        field("abstract", r.abstract_text)?;
        if let Some(id) = r.arxiv_id() {
            field("eprint", id)?;
            field("archiveprefix", "arXiv")?;
            field("url", &format!("https://arxiv.org/abs/{id}"))?;
        }
        if let Some(p) = r.primary {
            field("primaryclass", p)?;
        }
        if let Some(d) = r.date.and_then(|d| d.get(..10)) {
            field("year", &d[..4])?;
            // Better BibTeX's name for when the user added it: `seed add` orders by it.
            field("dateadded", d)?;
        }
        if let Some(n) = &r.note {
            field("note", n)?;
        }
        writeln!(out, "}}\n")?;
    }
    Ok(())
}

pub fn ris(out: &mut impl Write, refs: &[Reference]) -> io::Result<()> {
    for r in refs {
        let mut tag = |t: &str, v: &str| -> io::Result<()> {
            let v = one_line(v);
            if v.is_empty() {
                Ok(())
            } else {
                writeln!(out, "{t}  - {v}")
            }
        };
        tag("TY", "UNPB")?;
        tag("ID", r.key)?;
        tag("TI", r.title)?;
        for a in r.authors {
            tag("AU", a)?;
        }
        tag("AB", r.abstract_text)?;
        if let Some(d) = r.date.and_then(|d| d.get(..10)) {
            tag("PY", &d[..4])?;
            tag("DA", &d.replace('-', "/"))?;
        }
        if let Some(id) = r.arxiv_id() {
            tag("UR", &format!("https://arxiv.org/abs/{id}"))?;
            tag("L1", &format!("https://arxiv.org/pdf/{id}"))?;
            tag("DO", &format!("10.48550/arXiv.{id}"))?;
        }
        if let Some(p) = r.primary {
            tag("KW", p)?;
        }
        if let Some(n) = &r.note {
            tag("N1", n)?;
        }
        writeln!(out, "ER  - \n")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOSTILE: &str = "Braces } @misc{evil, title={x}} and \\input{/etc/passwd} 100% $x_1^2$ # & ~ \"quoted\"\nER  - \nTY  - JOUR";

    fn hostile(authors: &[String]) -> Reference<'_> {
        Reference {
            key: "2603.09001",
            title: HOSTILE,
            authors,
            abstract_text: "Line one.\nLine two } with {unbalanced and \\ backslash.",
            date: Some("2026-03-09"),
            primary: Some("cs.DC"),
            note: None,
        }
    }

    #[test]
    fn seeds_written_as_ris_are_read_back_as_the_same_seeds() {
        let seed = |key: &str, title: &str, abstract_text: &str| Seed {
            key: key.into(),
            title: title.into(),
            abstract_text: abstract_text.into(),
            text_hash: Vec::new(),
            weight: 1.0,
            negative: false,
            added: "2026-11-28T10:00:00Z".into(),
            origin: "test".into(),
            subjects: Vec::new(),
        };
        let from_text = crate::profile::seed_files::SeedInput::from_text("No id here", "Only words about $x^2$ and 100%.", "test");
        let seeds = vec![
            seed("2309.06180", "Efficient Memory Management for LLM Serving", "We propose PagedAttention."),
            seed(&from_text.key, &from_text.title, &from_text.abstract_text),
            seed("hep-th/9901001", "An old-style id", ""),
        ];
        let mut out = Vec::new();
        ris(&mut out, &of_seeds(&seeds)).unwrap();
        let back = crate::profile::seed_files::read(std::str::from_utf8(&out).unwrap(), "mine.ris").unwrap();
        let crate::profile::seed_files::SeedFile::Seeds(back) = back else { panic!("read as RIS") };
        let keys = |s: Vec<&str>| s.into_iter().rev().map(String::from).collect::<Vec<_>>();
        assert_eq!(back.iter().map(|s| s.key.clone()).collect::<Vec<_>>(), keys(seeds.iter().map(|s| s.key.as_str()).collect()));
    }

    #[test]
    fn hostile_bibtex_stays_one_entry_with_its_text() {
        let authors = vec!["Eve } and {Mallory".to_string(), "A. Author".to_string()];
        let mut buf = Vec::new();
        bibtex(&mut buf, &[hostile(&authors)]).unwrap();
        let text = String::from_utf8(buf).unwrap();
        let bib = biblatex::Bibliography::parse(&text).unwrap();
        assert_eq!(bib.len(), 1, "{text}");
        let seeds = crate::profile::parse_bibtex(&text, "x.bib").unwrap();
        assert_eq!(seeds.len(), 1);
        assert_eq!(seeds[0].key, "2603.09001");
        // Braces are markup to the reader (it drops them); every other character survives.
        let expect = one_line(&HOSTILE.replace(['{', '}'], ""));
        assert_eq!(seeds[0].title, expect, "{text}");
        assert_eq!(seeds[0].abstract_text, "Line one. Line two with unbalanced and \\ backslash.");
        let entry = bib.iter().next().unwrap();
        let author = biblatex::ChunksExt::format_verbatim(entry.get("author").unwrap());
        assert_eq!(author, "Eve } & {Mallory and A. Author");
    }

    #[test]
    fn hostile_ris_stays_one_record() {
        let authors = vec!["Eve\nER  - ".to_string()];
        let mut buf = Vec::new();
        ris(&mut buf, &[hostile(&authors)]).unwrap();
        let text = String::from_utf8(buf).unwrap();
        let tags: Vec<&str> = text.lines().filter(|l| !l.is_empty()).map(|l| &l[..2]).collect();
        assert_eq!(tags, ["TY", "ID", "TI", "AU", "AB", "PY", "DA", "UR", "L1", "DO", "KW", "ER"], "{text}");
        assert!(text.lines().all(|l| l.is_empty() || l.as_bytes().get(2..6) == Some(b"  - ")), "{text}");
        assert!(
            text.contains("TI  - Braces } @misc{evil, title={x}} and \\input{/etc/passwd} 100% $x_1^2$ # & ~ \"quoted\" ER - TY - JOUR\n"),
            "{text}"
        );
    }
}
