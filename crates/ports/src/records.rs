//! Rows as the core sees them. Ids are opaque strings made by `IdGenerator`, except plan ids,
//! which the spec makes integers and the store assigns.

use time::OffsetDateTime;
use vp_domain::limits::LimitOverrides;
use vp_domain::traffic::TrafficLimit;
use vp_domain::{
    AccountId, ApiKeyId, BrandName, ClientId, ClientRef, GatewayName, InvoiceStatus, MarkupPercent, Money, PaymentId,
    PriceBreakdown, Purpose, Rail, Subscription, SubscriptionStatus, TimeZone,
};

/// A place in a list kept in time order: an item's time and, for items of the same time, its
/// id (ids are unique, so the order is total). A page starts strictly past it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cursor {
    pub at: OffsetDateTime,
    pub id: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountRecord {
    pub id: AccountId,
    pub brand_name: BrandName,
    pub markup: MarkupPercent,
    pub trial_enabled: bool,
    pub api_enabled: bool,
    pub limits: LimitOverrides,
    pub style: AccountStyle,
    /// The zone every time its customers read is shown in.
    pub time_zone: TimeZone,
    pub created_at: OffsetDateTime,
}

/// How the customer pages show an account; every value already checked by the operator
/// command that set it (`vp-app`'s `style`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AccountStyle {
    /// https address of the logo shown beside the brand name.
    pub logo_url: Option<String>,
    /// `#rrggbb`, at least 4.5:1 against white (button backgrounds under white text).
    pub accent_color: Option<String>,
    /// https address of the partner's support, also given to VPN apps as `support-url`.
    pub support_url: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiKeyRecord {
    pub id: ApiKeyId,
    pub account_id: AccountId,
    /// SHA-256 of the key, hex; the key itself is never stored.
    pub key_hash: String,
    /// The first characters of the key, so an operator can tell keys apart.
    pub prefix: String,
    pub created_at: OffsetDateTime,
    pub revoked_at: Option<OffsetDateTime>,
}

/// A plan before the store gives it its id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewPlan {
    /// Calendar months of the term; 0 for a lifetime plan.
    pub months: u32,
    pub lifetime: bool,
    /// `false` makes subscriptions of this plan unlimited in devices.
    pub device_limited: bool,
    pub platform_price: Money,
    pub created_at: OffsetDateTime,
    /// The traffic each term of the plan allows; `None`: no limit.
    pub traffic: Option<TrafficLimit>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanRecord {
    pub plan_id: i32,
    pub months: u32,
    pub lifetime: bool,
    pub device_limited: bool,
    pub platform_price: Money,
    pub created_at: OffsetDateTime,
    pub retired_at: Option<OffsetDateTime>,
    pub traffic: Option<TrafficLimit>,
}

