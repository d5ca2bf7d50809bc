//! Invoices and payments (spec: Payments): issuing an invoice (`invoices`), settling it with
//! what the gateway, the deadline or the operator say (`settlement`, `gateway`), and the
//! payment pages customers see (`pages`).

mod gateway;
mod invoices;
mod pages;
mod settlement;

use std::sync::Arc;

use vp_ports::{Clock, IdGenerator, Metrics, PaymentGateway, Store};

pub use invoices::{KEY_LOCK, fingerprint};
pub use pages::{OrderItem, PaymentPage};

use crate::catalog::{Catalog, Offers};
use crate::clients::PanelSync;
use crate::events::{EventOutbox, EventRenderer};
use crate::reminders::ReminderQueue;
use crate::renewals::Consents;
use crate::stars::StarsRail;
use crate::tokens::Tokens;
use crate::views::Views;

/// The platform's payment result page, followed by the invoice id: where a customer returns
/// from the gateway when the partner gave no `return_url`.
pub const PAYMENT_RESULT_PREFIX: &str = "/payment-result/";

/// Invoices from issue to settlement.
pub struct Payments {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) ids: Arc<dyn IdGenerator>,
    pub(crate) tokens: Tokens,
    pub(crate) gateway: Arc<dyn PaymentGateway>,
    /// Invoices paid in Telegram Stars, through the account's bot.
    pub(crate) stars: Arc<StarsRail>,
    pub(crate) metrics: Arc<dyn Metrics>,
    pub(crate) offers: Arc<Offers>,
    pub(crate) views: Views,
    pub(crate) catalog: Arc<Catalog>,
    pub(crate) settled: Settled,
    pub(crate) public_base_url: String,
}

/// What a settled invoice sets off in its unit of work and after it: the partner's event, the
/// customer's "payment received", the panel's push.
pub(crate) struct Settled {
    pub outbox: EventOutbox,
    pub events: Arc<dyn EventRenderer>,
    pub reminders: ReminderQueue,
    pub panel_sync: Arc<PanelSync>,
    /// Keeps the method a consenting customer's payment saved.
    pub consents: Arc<Consents>,
}

impl Payments {
    /// Whether the gateway's word on a payment can be lost, so pending invoices are re-read
    /// (the result page offers to check again).
    pub fn gateway_reconciles(&self) -> bool {
        self.gateway.reconciles()
    }
}
