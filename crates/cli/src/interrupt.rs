//! Ctrl-C for the long commands (`table`, `discover`): a cancel flag that SIGINT, SIGTERM and
//! SIGHUP set, so that the computation stops at its next check, keeps its checkpoint and stores
//! nothing unfinished. As other Unix tools do, a SIGINT that was ignored when nimlab started (a
//! background job of a shell script, `nohup`) stays ignored.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The cancel flag of this run, set by the termination signals from now on.
pub fn cancel_flag() -> Arc<AtomicBool> {
    let cancel = Arc::new(AtomicBool::new(false));
    let c = cancel.clone();
    let ignored = sigint_ignored();
    let _ = ctrlc::set_handler(move || c.store(true, Ordering::Relaxed));
    if ignored {
        #[cfg(unix)]
        // SAFETY: sets the disposition of SIGINT back to what it was when the process started.
        unsafe {
            libc::signal(libc::SIGINT, libc::SIG_IGN);
        }
    }
    cancel
}

/// True when SIGINT's disposition is "ignore" (inherited from the process that started nimlab).
fn sigint_ignored() -> bool {
    #[cfg(unix)]
    {
        // SAFETY: reads the current action of SIGINT into a zeroed sigaction, changing nothing.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            libc::sigaction(libc::SIGINT, std::ptr::null(), &mut old) == 0
                && old.sa_sigaction == libc::SIG_IGN
        }
    }
    #[cfg(not(unix))]
    {
        false
    }
}
