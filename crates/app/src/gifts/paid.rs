//! A gift's payment, in the unit of work that records it: the buyer hears in their chat with
//! the partner's bot (the paid message words the gift's links, derived when it is sent) or by
//! mail as a web shop customer, and the recipient by mail when the buyer gave an address.

use async_trait::async_trait;
use vp_domain::Purpose;
use vp_domain::cabinet::Email;
use vp_domain::gift::GIFT_LAPSES_AFTER;
use vp_ports::{GiftRecord, InvoiceRecord, MailContent, StoreError, Tx};

use crate::error::AppResult;
use crate::gift_links::links_now;
use crate::mail::MailQueue;
use crate::payments::GiftPaid;
use crate::reminders::ReminderQueue;
use crate::secrets::SecretKeys;

pub(crate) struct GiftNotices {
    pub(crate) keys: std::sync::Arc<SecretKeys>,
    pub(crate) reminders: ReminderQueue,
    pub(crate) mail: MailQueue,
    pub(crate) public_base_url: String,
}

#[async_trait]
impl GiftPaid for GiftNotices {
    async fn gift_paid(&self, tx: &mut dyn Tx, invoice: &InvoiceRecord, gift: &GiftRecord) -> AppResult<()> {
        let paid_at = invoice.paid_at.unwrap_or(invoice.created_at);
        let lapses_at = paid_at + GIFT_LAPSES_AFTER;
        self.reminders.queue_gift_paid(tx, invoice, lapses_at).await?;

        let buyer = tx.shop_customer_of_client(&invoice.client_ref).await?;
        let recipient = gift.recipient_email.as_deref();
        if buyer.is_none() && recipient.is_none() {
            return Ok(());
        }
        let months = match invoice.purpose {
            Purpose::Subscription { plan_id } => {
                tx.plan(plan_id).await?.map_or(0, |p| if p.lifetime { 0 } else { p.months })
            }
            Purpose::Devices { .. } => 0,
        };
        let links = links_now(tx, &self.keys, &self.public_base_url, &invoice.account_id, &invoice.payment_id).await?;
        let content = |for_recipient| MailContent::GiftPaid {
            for_recipient,
            months,
            bot_url: links.bot.clone(),
            web_url: links.web.clone(),
            lapses_at,
        };
        let address = |raw: &str| {
            Email::parse(raw).map_err(|_| StoreError::Corrupt(format!("an email of gift {}", gift.payment_id)))
        };
        if let Some(buyer) = buyer {
            let to = address(&buyer.email)?;
            self.mail.queue(tx, Some(&invoice.account_id), &to, buyer.lang, content(false)).await?;
        }
        if let Some(recipient) = recipient {
            let to = address(recipient)?;
            self.mail.queue(tx, Some(&invoice.account_id), &to, gift.lang, content(true)).await?;
        }
        Ok(())
    }
}
