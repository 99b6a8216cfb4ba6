//! How a front end's Ctrl-C reaches a computation that takes no [`Hooks`](crate::Hooks): the
//! search, `verify`, the SMT solver's process and the automata prover. A front end runs the
//! computation inside [`scope`] with its cancel flag; the computation's own loops call
//! [`requested`] (cheap: a thread-local read) and stop with [`Error::Interrupted`](crate::Error).
//! [`Hooks::cancelled`](crate::Hooks::cancelled) also answers true inside a cancelled scope, so the
//! tables engine stops for either.
//!
//! The scope belongs to the thread that runs the computation. A computation that hands work to
//! threads of its own passes [`current`] to them (the automata prover's budget does).
//!
//! [`hold`] is the hook of the interruption tests: with `NIMLAB_HOLD_AT=<phase>` in the
//! environment, the first time a run reaches that phase it writes `nimlab: holding at <phase>` to
//! standard error and waits there until it is cancelled (at most a minute), so that a test can send
//! its signal inside a chosen phase whatever the speed of the machine. Without the variable it does
//! nothing.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

thread_local! {
    static FLAG: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Runs `f` on this thread with `flag` as its cancel flag (restoring the previous one after).
pub fn scope<T>(flag: Arc<AtomicBool>, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<Arc<AtomicBool>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let old = self.0.take();
            FLAG.with(|c| *c.borrow_mut() = old);
        }
    }
    let old = FLAG.with(|c| c.borrow_mut().replace(flag));
    let _restore = Restore(old);
    f()
}

/// The cancel flag of this thread's scope, to hand to threads a computation starts.
pub fn current() -> Option<Arc<AtomicBool>> {
    FLAG.with(|c| c.borrow().clone())
}

/// True once the flag of this thread's scope is set (false outside any scope).
pub fn requested() -> bool {
    FLAG.with(|c| {
        c.borrow()
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    })
}

/// `Err(Error::Interrupted)` once the flag of this thread's scope is set.
pub fn check() -> crate::Result<()> {
    if requested() {
        Err(crate::Error::Interrupted)
    } else {
        Ok(())
    }
}

/// The phase named by `NIMLAB_HOLD_AT`, and whether it was held already (once per process).
fn held_phase() -> &'static (Option<String>, AtomicBool) {
    static AT: OnceLock<(Option<String>, AtomicBool)> = OnceLock::new();
    AT.get_or_init(|| {
        (
            std::env::var("NIMLAB_HOLD_AT")
                .ok()
                .filter(|s| !s.is_empty()),
            AtomicBool::new(false),
        )
    })
}

/// The start of `phase` of a run whose cancellation `cancelled` tells; see the module notes.
pub fn hold(phase: &str, cancelled: &dyn Fn() -> bool) {
    let (at, done) = held_phase();
    if at.as_deref() != Some(phase) || done.swap(true, Ordering::SeqCst) {
        return;
    }
    eprintln!("nimlab: holding at {phase}");
    let end = Instant::now() + Duration::from_secs(60);
    while !cancelled() && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// [`hold`] for a run cancelled through this thread's scope.
pub fn hold_here(phase: &str) {
    hold(phase, &requested)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scope_sets_and_restores_the_flag() {
        assert!(!requested() && current().is_none());
        let outer = Arc::new(AtomicBool::new(false));
        let inner = Arc::new(AtomicBool::new(true));
        scope(outer.clone(), || {
            assert!(!requested());
            scope(inner.clone(), || {
                assert!(requested());
                assert!(check().is_err());
            });
            assert!(!requested());
            outer.store(true, Ordering::Relaxed);
            assert!(requested());
            // Another thread has no scope of its own.
            assert!(!std::thread::spawn(requested).join().unwrap());
        });
        assert!(!requested() && check().is_ok());
    }
}
