//! How new a paper is among those ranked with it: for a reader who reads
//! several days at once (`daily --since`), the newer of two equal papers
//! first. Every paper of one day is as new as the others, so a day read
//! alone is ranked as without it.

use super::signal::{Details, Naming, Part, Seeds, Signal, SignalId};
use super::Candidate;
use crate::paper::Day;

pub const RECENCY: Part = Part {
    name: "recency",
    label: "newness",
    legend: "how many days after the others of a multi-day read it was listed",
    cold: 0.1,
    per_ln_seeds: 0.0,
    naming: Naming::Carrying(0.3),
};

pub fn make(_: &Seeds) -> Box<dyn Signal> {
    Box::new(Recency)
}

pub struct Recency;

fn listed(c: &Candidate<'_>) -> Option<Day> {
    c.paper.listing_date.as_deref().and_then(Day::parse)
}

impl Signal for Recency {
    fn id(&self) -> SignalId {
        SignalId(&RECENCY)
    }

    /// Days after the oldest listing among `day` (0 for a paper without a date).
    fn score(&self, _: &Seeds, day: &[Candidate<'_>]) -> Vec<f32> {
        let dates: Vec<Option<Day>> = day.iter().map(listed).collect();
        let Some(&oldest) = dates.iter().flatten().min() else {
            return vec![0.0; day.len()];
        };
        dates.iter().map(|d| d.map_or(0.0, |d| d.days_after(oldest) as f32)).collect()
    }

    fn explain(&self, _: &Seeds, c: &Candidate<'_>) -> Details {
        listed(c).map_or(Details::Opaque, |d| Details::Note(format!("listed {d}")))
    }
}
