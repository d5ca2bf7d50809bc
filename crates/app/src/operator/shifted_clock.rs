//! The operator's shifted clock, after Stripe's test clocks (a product feature for rehearsing
//! what happens over days, not test code): off unless the service starts with it on, then moved forward (never back) by an operator command. The offset lives in the
//! settings, so every process sharing the database sees the same time; business code reads
//! time only through the `Clock` port, so the same paths run as in production.

use std::sync::atomic::{AtomicI64, Ordering};

use time::{Duration, OffsetDateTime};
use vp_ports::{Clock, SettingKey, SettingRecord, Store};

use super::Operator;
use crate::error::{AppError, AppResult};

/// Wall-clock time plus the operator's offset.
#[derive(Debug, Default)]
pub struct ShiftedClock {
    offset_seconds: AtomicI64,
}

impl ShiftedClock {
    pub fn new(offset_seconds: i64) -> ShiftedClock {
        ShiftedClock { offset_seconds: AtomicI64::new(offset_seconds) }
    }

    pub fn offset(&self) -> Duration {
        Duration::seconds(self.offset_seconds.load(Ordering::Relaxed))
    }

    /// Re-reads the offset another process may have moved.
    pub async fn refresh(&self, operator: &Operator) {
        if let Ok(offset) = operator.shifted_clock_offset().await {
            self.offset_seconds.store(offset, Ordering::Relaxed);
        }
    }
}

impl Clock for ShiftedClock {
    fn now(&self) -> OffsetDateTime {
        OffsetDateTime::now_utc() + self.offset()
    }
}

/// The stored offset in seconds; 0 when never moved.
pub async fn read_offset(store: &dyn Store) -> AppResult<i64> {
    let value = read!(store, |tx| tx.setting(SettingKey::ShiftedClock));
    parse_offset(value)
}

fn parse_offset(stored: Option<SettingRecord>) -> AppResult<i64> {
    match stored {
        None => Ok(0),
        Some(v) => v
            .value
            .parse()
            .map_err(|_| AppError::Internal(format!("stored shifted clock offset {:?} is not a number", v.value))),
    }
}

impl Operator {
    /// Moves the shared shifted clock forward by `by` (at least one second, at most 400 days per
    /// step) and returns the new offset in seconds.
    pub async fn advance_shifted_clock(&self, by: Duration) -> AppResult<i64> {
        if by < Duration::SECOND || by > Duration::days(400) {
            return Err(AppError::field("by", "from 1 second to 400 days"));
        }
        let mut tx = self.store.begin().await?;
        let current = parse_offset(tx.setting(SettingKey::ShiftedClock).await?)?;
        let next = current + by.whole_seconds();
        tx.put_setting(&SettingRecord {
            key: SettingKey::ShiftedClock,
            value: next.to_string(),
            updated_at: OffsetDateTime::now_utc(),
        })
        .await?;
        tx.commit().await?;
        Ok(next)
    }

    /// The shared clock's offset in seconds (0 when never moved).
    pub async fn shifted_clock_offset(&self) -> AppResult<i64> {
        read_offset(self.store.as_ref()).await
    }
}
