//! What the customer-facing pages of this service show: the sandbox payment page and the
//! open-in-app page behind `connect_url`.

use vp_domain::{PaymentOutcome, Purpose};
use vp_ports::{AccountStyle, InvoiceRecord};

use crate::App;
use crate::bots::connected_bot;
use crate::error::{AppError, AppResult};
use crate::views::{DocumentLink, DownloadLink, PlatformView, SubscriptionView, apps_view, deep_link, url_encode};
use vp_domain::Lang;

pub struct PaymentPage {
    pub invoice: InvoiceRecord,
    pub brand_name: String,
    pub style: AccountStyle,
    pub method_name: String,
    pub documents: Vec<DocumentLink>,
    /// What is being bought, for the order summary.
    pub order: OrderItem,
    /// Whole seconds until the payment deadline (0 once it has passed).
    pub seconds_left: i64,
    /// The page listing the apps to connect with, once the client has a subscription.
    pub connect_url: Option<String>,
    /// The subscription link token to offer "Get reminders in Telegram" with: the client has
    /// a subscription and the account a connected bot.
    pub reminders_token: Option<String>,
}

/// What an invoice buys, as its page describes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderItem {
    /// A subscription term; `months` is 0 for a lifetime plan.
    Subscription {
        months: u32,
    },
    Devices {
        count: u32,
    },
}

/// The page behind a subscription's links: its state and every application of the app list
/// to connect with (`/connect/{token}` and `/connect/{token}/{app_id}`).
pub struct ConnectPage {
    pub brand_name: String,
    pub style: AccountStyle,
    pub subscription: SubscriptionView,
    /// Devices registered in the panel; `None` when the panel does not answer.
    pub devices_used: Option<usize>,
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

impl App {
    pub async fn payment_page(&self, payment_id: &str, lang: Lang) -> AppResult<PaymentPage> {
        let mut tx = self.store.read().await?;
        let invoice = tx.invoice_by_id(payment_id).await?.ok_or(AppError::NotFound("invoice"))?;
        let account = tx.account(&invoice.account_id).await?.ok_or(AppError::NotFound("invoice"))?;
        let method = tx.payment_method(&invoice.method).await?;
        let order = match invoice.purpose {
            Purpose::Subscription { plan_id } => {
                let plan = tx.plan(plan_id).await?.ok_or(AppError::NotFound("invoice"))?;
                OrderItem::Subscription { months: if plan.lifetime { 0 } else { plan.months } }
            }
            Purpose::Devices { count } => OrderItem::Devices { count },
        };
        let client = tx.client_by_ref(&invoice.client_ref).await?;
        let has_bot = connected_bot(tx.as_mut(), &account.id).await?.is_some();
        tx.commit().await?;
        let documents = self.document_links(&account, lang).await?;
        let link_token = client.and_then(|c| c.subscription).map(|s| s.link_token);
        let connect_url =
            link_token.as_ref().map(|t| format!("{}/connect/{}", self.settings.public_base_url, url_encode(t)));
        let reminders_token = link_token.filter(|_| has_bot);
        Ok(PaymentPage {
            method_name: method
                .map_or_else(|| invoice.method.clone(), |m| lang.pick_str(&m.name_en, &m.name_ru).to_owned()),
            brand_name: account.brand_name.as_str().to_owned(),
            style: account.style.clone(),
            seconds_left: (invoice.expires_at - self.clock.now()).whole_seconds().max(0),
            order,
            connect_url,
            reminders_token,
            invoice,
            documents,
        })
    }

    /// The customer pressed pay or decline on the sandbox page.
    pub async fn sandbox_pay(&self, payment_id: &str, paid: bool) -> AppResult<InvoiceRecord> {
        let outcome = if paid { PaymentOutcome::Paid } else { PaymentOutcome::AttemptFailed };
        self.apply_payment_outcome(payment_id, outcome).await
    }

    /// `app_id`: the application the link was made for (`connect_url`), which must exist.
    pub async fn connect_page(&self, link_token: &str, app_id: Option<&str>, lang: Lang) -> AppResult<ConnectPage> {
        let mut tx = self.store.read().await?;
        let client = tx.client_by_link_token(link_token).await?.ok_or(AppError::NotFound("subscription"))?;
        let account = tx.account(&client.account_id).await?.ok_or(AppError::NotFound("subscription"))?;
        let app_list = self.load_app_list(tx.as_mut()).await?.ok_or(AppError::NotFound("application"))?;
        let offers_reminders = connected_bot(tx.as_mut(), &account.id).await?.is_some();
        tx.commit().await?;
        if app_id.is_some_and(|id| !app_list.apps.iter().any(|a| a.app_id == id)) {
            return Err(AppError::NotFound("application"));
        }
        let subscription = self
            .with_views(&account, Some(&app_list), |v| v.client(&client))
            .subscription
            .ok_or(AppError::NotFound("subscription"))?;
        // The page still helps without the count: the panel being down must not hide it.
        let devices_used = match self.panel.devices(&client.id).await {
            Ok(devices) => Some(devices.len()),
            Err(e) => {
                tracing::info!(error = %e, "the connect page shows no device count");
                None
            }
        };
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
            devices_used,
            platforms: view.platforms,
            apps,
            offers_reminders,
        })
    }
}
