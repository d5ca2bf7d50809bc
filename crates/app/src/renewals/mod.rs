//! Automatic renewal with the customer's consent (docs/decisions.md, "Automatic renewal"): the
//! consent and the saved payment method (`consent`), and the renewal charge of a term, decided
//! in the term check's unit of work and made by the renewal worker (`charges`).

mod charges;

use std::sync::Arc;

use vp_domain::AccountId;
use vp_domain::{ClientId, ClientRef};
use vp_ports::{Clock, IdGenerator, RenewalChargeState, Store};

pub use crate::consents::{ConsentGiven, Consents, RenewalOffer};
pub use charges::RenewalRun;
/// Who turned automatic renewal off (the domain's, here for the callers of `turn_off`).
pub use vp_domain::renewal::TurnedOffBy;

use crate::error::{AppError, AppResult, Refusal};
use crate::payments::{Gateways, Payments};
use crate::reminders::ReminderQueue;

/// Renewal charges of consenting customers' terms.
pub struct Renewals {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) ids: Arc<dyn IdGenerator>,
    pub(crate) gateways: Gateways,
    pub(crate) payments: Arc<Payments>,
    pub(crate) consents: Arc<Consents>,
    /// Stars subscriptions are turned off with the rest.
    pub(crate) stars: Arc<crate::stars::Stars>,
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
    /// started after it.
    pub async fn turn_off(
        &self,
        account_id: &AccountId,
        client_id: &ClientId,
        by: TurnedOffBy,
    ) -> AppResult<TurnedOff> {
        let client = read!(self.store, |tx| tx.client(account_id, client_id)).ok_or(Refusal::ClientNotFound)?;
        self.turn_off_client(account_id, &client.id, by).await
    }

    /// The customer turns it off on the connect page of their subscription link.
    pub async fn turn_off_by_link(&self, link_token: &str) -> AppResult<TurnedOff> {
        let client =
            read!(self.store, |tx| tx.client_by_link_token(link_token)).ok_or(AppError::NotFound("subscription"))?;
        self.turn_off_client(&client.account_id, &client.id, TurnedOffBy::Customer).await
    }

    async fn turn_off_client(
        &self,
        account_id: &AccountId,
        client_ref: &ClientRef,
        by: TurnedOffBy,
    ) -> AppResult<TurnedOff> {
        let mut tx = self.store.begin().await?;
        tx.lock_account(account_id).await?;
        let was_on = self.consents.turn_off(tx.as_mut(), client_ref, by).await?;
        let charges = tx.renewal_charges_of_client(client_ref).await?;
        tx.commit().await?;
        let charge_under_way = charges.iter().any(|c| c.state == RenewalChargeState::Charging);
        // A Stars subscription is renewed by Telegram: it is cancelled there too.
        let stars_was_on = self.stars.cancel_subscription(client_ref).await?;
        Ok(TurnedOff { was_on: was_on || stars_was_on, charge_under_way })
    }
}
