//! The page behind a subscription's links (`/connect/{token}`, `/connect/{token}/{app_id}`): the
//! subscription's state and every application of the app list to connect with.

use vp_domain::Lang;
use vp_ports::AccountStyle;

use super::Clients;
use crate::bots::connected_bot;
use crate::content::load_app_list;
use crate::error::{AppError, AppResult};
use crate::views::{DownloadLink, PanelUse, PlatformView, SubscriptionView, apps_view, deep_link};

/// The page behind a subscription's links: its state and every application of the app list
/// to connect with (`/connect/{token}` and `/connect/{token}/{app_id}`).
pub struct ConnectPage {
    pub brand_name: String,
    pub style: AccountStyle,
    pub subscription: SubscriptionView,
    /// What the panel counts of its use (devices, traffic); each `None` when it did not answer.
    pub used: PanelUse,
    pub platforms: Vec<PlatformView>,
    /// In the app list's order, the recommended application first.
    pub apps: Vec<ConnectApp>,
    /// Whether to offer "Get reminders in Telegram": the account has a connected bot.
    pub offers_reminders: bool,
}

pub struct ConnectApp {
    pub app_id: String,
    pub app_name: String,
    /// Custom-scheme link that imports the subscription into the application.
    pub deep_link: String,
    /// This application's connect page, also the QR code's payload (`qr_payload`).
    pub qr_payload: String,
    pub supports_manual_url: bool,
    pub install_links: Vec<DownloadLink>,
}

impl Clients {
    /// `app_id`: the application the link was made for (`connect_url`), which must exist.
    pub async fn connect_page(&self, link_token: &str, app_id: Option<&str>, lang: Lang) -> AppResult<ConnectPage> {
        let mut tx = self.store.read().await?;
        let client = tx.client_by_link_token(link_token).await?.ok_or(AppError::NotFound("subscription"))?;
        let account = tx.account(&client.account_id).await?.ok_or(AppError::NotFound("subscription"))?;
        let app_list = load_app_list(tx.as_mut()).await?.ok_or(AppError::NotFound("application"))?;
        let offers_reminders = connected_bot(tx.as_mut(), &account.id).await?.is_some();
        tx.commit().await?;
        if app_id.is_some_and(|id| !app_list.apps.iter().any(|a| a.app_id == id)) {
            return Err(AppError::NotFound("application"));
        }
        let subscription = self
            .views
            .render(&account, Some(&app_list), |v| v.client(&client))
            .subscription
            .ok_or(AppError::NotFound("subscription"))?;
        let used = self.views.panel_use(&client).await;
        let view = apps_view(&app_list, lang);
        let mut apps: Vec<ConnectApp> = app_list
            .apps
            .iter()
            .zip(view.apps)
            .map(|(a, v)| ConnectApp {
                deep_link: deep_link(&a.deep_link, &subscription.subscription_url),
                qr_payload: subscription
                    .connect
                    .iter()
                    .find(|c| c.app_id == a.app_id)
                    .map_or_else(String::new, |c| c.qr_payload.clone()),
                app_id: v.app_id,
                app_name: v.app_name,
                supports_manual_url: v.supports_manual_url,
                install_links: v.install_links,
            })
            .collect();
        apps.sort_by_key(|a| a.app_id != view.recommended_app_id);
        Ok(ConnectPage {
            brand_name: account.brand_name.as_str().to_owned(),
            style: account.style.clone(),
            subscription,
            used,
            platforms: view.platforms,
            apps,
            offers_reminders,
        })
    }
}
