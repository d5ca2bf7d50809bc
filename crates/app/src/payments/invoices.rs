//! `POST /payments` and `GET /payments/{id}`, with Stripe-style idempotency keys and recovery
//! points: the key is recorded (with the invoice id reserved and the charge pinned) before the
//! gateway is called, and the invoice id is the gateway's idempotency key, so a retry, or the
//! background completer after a crash, resumes with the same gateway payment instead of creating
//! a second one.
//!
//! A new request is two units of work of the store around the gateway call (`open_invoice`,
//! `record_invoice`), without an account-wide lock: the key's uniqueness serialises one key, and
//! the store keeps the new-client limit exact. Prices come from the offer kept in memory.
//! The rare paths (a known key, the completer) go through `Tx` under the account lock.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use time::{Duration, OffsetDateTime};
use vp_domain::Money;
use vp_domain::backoff::GATEWAY_RECHECK_FROM;
use vp_domain::cabinet::Email;
use vp_domain::invoice::payment_deadline;
use vp_domain::markup::{PriceBreakdown, price as price_of};
use vp_domain::promo::{Applied, PromoCode, PromoRefused};
use vp_domain::receipt::{Receipt, ReceiptSettings};
use vp_domain::stars::{STARS_METHOD, StarsRate};
use vp_domain::{
    ClientId, IdempotencyKey, InvoiceRequest, InvoiceStatus, MethodCode, Purpose, ReturnUrl, check_device_purchase,
    devices::DevicePurchaseRefused,
};
use vp_ports::{
    AccountRecord, ClientRecord, ClientRepo, Clock, DailyQuota, GatewayError, GatewayPaymentRequest, IdempotencyRecord,
    InvoiceCreation, InvoiceOpening, InvoiceRecord, InvoiceRecorded, InvoiceRepo, InvoiceWrite, RecoveryPoint,
    SettingsRepo, StarsInvoice, Store,
};

use super::Payments;
use crate::catalog::Offer;
use crate::clients::limits::{check_new_client_limit, daily_limit};
use crate::content::load_app_list;
use crate::error::{AppError, AppResult, Refusal};
use crate::promotions::{self, AskedPromo};
use crate::views::InvoiceView;

/// While the first request holds a key, retries get `OPERATION_IN_PROGRESS`. The hold is a
/// lease: the request renews it every `KEY_LOCK_RENEW` while it works (a slow gateway keeps its
/// key), so a holder that died (SIGKILL, a lost machine) lets go within this time, and the
/// SDKs' retries (0.5, 1 and 2 s apart) resume its invoice instead of giving up on a 409.
pub const KEY_LOCK: Duration = Duration::seconds(3);
/// How often a request renews the lease on its key; a third of it, so two renewals may be late.
const KEY_LOCK_RENEW: std::time::Duration = std::time::Duration::from_secs(1);

/// The "same fields" of the spec, in a fixed order, so JSON key order never matters.
#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
struct Fingerprint {
    client_id: String,
    purpose: String,
    plan_id: Option<i32>,
    devices: Option<u32>,
    method: String,
    return_url: Option<String>,
    /// Absent unless given, so the fingerprints of keys taken before it existed still match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    customer_email: Option<String>,
    /// Likewise: absent unless given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    promo_code: Option<String>,
}

/// Canonical text of an invoice request's "same fields".
pub fn fingerprint(r: &InvoiceRequest) -> String {
    let f = Fingerprint {
        client_id: r.client_id.as_str().to_owned(),
        purpose: r.purpose.as_str().to_owned(),
        plan_id: r.purpose.plan_id(),
        devices: r.purpose.devices(),
        method: r.method.as_str().to_owned(),
        return_url: r.return_url.as_ref().map(|u| u.as_str().to_owned()),
        customer_email: r.customer_email.as_ref().map(|e| e.as_str().to_owned()),
        promo_code: r.promo_code.as_ref().map(|c| c.as_str().to_owned()),
    };
    serde_json::to_string(&f).unwrap_or_default()
}

