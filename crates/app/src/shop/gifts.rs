//! Gifts in the web shop (docs/decisions.md, "Gift subscriptions"): the gift's page shows what
//! it gives and whether it can still be redeemed; a signed-in customer (the sign-in code
//! proved the address) redeems it for the client their address stands for, made now if it
//! has none, and the address is linked to it as a trial started there links it.

use vp_domain::Lang;
use vp_domain::gift::{GiftCode, GiftRefused};

use super::{Customer, Shop, ShopPage, link_address};
use crate::error::{AppError, AppResult};
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
        let (email, client_id) = self.signed_in_client(page, customer).await?;
        if let Err(refused) = self.gifts.redeem(account, &code, &client_id).await? {
            return Ok(Err(refused));
        }
        let mut tx = self.store.begin().await?;
        let client = tx.client(&account.id, &client_id).await?.ok_or(AppError::NotFound("client"))?;
        link_address(tx.as_mut(), account, &email, client.id, lang, self.clock.now()).await?;
        tx.commit().await?;
        Ok(Ok(()))
    }
}
