//! The external SMT solver: one process per query, reading SMT-LIB 2 on its standard input. z3 and
//! cvc5 are run with their own per-query time limit and option syntax ([`Dialect`]); any other
//! SMT-LIB 2 solver that reads its standard input is run without options. A watchdog ends the
//! process a little after the limit should it not stop by itself; the caller's cancel scope
//! ([`nimlab_core::interrupt`]) ends it at once. A solver that fails (refuses its options, exits
//! without answering, reports an error) gives an unknown answer that says so, never "timeout".

use nimlab_core::{interrupt, Error, Result};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How to run the solver.
#[derive(Debug, Clone)]
pub struct SmtSolver {
    /// The executable (`z3` on the PATH by default; `cvc5`, or any SMT-LIB 2 solver).
    pub path: PathBuf,
    /// Time limit of one query.
    pub timeout: Duration,
    /// When given, the end of the whole run: each query gets at most the time left before it, and
    /// once it has passed a query answers unknown (`timeout`) without running the solver.
    pub deadline: Option<Instant>,
}

/// The solver's answer to one query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    Unsat,
    /// Satisfiable, with the values of the requested variables in order.
    Sat(Vec<i128>),
    /// No answer: the reason (`timeout`, the solver's own reason, or how the solver failed).
    Unknown(String),
}

impl Answer {
    /// `unsat`, `sat` or `unknown`, as the solver says it.
    pub fn word(&self) -> &'static str {
        match self {
            Answer::Unsat => "unsat",
            Answer::Sat(_) => "sat",
            Answer::Unknown(_) => "unknown",
        }
    }
}

/// The command-line conventions of a solver, told by its executable's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// `z3 -in -smt2 -T:SECONDS`; decides `(check-sat-using qsat)`.
    Z3,
    /// `cvc5 --lang=smt2 --incremental --produce-models --tlimit-per=MS`.
    Cvc5,
    /// Any other solver: the script on standard input, no options, plain `(check-sat)`.
    Other,
}

impl Dialect {
    /// By the executable's file name: `z3…` is z3, `cvc5…` is cvc5, anything else [`Dialect::Other`].
    pub fn of(path: &Path) -> Dialect {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        if name.starts_with("z3") {
            Dialect::Z3
        } else if name.starts_with("cvc5") {
            Dialect::Cvc5
        } else {
            Dialect::Other
        }
    }

    /// The arguments that make the solver read SMT-LIB 2 from standard input, answer each command
    /// as it comes and stop a query after `limit`.
    pub fn args(self, limit: Duration) -> Vec<String> {
        match self {
            Dialect::Z3 => vec![
                "-in".into(),
                "-smt2".into(),
                format!("-T:{}", limit.as_secs().max(1)),
            ],
            Dialect::Cvc5 => vec![
                "--lang=smt2".into(),
                "--incremental".into(),
                "--produce-models".into(),
                format!("--tlimit-per={}", limit.as_millis().max(1)),
            ],
            Dialect::Other => vec![],
        }
    }

    /// The command that decides a query: z3 takes nimlab's `check` as written; the others get
    /// plain `(check-sat)` for z3's `(check-sat-using …)`.
    pub fn check(self, check: &str) -> &str {
        if self != Dialect::Z3 && check.trim_start().starts_with("(check-sat-using") {
            "(check-sat)"
        } else {
            check
        }
    }

    /// The command that prints the solver's version, as a reader of a certificate runs it.
    pub fn version_args(self) -> &'static [&'static str] {
        match self {
            Dialect::Z3 => &["-version"],
            Dialect::Cvc5 | Dialect::Other => &["--version"],
        }
    }
}

/// The one-line refusal for a missing solver (it names the option that chooses another).
pub fn install_hint(path: &std::path::Path) -> Error {
    let name = match Dialect::of(path) {
        Dialect::Cvc5 => "cvc5",
        _ => "z3",
    };
    Error::refused(
        nimlab_core::Refusal::new(format!(
            "no SMT solver: {} could not be run; install {name} (Debian/Ubuntu: apt-get install {name}) or give ",
            path.display()
        ))
        .given(nimlab_core::Arg::Solver),
    )
}

impl Default for SmtSolver {
    fn default() -> SmtSolver {
        SmtSolver {
            path: PathBuf::from("z3"),
            timeout: Duration::from_secs(120),
            deadline: None,
        }
    }
}

