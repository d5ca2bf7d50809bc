//! Partner API use cases: every endpoint of the spec is one method on `App` here.

mod auth;
mod catalog;
mod clients;
mod gateway;
mod invoices;
mod limits;
mod offer;
mod pages;
mod panel_sync;
mod settlement;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use vp_domain::ClientId;
use vp_ports::{AccountRecord, ClientRecord, Tx};

pub use auth::{AUTH_CACHE_TTL, AuthCache};
pub use catalog::{DocumentOperator, DocumentPage, DocumentSection};
pub use clients::{CLIENT_PAGE_DEFAULT, CLIENT_PAGE_MAX, CURSOR_PATTERN, ClientListQuery};
pub use invoices::fingerprint;
pub use offer::{OFFER_TTL, OfferCache};
pub use pages::{ConnectApp, ConnectPage, OrderItem, PaymentPage};
pub use panel_sync::{ClientDrift, PanelReconciliation};

use crate::content::{APP_LIST_KEY, AppList};
use crate::error::{AppResult, Refusal};
use crate::views::ViewContext;
use crate::{App, AppError};

/// Where the partner API is served (spec: `{base_url}` is the host followed by this prefix).
pub const API_PREFIX: &str = "/api/partner/v1";

/// The platform's payment result page, followed by the invoice id: where a customer returns
/// from the gateway when the partner gave no `return_url`.
pub const PAYMENT_RESULT_PREFIX: &str = "/payment-result/";

impl App {
    /// A new secret subscription-link token (24 random bytes, URL-safe).
    pub(crate) fn new_link_token(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.ids.random_bytes(24))
    }

    pub(crate) async fn load_app_list(&self, tx: &mut dyn Tx) -> AppResult<Option<AppList>> {
        tx.setting(APP_LIST_KEY)
            .await?
            .map(|r| {
                serde_json::from_str(&r.value)
                    .map_err(|e| AppError::Store(vp_ports::StoreError::Corrupt(format!("app list: {e}"))))
            })
            .transpose()
    }

    /// Runs `f` with a view context for `account`.
    pub(crate) fn with_views<R>(
        &self,
        account: &AccountRecord,
        app_list: Option<&AppList>,
        f: impl FnOnce(&ViewContext<'_>) -> R,
    ) -> R {
        let panel = self.panel.clone();
        let url = move |token: &str| panel.subscription_url(token);
        let ctx = ViewContext {
            now: self.clock.now(),
            public_base_url: &self.settings.public_base_url,
            app_list,
            account,
            subscription_url: &url,
        };
        f(&ctx)
    }
}

/// The client of a partner request: `API_CLIENT_NOT_FOUND` when absent, `API_CLIENT_BLOCKED`
/// when blocked (every client endpoint).
pub(crate) async fn partner_client(tx: &mut dyn Tx, account_id: &str, client_id: &ClientId) -> AppResult<ClientRecord> {
    let client = tx.client(account_id, client_id).await?.ok_or(Refusal::ClientNotFound)?;
    if client.blocked {
        return Err(Refusal::ClientBlocked.into());
    }
    Ok(client)
}
