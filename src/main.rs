fn main() -> std::process::ExitCode {
    quiet_on_closed_pipe();
    let cli = paperscout::cli::parse_from(std::env::args_os());
    match paperscout::commands::run(cli) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        // `paperscout parse … | head`: the reader has what it wanted.
        Err(e) if paperscout::commands::is_broken_pipe(&e) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            paperscout::messages::error(format_args!("{e:#}"));
            std::process::ExitCode::FAILURE
        }
    }
}

/// `println!` panics when the reader of stdout has gone; that too is the
/// reader having had enough, not a failure.
fn quiet_on_closed_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
}
