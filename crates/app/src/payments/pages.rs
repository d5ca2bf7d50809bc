//! What the payment pages for customers show: the sandbox payment page (and its pay and decline
//! buttons) and the payment result page's invoice.

use vp_domain::{Lang, PaymentOutcome, Purpose};
use vp_ports::{AccountStyle, InvoiceRecord};

use super::Payments;
use crate::bots::connected_bot;
use crate::error::{AppError, AppResult};
use crate::views::DocumentLink;
use vp_ports::pages::connect_page_url;

pub struct PaymentPage {
    pub invoice: InvoiceRecord,
    pub brand_name: String,
    pub style: AccountStyle,
    pub method_name: String,
    pub documents: Vec<DocumentLink>,
    /// What is being bought, for the order summary.
    pub order: OrderItem,
    /// Whole seconds until the payment deadline (0 once it has passed).
    pub seconds_left: i64,
    /// The page listing the apps to connect with, once the client has a subscription.
    pub connect_url: Option<String>,
    /// The subscription link token to offer "Get reminders in Telegram" with: the client has
    /// a subscription and the account a connected bot.
    pub reminders_token: Option<String>,
}

/// What an invoice buys, as its page describes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderItem {
    /// A subscription term; `months` is 0 for a lifetime plan.
    Subscription {
        months: u32,
    },
    Devices {
        count: u32,
    },
}

impl Payments {
    pub async fn payment_page(&self, payment_id: &str, lang: Lang) -> AppResult<PaymentPage> {
        let mut tx = self.store.read().await?;
        let invoice = tx.invoice_by_id(payment_id).await?.ok_or(AppError::NotFound("invoice"))?;
        let account = tx.account(&invoice.account_id).await?.ok_or(AppError::NotFound("invoice"))?;
        let method = tx.payment_method(&invoice.method).await?;
        let order = match invoice.purpose {
            Purpose::Subscription { plan_id } => {
                let plan = tx.plan(plan_id).await?.ok_or(AppError::NotFound("invoice"))?;
                OrderItem::Subscription { months: if plan.lifetime { 0 } else { plan.months } }
            }
            Purpose::Devices { count } => OrderItem::Devices { count },
        };
        let client = tx.client_by_ref(&invoice.client_ref).await?;
        let has_bot = connected_bot(tx.as_mut(), &account.id).await?.is_some();
        tx.commit().await?;
        let documents = self.catalog.document_links(&account, lang).await?;
        let link_token = client.and_then(|c| c.subscription).map(|s| s.link_token);
        let connect_url = link_token.as_ref().map(|t| connect_page_url(&self.public_base_url, t, None));
        let reminders_token = link_token.filter(|_| has_bot);
        Ok(PaymentPage {
            method_name: method
                .map_or_else(|| invoice.method.clone(), |m| lang.pick_str(&m.name_en, &m.name_ru).to_owned()),
            brand_name: account.brand_name.as_str().to_owned(),
            style: account.style.clone(),
            seconds_left: (invoice.expires_at - self.clock.now()).whole_seconds().max(0),
            order,
            connect_url,
            reminders_token,
            invoice,
            documents,
        })
    }

    /// The customer pressed pay or decline on the sandbox page.
    pub async fn sandbox_pay(&self, payment_id: &str, paid: bool) -> AppResult<InvoiceRecord> {
        let outcome = if paid { PaymentOutcome::Paid } else { PaymentOutcome::AttemptFailed };
        self.apply_payment_outcome(payment_id, outcome).await
    }
}
