//! The `nimlab` command line: a thin front end over the core, the games and the theory layer.

mod cli;
mod output;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::run()
}
