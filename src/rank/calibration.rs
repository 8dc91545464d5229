//! A score with one meaning: where a paper stands against the profile, not
//! against the day it was listed on. Each signal is put on the scale of a
//! sample of the library's papers scored for this profile (the
//! background), so the same paper scores the same on a quiet day and a
//! busy one, and "the top 1 % of the library for this profile" is the
//! same height for a narrow profile and a broad one. The raw score, in
//! background standard deviations, is read as odds by a fixed prior (even
//! odds about the library's top 1 %) that the reader's ratings refit: a
//! 👍 is a paper that was theirs at its score, a 👎 one that was not, and
//! the library at large is not theirs (docs/quality.md, "A score with one
//! meaning"). The seeds the reader gave are not read: left out in turn, a
//! seed of a topic of its own has nothing left to be close to, so a broad
//! profile's seeds score as the library does and would mark every paper
//! weak.

use serde::Serialize;

/// A signal's (or the raw score's) scale: its mean and standard deviation
/// over a set of papers.
#[derive(Debug, Clone, Copy)]
pub struct Scale {
    pub mean: f32,
    pub sd: f32,
}

impl Scale {
    pub fn of(xs: &[f32]) -> Scale {
        let n = xs.len().max(1) as f32;
        let mean = xs.iter().sum::<f32>() / n;
        let sd = (xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f32>() / n).sqrt();
        Scale { mean, sd }
    }

    /// The distance from the mean in standard deviations (0 when the
    /// values do not vary).
    pub fn z(self, x: f32) -> f32 {
        if self.sd <= 1e-6 {
            0.0
        } else {
            (x - self.mean) / self.sd
        }
    }
}

/// How sure a pick is, in words with fixed meanings (the page's "What the
/// score means" says them; docs/quality.md measures them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strength {
    /// Less like the reader's seeds than worth a look.
    Weak,
    /// At least 2 to 3 against being one of the reader's own.
    WorthALook,
    /// At least 3 to 1 for being one of the reader's own.
    Strong,
}

impl Strength {
    /// The calibrated score at and above which a pick is strong.
    pub const STRONG: f32 = 0.75;
    /// The calibrated score at and above which a pick is worth a look.
    pub const WORTH_A_LOOK: f32 = 0.4;

    pub fn of(score: f32) -> Strength {
        if score >= Self::STRONG {
            Strength::Strong
        } else if score >= Self::WORTH_A_LOOK {
            Strength::WorthALook
        } else {
            Strength::Weak
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Strength::Strong => "strong",
            Strength::WorthALook => "worth a look",
            Strength::Weak => "weak",
        }
    }

    pub const ALL: [Strength; 3] = [Strength::Strong, Strength::WorthALook, Strength::Weak];
}

/// Where a reader's digest stops: the picks at or above it lead, and the
/// rest are counted ("N more below your bar"). Kept per profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Bar {
    /// Strong picks only.
    Strict,
    /// Worth a look and strong (the default).
    #[default]
    Usual,
    /// The top whatever its strength, each pick marked (a fixed top-k).
    Loose,
}

impl Bar {
    pub const ALL: [Bar; 3] = [Bar::Strict, Bar::Usual, Bar::Loose];
    /// A digest leads with at least this many picks, whatever the bar: a
    /// quiet day still shows its best.
    pub const AT_LEAST: usize = 3;

    /// The calibrated score a pick needs.
    pub fn threshold(self) -> f32 {
        match self {
            Bar::Strict => Strength::STRONG,
            Bar::Usual => Strength::WORTH_A_LOOK,
            Bar::Loose => 0.0,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Bar::Strict => "strict",
            Bar::Usual => "usual",
            Bar::Loose => "loose",
        }
    }

    pub fn parse(s: &str) -> Option<Bar> {
        Bar::ALL.into_iter().find(|b| b.name() == s)
    }

    /// One step stricter, or looser; the same at either end.
    pub fn stricter(self) -> Bar {
        match self {
            Bar::Loose => Bar::Usual,
            _ => Bar::Strict,
        }
    }

    pub fn looser(self) -> Bar {
        match self {
            Bar::Strict => Bar::Usual,
            _ => Bar::Loose,
        }
    }
}

/// Background papers below which a sample says too little of the
/// library's spread; a smaller library is scaled by the day together with
/// what it has.
pub const MIN_BACKGROUND: usize = 30;

/// The prior, in background standard deviations of the raw score: even
/// odds this far above the library's mean (about its top 1 % were the
/// scores normal) ...
const PRIOR_EVEN_AT: f32 = 2.5;
/// ... and odds growing e-fold with each 1/this of a deviation.
const PRIOR_SLOPE: f32 = 1.5;
/// How many ratings' worth the prior holds: a few move it some way, a
/// few dozen most of the way.
const PRIOR_STRENGTH: f32 = 4.0;

/// The profile's calibration: the scales its scores are read on and the
/// odds read from them.
#[derive(Debug, Clone)]
pub struct Calibration {
    /// The hybrid's signals' scales over the background, in its order,
    /// then the reader's model's when it joined (empty for a method of one
    /// signal).
    pub scales: Vec<Scale>,
    /// The raw score's scale over the background.
    raw: Scale,
    /// The odds: logit = a · z + b on z, the raw score in background
    /// standard deviations.
    a: f32,
    b: f32,
}

