//! The Remnawave 3.x adapter behind the `VpnPanel` port: one panel user per client, named after
//! our client reference, with our link token as its `shortUuid`. Requests follow
//! `@remnawave/backend-contract` 3.4.15; docs/remnawave.md lists the fields we rely on.

mod client;
pub mod webhook;
mod wire;

use std::time::Duration;

use async_trait::async_trait;
use reqwest::Method;
use serde_json::{Value, json};
use time::OffsetDateTime;
use vp_ports::{
    ExistingPanelUsers, PanelDevice, PanelDirectory, PanelDrift, PanelError, PanelInfo, PanelUser, TrafficCount,
    VpnPanel,
};

pub use client::REQUEST_TIMEOUT;
pub use wire::{LIFETIME_EXPIRE_AT, username};

use client::{Client, PanelAnswer};
use wire::{Changes, Devices, Metadata, User, UsersStream, create_body};

/// What the operator configures (`VP_REMNAWAVE_*`).
#[derive(Clone, PartialEq, Eq)]
pub struct RemnawaveSettings {
    /// The panel's base URL; requests go to `{url}/api/...`.
    pub url: String,
    /// An API token created in the panel.
    pub token: String,
    /// The public subscription base: a link is `{sub_url}/{shortUuid}`.
    pub sub_url: String,
    /// Internal squads every new user joins.
    pub squads: Vec<String>,
    pub timeout: Duration,
    /// The panel's `WEBHOOK_SECRET_HEADER`: its webhooks are received (and verified with it)
    /// only when set.
    pub webhook_secret: Option<String>,
}

impl std::fmt::Debug for RemnawaveSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemnawaveSettings")
            .field("url", &self.url)
            .field("token", &"<redacted>")
            .field("sub_url", &self.sub_url)
            .field("squads", &self.squads)
            .field("timeout", &self.timeout)
            .field("webhook_secret", &self.webhook_secret.as_ref().map(|_| "<redacted>"))
            .finish()
    }
}

pub struct RemnawavePanel {
    client: Client,
    url: String,
    sub_url: String,
    squads: Vec<String>,
}

impl RemnawavePanel {
    pub fn new(settings: &RemnawaveSettings) -> Result<RemnawavePanel, String> {
        Ok(RemnawavePanel {
            client: Client::new(&settings.url, &settings.token, settings.timeout)?,
            url: settings.url.trim_end_matches('/').to_owned(),
            sub_url: settings.sub_url.trim_end_matches('/').to_owned(),
            squads: settings.squads.clone(),
        })
    }

    /// `GET /api/users/by-username/{username}`; `None` when the panel has no such user.
    async fn find(&self, user_ref: &str) -> Result<Option<User>, PanelError> {
        let path = format!("/users/by-username/{}", wire::username(user_ref));
        let answer = self.client.call(Method::GET, &path, None).await?;
        match answer.status {
            200 => answer.response("user").map(Some),
            404 => Ok(None),
            _ => Err(self.client.refused(&Method::GET, &path, None, &answer)),
        }
    }

    /// A request whose only acceptable answer is a 2xx.
    async fn expect_ok(&self, method: Method, path: &str, body: Option<&Value>) -> Result<client::Answer, PanelError> {
        let answer = self.client.call(method.clone(), path, body).await?;
        if answer.ok() { Ok(answer) } else { Err(self.client.refused(&method, path, body, &answer)) }
    }

    async fn create(&self, user: &PanelUser) -> Result<(), PanelError> {
        let body = create_body(user, &self.squads);
        let answer = self.client.call(Method::POST, "/users", Some(&body)).await?;
        if answer.ok() {
            return Ok(());
        }
        // the username exists. An earlier try timed out after the panel had created
        // the user: bring that one up to date instead of creating a second.
        if answer.error_code() == Some("A019") {
            if let Some(held) = self.find(&user.user_ref).await? {
                return self.update(user, &held).await;
            }
        }
        Err(self.client.refused(&Method::POST, "/users", Some(&body), &answer))
    }

