//! The VPN panel port, shaped after Remnawave 3.x: one panel user per client, identified by our
//! client reference; the subscription link token is ours (Remnawave accepts a `shortUuid`), so
//! the link is known before the panel answers and survives a panel outage. A user adopted from
//! an existing panel (an import) keeps the name, id and link the panel gave it.

use async_trait::async_trait;
use thiserror::Error;
use time::OffsetDateTime;
use vp_domain::AccountId;
pub use vp_domain::adoption::{ExistingAccess, ExistingDeviceLimit};
pub use vp_domain::traffic::{TrafficCount, TrafficLimit, TrafficNotice, TrafficReset};

/// What the panel must hold for a client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PanelUser {
    /// The panel user's identity: our internal client reference (`ClientRecord::id`), or for
    /// a user adopted from the panel, the name the panel already knows it by
    /// (`SubscriptionRecord::panel_name`).
    pub user_ref: String,
    /// The partner account and the partner's `client_id`, so an operator looking at the panel
    /// can tell whose user it is.
    pub account_id: AccountId,
    pub client_id: String,
    pub link_token: String,
    pub expires_at: OffsetDateTime,
    /// `None`: no device limit (Remnawave's `hwidDeviceLimit = 0`).
    pub device_limit: Option<u32>,
    /// Access on (active subscription) or paused (suspended, expired, blocked).
    pub enabled: bool,
    /// The traffic the term allows; `None`: no limit.
    pub traffic: Option<TrafficLimit>,
    /// The panel's count of traffic used must have started at or after this moment (a term
    /// bought on a limit that never resets by itself counts from zero): `None`, no such rule.
    pub traffic_counted_from: Option<OffsetDateTime>,
}

/// Panels keep times to the millisecond (Remnawave's `expireAt`); what a panel holds is
/// compared with what it should hold at that precision.
pub fn to_millis(at: OffsetDateTime) -> OffsetDateTime {
    at.replace_nanosecond(at.nanosecond() / 1_000_000 * 1_000_000).unwrap_or(at)
}

/// A device as the panel registered it from the app's headers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PanelDevice {
    /// `x-hwid`.
    pub hwid: String,
    /// `x-device-os`.
    pub platform: Option<String>,
    /// `x-ver-os`.
    pub os_version: Option<String>,
    /// `x-device-model`.
    pub model: Option<String>,
    pub user_agent: Option<String>,
    pub created_at: OffsetDateTime,
}

/// One way the panel's user differs from what it should hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PanelDrift {
    /// `user` (missing), `expires_at`, `enabled`, `device_limit` or `link_token`.
    pub field: &'static str,
    pub expected: String,
    /// What the panel holds, in its own terms.
    pub actual: String,
}

impl PanelDrift {
    pub fn new(field: &'static str, expected: impl ToString, actual: impl ToString) -> PanelDrift {
        PanelDrift { field, expected: expected.to_string(), actual: actual.to_string() }
    }

    pub fn missing_user() -> PanelDrift {
        PanelDrift::new("user", "exists", "missing")
    }
}

/// What `panel check` shows: which panel answered, and what it says about itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PanelInfo {
    /// `local` or `remnawave`.
    pub kind: &'static str,
    /// Where the adapter talks to (no credentials).
    pub address: String,
    /// The version the panel reports, when it reports one.
    pub version: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PanelError {
    /// The panel did not answer (timeout, connection error, 5xx); nothing is known to have
    /// changed, and the same call may be repeated.
    #[error("VPN panel unavailable: {0}")]
    Unavailable(String),
    /// The panel answered but refused the request (a 4xx): our request was wrong or the panel
    /// drifted from what we expect. Retrying unchanged will not help at once.
    #[error("VPN panel refused the request: {0}")]
    Rejected(String),
}

