//! An arXiv id read wherever exports put one: eprint, URL, DOI, Google
//! Scholar's journal line, a note.

use crate::paper::ArxivId;

/// arXiv id from the fields exports use for it: `eprint`/`arxiv`/`arxivid`,
/// an arxiv.org URL, or a `10.48550/arXiv.` DOI.
pub(super) fn arxiv_id_from_fields(get: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    for field in ["eprint", "arxiv", "arxivid", "arxiv_id", "number"] {
        if let Some(id) = get(field).and_then(|v| ArxivId::parse(v.trim())) {
            return Some(id.id);
        }
    }
    for field in ["url", "URL"] {
        if let Some(id) = get(field).and_then(|v| ArxivId::parse(v.trim())) {
            return Some(id.id);
        }
    }
    for field in ["doi", "DOI"] {
        if let Some(v) = get(field) {
            let lower = v.to_ascii_lowercase();
            if let Some(pos) = lower.find("arxiv.") {
                if let Some(id) = v.get(pos + 6..).and_then(ArxivId::parse) {
                    return Some(id.id);
                }
            }
        }
    }
    // Google Scholar writes `journal = {arXiv preprint arXiv:2401.09670}`;
    // others put "arXiv:ID" or an abs link in a note or the container.
    for field in ["journal", "journaltitle", "container-title", "note", "howpublished", "publisher", "booktitle", "number"] {
        if let Some(id) = get(field).as_deref().and_then(arxiv_id_in_text) {
            return Some(id);
        }
    }
    None
}

/// The first arXiv id a free text names as one: after "arXiv:" or in an
/// arxiv.org abs or pdf link ("arXiv preprint arXiv:2401.09670").
fn arxiv_id_in_text(text: &str) -> Option<String> {
    // ASCII lower-casing keeps every byte where it was.
    let lower = text.to_ascii_lowercase();
    ["arxiv:", "arxiv.org/abs/", "arxiv.org/pdf/"].iter().find_map(|marker| {
        lower.match_indices(marker).find_map(|(at, m)| {
            let rest = text.get(at + m.len()..)?.trim_start();
            let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '-'))).unwrap_or(rest.len());
            ArxivId::parse(rest[..end].trim_end_matches('.')).map(|id| id.id)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn id_of(fields: &[(&str, &str)]) -> Option<String> {
        let map: HashMap<&str, &str> = fields.iter().copied().collect();
        arxiv_id_from_fields(&|k: &str| map.get(k).map(|v| v.to_string()))
    }

    #[test]
    fn an_arxiv_id_is_read_where_exports_put_it() {
        // Google Scholar's journal line, an old-style id in a note, a link,
        // CSL-JSON's container-title, and a journal paper that only
        // mentions arXiv.
        assert_eq!(id_of(&[("journal", "arXiv preprint arXiv:2401.07851")]).as_deref(), Some("2401.07851"));
        assert_eq!(id_of(&[("note", "arXiv:hep-th/9901001v2. Submitted.")]).as_deref(), Some("hep-th/9901001"));
        assert_eq!(id_of(&[("howpublished", "\\url{https://arxiv.org/abs/2507.07114v1}")]).as_deref(), Some("2507.07114"));
        assert_eq!(id_of(&[("container-title", "arXiv preprint arXiv:2401.07851")]).as_deref(), Some("2401.07851"));
        assert_eq!(id_of(&[("journal", "Journal of Examples"), ("note", "see arXiv: the preprint has another title")]), None);
    }
}
