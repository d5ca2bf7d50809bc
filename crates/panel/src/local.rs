//! The local panel's behaviour: the port for the core, and the link fetch for VPN apps.

use std::sync::Arc;

use async_trait::async_trait;
use time::format_description::well_known::Rfc3339;
use vp_ports::SettingKey;
use vp_ports::TrafficCount;
use vp_ports::{
    Clock, LocalPanelDevice, LocalPanelStore, LocalPanelTx, LocalPanelUser, PanelDevice, PanelDrift, PanelError,
    PanelInfo, PanelUser, TrafficLimit, VpnPanel, to_millis,
};
use vp_standin::{ModeCache, behave};

use crate::servers::ServerList;

pub struct LocalPanel {
    store: Arc<dyn LocalPanelStore>,
    clock: Arc<dyn Clock>,
    public_base_url: String,
    mode: ModeCache,
}

/// The headers a VPN app sends when it fetches a subscription link.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeviceHeaders {
    pub hwid: Option<String>,
    pub platform: Option<String>,
    pub os_version: Option<String>,
    pub model: Option<String>,
    pub user_agent: Option<String>,
}

/// What the link returns to an app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscriptionContent {
    pub servers: Vec<String>,
    pub expires_at: time::OffsetDateTime,
    /// The partner's brand, which apps show as the profile's title (`None` for a panel user
    /// without its client, which only the panel's own tests make).
    pub brand_name: Option<String>,
    /// The partner's support address, when set.
    pub support_url: Option<String>,
    /// The page a browser gets for this link (the connect page).
    pub web_page_url: String,
    /// The traffic used this period, with this fetch, and the limit; `None` without one.
    pub traffic: Option<(u64, u64)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FetchRefused {
    /// Unknown, rotated or expired link, or access paused.
    NotFound,
    /// The device limit is set and the app sent no `x-hwid`.
    HwidRequired,
    /// A new device over the limit.
    DeviceLimitReached,
    /// The traffic limit is used up until the period turns or a term is bought.
    TrafficUsedUp,
    Unavailable,
}

fn unavailable(e: impl std::fmt::Display) -> PanelError {
    PanelError::Unavailable(e.to_string())
}

/// Keeps header values printable and short; apps send free text.
fn clean(value: Option<String>) -> Option<String> {
    value.map(|v| v.chars().filter(|c| !c.is_control()).take(128).collect::<String>()).filter(|v| !v.is_empty())
}

/// The unit of work a call needs: a writing one, a read-only one that does not queue behind
/// writers, or a writing one whose commit does not wait for the disk (`put_user`'s).
#[derive(Debug, Clone, Copy)]
enum Unit {
    Write,
    Read,
    AsyncCommit,
}

impl LocalPanel {
    pub fn new(store: Arc<dyn LocalPanelStore>, clock: Arc<dyn Clock>, public_base_url: &str) -> LocalPanel {
        LocalPanel {
            store,
            clock,
            public_base_url: public_base_url.trim_end_matches('/').to_owned(),
            mode: ModeCache::new(SettingKey::PanelMode),
        }
    }

    /// Answers as the operator switched it (up, down, slow), then opens a unit of work of
    /// `kind`.
    async fn answer(&self, kind: Unit) -> Result<Box<dyn LocalPanelTx>, PanelError> {
        behave(self.mode.mode(self.store.as_ref()).await)
            .await
            .map_err(|()| PanelError::Unavailable("the local panel is switched to down".into()))?;
        let tx = match kind {
            Unit::Write => self.store.begin_local().await,
            Unit::Read => self.store.read_local().await,
            Unit::AsyncCommit => self.store.begin_local_async_commit().await,
        };
        tx.map_err(unavailable)
    }

