//! Automatic renewal with the customer's consent (docs/decisions.md, "Automatic renewal"): the
//! consent and the saved payment method (`consent`), and the renewal charge of a term, decided
//! in the term check's unit of work and made by the renewal worker (`charges`).

mod charges;
mod consent;

use std::sync::Arc;

use vp_domain::ClientId;
use vp_ports::{Clock, IdGenerator, PaymentGateway, RenewalChargeState, Store};

pub use charges::RenewalRun;
pub(crate) use charges::schedule_charge;
pub(crate) use consent::tell_price;
pub use consent::{ConsentGiven, Consents, RenewalOffer};

use crate::error::{AppResult, Refusal};
use crate::payments::Payments;
use crate::reminders::ReminderQueue;

/// Renewal charges of consenting customers' terms.
pub struct Renewals {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) ids: Arc<dyn IdGenerator>,
    pub(crate) gateway: Arc<dyn PaymentGateway>,
    pub(crate) payments: Arc<Payments>,
    pub(crate) consents: Arc<Consents>,
    pub(crate) reminders: ReminderQueue,
}

/// What turning automatic renewal off came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnedOff {
    /// It was on until now.
    pub was_on: bool,
    /// A renewal charge had already been sent to the gateway: it completes.
    pub charge_under_way: bool,
}

impl Renewals {
    /// Turns automatic renewal off for a client of the account, from this moment: no charge is
    /// started after it. `by` says who (`customer`, `support:<email>`, `operator`).
    pub async fn turn_off(&self, account_id: &str, client_id: &ClientId, by: &str) -> AppResult<TurnedOff> {
        let mut tx = self.store.begin().await?;
        tx.lock_account(account_id).await?;
        let client = tx.client(account_id, client_id).await?.ok_or(Refusal::ClientNotFound)?;
        let was_on = self.consents.turn_off(tx.as_mut(), &client.id, by).await?;
        let charges = tx.renewal_charges_of_client(&client.id).await?;
        tx.commit().await?;
        let charge_under_way = charges.iter().any(|c| c.state == RenewalChargeState::Charging);
        Ok(TurnedOff { was_on, charge_under_way })
    }
}
