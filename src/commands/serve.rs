use crate::cli::ServeArgs;
use crate::library;
use crate::profile;
use anyhow::Result;
use std::time::Duration;

pub fn run(args: &ServeArgs, verbose: bool) -> Result<()> {
    profile::check_profile_name(&args.profile)?;
    let dir = library::resolve_dir(args.library.library.as_deref())?;
    let tls = match (&args.tls_cert, &args.tls_key) {
        (Some(cert), Some(key)) => Some(crate::serve::tls_config(cert, key)?),
        _ => None,
    };
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
        }),
    };
    if let (true, Some(plan)) = (args.dry_run, &morning) {
        let m = crate::morning::Morning {
            dir: &dir,
            fetch: &plan.fetch,
            fetch_opts: &plan.fetch_opts,
            model: &args.model,
            links: &plan.links,
            profile: &plan.profile,
        };
        let (day, sent) = crate::morning::run(&m, true)?;
        println!("{}", crate::serve::morning_summary(&day, &sent));
        return Ok(());
    }
    crate::serve::run(crate::serve::Options {
        dir,
        addr: args.addr.clone(),
        profile: args.profile.clone(),
        model: args.model.clone(),
        verbose,
        allow_hosts: args.allow_hosts.clone(),
        login: args.login,
        no_token: args.no_token,
        tls,
        limits: crate::serve::Limits {
            header_timeout: Duration::from_secs(args.client_timeout),
            max_connections: args.max_connections as usize,
        },
        morning,
    })
}
