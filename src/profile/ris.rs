//! RIS (EndNote, Zotero, Mendeley, Papers, Google Scholar): tagged lines,
//! `TY  - JOUR` to `ER  -`, a tag's value continued on untagged lines.
//! Compiled by the fuzz crate with seed_files.rs.

use super::arxiv_ids::arxiv_id_from_fields;
use anyhow::{bail, Result};

/// One record of a RIS file, as a seed needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub title: String,
    pub abstract_text: String,
    pub arxiv_id: Option<String>,
    /// The line its TY tag is on.
    pub line: usize,
}

/// Whether `text` is RIS: its first meaningful line opens a record.
pub fn looks_like_ris(text: &str) -> bool {
    text.lines().map(str::trim).find(|l| !l.is_empty()).is_some_and(|l| tag_of(l).is_some_and(|(t, _)| t == "TY"))
}

/// `XX  - value` (two upper-case letters or digits, two spaces, a dash):
/// the tag and the value.
fn tag_of(line: &str) -> Option<(&str, &str)> {
    let tag = line.get(..2)?;
    let rest = line.get(2..)?;
    if !tag.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit()) {
        return None;
    }
    let value = rest.trim_start_matches(' ').strip_prefix('-')?;
    Some((tag, value.trim()))
}

/// Each record with a title as a seed: title (TI, T1, CT), abstract (AB,
/// N2), and an arXiv id from wherever exporters put it: a URL (UR, L1, L2),
/// a DOI 10.48550/arXiv.ID (DO), "arXiv:ID" in a note (N1) or the journal
/// line (JO, JF, T2), as Google Scholar writes it.
pub fn parse_ris(text: &str, source: &str) -> Result<Vec<Record>> {
    let mut out = Vec::new();
    let mut record: Vec<(String, String)> = Vec::new();
    let mut start = 0;
    let mut open = false;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end();
        match tag_of(line) {
            Some(("TY", _)) => {
                if open {
                    bail!("{source}:{}: a record begins (TY) before the one of line {} ends (ER)", i + 1, start);
                }
                (open, start) = (true, i + 1);
                record.clear();
            }
            Some(("ER", _)) => {
                if !open {
                    bail!("{source}:{}: ER ends no record (no TY before it)", i + 1);
                }
                open = false;
                if let Some(r) = record_of(&record, start) {
                    out.push(r);
                }
            }
            Some((tag, value)) if open => record.push((tag.to_string(), value.to_string())),
            Some(_) => bail!("{source}:{}: a tag outside a record (records begin with TY  - )", i + 1),
            // A value continued on the next line.
            None if open && !line.trim().is_empty() => match record.last_mut() {
                Some((_, v)) => {
                    v.push(' ');
                    v.push_str(line.trim());
                }
                None => bail!("{source}:{}: text before the record's first tag", i + 1),
            },
            None => {}
        }
    }
    if open {
        bail!("{source}:{start}: the record that begins here has no ER");
    }
    Ok(out)
}

fn record_of(record: &[(String, String)], line: usize) -> Option<Record> {
    let first = |tags: &[&str]| {
        tags.iter().find_map(|t| record.iter().find(|(k, v)| k == t && !v.is_empty()).map(|(_, v)| crate::listing::text::inline(v)))
    };
    let title = first(&["TI", "T1", "CT"])?;
    let abstract_text = first(&["AB", "N2"]).unwrap_or_default();
    // Every value of a tag is read: a record may carry several URLs or notes.
    let all = |tags: &[&str]| {
        let v: Vec<&str> = record.iter().filter(|(k, _)| tags.contains(&k.as_str())).map(|(_, v)| v.as_str()).collect();
        (!v.is_empty()).then(|| v.join(" "))
    };
    let get = |field: &str| match field {
        "url" => record.iter().find(|(k, v)| matches!(k.as_str(), "UR" | "L1" | "L2") && v.contains("arxiv.org")).map(|(_, v)| v.clone()),
        "doi" => first(&["DO"]),
        "note" => all(&["N1", "M1", "M3"]),
        "journal" => all(&["JO", "JF", "T2", "J2"]),
        _ => None,
    };
    Some(Record { arxiv_id: arxiv_id_from_fields(&get), title, abstract_text, line })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_become_seeds_with_their_arxiv_ids_wherever_exporters_put_them() {
        // As Zotero, Google Scholar and Mendeley write them (CRLF from one).
        let text = "TY  - JOUR\r\nTI  - Attention Is All You Need\r\nAU  - Vaswani, Ashish\r\nAB  - The dominant sequence\r\n  transduction models.\r\nUR  - http://arxiv.org/abs/1706.03762\r\nER  - \r\n\r\n\
                    TY  - JOUR\nT1  - Efficient Memory Management for LLM Serving\nJO  - arXiv preprint arXiv:2309.06180\nER  -\n\
                    TY  - GEN\nTI  - A paper by DOI\nDO  - 10.48550/arXiv.2401.09670\nER  - \n\
                    TY  - CONF\nTI  - Only a title\nPY  - 2020\nER  - \n";
        let records = parse_ris(text, "my.ris").unwrap();
        let ids: Vec<Option<&str>> = records.iter().map(|r| r.arxiv_id.as_deref()).collect();
        assert_eq!(ids, [Some("1706.03762"), Some("2309.06180"), Some("2401.09670"), None]);
        assert_eq!(records[0].abstract_text, "The dominant sequence transduction models.");
        assert_eq!((records[3].title.as_str(), records[3].line), ("Only a title", 17));
        assert!(looks_like_ris(text) && !looks_like_ris("@article{a, title={T}}") && !looks_like_ris("2401.00001\n"));
    }

    #[test]
    fn a_broken_file_is_refused_naming_the_line() {
        let err = |t: &str| parse_ris(t, "x.ris").unwrap_err().to_string();
        assert_eq!(err("TY  - JOUR\nTI  - A\n"), "x.ris:1: the record that begins here has no ER");
        assert_eq!(err("TY  - JOUR\nTY  - JOUR\nER  - \n"), "x.ris:2: a record begins (TY) before the one of line 1 ends (ER)");
        assert_eq!(err("ER  - \n"), "x.ris:1: ER ends no record (no TY before it)");
        // A record without a title is left out, not an error.
        assert!(parse_ris("TY  - JOUR\nAB  - only words\nER  - \n", "x.ris").unwrap().is_empty());
    }
}
