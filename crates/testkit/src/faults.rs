//! The faults a gateway emulator shows when a test asks: the gateway down behind its front proxy
//! or failing with its own error, a call answered late, a create carried out but its answer lost.

use std::time::Duration;

use crate::http::Reply;

/// How the emulator answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Up,
    /// Every call gets a 503 from the front proxy.
    Down,
    /// Every call gets a 500 with the gateway's own error body.
    Failing,
}

pub(crate) struct Faults {
    pub(crate) mode: Mode,
    /// The next create is carried out but its answer is lost (the connection closes).
    pub(crate) lose_next_create: bool,
    /// The next call answers after this pause.
    pub(crate) delay_next: Option<Duration>,
    /// Calls that reached the emulator.
    pub(crate) arrived: usize,
}

/// The switches a test turns on a gateway emulator whose state (behind `self.state`, locked
/// with `lock`) holds `faults`: written once here for every emulator.
macro_rules! fault_switches {
    () => {
        pub fn set_mode(&self, mode: Mode) {
            lock(&self.state).faults.mode = mode;
        }

        /// The next create is carried out, its answer lost.
        pub fn lose_next_create(&self) {
            lock(&self.state).faults.lose_next_create = true;
        }

        /// The next call answers after `pause`.
        pub fn delay_next(&self, pause: std::time::Duration) {
            lock(&self.state).faults.delay_next = Some(pause);
        }

        /// How many calls reached the emulator.
        pub fn arrived(&self) -> usize {
            lock(&self.state).faults.arrived
        }
    };
}
pub(crate) use fault_switches;

/// What one call meets.
pub(crate) struct Met {
    mode: Mode,
    delay: Option<Duration>,
    lose: bool,
}

impl Faults {
    pub(crate) fn new() -> Faults {
        Faults { mode: Mode::Up, lose_next_create: false, delay_next: None, arrived: 0 }
    }

    /// Counts a call and takes the faults it meets (a lost answer only if it is a create).
    pub(crate) fn meet(&mut self, create: bool) -> Met {
        self.arrived += 1;
        let lose = create && std::mem::take(&mut self.lose_next_create);
        Met { mode: self.mode, delay: self.delay_next.take(), lose }
    }
}

impl Met {
    /// The reply to a call that met these faults: after the pause, the proxy's 503 when down,
    /// `failing` when failing, else `api`'s answer, unless that answer is to be lost.
    pub(crate) fn reply(self, failing: impl FnOnce() -> Reply, api: impl FnOnce() -> Reply) -> Reply {
        if let Some(pause) = self.delay {
            std::thread::sleep(pause);
        }
        let reply = match self.mode {
            Mode::Down => return Reply::text(503, "503 Service Temporarily Unavailable"),
            Mode::Failing => return failing(),
            Mode::Up => api(),
        };
        if self.lose { Reply::Close } else { reply }
    }
}
