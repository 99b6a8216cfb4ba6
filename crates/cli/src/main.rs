//! The `nimlab` command line: a thin front end over the core, the games and the theory layer.
// The doc comments of this crate are its `--help` text (clap), written for the terminal: brackets
// there are examples such as `[1,2,3]`, not links.
#![allow(rustdoc::broken_intra_doc_links)]

mod args;
mod atlas_cmd;
mod cli;
mod discover_cmd;
mod explain;
mod interrupt;
mod output;
mod play;
mod plot_cmd;
mod prove_cmd;
mod query;
mod research_cmd;
mod sequence_cmd;
mod store_cmd;
mod sums_cmd;
mod table_cmd;

use std::process::ExitCode;

fn main() -> ExitCode {
    // Behave like other Unix tools when the reader of stdout goes away (`nimlab table ... | head`):
    // end quietly instead of failing on the broken pipe.
    #[cfg(unix)]
    // SAFETY: restoring the default action of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    cli::run()
}
