//! Scoring candidate papers against a profile of seeds, and the reason for
//! each score. Pure arithmetic on vectors and words: the profile stage
//! supplies the seeds, the report stage prints the result.
//!
//! Each signal is a part of its own ([`signal::Signal`]: one file, scoring
//! a day and explaining one paper): closeness to the nearest seeds
//! (`nearest`), to their centroid (`centroid`), in words (`words`), in
//! categories (`fields`), and the reader's model (`learned`). A method is
//! one of them or the hybrid's mix of several (`hybrid`), which puts each
//! on the day's own scale (z-scores over the candidates) so that none
//! drowns the others whatever its spread that day. A day is scored as a
//! whole ([`Ranker::score_all`]); only the papers shown are explained
//! ([`Ranker::explain`]).

pub mod calibration;
mod centroid;
mod fields;
mod hybrid;
mod learned;
pub mod logistic;
mod method;
mod nearest;
mod registry;
pub mod signal;
mod vocabulary;
mod words;

use crate::paper::Paper;
pub use calibration::{Bar, Strength};
use calibration::{Calibration, Known};
use centroid::Direction;
pub use hybrid::cold;
use learned::Learned;
pub use method::{Method, DEFAULT_METHOD};
use nearest::Nearest;
pub use registry::HYBRID;
use serde::Serialize;
pub use signal::{Details, Explanation, Naming, Part, Registered, SeedMatch, Seeds, Signal, SignalId, Signals};
pub use vocabulary::{Terms, Vocabulary, WordCache};

/// One seed as the ranker sees it.
#[derive(Debug, Clone)]
pub struct SeedVector {
    /// What the reason shows: an arXiv id or a short title.
    pub label: String,
    pub vector: Vec<f32>,
    /// Its title and abstract as words.
    pub terms: Terms,
    /// Its arXiv categories, primary first (none for free text).
    pub subjects: Vec<String>,
    /// User weight (1 by default).
    pub weight: f32,
    pub negative: bool,
    /// A 👍 or 👎 on a listed paper rather than a seed the user gave.
    pub rated: bool,
    /// When the seed was added (ISO date or timestamp); newest first matters
    /// for the decayed mean.
    pub added: String,
}

/// A paper to score: the paper itself (categories, listing date: what a
/// signal may read of it), its vector, its words, and the seed it is when
/// the user rated it (scored on the other seeds, so a rating moves the
/// papers around it rather than pinning the rated one).
#[derive(Debug, Clone, Copy)]
pub struct Candidate<'a> {
    pub paper: &'a Paper,
    pub vector: &'a [f32],
    pub terms: &'a Terms,
    pub own_seed: Option<usize>,
}

impl<'a> Candidate<'a> {
    /// A paper known by its vector and words alone.
    pub fn of_text(vector: &'a [f32], terms: &'a Terms) -> Candidate<'a> {
        Candidate { paper: &crate::paper::UNKNOWN, vector, terms, own_seed: None }
    }
}

impl Seeds {
    /// Seeds `which` as papers to score, each on the other seeds: what
    /// their [`Candidate::paper`]s hold (their categories).
    pub fn as_papers(&self, which: &[usize]) -> Vec<Paper> {
        which.iter().map(|&i| Paper { subjects: self.all[i].subjects.clone(), ..crate::paper::UNKNOWN.clone() }).collect()
    }

    /// Seed `i` scored as a paper, `paper` from [`Seeds::as_papers`].
    pub fn candidate<'a>(&'a self, i: usize, paper: &'a Paper) -> Candidate<'a> {
        Candidate { paper, vector: &self.all[i].vector, terms: &self.all[i].terms, own_seed: Some(i) }
    }
}

/// A candidate's score and what it is made of.
#[derive(Debug, Clone, Serialize)]
pub struct Scored {
    /// The calibrated score, 0 to 1: how much more the paper looks like
    /// one of the reader's own seeds than like their library at large
    /// (½: as much; [`calibration`]). The same paper scores the same
    /// whatever else was listed with it.
    pub score: f32,
    /// What the score says in words.
    pub strength: Strength,
    /// Where it stands among the set scored with it: what a day is sorted
    /// by. The hybrid reads each signal on the day's own scale, which
    /// CSFCube and the replay measured to order a day best (docs/quality.md,
    /// "A score with one meaning"); the score says how sure that order is.
    pub order: f32,
    /// Hybrid: each signal's share of the paper's lift over the day's
    /// average, the reader's model (`learned`) among them
    /// once there are ratings (0 to 1 each; empty for a method of one
    /// signal).
    pub shares: Vec<(SignalId, f32)>,
}

impl Scored {
    /// The share of the lift signal `id` gave, if it was mixed in.
    pub fn share(&self, id: SignalId) -> Option<f32> {
        self.shares.iter().find(|s| s.0 == id).map(|s| s.1)
    }
}

