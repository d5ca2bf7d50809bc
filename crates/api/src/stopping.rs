//! The stop after SIGTERM, step by step, with a watchdog: should a step hang, the process
//! still exits, and its log says which step hung. Without it a supervisor's stop timeout
//! (or nothing at all, outside one) would be the only end, with no word of why.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// What the watchdog allows beyond the configured drain and shutdown allowances.
const MARGIN: Duration = Duration::from_secs(15);

/// The step a stop is in, shared with its watchdog.
#[derive(Clone)]
pub struct Stopping {
    step: Arc<Mutex<&'static str>>,
}

impl Stopping {
    /// Starts the watchdog: `allowed` after now (plus a margin), the process exits with code 1
    /// if it is still running. Call when the stop begins.
    pub fn begin(allowed: Duration) -> Stopping {
        let stopping = Stopping { step: Arc::new(Mutex::new("starting to stop")) };
        let watched = stopping.clone();
        let limit = allowed + MARGIN;
        // A thread of its own: it must fire even if the async runtime is what hangs.
        std::thread::spawn(move || {
            std::thread::sleep(limit);
            let step = watched.current();
            tracing::error!(step, seconds = limit.as_secs(), "the stop did not finish in time; exiting now");
            eprintln!("error: the stop did not finish within {} s (hung at: {step}); exiting", limit.as_secs());
            std::process::exit(1);
        });
        stopping
    }

    /// Enters the next step, and says so in the log.
    pub fn step(&self, step: &'static str) {
        tracing::info!("stopping: {step}");
        *self.step.lock().unwrap_or_else(PoisonError::into_inner) = step;
    }

    fn current(&self) -> &'static str {
        *self.step.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