fn request_from_fingerprint(text: &str) -> Option<InvoiceRequest> {
    let f: Fingerprint = serde_json::from_str(text).ok()?;
    let purpose = match (f.purpose.as_str(), f.plan_id, f.devices) {
        ("subscription", Some(plan_id), None) => Purpose::Subscription { plan_id },
        ("devices", None, Some(count)) => Purpose::Devices { count },
        _ => return None,
    };
    Some(InvoiceRequest {
        client_id: ClientId::parse(&f.client_id).ok()?,
        purpose,
        method: MethodCode::parse(&f.method).ok()?,
        return_url: f.return_url.map(|u| ReturnUrl::parse(&u)).transpose().ok()?,
        customer_email: f.customer_email.map(|e| Email::parse(&e)).transpose().ok()?,
        promo_code: f.promo_code.map(|c| PromoCode::parse(&c)).transpose().ok()?,
    })
}

/// What the gateway is asked for. Kept with the idempotency key from the first attempt on, so
/// a resumed request (a retry after a 503, the completer after a crash) asks for exactly the
/// same, even if prices, the brand or the method mapping changed meanwhile: a gateway refuses
/// a reused idempotency key with a different body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Charge {
    customer: i64,
    platform: i64,
    partner_share: i64,
    description: String,
    gateway_method: Option<String>,
    return_url: String,
    /// A periodic plan's invoice asks the gateway to save the method, for automatic renewal
    /// (absent from keys pinned before renewals: `false`).
    #[serde(default)]
    save_method: bool,
    /// The price in Stars of an invoice paid in Telegram Stars (absent for the gateway's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stars: Option<i64>,
    /// A Stars invoice of a one-month plan: a Stars subscription.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    stars_subscription: bool,
    /// The fiscal receipt the gateway sends the buyer, while receipts are on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    receipt: Option<Receipt>,
    /// The promo code the amounts were discounted with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    promo: Option<ChargePromo>,
}

/// A promo code as the charge pins it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct ChargePromo {
    code: String,
    /// Kopecks.
    discount: i64,
    extra_days: u32,
}

impl ChargePromo {
    fn new(applied: &Applied) -> ChargePromo {
        ChargePromo {
            code: applied.code.as_str().to_owned(),
            discount: applied.discount.kopecks(),
            extra_days: applied.extra_days,
        }
    }

    fn applied(&self) -> Option<Applied> {
        Some(Applied {
            code: PromoCode::parse(&self.code).ok()?,
            discount: Money::from_kopecks(self.discount),
            extra_days: self.extra_days,
        })
    }
}

impl Charge {
    fn new(
        amounts: PriceBreakdown,
        description: String,
        gateway_method: Option<String>,
        return_url: String,
        save_method: bool,
    ) -> Charge {
        Charge {
            customer: amounts.customer.kopecks(),
            platform: amounts.platform.kopecks(),
            partner_share: amounts.partner_share.kopecks(),
            description,
            gateway_method,
            return_url,
            save_method,
            stars: None,
            stars_subscription: false,
            receipt: None,
            promo: None,
        }
    }

    fn amounts(&self) -> PriceBreakdown {
        PriceBreakdown {
            customer: Money::from_kopecks(self.customer),
            platform: Money::from_kopecks(self.platform),
            partner_share: Money::from_kopecks(self.partner_share),
        }
    }

