//! The answers to what a customer writes to the partner's bot: `/start` and anything that is
//! not a command get the shop's welcome and menu, `/help` the help, `/status` and `/connect` the
//! clients linked to the chat (a family's may share one), `/language` and `/stop` say what they
//! did. What a command changes was recorded with the update; this words the answer.

use vp_app::AppResult;
use vp_app::bot_shop::{BotShop, CustomerReply, ReplyKind};
use vp_i18n::{text, text_with};
use vp_ports::{BotMessage, Button, PartnerBotRecord};

use crate::shop::{self, help, menu};

/// The messages that say `reply` in the chat.
pub(crate) async fn answer(
    shop: &BotShop,
    bot: &PartnerBotRecord,
    chat_id: i64,
    reply: &CustomerReply,
) -> AppResult<Vec<BotMessage>> {
    let lang = reply.lang;
    let shop_reply = matches!(
        reply.kind,
        ReplyKind::Menu
            | ReplyKind::Help
            | ReplyKind::ReceiptEmailSaved
            | ReplyKind::PromoSaved
            | ReplyKind::PromoUnknown
            | ReplyKind::Invited
            | ReplyKind::SubscriptionNamed { .. }
            | ReplyKind::NameRefused
            | ReplyKind::Gift(_)
    );
    if shop_reply {
        let Some(shopper) = shop.shopper(bot, chat_id, reply.user_id, lang).await? else { return Ok(vec![]) };
        if shop.is_blocked(&shopper).await? {
            return Ok(vec![shop::blocked(&shopper)]);
        }
        if reply.kind == ReplyKind::Help {
            return Ok(vec![help(shop, &shopper).await?]);
        }
        // A client the partner made for this person (or an earlier purchase) gets reminders here.
        shop.link_shopper(&shopper).await?;
        let mut answer = Vec::new();
        if reply.kind == ReplyKind::ReceiptEmailSaved {
            let email = shopper.receipt_email.as_deref().unwrap_or_default();
            answer.push(BotMessage::text(chat_id, text_with(lang, "shop-email-saved", &[("email", email.into())])));
        }
        match reply.kind {
            // The plans, with the code said kept, to buy with it.
            ReplyKind::PromoSaved => answer.push(shop::plans(shop, &shopper).await?),
            // The menu, its first line saying who brought them.
            ReplyKind::Invited => {
                let mut welcome = menu(shop, &shopper).await?;
                welcome.text = format!("{}\n\n{}", text(lang, "shop-invited"), welcome.text);
                answer.push(welcome);
            }
            ReplyKind::PromoUnknown => {
                answer.push(BotMessage::text(chat_id, text(lang, "promo-refused-unknown")));
                answer.push(menu(shop, &shopper).await?);
            }
            // The plans for the subscription just named.
            ReplyKind::SubscriptionNamed { target } => match shop.at(shopper.clone(), target).await? {
                Some(named) => answer.push(shop::plans(shop, &named).await?),
                None => answer.push(menu(shop, &shopper).await?),
            },
            ReplyKind::NameRefused => answer.push(shop::name_refused(&shopper)),
            ReplyKind::Gift(ref code) => answer.push(shop::redeem_gift(shop, &shopper, code).await?),
            _ => answer.push(menu(shop, &shopper).await?),
        }
        return Ok(answer);
    }
    let linked = shop.chat_clients(bot, chat_id).await?;
    let brand = linked.brand.as_str();
    let say = |key: &str| BotMessage::text(chat_id, text_with(lang, key, &[("brand", brand.into())]));
    let status_or_connect = matches!(reply.kind, ReplyKind::Linked | ReplyKind::Status | ReplyKind::Connect);
    if status_or_connect && linked.clients.is_empty() {
        return Ok(vec![say("bot-not-linked")]);
    }
    // Customers never chose the clients' ids: one subscription is "yours", several are numbered.
    let several = linked.clients.len() > 1;
    // A further subscription of the person is called by the name they gave it.
    let heading = |n: usize| match (&linked.clients[n].name, several) {
        (Some(name), _) => shop::subscription_heading(lang, Some(name)),
        (None, false) => text(lang, "bot-subscription-yours"),
        (None, true) => text_with(lang, "bot-subscription-numbered", &[("number", (n + 1).into())]),
    };
    let not_yet = |n: usize| format!("{}\n{}", heading(n), text(lang, "bot-subscription-not-yet"));
    Ok(match reply.kind {
        ReplyKind::Menu
        | ReplyKind::Help
        | ReplyKind::ReceiptEmailSaved
        | ReplyKind::PromoSaved
        | ReplyKind::PromoUnknown
        | ReplyKind::Invited
        | ReplyKind::SubscriptionNamed { .. }
        | ReplyKind::NameRefused
        | ReplyKind::Gift(_) => vec![],
        ReplyKind::LinkExpired => vec![say("bot-link-expired")],
        ReplyKind::LanguageSet => vec![say("bot-language-set")],
        ReplyKind::Stopped => vec![say("bot-stopped")],
        ReplyKind::Linked | ReplyKind::Status => {
            let mut body = String::new();
            if reply.kind == ReplyKind::Linked {
                body = text_with(lang, "bot-linked", &[("brand", brand.into())]);
            }
            for (n, client) in linked.clients.iter().enumerate() {
                if !body.is_empty() {
                    body.push_str("\n\n");
                }
                body.push_str(&match &client.subscription {
                    None => not_yet(n),
                    Some(sub) => format!("{}\n{}", heading(n), shop::subscription_lines(sub, client.used, lang)),
                });
            }
            vec![BotMessage::text(chat_id, body)]
        }
        ReplyKind::Connect => linked
            .clients
            .iter()
            .enumerate()
            .map(|(n, client)| match (&client.subscription, &client.page_url) {
                (Some(sub), Some(page)) => {
                    let body = text_with(
                        lang,
                        "bot-connect",
                        &[("subscription", heading(n).as_str().into()), ("link", sub.subscription_url.as_str().into())],
                    );
                    BotMessage::text(chat_id, body)
                        .with_buttons(vec![Button::link(text(lang, "bot-connect-button"), page.clone())])
                }
                _ => BotMessage::text(chat_id, not_yet(n)),
            })
            .collect(),
    })
}
