//! The reader's fields: the arXiv categories of the liked seeds, primary
//! and cross-lists, as one weighted profile, and how well a paper's own
//! categories fall inside it. Scholar Inbox gives its per-user model a
//! category vector beside the embedding; on the history replay the overlap
//! of categories lifts recall where meaning and words tie (docs/quality.md).

use super::signal::{Details, Naming, Part, Seeds, Signal, SignalId};
use super::Candidate;
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
        let own = own_part(own);
        let num: f32 = categories(subjects).iter().map(|(c, w)| w * self.without(c, &own)).sum();
        let norm2: f32 = self.sum.keys().map(|c| self.without(c, &own).powi(2)).sum();
        if norm2 <= 1e-12 {
            0.0
        } else {
            num / norm2.sqrt()
        }
    }

    /// Category `c`'s weight in the profile less `own`'s part.
    fn without(&self, c: &str, own: &[(&str, f32)]) -> f32 {
        let mine = own.iter().find(|(o, _)| *o == c).map_or(0.0, |(_, x)| *x);
        self.sum.get(c).copied().unwrap_or(0.0) - mine
    }
}

/// A seed's categories, each times its weight.
fn own_part(own: Option<(&[String], f32)>) -> Vec<(&str, f32)> {
    own.map(|(s, w)| categories(s).into_iter().map(|(c, x)| (c, w * x)).collect()).unwrap_or_default()
}

pub const FIELDS: Part = Part {
    name: "fields",
    label: "categories",
    legend: "how many of its arXiv categories your seeds are in",
    cold: 0.2,
    per_ln_seeds: 0.0,
    naming: Naming::Carrying(FIELDS_NAMED),
};

/// The share of a pick's lift its categories must give before a reason
/// names them.
const FIELDS_NAMED: f32 = 0.3;

pub fn make(seeds: &Seeds) -> Box<dyn Signal> {
    Box::new(Fields::new(seeds))
}

/// The categories' cosine to the liked seeds' as a signal; its
/// explanation names the paper's categories the seeds are in.
pub struct Fields {
    profile: FieldProfile,
}

impl Fields {
    pub fn new(seeds: &Seeds) -> Fields {
        Fields { profile: FieldProfile::new(seeds.liked.iter().map(|&i| (seeds.all[i].subjects.as_slice(), seeds.all[i].weight))) }
    }

    fn own<'a>(seeds: &'a Seeds, c: &Candidate<'_>) -> Option<(&'a [String], f32)> {
        seeds.own_liked(c).map(|s| (seeds.all[s].subjects.as_slice(), seeds.all[s].weight))
    }
}

impl Signal for Fields {
    fn id(&self) -> SignalId {
        SignalId(&FIELDS)
    }

    fn score(&self, seeds: &Seeds, day: &[Candidate<'_>]) -> Vec<f32> {
        day.iter().map(|c| self.profile.cosine(&c.paper.subjects, Self::own(seeds, c))).collect()
    }

    fn explain(&self, seeds: &Seeds, c: &Candidate<'_>) -> Details {
        let own = own_part(Self::own(seeds, c));
        let mut shared: Vec<(&str, f32)> =
            categories(&c.paper.subjects).into_iter().map(|(s, _)| (s, self.profile.without(s, &own))).filter(|(_, w)| *w > 1e-6).collect();
        shared.sort_by(|a, b| b.1.total_cmp(&a.1));
        Details::Fields(shared.into_iter().map(|(s, _)| s.to_string()).collect())
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
    fn a_paper_is_explained_by_the_categories_it_shares_most_first_never_by_its_own() {
        use crate::rank::{Candidate, SeedVector, Terms};
        let seed = |subjects: &[&str], rated: bool| SeedVector {
            label: String::new(),
            vector: vec![1.0],
            terms: Terms::default(),
            subjects: s(subjects),
            weight: 1.0,
            negative: false,
            rated,
            added: String::new(),
        };
        let seeds = Seeds::new(vec![seed(&["cs.LG"], false), seed(&["cs.CL", "cs.LG"], false), seed(&["q-bio.NC"], true)]);
        let f = Fields::new(&seeds);
        let none = Terms::default();
        let paper = |subjects: &[&str]| crate::paper::Paper { subjects: s(subjects), ..crate::paper::UNKNOWN.clone() };
        let listed = paper(&["cs.CL", "cs.LG", "math.OC"]);
        let c = Candidate { paper: &listed, vector: &[1.0], terms: &none, own_seed: None };
        assert_eq!(f.explain(&seeds, &c), Details::Fields(s(&["cs.LG", "cs.CL"])));
        // The rated paper in q-bio.NC is the only one there: no reason for itself.
        let own = paper(&["q-bio.NC"]);
        let rated = Candidate { paper: &own, vector: &[1.0], terms: &none, own_seed: Some(2) };
        assert_eq!(f.explain(&seeds, &rated), Details::Fields(Vec::new()));
        assert!(f.score(&seeds, &[rated])[0].abs() < 1e-6);
    }

    #[test]
    fn no_categories_say_nothing() {
        // Free text, or a BibTeX entry without an arXiv id: the signal is silent.
        let p = FieldProfile::new(std::iter::once((&[][..], 1.0)));
        assert_eq!(p.cosine(&s(&["cs.LG"]), None), 0.0);
    }
}
