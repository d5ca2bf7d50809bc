//! The account's clients for the partner's support staff: read-only, blocked ones included.

use vp_domain::ClientId;
use vp_ports::InvoiceRecord;

use super::Actor;
use crate::App;
use crate::error::{AppError, AppResult};
use crate::partner::ClientListQuery;
use crate::views::{ClientPage, ClientView, DevicesView};

/// Invoices the client page shows, newest first.
pub const CLIENT_INVOICES: u32 = 50;

/// What support staff see about one client.
#[derive(Debug, Clone)]
pub struct ClientDetail {
    pub client: ClientView,
    pub blocked: bool,
    /// The panel's list; `Err` with the reason when the panel cannot be asked now.
    pub devices: Result<DevicesView, String>,
    pub invoices: Vec<InvoiceRecord>,
    /// Whether the client linked a chat with the partner's bot (the platform reminds it there).
    pub reachable_in_messenger: bool,
    /// For a bot customer (`telegram:<user id>`), when they started the bot and last used it.
    pub bot_activity: Option<vp_ports::BotCustomer>,
}

impl App {
    pub async fn cabinet_clients(&self, actor: &Actor, query: ClientListQuery) -> AppResult<ClientPage> {
        self.list_clients(&actor.account, query).await
    }

    /// One of the account's clients by the partner's `client_id`; another account's or an
    /// unknown one is `NotFound`.
    pub async fn cabinet_client(&self, actor: &Actor, client_id: &str) -> AppResult<ClientDetail> {
        let client_id = ClientId::parse(client_id).map_err(|_| AppError::NotFound("client"))?;
        let mut tx = self.store.read().await?;
        let client = tx.client(actor.account_id(), &client_id).await?.ok_or(AppError::NotFound("client"))?;
        let invoices = tx.client_invoices(&client.id, CLIENT_INVOICES).await?;
        let reachable_in_messenger = tx.client_chat(&client.id).await?.is_some();
        let bot_activity = match crate::bot_shop::bot_user_of(client.client_id.as_str()) {
            Some(user) => tx.bot_customers(actor.account_id(), &[user]).await?.into_iter().next(),
            None => None,
        };
        let app_list = self.load_app_list(tx.as_mut()).await?;
        tx.commit().await?;
        let devices = match &client.subscription {
            None => Ok(DevicesView { devices_count: 0, devices_limit: None, devices: vec![] }),
            Some(record) => match self.panel.devices(&client.id).await {
                Ok(devices) => Ok(DevicesView {
                    devices_count: devices.len(),
                    devices_limit: record.subscription.devices.limit(),
                    devices,
                }),
                Err(e) => Err(e.to_string()),
            },
        };
        let view = self.with_views(&actor.account, app_list.as_ref(), |v| v.client(&client));
        Ok(ClientDetail {
            client: view,
            blocked: client.blocked,
            devices,
            invoices,
            reachable_in_messenger,
            bot_activity,
        })
    }
}
