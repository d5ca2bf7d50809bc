//! Who a bot talks to: the language a chat reads, and the client id a new bot customer gets.

use vp_domain::{ClientId, Lang};

/// The chat's language: the one it chose with `/language`, else its Telegram app's when that is
/// Russian, else English.
pub(crate) fn language_of(chosen: Option<Lang>, app_language: Option<&str>) -> Lang {
    let app = app_language.map(|code| code.split('-').next().unwrap_or(code));
    chosen.or_else(|| app.and_then(Lang::from_code)).unwrap_or_default()
}

/// The `client_id` the shop gives a person who has no client yet: `telegram:<user id>`
/// (docs/decisions.md), which the partner's systems may use to see the same person. Whether a
/// client is a bot customer is never read from its id: the bot customer links to it.
pub fn new_bot_client_id(user_id: i64) -> Option<ClientId> {
    ClientId::parse(&format!("telegram:{user_id}")).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chat_reads_its_chosen_language_else_its_apps_russian_else_english() {
        assert_eq!(language_of(None, Some("ru")), Lang::Ru);
        assert_eq!(language_of(None, Some("ru-RU")), Lang::Ru);
        assert_eq!(language_of(None, Some("de")), Lang::En);
        assert_eq!(language_of(None, None), Lang::En);
        assert_eq!(language_of(Some(Lang::En), Some("ru")), Lang::En);
    }

    #[test]
    fn a_new_bot_customer_is_the_client_telegram_colon_user_id() {
        assert_eq!(new_bot_client_id(424_242).unwrap().as_str(), "telegram:424242");
    }
}
