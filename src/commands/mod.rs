//! One function per subcommand: each reads its inputs, drives the pipeline
//! stages and hands results to `report`. Nothing here parses or embeds itself.

pub mod doctor;
pub mod embed;
pub mod ingest;
pub mod like;
pub mod parse;
pub mod stats;

use crate::cli::{Cli, Command};

pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Parse(args) => parse::run(&args, cli.verbose),
        Command::Embed(args) => embed::run(&args, cli.verbose),
        Command::Ingest(args) => ingest::run(&args, cli.verbose),
        Command::Like(args) => like::run(&args, cli.verbose),
        Command::Stats(args) => stats::run(&args),
        Command::Doctor(args) => doctor::run(&args),
    }
}
