//! The trial started in the web shop (docs/decisions.md, "The web shop"): by a signed-in
//! customer, whose sign-in code proved the address is theirs, through `start_trial` as the
//! partner API and the bot start it, for the client the email stands for. One email is one
//! client of the account, so the spec's "granted once" makes it once per address and account.

use vp_domain::Lang;
use vp_ports::MailContent;
use vp_ports::pages::connect_page_url;

use super::{Customer, Shop, ShopPage, link_address, shop_url};
use crate::error::{AppError, AppResult};

impl Shop {
    /// Starts the trial for the signed-in customer (the API's refusals: disabled, already used,
    /// the daily limit, blocked, the panel not answering), links the address to the client and
    /// mails the connect link. The account page shows the subscription next.
    pub async fn start_trial(&self, page: &ShopPage, customer: &Customer, lang: Lang) -> AppResult<()> {
        let account = &page.account;
        // The trial counts in the account's window, as `POST /clients/{id}/trial` does.
        let (email, client_id) = self.signed_in_client(page, customer).await?;
        self.clients.start_trial(account, &client_id).await?;

        // The link and the mail in one unit of work, after the trial's own: were the process
        // to stop in between, the trial stands, and the next sign-in finds the client by the
        // address's id and shows the same link.
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let client = tx.client(&account.id, &client_id).await?.ok_or(AppError::NotFound("client"))?;
        link_address(tx.as_mut(), account, &email, client.id.clone(), lang, now).await?;
        if let Some(record) = &client.subscription {
            let slug = tx.shop_slug(&account.id).await?.unwrap_or_default();
            let content = MailContent::ShopTrialStarted {
                expires_at: record.subscription.expires_at,
                connect_url: connect_page_url(&self.public_base_url, &record.link_token, None),
                shop_url: shop_url(&self.public_base_url, &slug),
            };
            self.mail.queue(tx.as_mut(), Some(&account.id), &email, lang, content).await?;
        }
        tx.commit().await?;
        Ok(())
    }
}