impl SmtSolver {
    /// A solver at `path` with a time limit per query.
    pub fn new(path: impl Into<PathBuf>, timeout: Duration) -> SmtSolver {
        SmtSolver {
            path: path.into(),
            timeout,
            deadline: None,
        }
    }

    pub fn dialect(&self) -> Dialect {
        Dialect::of(&self.path)
    }

    /// The solver's name as its executable is called (`z3`, `cvc5`, ...).
    pub fn name(&self) -> String {
        self.path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.path.display().to_string())
    }

    /// The first line the solver prints for its version (`Z3 version 4.8.12 - 64 bit`, `This is
    /// cvc5 version 1.0.3`); an error when it cannot be run.
    pub fn version(&self) -> Result<String> {
        let out = Command::new(&self.path)
            .args(self.dialect().version_args())
            .stdin(Stdio::null())
            .output()
            .map_err(|_| install_hint(&self.path))?;
        let text = String::from_utf8_lossy(&out.stdout);
        Ok(text.lines().next().unwrap_or("").trim().to_string())
    }

    /// Runs `body` (declarations and assertions) with `check-sat`; when satisfiable, reads the values of
    /// `vars`. Returns the answer and the time the solver took.
    pub fn check(&self, body: &str, vars: &[String]) -> Result<(Answer, Duration)> {
        self.check_with(body, "(check-sat)", vars)
    }

    /// As [`SmtSolver::check`], deciding with the command `check` (e.g. `(check-sat-using qsat)`, which
    /// a solver other than z3 is given as `(check-sat)`).
    pub fn check_with(
        &self,
        body: &str,
        check: &str,
        vars: &[String],
    ) -> Result<(Answer, Duration)> {
        let start = Instant::now();
        let mut limit = self.timeout;
        if let Some(end) = self.deadline {
            let left = end.saturating_duration_since(start);
            if left.is_zero() {
                return Ok((Answer::Unknown("timeout".into()), Duration::ZERO));
            }
            limit = limit.min(left);
        }
        let dialect = self.dialect();
        let check = dialect.check(check);
        let name = self.name();
        // The watchdog below ends the process half a second after the limit when a deadline is
        // given, five seconds after it otherwise.
        let mut child = Command::new(&self.path)
            .args(dialect.args(limit))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|_| install_hint(&self.path))?;
        let (feed, writer) = feeder(child.stdin.take().expect("piped stdin"));
        let send = |text: String| {
            let _ = feed.send(text);
        };
        let stdout = child.stdout.take().expect("piped stdout");
        let mut stderr = child.stderr.take().expect("piped stderr");
        let errors = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        let (tx, rx) = mpsc::channel::<String>();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let grace = if self.deadline.is_some() {
            Duration::from_millis(500)
        } else {
            Duration::from_secs(5)
        };
        let deadline = start + limit + grace;
        // Why no line came: the deadline, the end of the output (the solver exited), or the
        // caller's cancel scope.
        #[derive(Clone, Copy, PartialEq)]
        enum Silence {
            Deadline,
            Ended,
            Interrupted,
        }
        let silence = std::cell::Cell::new(None);
        let next = |rx: &mpsc::Receiver<String>| -> Option<String> {
            loop {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    silence.set(Some(Silence::Deadline));
                    return None;
                }
                match rx.recv_timeout(left.min(Duration::from_millis(50))) {
                    Ok(line) => return Some(line),
                    Err(mpsc::RecvTimeoutError::Timeout) if interrupt::requested() => {
                        silence.set(Some(Silence::Interrupted));
                        return None;
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        silence.set(Some(Silence::Ended));
                        return None;
                    }
                }
            }
        };
        // The answer when no line came (the solver's failure is completed below from its stderr).
        let silent = || -> Answer {
            match silence.get() {
                Some(Silence::Ended) => Answer::Unknown(format!("{name} ended without an answer")),
                _ => Answer::Unknown("timeout".into()),
            }
        };
        let result = (|| -> Result<Answer> {
            send(format!("{body}{check}\n"));
            interrupt::hold_here("solver");
            let answer = loop {
                let Some(line) = next(&rx) else {
                    return Ok(silent());
                };
                let line = line.trim().to_string();
                if line.starts_with("(error") {
                    if dialect == Dialect::Z3 {
                        return Err(Error::Unsupported(format!(
                            "the solver rejected a query nimlab wrote (a bug in prove's encoding): {line}"
                        )));
                    }
                    return Ok(Answer::Unknown(format!("{name} reported an error: {line}")));
                }
                if !line.is_empty() {
                    break line;
                }
            };
            match answer.as_str() {
                "unsat" => Ok(Answer::Unsat),
                "timeout" => Ok(Answer::Unknown("timeout".into())),
                "unknown" => {
                    send("(get-info :reason-unknown)\n".into());
                    let why = next(&rx).unwrap_or_default();
                    Ok(Answer::Unknown(reason(&why)))
                }
                "sat" => {
                    if vars.is_empty() {
                        return Ok(Answer::Sat(vec![]));
                    }
                    send(format!("(get-value ({}))\n", vars.join(" ")));
                    let mut text = String::new();
                    while depth(&text) != Some(0) {
                        let Some(line) = next(&rx) else {
                            return Ok(silent());
                        };
                        text.push_str(&line);
                        text.push('\n');
                    }
                    parse_values(&text, vars).map(Answer::Sat)
                }
                other => Ok(Answer::Unknown(format!(
                    "{name} answered {other:?} instead of sat, unsat or unknown"
                ))),
            }
        })();
        send("(exit)\n".into());
        drop(feed);
        let interrupted = silence.get() == Some(Silence::Interrupted);
        // Wait for the process until the deadline, then end it.
        let mut status = None;
        loop {
            match child.try_wait() {
                Ok(Some(s)) => {
                    status = Some(s);
                    break;
                }
                Ok(None) if Instant::now() < deadline && !interrupted => {
                    std::thread::sleep(Duration::from_millis(10))
                }
                _ => {
                    let _ = child.kill();
                    let _ = child.wait();
                    break;
                }
            }
        }
        let _ = reader.join();
        let _ = writer.join();
        let errors = errors.join().unwrap_or_default();
        if interrupted {
            return Err(Error::Interrupted);
        }
        let result = match result? {
            // A solver that ended without answering: say how, with its own first line of error.
            Answer::Unknown(why) if silence.get() == Some(Silence::Ended) => {
                let code = status
                    .and_then(|s| s.code())
                    .map(|c| format!(" (exit status {c})"))
                    .unwrap_or_default();
                let said = errors
                    .lines()
                    .map(str::trim)
                    .find(|l| !l.is_empty())
                    .map(|l| format!(": {l}"))
                    .unwrap_or_default();
                Answer::Unknown(format!("{why}{code}{said}"))
            }
            other => other,
        };
        Ok((result, start.elapsed()))
    }
}