    /// A VPN app fetches the link: the device is registered (or refused over the limit) and
    /// the server list returned. A rotated or expired link stops working at once. Under a
    /// traffic limit, what the link serves is counted (the local panel carries no VPN traffic,
    /// so its links' own bytes stand for it) and a used-up limit refuses the fetch.
    pub async fn fetch(&self, token: &str, headers: DeviceHeaders) -> Result<SubscriptionContent, FetchRefused> {
        let mut tx = self.answer(Unit::Write).await.map_err(|_| FetchRefused::Unavailable)?;
        let now = self.clock.now();
        let user = tx.local_panel_user_by_token(token).await.map_err(|_| FetchRefused::Unavailable)?;
        let user = user.filter(|u| u.enabled && u.expires_at > now).ok_or(FetchRefused::NotFound)?;
        let hwid = clean(headers.hwid);
        match (&hwid, user.device_limit) {
            (None, Some(_)) => return Err(FetchRefused::HwidRequired),
            (None, None) => {}
            (Some(hwid), limit) => {
                let devices = tx.local_panel_devices(&user.user_ref).await.map_err(|_| FetchRefused::Unavailable)?;
                let known = devices.iter().find(|d| &d.device.hwid == hwid);
                if known.is_none() && limit.is_some_and(|l| devices.len() >= usize::try_from(l).unwrap_or(usize::MAX)) {
                    return Err(FetchRefused::DeviceLimitReached);
                }
                let device = LocalPanelDevice {
                    user_ref: user.user_ref.clone(),
                    device: PanelDevice {
                        hwid: hwid.clone(),
                        platform: clean(headers.platform),
                        os_version: clean(headers.os_version),
                        model: clean(headers.model),
                        user_agent: clean(headers.user_agent),
                        created_at: known.map_or(now, |d| d.device.created_at),
                    },
                    last_seen_at: now,
                };
                tx.local_panel_upsert_device(&device).await.map_err(|_| FetchRefused::Unavailable)?;
            }
        }
        let servers = tx.setting(SettingKey::LocalPanelServers).await.map_err(|_| FetchRefused::Unavailable)?;
        let servers = servers.and_then(|s| ServerList::parse(&s.value).ok()).unwrap_or_else(ServerList::demo);
        let traffic = match user.traffic {
            None => None,
            Some(limit) => {
                let stored = tx.local_panel_traffic(&user.user_ref).await.map_err(|_| FetchRefused::Unavailable)?;
                let count = TrafficCount::as_of(stored, limit, user.traffic_counted_from, now);
                if count.exhausted(limit) {
                    // What the period turned or a renewal reset is kept even so.
                    if Some(count) != stored {
                        let kept = tx.local_panel_save_traffic(&user.user_ref, &count).await;
                        kept.and(tx.commit().await).map_err(|_| FetchRefused::Unavailable)?;
                    }
                    return Err(FetchRefused::TrafficUsedUp);
                }
                let served = servers.servers.iter().map(|s| s.len() as u64 + 1).sum();
                let count = count.with_served(served);
                tx.local_panel_save_traffic(&user.user_ref, &count).await.map_err(|_| FetchRefused::Unavailable)?;
                Some((count.used, limit.bytes))
            }
        };
        let client = tx.client_by_ref(&user.user_ref).await.map_err(|_| FetchRefused::Unavailable)?;
        let account = match &client {
            Some(c) => tx.account(&c.account_id).await.map_err(|_| FetchRefused::Unavailable)?,
            None => None,
        };
        tx.commit().await.map_err(|_| FetchRefused::Unavailable)?;
        Ok(SubscriptionContent {
            servers: servers.servers,
            expires_at: user.expires_at,
            brand_name: account.as_ref().map(|a| a.brand_name.as_str().to_owned()),
            support_url: account.and_then(|a| a.style.support_url),
            web_page_url: vp_ports::pages::connect_page_url(&self.public_base_url, token, None),
            traffic,
        })
    }
}

impl LocalPanel {
    /// Counts `bytes` more of traffic for the user of the link (the sandbox's stand-in for the
    /// VPN traffic the local panel does not carry); `None` when it has no limit to count for.
    pub async fn count_traffic(&self, token: &str, bytes: u64) -> Result<Option<TrafficCount>, PanelError> {
        let mut tx = self.answer(Unit::Write).await?;
        let now = self.clock.now();
        let Some(user) = tx.local_panel_user_by_token(token).await.map_err(unavailable)? else { return Ok(None) };
        let Some(limit) = user.traffic else { return Ok(None) };
        let stored = tx.local_panel_traffic(&user.user_ref).await.map_err(unavailable)?;
        let count = TrafficCount::as_of(stored, limit, user.traffic_counted_from, now);
        let count = count.with_served(bytes);
        tx.local_panel_save_traffic(&user.user_ref, &count).await.map_err(unavailable)?;
        tx.commit().await.map_err(unavailable)?;
        Ok(Some(count))
    }
}

#[async_trait]
impl VpnPanel for LocalPanel {
    async fn put_user(&self, user: &PanelUser) -> Result<(), PanelError> {
        // A push lost in a crash of the database is pushed again: the panel sync marks a push
        // done in a later commit of the same database, which is never kept without this one.
        self.put_users(std::slice::from_ref(user)).await.pop().unwrap_or(Ok(()))
    }

