use crate::cli::ServeArgs;
use crate::library;
use crate::profile;
use anyhow::Result;
use std::io::Write;
use std::time::Duration;

pub fn run(args: &ServeArgs) -> Result<()> {
    profile::check_profile_name(&args.profile)?;
    let dir = library::resolve_dir(args.library.library.as_deref())?;
    let tls = match (&args.tls_cert, &args.tls_key) {
        (Some(cert), Some(key)) => Some(crate::serve::tls_config(cert, key)?),
        _ => None,
    };
    let destinations = crate::delivery::Destinations::new(&args.allow_webhook_hosts).map_err(anyhow::Error::msg)?;
    let lab_token = lab_token(args)?;
    let morning = match &args.morning {
        None => None,
        Some(at) => Some(crate::serve::MorningPlan {
            at: chrono::NaiveTime::parse_from_str(at.trim(), "%H:%M")
                .map_err(|_| anyhow::anyhow!("--morning {at:?}: give the time as HH:MM, like 07:30"))?,
            fetch: args.morning_fetch.clone(),
            fetch_opts: args.fetch_opts.clone(),
            links: match &args.link_base {
                Some(base) => crate::report::Links::to_server(base).map_err(|e| anyhow::anyhow!("--link-base: {e}"))?,
                None => crate::report::Links::default(),
            },
            profile: args.profile.clone(),
            destinations: destinations.clone(),
            lab_token,
        }),
    };
    if let (true, Some(plan)) = (args.dry_run, &morning) {
        let (day, sent) = crate::delivery::run(&plan.morning(&dir, &args.model), true)?;
        println!("{}", crate::serve::morning_summary(day, &sent));
        return Ok(());
    }
    let options = crate::serve::Options {
        dir,
        addr: args.addr.clone(),
        profile: args.profile.clone(),
        model: args.model.clone(),
        allow_hosts: args.allow_hosts.clone(),
        login: args.login,
        no_token: args.no_token,
        token_file: args.token_file.clone(),
        destinations,
        tls,
        limits: crate::serve::Limits {
            header_timeout: Duration::from_secs(args.client_timeout),
            max_connections: args.max_connections as usize,
        },
        morning,
    };
    crate::serve::run(options, |at| {
        println!("{at}");
        Ok(std::io::stdout().flush()?)
    })
}

/// The server's own chat token and the host it is for: both or neither.
fn lab_token(args: &ServeArgs) -> Result<Option<crate::delivery::LabToken>> {
    let token = std::env::var("PAPERSCOUT_POST_TOKEN").ok().map(|t| t.trim().to_string()).filter(|t| !t.is_empty());
    match (&args.post_token_host, token) {
        (Some(host), Some(token)) => Ok(Some(crate::delivery::LabToken::new(host, token)?)),
        (Some(_), None) => anyhow::bail!("--post-token-host names where PAPERSCOUT_POST_TOKEN goes, but it is not set"),
        (None, Some(_)) if args.morning.is_some() => {
            crate::messages::warning(
                "PAPERSCOUT_POST_TOKEN is set but goes nowhere: name the one host it is for with --post-token-host \
                 (readers' own webhooks never receive it)",
            );
            Ok(None)
        }
        (None, _) => Ok(None),
    }
}
