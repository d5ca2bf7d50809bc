//! Monthly Stars subscriptions: Telegram charges them; the customer (or the partner's
//! support, or the operator, wherever automatic renewal is turned off) cancels them here.

use vp_ports::{StarsRepo, StarsSubscription};

use super::Stars;
use crate::error::AppResult;

impl Stars {
    /// The client's Stars subscription while Telegram renews it.
    pub async fn renewing_subscription(&self, client_ref: &str) -> AppResult<Option<StarsSubscription>> {
        Ok(read!(self.store, |tx| renewing(tx.as_mut(), client_ref)))
    }

    /// Cancels the client's Stars subscription: Telegram first (it charges no more), then
    /// recorded. `false` when none renews.
    pub async fn cancel_subscription(&self, client_ref: &str) -> AppResult<bool> {
        let Some(mut subscription) = self.renewing_subscription(client_ref).await? else { return Ok(false) };
        self.rail.cancel(&subscription).await?;
        subscription.canceled_at = Some(self.clock.now());
        let mut tx = self.store.begin().await?;
        tx.update_stars_subscription(&subscription).await?;
        tx.set_auto_renew(client_ref, false).await?;
        tx.commit().await?;
        Ok(true)
    }
}

/// The client's Stars subscription that Telegram renews: its newest, unless cancelled.
async fn renewing(tx: &mut (impl StarsRepo + ?Sized), client_ref: &str) -> AppResult<Option<StarsSubscription>> {
    Ok(tx.stars_subscription_of_client(client_ref).await?.filter(|s| s.canceled_at.is_none()))
}

/// In the term check's unit of work: whether Telegram renews the client's term, so no
/// reminder asks to renew by hand.
pub(crate) async fn renews_in_telegram(tx: &mut (impl StarsRepo + ?Sized), client_ref: &str) -> AppResult<bool> {
    Ok(renewing(tx, client_ref).await?.is_some())
}
