//! `POST /payments` and `GET /payments/{id}`, with Stripe-style idempotency keys and recovery
//! points: the key is recorded (with the invoice id reserved) before the gateway is called, and
//! the invoice id is the gateway's idempotency key, so a retry, or the background completer
//! after a crash, resumes with the same gateway payment instead of creating a second one.

use serde::{Deserialize, Serialize};
use time::{Duration, OffsetDateTime};
use vp_domain::Money;
use vp_domain::backoff::GATEWAY_RECHECK_FROM;
use vp_domain::invoice::payment_deadline;
use vp_domain::markup::{PriceBreakdown, price};
use vp_domain::{
    ClientId, DeviceSettings, IdempotencyKey, InvoiceRequest, InvoiceStatus, MethodCode, Purpose, ReturnUrl,
    check_device_purchase, devices::DevicePurchaseRefused,
};
use vp_ports::{
    AccountRecord, ClientRecord, GatewayError, GatewayPayment, GatewayPaymentRequest, IdempotencyRecord,
    InvoiceCreation, InvoiceRecord, RecoveryPoint, Tx,
};

use super::limits::check_new_client_limit;
use crate::App;
use crate::error::{AppError, AppResult, Refusal};
use crate::views::InvoiceView;

/// While the first request holds a key, retries get `OPERATION_IN_PROGRESS`; after this the
/// request is presumed dead and a retry (or the completer) resumes it.
pub const KEY_LOCK: Duration = Duration::seconds(60);

/// The "same fields" of the spec, in a fixed order, so JSON key order never matters.
#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
struct Fingerprint {
    client_id: String,
    purpose: String,
    plan_id: Option<i32>,
    devices: Option<u32>,
    method: String,
    return_url: Option<String>,
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
    })
}

/// What a validated request will be invoiced as.
struct Priced {
    charge: Charge,
    creates_client: bool,
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
}

