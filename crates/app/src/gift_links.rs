//! Where a gift is redeemed (docs/decisions.md, "Gift subscriptions"): its code, derived from
//! the invoice that pays for it under the secrets key (only the code's hash is stored, and the
//! buyer's messages and pages can show it again), and the links that carry it.

use vp_domain::AccountId;
use vp_domain::gift::GiftCode;
use vp_ports::pages::gift_page_url;
use vp_ports::{BotRepo, ShopRepo};

use crate::bots::connected_bot;
use crate::error::AppResult;
use crate::secrets::{SecretKeys, SecretPurpose};

/// A gift's code and links: the partner's bot's (while it is connected) and the web shop's page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GiftLinks {
    pub code: GiftCode,
    pub bot: Option<String>,
    pub web: String,
}

/// The code of the gift its invoice `payment_id` pays for.
pub(crate) fn gift_code(keys: &SecretKeys, payment_id: &str) -> GiftCode {
    let derived = keys.derive(SecretPurpose::GiftCode { payment_id });
    GiftCode::parse(&derived).expect("a derived secret is 43 URL-safe characters")
}

/// The links of the gift with `code`: `bot_username` of the account's connected bot, `slug` of
/// its shop.
pub(crate) fn gift_links(public_base_url: &str, code: GiftCode, bot_username: Option<&str>, slug: &str) -> GiftLinks {
    let bot = bot_username.map(|name| format!("https://t.me/{name}?start={}", code.start_parameter()));
    let web = gift_page_url(public_base_url, slug, code.as_str());
    GiftLinks { code, bot, web }
}

/// The links of the gift its invoice `payment_id` of the account pays for, as the account
/// stands now: its connected bot's (if any) and its shop's page.
pub(crate) async fn links_now(
    tx: &mut (impl BotRepo + ShopRepo + ?Sized),
    keys: &SecretKeys,
    public_base_url: &str,
    account_id: &AccountId,
    payment_id: &str,
) -> AppResult<GiftLinks> {
    let bot = connected_bot(tx, account_id).await?;
    let slug = tx.shop_slug(account_id).await?.unwrap_or_default();
    let code = gift_code(keys, payment_id);
    Ok(gift_links(public_base_url, code, bot.as_ref().map(|b| b.username.as_str()), &slug))
}

#[cfg(test)]
mod tests {
    use vp_ports::pages::{GIFT_PATH, SHOP_PATH};

    use super::*;

    #[test]
    fn a_gift_link_opens_the_bot_with_gift_and_the_code_and_the_shop_page_under_the_slug() {
        let code = GiftCode::parse(&"x".repeat(43)).unwrap();
        let links = gift_links("https://vpn.example", code.clone(), Some("fast_bot"), "fast");
        assert_eq!(links.bot.as_deref(), Some(format!("https://t.me/fast_bot?start=gift_{}", "x".repeat(43)).as_str()));
        assert_eq!(links.web, format!("https://vpn.example{SHOP_PATH}fast{GIFT_PATH}{}", "x".repeat(43)));
        assert_eq!(gift_links("https://vpn.example", code, None, "fast").bot, None);
    }

    #[test]
    fn a_gift_code_is_derived_per_invoice_under_the_key() {
        let keys = SecretKeys::ephemeral();
        assert_eq!(gift_code(&keys, "pay_1"), gift_code(&keys, "pay_1"));
        assert_ne!(gift_code(&keys, "pay_1"), gift_code(&keys, "pay_2"));
        assert_ne!(gift_code(&SecretKeys::ephemeral(), "pay_1"), gift_code(&keys, "pay_1"), "another key");
    }
}
