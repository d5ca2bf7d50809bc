//! The idempotency protocol of `POST /payments` (spec: Idempotency outcomes), after
//! Stripe's keys with recovery points: the "same fields" of a request (`fingerprint`), the
//! lease a running request holds on its key (`KEY_LOCK`), a known key's replay, refusal or
//! take-over, and the completer of requests a crash cut off.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use time::{Duration, OffsetDateTime};
use vp_domain::cabinet::Email;
use vp_domain::promo::PromoCode;
use vp_domain::{ClientId, InvoiceRequest, MethodCode, PaymentId, Purpose, Rail, ReturnUrl};
use vp_ports::{AccountRecord, Clock, IdempotencyRecord, RecoveryPoint, Store};

use super::Payments;
use super::issuing::Reserved;
use super::pricing::{Charge, check_rules};
use crate::clients::limits::check_new_client_limit;
use crate::error::{AppError, AppResult, Refusal};
use crate::promotions;
use crate::retry::busy_retried;
use crate::views::InvoiceView;

/// While the first request holds a key, retries get `OPERATION_IN_PROGRESS`. The hold is a
/// lease: the request renews it every `KEY_LOCK_RENEW` while it works (a slow gateway keeps its
/// key), so a holder that died (SIGKILL, a lost machine) lets go within this time, and the
/// SDKs' retries (0.5, 1 and 2 s apart) resume its invoice instead of giving up on a 409.
pub const KEY_LOCK: Duration = Duration::seconds(3);
/// How often a request renews the lease on its key; a third of it, so two renewals may be late.
const KEY_LOCK_RENEW: std::time::Duration = std::time::Duration::from_secs(1);
/// How long a retry waits for the request holding its key before answering
/// `OPERATION_IN_PROGRESS`: a holder that is about to finish (a slow gateway, or the completer
/// resuming a request a crash cut off) gives the retry its invoice instead of a 409, and a
/// holder that died lets go meanwhile.
const HOLDER_WAIT: std::time::Duration = std::time::Duration::from_secs(2);
/// How often a waiting retry reads the key again.
const HOLDER_POLL: std::time::Duration = std::time::Duration::from_millis(100);

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

/// What taking a key over came to.
pub(super) enum TakeOver {
    /// The key is ours again (relocked): issue with this charge for this client.
    Issue(Box<Reserved>),
    /// The rules refuse the request now; the key is unchanged.
    Refused(AppError),
    /// Someone else changed the key first.
    Changed(AppError),
}

impl Payments {
    /// A key the account had already: the first request's invoice, a refusal, or (when the
    /// first attempt got a 503 or died) a take-over.
    pub(super) async fn known_key(
        &self,
        account: &AccountRecord,
        existing: IdempotencyRecord,
        request: &InvoiceRequest,
        now: OffsetDateTime,
        stars: Option<vp_domain::stars::StarsRate>,
    ) -> AppResult<InvoiceView> {
        let same = existing.request_fingerprint == fingerprint(request);
        match existing.recovery_point {
            RecoveryPoint::Finished if same => {
                Ok(read!(self.store, |tx| self.stored_invoice_view(tx.as_mut(), account, &existing.payment_id, true)))
            }
            RecoveryPoint::Finished => Err(Refusal::IdempotencyKeyReuse.into()),
            RecoveryPoint::Started if existing.running_at(now) => {
                if !same {
                    return Err(Refusal::IdempotencyKeyReuse.into());
                }
                match self.wait_for_holder(account, &existing).await? {
                    // Finished, or let go: answered as a key found so (boxed: it recurses once).
                    Some(after) => Box::pin(self.known_key(account, after, request, self.clock.now(), stars)).await,
                    None => Err(Refusal::OperationInProgress.into()),
                }
            }
            // Unlocked: the first attempt got a 503 or died.
            RecoveryPoint::Started => match self.take_over(account, &existing, request, stars).await? {
                TakeOver::Issue(reserved) => self.issue(account, request, *reserved).await,
                TakeOver::Refused(e) | TakeOver::Changed(e) => Err(e),
            },
        }
    }

