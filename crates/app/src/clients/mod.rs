//! Clients and their subscriptions as the partner API has them: read, list, trial, link
//! rotation and devices, the connect page behind the links, and keeping the VPN panel in
//! step (`panel_sync`). The daily limits on new clients and trials are `limits`.

mod connect;
pub(crate) mod limits;
mod panel_events;
mod panel_import;
mod panel_sync;
mod shop_bot_import;

use std::sync::Arc;

use time::OffsetDateTime;
use vp_domain::AccountId;
use vp_domain::limits::TRIAL_LENGTH;
use vp_domain::subscription::SubscriptionError;
use vp_domain::{ClientId, ClientRef, DeviceLimit, DeviceSettings, Subscription, SubscriptionStatus, Term};
use vp_ports::{
    AccountRecord, AccountRepo, ClientFilter, ClientRecord, ClientRepo, Clock, Cursor, DailyQuota, IdGenerator,
    PanelUser, Store, SubscriptionRecord, VpnPanel,
};

pub use connect::{ConnectApp, ConnectPage};
use limits::{check_new_client_limit, daily_limit};
pub use panel_import::{
    NotAdopted, PanelImport, PanelImportFilter, PanelImportReport, RefusedPanelUser, TelegramNotLinked,
};
pub use panel_sync::{ClientDrift, PanelReconciliation, PanelSync};
pub(crate) use panel_sync::{panel_failure, panel_user};
pub use shop_bot_import::{NotMapped, NotMappedReason, ShopBotImportReport};

use crate::content::load_app_list;
use crate::error::{AppError, AppResult, Refusal};
use crate::tokens::Tokens;
use crate::views::{ClientPage, ClientView, DevicesView, Views};
use panel_sync::subscription_panel_user;

/// The client of a partner request: `API_CLIENT_NOT_FOUND` when absent, `API_CLIENT_BLOCKED`
/// when blocked (every client endpoint).
pub(crate) async fn partner_client(
    tx: &mut (impl ClientRepo + ?Sized),
    account_id: &AccountId,
    client_id: &ClientId,
) -> AppResult<ClientRecord> {
    let client = tx.client(account_id, client_id).await?.ok_or(Refusal::ClientNotFound)?;
    if client.blocked {
        return Err(Refusal::ClientBlocked.into());
    }
    Ok(client)
}

/// Largest page of `GET /clients`.
pub const CLIENT_PAGE_MAX: u32 = 100;
pub const CLIENT_PAGE_DEFAULT: u32 = 20;

/// `GET /clients` query, validated by the HTTP adapter's parsing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ClientListQuery {
    /// `None`: all clients; `Some(None)`: clients that never had a subscription.
    pub status: Option<Option<SubscriptionStatus>>,
    pub limit: Option<u32>,
    /// Opaque cursor from a previous page's `next_cursor`.
    pub cursor: Option<String>,
}

/// A page cursor: the last client's creation time (Unix nanoseconds) and reference. Every
/// string of this shape is a position in the list, so any of them gives a page (perhaps empty)
/// and only other shapes are refused; the OpenAPI document carries the pattern.
pub const CURSOR_PATTERN: &str = r"^[0-9]{1,19}\.[A-Za-z0-9_-]{1,64}$";

fn encode_cursor(c: &ClientRecord) -> String {
    format!("{}.{}", c.created_at.unix_timestamp_nanos().max(0), c.id)
}

fn decode_cursor(text: &str) -> Option<Cursor> {
    let (nanos, id) = text.split_once('.')?;
    let ref_char = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    let shaped = (1..=19).contains(&nanos.len())
        && nanos.bytes().all(|b| b.is_ascii_digit())
        && (1..=64).contains(&id.len())
        && id.bytes().all(ref_char);
    if !shaped {
        return None;
    }
    let at = OffsetDateTime::from_unix_timestamp_nanos(nanos.parse().ok()?).ok()?;
    Some(Cursor { at, id: id.to_owned() })
}

/// Clients and subscriptions, as the partner API and the bot's shop ask for them.
pub struct Clients {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) ids: Arc<dyn IdGenerator>,
    pub(crate) panel: Arc<dyn VpnPanel>,
    pub(crate) tokens: Tokens,
    pub(crate) views: Views,
    pub(crate) panel_sync: Arc<PanelSync>,
}

impl Clients {
    /// `GET /clients/{client_id}`.
    pub async fn client_view(&self, account: &AccountRecord, client_id: &ClientId) -> AppResult<ClientView> {
        let mut tx = self.store.read().await?;
        let client = partner_client(tx.as_mut(), &account.id, client_id).await?;
        let app_list = load_app_list(tx.as_mut()).await?;
        tx.commit().await?;
        Ok(self.views.render(account, app_list.as_ref(), |v| v.client(&client)))
    }

