//! Helpers shared by the command-line tests (`mod common;` in each file): running the `nimlab`
//! binary, reading its JSON, checking one-line errors, and temporary folders that clean up after
//! themselves.

// Each test file is its own crate and uses only some of these.
#![allow(dead_code)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `nimlab` binary under test, with the store turned off (`NIMLAB_DB=off`) so that the tests
/// never touch the user's store; a test that wants one passes `--db` or sets `NIMLAB_DB` again.
pub fn cmd() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_nimlab"));
    c.env("NIMLAB_DB", "off");
    c
}

/// Runs `nimlab ARGS` to the end.
pub fn nimlab(args: &[&str]) -> Output {
    cmd().args(args).output().expect("run nimlab")
}

/// Runs `nimlab ARGS`, which must succeed; its standard output.
pub fn ok(args: &[&str]) -> String {
    success(args, nimlab(args))
}

/// Runs `nimlab ARGS`, which must succeed and print JSON; the JSON.
pub fn json(args: &[&str]) -> Value {
    parse(args, &ok(args))
}

/// The standard output of a finished run, which must have succeeded (`what` names it in failures).
pub fn success(what: impl std::fmt::Debug, out: Output) -> String {
    assert!(
        out.status.success(),
        "{what:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap_or_else(|e| panic!("{what:?}: output is not UTF-8: {e}"))
}

/// `text` read as JSON (`what` names it in failures).
pub fn parse(what: impl std::fmt::Debug, text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{what:?}: {e}: {text}"))
}

/// Asserts that `err` is one non-empty line without a panic message.
pub fn assert_one_line(what: impl std::fmt::Debug, err: &str) {
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{what:?}: one line expected, got {err:?}"
    );
    assert!(!err.contains("panicked"), "{what:?}: {err}");
}

/// Runs `nimlab ARGS`, which must fail with exit status 2 and a one-line error mentioning `needle`.
pub fn fails(args: &[&str], needle: &str) {
    let out = nimlab(args);
    assert_eq!(out.status.code(), Some(2), "{args:?} should exit 2");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_one_line(args, &err);
    assert!(
        err.contains(needle),
        "{args:?}: {err:?} should mention {needle:?}"
    );
}

/// A fresh temporary folder for one test, removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    /// `nimlab-test-PID-NAME` in the system's temporary folder, emptied first.
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("nimlab-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
    pub fn path(&self) -> &Path {
        &self.0
    }
    /// A path inside the folder, as a string for the command line.
    pub fn file(&self, name: &str) -> String {
        self.0.join(name).to_str().unwrap().to_string()
    }
    /// Writes `text` to the file `name` in the folder; its path.
    pub fn write(&self, name: &str, text: &str) -> String {
        std::fs::write(self.0.join(name), text).unwrap();
        self.file(name)
    }
    /// A store file (`--db`) in the folder.
    pub fn db(&self) -> String {
        self.file("tables.sqlite3")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The rows of a CSV table after its header, which must be `header`.
#[allow(dead_code)]
pub fn csv_rows(text: &str, header: &str) -> Vec<String> {
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(header), "the CSV header of:\n{text}");
    lines.map(str::to_string).collect()
}

/// The first file called `name` in a folder of `PATH`.
pub fn which(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// The one store entry of `db`, without its id, time and date.
pub fn entry(db: &str) -> Value {
    let list = parse("store list", &ok(&["store", "list", "--json", "--db", db]));
    let all = list.as_array().unwrap();
    assert_eq!(all.len(), 1, "one table in {db}: {list}");
    let mut e = all[0].clone();
    for f in ["id", "seconds", "created"] {
        e.as_object_mut().unwrap().remove(f);
    }
    e
}

/// Percent done of the one checkpoint of the store `db`, if any.
pub fn progress(db: &str) -> Option<f64> {
    nimlab_tables::checkpoint::list(Path::new(db))
        .into_iter()
        .find_map(|(_, h)| h.ok())
        .map(|h| h.percent())
}

/// The `positions` of a `table --json` answer, as a set of tuples.
pub fn position_set(v: &Value) -> std::collections::BTreeSet<Vec<u64>> {
    v["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            p.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap())
                .collect()
        })
        .collect()
}

/// Starts `command` (its arguments set) with `NIMLAB_HOLD_AT=phase` and SIGINT at `sigint` in the
/// child (a test run started in the background inherits SIGINT ignored, and nimlab keeps an ignored
/// SIGINT ignored), and returns once the run says it holds at `phase`: the child (killed if the hold
/// never comes) and the receiver of the rest of its standard error.
#[cfg(unix)]
pub fn spawn_held(
    mut command: Command,
    phase: &str,
    sigint: libc::sighandler_t,
) -> (std::process::Child, std::sync::mpsc::Receiver<String>) {
    use std::io::BufRead;
    use std::os::unix::process::CommandExt;
    use std::process::Stdio;
    command
        .env("NIMLAB_HOLD_AT", phase)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    // SAFETY: only sets a signal's action in the child between fork and exec.
    unsafe {
        command.pre_exec(move || {
            libc::signal(libc::SIGINT, sigint);
            Ok(())
        });
    }
    let mut child = command.spawn().unwrap();
    let err = std::io::BufReader::new(child.stderr.take().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in err.lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let held = format!("nimlab: holding at {phase}");
    loop {
        match rx.recv_timeout(std::time::Duration::from_secs(120)) {
            Ok(line) if line == held => break,
            Ok(_) => {}
            Err(e) => {
                let _ = child.kill();
                panic!("the run never held at {phase}: {e}");
            }
        }
    }
    (child, rx)
}