/// A thread that writes what it is sent to the solver's input, in order, and stops at the first
/// failed write (the solver has exited: its output then ends, which the reader notices). SIGPIPE is
/// blocked in that thread only, so a solver that exits early (its own time limit) makes the write
/// fail with EPIPE instead of ending nimlab, whose main thread keeps SIGPIPE's default action for
/// closed output pipes.
fn feeder(
    mut stdin: std::process::ChildStdin,
) -> (mpsc::Sender<String>, std::thread::JoinHandle<()>) {
    let (tx, rx) = mpsc::channel::<String>();
    let handle = std::thread::spawn(move || {
        #[cfg(unix)]
        // SAFETY: changes the signal mask of this thread only, with a set built by sigemptyset.
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, libc::SIGPIPE);
            libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
        }
        for text in rx {
            if stdin.write_all(text.as_bytes()).is_err() || stdin.flush().is_err() {
                break;
            }
        }
    });
    (tx, handle)
}

/// The reason in `(:reason-unknown "...")`.
fn reason(text: &str) -> String {
    let r = text
        .trim()
        .trim_start_matches("(:reason-unknown")
        .trim_end_matches(')')
        .trim()
        .trim_matches('"');
    match r {
        "" => "unknown".into(),
        "canceled" | "timeout" => "timeout".into(),
        other => other.to_string(),
    }
}

/// Parenthesis depth of `text` once it has started a list; `None` before the first `(`.
fn depth(text: &str) -> Option<i64> {
    let mut d = 0i64;
    let mut seen = false;
    for ch in text.chars() {
        match ch {
            '(' => {
                d += 1;
                seen = true;
            }
            ')' => d -= 1,
            _ => {}
        }
    }
    seen.then_some(d)
}

