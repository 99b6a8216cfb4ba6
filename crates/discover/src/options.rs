//! How a discovery runs ([`Options`]: the boxes, the time limit, the solver, the store, the file,
//! progress and cancellation) and why it stops ([`Stopper`]: the caller's cancel flag or the
//! deadline, polled by a watchdog).

use nimlab_core::Play;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A receiver of progress lines.
pub type ProgressFn = Arc<dyn Fn(&str) + Send + Sync>;

/// How to run a discovery.
#[derive(Clone)]
pub struct Options {
    /// The largest box entry to tabulate (None: the largest box of at most [`DEFAULT_POSITIONS`]
    /// positions per length).
    pub max: Option<u64>,
    /// The time limit of the whole run.
    pub timeout: Duration,
    /// The SMT solver's executable.
    pub solver: PathBuf,
    /// The store of solved tables (None: neither read nor write one).
    pub store: Option<PathBuf>,
    /// Set from another thread (Ctrl-C) to stop; the run then returns `Error::Interrupted`.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Progress lines (for stderr).
    pub progress: Option<ProgressFn>,
    /// The work budget of one table (estimated steps), as `nimlab table --limit`.
    pub limit: f64,
    /// Normal or misère play (the tables, the families' proof and the automaton route follow it).
    pub play: Play,
    /// The redistribution chip games: the most chips in all of the largest box (None: the largest
    /// box of at most [`crate::chips::DEFAULT_POSITIONS`] positions). Box games take `max` instead.
    pub max_sum: Option<u64>,
    /// nim and moore(k): the number of heaps.
    pub heaps: Option<usize>,
    /// Where to write the description found (a families file, an automaton or a chip families
    /// file), if anywhere.
    pub out: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max: None,
            timeout: Duration::from_secs(600),
            solver: PathBuf::from("z3"),
            store: None,
            cancel: None,
            progress: None,
            limit: nimlab_core::Budget::default().limit,
            play: Play::Normal,
            max_sum: None,
            heaps: None,
            out: None,
        }
    }
}

/// Default bound on the positions of the largest box (per length).
pub const DEFAULT_POSITIONS: u128 = 120_000_000;

/// Why the run stops: the caller's cancel flag or the deadline.
pub(crate) struct Stopper {
    cancel: Option<Arc<AtomicBool>>,
    pub(crate) deadline: Instant,
    /// Set by a watchdog thread when either fires (the tables engine polls one flag).
    pub(crate) halt: Arc<AtomicBool>,
    done: Arc<AtomicBool>,
}

impl Stopper {
    pub(crate) fn new(cancel: Option<Arc<AtomicBool>>, deadline: Instant) -> Stopper {
        let halt = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let (h, d, c) = (halt.clone(), done.clone(), cancel.clone());
        std::thread::spawn(move || {
            while !d.load(Ordering::Relaxed) {
                if Instant::now() >= deadline
                    || c.as_ref().is_some_and(|c| c.load(Ordering::Relaxed))
                {
                    h.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        Stopper {
            cancel,
            deadline,
            halt,
            done,
        }
    }
    pub(crate) fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }
    pub(crate) fn stop(&self) -> bool {
        self.cancelled() || Instant::now() >= self.deadline
    }
}

impl Drop for Stopper {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
    }
}
