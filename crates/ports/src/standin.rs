//! How the embedded stand-ins for external systems (sandbox gateway, local panel) are told to
//! misbehave, so tests and partners can reach the 503 paths end to end. The operator sets the
//! mode; it lives in the settings table (`SettingKey::GatewayMode`, `SettingKey::PanelMode`) so
//! every process sees it. Acting on it (the cache, the
//! pause) is the `vp-standin` crate's.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

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
