//! The first unit of work of a request whose charge holds more than its key: a promo code's use
//! (its terms checked under the code's lock) or a Stars invoice's price (what the pre-checkout
//! query is checked against). The key, the rules checked against the client it reads, the
//! new-client limit and the holds commit together or not at all, so such an invoice takes two
//! units of work like any other (this one, and the record of the rail's answer), and a refusal
//! binds no key and holds nothing. A plain request's first unit is the store's grouped
//! `open_invoice`.

use time::OffsetDateTime;
use vp_domain::InvoiceRequest;
use vp_ports::{AccountRecord, IdempotencyRecord, StarsInvoice, StoreError, Tx};

use super::Payments;
use super::issuing::Reserved;
use super::pricing::{Charge, check_rules};
use crate::catalog::Offer;
use crate::clients::limits::check_new_client_limit;
use crate::error::AppResult;
use crate::promotions::{self, Hold};
use crate::retry::busy_retried;

/// What the first unit of work came to.
pub(super) enum Reservation {
    /// The key is the request's now, with its holds: issue it.
    Reserved(Box<Reserved>),
    /// The account had the key already: the known key's path decides.
    Known(IdempotencyRecord),
}

impl Charge {
    /// Whether the charge holds something beside its key.
    pub(super) fn holds_more(&self) -> bool {
        self.promo.is_some() || self.stars.is_some()
    }
}

impl Payments {
    pub(super) async fn reserve_with_holds(
        &self,
        account: &AccountRecord,
        request: &InvoiceRequest,
        record: &IdempotencyRecord,
        charge: &Charge,
        offer: &Offer,
    ) -> AppResult<Reservation> {
        busy_retried("reserving an invoice", || async {
            let now = record.created_at;
            let mut tx = self.store.begin().await?;
            if let Some(existing) = tx.idempotency_key(&account.id, &record.key).await? {
                tx.commit().await?;
                return Ok(Reservation::Known(existing));
            }
            match tx.insert_idempotency_key(record).await {
                Ok(()) => {}
                // Taken by the same key's other request meanwhile: that one decides.
                Err(StoreError::Conflict(_)) => {
                    tx.rollback().await?;
                    let existing = read!(self.store, |tx| tx.idempotency_key(&account.id, &record.key));
                    return Ok(existing.map_or(Reservation::Known(record.clone()), Reservation::Known));
                }
                Err(e) => return Err(e.into()),
            }
            let client = tx.client(&account.id, &request.client_id).await?;
            let charge = check_rules(offer, request, client.as_ref(), Ok(charge.clone()), now)?;
            if client.is_none() {
                check_new_client_limit(tx.as_mut(), account, now).await?;
            }
            self.hold(tx.as_mut(), account, request, record, &charge, now).await?;
            tx.commit().await?;
            Ok(Reservation::Reserved(Box::new(Reserved { record: record.clone(), charge, client })))
        })
        .await
    }

    /// A charge's holds, in the caller's unit of work (the one that reserves or takes over the
    /// key): again for a resumed request, which changes nothing.
    pub(super) async fn hold(
        &self,
        tx: &mut dyn Tx,
        account: &AccountRecord,
        request: &InvoiceRequest,
        record: &IdempotencyRecord,
        charge: &Charge,
        now: OffsetDateTime,
    ) -> AppResult<()> {
        if let Some(applied) = charge.applied_promo() {
            let hold = Hold {
                account_id: &account.id,
                code: &applied.code,
                payment_id: &record.payment_id,
                client_id: &request.client_id,
                purpose: request.purpose,
                now,
            };
            promotions::hold(tx, hold).await?;
        }
        if let Some(stars) = charge.stars {
            let invoice = StarsInvoice {
                payment_id: record.payment_id.to_string(),
                account_id: account.id.clone(),
                stars,
                subscription: charge.stars_subscription,
                created_at: now,
            };
            tx.insert_stars_invoice(&invoice).await?;
        }
        Ok(())
    }
}
