//! Gifts in the web shop (docs/decisions.md, "Gift subscriptions"): the gift's page shows what
//! it gives and whether it can still be redeemed; a signed-in customer (the sign-in code
//! proved the address) redeems it for the client their address stands for, made now if it
//! has none, and the address is linked to it as a trial started there links it.

use vp_domain::Lang;
use vp_domain::cabinet::Email;
use vp_domain::gift::{GiftCode, GiftRefused};
use vp_ports::{ShopCustomer, StoreError};

use super::{Customer, Shop, ShopPage, new_shop_client_id};
use crate::error::{AppError, AppResult, Refusal};
use crate::gifts::GiftView;

impl Shop {
    /// The shop's gift with `code`; `None` for a code that is none of its gifts'.
    pub async fn gift(&self, page: &ShopPage, code: &str) -> AppResult<Option<GiftView>> {
        let Some(code) = GiftCode::parse(code) else { return Ok(None) };
        self.gifts.look(&page.account, &code).await
    }

    /// Redeems the gift `code` for the signed-in customer's subscription (one counted in the
    /// account's window, as an API request would be).
    pub async fn redeem_gift(
        &self,
        page: &ShopPage,
        customer: &Customer,
        code: &str,
        lang: Lang,
    ) -> AppResult<Result<(), GiftRefused>> {
        let Some(code) = GiftCode::parse(code) else { return Ok(Err(GiftRefused::Unknown)) };
        let account = &page.account;
        self.access
            .admit_request(account, false)
            .await
            .map_err(|wait| AppError::from(Refusal::RateLimited { retry_after_secs: wait.0.max(1) }))?;
        let email = Email::parse(&customer.email)
            .map_err(|_| StoreError::Corrupt(format!("the email of a shop session: {}", customer.email)))?;
        let client_id = customer.client_id.clone().unwrap_or_else(|| new_shop_client_id(&account.id, &email));
        if let Err(refused) = self.gifts.redeem(account, &code, &client_id).await? {
            return Ok(Err(refused));
        }
        let mut tx = self.store.begin().await?;
        let client = tx.client(&account.id, &client_id).await?.ok_or(AppError::NotFound("client"))?;
        tx.add_shop_customer(&ShopCustomer {
            account_id: account.id.clone(),
            email: email.as_str().to_owned(),
            client_ref: client.id,
            lang,
            first_payment_id: None,
            created_at: self.clock.now(),
        })
        .await?;
        tx.commit().await?;
        Ok(Ok(()))
    }
}
