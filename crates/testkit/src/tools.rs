//! Tests that need an outside tool (z3, a browser, a GPU adapter, Open MPI, ...): one rule for all.
//!
//! `NIMLAB_REQUIRE_<TOOL>` (e.g. `NIMLAB_REQUIRE_Z3`) says whether the tool must be there:
//!
//! - `1`: required: a test that cannot find it fails (CI sets this for every tool it installs);
//! - unset, empty or `0`: optional: the test prints `SKIPPED <test>: <why>` on the process's stderr
//!   (which the test harness does not capture) and passes;
//! - any other value is a mistake and fails the test, so that `NIMLAB_REQUIRE_GPU=yes` does not
//!   quietly skip.
//!
//! The Python tests (crates/python/tests) follow the same rule.

use std::io::Write;
use std::path::PathBuf;

/// The variable that says whether `tool` is required: `NIMLAB_REQUIRE_<TOOL>`.
pub fn variable(tool: &str) -> String {
    format!("NIMLAB_REQUIRE_{}", tool.to_ascii_uppercase())
}

/// True when `NIMLAB_REQUIRE_<TOOL>` is `1`, false when it is unset, empty or `0`; panics on any
/// other value.
pub fn required(tool: &str) -> bool {
    let var = variable(tool);
    match std::env::var(&var).as_deref() {
        Ok("1") => true,
        Ok("0") | Ok("") | Err(std::env::VarError::NotPresent) => false,
        Ok(other) => panic!("{var}={other}: use 1 (the tool is required) or 0 (skip without it)"),
        Err(e) => panic!("{var}: {e}"),
    }
}

/// The rule for a test `test` that needs `tool`: `found` is what the test needs (`Ok`), or why the
/// tool cannot be used (`Err`). Returns it when found; else fails when the tool is required, and
/// says `SKIPPED` and returns `None` when it is not.
pub fn need<T>(test: &str, tool: &str, found: Result<T, String>) -> Option<T> {
    match found {
        Ok(t) => Some(t),
        Err(why) if required(tool) => panic!("{test}: {}=1 but {why}", variable(tool)),
        Err(why) => {
            // Written to the process's stderr itself, which the test harness does not capture.
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED {test}: {why} (set {}=1 to make this a failure)",
                variable(tool)
            );
            None
        }
    }
}

/// The path of the program `name` on `PATH`.
pub fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variable_is_named_after_the_tool() {
        assert_eq!(variable("z3"), "NIMLAB_REQUIRE_Z3");
        assert_eq!(variable("GPU"), "NIMLAB_REQUIRE_GPU");
    }

    #[test]
    fn a_found_tool_is_returned_whatever_the_variable() {
        assert_eq!(need("t", "never-set-tool", Ok(7)), Some(7));
        assert_eq!(
            need::<u8>("t", "never-set-tool", Err("absent".into())),
            None
        );
    }
}
