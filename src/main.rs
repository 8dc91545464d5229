use clap::Parser;

fn main() -> std::process::ExitCode {
    let cli = paperscout::cli::Cli::parse();
    match paperscout::commands::run(cli) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