impl PlanRecord {
    /// The term one purchase of the plan buys.
    pub fn term(&self) -> vp_domain::Term {
        if self.lifetime { vp_domain::Term::Lifetime } else { vp_domain::Term::Months(self.months) }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentMethodRecord {
    pub code: String,
    pub name_en: String,
    pub name_ru: String,
    pub enabled: bool,
    /// Display order, lowest first.
    pub position: i32,
    /// The gateway the method's payments go through; `None`: the default gateway
    /// (`VP_GATEWAY`).
    pub gateway: Option<GatewayName>,
    /// That gateway's own method this method maps to (YooKassa's type, Platega's SBP or
    /// cards); `None`: the customer chooses on the gateway's page.
    pub gateway_type: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientRecord {
    /// Internal id, unique across accounts.
    pub id: ClientRef,
    pub account_id: AccountId,
    pub client_id: ClientId,
    pub created_at: OffsetDateTime,
    pub blocked: bool,
    pub subscription: Option<SubscriptionRecord>,
}

impl ClientRecord {
    /// A client made now by its first invoice, trial or gift: not blocked, no subscription yet.
    pub fn new(id: ClientRef, account_id: AccountId, client_id: ClientId, created_at: OffsetDateTime) -> ClientRecord {
        ClientRecord { id, account_id, client_id, created_at, blocked: false, subscription: None }
    }

    /// Who the client is in the VPN panel: the client reference, or the panel's own name for a
    /// user adopted from it.
    pub fn panel_user_ref(&self) -> &str {
        match &self.subscription {
            Some(record) => record.panel_user_ref(&self.id),
            None => self.id.as_str(),
        }
    }
}

impl SubscriptionRecord {
    /// Who the subscription's client (`client_ref`) is in the VPN panel: an adopted user's own
    /// panel name, else the client reference.
    pub fn panel_user_ref<'a>(&'a self, client_ref: &'a str) -> &'a str {
        self.panel_name.as_deref().unwrap_or(client_ref)
    }
}

/// A client the term check reads, with its subscription's stored check moment (the page's
/// cursor).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TermCandidate {
    pub check_at: OffsetDateTime,
    pub client: ClientRecord,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscriptionRecord {
    pub subscription: Subscription,
    /// Secret token of the subscription link; replaced by link rotation.
    pub link_token: String,
    /// Bumped by every change the VPN panel must learn about.
    pub revision: i64,
    /// The last `revision` the panel confirmed; below `revision` means a sync is owed.
    pub panel_revision: i64,
    /// Automatic renewal is on: the customer consented and the gateway saved a method. Kept by
    /// `ClientRepo::set_auto_renew` alone; saving the subscription leaves it as stored.
    pub auto_renew: bool,
    /// The panel's own name for a user adopted from an existing panel (`import remnawave`),
    /// kept as it was so installed apps keep working; `None` for the users we create, which
    /// the panel knows by the client reference. Written by `ClientRepo::adopt_panel_users` alone.
    pub panel_name: Option<String>,
}

/// Which clients a list returns.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ClientFilter {
    /// `None`: every client; `Some(None)`: clients without a subscription.
    pub subscription_status: Option<Option<SubscriptionStatus>>,
    /// Return clients whose internal order key is after this cursor (created_at, id).
    pub after: Option<Cursor>,
    pub limit: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvoiceRecord {
    pub payment_id: PaymentId,
    pub account_id: AccountId,
    /// Internal id of the client.
    pub client_ref: ClientRef,
    pub client_id: ClientId,
    pub status: InvoiceStatus,
    pub purpose: Purpose,
    /// The payment method code the customer chose (the spec's `method`).
    pub method: String,
    /// What it is paid through, decided from the method when it was issued.
    pub rail: Rail,
    pub amounts: PriceBreakdown,
    pub return_url: Option<String>,
    pub payment_url: Option<String>,
    pub gateway_payment_id: Option<String>,
    pub created_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
    pub paid_at: Option<OffsetDateTime>,
    /// The fiscal receipt the gateway was asked to send with the payment, and with its refund.
    pub receipt: Option<vp_domain::receipt::Receipt>,
    /// The promo code the invoice was issued with, and what it did.
    pub promo: Option<vp_domain::promo::Applied>,
}

/// Where an idempotent `POST /payments` got to, so a retry after a crash resumes safely.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecoveryPoint {
    /// Key recorded; the gateway may or may not have been called.
    Started,
    /// Invoice issued and visible; the response can be replayed.
    Finished,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdempotencyRecord {
    pub account_id: AccountId,
    pub key: String,
    /// Canonical text of the request's "same fields" (see `vp_domain::InvoiceRequest`).
    pub request_fingerprint: String,
    /// The invoice id reserved when the key was first recorded.
    pub payment_id: PaymentId,
    pub recovery_point: RecoveryPoint,
    /// While the first request runs, a retry before this moment gets `OPERATION_IN_PROGRESS`.
    pub locked_until: Option<OffsetDateTime>,
    pub created_at: OffsetDateTime,
    /// What the gateway was first asked for (serialised by the app), so a resumed request
    /// sends the same; `None` until the first attempt.
    pub gateway_request: Option<String>,
}

impl IdempotencyRecord {
    /// Whether its request still runs at `now`: started, and its holder's lease not run out.
    pub fn running_at(&self, now: OffsetDateTime) -> bool {
        self.recovery_point == RecoveryPoint::Started && self.locked_until.is_some_and(|until| until > now)
    }
}

/// An invoice the reconciliation job claimed for a re-read of its gateway payment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GatewayCheck {
    pub invoice: InvoiceRecord,
    /// Re-reads so far, this one included.
    pub checks: u32,
}

/// A named, operator-edited JSON document (application list, legal documents, ...).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingRecord {
    pub key: crate::SettingKey,
    pub value: String,
    pub updated_at: OffsetDateTime,
}

/// A user of the embedded local panel: the access part of what the port hands it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalPanelUser {
    pub user_ref: String,
    pub link_token: String,
    pub expires_at: OffsetDateTime,
    pub device_limit: Option<u32>,
    pub enabled: bool,
    pub traffic: Option<TrafficLimit>,
    /// `PanelUser::traffic_counted_from`.
    pub traffic_counted_from: Option<OffsetDateTime>,
}

/// A device registered by the embedded local panel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalPanelDevice {
    pub user_ref: String,
    /// As any panel shows it.
    pub device: crate::panel::PanelDevice,
    pub last_seen_at: OffsetDateTime,
}