    /// `GET /clients`: ordered by creation, oldest first, with a cursor to the next page.
    pub async fn list_clients(&self, account: &AccountRecord, query: ClientListQuery) -> AppResult<ClientPage> {
        let limit = query.limit.unwrap_or(CLIENT_PAGE_DEFAULT);
        if !(1..=CLIENT_PAGE_MAX).contains(&limit) {
            return Err(AppError::field("limit", format!("must be between 1 and {CLIENT_PAGE_MAX}")));
        }
        let after = match query.cursor.as_deref() {
            None => None,
            Some(c) => {
                Some(decode_cursor(c).ok_or_else(|| AppError::field("cursor", "is not a cursor from this API"))?)
            }
        };
        let filter = ClientFilter { subscription_status: query.status, after, limit: limit + 1 };
        let mut tx = self.store.read().await?;
        let mut rows = tx.clients(&account.id, &filter).await?;
        let app_list = load_app_list(tx.as_mut()).await?;
        tx.commit().await?;
        let has_more = rows.len() > usize::try_from(limit).unwrap_or(usize::MAX);
        rows.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
        let next_cursor = if has_more { rows.last().map(encode_cursor) } else { None };
        let clients = self.views.render(account, app_list.as_ref(), |v| rows.iter().map(|c| v.client(c)).collect());
        Ok(ClientPage { clients, next_cursor })
    }

    /// `POST /clients/{client_id}/trial`. The panel is told first; only when it answers is the
    /// trial recorded, so a 503 grants nothing and the request may be repeated.
    pub async fn start_trial(&self, account: &AccountRecord, client_id: &ClientId) -> AppResult<ClientView> {
        let now = self.clock.now();
        let mut tx = self.store.read().await?;
        let existing = self.check_trial(tx.as_mut(), account, client_id, now).await?;
        let settings = tx.device_settings().await?;
        tx.commit().await?;

        let client_ref =
            existing.as_ref().map_or_else(|| ClientRef::issued(self.ids.new_id(ClientRef::PREFIX)), |c| c.id.clone());
        let limit = settings.map_or(DeviceLimit::Unlimited, |s: DeviceSettings| s.initial_limit(true));
        let record = SubscriptionRecord {
            subscription: Subscription::activate(Term::Trial(TRIAL_LENGTH), limit, now),
            link_token: self.tokens.link_token(),
            revision: 1,
            panel_revision: 1,
            auto_renew: false,
            panel_name: None,
        };
        // A new trial is active and its client not blocked (checked above): access on.
        let user = subscription_panel_user(&client_ref, &account.id, client_id, &record, false, now);
        self.panel.put_user(&user).await.map_err(panel_failure)?;

        let mut tx = self.store.begin().await?;
        tx.lock_account(&account.id).await?;
        let recorded = async {
            // Checked again under the lock: a parallel request may have won meanwhile.
            let existing = self.check_trial(tx.as_mut(), account, client_id, now).await?;
            let client = match existing {
                Some(c) => c,
                None => {
                    let c = ClientRecord::new(client_ref.clone(), account.id.clone(), client_id.clone(), now);
                    tx.insert_client(&c).await?;
                    c
                }
            };
            tx.save_subscription(&client.id, &record).await?;
            tx.insert_trial_grant(&account.id, &client.id, now).await?;
            Ok::<_, AppError>(ClientRecord { subscription: Some(record.clone()), ..client })
        }
        .await;
        let client = match recorded {
            Ok(c) => c,
            Err(e) => {
                drop(tx);
                // The panel already holds an enabled user nobody can see: switch it off.
                let _ = self.panel.put_user(&PanelUser { enabled: false, ..user }).await;
                return Err(e);
            }
        };
        let app_list = load_app_list(tx.as_mut()).await?;
        tx.commit().await?;
        Ok(self.views.render(account, app_list.as_ref(), |v| v.client(&client)))
    }

    /// Trial rules 1, 3 and 4 (and the new-client limit for a client the trial creates).
    async fn check_trial(
        &self,
        tx: &mut (impl AccountRepo + ClientRepo + ?Sized),
        account: &AccountRecord,
        client_id: &ClientId,
        now: OffsetDateTime,
    ) -> AppResult<Option<ClientRecord>> {
        let account = tx.account(&account.id).await?.ok_or(Refusal::Unauthorized)?;
        if !account.trial_enabled {
            return Err(Refusal::TrialDisabled.into());
        }
        let existing = tx.client(&account.id, client_id).await?;
        if let Some(c) = &existing {
            if c.blocked {
                return Err(Refusal::ClientBlocked.into());
            }
            if c.subscription.is_some() {
                return Err(Refusal::TrialAlreadyUsed.into());
            }
        }
        if !tx.below_daily_limit(&account.id, &daily_limit(&account, DailyQuota::Trials, now)).await? {
            return Err(Refusal::TrialDailyLimit.into());
        }
        if existing.is_none() {
            check_new_client_limit(tx, &account, now).await?;
        }
        Ok(existing)
    }

