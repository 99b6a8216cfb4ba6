//! The external SMT solver: a `z3 -in -smt2` process per query, with z3's own time limit (`-T:`) and a
//! watchdog that ends the process a little later should it not stop by itself.

use nimlab_core::{interrupt, Error, Result};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How to run the solver.
#[derive(Debug, Clone)]
pub struct Solver {
    /// The executable (`z3` on the PATH by default).
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
    /// No answer: the reason (`timeout`, or the solver's own reason).
    Unknown(String),
}

/// The one-line message for a missing solver.
pub fn install_hint(path: &std::path::Path) -> String {
    format!(
        "no SMT solver: {} could not be run; install z3 (Debian/Ubuntu: apt-get install z3) or pass --solver PATH",
        path.display()
    )
}

impl Default for Solver {
    fn default() -> Solver {
        Solver {
            path: PathBuf::from("z3"),
            timeout: Duration::from_secs(120),
            deadline: None,
        }
    }
}

impl Solver {
    /// Runs `body` (declarations and assertions) with `check-sat`; when satisfiable, reads the values of
    /// `vars`. Returns the answer and the time the solver took.
    pub fn check(&self, body: &str, vars: &[String]) -> Result<(Answer, Duration)> {
        self.check_with(body, "(check-sat)", vars)
    }

    /// As [`Solver::check`], deciding with the command `check` (e.g. `(check-sat-using qsat)`).
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
        // z3 counts whole seconds (at least one); the watchdog below ends the process half a second
        // after the limit when a deadline is given, five seconds after it otherwise.
        let secs = limit.as_secs().max(1);
        let mut child = Command::new(&self.path)
            .args(["-in", "-smt2", &format!("-T:{secs}")])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|_| Error::Unsupported(install_hint(&self.path)))?;
        let (feed, writer) = feeder(child.stdin.take().expect("piped stdin"));
        let send = |text: String| {
            let _ = feed.send(text);
        };
        let stdout = child.stdout.take().expect("piped stdout");
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
        // The next line of output; none at the deadline, at the end of the output, or once the
        // caller's cancel scope is cancelled (then `interrupted` is set).
        let interrupted = std::cell::Cell::new(false);
        let next = |rx: &mpsc::Receiver<String>| -> Option<String> {
            loop {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return None;
                }
                match rx.recv_timeout(left.min(Duration::from_millis(50))) {
                    Ok(line) => return Some(line),
                    Err(mpsc::RecvTimeoutError::Timeout) if interrupt::requested() => {
                        interrupted.set(true);
                        return None;
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    Err(mpsc::RecvTimeoutError::Disconnected) => return None,
                }
            }
        };
        let result = (|| -> Result<Answer> {
            send(format!("{body}{check}\n"));
            interrupt::hold_here("solver");
            let answer = loop {
                let Some(line) = next(&rx) else {
                    return Ok(Answer::Unknown("timeout".into()));
                };
                let line = line.trim().to_string();
                if line.starts_with("(error") {
                    return Err(Error::Unsupported(format!(
                        "the solver rejected a query nimlab wrote (a bug in prove's encoding): {line}"
                    )));
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
                            return Ok(Answer::Unknown("timeout".into()));
                        };
                        text.push_str(&line);
                        text.push('\n');
                    }
                    parse_values(&text, vars).map(Answer::Sat)
                }
                other => Err(Error::Unsupported(format!(
                    "the solver answered {other:?} instead of sat, unsat or unknown"
                ))),
            }
        })();
        send("(exit)\n".into());
        drop(feed);
        // Wait for the process until the deadline, then end it.
        loop {
            match child.try_wait() {
                Ok(Some(_)) => break,
                Ok(None) if Instant::now() < deadline && !interrupted.get() => {
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
        if interrupted.get() {
            return Err(Error::Interrupted);
        }
        Ok((result?, start.elapsed()))
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
        let s = Solver {
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
        let s = Solver {
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
        let s = Solver {
            path: PathBuf::from("/nonexistent/z3"),
            timeout: Duration::from_secs(60),
            deadline: Some(Instant::now() + Duration::from_secs(60)),
        };
        assert!(s.check("(assert true)", &[]).is_err());
    }
}