    fn pinned(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The charge pinned with the key, if its text is readable.
    fn from_pinned(text: Option<&str>) -> Option<Charge> {
        serde_json::from_str(text?).ok()
    }
}

/// The charge of a request as the offer prices it now, or the pricing refusal (an unknown
/// plan, devices not for sale, a promo code that does not apply, a method not offered, no
/// `customer_email` while receipts are on). Needs no client. `stars` is the account's rate
/// where Telegram Stars may be chosen (the partner's bot), `None` elsewhere. A code's use is
/// not checked here but when it is held (`promotions::hold`).
fn price(
    offer: &Offer,
    account: &AccountRecord,
    request: &InvoiceRequest,
    return_url: String,
    stars: Option<StarsRate>,
    receipts: Option<ReceiptSettings>,
    asked: &AskedPromo,
) -> AppResult<Charge> {
    let overflow = |e: vp_domain::markup::PriceOverflow| AppError::Conflict(e.to_string());
    let (amounts, description, save_method, monthly) = match request.purpose {
        Purpose::Subscription { plan_id } => {
            let plan = offer.plan(plan_id).ok_or(Refusal::PlanNotFound)?;
            let term = match plan.months {
                _ if plan.lifetime => "lifetime".to_owned(),
                1 => "1 month".to_owned(),
                n => format!("{n} months"),
            };
            (
                price_of(plan.platform_price, 1, account.markup).map_err(overflow)?,
                format!("{}: {term}", account.brand_name),
                !plan.lifetime,
                !plan.lifetime && plan.months == 1,
            )
        }
        Purpose::Devices { count } => {
            let unit =
                offer.device_settings.as_ref().and_then(|s| s.platform_price).ok_or(Refusal::DevicesNotForSale)?;
            let what = if count == 1 { "1 extra device".to_owned() } else { format!("{count} extra devices") };
            let amounts = price_of(unit, count, account.markup).map_err(overflow)?;
            (amounts, format!("{}: {what}", account.brand_name), false, false)
        }
    };
    let (amounts, promo) = match asked {
        AskedPromo::None => (amounts, None),
        AskedPromo::Unknown => return Err(Refusal::Promo(PromoRefused::Unknown).into()),
        AskedPromo::Found(code) => {
            let (discounted, applied) = promotions::applied(code, request.purpose, amounts)?;
            (discounted, Some(ChargePromo::new(&applied)))
        }
    };
    if request.method.as_str() == STARS_METHOD {
        let rate = stars.ok_or(Refusal::UnsupportedPaymentMethod)?;
        // Telegram renews a Stars subscription at its first price: a discount would last.
        if monthly && promo.as_ref().is_some_and(|p| p.discount > 0) {
            return Err(Refusal::Promo(PromoRefused::NotApplicable).into());
        }
        // A price above what Telegram takes in one invoice is not offered in Stars.
        let priced = rate.price(amounts).ok_or(Refusal::UnsupportedPaymentMethod)?;
        return Ok(Charge {
            stars: Some(priced.stars),
            stars_subscription: monthly,
            promo,
            ..Charge::new(priced.amounts, description, None, return_url, false)
        });
    }
    let method = offer.method(request.method.as_str()).ok_or(Refusal::UnsupportedPaymentMethod)?;
    let receipt = match (receipts, &request.customer_email) {
        (None, _) => None,
        (Some(settings), Some(email)) => {
            Some(Receipt::of_purchase(settings, email.as_str(), &description, request.purpose, amounts.customer))
        }
        (Some(_), None) => {
            return Err(AppError::field("customer_email", "is required: the service sends the buyer a fiscal receipt"));
        }
    };
    Ok(Charge {
        receipt,
        promo,
        ..Charge::new(amounts, description, method.gateway_type.clone(), return_url, save_method)
    })
}

/// The spec's rules by purpose, in the order: blocked client, plan or device rules, payment
/// method (the daily new-client limit is the store's, checked after). `priced` is the charge
/// the offer gives, or a resumed request's pinned one.
fn check_rules(
    offer: &Offer,
    request: &InvoiceRequest,
    client: Option<&ClientRecord>,
    priced: AppResult<Charge>,
    now: OffsetDateTime,
) -> AppResult<Charge> {
    if client.is_some_and(|c| c.blocked) {
        return Err(Refusal::ClientBlocked.into());
    }
    let subscription = client.and_then(|c| c.subscription.as_ref()).map(|r| &r.subscription);
    match request.purpose {
        Purpose::Subscription { .. } => {
            if let Err(AppError::Refused(Refusal::PlanNotFound)) = priced {
                return priced;
            }
            if subscription.is_some_and(|s| s.check_purchase().is_err()) {
                return Err(Refusal::LifetimeSubscription.into());
            }
        }
        Purpose::Devices { count } => {
            check_device_purchase(subscription, offer.device_settings.as_ref(), count, now).map_err(|e| match e {
                DevicePurchaseRefused::NoActiveSubscription => Refusal::NoActiveSubscription,
                DevicePurchaseRefused::NotApplicable => Refusal::DeviceSlotsNotApplicable,
                DevicePurchaseRefused::NotForSale => Refusal::DevicesNotForSale,
                DevicePurchaseRefused::LimitExceeded { .. } => Refusal::DeviceSlotLimitExceeded,
            })?;
        }
    }
    priced
}

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
    /// `stars` rate besides the gateway's methods.
    pub async fn create_bot_invoice(
        &self,
        account: &AccountRecord,
        key: IdempotencyKey,
        request: InvoiceRequest,
        stars: Option<StarsRate>,
    ) -> AppResult<InvoiceView> {
        let result = self.open_and_issue(account, &key, &request, stars).await;
        self.metrics.invoice_created(match &result {
            Ok(view) if view.replayed => InvoiceCreation::Replayed,
            Ok(_) => InvoiceCreation::Issued,
            Err(AppError::Refused(Refusal::PaymentUnavailable)) => InvoiceCreation::PaymentUnavailable,
            Err(AppError::Store(_) | AppError::External(_)) => InvoiceCreation::Failed,
            Err(_) => InvoiceCreation::Refused,
        });
        result
    }