    /// `POST /clients/{client_id}/rotate-link`: the panel switches to the new link first; only
    /// then is the rotation (and the hourly pause) recorded.
    pub async fn rotate_link(&self, account: &AccountRecord, client_id: &ClientId) -> AppResult<ClientView> {
        let now = self.clock.now();
        let client = read!(self.store, |tx| partner_client(tx.as_mut(), &account.id, client_id));
        check_rotation(&client, now)?;
        let new_token = self.tokens.link_token();
        let mut user = panel_user(&client, now).ok_or(Refusal::NoActiveSubscription)?;
        user.link_token = new_token.clone();
        self.panel.put_user(&user).await.map_err(panel_failure)?;

        let mut tx = self.store.begin().await?;
        tx.lock_account(&account.id).await?;
        let mut client = partner_client(tx.as_mut(), &account.id, client_id).await?;
        check_rotation(&client, now)?;
        let record = client.subscription.as_mut().ok_or(Refusal::NoActiveSubscription)?;
        record.link_token = new_token;
        record.subscription.record_link_rotation(now);
        // Owed to the panel again, in case the term changed between the two transactions.
        record.revision += 1;
        tx.save_subscription(&client.id, record).await?;
        let app_list = load_app_list(tx.as_mut()).await?;
        tx.commit().await?;
        self.panel_sync.sync_client(&client.id).await;
        Ok(self.views.render(account, app_list.as_ref(), |v| v.client(&client)))
    }

    /// `GET /clients/{client_id}/devices`.
    pub async fn client_devices(&self, account: &AccountRecord, client_id: &ClientId) -> AppResult<DevicesView> {
        let client = read!(self.store, |tx| partner_client(tx.as_mut(), &account.id, client_id));
        let Some(record) = &client.subscription else {
            return Ok(DevicesView { devices_count: 0, devices_limit: None, devices: vec![] });
        };
        let devices = self.panel.devices(client.panel_user_ref()).await.map_err(panel_failure)?;
        Ok(DevicesView { devices_count: devices.len(), devices_limit: record.subscription.devices.limit(), devices })
    }

    /// `DELETE /clients/{client_id}/devices/{device_id}`.
    pub async fn delete_client_device(
        &self,
        account: &AccountRecord,
        client_id: &ClientId,
        device_id: &str,
    ) -> AppResult<()> {
        let client = read!(self.store, |tx| partner_client(tx.as_mut(), &account.id, client_id));
        if client.subscription.is_none() {
            return Err(Refusal::DeviceNotFound.into());
        }
        match self.panel.delete_device(client.panel_user_ref(), device_id).await {
            Ok(true) => Ok(()),
            Ok(false) => Err(Refusal::DeviceNotFound.into()),
            Err(e) => Err(panel_failure(e)),
        }
    }
}

fn check_rotation(client: &ClientRecord, now: OffsetDateTime) -> AppResult<()> {
    let record = client.subscription.as_ref().ok_or(Refusal::NoActiveSubscription)?;
    record.subscription.check_link_rotation(now).map_err(|e| match e {
        SubscriptionError::LinkRotateTooSoon { retry_after_secs } => {
            Refusal::LinkRotateTooSoon { retry_after_secs }.into()
        }
        _ => AppError::from(Refusal::NoActiveSubscription),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn cursors_round_trip_and_garbage_is_refused() {
        let c = ClientRecord {
            id: ClientRef::issued("cli_x".into()),
            account_id: AccountId::issued("acc".into()),
            client_id: ClientId::parse("u").unwrap(),
            created_at: datetime!(2026-01-01 10:00:00.123456 UTC),
            blocked: false,
            subscription: None,
        };
        assert_eq!(encode_cursor(&c), "1767261600123456000.cli_x");
        assert_eq!(decode_cursor(&encode_cursor(&c)), Some(Cursor { at: c.created_at, id: "cli_x".to_owned() }));
        for garbage in ["not a cursor!", "12.", ".cli_x", "x.cli_x", "12.cli x", "12|cli_x", "12345678901234567890.a"] {
            assert_eq!(decode_cursor(garbage), None, "{garbage}");
        }
        // The pattern's extremes are still positions: 19 nines is the year 2286.
        assert!(decode_cursor(&format!("{}.{}", "9".repeat(19), "-".repeat(64))).is_some());
        assert!(decode_cursor("0._").is_some());
    }
}
