//! `serve --morning HH:MM`: the morning's delivery run by the server, once a
//! day at that local time (the server's time zone: `TZ=Europe/Berlin`).
//! A run that leaves a reader undelivered is tried again a few times that
//! day; what was delivered is recorded, so a restart sends nothing twice.

use crate::delivery::{self, Destinations, LabToken, Morning, Outcome, Sent};
use crate::embed::ModelArgs;
use crate::fetch::FetchOpts;
use crate::report::Links;
use chrono::{Local, NaiveDate, NaiveTime};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// What the morning does, from `serve`'s flags.
#[derive(Clone)]
pub struct Plan {
    pub at: NaiveTime,
    pub fetch: Vec<String>,
    pub fetch_opts: FetchOpts,
    pub links: Links,
    pub profile: String,
    pub destinations: Destinations,
    pub lab_token: Option<LabToken>,
}

impl Plan {
    /// The morning this plan runs on the library in `dir`.
    pub fn morning<'a>(&'a self, dir: &'a std::path::Path, model: &'a ModelArgs) -> Morning<'a> {
        Morning {
            dir,
            fetch: &self.fetch,
            fetch_opts: &self.fetch_opts,
            model,
            links: &self.links,
            profile: &self.profile,
            destinations: &self.destinations,
            lab_token: self.lab_token.as_ref(),
        }
    }
}

/// Runs after a failure, that day, at most.
const TRIES: u32 = 4;
const RETRY_AFTER: Duration = Duration::from_secs(15 * 60);

pub fn start(plan: Plan, dir: PathBuf, model: ModelArgs) {
    std::thread::spawn(move || {
        let (mut done, mut tries, mut next): (Option<NaiveDate>, u32, Option<Instant>) = (None, 0, None);
        loop {
            let now = Local::now();
            let today = now.date_naive();
            if done != Some(today) && now.time() >= plan.at && next.is_none_or(|t| Instant::now() >= t) {
                if next.is_none() {
                    tries = 0;
                }
                tries += 1;
                let m = plan.morning(&dir, &model);
                // A panic in a reader's delivery must not end the mornings
                // of the days after: it counts as a failed run.
                let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| delivery::run(&m, false)))
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("the morning's run stopped on an internal error")));
                let failed = match run {
                    Ok((day, sent)) => {
                        crate::messages::note(format_args!("morning of {today}: {}", summary(day, &sent)));
                        sent.iter().any(|s| matches!(s.outcome, Outcome::Failed(_)))
                    }
                    Err(e) => {
                        crate::messages::warning(format_args!("morning of {today}: {e:#}"));
                        true
                    }
                };
                if failed && tries < TRIES {
                    next = Some(Instant::now() + RETRY_AFTER);
                } else {
                    (done, next) = (Some(today), None);
                }
            }
            std::thread::sleep(Duration::from_secs(20));
        }
    });
}

/// One line per channel: who, how, and what became of it; never an address.
pub fn summary(day: crate::paper::Day, sent: &[Sent]) -> String {
    if sent.is_empty() {
        return format!("{day}: no reader has set where their digest goes (Settings)");
    }
    let lines: Vec<String> = sent
        .iter()
        .map(|s| {
            let who = if s.user.is_empty() { "the owner".to_string() } else { s.user.clone() };
            let what = match &s.outcome {
                Outcome::Delivered => format!("delivered {} picks", s.picks),
                Outcome::AlreadyDelivered => "already delivered".into(),
                Outcome::Waiting(why) => format!("waiting: {why}"),
                Outcome::WouldSend => format!("would receive {} picks", s.picks),
                Outcome::Failed(e) => format!("failed: {e}"),
            };
            format!("{who} by {} ({}): {what}", s.channel, s.to)
        })
        .collect();
    format!("{day}\n  {}", lines.join("\n  "))
}
