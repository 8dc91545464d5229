use crate::cli::DailyArgs;
use crate::delivery::{self, mail};
use crate::library::store::ProfileKey;
use crate::library::{self, Library};
use crate::report;
use crate::workflow::day;
use crate::workflow::digest::{self, DayOptions};
use crate::workflow::neighbours;
use anyhow::{bail, Context, Result};
use std::io::Write;
use std::time::Instant;

pub fn run(args: &DailyArgs, profile: &ProfileKey) -> Result<()> {
    let start = Instant::now();
    // Checked before any fetching or ranking: a typo costs nothing.
    let links = links(args)?;
    let dir = library::resolve_dir(args.library.library.as_deref())?;
    let mut file_day = None;
    if !args.fetch.is_empty() {
        match day::fetch_day(&args.fetch, &args.fetch_opts, &dir, &args.model, profile)? {
            Some(d) => file_day = Some(d),
            // No announcements today: the message is out, and there is no new digest.
            None => return Ok(()),
        }
    }
    if !args.files.is_empty() {
        file_day = day::ingest_day_files(&args.files, &dir, &args.model, profile)?;
    }
    let lib = Library::open_read(&dir)?;
    let since = args.since.as_deref().map(neighbours::parse_day).transpose()?;
    let date = args.date.as_deref().map(neighbours::parse_day).transpose()?;
    let days = digest::choose_days(&lib, since, date, file_day)?;
    let ranking = digest::Ranking::open(&lib)?;
    let digest = ranking.days(&lib, &days, &options(args, profile))?;
    if digest.cold {
        bail!("profile {:?} has no liked seeds; add some with `paperscout seed add ID|FILE|--text …` or rate papers", profile.as_str());
    }
    crate::messages::detail(format_args!("ranked {} entries in {:.0} ms", digest.candidates, start.elapsed().as_secs_f64() * 1e3));
    let platform = match &args.post {
        Some(url) => Some(chat_platform(args.format, url)?),
        None => None,
    };
    let buf = delivery::render(args.format, &digest, &links)?;
    match &args.out {
        Some(path) => {
            // Written whole and renamed, so a reader never sees half a digest.
            let tmp = path.with_extension("tmp");
            std::fs::write(&tmp, &buf).with_context(|| format!("cannot write {}", tmp.display()))?;
            std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
        }
        // Mailed or posted from cron, the digest need not also land in cron's own mail.
        None if !args.mail_to.is_empty() || args.post.is_some() => {}
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(&buf)?;
            out.flush()?;
        }
    }
    if let (Some(url), Some(platform)) = (&args.post, platform) {
        let token = post_token(args)?;
        if platform == delivery::chat::Platform::Matrix && token.is_none() {
            bail!("posting to Matrix needs the room's access token: set PAPERSCOUT_POST_TOKEN or give --post-token-file");
        }
        let target = crate::delivery::push::Target { url, platform, token: token.as_deref() };
        let n = crate::delivery::push::post(&target, &digest, &links)?;
        crate::messages::detail(format_args!("posted {} picks to {} in {n} message(s)", digest.picks.len(), platform.name()));
    }
    if !args.mail_to.is_empty() {
        let delivery = mail::Delivery { smtp: args.smtp.as_deref(), from: args.mail_from.as_deref(), to: &args.mail_to };
        mail::send(&delivery, mail::Letter::of(&digest, &links)?)?;
        crate::messages::detail(format_args!("mailed {} picks to {}", digest.picks.len(), args.mail_to.join(", ")));
    }
    Ok(())
}

/// The platform `--post` goes to: the chat format asked for, else the one a
/// well-known webhook address names.
fn chat_platform(format: delivery::DigestFormat, url: &str) -> Result<delivery::chat::Platform> {
    use delivery::chat::Platform;
    if let Some(p) = format.platform() {
        return Ok(p);
    }
    let parsed = url::Url::parse(url.trim()).ok();
    let host = parsed.as_ref().and_then(|u| u.host_str()).unwrap_or_default().to_ascii_lowercase();
    let path = parsed.as_ref().map(|u| u.path().to_string()).unwrap_or_default();
    if format == delivery::DigestFormat::Table {
        if host == "hooks.slack.com" {
            return Ok(Platform::Slack);
        }
        if matches!(host.as_str(), "discord.com" | "discordapp.com") && path.starts_with("/api/webhooks/") {
            return Ok(Platform::Discord);
        }
        if path.contains("/_matrix/client/") {
            return Ok(Platform::Matrix);
        }
        if host == "ntfy.sh" {
            return Ok(Platform::Ntfy);
        }
    }
    bail!("--post sends a chat message: say which with --format slack, discord, matrix or ntfy")
}

/// The bearer token for `--post`: from the file given, else the environment.
fn post_token(args: &DailyArgs) -> Result<Option<String>> {
    let token = match &args.post_token_file {
        Some(f) => Some(std::fs::read_to_string(f).with_context(|| format!("cannot read the token file {}", f.display()))?),
        None => std::env::var("PAPERSCOUT_POST_TOKEN").ok(),
    };
    Ok(token.map(|t| t.trim().to_string()).filter(|t| !t.is_empty()))
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
        bar: args.bar,
        all: args.all,
    }
}
