//! What the customer-facing pages of this service show: the sandbox payment page and the
//! open-in-app page behind `connect_url`.

use vp_domain::PaymentOutcome;
use vp_ports::InvoiceRecord;

use crate::App;
use crate::error::{AppError, AppResult};
use crate::lang::Lang;
use crate::views::{DocumentLink, DownloadLink, apps_view, deep_link};

pub struct PaymentPage {
    pub invoice: InvoiceRecord,
    pub brand_name: String,
    pub method_name: String,
    pub documents: Vec<DocumentLink>,
}

pub struct ConnectPage {
    pub brand_name: String,
    pub app_name: String,
    /// Custom-scheme link that imports the subscription into the application.
    pub deep_link: String,
    pub subscription_url: String,
    pub install_links: Vec<DownloadLink>,
}

impl App {
    pub async fn payment_page(&self, payment_id: &str, lang: Lang) -> AppResult<PaymentPage> {
        let mut tx = self.store.read().await?;
        let invoice = tx.invoice_by_id(payment_id).await?.ok_or(AppError::NotFound("invoice"))?;
        let account = tx.account(&invoice.account_id).await?.ok_or(AppError::NotFound("invoice"))?;
        let method = tx.payment_method(&invoice.method).await?;
        tx.commit().await?;
        let documents = self.document_links(&account, lang).await?;
        Ok(PaymentPage {
            method_name: method
                .map_or_else(|| invoice.method.clone(), |m| lang.pick_str(&m.name_en, &m.name_ru).to_owned()),
            brand_name: account.brand_name.as_str().to_owned(),
            invoice,
            documents,
        })
    }

    /// The customer pressed pay or decline on the sandbox page.
    pub async fn sandbox_pay(&self, payment_id: &str, paid: bool) -> AppResult<InvoiceRecord> {
        let outcome = if paid { PaymentOutcome::Paid } else { PaymentOutcome::AttemptFailed };
        self.apply_payment_outcome(payment_id, outcome).await
    }

    pub async fn connect_page(&self, link_token: &str, app_id: &str, lang: Lang) -> AppResult<ConnectPage> {
        let mut tx = self.store.read().await?;
        let client = tx.client_by_link_token(link_token).await?.ok_or(AppError::NotFound("subscription"))?;
        let account = tx.account(&client.account_id).await?.ok_or(AppError::NotFound("subscription"))?;
        let catalogue = self.load_catalogue(tx.as_mut()).await?.ok_or(AppError::NotFound("application"))?;
        tx.commit().await?;
        let application =
            catalogue.apps.iter().find(|a| a.app_id == app_id).ok_or(AppError::NotFound("application"))?;
        let subscription_url = self.panel.subscription_url(link_token);
        let install_links = apps_view(&catalogue, lang)
            .apps
            .into_iter()
            .find(|a| a.app_id == app_id)
            .map(|a| a.install_links)
            .unwrap_or_default();
        Ok(ConnectPage {
            brand_name: account.brand_name.as_str().to_owned(),
            app_name: application.app_name.clone(),
            deep_link: deep_link(&application.deep_link, &subscription_url),
            subscription_url,
            install_links,
        })
    }
}
