//! The account's clients for the partner's support staff: read-only, blocked ones included.

use vp_domain::ClientId;
use vp_ports::InvoiceRecord;

use super::{Actor, Cabinet};
use crate::audit::AuditAction;
use crate::clients::ClientListQuery;
use crate::content::load_app_list;
use crate::error::{AppError, AppResult, Refusal};
use crate::renewals::{TurnedOff, TurnedOffBy};
use crate::views::{ClientPage, ClientView, DevicesView};

/// Invoices the client page shows, newest first.
pub const CLIENT_INVOICES: u32 = 50;

/// A page of the cabinet's client list.
#[derive(Debug, Clone)]
pub struct ClientList {
    pub page: ClientPage,
    /// The `client_id`s of the page that are bot customers.
    pub bot_customers: std::collections::HashSet<String>,
}

/// What support staff see about one client.
#[derive(Debug, Clone)]
pub struct ClientDetail {
    pub client: ClientView,
    pub blocked: bool,
    /// The panel's list; `Err` with the reason when the panel cannot be asked now.
    pub devices: Result<DevicesView, String>,
    /// The traffic used of the subscription's limit, as the panel counts it now; `None`
    /// without a limit or an answer.
    pub traffic_used: Option<u64>,
    pub invoices: Vec<InvoiceRecord>,
    /// Whether the client linked a chat with the partner's bot (the platform reminds it there).
    pub reachable_in_messenger: bool,
    /// For a bot customer, when they started the bot and last used it.
    pub bot_activity: Option<vp_ports::BotCustomer>,
    /// The customer's consent to automatic renewal as given (on or turned off), if any.
    pub renewal: Option<vp_ports::RenewalConsent>,
    /// The customer's newest Telegram Stars subscription (renewing or cancelled), if any.
    pub stars_subscription: Option<vp_ports::StarsSubscription>,
}

impl Cabinet {
    /// A page of the account's clients, with which of them are bot customers.
    pub async fn clients(&self, actor: &Actor, query: ClientListQuery) -> AppResult<ClientList> {
        let page = self.services.clients.list_clients(&actor.account, query).await?;
        let ids: Vec<String> = page.clients.iter().map(|c| c.client_id.clone()).collect();
        let mut tx = self.store.read().await?;
        let bot_customers = tx.bot_customers_among(actor.account_id(), &ids).await?.into_iter().collect();
        tx.commit().await?;
        Ok(ClientList { page, bot_customers })
    }

    /// One of the account's clients by the partner's `client_id`; another account's or an
    /// unknown one is `NotFound`.
    pub async fn client(&self, actor: &Actor, client_id: &ClientId) -> AppResult<ClientDetail> {
        let mut tx = self.store.read().await?;
        let client = tx.client(actor.account_id(), client_id).await?.ok_or(AppError::NotFound("client"))?;
        let invoices = tx.client_invoices(&client.id, CLIENT_INVOICES).await?;
        let reachable_in_messenger = tx.client_chat(&client.id).await?.is_some();
        let bot_activity = tx.bot_customer_of_client(&client.id).await?;
        let renewal = tx.current_consent(&client.id).await?;
        let stars_subscription = tx.stars_subscription_of_client(&client.id).await?;
        let app_list = load_app_list(tx.as_mut()).await?;
        tx.commit().await?;
        // The panel is asked for the devices and the traffic at once.
        let devices = async {
            match &client.subscription {
                None => Ok(DevicesView { devices_count: 0, devices_limit: None, devices: vec![] }),
                Some(record) => match self.panel.devices(client.panel_user_ref()).await {
                    Ok(devices) => Ok(DevicesView {
                        devices_count: devices.len(),
                        devices_limit: record.subscription.devices.limit(),
                        devices,
                    }),
                    Err(e) => Err(e.to_string()),
                },
            }
        };
        let (devices, traffic_used) = tokio::join!(devices, self.views.traffic_used(&client));
        let view = self.views.render(&actor.account, app_list.as_ref(), |v| v.client(&client));
        Ok(ClientDetail {
            client: view,
            blocked: client.blocked,
            devices,
            traffic_used,
            invoices,
            reachable_in_messenger,
            bot_activity,
            renewal,
            stars_subscription,
        })
    }

    /// Support turns a client's automatic renewal off: no charge is started from now.
    pub async fn turn_off_auto_renew(&self, actor: &Actor, client_id: &ClientId) -> AppResult<TurnedOff> {
        let by = TurnedOffBy::Support { email: actor.user.email.clone() };
        let off = match self.services.renewals.turn_off(actor.account_id(), client_id, by).await {
            Err(AppError::Refused(Refusal::ClientNotFound)) => return Err(AppError::NotFound("client")),
            other => other?,
        };
        if off.was_on {
            let mut tx = self.store.begin().await?;
            let detail = client_id.to_string();
            self.audit.record(tx.as_mut(), actor.account_id(), actor.into(), AuditAction::AutoRenewOff, detail).await?;
            tx.commit().await?;
        }
        Ok(off)
    }
}
