//! Which of two accounts of one paper the library keeps: what it holds,
//! or what a listing now says. Apart from the SQL that reads and writes
//! them, so that the policy can be read and tested alone.

use crate::paper::{Kind, Paper};

/// What the library holds of a paper, as the merge compares it.
pub(super) struct Held {
    pub version: Option<i64>,
    pub title: String,
    pub abstract_text: String,
    pub text_hash: Vec<u8>,
    /// JSON, as stored.
    pub authors: String,
    /// JSON, as stored.
    pub subjects: String,
    pub comments: Option<String>,
    pub journal_ref: Option<String>,
    /// The latest day it was listed, if any.
    pub last_listed: Option<String>,
}

/// What a listing says of it, in the stored forms.
pub(super) struct Incoming<'a> {
    pub paper: &'a Paper,
    pub version: Option<i64>,
    pub text_hash: &'a [u8],
    /// JSON, as it would be stored.
    pub authors: &'a str,
    /// JSON, as it would be stored.
    pub subjects: &'a str,
}

/// The merge's verdict: every one but `Newer` keeps what is held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Verdict {
    /// An earlier listing or an older version: what a later one said is
    /// never overwritten, whatever the input order.
    Older,
    /// A listing without abstracts (a pastweek page) of a paper whose
    /// abstract is known.
    LosesAbstract,
    /// A listing cut off mid-entry (a page saved or copied before it
    /// finished): the same version with the held abstract shortened.
    CutShort,
    /// Nothing the library keeps differs.
    Same,
    /// What the listing says replaces what is held.
    Newer,
}

pub(super) fn verdict(held: &Held, new: &Incoming) -> Verdict {
    let p = new.paper;
    // A snapshot's date is its first version's, older than any listing of
    // a later version: only its version number counts.
    let older_version = matches!((held.version, new.version), (Some(o), Some(n)) if n < o);
    let older_listing = p.kind != Kind::Snapshot && matches!((&p.listing_date, &held.last_listed), (Some(d), Some(l)) if d < l);
    let same_version = new.version.is_none() || held.version == new.version;
    if older_version || older_listing {
        Verdict::Older
    } else if p.abstract_text.is_empty() && !held.abstract_text.is_empty() {
        Verdict::LosesAbstract
    } else if same_version && p.abstract_text.len() < held.abstract_text.len() && held.abstract_text.starts_with(p.abstract_text.trim_end())
    {
        Verdict::CutShort
    } else if held.title == p.title
        && held.abstract_text == p.abstract_text
        && held.text_hash == new.text_hash
        && held.authors == new.authors
        && held.subjects == new.subjects
        && held.comments == p.comments
        && held.journal_ref == p.journal_ref
        && same_version
    {
        Verdict::Same
    } else {
        Verdict::Newer
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paper(version: Option<u32>, date: &str, abs: &str) -> Paper {
        Paper {
            id: "2501.00001".into(),
            version,
            title: "A title".into(),
            abstract_text: abs.into(),
            listing_date: Some(date.into()),
            ..crate::paper::UNKNOWN.clone()
        }
    }

    fn held(version: Option<i64>, last: &str, abs: &str) -> Held {
        Held {
            version,
            title: "A title".into(),
            abstract_text: abs.into(),
            text_hash: b"h".to_vec(),
            authors: "[]".into(),
            subjects: "[]".into(),
            comments: None,
            journal_ref: None,
            last_listed: Some(last.into()),
        }
    }

    fn verdict_of(h: &Held, p: &Paper, hash: &[u8]) -> Verdict {
        let incoming = Incoming { paper: p, version: p.version.map(i64::from), text_hash: hash, authors: "[]", subjects: "[]" };
        verdict(h, &incoming)
    }

    #[test]
    fn what_is_held_gives_way_only_to_a_newer_fuller_account() {
        let h = held(Some(2), "2026-03-02", "The whole abstract.");
        // The same account again.
        assert_eq!(verdict_of(&h, &paper(Some(2), "2026-03-02", "The whole abstract."), b"h"), Verdict::Same);
        // An older version, whatever its day; an earlier day, whatever its version.
        assert_eq!(verdict_of(&h, &paper(Some(1), "2026-03-09", "Changed."), b"x"), Verdict::Older);
        assert_eq!(verdict_of(&h, &paper(Some(3), "2026-03-01", "Changed."), b"x"), Verdict::Older);
        // A snapshot's date is its first version's: only the version counts.
        let mut snapshot = paper(Some(3), "2025-01-01", "Changed.");
        snapshot.kind = Kind::Snapshot;
        assert_eq!(verdict_of(&h, &snapshot, b"x"), Verdict::Newer);
        // No abstract (a pastweek page), and an abstract cut short.
        assert_eq!(verdict_of(&h, &paper(Some(2), "2026-03-02", ""), b"x"), Verdict::LosesAbstract);
        assert_eq!(verdict_of(&h, &paper(Some(2), "2026-03-02", "The whole"), b"x"), Verdict::CutShort);
        assert_eq!(verdict_of(&h, &paper(None, "2026-03-02", "The whole "), b"x"), Verdict::CutShort);
        // A shorter abstract of a new version is the new version's.
        assert_eq!(verdict_of(&h, &paper(Some(3), "2026-03-02", "The whole"), b"x"), Verdict::Newer);
        // A later day's changed text replaces what is held.
        assert_eq!(verdict_of(&h, &paper(Some(2), "2026-03-03", "A revised abstract."), b"y"), Verdict::Newer);
        // A new comment alone is news.
        let mut commented = paper(Some(2), "2026-03-02", "The whole abstract.");
        commented.comments = Some("12 pages".into());
        assert_eq!(verdict_of(&h, &commented, b"h"), Verdict::Newer);
    }
}
