//! How the embedded stand-ins for external systems (sandbox gateway, local panel) are told to
//! misbehave, so tests and partners can reach the 503 paths end to end. The operator sets the
//! mode; it lives in the settings table so every process sees it.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::store::Store;

pub const GATEWAY_MODE_KEY: &str = "sandbox_gateway_mode";
pub const PANEL_MODE_KEY: &str = "local_panel_mode";

/// `up`, `down` (does not answer), or `slow:<ms>` (answers after a pause).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StandInMode {
    #[default]
    Up,
    Down,
    Slow(Duration),
}

impl FromStr for StandInMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "up" => Ok(StandInMode::Up),
            "down" => Ok(StandInMode::Down),
            _ => s
                .strip_prefix("slow:")
                .and_then(|ms| ms.parse::<u64>().ok())
                .filter(|ms| *ms <= 120_000)
                .map(|ms| StandInMode::Slow(Duration::from_millis(ms)))
                .ok_or_else(|| format!("mode must be up, down or slow:<milliseconds up to 120000>, not {s:?}")),
        }
    }
}

impl fmt::Display for StandInMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StandInMode::Up => f.write_str("up"),
            StandInMode::Down => f.write_str("down"),
            StandInMode::Slow(d) => write!(f, "slow:{}", d.as_millis()),
        }
    }
}

/// Reads a stand-in's mode; a missing or unreadable setting means `up`.
pub async fn read_mode(store: &dyn Store, key: &str) -> StandInMode {
    let Ok(mut tx) = store.read().await else { return StandInMode::Up };
    let value = tx.setting(key).await.ok().flatten();
    let _ = tx.commit().await;
    value.and_then(|v| v.value.parse().ok()).unwrap_or_default()
}

/// How long a stand-in trusts the mode it read; a switch reaches every process within this.
pub const MODE_CACHE_TTL: Duration = Duration::from_secs(1);

/// A stand-in's mode, re-read from the settings at most once per `MODE_CACHE_TTL`, so the
/// switch costs no query on the hot path.
pub struct ModeCache {
    key: &'static str,
    last: std::sync::Mutex<Option<(StandInMode, std::time::Instant)>>,
}

impl ModeCache {
    pub const fn new(key: &'static str) -> ModeCache {
        ModeCache { key, last: std::sync::Mutex::new(None) }
    }

    pub async fn mode(&self, store: &dyn Store) -> StandInMode {
        let cached = *self.last.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((mode, _)) = cached.filter(|(_, at)| at.elapsed() < MODE_CACHE_TTL) {
            return mode;
        }
        let mode = read_mode(store, self.key).await;
        *self.last.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some((mode, std::time::Instant::now()));
        mode
    }
}

/// Applies a mode: `Err(())` for down, after a pause for slow.
pub async fn behave(mode: StandInMode) -> Result<(), ()> {
    match mode {
        StandInMode::Up => Ok(()),
        StandInMode::Down => Err(()),
        StandInMode::Slow(d) => {
            tokio_sleep(d).await;
            Ok(())
        }
    }
}

async fn tokio_sleep(d: Duration) {
    tokio::time::sleep(d).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse_and_print_back() {
        for text in ["up", "down", "slow:1500"] {
            assert_eq!(text.parse::<StandInMode>().unwrap().to_string(), text);
        }
        assert!("slow:".parse::<StandInMode>().is_err());
        assert!("slow:999999".parse::<StandInMode>().is_err());
        assert!("sideways".parse::<StandInMode>().is_err());
    }
}