    async fn update(&self, user: &PanelUser, held: &User) -> Result<(), PanelError> {
        let changes = Changes::between(user, held, OffsetDateTime::now_utc());
        if let Some(short_uuid) = &changes.short_uuid {
            // The old link stops working at once; the new one works.
            let path = format!("/users/{}/actions/revoke", held.id);
            self.expect_ok(Method::POST, &path, Some(&json!({ "shortUuid": short_uuid }))).await?;
        }
        if let Some(body) = changes.patch_body(held.id) {
            self.expect_ok(Method::PATCH, "/users", Some(&body)).await?;
        }
        if changes.reset_traffic_from.is_some() {
            // After the PATCH: the new limit is counted from zero.
            self.expect_ok(Method::POST, &format!("/users/{}/actions/reset-traffic", held.id), None).await?;
        }
        Ok(())
    }
}

#[async_trait]
impl VpnPanel for RemnawavePanel {
    async fn put_user(&self, user: &PanelUser) -> Result<(), PanelError> {
        match self.find(&user.user_ref).await? {
            None => self.create(user).await,
            Some(held) => self.update(user, &held).await,
        }
    }

    async fn drift(&self, user: &PanelUser) -> Result<Vec<PanelDrift>, PanelError> {
        Ok(match self.find(&user.user_ref).await? {
            None => vec![PanelDrift::missing_user()],
            Some(held) => Changes::between(user, &held, OffsetDateTime::now_utc()).drift(&held),
        })
    }

    async fn devices(&self, user_ref: &str) -> Result<Vec<PanelDevice>, PanelError> {
        let Some(held) = self.find(user_ref).await? else { return Ok(vec![]) };
        let answer = self.expect_ok(Method::GET, &format!("/hwid/devices/{}", held.id), None).await?;
        let devices: Devices = answer.response("devices")?;
        Ok(devices.devices.into_iter().map(PanelDevice::from).collect())
    }

    async fn delete_device(&self, user_ref: &str, hwid: &str) -> Result<bool, PanelError> {
        let Some(held) = self.find(user_ref).await? else { return Ok(false) };
        let body = json!({ "userId": held.id, "hwid": hwid });
        let answer = self.client.call(Method::POST, "/hwid/devices/delete", Some(&body)).await?;
        match (answer.status, answer.error_code()) {
            (200..=299, _) => Ok(true),
            // the user has no such device; A-025: the user went away meanwhile.
            (404, Some("A204" | "A025")) => Ok(false),
            _ => Err(self.client.refused(&Method::POST, "/hwid/devices/delete", Some(&body), &answer)),
        }
    }

    async fn traffic_used(&self, user_ref: &str) -> Result<Option<TrafficCount>, PanelError> {
        Ok(self.find(user_ref).await?.map(|held| held.traffic_count()))
    }

    fn subscription_url(&self, link_token: &str) -> String {
        format!("{}/{link_token}", self.sub_url)
    }

    async fn check(&self) -> Result<PanelInfo, PanelError> {
        let answer = self.expect_ok(Method::GET, "/system/metadata", None).await?;
        let metadata: Metadata = answer.response("metadata")?;
        Ok(PanelInfo { kind: "remnawave", address: self.url.clone(), version: Some(metadata.version) })
    }
}

#[async_trait]
impl PanelDirectory for RemnawavePanel {
    /// `GET /api/users/stream`: keyset pages in the panel's id order, so users created during
    /// an import are read once or not at all, never twice.
    async fn users_page(
        &self,
        cursor: Option<&str>,
        size: u32,
        tag: Option<&str>,
    ) -> Result<ExistingPanelUsers, PanelError> {
        let size = size.clamp(1, 1000).to_string();
        let mut pairs = vec![("size", size.as_str())];
        pairs.extend(cursor.map(|c| ("cursor", c)));
        pairs.extend(tag.map(|t| ("tag", t)));
        let path = format!("/users/stream?{}", wire::query(&pairs));
        let page: UsersStream = self.expect_ok(Method::GET, &path, None).await?.response("users")?;
        let mut users = Vec::with_capacity(page.users.len());
        for listed in page.users {
            let (id, status) = (listed.user.id, listed.user.status.clone());
            users.push(listed.existing().ok_or_else(|| {
                PanelError::Rejected(format!("user {id}: a status or device limit outside the contract ({status})"))
            })?);
        }
        let next = if page.has_more { page.next_cursor } else { None };
        Ok(ExistingPanelUsers { users, next })
    }
}
