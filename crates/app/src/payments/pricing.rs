//! What an invoice costs and where it is paid, decided once and pinned with its idempotency
//! key (`Charge`): the offer's price of the purpose, a promo code's discount, the rail the
//! chosen method goes through (a gateway with its own method, or Telegram Stars at the
//! account's rate), and the fiscal receipt where the gateway sends one; then the spec's rules
//! by purpose.

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use vp_domain::devices::DevicePurchaseRefused;
use vp_domain::markup::{PriceBreakdown, price as price_of};
use vp_domain::promo::{Applied, PromoCode, PromoRefused};
use vp_domain::receipt::{Receipt, ReceiptSettings};
use vp_domain::stars::StarsRate;
use vp_domain::{GatewayRoute, InvoiceRequest, Money, Purpose, Rail, check_device_purchase};
use vp_ports::{AccountRecord, ClientRecord};

use crate::catalog::Offer;
use crate::error::{AppError, AppResult, Refusal};
use crate::gateways::Gateways;
use crate::promotions::{self, AskedPromo};

/// What the rail is asked for. Kept with the idempotency key from the first attempt on, so a
/// resumed request (a retry after a 503, the completer after a crash) asks for exactly the
/// same through the same rail, even if prices, the brand or the method's gateway changed
/// meanwhile: a gateway refuses a reused idempotency key with a different body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Charge {
    pub customer: i64,
    pub platform: i64,
    pub partner_share: i64,
    pub description: String,
    /// The gateway's own method (the rail's); written for releases that read no `rail`.
    pub gateway_method: Option<String>,
    pub return_url: String,
    /// A periodic plan's invoice asks the gateway to save the method, for automatic renewal
    /// (absent from keys pinned before renewals: `false`).
    #[serde(default)]
    pub save_method: bool,
    /// The price in Stars of an invoice paid in Telegram Stars (absent for the gateway's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stars: Option<i64>,
    /// A Stars invoice of a one-month plan: a Stars subscription.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stars_subscription: bool,
    /// The fiscal receipt the gateway sends the buyer, while receipts are on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub receipt: Option<Receipt>,
    /// The promo code the amounts were discounted with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub promo: Option<ChargePromo>,
    /// The rail (`Rail` as text); absent from keys pinned before rails: Stars when priced in
    /// Stars, else the default gateway.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rail: Option<String>,
}

/// A promo code as the charge pins it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct ChargePromo {
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

    pub(super) fn applied(&self) -> Option<Applied> {
        Some(Applied {
            code: PromoCode::parse(&self.code).ok()?,
            discount: Money::from_kopecks(self.discount),
            extra_days: self.extra_days,
        })
    }
}

impl Charge {
    fn new(amounts: PriceBreakdown, description: String, rail: &Rail, return_url: String) -> Charge {
        Charge {
            customer: amounts.customer.kopecks(),
            platform: amounts.platform.kopecks(),
            partner_share: amounts.partner_share.kopecks(),
            description,
            gateway_method: match rail {
                Rail::Gateway(route) => route.method.clone(),
                Rail::Stars => None,
            },
            return_url,
            save_method: false,
            stars: None,
            stars_subscription: false,
            receipt: None,
            promo: None,
            rail: Some(rail.to_string()),
        }
    }

    pub(super) fn amounts(&self) -> PriceBreakdown {
        PriceBreakdown {
            customer: Money::from_kopecks(self.customer),
            platform: Money::from_kopecks(self.platform),
            partner_share: Money::from_kopecks(self.partner_share),
        }
    }

    /// The rail the charge was priced for.
    pub(super) fn rail(&self, gateways: &Gateways) -> Rail {
        match self.rail.as_deref().map(Rail::parse) {
            Some(Ok(rail)) => rail,
            _ if self.stars.is_some() => Rail::Stars,
            _ => Rail::Gateway(GatewayRoute { gateway: gateways.default_name(), method: self.gateway_method.clone() }),
        }
    }

