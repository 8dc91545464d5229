//! The reader's fields: the arXiv categories of the liked seeds, primary
//! and cross-lists, as one weighted profile, and how well a paper's own
//! categories fall inside it. Scholar Inbox gives its per-user model a
//! category vector beside the embedding; on the history replay the overlap
//! of categories lifts recall where meaning and words tie (docs/quality.md).

use std::collections::BTreeMap;

/// A cross-list counts this much of a primary category.
const CROSS_LIST: f32 = 0.5;

/// A paper's categories as a unit vector: the primary (listed first) at 1,
/// each cross-list at [`CROSS_LIST`].
fn categories(subjects: &[String]) -> Vec<(&str, f32)> {
    let mut out: Vec<(&str, f32)> = Vec::with_capacity(subjects.len());
    for (i, s) in subjects.iter().enumerate() {
        let s = s.trim();
        if s.is_empty() || out.iter().any(|(c, _)| *c == s) {
            continue;
        }
        out.push((s, if i == 0 { 1.0 } else { CROSS_LIST }));
    }
    let norm = out.iter().map(|(_, w)| w * w).sum::<f32>().sqrt();
    if norm > 0.0 {
        out.iter_mut().for_each(|(_, w)| *w /= norm);
    }
    out
}

/// The liked seeds' categories, each seed's unit vector weighted and
/// summed. Where no liked seed names one, every paper scores 0 and the
/// signal is silent.
#[derive(Debug, Clone, Default)]
pub struct FieldProfile {
    sum: BTreeMap<String, f32>,
}

impl FieldProfile {
    pub fn new<'a>(seeds: impl Iterator<Item = (&'a [String], f32)>) -> FieldProfile {
        let mut sum: BTreeMap<String, f32> = BTreeMap::new();
        for (subjects, weight) in seeds {
            for (c, w) in categories(subjects) {
                *sum.entry(c.to_string()).or_default() += weight * w;
            }
        }
        FieldProfile { sum }
    }

    /// The cosine of a paper's categories to the profile, without `own` (a
    /// rated paper's own categories and weight: a rating moves the papers
    /// around it, not itself).
    pub fn cosine(&self, subjects: &[String], own: Option<(&[String], f32)>) -> f32 {
        let own: Vec<(&str, f32)> = own.map(|(s, w)| categories(s).into_iter().map(|(c, x)| (c, w * x)).collect()).unwrap_or_default();
        let at = |c: &str| {
            let mine = own.iter().find(|(o, _)| *o == c).map_or(0.0, |(_, x)| *x);
            self.sum.get(c).copied().unwrap_or(0.0) - mine
        };
        let num: f32 = categories(subjects).iter().map(|(c, w)| w * at(c)).sum();
        let norm2: f32 = self.sum.keys().map(|c| at(c).powi(2)).sum();
        if norm2 <= 1e-12 {
            0.0
        } else {
            num / norm2.sqrt()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn a_paper_in_the_readers_primary_field_scores_highest() {
        let seeds = [s(&["cs.LG", "cs.AI"]), s(&["cs.LG"]), s(&["cs.DC", "cs.LG"])];
        let p = FieldProfile::new(seeds.iter().map(|x| (x.as_slice(), 1.0)));
        let lg = p.cosine(&s(&["cs.LG"]), None);
        let cross = p.cosine(&s(&["cs.CV", "cs.LG"]), None);
        let other = p.cosine(&s(&["math.AG"]), None);
        assert!(lg > cross && cross > other, "{lg} {cross} {other}");
        assert_eq!(other, 0.0);
    }

    #[test]
    fn a_rated_paper_is_scored_without_its_own_fields() {
        let seeds = [s(&["cs.LG"]), s(&["q-bio.NC"])];
        let p = FieldProfile::new(seeds.iter().map(|x| (x.as_slice(), 1.0)));
        let with = p.cosine(&seeds[1], None);
        let without = p.cosine(&seeds[1], Some((&seeds[1], 1.0)));
        assert!(with > 0.5);
        assert!(without.abs() < 1e-6, "{without}");
    }

    #[test]
    fn no_categories_say_nothing() {
        // Free text, or a BibTeX entry without an arXiv id: the signal is silent.
        let p = FieldProfile::new(std::iter::once((&[][..], 1.0)));
        assert_eq!(p.cosine(&s(&["cs.LG"]), None), 0.0);
    }
}