    /// The first unit of work: the key recorded with the charge, the client read; then the
    /// rules, and the gateway.
    async fn open_and_issue(
        &self,
        account: &AccountRecord,
        key: &IdempotencyKey,
        request: &InvoiceRequest,
        stars: Option<StarsRate>,
    ) -> AppResult<InvoiceView> {
        let now = self.clock.now();
        let fp = fingerprint(request);
        let offer = self.offers.current().await?;
        let asked = promotions::asked(self.store.as_ref(), &account.id, request.promo_code.as_ref()).await?;
        let payment_id = self.ids.new_id("pay");
        let return_url = self.return_url(request, &payment_id);
        let priced = price(&offer, account, request, return_url, stars, self.receipts, &asked);
        let record = IdempotencyRecord {
            account_id: account.id.clone(),
            key: key.as_str().to_owned(),
            request_fingerprint: fp.clone(),
            payment_id,
            recovery_point: RecoveryPoint::Started,
            locked_until: Some(now + KEY_LOCK),
            created_at: now,
            gateway_request: priced.as_ref().ok().map(Charge::pinned),
        };
        let new_clients = daily_limit(account, DailyQuota::NewClients, now);
        let opening = InvoiceOpening { key: &record, client_id: &request.client_id, new_clients: &new_clients };
        let opened = self.store.open_invoice(opening).await?;
        if let Some(existing) = opened.existing_key {
            return self.known_key(account, existing, &fp, request, now, stars).await;
        }
        let checked = match check_rules(&offer, request, opened.client.as_ref(), priced, now) {
            Ok(charge) if opened.client.is_none() && opened.new_clients_bound >= u64::from(new_clients.limit) => {
                self.new_client_allowed(account, now).await.map(|()| charge)
            }
            checked => checked,
        };
        match checked {
            Ok(charge) => self.issue(account, request, record, charge, opened.client).await,
            // A refusal binds no key: the partner may use it again.
            Err(e) => Err(self.forget_key(&record).await.err().unwrap_or(e)),
        }
    }