    /// Reads the key again every `HOLDER_POLL` for `HOLDER_WAIT`: the record once its holder
    /// finished or let go (its lease ran out), or `None` while it still holds the key.
    async fn wait_for_holder(
        &self,
        account: &AccountRecord,
        held: &IdempotencyRecord,
    ) -> AppResult<Option<IdempotencyRecord>> {
        let deadline = tokio::time::Instant::now() + HOLDER_WAIT;
        while tokio::time::Instant::now() < deadline {
            tokio::time::sleep(HOLDER_POLL).await;
            let Some(current) = read!(self.store, |tx| tx.idempotency_key(&account.id, &held.key)) else {
                return Ok(None);
            };
            if !current.running_at(self.clock.now()) {
                return Ok(Some(current));
            }
        }
        Ok(None)
    }

    /// Takes an unlocked key over, under the account lock so only one taker wins: with the same
    /// fields the request resumes (same invoice id, pinned charge and rail); with other fields it
    /// is a new request, since no invoice was ever issued for the key.
    async fn take_over(
        &self,
        account: &AccountRecord,
        stale: &IdempotencyRecord,
        request: &InvoiceRequest,
        stars: Option<vp_domain::stars::StarsRate>,
    ) -> AppResult<TakeOver> {
        busy_retried("taking a key over", || async move {
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
            let payment_id = if resumed { stale.payment_id.clone() } else { PaymentId::issued(self.ids.new_id("pay")) };
            let pinned = resumed.then(|| Charge::from_pinned(stale.gateway_request.as_deref())).flatten();
            if !resumed {
                // The stale request's use of a code is not this request's.
                tx.release_promo_use(&stale.payment_id).await?;
            }
            let priced = match pinned {
                Some(charge) => Ok(charge),
                None => {
                    let asked =
                        promotions::asked(self.store.as_ref(), &account.id, request.promo_code.as_ref()).await?;
                    let return_url = self.return_url(request, &payment_id);
                    self.pricing(&offer, account, stars).price(request, return_url, &asked)
                }
            };
            let client = tx.client(&account.id, &request.client_id).await?;
            let checked = check_rules(&offer, request, client.as_ref(), priced, now);
            let checked = match checked {
                Ok(charge) if client.is_none() => {
                    check_new_client_limit(tx.as_mut(), account, now).await.map(|()| charge)
                }
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
            // What the charge holds, with the key (again for a resumed request: nothing changes).
            match self.hold(tx.as_mut(), account, request, &record, &charge, now).await {
                Ok(()) => {}
                Err(e @ AppError::Refused(_)) => return Ok(TakeOver::Refused(e)),
                Err(e) => return Err(e),
            }
            tx.update_idempotency_key(&record).await?;
            tx.commit().await?;
            Ok(TakeOver::Issue(Box::new(Reserved { record, charge, client })))
        })
        .await
    }

    pub(super) async fn save_key(&self, record: &IdempotencyRecord) -> AppResult<()> {
        busy_retried("saving a key", || async {
            let mut tx = self.store.begin().await?;
            tx.update_idempotency_key(record).await?;
            tx.commit().await?;
            Ok(())
        })
        .await
    }

    /// Frees a key no invoice was issued for.
    pub(super) async fn forget_key(&self, record: &IdempotencyRecord) -> AppResult<()> {
        busy_retried("freeing a key", || async {
            let mut tx = self.store.begin().await?;
            tx.delete_idempotency_key(&record.account_id, &record.key).await?;
            // A code's use held for it is given back.
            tx.release_promo_use(&record.payment_id).await?;
            tx.commit().await?;
            Ok(())
        })
        .await
    }

    /// The background completer: finishes requests whose process died between recording the
    /// key and recording the invoice, with the same gateway idempotency key, the same charge
    /// and the same rail. Returns how many it finished.
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
        // A request for Stars came from the account's bot, which takes them at its rate.
        let stars = match Rail::is_stars_code(&request.method) {
            true => tx.stars_rate(&account.id).await?,
            false => None,
        };
        tx.commit().await?;
        match self.take_over(&account, stale, request, stars).await? {
            TakeOver::Issue(reserved) => self.issue(&account, request, *reserved).await.map(|_| ()),
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
pub(super) async fn renew_key_lock(store: Arc<dyn Store>, clock: Arc<dyn Clock>, record: IdempotencyRecord) {
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
