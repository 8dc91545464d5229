//! What a ranked day is, as every writer and page reads it: the picks
//! with their reasons, the unsure, the hidden, and the options that chose
//! them.

use crate::library::store::ProfileKey;
use crate::paper::{Day, Kind, Paper};
use crate::rank::{self, Details, Explanation, Method};
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct Reason {
    /// The seed's key (an arXiv id, or text:… for free text).
    pub seed: String,
    pub title: String,
    pub similarity: f32,
}

#[derive(Debug, Clone, Serialize)]
pub struct Pick {
    /// Position among the picks (1 = read first); 0 in the unsure list.
    pub rank: usize,
    pub score: f32,
    #[serde(flatten)]
    pub paper: Paper,
    /// The one sentence of its abstract that says what it does
    /// ([`crate::gist`]); `null` when the abstract has none.
    pub gist: Option<String>,
    /// Why it scored as it did, in each signal's words.
    #[serde(flatten)]
    pub why: Explained,
    /// What its score says in words: strong, worth a look or weak
    /// ([`rank::Strength`]).
    pub strength: rank::Strength,
    /// The strength is weak (kept beside it for readers of the JSON).
    pub weak: bool,
    /// Set for a replaced entry first listed on an earlier day.
    pub seen_before: Option<String>,
    /// The profile's rating of this paper: 1 liked, -1 not interested.
    pub rating: Option<i8>,
    /// Shown on top because of this pinned author.
    pub pinned: Option<String>,
    /// The day the user rated or opened it, when that makes this listing
    /// (a replacement or cross-list) old news.
    pub seen: Option<String>,
}

/// Why a pick scored as it did: each signal's explanation (its value,
/// its share of the lift above the day's average, what it found), the
/// seeds named by key and title. Written as `"reasons"` (the seeds it is
/// closest to, best first) and `"signals"` (every explanation).
#[derive(Debug, Clone, Default)]
pub struct Explained(pub Vec<Explanation<Reason>>);

impl Explained {
    /// The seeds it is closest to, best first: what the first signal that
    /// names seeds found.
    pub fn reasons(&self) -> &[Reason] {
        self.0
            .iter()
            .find_map(|e| match &e.details {
                Details::Seeds(s) => Some(s.as_slice()),
                _ => None,
            })
            .unwrap_or(&[])
    }
}

impl Serialize for Explained {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("reasons", self.reasons())?;
        m.serialize_entry("signals", &self.0)?;
        m.end()
    }
}

/// A paper a filter kept out of the digest, and the rule that did.
#[derive(Debug, Clone, Serialize)]
pub struct Hidden {
    pub id: String,
    pub title: String,
    pub rule: String,
}

#[derive(Debug, Clone)]
pub struct Digest {
    /// The (newest) day ranked.
    pub date: Day,
    /// The first day of a roll-up over several days; `date` for one day.
    pub first_date: Day,
    pub profile: String,
    pub method: Method,
    /// Entries of the day that were ranked.
    pub candidates: usize,
    /// At most the top's count, pinned authors first: what to read.
    pub picks: Vec<Pick>,
    /// Papers of the day the reader marked not interested: listed apart
    /// (never among the picks or counted by the top), so that a rating
    /// can be seen and undone.
    pub not_interested: Vec<Pick>,
    /// Papers nearest the profile's decision boundary, beyond the picks.
    pub unsure: Vec<Pick>,
    /// What the filters (and `unseen`) hid, when asked for.
    pub hidden: Vec<Hidden>,
    /// The profile has no seeds yet: the day is in listing order, unranked.
    pub cold: bool,
    /// Where the digest stopped: the picks above it lead.
    pub bar: rank::Bar,
    /// Ranked papers left out because they are below the bar (0 when the
    /// whole list was asked for).
    pub below_bar: usize,
    /// Papers above the bar left out by the top's count.
    pub past_top: usize,
    /// The signals the scores are made of, as the ranker registered them
    /// (empty when nothing was ranked).
    pub legend: Vec<&'static rank::Part>,
}

/// How many of a day's papers to list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Top {
    Count(usize),
    /// The whole day when it is small enough to triage in one sitting,
    /// else the first [`Top::LONG_DAY`]: what the page shows by default.
    Day,
    All,
}

impl Top {
    /// A day of this many entries or more is cut when the top is [`Top::Day`].
    pub const WHOLE_DAY_UNDER: usize = 150;
    /// What [`Top::Day`] shows of a longer day.
    pub const LONG_DAY: usize = 100;

    /// How many of `n` ranked entries to keep.
    pub fn of(self, n: usize) -> usize {
        match self {
            Top::Count(k) => k.min(n),
            Top::Day if n < Self::WHOLE_DAY_UNDER => n,
            Top::Day => Self::LONG_DAY,
            Top::All => n,
        }
    }
}

/// What to rank and how: the `daily` flags that `serve` shares.
#[derive(Debug, Clone)]
pub struct DayOptions {
    pub profile: ProfileKey,
    pub method: Method,
    pub include: Vec<Kind>,
    pub top: Top,
    pub min_score: Option<f32>,
    /// How many unsure papers to list (0: none).
    pub unsure: usize,
    /// Hide papers the user has already seen instead of marking them.
    pub unseen: bool,
    /// Keep a list of what the filters hid.
    pub show_hidden: bool,
    /// Where the digest stops; `None`: the profile's own bar.
    pub bar: Option<rank::Bar>,
    /// List the top whatever the bar (`daily --all`, the page's "show
    /// them"), each pick still marked with its strength.
    pub all: bool,
}

impl Default for DayOptions {
    fn default() -> Self {
        DayOptions {
            profile: ProfileKey::of(None, "default"),
            method: rank::DEFAULT_METHOD,
            include: vec![Kind::New, Kind::Cross],
            top: Top::Count(20),
            min_score: None,
            unsure: 0,
            unseen: false,
            show_hidden: false,
            bar: None,
            all: false,
        }
    }
}

impl Digest {
    /// The day, or `FIRST to LAST` for a roll-up, as headings show it.
    pub fn span(&self) -> String {
        if self.first_date == self.date {
            self.date.to_string()
        } else {
            format!("{} to {}", self.first_date, self.date)
        }
    }
}
