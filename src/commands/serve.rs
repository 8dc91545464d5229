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
    })
}
