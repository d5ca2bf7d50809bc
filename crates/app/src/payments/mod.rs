//! Invoices and payments (spec: Payments): issuing an invoice on its rail (`invoices`, with
//! `idempotency`, `pricing`, `issuing` and `recording`), the gateways that are on (`rails`),
//! settling it with what a gateway, the deadline or the operator say (`settlement`,
//! `gateway`), and the payment pages customers see (`pages`).

mod access_check;
mod gateway;
mod idempotency;
mod invoices;
mod issuing;
mod pages;
mod pricing;
mod recording;
mod reserving;
mod settlement;
mod stars_rail;

use std::sync::Arc;

use time::OffsetDateTime;
use vp_domain::invoice::payment_deadline;
use vp_domain::{InvoiceStatus, PaymentId, PriceBreakdown, Purpose, Rail};
use vp_ports::{ClientRecord, Clock, IdGenerator, InvoiceRecord, Metrics, Store};

pub use crate::gateways::Gateways;
pub use access_check::{PAID_ACCESS_EVERY, PAID_ACCESS_WINDOW, PaidAccessChecked};
pub use gateway::GatewayChecked;
pub use idempotency::{KEY_LOCK, fingerprint};
pub use pages::{OrderItem, PaymentPage};
pub(crate) use settlement::{AccessGranted, GiftPaid};
pub use stars_rail::StarsRail;

use crate::catalog::{Catalog, Offers};
use crate::clients::PanelSync;
use crate::consents::Consents;
use crate::events::{EventOutbox, EventRenderer};
use crate::reminders::ReminderQueue;
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
    /// The gateways that are on.
    pub(crate) gateways: Gateways,
    /// Invoices paid in Telegram Stars, through the account's bot.
    pub(crate) stars: Arc<StarsRail>,
    pub(crate) metrics: Arc<dyn Metrics>,
    pub(crate) offers: Arc<Offers>,
    pub(crate) views: Views,
    pub(crate) catalog: Arc<Catalog>,
    pub(crate) settled: Settled,
    pub(crate) public_base_url: String,
    /// How fiscal receipts are made while the service sends them (`VP_RECEIPTS=on`).
    pub(crate) receipts: Option<vp_domain::receipt::ReceiptSettings>,
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
    /// What the channels above payments do when access is granted (the web shop mails its
    /// customer the paid order).
    pub access_granted: Vec<Arc<dyn AccessGranted>>,
    /// Rewards inviters for invited customers' first payments.
    pub referrals: crate::referrals::ReferralRewards,
    /// Tells the buyer (and the recipient) of a paid gift where to redeem it.
    pub gift_paid: Arc<dyn GiftPaid>,
}

/// What a renewal invoice is: its purchase, paid on the rail the first purchase was.
pub(crate) struct Renewal<'a> {
    pub purpose: Purpose,
    /// The first purchase's method code, and its rail.
    pub method: &'a str,
    pub rail: Rail,
    pub amounts: PriceBreakdown,
}

/// An invoice the platform raises itself to renew `client`'s term: pending, with no payment
/// page and no return address (the customer is not there), paid by a saved method or by
/// Telegram.
pub(crate) fn renewal_invoice(
    payment_id: PaymentId,
    client: &ClientRecord,
    renewal: Renewal<'_>,
    now: OffsetDateTime,
) -> InvoiceRecord {
    let Renewal { purpose, method, rail, amounts } = renewal;
    InvoiceRecord {
        payment_id,
        account_id: client.account_id.clone(),
        client_ref: client.id.clone(),
        client_id: client.client_id.clone(),
        status: InvoiceStatus::Pending,
        purpose,
        method: method.to_owned(),
        rail,
        amounts,
        return_url: None,
        payment_url: None,
        gateway_payment_id: None,
        created_at: now,
        expires_at: payment_deadline(now),
        paid_at: None,
        receipt: None,
        promo: None,
    }
}

impl Payments {
    /// Whether gateway payments carry the buyer's fiscal receipt (`VP_RECEIPTS=on`), so the
    /// buyer's email is needed.
    pub fn receipts_on(&self) -> bool {
        self.receipts.is_some()
    }

    /// Whether the word of `invoice`'s gateway on its payment can be lost, so it is re-read
    /// while pending (the result page offers to check again).
    pub fn gateway_reconciles(&self, invoice: &InvoiceRecord) -> bool {
        self.gateways.reconciles(&invoice.rail)
    }
}
