//! Queuing a message to a customer's chat in the unit of work that decides it: a term's
//! reminder (with the term check) or "payment received" (with the settlement), so it is sent
//! once that commits, and never for a change that did not.

use time::OffsetDateTime;
use vp_ports::{
    BotRepo, ClientRecord, ClientRepo, CustomerChatRepo, InvoiceRecord, ReminderKind, ReminderRepo, ReminderSend,
};

use crate::bots::connected_bot;
use crate::error::AppResult;
use crate::stamp::Stamp;

#[derive(Clone)]
pub(crate) struct ReminderQueue {
    pub(crate) stamp: Stamp,
}

impl ReminderQueue {
    /// Queues "payment received" with the connect link to the chat the invoice's client is
    /// linked to in the account's connected bot.
    pub(crate) async fn queue_paid(
        &self,
        tx: &mut (impl CustomerChatRepo + BotRepo + ClientRepo + ReminderRepo + ?Sized),
        invoice: &InvoiceRecord,
    ) -> AppResult<()> {
        self.queue_for_invoice(tx, invoice, ReminderKind::Paid, None).await
    }

    /// Queues "your gift is paid" with its links to the chat the buyer's client is linked to
    /// in the account's connected bot, once per gift; the client may have no subscription, so
    /// the gift's lapse time stands in for a term's end.
    pub(crate) async fn queue_gift_paid(
        &self,
        tx: &mut (impl CustomerChatRepo + BotRepo + ClientRepo + ReminderRepo + ?Sized),
        invoice: &InvoiceRecord,
        lapses_at: OffsetDateTime,
    ) -> AppResult<()> {
        self.queue_for_invoice(tx, invoice, ReminderKind::Paid, Some(lapses_at)).await
    }

    /// Queues "the renewal charge was declined" (once per declined invoice) to the chat the
    /// client is linked to in the account's connected bot.
    pub(crate) async fn queue_renewal_declined(
        &self,
        tx: &mut (impl CustomerChatRepo + BotRepo + ClientRepo + ReminderRepo + ?Sized),
        declined: &InvoiceRecord,
        term_ends_at: OffsetDateTime,
    ) -> AppResult<()> {
        self.queue_for_invoice(tx, declined, ReminderKind::RenewalDeclined, Some(term_ends_at)).await
    }

    /// Queues "your friend paid" to the chat the inviter is linked to in the account's
    /// connected bot, about the friend's payment `payment_id`.
    pub(crate) async fn queue_referral(
        &self,
        tx: &mut (impl CustomerChatRepo + BotRepo + ReminderRepo + ?Sized),
        inviter: &ClientRecord,
        payment_id: &str,
    ) -> AppResult<()> {
        let Some(chat) = tx.client_chat(&inviter.id).await? else { return Ok(()) };
        if connected_bot(tx, &inviter.account_id).await?.is_none() {
            return Ok(());
        }
        // A credit has no term: the moment stands in for it.
        let ends = inviter.subscription.as_ref().map_or_else(|| self.stamp.now(), |r| r.subscription.expires_at);
        self.queue(tx, inviter, chat.chat_id, ReminderKind::Referral, ends, Some(payment_id.to_owned())).await?;
        Ok(())
    }

    /// Queues a message of `kind` about `invoice` to the chat its client is linked to in the
    /// account's connected bot; for the term ending at `term_ends_at`, or (`None`) the client's
    /// current one.
    async fn queue_for_invoice(
        &self,
        tx: &mut (impl CustomerChatRepo + BotRepo + ClientRepo + ReminderRepo + ?Sized),
        invoice: &InvoiceRecord,
        kind: ReminderKind,
        term_ends_at: Option<OffsetDateTime>,
    ) -> AppResult<()> {
        let Some(chat) = tx.client_chat(&invoice.client_ref).await? else { return Ok(()) };
        if connected_bot(tx, &invoice.account_id).await?.is_none() {
            return Ok(());
        }
        let Some(client) = tx.client_by_ref(&invoice.client_ref).await? else { return Ok(()) };
        let current = client.subscription.as_ref().map(|r| r.subscription.expires_at);
        let Some(ends) = term_ends_at.or(current) else { return Ok(()) };
        let payment = Some(invoice.payment_id.to_string());
        self.queue(tx, &client, chat.chat_id, kind, ends, payment).await?;
        Ok(())
    }

    /// Queues the message of `kind` (a reminder of the client's term ending at `term_ends_at`,
    /// or the paid message of the invoice `payment_id`) to its chat in the account's connected
    /// bot, unless the client is blocked. Once per term and kind (per invoice for a paid
    /// message): a second one is not queued. Returns whether it was queued.
    pub(crate) async fn queue(
        &self,
        tx: &mut (impl ReminderRepo + ?Sized),
        client: &ClientRecord,
        chat_id: i64,
        kind: ReminderKind,
        term_ends_at: OffsetDateTime,
        payment_id: Option<String>,
    ) -> AppResult<bool> {
        if client.blocked {
            return Ok(false);
        }
        let now = self.stamp.now();
        let reminder = ReminderSend {
            id: self.stamp.id("rmd"),
            account_id: client.account_id.clone(),
            client_ref: client.id.clone(),
            chat_id,
            kind,
            term_ends_at,
            payment_id,
            created_at: now,
            attempts: 0,
            next_attempt_at: Some(now),
            sent_at: None,
            last_error: None,
        };
        Ok(tx.insert_reminder(&reminder).await?)
    }
}
