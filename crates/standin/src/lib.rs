//! The embedded stand-ins' switch in action: the mode the operator set for the sandbox gateway
//! or the local panel (`vp_ports::standin`), read through the store, cached for a second on the
//! hot path, and applied (refuse when down, pause when slow). Shared by both stand-in adapters.

use std::time::Duration;

use vp_ports::standin::StandInMode;
use vp_ports::{SettingKey, Store};

/// Reads a stand-in's mode; a missing or unreadable setting means `up`.
pub async fn read_mode(store: &dyn Store, key: SettingKey) -> StandInMode {
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
    key: SettingKey,
    last: std::sync::Mutex<Option<(StandInMode, std::time::Instant)>>,
}

impl ModeCache {
    pub const fn new(key: SettingKey) -> ModeCache {
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
            tokio::time::sleep(d).await;
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_slow_stand_in_answers_after_its_pause_and_a_down_one_refuses() {
        let started = std::time::Instant::now();
        assert_eq!(behave(StandInMode::Slow(Duration::from_millis(30))).await, Ok(()));
        assert!(started.elapsed() >= Duration::from_millis(30), "it paused first");
        assert_eq!(behave(StandInMode::Down).await, Err(()));
        assert_eq!(behave(StandInMode::Up).await, Ok(()));
    }
}