    /// Every user in one unit of work: its writes go out pipelined with one commit.
    async fn put_users(&self, users: &[PanelUser]) -> Vec<Result<(), PanelError>> {
        let written = async {
            let mut tx = self.answer(Unit::AsyncCommit).await?;
            for user in users {
                tx.local_panel_put_user(&local_user(user)).await.map_err(unavailable)?;
            }
            tx.commit().await.map_err(unavailable)
        };
        let result = written.await;
        users.iter().map(|_| result.clone()).collect()
    }

    async fn drift(&self, user: &PanelUser) -> Result<Vec<PanelDrift>, PanelError> {
        let mut tx = self.answer(Unit::Read).await?;
        let held = tx.local_panel_user(&user.user_ref).await.map_err(unavailable)?;
        tx.commit().await.map_err(unavailable)?;
        Ok(match held {
            None => vec![PanelDrift::missing_user()],
            Some(held) => differences(&local_user(user), &held),
        })
    }

    async fn devices(&self, user_ref: &str) -> Result<Vec<PanelDevice>, PanelError> {
        let mut tx = self.answer(Unit::Read).await?;
        let devices = tx.local_panel_devices(user_ref).await.map_err(unavailable)?;
        tx.commit().await.map_err(unavailable)?;
        Ok(devices.into_iter().map(|d| d.device).collect())
    }

    async fn delete_device(&self, user_ref: &str, hwid: &str) -> Result<bool, PanelError> {
        let mut tx = self.answer(Unit::Write).await?;
        let deleted = tx.local_panel_delete_device(user_ref, hwid).await.map_err(unavailable)?;
        tx.commit().await.map_err(unavailable)?;
        Ok(deleted)
    }

    async fn traffic_used(&self, user_ref: &str) -> Result<Option<TrafficCount>, PanelError> {
        let mut tx = self.answer(Unit::Read).await?;
        let now = self.clock.now();
        let Some(user) = tx.local_panel_user(user_ref).await.map_err(unavailable)? else { return Ok(None) };
        let stored = tx.local_panel_traffic(user_ref).await.map_err(unavailable)?;
        tx.commit().await.map_err(unavailable)?;
        // Without a limit nothing is counted.
        Ok(Some(match user.traffic {
            Some(limit) => TrafficCount::as_of(stored, limit, user.traffic_counted_from, now),
            None => TrafficCount::new(now),
        }))
    }

    fn subscription_url(&self, link_token: &str) -> String {
        format!("{}/sub/{link_token}", self.public_base_url)
    }

    async fn check(&self) -> Result<PanelInfo, PanelError> {
        self.answer(Unit::Read).await?.commit().await.map_err(unavailable)?;
        Ok(PanelInfo { kind: "local", address: format!("{}/sub/", self.public_base_url), version: None })
    }
}

/// The local panel keeps the access part of the port's user.
fn local_user(user: &PanelUser) -> LocalPanelUser {
    LocalPanelUser {
        user_ref: user.user_ref.clone(),
        link_token: user.link_token.clone(),
        expires_at: user.expires_at,
        device_limit: user.device_limit,
        enabled: user.enabled,
        traffic: user.traffic,
        traffic_counted_from: user.traffic_counted_from,
    }
}

fn limit_text(limit: Option<u32>) -> String {
    limit.map_or_else(|| "unlimited".to_owned(), |l| l.to_string())
}

fn time_text(at: time::OffsetDateTime) -> String {
    at.format(&Rfc3339).unwrap_or_else(|_| at.to_string())
}

fn differences(want: &LocalPanelUser, held: &LocalPanelUser) -> Vec<PanelDrift> {
    let mut drift = Vec::new();
    if to_millis(want.expires_at) != to_millis(held.expires_at) {
        drift.push(PanelDrift::new("expires_at", time_text(want.expires_at), time_text(held.expires_at)));
    }
    if want.enabled != held.enabled {
        drift.push(PanelDrift::new("enabled", want.enabled, held.enabled));
    }
    if want.device_limit != held.device_limit {
        drift.push(PanelDrift::new("device_limit", limit_text(want.device_limit), limit_text(held.device_limit)));
    }
    if want.traffic != held.traffic {
        let text =
            |t: Option<TrafficLimit>| t.map_or_else(|| "unlimited".to_owned(), |t| format!("{} {}", t.bytes, t.reset));
        drift.push(PanelDrift::new("traffic_limit", text(want.traffic), text(held.traffic)));
    }
    if want.link_token != held.link_token {
        drift.push(PanelDrift::new("link_token", &want.link_token, &held.link_token));
    }
    drift
}
