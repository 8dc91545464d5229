use crate::cli::ServeArgs;
use crate::library;
use crate::profile;
use anyhow::Result;

pub fn run(args: &ServeArgs, verbose: bool) -> Result<()> {
    profile::check_profile_name(&args.profile)?;
    let dir = library::resolve_dir(args.library.library.as_deref())?;
    crate::serve::run(crate::serve::Options {
        dir,
        addr: args.addr.clone(),
        profile: args.profile.clone(),
        model: args.model.clone(),
        verbose,
    })
}
