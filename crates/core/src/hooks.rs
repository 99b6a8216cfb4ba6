//! One way for every long computation of the workspace (the search, the tables engine, the plain
//! tabulation, `verify`) to report progress and to be stopped: a [`Hooks`] value that the front end
//! fills in (a progress bar and Ctrl-C in the CLI, a Python callback, nothing at all in tests).

use std::sync::atomic::{AtomicBool, Ordering};

/// Cancellation and progress for a run. `Hooks::default()` has neither.
#[derive(Clone, Copy, Default)]
pub struct Hooks<'a> {
    /// Set to true from another thread to stop the run early.
    pub cancel: Option<&'a AtomicBool>,
    /// Called now and then with (work done, work in all), in the run's own unit (positions, lines).
    pub progress: Option<&'a (dyn Fn(u64, u64) + Sync)>,
}

impl<'a> Hooks<'a> {
    /// Hooks with a cancel flag and a progress callback.
    pub fn new(
        cancel: Option<&'a AtomicBool>,
        progress: Option<&'a (dyn Fn(u64, u64) + Sync)>,
    ) -> Hooks<'a> {
        Hooks { cancel, progress }
    }

    /// True once the cancel flag is set, or the cancel scope of this thread
    /// ([`crate::interrupt::scope`]) is cancelled.
    pub fn cancelled(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) || crate::interrupt::requested()
    }

    /// The start of a named phase of the run, for the interruption tests
    /// ([`crate::interrupt::hold`]).
    pub fn phase(&self, name: &str) {
        crate::interrupt::hold(name, &|| self.cancelled())
    }

    /// Reports progress, when a callback is set.
    pub fn report(&self, done: u64, total: u64) {
        if let Some(f) = self.progress {
            f(done, total);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    #[test]
    fn hooks_report_and_cancel() {
        let flag = AtomicBool::new(false);
        let seen = AtomicU64::new(0);
        let f = |d: u64, t: u64| seen.store(d * 100 + t, Ordering::Relaxed);
        let h = Hooks::new(Some(&flag), Some(&f));
        assert!(!h.cancelled());
        h.report(3, 7);
        assert_eq!(seen.load(Ordering::Relaxed), 307);
        flag.store(true, Ordering::Relaxed);
        assert!(h.cancelled());
        let none = Hooks::default();
        assert!(!none.cancelled());
        none.report(1, 1);
    }
}