/// A rated paper the calibration learns from: its raw score (scored on
/// the other seeds), and whether the reader liked it.
pub struct Known {
    pub raw: f32,
    pub own: bool,
}

impl Calibration {
    /// Fits the odds to the ratings (`known`) against the background's
    /// raw scores, which weigh as much in all as the 👍 do.
    pub fn fit(scales: Vec<Scale>, background: &[f32], known: &[Known]) -> Calibration {
        let raw = Scale::of(background);
        let liked = known.iter().filter(|k| k.own).count() as f32;
        let mut examples: Vec<(f32, bool, f32)> = known.iter().map(|k| (raw.z(k.raw), k.own, 1.0)).collect();
        if liked > 0.0 {
            let each = liked / background.len().max(1) as f32;
            examples.extend(background.iter().map(|&x| (raw.z(x), false, each)));
        }
        let (a, b) = platt(&examples, (PRIOR_SLOPE, -PRIOR_SLOPE * PRIOR_EVEN_AT), PRIOR_STRENGTH);
        Calibration { scales, raw, a, b }
    }

    /// The calibrated score of a raw one: 0 to 1, ½ at even odds.
    pub fn score(&self, raw: f32) -> f32 {
        super::logistic::sigmoid(self.a * self.raw.z(raw) + self.b)
    }
}

/// A one-feature logistic regression, logit = a·x + b, with a Gaussian
/// prior of precision `strength` on (a, b) about `prior`, by Newton's
/// method (two parameters: a few steps reach it). The slope never goes
/// below a tenth of the prior's, so a higher raw score never means less.
fn platt(examples: &[(f32, bool, f32)], prior: (f32, f32), strength: f32) -> (f32, f32) {
    let (mut a, mut b) = prior;
    for _ in 0..30 {
        let (mut ga, mut gb) = (strength * (a - prior.0), strength * (b - prior.1));
        let (mut haa, mut hab, mut hbb) = (strength, 0.0, strength);
        for &(x, y, w) in examples {
            let p = super::logistic::sigmoid(a * x + b);
            let r = w * (p - if y { 1.0 } else { 0.0 });
            ga += r * x;
            gb += r;
            let c = w * p * (1.0 - p);
            haa += c * x * x;
            hab += c * x;
            hbb += c;
        }
        let det = haa * hbb - hab * hab;
        if det.abs() < 1e-12 {
            break;
        }
        let (da, db) = ((hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det);
        a -= da;
        b -= db;
        if da.abs() + db.abs() < 1e-6 {
            break;
        }
    }
    (a.max(0.1 * prior.0), b)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A background of standard normal-ish raw scores.
    fn background() -> Vec<f32> {
        (0..200).map(|i| ((i as f32 + 0.5) / 200.0 - 0.5) * 3.4).collect()
    }

    #[test]
    fn without_ratings_the_prior_reads_the_background() {
        let bg = background();
        let c = Calibration::fit(Vec::new(), &bg, &[]);
        let sd = Scale::of(&bg).sd;
        // Even odds 2.5 deviations up; the background's middle is weak.
        assert!((c.score(PRIOR_EVEN_AT * sd) - 0.5).abs() < 1e-4);
        assert_eq!(Strength::of(c.score(0.0)), Strength::Weak);
        assert_eq!(Strength::of(c.score(4.0 * sd)), Strength::Strong);
    }

    #[test]
    fn likes_far_out_raise_the_bar_and_near_ones_lower_it() {
        let bg = background();
        let sd = Scale::of(&bg).sd;
        let liked = |at: f32| -> Vec<Known> { (0..8).map(|i| Known { raw: (at + 0.1 * i as f32) * sd, own: true }).collect() };
        let narrow = Calibration::fit(Vec::new(), &bg, &liked(8.0));
        let broad = Calibration::fit(Vec::new(), &bg, &liked(2.0));
        // A paper three deviations up: a broad reader's likes score like
        // that, a narrow one's far higher.
        let x = 3.0 * sd;
        assert!(broad.score(x) > narrow.score(x), "{} against {}", broad.score(x), narrow.score(x));
        assert!(narrow.score(8.0 * sd) > Strength::STRONG);
        // A higher raw score never means less.
        for c in [&narrow, &broad] {
            assert!(c.score(1.0) < c.score(2.0) && c.score(2.0) < c.score(6.0));
        }
    }

    #[test]
    fn a_dislike_near_a_score_lowers_it() {
        let bg = background();
        let sd = Scale::of(&bg).sd;
        let mut known: Vec<Known> = (0..4).map(|i| Known { raw: (4.0 + 0.2 * i as f32) * sd, own: true }).collect();
        let before = Calibration::fit(Vec::new(), &bg, &known).score(3.5 * sd);
        known.extend((0..4).map(|i| Known { raw: (3.5 + 0.1 * i as f32) * sd, own: false }));
        let after = Calibration::fit(Vec::new(), &bg, &known).score(3.5 * sd);
        assert!(after < before, "{after} against {before}");
    }

    #[test]
    fn strengths_have_fixed_cut_points() {
        assert_eq!(Strength::of(0.9), Strength::Strong);
        assert_eq!(Strength::of(Strength::STRONG), Strength::Strong);
        assert_eq!(Strength::of(0.5), Strength::WorthALook);
        assert_eq!(Strength::of(0.39), Strength::Weak);
        assert!(Strength::Strong > Strength::WorthALook && Strength::WorthALook > Strength::Weak);
    }
}
