//! Automatic renewal: consents and the renewal charges of terms.

use async_trait::async_trait;

use super::{Claim, StoreResult};
use crate::renewals::{RenewalCharge, RenewalConsent};

#[async_trait]
pub trait RenewalRepo: Send {
    async fn insert_consent(&mut self, consent: &RenewalConsent) -> StoreResult<()>;
    async fn update_consent(&mut self, consent: &RenewalConsent) -> StoreResult<()>;
    /// The client's newest consent in effect: with a saved method (on), or turned off. A
    /// consent still waiting for its payment's method is not one yet, so a new purchase's tick
    /// never hides the consent that renews now.
    async fn current_consent(&mut self, client_ref: &str) -> StoreResult<Option<RenewalConsent>>;
    async fn consent(&mut self, id: &str) -> StoreResult<Option<RenewalConsent>>;
    /// The consent given with this invoice.
    async fn consent_of_invoice(&mut self, payment_id: &str) -> StoreResult<Option<RenewalConsent>>;
    /// Records a term's renewal charge; `false` when the term has one already.
    async fn insert_renewal_charge(&mut self, charge: &RenewalCharge) -> StoreResult<bool>;
    async fn update_renewal_charge(&mut self, charge: &RenewalCharge) -> StoreResult<()>;
    /// Charges whose try is due at `claim.now`, oldest first, each held until
    /// `claim.lease_until` so no other worker takes it meanwhile.
    async fn claim_renewal_charges(&mut self, claim: Claim) -> StoreResult<Vec<RenewalCharge>>;
    /// Consents whose saved method is sealed under none of `prefixes` (the sealed values'
    /// beginnings that name a key), at most `limit`: what a key rotation must seal again, or
    /// what no configured key opens.
    async fn consents_sealed_outside(&mut self, prefixes: &[String], limit: u32) -> StoreResult<Vec<RenewalConsent>>;
    /// A client's renewal charges, newest term first.
    async fn renewal_charges_of_client(&mut self, client_ref: &str) -> StoreResult<Vec<RenewalCharge>>;
}
