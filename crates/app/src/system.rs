//! Production implementations of the clock and id ports.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::rand::{SecureRandom, SystemRandom};
use time::OffsetDateTime;
use vp_ports::{Clock, IdGenerator};

/// Wall-clock UTC time.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> OffsetDateTime {
        OffsetDateTime::now_utc()
    }
}

/// Ids and secrets from the operating system's CSPRNG.
#[derive(Debug, Clone)]
pub struct SystemIds {
    rng: SystemRandom,
}

impl SystemIds {
    pub fn new() -> Self {
        SystemIds { rng: SystemRandom::new() }
    }
}

impl Default for SystemIds {
    fn default() -> Self {
        SystemIds::new()
    }
}

impl IdGenerator for SystemIds {
    fn new_id(&self, prefix: &str) -> String {
        // 16 random bytes: collisions are out of reach, and ids leak nothing about order.
        format!("{prefix}_{}", URL_SAFE_NO_PAD.encode(self.random_bytes(16)))
    }

    fn random_bytes(&self, len: usize) -> Vec<u8> {
        let mut buf = vec![0u8; len];
        // SystemRandom fails only when the OS has no entropy source; nothing sensible can go on.
        #[expect(clippy::expect_used, reason = "no secure randomness means no safe way to continue")]
        self.rng.fill(&mut buf).expect("the operating system's random source failed");
        buf
    }
}
