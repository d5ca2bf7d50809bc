//! The rewards of invitations, decided in the unit of work of the payment that sets them off:
//! an invited customer's first payment rewards the inviter (days on a running subscription,
//! else a credit), its refund takes that back, and an inviter's paid invoice takes their
//! credits. The inviter hears of a reward through the reminders' outbox.

use vp_domain::ClientRef;
use vp_domain::referral::{Reversal, RewardState, reversal, reward};
use vp_ports::{InvoiceRecord, ReferralRepo, ReferralReward, SubscriptionRecord, Tx};

use crate::error::AppResult;
use crate::reminders::ReminderQueue;
use crate::stamp::Stamp;

pub(crate) struct ReferralRewards {
    pub(crate) stamp: Stamp,
    pub(crate) reminders: ReminderQueue,
}

impl ReferralRewards {
    /// `invoice` was paid: when its client came invited and this is their first rewarded
    /// payment, the inviter gets the account's days now. Returns the inviter whose
    /// subscription changed (for the panel), if one did.
    pub(crate) async fn paid(
        &self,
        tx: &mut (impl Tx + ?Sized),
        invoice: &InvoiceRecord,
    ) -> AppResult<Option<ClientRef>> {
        let Some(customer) = tx.bot_customer_of_client(&invoice.client_ref).await? else { return Ok(None) };
        let Some(mut referral) = tx.referral_of_invited(&invoice.account_id, customer.user_id).await? else {
            return Ok(None);
        };
        // Once per invited customer, whatever became of the reward, and only for their first
        // payment (this one is not recorded as paid yet): one made while the program was off
        // rewards nobody, then or later.
        let paid_before = tx.client_paid_before(&invoice.account_id, invoice.client_id.as_str()).await?;
        if referral.reward.is_some() || referral.inviter_ref == invoice.client_ref || paid_before {
            return Ok(None);
        }
        // The inviter may be settling a payment of their own meanwhile. An inviter is always
        // older than whom they invited, so these locks are always taken in one order.
        tx.lock_client(&invoice.account_id, &referral.inviter_ref).await?;
        let Some(mut inviter) = tx.client_by_ref(&referral.inviter_ref).await? else { return Ok(None) };
        let days = tx.referral_days(&invoice.account_id).await?;
        let now = self.stamp.now();
        let Some(state) = reward(days, inviter.subscription.as_ref().map(|r| &r.subscription), now) else {
            return Ok(None);
        };
        let mut changed = None;
        if let (RewardState::Days, Some(record)) = (state, inviter.subscription.as_mut()) {
            record.subscription.add_days(days.days());
            record.revision += 1;
            tx.save_subscription(&inviter.id, record).await?;
            changed = Some(inviter.id.clone());
        }
        referral.reward = Some(ReferralReward {
            payment_id: invoice.payment_id.to_string(),
            days: days.days(),
            state,
            rewarded_at: now,
            spent_payment_id: None,
            reversed_at: None,
        });
        tx.update_referral(&referral).await?;
        self.reminders.queue_referral(tx, &inviter, &invoice.payment_id).await?;
        Ok(changed)
    }

    /// `invoice` was refunded: a reward it gave is taken back (days off the inviter's
    /// subscription, or the credit dropped). Returns the inviter whose subscription changed.
    pub(crate) async fn refunded(
        &self,
        tx: &mut (impl Tx + ?Sized),
        invoice: &InvoiceRecord,
    ) -> AppResult<Option<ClientRef>> {
        let Some(mut referral) = tx.referral_rewarded_by(&invoice.payment_id).await? else { return Ok(None) };
        let Some(given) = referral.reward.as_mut() else { return Ok(None) };
        let Some(undo) = reversal(given.state, given.days) else { return Ok(None) };
        given.state = RewardState::Reversed;
        given.reversed_at = Some(self.stamp.now());
        tx.update_referral(&referral).await?;
        let Reversal::TakeDays(days) = undo else { return Ok(None) };
        tx.lock_client(&invoice.account_id, &referral.inviter_ref).await?;
        let Some(inviter) = tx.client_by_ref(&referral.inviter_ref).await? else { return Ok(None) };
        let Some(mut record) = inviter.subscription else { return Ok(None) };
        record.subscription.take_days(days);
        record.revision += 1;
        tx.save_subscription(&inviter.id, &record).await?;
        Ok(Some(inviter.id))
    }

    /// The paid invoice `payment_id` of the client `client_ref` grants `record`: the days their
    /// invitations left as credits go on top of it.
    pub(crate) async fn spend_credits(
        &self,
        tx: &mut (impl ReferralRepo + ?Sized),
        client_ref: &str,
        payment_id: &str,
        record: &mut SubscriptionRecord,
    ) -> AppResult<()> {
        for mut credit in tx.referral_credits(client_ref).await? {
            let Some(given) = credit.reward.as_mut() else { continue };
            record.subscription.add_days(given.days);
            given.state = RewardState::CreditSpent;
            given.spent_payment_id = Some(payment_id.to_owned());
            tx.update_referral(&credit).await?;
        }
        Ok(())
    }
}
