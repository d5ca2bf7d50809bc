//! `POST /payments`, with Stripe-style idempotency keys and recovery points: the key is
//! recorded (with the invoice id reserved and the charge and rail pinned) before the rail is
//! asked, and the invoice id is the gateway's idempotency key, so a retry, or the background
//! completer after a crash, resumes with the same payment instead of creating a second one.
//!
//! The pipeline, a file per concern: the idempotency protocol (`idempotency`), pricing and the
//! rail (`pricing`), reserving the key with what the charge holds (`reserving`), issuing at the
//! rail (`issuing`), recording its answer (`recording`). Every new request is two units of work
//! around the rail's call, without an account-wide lock: the key reserved (the store's grouped
//! `open_invoice`, or with a promo code's use or a Stars price held beside it, one `Tx`), and
//! the answer recorded (`record_invoice`). The key's uniqueness serialises one key, and the
//! store keeps the new-client limit exact. Prices come from the offer kept in memory. The rare
//! paths (a known key, the completer) go through `Tx` under the account lock.

use time::OffsetDateTime;
use vp_domain::stars::StarsRate;
use vp_domain::{IdempotencyKey, InvoiceRequest, PaymentId};
use vp_ports::{
    AccountRecord, DailyQuota, IdempotencyRecord, InvoiceCreation, InvoiceOpening, RecoveryPoint, StoreError,
};

use super::Payments;
use super::idempotency::{KEY_LOCK, fingerprint};
use super::issuing::Reserved;
use super::pricing::{Pricing, check_rules};
use super::reserving::Reservation;
use crate::catalog::Offer;
use crate::clients::limits::{check_new_client_limit, daily_limit};
use crate::error::{AppError, AppResult, Refusal};
use crate::promotions;
use crate::retry::busy_retried;
use crate::views::InvoiceView;

impl Payments {
    /// `POST /payments`. Returns the invoice and whether it is a replay.
    pub async fn create_invoice(
        &self,
        account: &AccountRecord,
        key: IdempotencyKey,
        request: InvoiceRequest,
    ) -> AppResult<InvoiceView> {
        self.create_bot_invoice(account, key, request, None).await
    }

    /// An invoice of the partner's bot, where Telegram Stars may be chosen at the account's
    /// `stars` rate besides the methods of the gateways.
    pub async fn create_bot_invoice(
        &self,
        account: &AccountRecord,
        key: IdempotencyKey,
        request: InvoiceRequest,
        stars: Option<StarsRate>,
    ) -> AppResult<InvoiceView> {
        let result = match self.open_and_issue(account, &key, &request, stars).await {
            // A unit of work the database kept aborting (docs/decisions.md, "Lock order"): no
            // invoice was recorded by it, and the partner's retry with the same key resumes.
            Err(AppError::Store(StoreError::Busy(reason))) => {
                tracing::warn!(%reason, "an invoice could not be recorded for lock contention; the retry resumes it");
                Err(Refusal::PaymentUnavailable.into())
            }
            result => result,
        };
        self.metrics.invoice_created(match &result {
            Ok(view) if view.replayed => InvoiceCreation::Replayed,
            Ok(_) => InvoiceCreation::Issued,
            Err(AppError::Refused(Refusal::PaymentUnavailable)) => InvoiceCreation::PaymentUnavailable,
            Err(AppError::Store(_) | AppError::External(_)) => InvoiceCreation::Failed,
            Err(_) => InvoiceCreation::Refused,
        });
        result
    }