    /// The store's bound reached the limit: count exactly before anything is issued.
    async fn new_client_allowed(&self, account: &AccountRecord, now: OffsetDateTime) -> AppResult<()> {
        let mut tx = self.store.begin().await?;
        check_new_client_limit(tx.as_mut(), account, now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The partner's `return_url`, else the platform's own payment result page.
    fn return_url(&self, request: &InvoiceRequest, payment_id: &str) -> String {
        request.return_url.as_ref().map_or_else(|| self.payment_result_url(payment_id), |u| u.as_str().to_owned())
    }

    /// The platform's own page a customer returns to when the partner gave no `return_url`.
    pub fn payment_result_url(&self, payment_id: &str) -> String {
        format!("{}{}{payment_id}", self.public_base_url, super::PAYMENT_RESULT_PREFIX)
    }

    /// A key the account had already: the first request's invoice, a refusal, or (when the
    /// first attempt got a 503 or died) a take-over.
    async fn known_key(
        &self,
        account: &AccountRecord,
        existing: IdempotencyRecord,
        fp: &str,
        request: &InvoiceRequest,
        now: OffsetDateTime,
        stars: Option<StarsRate>,
    ) -> AppResult<InvoiceView> {
        let same = existing.request_fingerprint == fp;
        match existing.recovery_point {
            RecoveryPoint::Finished if same => {
                Ok(read!(self.store, |tx| self.stored_invoice_view(tx.as_mut(), account, &existing.payment_id, true)))
            }
            RecoveryPoint::Finished => Err(Refusal::IdempotencyKeyReuse.into()),
            RecoveryPoint::Started if existing.locked_until.is_some_and(|until| until > now) => {
                Err(if same { Refusal::OperationInProgress } else { Refusal::IdempotencyKeyReuse }.into())
            }
            // Unlocked: the first attempt got a 503 or died.
            RecoveryPoint::Started => match self.take_over(account, &existing, request, stars).await? {
                TakeOver::Issue(taken) => {
                    let (record, charge, client) = *taken;
                    self.issue(account, request, record, charge, client).await
                }
                TakeOver::Refused(e) | TakeOver::Changed(e) => Err(e),
            },
        }
    }

    /// Takes an unlocked key over, under the account lock so only one taker wins: with the same
    /// fields the request resumes (same invoice id, pinned charge); with other fields it is a
    /// new request, since no invoice was ever issued for the key.
    async fn take_over(
        &self,
        account: &AccountRecord,
        stale: &IdempotencyRecord,
        request: &InvoiceRequest,
        stars: Option<StarsRate>,
    ) -> AppResult<TakeOver> {
        let now = self.clock.now();
        let offer = self.offers.current().await?;
        let mut tx = self.store.begin().await?;
        tx.lock_account(&account.id).await?;
        let current = tx.idempotency_key(&account.id, &stale.key).await?;
        if current.as_ref() != Some(stale) {
            // Another request or the completer moved first: the partner retries and sees how.
            return Ok(TakeOver::Changed(Refusal::OperationInProgress.into()));
        }
        let fp = fingerprint(request);
        let resumed = stale.request_fingerprint == fp;
        let payment_id = if resumed { stale.payment_id.clone() } else { self.ids.new_id("pay") };
        let pinned = resumed.then(|| Charge::from_pinned(stale.gateway_request.as_deref())).flatten();
        if !resumed {
            // The stale request's use of a code is not this request's.
            tx.release_promo_use(&stale.payment_id).await?;
        }
        let priced = match pinned {
            Some(charge) => Ok(charge),
            None => {
                let asked = promotions::asked(self.store.as_ref(), &account.id, request.promo_code.as_ref()).await?;
                let return_url = self.return_url(request, &payment_id);
                price(&offer, account, request, return_url, stars, self.receipts, &asked)
            }
        };
        let client = tx.client(&account.id, &request.client_id).await?;
        let checked = check_rules(&offer, request, client.as_ref(), priced, now);
        let checked = match checked {
            Ok(charge) if client.is_none() => check_new_client_limit(tx.as_mut(), account, now).await.map(|()| charge),
            checked => checked,
        };
        let charge = match checked {
            Ok(charge) => charge,
            Err(e) => return Ok(TakeOver::Refused(e)),
        };
        let record = IdempotencyRecord {
            request_fingerprint: fp,
            payment_id,
            locked_until: Some(now + KEY_LOCK),
            gateway_request: Some(charge.pinned()),
            ..stale.clone()
        };
        tx.update_idempotency_key(&record).await?;
        tx.commit().await?;
        Ok(TakeOver::Issue(Box::new((record, charge, client))))
    }

    /// Phase 2 under the key's lease (`KEY_LOCK`), renewed beside it until it is over.
    async fn issue(
        &self,
        account: &AccountRecord,
        request: &InvoiceRequest,
        record: IdempotencyRecord,
        charge: Charge,
        client: Option<ClientRecord>,
    ) -> AppResult<InvoiceView> {
        let renewing = tokio::spawn(renew_key_lock(self.store.clone(), self.clock.clone(), record.clone()));
        let issued = self.issue_now(account, request, record, charge, client).await;
        renewing.abort();
        // Once this returns, no renewal is left to lock a key the request released.
        let _ = renewing.await;
        issued
    }

    /// Phase 2 (no transaction open): the gateway call, then the second unit of work.
    async fn issue_now(
        &self,
        account: &AccountRecord,
        request: &InvoiceRequest,
        record: IdempotencyRecord,
        charge: Charge,
        client: Option<ClientRecord>,
    ) -> AppResult<InvoiceView> {
        if let Some(promo) = charge.promo.as_ref().and_then(ChargePromo::applied) {
            let held = promotions::hold(
                self.store.as_ref(),
                &account.id,
                &promo.code,
                &record.payment_id,
                &request.client_id,
                request.purpose,
                self.clock.now(),
            )
            .await;
            if let Err(e) = held {
                return Err(self.forget_key(&record).await.err().unwrap_or(e));
            }
        }
        let created_at = self.clock.now();
        if let Some(stars) = charge.stars {
            let payment_url = match self.stars_link(account, &record, &charge, stars, created_at).await {
                Ok(url) => url,
                Err(e) => return Err(self.gateway_refused(&record, e).await),
            };
            let issued = Issued { payment_url, gateway_payment_id: None };
            return self.record_invoice(account, request, record, charge, client, issued, created_at).await;
        }
        let gateway_request = GatewayPaymentRequest {
            idempotency_key: record.payment_id.clone(),
            account_id: account.id.clone(),
            amount: Money::from_kopecks(charge.customer),
            method: request.method.as_str().to_owned(),
            gateway_method: charge.gateway_method.clone(),
            description: charge.description.clone(),
            return_url: charge.return_url.clone(),
            expires_at: payment_deadline(created_at),
            save_method: charge.save_method,
            receipt: charge.receipt.clone(),
        };
        let payment = match self.gateway.create_payment(&gateway_request).await {
            Ok(p) => p,
            Err(e) => {
                tracing::warn!(payment_id = %record.payment_id, error = %e, "gateway did not issue the payment");
                return Err(self.gateway_refused(&record, e).await);
            }
        };
        let issued = Issued { payment_url: payment.payment_url, gateway_payment_id: Some(payment.gateway_payment_id) };
        self.record_invoice(account, request, record, charge, client, issued, created_at).await
    }

    /// A Stars invoice's link from the account's bot, its price in Stars recorded first (what
    /// the pre-checkout query is checked against).
    async fn stars_link(
        &self,
        account: &AccountRecord,
        record: &IdempotencyRecord,
        charge: &Charge,
        stars: i64,
        now: OffsetDateTime,
    ) -> Result<String, GatewayError> {
        let invoice = StarsInvoice {
            payment_id: record.payment_id.clone(),
            account_id: account.id.clone(),
            stars,
            subscription: charge.stars_subscription,
            created_at: now,
        };
        let recorded: AppResult<()> = async {
            let mut tx = self.store.begin().await?;
            tx.insert_stars_invoice(&invoice).await?;
            tx.commit().await?;
            Ok(())
        }
        .await;
        recorded.map_err(|e| GatewayError::Unavailable(e.to_string()))?;
        self.stars.invoice_link(account, &invoice, &charge.description).await
    }

    /// What a gateway failure leaves behind. An unknown outcome keeps the key reserved but
    /// unlocked, so a retry resumes with the same gateway key at once. A definite "no" frees
    /// the key (nothing was issued; the gateway would only repeat its answer for the same key),
    /// so the partner's retry with the same key is a new request.
    async fn gateway_refused(&self, record: &IdempotencyRecord, e: GatewayError) -> AppError {
        let unlocked = IdempotencyRecord { locked_until: None, ..record.clone() };
        let (cleanup, error) = match e {
            GatewayError::Unavailable(_) => (self.save_key(&unlocked).await, Refusal::PaymentUnavailable.into()),
            GatewayError::Declined(_) => (self.forget_key(record).await, Refusal::PaymentUnavailable.into()),
            GatewayError::MethodUnavailable(_) => {
                (self.forget_key(record).await, Refusal::UnsupportedPaymentMethod.into())
            }
            GatewayError::Rejected(reason) => (self.forget_key(record).await, AppError::External(reason)),
        };
        cleanup.err().unwrap_or(error)
    }

    async fn save_key(&self, record: &IdempotencyRecord) -> AppResult<()> {
        let mut tx = self.store.begin().await?;
        tx.update_idempotency_key(record).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Frees a key no invoice was issued for.
    async fn forget_key(&self, record: &IdempotencyRecord) -> AppResult<()> {
        let mut tx = self.store.begin().await?;
        tx.delete_idempotency_key(&record.account_id, &record.key).await?;
        // A code's use held for it is given back.
        tx.release_promo_use(&record.payment_id).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The second unit of work: the client (if new), the invoice and the finished key.
    #[allow(clippy::too_many_arguments, reason = "the pieces of one invoice, gathered along the request")]
    async fn record_invoice(
        &self,
        account: &AccountRecord,
        request: &InvoiceRequest,
        record: IdempotencyRecord,
        charge: Charge,
        mut client: Option<ClientRecord>,
        issued: Issued,
        created_at: OffsetDateTime,
    ) -> AppResult<InvoiceView> {
        let finished = IdempotencyRecord { recovery_point: RecoveryPoint::Finished, locked_until: None, ..record };
        // Twice at most: a client created meanwhile by another request gets the invoice instead.
        for _ in 0..2 {
            let new_client = match &client {
                Some(_) => None,
                None => Some((
                    ClientRecord {
                        id: self.ids.new_id("cli"),
                        account_id: account.id.clone(),
                        client_id: request.client_id.clone(),
                        created_at,
                        blocked: false,
                        subscription: None,
                    },
                    daily_limit(account, DailyQuota::NewClients, created_at),
                )),
            };
            let client_ref = client.as_ref().or(new_client.as_ref().map(|(c, _)| c)).map(|c| c.id.clone());
            let invoice = InvoiceRecord {
                payment_id: finished.payment_id.clone(),
                account_id: account.id.clone(),
                client_ref: client_ref.unwrap_or_default(),
                client_id: request.client_id.clone(),
                status: InvoiceStatus::Pending,
                purpose: request.purpose,
                method: request.method.as_str().to_owned(),
                amounts: charge.amounts(),
                return_url: request.return_url.as_ref().map(|u| u.as_str().to_owned()),
                payment_url: Some(issued.payment_url.clone()),
                gateway_payment_id: issued.gateway_payment_id.clone(),
                created_at,
                expires_at: payment_deadline(created_at),
                paid_at: None,
                receipt: charge.receipt.clone(),
                promo: charge.promo.as_ref().and_then(ChargePromo::applied),
            };
            let gateway_check_at = (self.gateway.reconciles() && issued.gateway_payment_id.is_some())
                .then(|| created_at + GATEWAY_RECHECK_FROM);
            let write = InvoiceWrite { invoice, new_client, key: finished.clone(), gateway_check_at };
            match self.store.record_invoice(&write).await? {
                // A new invoice is pending: shown without a client, so nothing needs re-reading.
                InvoiceRecorded::Recorded => {
                    return Ok(self.views.render(account, None, |v| v.invoice(write.invoice, None, false)));
                }
                // Another attempt of this request recorded it (and it may even be paid).
                InvoiceRecorded::AlreadyRecorded => {
                    let mut tx = self.store.begin().await?;
                    tx.update_idempotency_key(&finished).await?;
                    let view = self.stored_invoice_view(tx.as_mut(), account, &finished.payment_id, false).await?;
                    tx.commit().await?;
                    return Ok(view);
                }
                InvoiceRecorded::ClientExists => {
                    let mut tx = self.store.read().await?;
                    client = tx.client(&account.id, &request.client_id).await?;
                    tx.commit().await?;
                }
                InvoiceRecorded::DailyLimitReached => {
                    // Others took the last places after this request looked; nothing was issued
                    // here (the gateway's payment is never shown and lapses unpaid).
                    return Err(self.forget_key(&finished).await.err().unwrap_or(Refusal::NewClientsDailyLimit.into()));
                }
            }
        }
        Err(AppError::Conflict(format!("client {} changed twice while its invoice was recorded", request.client_id)))
    }

    /// `GET /payments/{payment_id}`: only invoices of the caller's account exist for it.
    pub async fn invoice_view(&self, account: &AccountRecord, payment_id: &str) -> AppResult<InvoiceView> {
        Ok(read!(self.store, |tx| self.stored_invoice_view(tx.as_mut(), account, payment_id, false)))
    }

    pub(crate) async fn stored_invoice_view(
        &self,
        tx: &mut (impl InvoiceRepo + ClientRepo + SettingsRepo + ?Sized),
        account: &AccountRecord,
        payment_id: &str,
        replayed: bool,
    ) -> AppResult<InvoiceView> {
        let invoice = tx.invoice(&account.id, payment_id).await?.ok_or(Refusal::PaymentNotFound)?;
        let client = tx.client_by_ref(&invoice.client_ref).await?;
        let app_list = load_app_list(tx).await?;
        Ok(self.views.render(account, app_list.as_ref(), |v| v.invoice(invoice, client.as_ref(), replayed)))
    }

    /// The background completer: finishes requests whose process died between recording the
    /// key and recording the invoice, with the same gateway idempotency key and the same
    /// charge. Returns how many it finished.
    pub async fn complete_unfinished_invoices(&self, limit: u32) -> AppResult<usize> {
        let now = self.clock.now();
        let stale = read!(self.store, |tx| tx.unfinished_idempotency_keys(now, limit));
        let mut finished = 0;
        for rec in stale {
            let Some(request) = request_from_fingerprint(&rec.request_fingerprint) else {
                tracing::error!(key = %rec.key, "unreadable idempotency fingerprint; left for an operator");
                continue;
            };
            match self.resume(&rec, &request).await {
                Ok(()) => finished += 1,
                Err(e) => {
                    tracing::warn!(payment_id = %rec.payment_id, error = %e, "could not complete the invoice yet")
                }
            }
        }
        Ok(finished)
    }

    async fn resume(&self, stale: &IdempotencyRecord, request: &InvoiceRequest) -> AppResult<()> {
        let mut tx = self.store.read().await?;
        let account = tx.account(&stale.account_id).await?.ok_or(AppError::NotFound("account"))?;
        let stars = match request.method.as_str() {
            STARS_METHOD => tx.stars_rate(&account.id).await?,
            _ => None,
        };
        tx.commit().await?;
        match self.take_over(&account, stale, request, stars).await? {
            TakeOver::Issue(taken) => {
                let (record, charge, client) = *taken;
                self.issue(&account, request, record, charge, client).await.map(|_| ())
            }
            // A partner's retry took the key over meanwhile.
            TakeOver::Changed(_) => Ok(()),
            TakeOver::Refused(AppError::Refused(r)) => {
                // The rules refuse it now (plan retired, limit reached): nothing is issued, and
                // the key is left free for the partner's retry, which gets the same refusal.
                tracing::info!(payment_id = %stale.payment_id, refusal = %r, "abandoning an unfinished invoice");
                self.save_key(&IdempotencyRecord { locked_until: None, ..stale.clone() }).await?;
                let mut tx = self.store.begin().await?;
                tx.release_promo_use(&stale.payment_id).await?;
                tx.commit().await?;
                Ok(())
            }
            TakeOver::Refused(e) => Err(e),
        }
    }
}

/// Renews the lease on a key being issued every `KEY_LOCK_RENEW`, until aborted or the key is
/// no longer this request's. A failed renewal is logged: the next may succeed, and a retry
/// that resumes meanwhile keeps the invoice id (the gateway's idempotency key).
async fn renew_key_lock(store: Arc<dyn Store>, clock: Arc<dyn Clock>, record: IdempotencyRecord) {
    let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + KEY_LOCK_RENEW, KEY_LOCK_RENEW);
    loop {
        tick.tick().await;
        let until = clock.now() + KEY_LOCK;
        let renewed: AppResult<bool> = async {
            let mut tx = store.begin().await?;
            let held = tx.extend_idempotency_lock(&record.account_id, &record.key, &record.payment_id, until).await?;
            tx.commit().await?;
            Ok(held)
        }
        .await;
        match renewed {
            Ok(true) => {}
            Ok(false) => return,
            Err(e) => tracing::warn!(key = %record.key, error = %e, "could not renew the lease on an idempotency key"),
        }
    }
}

/// Where the customer pays an issued invoice, and the gateway's id of the payment (none for
/// Telegram Stars, whose charge is known only once paid).
struct Issued {
    payment_url: String,
    gateway_payment_id: Option<String>,
}

/// What taking a key over came to.
enum TakeOver {
    /// The key is ours again (relocked): issue with this charge for this client.
    Issue(Box<(IdempotencyRecord, Charge, Option<ClientRecord>)>),
    /// The rules refuse the request now; the key is unchanged.
    Refused(AppError),
    /// Someone else changed the key first.
    Changed(AppError),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(json_like: (&str, Purpose, &str, Option<&str>)) -> InvoiceRequest {
        InvoiceRequest {
            client_id: ClientId::parse(json_like.0).unwrap(),
            purpose: json_like.1,
            method: MethodCode::parse(json_like.2).unwrap(),
            return_url: json_like.3.map(|u| ReturnUrl::parse(u).unwrap()),
            customer_email: None,
            promo_code: None,
        }
    }

    #[test]
    fn the_fingerprint_names_every_same_field_and_reads_back() {
        let r = request(("u1", Purpose::Subscription { plan_id: 3 }, "card", Some("https://shop.example/back")));
        let fp = fingerprint(&r);
        assert_eq!(
            fp,
            r#"{"client_id":"u1","purpose":"subscription","plan_id":3,"devices":null,"method":"card","return_url":"https://shop.example/back"}"#
        );
        assert_eq!(request_from_fingerprint(&fp), Some(r));
        let d = request(("u1", Purpose::Devices { count: 2 }, "card", None));
        assert_ne!(fingerprint(&d), fp);
        assert_eq!(request_from_fingerprint(&fingerprint(&d)), Some(d));
    }
}
