//! Response shapes of the partner API (spec: Resources and their fields). Money is a string
//! with two decimals next to `currency`; timestamps are ISO 8601 in UTC.

use std::collections::BTreeMap;

use serde::Serialize;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use utoipa::ToSchema;
use vp_app::views::{
    AppsView, ClientPage, ClientView, ConnectEntry, DevicesView, DocumentLink, DownloadLink, InvoiceView, PlansView,
    SubscriptionView,
};
use vp_domain::{CURRENCY, Money, PriceBreakdown};

use crate::openapi::values::{ClientIdValue, named_schema};
use vp_ports::{AccountRecord, PaymentMethodRecord};

/// `2026-01-31T12:00:00Z`: whole seconds, UTC (component `Timestamp`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Timestamp(String);
named_schema!(@impl Timestamp => "Timestamp");

pub fn timestamp(t: OffsetDateTime) -> Timestamp {
    let t = t.to_offset(time::UtcOffset::UTC).replace_nanosecond(0).unwrap_or(t);
    Timestamp(t.format(&Rfc3339).unwrap_or_default())
}

/// Rubles with two digits after the point, as the domain's `Money` prints (component `Money`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct MoneyText(String);
named_schema!(@impl MoneyText => "Money");

impl From<Money> for MoneyText {
    fn from(m: Money) -> Self {
        MoneyText(m.to_string())
    }
}

/// Percent with two digits after the point (component `Percent`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct PercentText(String);
named_schema!(@impl PercentText => "Percent");

#[derive(Debug, Serialize, ToSchema)]
pub struct Account {
    /// Service name shown to customers.
    pub brand_name: String,
    /// Partner markup over the platform price.
    pub markup_percent: PercentText,
    pub trial_enabled: bool,
    #[schema(example = "RUB")]
    pub currency: &'static str,
}