/// The values in a `get-value` answer `((x0 3) (x1 (- 2)) ...)`, in the order of `vars`.
pub fn parse_values(text: &str, vars: &[String]) -> Result<Vec<i128>> {
    if text.trim_start().starts_with("(error") {
        return Err(Error::Unsupported(format!(
            "the solver could not give the model (a bug in prove's encoding): {}",
            text.trim()
        )));
    }
    let spaced = text.replace('(', " ( ").replace(')', " ) ");
    let toks: Vec<&str> = spaced.split_whitespace().collect();
    let bad = || Error::Unsupported(format!("cannot read the solver's values: {}", text.trim()));
    let mut out = Vec::new();
    for v in vars {
        let at = toks
            .windows(2)
            .position(|w| w[0] == "(" && w[1] == v.as_str())
            .ok_or_else(bad)?;
        let rest = &toks[at + 2..];
        let val: i128 = match rest {
            ["(", "-", n, ")", ..] => -n.parse::<i128>().map_err(|_| bad())?,
            // A bit-vector `(_ bvN W)`, `#b0101` or `#x0f`, read as a signed (two's complement) value.
            ["(", "_", n, w, ")", ..] if n.starts_with("bv") => {
                let w: u32 = w.parse().map_err(|_| bad())?;
                signed(n[2..].parse::<u128>().map_err(|_| bad())?, w).ok_or_else(bad)?
            }
            [n, ..] if n.starts_with("#b") => {
                let v = u128::from_str_radix(&n[2..], 2).map_err(|_| bad())?;
                signed(v, (n.len() - 2) as u32).ok_or_else(bad)?
            }
            [n, ..] if n.starts_with("#x") => {
                let v = u128::from_str_radix(&n[2..], 16).map_err(|_| bad())?;
                signed(v, 4 * (n.len() - 2) as u32).ok_or_else(bad)?
            }
            [n, ..] => n.parse::<i128>().map_err(|_| bad())?,
            _ => return Err(bad()),
        };
        out.push(val);
    }
    Ok(out)
}

/// The two's complement value of the `w`-bit word `v` (1 <= w <= 127).
fn signed(v: u128, w: u32) -> Option<i128> {
    if w == 0 || w > 127 || v >> w != 0 {
        return None;
    }
    let v = v as i128;
    Some(if v >> (w - 1) & 1 == 1 {
        v - (1i128 << w)
    } else {
        v
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_values() {
        let vars: Vec<String> = ["x0", "x1", "x10"].iter().map(|s| s.to_string()).collect();
        let v = parse_values("((x0 3)\n (x1 (- 2))\n (x10 0))", &vars).unwrap();
        assert_eq!(v, vec![3, -2, 0]);
        assert!(parse_values("((x0 3))", &vars).is_err());
        assert!(parse_values("(error \"model is not available\")", &vars).is_err());
        assert_eq!(depth("((x0 3)\n"), Some(1));
        assert_eq!(depth("((x0 3))"), Some(0));
        assert_eq!(reason("(:reason-unknown \"canceled\")"), "timeout");
        let bv = parse_values("((x0 #b0101)\n (x1 #xfe)\n (x10 (_ bv3 6)))", &vars).unwrap();
        assert_eq!(bv, vec![5, -2, 3]);
    }

    #[test]
    fn missing_solver_is_one_line() {
        let s = SmtSolver {
            path: PathBuf::from("/nonexistent/z3"),
            timeout: Duration::from_secs(1),
            deadline: None,
        };
        let e = s.check("", &[]).unwrap_err().to_string();
        assert!(e.contains("apt-get install z3"), "{e}");
        assert_eq!(e.lines().count(), 1);
    }

    #[test]
    fn a_passed_deadline_answers_unknown_without_the_solver() {
        // The path does not exist: a query that ran the solver would be an error.
        let s = SmtSolver {
            path: PathBuf::from("/nonexistent/z3"),
            timeout: Duration::from_secs(60),
            deadline: Some(Instant::now()),
        };
        let (a, took) = s.check("(assert true)", &[]).unwrap();
        assert_eq!(a, Answer::Unknown("timeout".into()));
        assert_eq!(took, Duration::ZERO);
    }

    #[test]
    fn a_deadline_ahead_still_runs_the_query() {
        let s = SmtSolver {
            path: PathBuf::from("/nonexistent/z3"),
            timeout: Duration::from_secs(60),
            deadline: Some(Instant::now() + Duration::from_secs(60)),
        };
        assert!(s.check("(assert true)", &[]).is_err());
    }
}
