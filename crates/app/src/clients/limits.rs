//! The daily limits (spec: Limits): new clients and trials in a sliding 24 hours, with the
//! operator's overrides. The store keeps them exact in O(1) (`Tx::below_daily_limit`).

use time::{Duration, OffsetDateTime};
use vp_domain::limits::{AccountLimits, DAILY_WINDOW};
use vp_ports::{AccountRecord, ClientRepo, DailyLimit, DailyQuota};

use crate::error::{AppResult, Refusal};

/// The account's daily limit of `quota` as it applies at `now`.
pub(crate) fn daily_limit(account: &AccountRecord, quota: DailyQuota, now: OffsetDateTime) -> DailyLimit {
    let limits = AccountLimits::with_overrides(&account.limits);
    let limit = match quota {
        DailyQuota::NewClients => limits.new_clients_per_day,
        DailyQuota::Trials => limits.trials_per_day,
    };
    DailyLimit { quota, since: now - DAILY_WINDOW, limit }
}

/// The daily new-client limit, for every request that would create a client.
pub(crate) async fn check_new_client_limit(
    tx: &mut (impl ClientRepo + ?Sized),
    account: &AccountRecord,
    now: OffsetDateTime,
) -> AppResult<()> {
    if !tx.below_daily_limit(&account.id, &daily_limit(account, DailyQuota::NewClients, now)).await? {
        return Err(Refusal::NewClientsDailyLimit.into());
    }
    Ok(())
}

impl super::Clients {
    /// Forgets the daily counts no window reaches any more (an hour of slack for the bucket the
    /// window starts in); returns how many rows went.
    pub async fn prune_daily_counts(&self) -> AppResult<u64> {
        let before = self.clock.now() - DAILY_WINDOW - Duration::hours(1);
        let mut tx = self.store.begin().await?;
        let pruned = tx.prune_daily_counts(before).await?;
        tx.commit().await?;
        Ok(pruned)
    }
}
