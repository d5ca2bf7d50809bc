//! Telegram Stars: accounts' rates, Stars invoices, charges and subscriptions.

use async_trait::async_trait;
use time::OffsetDateTime;
use vp_domain::stars::StarsRate;

use super::StoreResult;
use crate::stars::{StarsCharge, StarsInvoice, StarsSubscription};

#[async_trait]
pub trait StarsRepo: Send {
    /// The operator's rate for the account's bot; `None`: the bot takes no Stars.
    async fn stars_rate(&mut self, account_id: &str) -> StoreResult<Option<StarsRate>>;
    async fn set_stars_rate(
        &mut self,
        account_id: &str,
        rate: Option<StarsRate>,
        now: OffsetDateTime,
    ) -> StoreResult<()>;
    /// Records an invoice's Stars price; a second record of the same invoice changes nothing.
    async fn insert_stars_invoice(&mut self, invoice: &StarsInvoice) -> StoreResult<()>;
    async fn stars_invoice(&mut self, payment_id: &str) -> StoreResult<Option<StarsInvoice>>;
    async fn insert_stars_charge(&mut self, charge: &StarsCharge) -> StoreResult<()>;
    async fn update_stars_charge(&mut self, charge: &StarsCharge) -> StoreResult<()>;
    async fn stars_charge(&mut self, charge_id: &str) -> StoreResult<Option<StarsCharge>>;
    /// The charge that paid an invoice.
    async fn stars_charge_of_invoice(&mut self, payment_id: &str) -> StoreResult<Option<StarsCharge>>;
    async fn insert_stars_subscription(&mut self, subscription: &StarsSubscription) -> StoreResult<()>;
    async fn update_stars_subscription(&mut self, subscription: &StarsSubscription) -> StoreResult<()>;
    async fn stars_subscription(&mut self, charge_id: &str) -> StoreResult<Option<StarsSubscription>>;
    /// The client's newest Stars subscription.
    async fn stars_subscription_of_client(&mut self, client_ref: &str) -> StoreResult<Option<StarsSubscription>>;
}