impl From<&AccountRecord> for Account {
    fn from(a: &AccountRecord) -> Self {
        Account {
            brand_name: a.brand_name.as_str().to_owned(),
            markup_percent: PercentText(a.markup.to_string()),
            trial_enabled: a.trial_enabled,
            currency: CURRENCY,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Plan {
    pub plan_id: i32,
    /// Calendar months of the term; 0 for a lifetime plan.
    pub months: u32,
    pub lifetime: bool,
    /// Customer price, exactly the invoice amount.
    pub price: MoneyText,
    pub platform_price: MoneyText,
    pub partner_share: MoneyText,
    /// The traffic each term of the plan allows; `null`: no limit.
    pub traffic_limit: Option<TrafficLimit>,
}

/// A limit on a subscription's traffic (docs/decisions.md, "Traffic limits").
#[derive(Debug, Serialize, ToSchema)]
pub struct TrafficLimit {
    /// Bytes per period; a plan's GB are 2^30 bytes each.
    pub bytes: u64,
    pub reset: TrafficReset,
}

/// When the traffic used starts again from zero: `no_reset` (only a renewal), `day`, `week`,
/// `month` (the first of each month) or `month_rolling` (a month after the last reset).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TrafficReset {
    NoReset,
    Day,
    Week,
    Month,
    MonthRolling,
}

impl From<vp_domain::traffic::TrafficLimit> for TrafficLimit {
    fn from(t: vp_domain::traffic::TrafficLimit) -> Self {
        use vp_domain::traffic::TrafficReset as R;
        let reset = match t.reset {
            R::NoReset => TrafficReset::NoReset,
            R::Day => TrafficReset::Day,
            R::Week => TrafficReset::Week,
            R::Month => TrafficReset::Month,
            R::MonthRolling => TrafficReset::MonthRolling,
        };
        TrafficLimit { bytes: t.bytes, reset }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DevicesOffer {
    /// Devices included in a subscription.
    pub included: u32,
    /// Ceiling of devices per client.
    pub max: u32,
    /// Customer price per added device.
    pub price: MoneyText,
    pub platform_price: MoneyText,
    pub partner_share: MoneyText,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Plans {
    pub currency: &'static str,
    pub plans: Vec<Plan>,
    /// `null`: extra devices are not sold now.
    pub devices: Option<DevicesOffer>,
}

fn money(p: &PriceBreakdown) -> (MoneyText, MoneyText, MoneyText) {
    (p.customer.into(), p.platform.into(), p.partner_share.into())
}

impl From<PlansView> for Plans {
    fn from(v: PlansView) -> Self {
        Plans {
            currency: CURRENCY,
            plans: v
                .plans
                .into_iter()
                .map(|p| {
                    let (price, platform_price, partner_share) = money(&p.price);
                    Plan {
                        plan_id: p.plan.plan_id,
                        months: p.plan.months,
                        lifetime: p.plan.lifetime,
                        price,
                        platform_price,
                        partner_share,
                        traffic_limit: p.plan.traffic.map(TrafficLimit::from),
                    }
                })
                .collect(),
            devices: v.devices.map(|d| {
                let (price, platform_price, partner_share) = money(&d.price);
                DevicesOffer { included: d.included, max: d.max, price, platform_price, partner_share }
            }),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PaymentMethod {
    /// Use as `method` of an invoice.
    #[schema(example = "card")]
    pub code: String,
    /// Display name in the requested language.
    #[schema(example = "Bank card")]
    pub name: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PaymentMethods {
    pub payment_methods: Vec<PaymentMethod>,
}

impl PaymentMethods {
    pub fn new(methods: Vec<PaymentMethodRecord>, lang: vp_app::Lang) -> Self {
        PaymentMethods {
            payment_methods: methods
                .into_iter()
                .map(|m| PaymentMethod { name: lang.pick_str(&m.name_en, &m.name_ru).to_owned(), code: m.code })
                .collect(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Connect {
    pub app_id: String,
    pub app_name: String,
    /// https page that opens the application with the subscription.
    pub connect_url: String,
    /// Text for a QR code that connects another device.
    pub qr_payload: String,
    /// The application accepts `subscription_url` pasted by hand.
    pub supports_manual_url: bool,
}

impl From<ConnectEntry> for Connect {
    fn from(c: ConnectEntry) -> Self {
        Connect {
            app_id: c.app_id,
            app_name: c.app_name,
            connect_url: c.connect_url,
            qr_payload: c.qr_payload,
            supports_manual_url: c.supports_manual_url,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SubscriptionStatus {
    Active,
    Expired,
    Suspended,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Subscription {
    pub status: SubscriptionStatus,
    pub is_trial: bool,
    /// A lifetime plan: `expires_at` is 9999-12-31T23:59:59Z and never passes.
    pub lifetime: bool,
    pub expires_at: Timestamp,
    pub days_left: i64,
    /// Unchanged by renewal; replaced by link rotation.
    pub subscription_url: String,
    pub connect: Vec<Connect>,
    /// `null`: no device limit.
    pub devices_limit: Option<u32>,
    /// Automatic renewal is on: the customer consented when paying, and the saved payment
    /// method is charged a day before the term ends. Turned off by the customer or by support.
    pub auto_renew: bool,
    /// The traffic the term allows, as the plan last bought set it; `null`: no limit.
    pub traffic_limit: Option<TrafficLimit>,
}

impl From<SubscriptionView> for Subscription {
    fn from(s: SubscriptionView) -> Self {
        Subscription {
            status: match s.status {
                vp_domain::SubscriptionStatus::Active => SubscriptionStatus::Active,
                vp_domain::SubscriptionStatus::Expired => SubscriptionStatus::Expired,
                vp_domain::SubscriptionStatus::Suspended => SubscriptionStatus::Suspended,
            },
            is_trial: s.is_trial,
            lifetime: s.lifetime,
            expires_at: timestamp(s.expires_at),
            days_left: s.days_left,
            subscription_url: s.subscription_url,
            connect: s.connect.into_iter().map(Connect::from).collect(),
            devices_limit: s.devices_limit,
            auto_renew: s.auto_renew,
            traffic_limit: s.traffic.map(TrafficLimit::from),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Client {
    #[schema(value_type = ClientIdValue)]
    pub client_id: String,
    pub created_at: Timestamp,
    /// `null`: the client never had a subscription.
    pub subscription: Option<Subscription>,
    /// Whether a trial can still be started; `false` for a blocked client.
    pub trial_available: bool,
}

impl From<ClientView> for Client {
    fn from(c: ClientView) -> Self {
        Client {
            client_id: c.client_id,
            created_at: timestamp(c.created_at),
            subscription: c.subscription.map(Subscription::from),
            trial_available: c.trial_available,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ClientList {
    pub clients: Vec<Client>,
    pub has_more: bool,
    /// Pass as `cursor` for the next page; `null` on the last page.
    pub next_cursor: Option<String>,
}

impl From<ClientPage> for ClientList {
    fn from(p: ClientPage) -> Self {
        ClientList {
            has_more: p.next_cursor.is_some(),
            next_cursor: p.next_cursor,
            clients: p.clients.into_iter().map(Client::from).collect(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PaymentStatus {
    Pending,
    Succeeded,
    Failed,
    Expired,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Purpose {
    Subscription,
    Devices,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Payment {
    pub payment_id: String,
    pub status: PaymentStatus,
    pub purpose: Purpose,
    #[schema(value_type = ClientIdValue)]
    pub client_id: String,
    pub plan_id: Option<i32>,
    pub devices: Option<u32>,
    pub method: String,
    pub amount: MoneyText,
    pub platform_amount: MoneyText,
    pub partner_share: MoneyText,
    pub currency: &'static str,
    /// Present only while `pending`.
    pub payment_url: Option<String>,
    pub created_at: Timestamp,
    pub expires_at: Timestamp,
    pub paid_at: Option<Timestamp>,
    /// Filled for `succeeded` (with the subscription link); `null` otherwise.
    pub client: Option<Client>,
    /// `true` when this is a replay of the first request with the same `Idempotency-Key`.
    pub replayed: bool,
    /// The promo code the invoice was issued with; `null` without one.
    pub promo: Option<PaymentPromo>,
}

/// What a promo code did to an invoice.
#[derive(Debug, Serialize, ToSchema)]
pub struct PaymentPromo {
    /// The code, in capitals.
    pub code: String,
    /// Taken off the customer price, all of it from `partner_share` (`0.00` for extra days).
    pub discount: MoneyText,
    /// Days added to the term bought, on top of the plan's.
    pub extra_days: u32,
}

impl From<InvoiceView> for Payment {
    fn from(v: InvoiceView) -> Self {
        let i = v.invoice;
        Payment {
            payment_id: i.payment_id.into(),
            status: match i.status {
                vp_domain::InvoiceStatus::Pending => PaymentStatus::Pending,
                vp_domain::InvoiceStatus::Succeeded => PaymentStatus::Succeeded,
                vp_domain::InvoiceStatus::Failed => PaymentStatus::Failed,
                vp_domain::InvoiceStatus::Expired => PaymentStatus::Expired,
            },
            purpose: match i.purpose {
                vp_domain::Purpose::Subscription { .. } => Purpose::Subscription,
                vp_domain::Purpose::Devices { .. } => Purpose::Devices,
            },
            client_id: i.client_id.as_str().to_owned(),
            plan_id: i.purpose.plan_id(),
            devices: i.purpose.devices(),
            method: i.method,
            amount: i.amounts.customer.into(),
            platform_amount: i.amounts.platform.into(),
            partner_share: i.amounts.partner_share.into(),
            currency: CURRENCY,
            payment_url: i.payment_url,
            created_at: timestamp(i.created_at),
            expires_at: timestamp(i.expires_at),
            paid_at: i.paid_at.map(timestamp),
            client: v.client.map(Client::from),
            replayed: v.replayed,
            promo: i.promo.map(|p| PaymentPromo {
                code: p.code.as_str().to_owned(),
                discount: p.discount.into(),
                extra_days: p.extra_days,
            }),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Device {
    /// The hardware id; use it in the delete path (URL-encoded).
    pub device_id: String,
    pub platform: Option<String>,
    pub model: Option<String>,
    pub os_version: Option<String>,
    pub created_at: Timestamp,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Devices {
    pub devices_count: usize,
    /// `null`: no limit.
    pub devices_limit: Option<u32>,
    pub devices: Vec<Device>,
}

impl From<DevicesView> for Devices {
    fn from(v: DevicesView) -> Self {
        Devices {
            devices_count: v.devices_count,
            devices_limit: v.devices_limit,
            devices: v
                .devices
                .into_iter()
                .map(|d| Device {
                    device_id: d.hwid,
                    platform: d.platform,
                    model: d.model,
                    os_version: d.os_version,
                    created_at: timestamp(d.created_at),
                })
                .collect(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Platform {
    pub platform_id: String,
    pub name: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Download {
    pub platform_id: String,
    pub app_id: String,
    pub url: String,
    /// Link label in the requested language.
    pub label: String,
}

impl From<DownloadLink> for Download {
    fn from(d: DownloadLink) -> Self {
        Download { platform_id: d.platform_id, app_id: d.app_id, url: d.url, label: d.label }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Application {
    pub app_id: String,
    pub app_name: String,
    pub supports_manual_url: bool,
    pub install_links: Vec<Download>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Apps {
    pub platforms: Vec<Platform>,
    pub apps: Vec<Application>,
    pub recommended_app_id: Option<String>,
    /// Per `platform_id`: the link to offer first on that platform.
    pub downloads: BTreeMap<String, Download>,
}

impl From<Option<AppsView>> for Apps {
    fn from(v: Option<AppsView>) -> Self {
        let Some(v) = v else {
            return Apps { platforms: vec![], apps: vec![], recommended_app_id: None, downloads: BTreeMap::new() };
        };
        Apps {
            platforms: v.platforms.into_iter().map(|p| Platform { platform_id: p.platform_id, name: p.name }).collect(),
            apps: v
                .apps
                .into_iter()
                .map(|a| Application {
                    app_id: a.app_id,
                    app_name: a.app_name,
                    supports_manual_url: a.supports_manual_url,
                    install_links: a.install_links.into_iter().map(Download::from).collect(),
                })
                .collect(),
            recommended_app_id: Some(v.recommended_app_id),
            downloads: v.downloads.into_iter().map(|(k, d)| (k, Download::from(d))).collect(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Document {
    /// `terms_of_service` or `privacy_policy`.
    #[serde(rename = "type")]
    pub doc_type: &'static str,
    pub title: String,
    pub url: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Documents {
    pub documents: Vec<Document>,
}

impl From<Vec<DocumentLink>> for Documents {
    fn from(v: Vec<DocumentLink>) -> Self {
        Documents {
            documents: v.into_iter().map(|d| Document { doc_type: d.doc_type, title: d.title, url: d.url }).collect(),
        }
    }
}