    /// What a request is priced against in this account.
    pub(super) fn pricing<'a>(
        &'a self,
        offer: &'a Offer,
        account: &'a AccountRecord,
        stars: Option<StarsRate>,
    ) -> Pricing<'a> {
        Pricing { offer, account, gateways: &self.gateways, stars, receipts: self.receipts }
    }

    /// Whether buying with `method` needs the buyer's email first (a fiscal receipt goes to
    /// it); `false` for a method not offered, which the invoice refuses anyway.
    pub async fn needs_receipt_email(
        &self,
        account: &AccountRecord,
        method: &vp_domain::MethodCode,
    ) -> AppResult<bool> {
        let offer = self.offers.current().await?;
        let pricing = self.pricing(&offer, account, None);
        let request_rail =
            vp_domain::Rail::chosen(method, |code| offer.method(code.as_str()).and_then(|m| self.gateways.route(m)));
        Ok(request_rail.is_some_and(|rail| pricing.needs_receipt(&rail)))
    }

    /// The first unit of work: the key recorded with the charge, the client read; then the
    /// rules, and the rail.
    async fn open_and_issue(
        &self,
        account: &AccountRecord,
        key: &IdempotencyKey,
        request: &InvoiceRequest,
        stars: Option<StarsRate>,
    ) -> AppResult<InvoiceView> {
        let now = self.clock.now();
        let offer = self.offers.current().await?;
        let asked = promotions::asked(self.store.as_ref(), &account.id, request.promo_code.as_ref()).await?;
        let payment_id = PaymentId::issued(self.ids.new_id("pay"));
        let return_url = self.return_url(request, &payment_id);
        let priced = self.pricing(&offer, account, stars).price(request, return_url, &asked);
        let record = IdempotencyRecord {
            account_id: account.id.clone(),
            key: key.as_str().to_owned(),
            request_fingerprint: fingerprint(request),
            payment_id,
            recovery_point: RecoveryPoint::Started,
            locked_until: Some(now + KEY_LOCK),
            created_at: now,
            gateway_request: priced.as_ref().ok().map(|charge| charge.pinned()),
        };
        if let Some(charge) = priced.as_ref().ok().filter(|c| c.holds_more()) {
            return match self.reserve_with_holds(account, request, &record, charge, &offer).await? {
                Reservation::Reserved(reserved) => self.issue(account, request, *reserved).await,
                Reservation::Known(existing) => self.known_key(account, existing, request, now, stars).await,
            };
        }
        let new_clients = daily_limit(account, DailyQuota::NewClients, now);
        let opening = InvoiceOpening { key: &record, client_id: &request.client_id, new_clients: &new_clients };
        let opened =
            busy_retried("opening an invoice", || async { Ok(self.store.open_invoice(opening).await?) }).await?;
        if let Some(existing) = opened.existing_key {
            return self.known_key(account, existing, request, now, stars).await;
        }
        let checked = match check_rules(&offer, request, opened.client.as_ref(), priced, now) {
            Ok(charge) if opened.client.is_none() && opened.new_clients_bound >= u64::from(new_clients.limit) => {
                self.new_client_allowed(account, now).await.map(|()| charge)
            }
            checked => checked,
        };
        match checked {
            Ok(charge) => self.issue(account, request, Reserved { record, charge, client: opened.client }).await,
            // A refusal binds no key: the partner may use it again.
            Err(e) => Err(self.forget_key(&record).await.err().unwrap_or(e)),
        }
    }

    /// The store's bound reached the limit: count exactly before anything is issued.
    async fn new_client_allowed(&self, account: &AccountRecord, now: OffsetDateTime) -> AppResult<()> {
        busy_retried("counting new clients", || async {
            let mut tx = self.store.begin().await?;
            check_new_client_limit(tx.as_mut(), account, now).await?;
            tx.commit().await?;
            Ok(())
        })
        .await
    }

    /// The partner's `return_url`, else the platform's own payment result page.
    pub(super) fn return_url(&self, request: &InvoiceRequest, payment_id: &PaymentId) -> String {
        request.return_url.as_ref().map_or_else(|| self.payment_result_url(payment_id), |u| u.as_str().to_owned())
    }

    /// The platform's own page a customer returns to when the partner gave no `return_url`.
    pub fn payment_result_url(&self, payment_id: &PaymentId) -> String {
        format!("{}{}{payment_id}", self.public_base_url, super::PAYMENT_RESULT_PREFIX)
    }
}