#[async_trait]
pub trait VpnPanel: Send + Sync {
    /// Creates or updates the user so that it matches `user`. Idempotent: a retry after a
    /// timeout never creates a second user. A new `link_token` revokes the old link at once.
    async fn put_user(&self, user: &PanelUser) -> Result<(), PanelError>;
    /// `put_user` for each of `users` (distinct users), answered in their order. By default
    /// the calls run at once; a panel that takes many users in one call (the local panel: one
    /// commit) says so by its own.
    async fn put_users(&self, users: &[PanelUser]) -> Vec<Result<(), PanelError>> {
        futures_util::future::join_all(users.iter().map(|user| self.put_user(user))).await
    }
    /// How the panel's user differs from `user`; empty when it matches.
    async fn drift(&self, user: &PanelUser) -> Result<Vec<PanelDrift>, PanelError>;
    async fn devices(&self, user_ref: &str) -> Result<Vec<PanelDevice>, PanelError>;
    /// Returns false when the user has no such device.
    async fn delete_device(&self, user_ref: &str, hwid: &str) -> Result<bool, PanelError>;
    /// The traffic the user used since the panel's count last started from zero; `None` when
    /// the panel has no such user.
    async fn traffic_used(&self, user_ref: &str) -> Result<Option<TrafficCount>, PanelError>;
    /// The subscription link for a token.
    fn subscription_url(&self, link_token: &str) -> String;
    /// Reaches the panel with our credentials and reports what it is.
    async fn check(&self) -> Result<PanelInfo, PanelError>;
}

/// What a panel told us about one of its users (a webhook): the kind of change, by the panel's
/// own event name, never trusted beyond naming the user to look at again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PanelUserChange {
    /// The user's name in the panel (our client reference when it fits the panel's rule).
    pub username: String,
    /// The panel's event name (`user.disabled`, `user_hwid_devices.added`, ...).
    pub event: String,
}

/// What the app found when it looked at a user the panel said changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PanelUserChecked {
    /// No client of ours has this panel user.
    Unknown,
    /// The panel holds what the client's subscription says.
    InStep,
    /// The panel differs from the subscription: reported to the operator.
    Drifted(Vec<PanelDrift>),
}

/// The driving side: what a panel adapter calls when the panel tells it a user changed. The app
/// implements it; the adapter decides nothing itself.
#[async_trait]
pub trait PanelEvents: Send + Sync {
    /// The panel says `change.username` changed: the app reads the user back from the panel
    /// and compares it with the client's subscription, as the periodic reconciliation does.
    async fn panel_user_changed(&self, change: &PanelUserChange) -> Result<PanelUserChecked, PanelEventError>;
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PanelEventError {
    /// The panel could not be read back now, or our side failed; the panel may send it again
    /// and the periodic sync stays the safety net.
    #[error("the panel user could not be checked now: {0}")]
    Retry(String),
}

/// A user as an existing panel holds it, read by an import: what the client and its
/// subscription are made from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExistingPanelUser {
    /// The panel's own id of the user (Remnawave 3.x: its numeric `id`): what a re-run import
    /// recognises it by.
    pub panel_id: String,
    /// Its name in the panel (Remnawave's `username`).
    pub username: String,
    /// The token at the end of its subscription link (Remnawave's `shortUuid`).
    pub link_token: String,
    /// The link installed apps hold.
    pub subscription_url: String,
    pub access: ExistingAccess,
    pub expires_at: OffsetDateTime,
    pub device_limit: ExistingDeviceLimit,
    pub traffic: Option<TrafficLimit>,
    /// When the panel last counted the user's traffic from zero: its last reset, else its
    /// creation.
    pub traffic_counted_since: OffsetDateTime,
    pub telegram_id: Option<i64>,
    /// The panel's internal squads the user is in.
    pub squads: Vec<String>,
}

/// One page of a panel's users.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExistingPanelUsers {
    pub users: Vec<ExistingPanelUser>,
    /// Where the next page starts; `None` after the last.
    pub next: Option<String>,
}

/// Reading an existing panel's users, for an import. Only a panel that holds users made
/// elsewhere has it (Remnawave); pages come in a stable order, so a user is read once.
#[async_trait]
pub trait PanelDirectory: Send + Sync {
    /// Up to `size` users from `cursor` (`None`: the first page), only those tagged `tag`
    /// when one is given.
    async fn users_page(
        &self,
        cursor: Option<&str>,
        size: u32,
        tag: Option<&str>,
    ) -> Result<ExistingPanelUsers, PanelError>;
}
