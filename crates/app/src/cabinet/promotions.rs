//! Promo codes from the cabinet's "Promotions" page: the account's codes with their uses, a new
//! code from the page's form, and turning one off; the referral program's days and figures.
//! Each change is the signed-in person's.

use vp_domain::Money;
use vp_domain::promo::Benefit;
use vp_domain::referral::ReferralDays;
use vp_domain::time_zone::parse_day;

use super::{Actor, Cabinet};
use crate::error::{AppError, AppResult, FieldErrors};
use crate::promotions::{NewPromo, PromoSummary};
use crate::referrals::ReferralProgram;

/// The page's form as sent: raw text, read here.
#[derive(Debug, Clone, Default)]
pub struct PromoForm {
    pub code: String,
    /// `percent_off`, `amount_off` or `extra_days`.
    pub kind: String,
    pub value: String,
    /// Empty: no limit.
    pub max_uses: String,
    /// Empty: 1.
    pub per_customer: String,
    pub first_purchase_only: bool,
    /// The plan ids ticked; none: every plan.
    pub plans: Vec<String>,
    /// `YYYY-MM-DD` or empty.
    pub expires: String,
}

/// A whole number of at least 1, or `None` for an empty field.
fn count(text: &str) -> Result<Option<u32>, &'static str> {
    match text.trim() {
        "" => Ok(None),
        n => n.parse::<u32>().ok().filter(|n| *n >= 1).map(Some).ok_or("a whole number of at least 1"),
    }
}

impl PromoForm {
    /// The code the form asks for; every bad field is named.
    fn read(&self) -> AppResult<NewPromo> {
        let mut errors = FieldErrors::new();
        let mut bad = |field: &str, why: String| {
            errors.insert(field.to_owned(), why);
        };
        let value = self.value.trim();
        let benefit = match self.kind.as_str() {
            "percent_off" => value.parse::<u32>().map_err(|_| ()).and_then(|p| Benefit::percent_off(p).map_err(|_| ())),
            "amount_off" => {
                Money::parse_positive(value).map_err(|_| ()).and_then(|a| Benefit::amount_off(a).map_err(|_| ()))
            }
            "extra_days" => value.parse::<u32>().map_err(|_| ()).and_then(|d| Benefit::extra_days(d).map_err(|_| ())),
            _ => Err(()),
        };
        if benefit.is_err() {
            bad("value", "the discount or the days".into());
        }
        let max_uses = count(&self.max_uses).map_err(|why| bad("max_uses", why.into())).ok().flatten();
        let per_customer = count(&self.per_customer).map_err(|why| bad("per_customer", why.into())).ok().flatten();
        let plans: Result<Vec<i32>, _> = self.plans.iter().map(|p| p.trim().parse::<i32>()).collect();
        let plans = plans.map_err(|_| bad("plans", "plans on sale".into())).ok();
        let last_day = match self.expires.trim() {
            "" => None,
            day => parse_day(day).or_else(|| {
                bad("expires", "a date".into());
                None
            }),
        };
        match benefit {
            Ok(benefit) if errors.is_empty() => Ok(NewPromo {
                code: self.code.clone(),
                benefit,
                max_uses,
                per_customer: per_customer.unwrap_or(1),
                first_purchase_only: self.first_purchase_only,
                plans: plans.filter(|p| !p.is_empty()),
                last_day,
            }),
            _ => Err(AppError::Validation(errors)),
        }
    }
}

impl Cabinet {
    /// The account's codes, newest first, with their uses.
    pub async fn promotions(&self, actor: &Actor) -> AppResult<Vec<PromoSummary>> {
        self.services.promotions.list(actor.account_id()).await
    }

    /// All codes' uses together, for the overview.
    pub async fn promo_totals(&self, actor: &Actor) -> AppResult<vp_ports::PromoUsage> {
        let codes = self.promotions(actor).await?;
        Ok(codes.iter().fold(vp_ports::PromoUsage::default(), |all, s| vp_ports::PromoUsage {
            held: all.held + s.usage.held,
            spent: all.spent + s.usage.spent,
            discount_given: all.discount_given.checked_add(s.usage.discount_given).unwrap_or(all.discount_given),
        }))
    }

    /// The plans on sale at the account's prices, for the form.
    pub async fn promo_plans(&self, actor: &Actor) -> AppResult<crate::views::PlansView> {
        self.services.catalog.price_list(&actor.account).await
    }

    /// A new code from the page's form.
    pub async fn create_promo(&self, actor: &Actor, form: &PromoForm) -> AppResult<()> {
        let new = form.read()?;
        self.services.promotions.create(actor.account_id(), new, actor.into()).await.map(|_| ())
    }

    /// The referral program and how it went.
    pub async fn referral_program(&self, actor: &Actor) -> AppResult<ReferralProgram> {
        self.services.referrals.program(actor.account_id()).await
    }

    /// The referral figures, for the overview.
    pub async fn referral_totals(&self, actor: &Actor) -> AppResult<vp_ports::ReferralTotals> {
        self.services.referrals.totals(actor.account_id()).await
    }

    /// Sets the days per invited customer from the page's field (0 turns the program off).
    pub async fn set_referral_days(&self, actor: &Actor, days: &str) -> AppResult<ReferralProgram> {
        let days = ReferralDays::parse(days)
            .map_err(|e| AppError::Validation(FieldErrors::from([("days".to_owned(), e.to_string())])))?;
        self.services.referrals.set_days(actor.account_id(), days, actor.into()).await
    }

    /// Turns a code off; invoices already issued with it stay payable.
    pub async fn disable_promo(&self, actor: &Actor, code: &str) -> AppResult<()> {
        self.services.promotions.disable(actor.account_id(), code, actor.into()).await
    }
}
