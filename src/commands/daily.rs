use crate::cli::DailyArgs;
use crate::library::store::ProfileKey;
use crate::library::{self, Library};
use crate::mail;
use crate::report::{self, DigestFormat};
use crate::workflow::day;
use crate::workflow::digest::{self, DayOptions, Digest};
use crate::workflow::neighbours;
use anyhow::{bail, Context, Result};
use std::io::Write;
use std::time::Instant;

pub fn run(args: &DailyArgs, profile: &ProfileKey, verbose: bool) -> Result<()> {
    let start = Instant::now();
    // Checked before any fetching or ranking: a typo costs nothing.
    let links = links(args)?;
    let dir = library::resolve_dir(args.library.library.as_deref())?;
    let mut file_day = None;
    if !args.fetch.is_empty() {
        match day::fetch_day(&args.fetch, &args.fetch_opts, &dir, &args.model, profile, verbose)? {
            Some(d) => file_day = Some(d),
            // No announcements today: the message is out, and there is no new digest.
            None => return Ok(()),
        }
    }
    if !args.files.is_empty() {
        file_day = day::ingest_day_files(&args.files, &dir, &args.model, profile, verbose)?;
    }
    let lib = Library::open_read(&dir)?;
    let since = args.since.as_deref().map(neighbours::parse_day).transpose()?;
    let date = args.date.as_deref().map(neighbours::parse_day).transpose()?;
    let days = digest::choose_days(&lib, since, date, file_day)?;
    let model = lib.store.default_model()?.context("the library holds no vectors yet")?;
    let flat = lib.flat_vectors(&model)?;
    let words = digest::words_for(lib.lexical()?.as_ref());
    let digest = digest::rank_days(&lib, &flat, &words, &days, &options(args, profile))?;
    if digest.cold {
        bail!("profile {:?} has no liked seeds; add some with `paperscout seed add ID|FILE|--text …` or rate papers", profile.as_str());
    }
    if verbose {
        crate::messages::note(format_args!("ranked {} entries in {:.0} ms", digest.candidates, start.elapsed().as_secs_f64() * 1e3));
    }
    let buf = report::render(args.format, &digest, &links)?;
    match &args.out {
        Some(path) => {
            // Written whole and renamed, so a reader never sees half a digest.
            let tmp = path.with_extension("tmp");
            std::fs::write(&tmp, &buf).with_context(|| format!("cannot write {}", tmp.display()))?;
            std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
        }
        // Mailed from cron, the digest need not also land in cron's own mail.
        None if !args.mail_to.is_empty() => {}
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(&buf)?;
            out.flush()?;
        }
    }
    if !args.mail_to.is_empty() {
        let delivery = mail::Delivery { smtp: args.smtp.as_deref(), from: args.mail_from.as_deref(), to: &args.mail_to };
        mail::send(&delivery, letter(&digest, &links)?)?;
        if verbose {
            crate::messages::note(format_args!("mailed {} picks to {}", digest.picks.len(), args.mail_to.join(", ")));
        }
    }
    Ok(())
}

/// The e-mail: Markdown reads well as plain text, and the HTML page is the
/// rich part.
fn letter(digest: &Digest, links: &report::Links) -> Result<mail::Letter> {
    let n = digest.picks.len();
    let mut subject = format!("paperscout: {n} paper{} for {}", if n == 1 { "" } else { "s" }, digest.span());
    if digest.profile != "default" {
        subject.push_str(&format!(" ({})", digest.profile));
    }
    let text = String::from_utf8(report::render(DigestFormat::Markdown, digest, links)?)?;
    let html = String::from_utf8(report::render(DigestFormat::Html, digest, links)?)?;
    Ok(mail::Letter { subject, text, html })
}

/// The rating links `--link-base` asks for; a bad URL is one error naming
/// the option (and the value, unless it may hold a password).
fn links(args: &DailyArgs) -> Result<report::Links> {
    let Some(base) = &args.link_base else { return Ok(report::Links::default()) };
    report::Links::to_server(base).map_err(|e| match base.contains('@') {
        true => anyhow::anyhow!("--link-base: {e}"),
        false => anyhow::anyhow!("--link-base {}: {e}", crate::listing::text::excerpt(base)),
    })
}

pub fn options(args: &DailyArgs, profile: &ProfileKey) -> DayOptions {
    DayOptions {
        profile: profile.clone(),
        method: args.method,
        include: args.include.clone(),
        top: crate::workflow::digest::Top::Count(args.top),
        min_score: args.min_score,
        unsure: args.unsure,
        unseen: args.unseen,
        show_hidden: args.show_filtered,
    }
}
