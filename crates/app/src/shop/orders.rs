//! The mail a web shop customer gets when their order is paid (for any of their
//! subscriptions): the order and the connect link, queued in the unit of work that settles
//! the invoice, so it is sent once if and only if the payment is recorded.

use async_trait::async_trait;
use vp_domain::Purpose;
use vp_domain::cabinet::Email;
use vp_ports::pages::connect_page_url;
use vp_ports::{InvoiceRecord, MailContent, OrderItem, StoreError, Tx};

use super::shop_url;
use crate::error::AppResult;
use crate::mail::MailQueue;
use crate::payments::AccessGranted;

#[derive(Clone)]
pub(crate) struct ShopOrders {
    pub(crate) queue: MailQueue,
    pub(crate) public_base_url: String,
}

#[async_trait]
impl AccessGranted for ShopOrders {
    /// Queues "your order is paid" when the invoice's client is a shop customer; reads the
    /// subscription as the payment left it in `tx`.
    async fn access_granted(&self, tx: &mut dyn Tx, invoice: &InvoiceRecord) -> AppResult<()> {
        // The address's first subscription, or a further one of the address's (whose clients'
        // ids the shop makes `email:…`, so other payments cost no second read).
        let customer = match tx.shop_customer_of_client(&invoice.client_ref).await? {
            Some(customer) => Some(customer),
            None if !invoice.client_id.as_str().starts_with("email:") => None,
            None => match tx.shop_subscription_of_client(&invoice.account_id, invoice.client_id.as_str()).await? {
                Some(further) => tx.shop_customer(&invoice.account_id, &further.email).await?,
                None => None,
            },
        };
        let Some(customer) = customer else { return Ok(()) };
        let Some(subscription) = tx.client_by_ref(&invoice.client_ref).await?.and_then(|c| c.subscription) else {
            return Ok(());
        };
        let item = match invoice.purpose {
            Purpose::Subscription { plan_id } => {
                let months = tx.plan(plan_id).await?.map_or(0, |p| if p.lifetime { 0 } else { p.months });
                OrderItem::Subscription { months }
            }
            Purpose::Devices { count } => OrderItem::Devices { count },
        };
        let slug = tx.shop_slug(&invoice.account_id).await?.unwrap_or_default();
        let to = Email::parse(&customer.email)
            .map_err(|_| StoreError::Corrupt(format!("shop customer email of {}", customer.client_ref)))?;
        let term = &subscription.subscription;
        let content = MailContent::ShopOrderPaid {
            payment_id: invoice.payment_id.to_string(),
            amount: invoice.amounts.customer.kopecks(),
            item,
            paid_at: invoice.paid_at.unwrap_or(invoice.created_at),
            expires_at: (!term.lifetime).then_some(term.expires_at),
            connect_url: connect_page_url(&self.public_base_url, &subscription.link_token, None),
            shop_url: shop_url(&self.public_base_url, &slug),
        };
        self.queue.queue(tx, Some(&invoice.account_id), &to, customer.lang, content).await?;
        Ok(())
    }
}
