//! Promo codes (docs/decisions.md, "Promo codes"): the partner creates, lists and turns off
//! codes (CLI and cabinet); an invoice holds one use of its code while it is being issued or is
//! payable (`hold`), which the store counts from the invoice's status from then on.

use std::sync::Arc;

use time::{Date, OffsetDateTime};
use vp_domain::AccountId;
use vp_domain::markup::price;
use vp_domain::promo::{self, Benefit, PromoCode, PromoRefused, Terms, UseContext};
use vp_domain::{ClientId, Purpose};
use vp_ports::{Clock, IdGenerator, PromoCodeRecord, PromoRepo, PromoUsage, PromoUse, Store, StoreError};

use crate::actor::Acting;
use crate::audit::{Audit, AuditAction};
use crate::catalog::Offers;
use crate::error::{AppError, AppResult, Declined, Refusal};

/// A code as the partner asks for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewPromo {
    pub code: String,
    pub benefit: Benefit,
    pub max_uses: Option<u32>,
    pub per_customer: u32,
    pub first_purchase_only: bool,
    pub plans: Option<Vec<i32>>,
    /// The last day it works, in the account's time zone.
    pub last_day: Option<Date>,
}

/// A code with its uses so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromoSummary {
    pub promo: PromoCodeRecord,
    pub usage: PromoUsage,
}

pub struct Promotions {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) ids: Arc<dyn IdGenerator>,
    pub(crate) offers: Arc<Offers>,
    pub(crate) audit: Audit,
}

impl Promotions {
    /// A new code, recorded in the account's activity as `by`'s. A discount that would take a
    /// plan it applies to below the platform's price is refused, saying which plan and by how
    /// much.
    pub async fn create(&self, by: Acting<'_>, new: NewPromo) -> AppResult<PromoCodeRecord> {
        let account_id = by.account_id();
        let code = PromoCode::parse(&new.code).map_err(|_| Declined::PromoCodeMalformed)?;
        let account = read!(self.store, |tx| tx.account(account_id)).ok_or(AppError::NotFound("account"))?;
        if new.per_customer == 0 || new.max_uses == Some(0) {
            return Err(Declined::PromoUsesZero.into());
        }
        let offer = self.offers.current().await?;
        let on_sale = offer.plans_on_sale();
        if let Some(plans) = &new.plans {
            if let Some(unknown) = plans.iter().find(|id| offer.plan(**id).is_none()) {
                return Err(Declined::PromoPlanUnknown(*unknown).into());
            }
        }
        let terms = Terms {
            max_uses: new.max_uses,
            per_customer: new.per_customer,
            first_purchase_only: new.first_purchase_only,
            plans: new.plans.map(|mut p| {
                p.sort_unstable();
                p.dedup();
                p
            }),
            expires_at: new.last_day.map(|day| account.time_zone.end_of_day(day)),
            disabled: false,
        };
        for plan in on_sale.iter().filter(|p| terms.applies_to_plan(p.plan_id)) {
            let priced = price(plan.platform_price, 1, account.markup)
                .map_err(|e| AppError::Internal(format!("plan {}: {e}", plan.plan_id)))?;
            if let Err(below) = promo::apply(priced, new.benefit) {
                return Err(Declined::PromoBelowPlatformPrice { plan_id: plan.plan_id, by: below.by }.into());
            }
        }
        let now = self.clock.now();
        if terms.expires_at.is_some_and(|end| end <= now) {
            return Err(Declined::PromoExpiresInThePast.into());
        }
        let record = PromoCodeRecord {
            id: self.ids.new_id("promo"),
            account_id: account.id.clone(),
            code,
            benefit: new.benefit,
            terms,
            created_at: now,
        };
        let mut tx = self.store.begin().await?;
        match tx.insert_promo_code(&record).await {
            Ok(()) => {}
            Err(StoreError::Conflict(_)) => return Err(Declined::PromoCodeTaken(record.code.to_string()).into()),
            Err(e) => return Err(e.into()),
        }
        let detail = format!("{}: {}", record.code, describe_benefit(record.benefit));
        self.audit.record(tx.as_mut(), account_id, by.into(), AuditAction::PromoCreated, detail).await?;
        tx.commit().await?;
        Ok(record)
    }

    /// The account's codes, newest first, with their uses.
    pub async fn list(&self, of: Acting<'_>) -> AppResult<Vec<PromoSummary>> {
        let mut tx = self.store.read().await?;
        let codes = tx.promo_codes(of.account_id()).await?;
        let mut summaries = Vec::with_capacity(codes.len());
        for promo in codes {
            let usage = tx.promo_usage(&promo.id).await?;
            summaries.push(PromoSummary { promo, usage });
        }
        tx.commit().await?;
        Ok(summaries)
    }

    /// All the account's codes' uses together (the overview's).
    pub async fn totals(&self, of: Acting<'_>) -> AppResult<PromoUsage> {
        let codes = self.list(of).await?;
        Ok(codes.iter().fold(PromoUsage::default(), |all, s| PromoUsage {
            held: all.held + s.usage.held,
            spent: all.spent + s.usage.spent,
            discount_given: all.discount_given.checked_add(s.usage.discount_given).unwrap_or(all.discount_given),
        }))
    }

