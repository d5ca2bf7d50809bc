//! The VPN panel port, shaped after Remnawave 3.x: one panel user per client, identified by our
//! client reference; the subscription link token is ours (Remnawave accepts a `shortUuid`), so
//! the link is known before the panel answers and survives a panel outage.

use async_trait::async_trait;
use thiserror::Error;
use time::OffsetDateTime;

/// What the panel must hold for a client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PanelUser {
    pub user_ref: String,
    pub link_token: String,
    pub expires_at: OffsetDateTime,
    /// `None`: no device limit (Remnawave's `hwidDeviceLimit = 0`).
    pub device_limit: Option<u32>,
    /// Access on (active subscription) or paused (suspended, expired, blocked).
    pub enabled: bool,
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

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PanelError {
    /// The panel did not answer; nothing is known to have changed.
    #[error("VPN panel unavailable: {0}")]
    Unavailable(String),
}

#[async_trait]
pub trait VpnPanel: Send + Sync {
    /// Creates or updates the user so that it matches `user` exactly.
    async fn put_user(&self, user: &PanelUser) -> Result<(), PanelError>;
    async fn devices(&self, user_ref: &str) -> Result<Vec<PanelDevice>, PanelError>;
    /// Returns false when the user has no such device.
    async fn delete_device(&self, user_ref: &str, hwid: &str) -> Result<bool, PanelError>;
    /// The subscription link for a token.
    fn subscription_url(&self, link_token: &str) -> String;
}