/// The newest ratings a calibration reads: enough to
/// place two numbers, and a reader with a thousand ratings is calibrated
/// in milliseconds.
const CALIBRATION_SEEDS: usize = 200;

/// How a method turns the signals into one score.
enum Scoring {
    /// One signal alone.
    One(SignalId),
    /// The hybrid's mix, and the reader's model once there are ratings.
    Hybrid(Option<Learned>),
}

/// A profile ready to score candidates with one method.
pub struct Ranker {
    method: Method,
    seeds: Seeds,
    /// The hybrid's signals as registered, built for this profile: what
    /// the hybrid mixes, and what every method's picks are explained by.
    mixed: Vec<Box<dyn Signal>>,
    /// A method's own signal, when it is none of those (`knn`,
    /// `decayed-mean`, `logistic`).
    own: Option<Box<dyn Signal>>,
    scoring: Scoring,
    /// What a raw score means for this profile, once read from a
    /// background ([`Ranker::calibrate`]); without one, each set scored
    /// together is its own background.
    calibration: Option<Calibration>,
}

/// What a set's raw scores are made of.
enum Parts {
    /// A method of one signal: its values.
    One(Vec<f32>),
    /// The hybrid: its signals, and the reader's model's margins once it has one.
    Mixed(Signals, Option<Vec<f32>>),
}

/// A set's raw scores (the method's own units, higher is closer) and the
/// hybrid's shares of them.
struct Raw {
    score: Vec<f32>,
    shares: Vec<Vec<(SignalId, f32)>>,
}

impl Ranker {
    /// `background` holds random library vectors: the logistic models use
    /// them as implicit negatives (as Scholar Inbox does).
    pub fn new(method: Method, seeds: Vec<SeedVector>, background: &[Vec<f32>]) -> Ranker {
        Ranker::with_signals(HYBRID, method, seeds, background)
    }

    /// A ranker whose hybrid mixes `registry`'s signals ([`HYBRID`] but in
    /// tests).
    pub fn with_signals(registry: &[Registered], method: Method, seeds: Vec<SeedVector>, background: &[Vec<f32>]) -> Ranker {
        let seeds = Seeds::new(seeds);
        let mixed: Vec<Box<dyn Signal>> = registry.iter().map(|r| (r.make)(&seeds)).collect();
        let registered = |part: &'static Part| mixed.iter().any(|s| s.id() == SignalId(part));
        let alone = |s: Box<dyn Signal>| {
            let id = s.id();
            (Some(s), Scoring::One(id))
        };
        let (own, scoring): (Option<Box<dyn Signal>>, Scoring) = match method {
            Method::Hybrid => (None, Scoring::Hybrid(Learned::new(&seeds, background))),
            Method::Centroid if registered(&centroid::CENTROID) => (None, Scoring::One(SignalId(&centroid::CENTROID))),
            Method::Lexical if registered(&words::WORDS) => (None, Scoring::One(SignalId(&words::WORDS))),
            Method::Centroid => alone(centroid::make(&seeds)),
            Method::Lexical => alone(words::make(&seeds)),
            Method::Knn => alone(Box::new(Nearest::knn())),
            Method::DecayedMean => alone(Box::new(Direction::decayed_mean(&seeds))),
            Method::Logistic => alone(Box::new(Direction::logistic(logistic::liked_against(&seeds, background, 1e-3, None)))),
        };
        Ranker { method, seeds, mixed, own, scoring, calibration: None }
    }