    pub async fn show(&self, account_id: &AccountId, code: &PromoCode) -> AppResult<PromoSummary> {
        let mut tx = self.store.read().await?;
        let promo = tx.promo_code(account_id, code).await?.ok_or(AppError::NotFound("promo code"))?;
        let usage = tx.promo_usage(&promo.id).await?;
        tx.commit().await?;
        Ok(PromoSummary { promo, usage })
    }

    /// Turns a code off, recorded as `by`'s: invoices already issued with it stay payable.
    pub async fn disable(&self, by: Acting<'_>, code: &PromoCode) -> AppResult<()> {
        let account_id = by.account_id();
        let mut tx = self.store.begin().await?;
        if !tx.disable_promo_code(account_id, code, self.clock.now()).await? {
            return Err(AppError::NotFound("promo code"));
        }
        self.audit.record(tx.as_mut(), account_id, by.into(), AuditAction::PromoDisabled, code.to_string()).await?;
        tx.commit().await?;
        Ok(())
    }
}

/// The code a request names, read before it is priced.
pub(crate) enum AskedPromo {
    None,
    Unknown,
    Found(PromoCodeRecord),
}

/// Reads the code an invoice request names in the account.
pub(crate) async fn asked(
    store: &dyn Store,
    account_id: &AccountId,
    code: Option<&PromoCode>,
) -> AppResult<AskedPromo> {
    let Some(code) = code else { return Ok(AskedPromo::None) };
    let found = read!(store, |tx| tx.promo_code(account_id, code));
    Ok(found.map_or(AskedPromo::Unknown, AskedPromo::Found))
}

/// A use of a code to hold for an invoice.
pub(crate) struct Hold<'a> {
    pub account_id: &'a AccountId,
    pub code: &'a PromoCode,
    pub payment_id: &'a str,
    pub client_id: &'a ClientId,
    pub purpose: Purpose,
    pub now: OffsetDateTime,
}

/// Holds one use of the code for the invoice, in the caller's unit of work (the one that
/// reserves the invoice's key) under the code's lock, if the code's terms allow it now; a
/// refusal is the caller's to roll back with the rest. Holding again for the same invoice (a
/// resumed request) changes nothing.
pub(crate) async fn hold(tx: &mut (impl PromoRepo + ?Sized), hold: Hold<'_>) -> AppResult<()> {
    let Hold { account_id, code, payment_id, client_id, purpose, now } = hold;
    let promo = tx.promo_code(account_id, code).await?.ok_or(Refusal::Promo(PromoRefused::Unknown))?;
    tx.lock_promo_code(&promo.id).await?;
    let held = PromoUse {
        payment_id: payment_id.to_owned(),
        promo_id: promo.id.clone(),
        account_id: account_id.clone(),
        client_id: client_id.clone(),
        created_at: now,
    };
    if !tx.insert_promo_use(&held).await? {
        return Ok(());
    }
    // Re-read under the lock: the code may have been turned off meanwhile.
    let promo = tx.promo_code(account_id, code).await?.ok_or(Refusal::Promo(PromoRefused::Unknown))?;
    let (uses, customer_uses) = tx.promo_uses_taken(&promo.id, client_id.as_str()).await?;
    let customer_paid_before = tx.client_paid_before(account_id, client_id.as_str()).await?;
    // The counts include the use just inserted.
    let ctx = UseContext {
        now,
        purpose,
        uses: uses.saturating_sub(1),
        customer_uses: customer_uses.saturating_sub(1),
        customer_paid_before,
    };
    promo.terms.check_use(ctx).map_err(Refusal::Promo)?;
    Ok(())
}

/// The discount and days a found code gives a purchase priced `amounts`, or why it does not
/// apply (devices, a plan outside the code's list, a price the discount would take below the
/// platform's).
pub(crate) fn applied(
    promo: &PromoCodeRecord,
    purpose: Purpose,
    amounts: vp_domain::PriceBreakdown,
) -> Result<(vp_domain::PriceBreakdown, promo::Applied), Refusal> {
    let not_applicable = Refusal::Promo(PromoRefused::NotApplicable);
    match purpose {
        Purpose::Subscription { plan_id } if promo.terms.applies_to_plan(plan_id) => {}
        _ => return Err(not_applicable),
    }
    let discounted = promo::apply(amounts, promo.benefit).map_err(|_| not_applicable)?;
    let applied =
        promo::Applied { code: promo.code.clone(), discount: discounted.discount, extra_days: discounted.extra_days };
    Ok((discounted.price, applied))
}

/// What a code gives, in the partner's words (CLI and cabinet).
pub fn describe_benefit(benefit: Benefit) -> String {
    match benefit {
        Benefit::PercentOff(percent) => format!("{percent}% off"),
        Benefit::AmountOff(amount) => format!("{amount} RUB off"),
        Benefit::ExtraDays(days) => format!("{days} extra days"),
    }
}

/// The message key saying why a code cannot be used, in the customer's words: the web shop
/// and the bot say the same.
pub const fn refusal_text_key(reason: PromoRefused) -> &'static str {
    match reason {
        PromoRefused::Unknown => "promo-refused-unknown",
        PromoRefused::Expired => "promo-refused-expired",
        PromoRefused::UsedUp => "promo-refused-used-up",
        PromoRefused::NotApplicable => "promo-refused-not-applicable",
    }
}
