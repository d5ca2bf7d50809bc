//! Gifts in the bot's shop: "Gift a subscription" lists the plans to give; a plan's invoice is
//! paid as any; its paid message (and a press on its button afterwards) gives the links to
//! pass on. A `/start gift_<code>` redeems the gift for the person's first subscription.

use time::Date;
use vp_app::AppResult;
use vp_app::bot_shop::{BotShop, Purchase, Shopper};
use vp_app::views::{plan_offer, plan_term};
use vp_domain::gift::{GiftCode, GiftRefused};
use vp_domain::{InvoiceStatus, Lang};
use vp_i18n::{text, text_with};
use vp_ports::{BotMessage, Button, ButtonPress};

use super::buying::purchase_message;
use super::screens::{connect_screen, share_url};
use super::{Speak, menu, refusal};
use crate::choice::Choice;

/// "Gift a subscription": each plan at its price, to give.
pub(super) async fn plans(shop: &BotShop, shopper: &Shopper) -> AppResult<BotMessage> {
    let list = shop.plans(shopper).await?;
    if list.plans.is_empty() {
        return Ok(shopper.message(shopper.say("shop-plans-none"), vec![shopper.back()]));
    }
    let mut buttons: Vec<Button> = list
        .plans
        .iter()
        .zip(list.savings())
        .map(|(p, saving)| {
            let label = plan_offer(shopper.lang, p, saving);
            shopper.press(label, &Choice::Gift { plan_id: p.plan.plan_id, method: None })
        })
        .collect();
    buttons.push(shopper.back());
    Ok(shopper.message(shopper.say("shop-gift-plans"), buttons))
}

/// A plan to give pressed: its invoice, said to be a gift; once paid, the gift's links.
pub(super) async fn buy(
    shop: &BotShop,
    shopper: &Shopper,
    press: &ButtonPress,
    plan_id: i32,
    method: Option<String>,
) -> AppResult<BotMessage> {
    let purchase = shop.buy_gift(shopper, press, plan_id, method).await;
    if let Ok(Purchase::Invoice { invoice, plan, .. }) = &purchase {
        if invoice.invoice.status == InvoiceStatus::Succeeded {
            let links = shop.gift_links(shopper, &invoice.invoice.payment_id).await?;
            let months = plan.as_ref().map_or(0, |p| if p.lifetime { 0 } else { p.months });
            return Ok(match links {
                Some(links) => {
                    let until = shopper.account.time_zone.day(
                        invoice.invoice.paid_at.unwrap_or(invoice.invoice.created_at)
                            + vp_domain::gift::GIFT_LAPSES_AFTER,
                    );
                    let brand = shopper.account.brand_name.as_str();
                    gift_links_message(
                        shopper.chat_id,
                        shopper.lang,
                        brand,
                        months,
                        links.bot.as_deref(),
                        &links.web,
                        until,
                    )
                }
                // Refunded since.
                None => shopper.message(shopper.say("shop-invoice-closed"), vec![shopper.back()]),
            });
        }
    }
    let what = match &purchase {
        Ok(Purchase::Invoice { plan: Some(plan), .. }) => Some(plan_term(shopper.lang, plan)),
        _ => None,
    };
    let choose = |method| Choice::Gift { plan_id, method: Some(method) };
    let mut message = purchase_message(shop, shopper, purchase, choose).await?;
    if let Some(what) = what {
        let note = text_with(shopper.lang, "shop-gift-invoice", &[("what", what.as_str().into())]);
        message.text = format!("{note}\n\n{}", message.text);
    }
    Ok(message)
}

/// The paid gift's links to pass on, with a button to share the bot's link in Telegram.
pub(crate) fn gift_links_message(
    chat_id: i64,
    lang: Lang,
    brand: &str,
    months: u32,
    bot_url: Option<&str>,
    web_url: &str,
    until: Date,
) -> BotMessage {
    let what = match months {
        0 => text(lang, "shop-term-lifetime"),
        months => text_with(lang, "shop-term-months", &[("count", months.into())]),
    };
    let mut body = text_with(lang, "shop-gift-paid", &[("brand", brand.into()), ("what", what.as_str().into())]);
    body.push_str("\n\n");
    if let Some(bot) = bot_url {
        body.push_str(&text_with(lang, "shop-gift-link-bot", &[("link", bot.into())]));
        body.push('\n');
    }
    body.push_str(&text_with(lang, "shop-gift-link-web", &[("link", web_url.into())]));
    body.push_str("\n\n");
    body.push_str(&text_with(lang, "shop-gift-until", &[("day", until.into())]));
    let share = Button::link(text(lang, "shop-gift-share"), share_url(bot_url.unwrap_or(web_url)));
    let menu = Button::press(text(lang, "shop-menu-back"), Choice::Menu.data());
    BotMessage::text(chat_id, body).with_buttons(vec![share, menu])
}

/// `/start gift_<code>`: the gift redeemed and how to connect, or why it was not.
pub(crate) async fn redeem(shop: &BotShop, shopper: &Shopper, code: &GiftCode) -> AppResult<BotMessage> {
    let key = match shop.redeem_gift(shopper, code).await {
        Ok(Ok(connect)) => {
            let before = shopper.say("shop-gift-redeemed");
            return Ok(connect_screen(shopper, connect.as_ref(), Some(before)));
        }
        Ok(Err(GiftRefused::Unknown | GiftRefused::Unpaid)) => "shop-gift-unknown",
        Ok(Err(GiftRefused::Redeemed)) => "shop-gift-used",
        Ok(Err(GiftRefused::Refunded)) => "shop-gift-refunded",
        Ok(Err(GiftRefused::Lapsed)) => "shop-gift-lapsed",
        Err(e) => return Ok(refusal(shopper, e)),
    };
    let mut answer = menu(shop, shopper).await?;
    answer.text = format!("{}\n\n{}", shopper.say(key), answer.text);
    Ok(answer)
}