    /// The hybrid's signals as scored.
    pub fn parts(&self) -> Vec<&'static Part> {
        self.mixed.iter().map(|s| s.id().0).collect()
    }

    /// The signals its scores are made of, as the page's legend lists
    /// them: the hybrid's and the reader's model, or a method's one.
    pub fn legend(&self) -> Vec<&'static Part> {
        match &self.scoring {
            Scoring::Hybrid(_) => self.parts().into_iter().chain([&learned::LEARNED]).collect(),
            Scoring::One(id) => vec![id.0],
        }
    }

    /// Signal `id` as built for this profile.
    fn signal(&self, id: SignalId) -> Option<&dyn Signal> {
        self.mixed.iter().chain(&self.own).find(|s| s.id() == id).map(|s| s.as_ref())
    }

    /// Reads what this profile's scores mean from `background`, papers of
    /// the library outside the day (at least [`calibration::MIN_BACKGROUND`];
    /// fewer leave each scored set its own background): each signal's
    /// scale over them, and the odds of being one of the reader's own
    /// against them ([`Calibration::fit`]).
    pub fn calibrate(&mut self, background: &[Candidate<'_>]) {
        self.calibration = (background.len() >= calibration::MIN_BACKGROUND).then(|| self.calibration_on(background));
    }

    fn calibration_on(&self, background: &[Candidate<'_>]) -> Calibration {
        let scales = match &self.scoring {
            Scoring::Hybrid(learned) => {
                let margins = learned.as_ref().map(|l| l.score(&self.seeds, background));
                hybrid::scales_of(&self.signals(background), margins.as_deref())
            }
            Scoring::One(_) => Vec::new(),
        };
        let raw_background = self.raw(&self.scored_parts(background), &scales).score;
        // The ratings, each scored on the other seeds as a day's paper
        // would be: the newest, a bounded number. A seed the reader gave is
        // no measure: left out, a seed of a topic of its own has nothing
        // left to be close to (a broad profile's seeds score as the
        // library does).
        let all = &self.seeds.all;
        let mut newest: Vec<usize> = (0..all.len()).filter(|&i| all[i].weight > 0.0 && (all[i].rated || all[i].negative)).collect();
        newest.sort_by(|&a, &b| all[b].added.cmp(&all[a].added).then(a.cmp(&b)));
        newest.truncate(CALIBRATION_SEEDS);
        let papers = self.seeds.as_papers(&newest);
        let as_papers: Vec<Candidate<'_>> = newest.iter().zip(&papers).map(|(&i, p)| self.seeds.candidate(i, p)).collect();
        let raw_seeds = self.raw(&self.scored_parts(&as_papers), &scales).score;
        let known: Vec<Known> = newest.iter().zip(raw_seeds).map(|(&i, raw)| Known { raw, own: !all[i].negative }).collect();
        Calibration::fit(scales, &raw_background, &known)
    }

    pub fn method(&self) -> Method {
        self.method
    }

    pub fn seeds(&self) -> &Seeds {
        &self.seeds
    }

    /// How many liked seeds (given and 👍) weigh anything: what the cold
    /// mix depends on.
    pub fn liked(&self) -> usize {
        self.seeds.liked.iter().filter(|&&i| self.seeds.all[i].weight > 0.0).count()
    }

    /// The signals the hybrid mixes, raw, for a day (`eval history --signals`).
    pub fn signals(&self, day: &[Candidate<'_>]) -> Signals {
        Signals {
            names: self.mixed.iter().map(|s| s.id()).collect(),
            values: self.mixed.iter().map(|s| s.score(&self.seeds, day)).collect(),
        }
    }

    /// Scores every candidate of a day (or any set ranked together).
    pub fn score_all(&self, day: &[Candidate<'_>]) -> Vec<Scored> {
        let parts = self.scored_parts(day);
        // The order: the signals on the day's own scale.
        let in_day = self.raw(&parts, &[]);
        let own;
        let calibration = match &self.calibration {
            Some(c) => c,
            None => {
                own = self.calibration_on(day);
                &own
            }
        };
        let calibrated = if calibration.scales.is_empty() { in_day.score.clone() } else { self.raw(&parts, &calibration.scales).score };
        in_day
            .score
            .into_iter()
            .zip(calibrated)
            .zip(in_day.shares)
            .map(|((order, raw), shares)| {
                let score = calibration.score(raw);
                Scored { score, strength: Strength::of(score), order, shares }
            })
            .collect()
    }

    /// What a set's raw scores are made of: the method's signal, or the
    /// hybrid's signals and the reader's model's margins.
    fn scored_parts(&self, day: &[Candidate<'_>]) -> Parts {
        match &self.scoring {
            Scoring::One(id) => Parts::One(self.signal(*id).map_or_else(|| vec![0.0; day.len()], |s| s.score(&self.seeds, day))),
            Scoring::Hybrid(learned) => Parts::Mixed(self.signals(day), learned.as_ref().map(|l| l.score(&self.seeds, day))),
        }
    }

    /// Raw scores, the hybrid's signals each read on its scale in `scales`
    /// (empty: the set's own).
    fn raw(&self, parts: &Parts, scales: &[calibration::Scale]) -> Raw {
        let learned = match &self.scoring {
            Scoring::Hybrid(l) => l.as_ref(),
            _ => None,
        };
        match parts {
            Parts::One(score) => Raw { shares: vec![Vec::new(); score.len()], score: score.clone() },
            Parts::Mixed(signals, margins) => {
                let own_scales;
                let scales = if scales.is_empty() {
                    own_scales = hybrid::scales_of(signals, margins.as_deref());
                    &own_scales
                } else {
                    scales
                };
                let w = if learned.is_some() { hybrid::mix(self, scales) } else { hybrid::cold_for(self) };
                let fused = hybrid::fuse(signals, &w, margins.clone().zip(learned.map(|l| l.count)), scales);
                let mut names = signals.names.clone();
                if let Some(l) = learned {
                    names.push(l.id());
                }
                Raw { score: fused.score, shares: fused.shares.into_iter().map(|s| names.iter().copied().zip(s).collect()).collect() }
            }
        }
    }

    /// One candidate's raw score, with no day or background to read it
    /// on (the hybrid's raw signals under the cold weights): only a
    /// comparison with another scored the same way means anything.
    pub fn score_one(&self, c: &Candidate<'_>) -> f32 {
        let day = std::slice::from_ref(c);
        match self.scoring {
            Scoring::Hybrid(_) => hybrid::raw(&self.signals(day), &hybrid::cold_for(self), 0),
            _ => self.raw(&self.scored_parts(day), &[]).score[0],
        }
    }

    /// Why `c` scored as it did: each signal's own explanation, the
    /// hybrid's in their registered order, then the method's own and the
    /// reader's model; with their shares of the lift when `scored` is
    /// what [`Ranker::score_all`] gave `c`.
    pub fn explain(&self, c: &Candidate<'_>, scored: Option<&Scored>) -> Vec<Explanation> {
        let learned = match &self.scoring {
            Scoring::Hybrid(Some(l)) => Some(l as &dyn Signal),
            _ => None,
        };
        let one = std::slice::from_ref(c);
        self.mixed
            .iter()
            .map(|s| s.as_ref())
            .chain(self.own.as_deref())
            .chain(learned)
            .map(|s| Explanation {
                signal: s.id(),
                value: s.score(&self.seeds, one).first().copied().unwrap_or(0.0),
                share: scored.and_then(|x| x.share(s.id())),
                details: s.explain(&self.seeds, c),
            })
            .collect()
    }

    /// How sure the profile is about each candidate: the distance of a
    /// model's probability from ½ (smallest = least sure). The hybrid's own
    /// model once there are ratings; before, and for the other methods, a
    /// logistic regression of the liked seeds against disliked seeds and
    /// library background.
    pub fn uncertainty(&self, background: &[Vec<f32>], candidates: &[Candidate<'_>]) -> Vec<f32> {
        if let Scoring::Hybrid(Some(l)) = &self.scoring {
            return candidates.iter().map(|c| (l.probability(c.vector) - 0.5).abs()).collect();
        }
        let model = logistic::liked_against(&self.seeds, background, 1e-3, Some(logistic::DISLIKED_SHARE));
        candidates.iter().map(|c| (model.probability(c.vector) - 0.5).abs()).collect()
    }
}

/// Candidates nearest the profile's decision boundary: where one rating
/// teaches the most (uncertainty sampling, as Scholar Inbox starts cold).
/// The boundary is the learned model's (liked seeds against disliked ones
/// and library background) at probability ½. Returns indices into
/// `candidates`, most uncertain first.
pub fn most_uncertain(ranker: &Ranker, background: &[Vec<f32>], candidates: &[Candidate<'_>], n: usize) -> Vec<usize> {
    if n == 0 || candidates.is_empty() || ranker.seeds.liked.is_empty() {
        return Vec::new();
    }
    let margins = ranker.uncertainty(background, candidates);
    let mut by_margin: Vec<(f32, usize)> = margins.into_iter().enumerate().map(|(i, m)| (m, i)).collect();
    by_margin.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    by_margin.into_iter().take(n).map(|(_, i)| i).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank::registry::id;
    use crate::vector::dot;

    /// What the explanations found, by kind (the first of each).
    #[derive(Debug, Default)]
    struct Found {
        seeds: Vec<(usize, f32)>,
        words: Vec<String>,
        fields: Vec<String>,
    }

    fn found(r: &Ranker, c: &Candidate<'_>) -> Found {
        let mut f = Found::default();
        for e in r.explain(c, None) {
            match e.details {
                Details::Seeds(s) if f.seeds.is_empty() => f.seeds = s.iter().map(|m| (m.seed, m.similarity)).collect(),
                Details::Words(w) if f.words.is_empty() => f.words = w,
                Details::Fields(x) if f.fields.is_empty() => f.fields = x,
                _ => {}
            }
        }
        f
    }

    fn unit(v: &[f32]) -> Vec<f32> {
        let n = dot(v, v).sqrt();
        v.iter().map(|x| x / n).collect()
    }

    fn seed(label: &str, v: &[f32], negative: bool, added: &str) -> SeedVector {
        SeedVector {
            label: label.into(),
            vector: unit(v),
            terms: Terms::default(),
            subjects: Vec::new(),
            weight: 1.0,
            negative,
            rated: false,
            added: added.into(),
        }
    }

    fn scores(r: &Ranker, vs: &[&[f32]]) -> Vec<f32> {
        let none = Terms::default();
        let c: Vec<Candidate<'_>> =
            vs.iter().map(|v| Candidate { paper: &crate::paper::UNKNOWN, vector: v, terms: &none, own_seed: None }).collect();
        r.score_all(&c).into_iter().map(|s| s.order).collect()
    }

    #[test]
    fn every_method_prefers_what_is_like_the_seeds() {
        let mut vocab = Vocabulary::new(None);
        let mut seeds = vec![
            seed("a", &[1.0, 0.1, 0.0], false, "2026-01-01"),
            seed("b", &[0.9, 0.0, 0.2], false, "2026-02-01"),
            seed("c", &[0.0, 0.0, 1.0], true, "2026-02-01"),
        ];
        seeds[0].terms = vocab.terms("KV cache prefetching", "for LLM serving");
        seeds[1].terms = vocab.terms("Prefetching the KV cache", "");
        seeds[2].terms = vocab.terms("Protein folding", "");
        let background: Vec<Vec<f32>> = vec![unit(&[0.0, 1.0, 0.0]), unit(&[0.0, 0.7, 0.7]), unit(&[-1.0, 0.2, 0.0])];
        let near = unit(&[1.0, 0.05, 0.1]);
        let far = unit(&[0.0, 0.3, 1.0]);
        let near_words = vocab.terms("KV caches prefetched", "");
        let far_words = vocab.terms("folding proteins", "");
        for m in Method::ALL {
            let r = Ranker::new(m, seeds.clone(), &background);
            let c = [
                Candidate { paper: &crate::paper::UNKNOWN, vector: &near, terms: &near_words, own_seed: None },
                Candidate { paper: &crate::paper::UNKNOWN, vector: &far, terms: &far_words, own_seed: None },
            ];
            let s = r.score_all(&c);
            assert!(s[0].order > s[1].order, "{m}: {} <= {}", s[0].order, s[1].order);
            let (e0, e1) = (found(&r, &c[0]), found(&r, &c[1]));
            assert_eq!(e0.seeds.len(), 2);
            assert!(e0.seeds[0].1 >= e0.seeds[1].1);
            let mut words = e0.words.clone();
            words.sort();
            // Phrases first, and no word a phrase shown already says.
            assert_eq!(words, ["KV caches", "caches prefetched"], "{m}");
            assert!(e1.words.is_empty(), "a disliked seed's words are no reason");
        }
    }

    #[test]
    fn the_words_signal_weighs_a_rare_word_over_common_ones() {
        use crate::library::lexical::LexicalIndex;
        // Twenty papers say "method" and "widgets", two "pulsar".
        let texts: Vec<(String, String)> = (0..20)
            .map(|i| (format!("Method {i}"), format!("This method studies widgets. {}", if i < 2 { "pulsar" } else { "" })))
            .collect();
        let index = LexicalIndex::in_memory(texts.iter().map(|(t, a)| (t.as_str(), a.as_str()))).unwrap();
        let mut vocab = Vocabulary::new(Some(&index));
        let mut s = seed("a", &[1.0, 0.0], false, "");
        s.terms = vocab.terms("Pulsar widgets", "a method, glitches");
        let r = Ranker::new(Method::Hybrid, vec![s], &[]);
        // "glitches": no paper of the library says it, the rarest the two
        // share; "widgets" and "method" every paper says.
        let (field, common) = (vocab.terms("Pulsar glitches survey", ""), vocab.terms("Widgets survey", "another method"));
        let day = [
            Candidate { paper: &crate::paper::UNKNOWN, vector: &[1.0, 0.0], terms: &field, own_seed: None },
            Candidate { paper: &crate::paper::UNKNOWN, vector: &[1.0, 0.0], terms: &common, own_seed: None },
        ];
        let signals = r.signals(&day);
        let of = |id: SignalId| &signals.values[signals.names.iter().position(|&n| n == id).unwrap()];
        // Both share words with the seed; the rare ones count ten times
        // and more what the common ones do.
        let words = of(id("words"));
        assert!(words[1] > 0.0 && words[0] > 10.0 * words[1], "{words:?}");
        assert!(r.score_all(&day)[0].order > r.score_all(&day)[1].order);
        // The reason quotes the shared words rarest first.
        assert_eq!(found(&r, &day[0]).words, ["glitches", "pulsar"]);
    }

    /// The hybrid with one liked seed, a title, and no library.
    fn one_seed(vocab: &mut Vocabulary, title: &str) -> Ranker {
        let mut s = seed("a", &[1.0, 0.0], false, "");
        s.terms = vocab.terms(title, "");
        Ranker::new(Method::Hybrid, vec![s], &[])
    }

    #[test]
    fn shared_words_are_shown_as_the_candidate_writes_them() {
        let mut vocab = Vocabulary::new(None);
        let r = one_seed(&mut vocab, "Caching for serverless functions");
        let t = vocab.terms("Serverless caches", "");
        let out = found(&r, &Candidate { paper: &crate::paper::UNKNOWN, vector: &[1.0, 0.0], terms: &t, own_seed: None });
        let mut words = out.words.clone();
        words.sort();
        assert_eq!(words, vec!["caches", "serverless"]);
    }

    #[test]
    fn a_small_librarys_reason_quotes_the_telling_words_first() {
        let index = crate::rank::vocabulary::tests::four();
        let mut vocab = Vocabulary::new(Some(&index));
        let r = one_seed(&mut vocab, "End-to-end stages of the KV cache");
        let t = vocab.terms("Stage-wise KV cache offloading, end to end", "");
        let out = found(&r, &Candidate { paper: &crate::paper::UNKNOWN, vector: &[1.0, 0.0], terms: &t, own_seed: None });
        // Each is said by one of the library's four papers; arXiv says
        // "end" and "stage" far more often than "KV cache".
        assert_eq!(out.words.first().map(String::as_str), Some("KV cache"), "{:?}", out.words);
    }

    #[test]
    fn a_reason_quotes_no_phrase_the_vocabulary_calls_a_chance_meeting() {
        let mut vocab = Vocabulary::new(None);
        let r = one_seed(&mut vocab, "We introduce pulsar glitches");
        let mut t = vocab.terms("Introduce pulsar timing", "");
        let explained =
            |t: &Terms| found(&r, &Candidate { paper: &crate::paper::UNKNOWN, vector: &[1.0, 0.0], terms: t, own_seed: None }).words;
        assert_eq!(explained(&t)[0], "introduce pulsar", "without a library every phrase is quotable");
        // As a library of some size judges "introduce pulsar" (the
        // vocabulary's test): its words remain.
        for (q, s) in t.quotable.iter_mut().zip(&t.surface) {
            *q = s != "Introduce pulsar";
        }
        let mut words = explained(&t);
        words.sort();
        assert_eq!(words, ["introduce", "pulsar"]);
    }

    #[test]
    fn no_tex_reaches_a_reason() {
        let mut vocab = Vocabulary::new(None);
        let r = one_seed(&mut vocab, "A $4\\times$ speedup of paged KV caches with $\\mathcal{O}(n)$ eviction, 4\\times faster");
        let t = vocab.terms("Paged KV caches: 4\\times faster eviction at $\\mathcal{O}(n)$ cost", "");
        let words = found(&r, &Candidate { paper: &crate::paper::UNKNOWN, vector: &[1.0, 0.0], terms: &t, own_seed: None }).words;
        assert!(!words.is_empty(), "the plain words are quoted");
        for w in &words {
            assert!(!w.contains(['\\', '$', '^', '_', '{', '}']), "{w:?} in {words:?}");
        }
    }

    #[test]
    fn a_rated_paper_shares_no_words_with_itself() {
        let mut vocab = Vocabulary::new(None);
        let mut own = seed("own", &[1.0, 0.0], false, "");
        own.terms = vocab.terms("Speculative decoding drafts", "");
        let mut other = seed("other", &[0.8, 0.6], false, "");
        other.terms = vocab.terms("Speculative sampling", "");
        let r = Ranker::new(Method::Hybrid, vec![own.clone(), other], &[]);
        let t = own.terms.clone();
        let out = found(&r, &Candidate { paper: &crate::paper::UNKNOWN, vector: &[1.0, 0.0], terms: &t, own_seed: Some(0) });
        assert_eq!(out.words, vec!["speculative"], "only what it shares with the other seed");
        assert_eq!(out.seeds[0].0, 1, "its nearest seed is another one");
    }

    #[test]
    fn decayed_mean_weights_newest_seed_most() {
        let seeds = vec![seed("old", &[1.0, 0.0], false, "2025-01-01"), seed("new", &[0.0, 1.0], false, "2026-01-01")];
        let r = Ranker::new(Method::DecayedMean, seeds, &[]);
        let s = scores(&r, &[&[0.0, 1.0], &[1.0, 0.0]]);
        assert!(s[0] > s[1]);
    }

    #[test]
    fn a_negative_seed_lowers_knn_scores() {
        let liked = seed("a", &[1.0, 0.0], false, "");
        let disliked = seed("n", &[0.6, 0.8], true, "");
        let v = unit(&[0.8, 0.6]);
        let without = scores(&Ranker::new(Method::Knn, vec![liked.clone()], &[]), &[&v])[0];
        let with = scores(&Ranker::new(Method::Knn, vec![liked, disliked], &[]), &[&v])[0];
        assert!(with < without);
    }

    #[test]
    fn a_dislike_sinks_what_is_like_it_in_the_hybrid() {
        let liked = seed("a", &[1.0, 0.0, 0.0], false, "");
        let mut disliked = seed("n", &[0.7, 0.7, 0.0], true, "");
        disliked.rated = true;
        let close_to_dislike = unit(&[0.75, 0.66, 0.0]);
        let other = unit(&[0.75, 0.0, 0.66]);
        let bg = vec![unit(&[0.0, 0.0, 1.0]), unit(&[0.0, 1.0, 0.0])];
        let before = scores(&Ranker::new(Method::Hybrid, vec![liked.clone()], &bg), &[&close_to_dislike, &other]);
        let after = scores(&Ranker::new(Method::Hybrid, vec![liked, disliked], &bg), &[&close_to_dislike, &other]);
        assert!(before[0] >= before[1] - 0.05, "{before:?}");
        assert!(after[0] < after[1], "{after:?}");
    }

    #[test]
    fn a_rated_paper_is_scored_on_the_other_seeds() {
        let a = seed("a", &[1.0, 0.0], false, "");
        let b = seed("b", &[0.0, 1.0], false, "");
        let none = Terms::default();
        for m in [Method::Knn, Method::Centroid, Method::Hybrid] {
            let r = Ranker::new(m, vec![a.clone(), b.clone()], &[]);
            let own = Candidate { paper: &crate::paper::UNKNOWN, vector: &a.vector, terms: &none, own_seed: None };
            let rated = Candidate { own_seed: Some(0), ..own };
            assert!(r.score_one(&rated) < r.score_one(&own), "{m}");
            assert!(found(&r, &rated).seeds.iter().all(|&(i, _)| i != 0), "{m}: a paper is not its own reason");
        }
    }

    #[test]
    fn a_rated_papers_words_are_matched_against_the_other_seeds_alone() {
        let mut vocab = Vocabulary::new(None);
        let (mut a, mut b, mut c) =
            (seed("a", &[1.0, 0.0], false, ""), seed("b", &[0.0, 1.0], false, ""), seed("c", &[0.6, 0.8], false, ""));
        a.terms = vocab.terms("Speculative decoding with draft trees", "drafts verified in one pass");
        b.terms = vocab.terms("Speculative decoding at scale", "serving drafts");
        c.terms = vocab.terms("KV cache eviction", "");
        // A weight that is no power of two leaves rounding behind when
        // taken out of the sum.
        a.weight = 0.7;
        let words = |seeds: Vec<SeedVector>, own_seed: Option<usize>| {
            let r = Ranker::new(Method::Hybrid, seeds, &[]);
            let t = r.seeds.all[0].terms.clone();
            let s = r.signals(&[Candidate { paper: &crate::paper::UNKNOWN, vector: &[1.0, 0.0], terms: &t, own_seed }]);
            s.values[s.names.iter().position(|&n| n == id("words")).unwrap()][0]
        };
        let rated = words(vec![a.clone(), b.clone(), c.clone()], Some(0));
        let others = {
            let r = Ranker::new(Method::Hybrid, vec![b.clone(), c.clone()], &[]);
            let s = r.signals(&[Candidate { paper: &crate::paper::UNKNOWN, vector: &[1.0, 0.0], terms: &a.terms, own_seed: None }]);
            s.values[s.names.iter().position(|&n| n == id("words")).unwrap()][0]
        };
        assert!(others > 0.0 && (rated - others).abs() < 1e-4 * others, "{rated} against {others}");
        assert!(words(vec![a.clone(), b, c], None) > rated, "its own words would lift it");
        // The only liked seed, taken out: nothing is left to match.
        assert_eq!(words(vec![a], Some(0)), 0.0);
    }

    #[test]
    fn uncertain_candidates_sit_between_liked_and_disliked() {
        let seeds = vec![seed("like", &[1.0, 0.0, 0.0], false, ""), seed("nope", &[0.0, 1.0, 0.0], true, "")];
        let background = vec![unit(&[0.0, 0.8, 0.6]), unit(&[0.1, 0.9, 0.0])];
        let liked = unit(&[1.0, 0.05, 0.0]);
        let middle = unit(&[0.7, 0.7, 0.0]);
        let disliked = unit(&[0.05, 1.0, 0.0]);
        let none = Terms::default();
        let c: Vec<Candidate<'_>> = [&liked, &middle, &disliked]
            .iter()
            .map(|v| Candidate { paper: &crate::paper::UNKNOWN, vector: v, terms: &none, own_seed: None })
            .collect();
        let r = Ranker::new(Method::Hybrid, seeds, &background);
        assert_eq!(most_uncertain(&r, &background, &c, 1), vec![1]);
        assert_eq!(most_uncertain(&r, &background, &c, 5).len(), 3);
        assert!(most_uncertain(&r, &background, &c, 0).is_empty());
    }

    /// `n` unit vectors in `dim` dimensions, spread by the evaluations'
    /// deterministic generator.
    fn spread(n: usize, dim: usize, seed: u64) -> Vec<Vec<f32>> {
        let mut rng = crate::eval::Rng::new(seed);
        (0..n).map(|_| unit(&(0..dim).map(|_| rng.below(2001) as f32 / 1000.0 - 1.0).collect::<Vec<_>>())).collect()
    }

    /// `v` moved a little towards `w` (both unit): a paper near `v`.
    fn towards(v: &[f32], w: &[f32], t: f32) -> Vec<f32> {
        unit(&v.iter().zip(w).map(|(a, b)| (1.0 - t) * a + t * b).collect::<Vec<_>>())
    }

    /// Sixty-four dimensions: random papers sit at cosines of about ±0.12
    /// of each other, as unrelated abstracts do in the real model's space.
    const DIM: usize = 64;

    #[test]
    fn the_same_paper_scores_the_same_on_a_quiet_day_and_a_busy_one() {
        let mut vocab = Vocabulary::new(None);
        let vs = spread(300, DIM, 1);
        let mut liked = seed("a", &vs[0], false, "");
        liked.terms = vocab.terms("Speculative decoding for LLM serving", "draft trees verified in one pass");
        let mut r = Ranker::new(Method::Hybrid, vec![liked], &[]);
        let none = Terms::default();
        let bg = &vs[100..300];
        r.calibrate(
            &bg.iter().map(|v| Candidate { paper: &crate::paper::UNKNOWN, vector: v, terms: &none, own_seed: None }).collect::<Vec<_>>(),
        );
        let paper = towards(&vs[0], &vs[1], 0.3);
        let words = vocab.terms("Speculative decoding with draft trees", "");
        let it = Candidate { paper: &crate::paper::UNKNOWN, vector: &paper, terms: &words, own_seed: None };
        // A quiet day: it and two unrelated papers. A busy one: it among
        // forty papers as close as it is, or closer.
        let close: Vec<Vec<f32>> = (0..40).map(|i| towards(&vs[0], &vs[2 + i], 0.1 + 0.005 * i as f32)).collect();
        let quiet: Vec<Candidate<'_>> = std::iter::once(it)
            .chain(vs[50..52].iter().map(|v| Candidate { paper: &crate::paper::UNKNOWN, vector: v, terms: &none, own_seed: None }))
            .collect();
        let busy: Vec<Candidate<'_>> = std::iter::once(it)
            .chain(close.iter().map(|v| Candidate { paper: &crate::paper::UNKNOWN, vector: v, terms: &words, own_seed: None }))
            .collect();
        let (q, b) = (r.score_all(&quiet).remove(0), r.score_all(&busy).remove(0));
        assert_eq!(q.score, b.score);
        assert_eq!(q.strength, b.strength);
        assert_eq!(q.strength, Strength::Strong, "{q:?}");
        // Its place is the day's: first on the quiet day, not on the busy one.
        let busy_scores = r.score_all(&busy);
        assert!(busy_scores.iter().skip(1).any(|s| s.order > busy_scores[0].order));
    }

    #[test]
    fn a_match_on_common_words_alone_is_not_strong() {
        use crate::library::lexical::LexicalIndex;
        // A library whose papers all say "management" and "serves".
        let texts: Vec<(String, String)> =
            (0..60).map(|i| (format!("Paper {i} on management"), format!("It serves the management of topic {i}."))).collect();
        let index = LexicalIndex::in_memory(texts.iter().map(|(t, a)| (t.as_str(), a.as_str()))).unwrap();
        let mut vocab = Vocabulary::new(Some(&index));
        let vs = spread(100, DIM, 3);
        let mut s = seed("a", &vs[0], false, "");
        s.terms = vocab.terms("KV cache management for LLM serving", "a scheduler that serves requests with paged attention");
        let mut r = Ranker::new(Method::Hybrid, vec![s], &[]);
        let bg_terms: Vec<Terms> = texts.iter().map(|(t, a)| vocab.terms(t, a)).collect();
        r.calibrate(
            &vs[40..100]
                .iter()
                .zip(&bg_terms)
                .map(|(v, t)| Candidate { paper: &crate::paper::UNKNOWN, vector: v, terms: t, own_seed: None })
                .collect::<Vec<_>>(),
        );
        let common = vocab.terms("Tax-aware portfolio management", "A monolithic model serves investors and their management.");
        let near = towards(&vs[0], &vs[1], 0.3);
        let telling = vocab.terms("Paged attention for the KV cache", "A scheduler for LLM serving.");
        let day = [
            Candidate { paper: &crate::paper::UNKNOWN, vector: &vs[2], terms: &common, own_seed: None },
            Candidate { paper: &crate::paper::UNKNOWN, vector: &near, terms: &telling, own_seed: None },
        ];
        let s = r.score_all(&day);
        assert_eq!(s[0].strength, Strength::Weak, "{:?}", s[0]);
        assert_eq!(s[1].strength, Strength::Strong, "{:?}", s[1]);
        assert!(s[1].order > s[0].order && s[1].score > s[0].score);
    }
}