    pub(super) fn applied_promo(&self) -> Option<Applied> {
        self.promo.as_ref().and_then(ChargePromo::applied)
    }

    pub(super) fn pinned(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The charge pinned with the key, if its text is readable.
    pub(super) fn from_pinned(text: Option<&str>) -> Option<Charge> {
        serde_json::from_str(text?).ok()
    }
}

/// What a request is priced against: the offer, the account, the rails that are on, and the
/// account's Stars rate where Stars may be chosen (the partner's bot; `None` elsewhere).
pub(super) struct Pricing<'a> {
    pub offer: &'a Offer,
    pub account: &'a AccountRecord,
    pub gateways: &'a Gateways,
    pub stars: Option<StarsRate>,
    /// How fiscal receipts are made while the service sends them.
    pub receipts: Option<ReceiptSettings>,
}

impl Pricing<'_> {
    /// The rail of the request's method; refused when the method is not offered now.
    pub(super) fn rail(&self, request: &InvoiceRequest) -> AppResult<Rail> {
        let rail = Rail::chosen(&request.method, |code| {
            self.offer.method(code.as_str()).and_then(|method| self.gateways.route(method))
        });
        match rail {
            Some(Rail::Stars) if self.stars.is_none() => Err(Refusal::UnsupportedPaymentMethod.into()),
            Some(rail) => Ok(rail),
            None => Err(Refusal::UnsupportedPaymentMethod.into()),
        }
    }

    /// Whether a payment on `rail` carries the buyer's fiscal receipt (so the buyer's email is
    /// needed): while receipts are on, for a gateway that sends them. Telegram sells the Stars.
    pub(super) fn needs_receipt(&self, rail: &Rail) -> bool {
        self.receipts.is_some()
            && rail.gateway().and_then(|g| self.gateways.get(g)).is_some_and(|gateway| gateway.sends_receipts())
    }

    /// The charge of a request as the offer prices it now, or the pricing refusal (an unknown
    /// plan, devices not for sale, a promo code that does not apply, a method not offered, no
    /// `customer_email` where a receipt is sent). Needs no client. A code's use is not checked
    /// here but when it is held (`promotions::hold`).
    pub(super) fn price(&self, request: &InvoiceRequest, return_url: String, asked: &AskedPromo) -> AppResult<Charge> {
        let account = self.account;
        let overflow = |e: vp_domain::markup::PriceOverflow| AppError::Internal(e.to_string());
        let (amounts, description, save_method, monthly) = match request.purpose {
            Purpose::Subscription { plan_id } => {
                let plan = self.offer.plan(plan_id).ok_or(Refusal::PlanNotFound)?;
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
                let settings = self.offer.device_settings.as_ref();
                let unit = settings.and_then(|s| s.platform_price).ok_or(Refusal::DevicesNotForSale)?;
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
        let rail = self.rail(request)?;
        if rail.is_stars() {
            let rate = self.stars.ok_or(Refusal::UnsupportedPaymentMethod)?;
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
                ..Charge::new(priced.amounts, description, &rail, return_url)
            });
        }
        let receipt = match (self.receipts.filter(|_| self.needs_receipt(&rail)), &request.customer_email) {
            (None, _) => None,
            (Some(settings), Some(email)) => {
                Some(Receipt::of_purchase(settings, email.as_str(), &description, request.purpose, amounts.customer))
            }
            (Some(_), None) => {
                return Err(AppError::field(
                    "customer_email",
                    "is required: the service sends the buyer a fiscal receipt",
                ));
            }
        };
        let save_method = save_method && self.gateways.saves_methods(&rail);
        Ok(Charge { receipt, promo, save_method, ..Charge::new(amounts, description, &rail, return_url) })
    }
}

/// The spec's rules by purpose, in the order: blocked client, plan or device rules, payment
/// method (the daily new-client limit is the store's, checked after). `priced` is the charge
/// the offer gives, or a resumed request's pinned one.
pub(super) fn check_rules(
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