impl Charge {
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

/// What the first phase decided.
enum Phase {
    Replay(InvoiceView),
    CallGateway { record: IdempotencyRecord, priced: Priced },
}

impl App {
    /// `POST /payments`. Returns the invoice and whether it is a replay.
    pub async fn create_invoice(
        &self,
        account: &AccountRecord,
        key: IdempotencyKey,
        request: InvoiceRequest,
    ) -> AppResult<InvoiceView> {
        let fp = fingerprint(&request);
        let result = match self.reserve_key(account, &key, &request, &fp).await {
            Ok(Phase::Replay(view)) => Ok(view),
            Ok(Phase::CallGateway { record, priced }) => self.issue(account, &request, record, priced).await,
            Err(e) => Err(e),
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

    /// Phase 1, one transaction: replay, refuse, or validate and record the key with the
    /// charge the gateway will be asked for.
    async fn reserve_key(
        &self,
        account: &AccountRecord,
        key: &IdempotencyKey,
        request: &InvoiceRequest,
        fp: &str,
    ) -> AppResult<Phase> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        tx.lock_account(&account.id).await?;
        let existing = tx.idempotency_key(&account.id, key.as_str()).await?;
        if let Some(rec) = &existing {
            let same = rec.request_fingerprint == fp;
            match rec.recovery_point {
                RecoveryPoint::Finished if same => {
                    let view = self.stored_invoice_view(tx.as_mut(), account, &rec.payment_id, true).await?;
                    tx.commit().await?;
                    return Ok(Phase::Replay(view));
                }
                RecoveryPoint::Finished => return Err(Refusal::IdempotencyKeyReuse.into()),
                RecoveryPoint::Started if rec.locked_until.is_some_and(|until| until > now) => {
                    return Err(if same { Refusal::OperationInProgress } else { Refusal::IdempotencyKeyReuse }.into());
                }
                // Unlocked: the first attempt got a 503 or died. Same fields resume it.
                RecoveryPoint::Started => {}
            }
        }
        let resumed = existing.as_ref().filter(|rec| rec.request_fingerprint == fp);
        let payment_id = resumed.map_or_else(|| self.ids.new_id("pay"), |rec| rec.payment_id.clone());
        let priced = self.validate(tx.as_mut(), account, request, &payment_id, resumed, now).await?;
        let record = match resumed {
            Some(rec) => IdempotencyRecord {
                locked_until: Some(now + KEY_LOCK),
                gateway_request: Some(priced.charge.pinned()),
                ..rec.clone()
            },
            // No invoice was ever issued for this key, so other fields make it a new request.
            None => IdempotencyRecord {
                account_id: account.id.clone(),
                key: key.as_str().to_owned(),
                request_fingerprint: fp.to_owned(),
                payment_id,
                recovery_point: RecoveryPoint::Started,
                locked_until: Some(now + KEY_LOCK),
                created_at: now,
                gateway_request: Some(priced.charge.pinned()),
            },
        };
        if existing.is_some() {
            tx.update_idempotency_key(&record).await?;
        } else {
            tx.insert_idempotency_key(&record).await?;
        }
        tx.commit().await?;
        Ok(Phase::CallGateway { record, priced })
    }

    /// The spec's rules by purpose, in the order: blocked client, plan or device rules,
    /// payment method, daily new-client limit. A request resuming an earlier attempt
    /// (`resumed`) keeps the charge that attempt pinned.
    async fn validate(
        &self,
        tx: &mut dyn Tx,
        account: &AccountRecord,
        request: &InvoiceRequest,
        payment_id: &str,
        resumed: Option<&IdempotencyRecord>,
        now: OffsetDateTime,
    ) -> AppResult<Priced> {
        let client = tx.client(&account.id, &request.client_id).await?;
        if client.as_ref().is_some_and(|c| c.blocked) {
            return Err(Refusal::ClientBlocked.into());
        }
        let subscription = client.as_ref().and_then(|c| c.subscription.as_ref()).map(|r| &r.subscription);
        let overflow = |e: vp_domain::markup::PriceOverflow| AppError::Conflict(e.to_string());
        let (amounts, description) = match request.purpose {
            Purpose::Subscription { plan_id } => {
                let plan = tx.plan(plan_id).await?.filter(|p| p.withdrawn_at.is_none()).ok_or(Refusal::PlanNotFound)?;
                if subscription.is_some_and(|s| s.check_purchase().is_err()) {
                    return Err(Refusal::LifetimeSubscription.into());
                }
                let term = match plan.months {
                    _ if plan.lifetime => "lifetime".to_owned(),
                    1 => "1 month".to_owned(),
                    n => format!("{n} months"),
                };
                (
                    price(plan.platform_price, 1, account.markup).map_err(overflow)?,
                    format!("{}: {term}", account.brand_name),
                )
            }
            Purpose::Devices { count } => {
                // Without device settings every subscription is unlimited (docs/decisions.md).
                let settings =
                    tx.device_settings().await?.unwrap_or(DeviceSettings { included: 0, max: 0, platform_price: None });
                check_device_purchase(subscription, &settings, count, now).map_err(|e| match e {
                    DevicePurchaseRefused::NoActiveSubscription => Refusal::NoActiveSubscription,
                    DevicePurchaseRefused::NotApplicable => Refusal::DeviceSlotsNotApplicable,
                    DevicePurchaseRefused::NotForSale => Refusal::DevicesNotForSale,
                    DevicePurchaseRefused::LimitExceeded { .. } => Refusal::DeviceSlotLimitExceeded,
                })?;
                let unit = settings.platform_price.ok_or(Refusal::DevicesNotForSale)?;
                let what = if count == 1 { "1 extra device".to_owned() } else { format!("{count} extra devices") };
                (price(unit, count, account.markup).map_err(overflow)?, format!("{}: {what}", account.brand_name))
            }
        };
        let method = tx.payment_method(request.method.as_str()).await?.filter(|m| m.enabled);
        let method = method.ok_or(Refusal::UnsupportedPaymentMethod)?;
        let creates_client = client.is_none();
        if creates_client {
            check_new_client_limit(tx, account, now).await?;
        }
        let pinned = resumed.and_then(|rec| Charge::from_pinned(rec.gateway_request.as_deref()));
        let charge = pinned.unwrap_or_else(|| Charge {
            customer: amounts.customer.kopecks(),
            platform: amounts.platform.kopecks(),
            partner_share: amounts.partner_share.kopecks(),
            description,
            gateway_method: method.gateway_type,
            return_url: request
                .return_url
                .as_ref()
                .map_or_else(|| self.payment_result_url(payment_id), |u| u.as_str().to_owned()),
        });
        Ok(Priced { charge, creates_client })
    }

    /// The platform's own page a customer returns to when the partner gave no `return_url`.
    pub fn payment_result_url(&self, payment_id: &str) -> String {
        format!("{}{}{payment_id}", self.settings.public_base_url, crate::partner::PAYMENT_RESULT_PREFIX)
    }

    /// Phase 2 (no transaction open): the gateway call, then phase 3 records the invoice.
    async fn issue(
        &self,
        account: &AccountRecord,
        request: &InvoiceRequest,
        record: IdempotencyRecord,
        priced: Priced,
    ) -> AppResult<InvoiceView> {
        let created_at = self.clock.now();
        let charge = &priced.charge;
        let gateway_request = GatewayPaymentRequest {
            idempotency_key: record.payment_id.clone(),
            account_id: account.id.clone(),
            amount: Money::from_kopecks(charge.customer),
            method: request.method.as_str().to_owned(),
            gateway_method: charge.gateway_method.clone(),
            description: charge.description.clone(),
            return_url: charge.return_url.clone(),
            expires_at: payment_deadline(created_at),
        };
        let payment = match self.gateway.create_payment(&gateway_request).await {
            Ok(p) => p,
            Err(e) => {
                tracing::warn!(payment_id = %record.payment_id, error = %e, "gateway did not issue the payment");
                return Err(self.gateway_refused(&record, e).await);
            }
        };
        self.record_invoice(account, request, record, priced, payment, created_at).await
    }

    /// What a gateway failure leaves behind. An unknown outcome keeps the key reserved but
    /// unlocked, so a retry resumes with the same gateway key at once. A definite "no" frees
    /// the key (nothing was issued; the gateway would only repeat its answer for the same key),
    /// so the partner's retry with the same key is a new request.
    async fn gateway_refused(&self, record: &IdempotencyRecord, e: GatewayError) -> AppError {
        let unlocked = IdempotencyRecord { locked_until: None, ..record.clone() };
        let forget = async {
            let mut tx = self.store.begin().await?;
            tx.delete_idempotency_key(&record.account_id, &record.key).await?;
            tx.commit().await?;
            Ok::<_, AppError>(())
        };
        let (cleanup, error) = match e {
            GatewayError::Unavailable(_) => (self.save_key(&unlocked).await, Refusal::PaymentUnavailable.into()),
            GatewayError::Declined(_) => (forget.await, Refusal::PaymentUnavailable.into()),
            GatewayError::MethodUnavailable(_) => (forget.await, Refusal::UnsupportedPaymentMethod.into()),
            GatewayError::Rejected(reason) => (forget.await, AppError::External(reason)),
        };
        cleanup.err().unwrap_or(error)
    }

    async fn save_key(&self, record: &IdempotencyRecord) -> AppResult<()> {
        let mut tx = self.store.begin().await?;
        tx.update_idempotency_key(record).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Phase 3, one transaction: the client (if new), the invoice and the finished key.
    async fn record_invoice(
        &self,
        account: &AccountRecord,
        request: &InvoiceRequest,
        record: IdempotencyRecord,
        priced: Priced,
        payment: GatewayPayment,
        created_at: OffsetDateTime,
    ) -> AppResult<InvoiceView> {
        let mut tx = self.store.begin().await?;
        tx.lock_account(&account.id).await?;
        let client = match tx.client(&account.id, &request.client_id).await? {
            Some(c) => c,
            None => {
                if priced.creates_client {
                    check_new_client_limit(tx.as_mut(), account, created_at).await?;
                }
                let c = ClientRecord {
                    id: self.ids.new_id("cli"),
                    account_id: account.id.clone(),
                    client_id: request.client_id.clone(),
                    created_at,
                    blocked: false,
                    subscription: None,
                };
                tx.insert_client(&c).await?;
                c
            }
        };
        let invoice = InvoiceRecord {
            payment_id: record.payment_id.clone(),
            account_id: account.id.clone(),
            client_ref: client.id.clone(),
            client_id: client.client_id.clone(),
            status: InvoiceStatus::Pending,
            purpose: request.purpose,
            method: request.method.as_str().to_owned(),
            amounts: priced.charge.amounts(),
            return_url: request.return_url.as_ref().map(|u| u.as_str().to_owned()),
            payment_url: Some(payment.payment_url),
            gateway_payment_id: Some(payment.gateway_payment_id),
            created_at,
            expires_at: payment_deadline(created_at),
            paid_at: None,
        };
        // A resumed request may find its invoice already recorded (and even paid).
        let already = tx.invoice_by_id(&invoice.payment_id).await?.is_some();
        if !already {
            tx.insert_invoice(&invoice).await?;
            if self.gateway.reconciles() {
                tx.schedule_gateway_check(&invoice.payment_id, Some(created_at + GATEWAY_RECHECK_FROM)).await?;
            }
        }
        tx.update_idempotency_key(&IdempotencyRecord {
            recovery_point: RecoveryPoint::Finished,
            locked_until: None,
            ..record
        })
        .await?;
        let view = if already {
            self.stored_invoice_view(tx.as_mut(), account, &invoice.payment_id, false).await?
        } else {
            // A new invoice is pending: shown without a client, so nothing needs re-reading.
            self.with_views(account, None, |v| v.invoice(invoice, None, false))
        };
        tx.commit().await?;
        Ok(view)
    }

    /// `GET /payments/{payment_id}`: only invoices of the caller's account exist for it.
    pub async fn invoice_view(&self, account: &AccountRecord, payment_id: &str) -> AppResult<InvoiceView> {
        let mut tx = self.store.read().await?;
        let view = self.stored_invoice_view(tx.as_mut(), account, payment_id, false).await?;
        tx.commit().await?;
        Ok(view)
    }

    pub(crate) async fn stored_invoice_view(
        &self,
        tx: &mut dyn Tx,
        account: &AccountRecord,
        payment_id: &str,
        replayed: bool,
    ) -> AppResult<InvoiceView> {
        let invoice = tx.invoice(&account.id, payment_id).await?.ok_or(Refusal::PaymentNotFound)?;
        let client = tx.client_by_ref(&invoice.client_ref).await?;
        let catalogue = self.load_catalogue(tx).await?;
        Ok(self.with_views(account, catalogue.as_ref(), |v| v.invoice(invoice, client.as_ref(), replayed)))
    }

    /// The background completer: finishes requests whose process died between recording the
    /// key and recording the invoice, with the same gateway idempotency key and the same
    /// charge. Returns how many it finished.
    pub async fn complete_unfinished_invoices(&self, limit: u32) -> AppResult<usize> {
        let now = self.clock.now();
        let mut tx = self.store.read().await?;
        let stale = tx.unfinished_idempotency_keys(now, limit).await?;
        tx.commit().await?;
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
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        tx.lock_account(&stale.account_id).await?;
        let account = tx.account(&stale.account_id).await?.ok_or(AppError::NotFound("account"))?;
        // Re-read under the lock: a partner's retry may have taken the key over meanwhile.
        let Some(rec) = tx.idempotency_key(&stale.account_id, &stale.key).await? else { return Ok(()) };
        if rec != *stale {
            return Ok(());
        }
        let rec = IdempotencyRecord { locked_until: Some(now + KEY_LOCK), ..rec };
        let priced = match self.validate(tx.as_mut(), &account, request, &rec.payment_id, Some(&rec), now).await {
            Ok(p) => p,
            Err(AppError::Refused(r)) => {
                // The rules refuse it now (plan withdrawn, limit reached): nothing is issued, and
                // the key is left free for the partner's retry, which gets the same refusal.
                tracing::info!(payment_id = %rec.payment_id, refusal = %r, "abandoning an unfinished invoice");
                tx.update_idempotency_key(&IdempotencyRecord { locked_until: None, ..rec }).await?;
                tx.commit().await?;
                return Ok(());
            }
            Err(e) => return Err(e),
        };
        let rec = IdempotencyRecord { gateway_request: Some(priced.charge.pinned()), ..rec };
        tx.update_idempotency_key(&rec).await?;
        tx.commit().await?;
        self.issue(&account, request, rec, priced).await.map(|_| ())
    }
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
