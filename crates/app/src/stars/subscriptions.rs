//! Monthly Stars subscriptions: Telegram charges them; the customer (or the partner's
//! support, or the operator, wherever automatic renewal is turned off) cancels them here, or in
//! Telegram, which says so with a `subscription` update (Bot API 10.2), as it says when it could
//! not charge one (`subscription_changed`).

use time::Date;
use vp_domain::{AccountId, ClientRef};
use vp_ports::{StarsSubscription, StarsSubscriptionChange, StarsSubscriptionState};

use super::Stars;
use crate::consents::stars_renewing;
use crate::error::{AppError, AppResult};

/// A Stars subscription's change in Telegram, applied: what its customer is told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenewalInTelegram {
    /// Canceled (automatic renewal off), active again (on), or failed (off: renew by hand).
    pub state: StarsSubscriptionState,
    pub brand: String,
    /// The last day of the client's term, in the account's zone.
    pub until: Date,
}

impl Stars {
    /// The client's Stars subscription while Telegram renews it.
    pub async fn renewing_subscription(&self, client_ref: &ClientRef) -> AppResult<Option<StarsSubscription>> {
        Ok(read!(self.store, |tx| stars_renewing(tx.as_mut(), client_ref)))
    }

    /// Cancels the client's Stars subscription: Telegram first (it charges no more), then
    /// recorded. `false` when none renews.
    pub async fn cancel_subscription(&self, client_ref: &ClientRef) -> AppResult<bool> {
        let Some(mut subscription) = self.renewing_subscription(client_ref).await? else { return Ok(false) };
        self.rail.cancel(&subscription).await?;
        subscription.canceled_at = Some(self.clock.now());
        let mut tx = self.store.begin().await?;
        tx.update_stars_subscription(&subscription).await?;
        tx.set_auto_renew(client_ref, false).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Telegram says a person's Stars subscription to the account's bot changed: canceled in
    /// Telegram or not charged (automatic renewal is off from now on: reminders ask to renew by
    /// hand), or enabled again (on). `None` when nothing changed: said before (a cancellation
    /// made here comes back this way too), or no subscription of the account's is named.
    pub async fn subscription_changed(
        &self,
        account_id: &AccountId,
        change: &StarsSubscriptionChange,
    ) -> AppResult<Option<RenewalInTelegram>> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        tx.lock_account(account_id).await?;
        let account = tx.account(account_id).await?.ok_or(AppError::NotFound("account"))?;
        let first = tx.stars_charge_of_invoice(&change.payload).await?;
        let subscription = match first.filter(|c| c.account_id == account_id && c.user_id == change.user_id) {
            Some(charge) => tx.stars_subscription(&charge.charge_id).await?,
            None => None,
        };
        let Some(mut subscription) = subscription else {
            tracing::info!(payload = %change.payload, "a Stars subscription's change for none of the account's");
            return Ok(None);
        };
        let renews = match change.state {
            StarsSubscriptionState::Canceled | StarsSubscriptionState::Failed if subscription.canceled_at.is_none() => {
                subscription.canceled_at = Some(now);
                false
            }
            StarsSubscriptionState::Active if subscription.canceled_at.is_some() => {
                subscription.canceled_at = None;
                true
            }
            _ => return Ok(None),
        };
        tx.update_stars_subscription(&subscription).await?;
        tx.set_auto_renew(&subscription.client_ref, renews).await?;
        // The term the client holds (what the payments bought), not Telegram's own date.
        let client = tx.client_by_ref(&subscription.client_ref).await?;
        let ends = client.and_then(|c| c.subscription).map_or(subscription.paid_until, |r| r.subscription.expires_at);
        tx.commit().await?;
        Ok(Some(RenewalInTelegram {
            state: change.state,
            brand: account.brand_name.as_str().to_owned(),
            until: account.time_zone.day(ends),
        }))
    }
}
