//! Buying in the shop: the payment method when there are several, the invoice with its amount,
//! deadline and "Pay" button, and the trial.

use vp_app::AppResult;
use vp_app::bot_shop::{BotShop, Purchase, Shopper};
use vp_app::renewals::RenewalOffer;
use vp_app::views::InvoiceView;
use vp_domain::{InvoiceStatus, Lang, PaymentId, Purpose};
use vp_i18n::{clock, text, text_with};
use vp_ports::{BotMessage, Button, ButtonPress, PaymentMethodRecord, PlanRecord, StarsInvoice};

use super::screens::{connect_screen, subscription};
use super::{Speak, refusal};
use crate::choice::Choice;
use vp_app::views::plan_term;

/// A plan or a device count pressed: with one payment method the invoice at once, with several
/// the methods first (`choose` makes each one's button).
pub(super) async fn buy(
    shop: &BotShop,
    shopper: &Shopper,
    press: &ButtonPress,
    purpose: Purpose,
    method: Option<String>,
    choose: impl Fn(String) -> Choice,
) -> AppResult<BotMessage> {
    let purchase = shop.buy(shopper, press, purpose, method).await;
    purchase_message(shop, shopper, purchase, choose).await
}

/// What a purchase came to, worded: the methods to choose from, the email to ask for, or the
/// invoice; a refusal in the shopper's words.
pub(super) async fn purchase_message(
    shop: &BotShop,
    shopper: &Shopper,
    purchase: AppResult<Purchase>,
    choose: impl Fn(String) -> Choice,
) -> AppResult<BotMessage> {
    match purchase {
        Ok(Purchase::ChooseMethod(methods)) => {
            let mut buttons: Vec<Button> =
                methods.iter().map(|m| shopper.press(method_name(m, shopper.lang), &choose(m.code.clone()))).collect();
            buttons.push(shopper.back());
            Ok(shopper.message(text(shopper.lang, "shop-choose-method"), buttons))
        }
        Ok(Purchase::AskEmail) => Ok(shopper.message(text(shopper.lang, "shop-email-ask"), vec![shopper.back()])),
        Ok(Purchase::Invoice { invoice, plan, minutes_left, renewal_offer, stars, promo_dropped }) => {
            let offer =
                InvoiceOffer { plan: plan.as_deref(), minutes: minutes_left, renewal: renewal_offer.as_ref(), stars };
            let mut message = invoice_message(shop, shopper, &invoice, offer).await?;
            if let Some(reason) = promo_dropped {
                let note = text(shopper.lang, vp_app::promotions::refusal_text_key(reason));
                message.text = format!("{note} {}\n\n{}", text(shopper.lang, "shop-promo-full-price"), message.text);
            }
            Ok(message)
        }
        Err(e) => Ok(refusal(shopper, e)),
    }
}

/// What the invoice message says besides the invoice.
struct InvoiceOffer<'a> {
    plan: Option<&'a PlanRecord>,
    /// Whole minutes left to pay.
    minutes: i64,
    renewal: Option<&'a RenewalOffer>,
    stars: Option<StarsInvoice>,
}

/// The amount, the deadline and the "Pay" button to the invoice's `payment_url` (in Stars,
/// Telegram's payment form); a replay of an invoice settled since says where it stands instead.
async fn invoice_message(
    shop: &BotShop,
    shopper: &Shopper,
    view: &InvoiceView,
    offer: InvoiceOffer<'_>,
) -> AppResult<BotMessage> {
    let InvoiceOffer { plan, minutes, renewal, stars } = offer;
    let lang = shopper.lang;
    let invoice = &view.invoice;
    let Some(url) = &invoice.payment_url else {
        // The button of an invoice settled since: paid shows what it bought; expired or failed
        // asks for a new choice (this button's key stays bound to that invoice).
        if invoice.status == InvoiceStatus::Succeeded {
            return subscription(shop, shopper).await;
        }
        let buttons = vec![shopper.button("shop-menu-plans", &Choice::Plans), shopper.back()];
        return Ok(shopper.message(shopper.say("shop-invoice-closed"), buttons));
    };
    let what = match invoice.purpose {
        Purpose::Subscription { .. } => plan.map_or_else(|| text(lang, "shop-menu-plans"), |p| plan_term(lang, p)),
        Purpose::Devices { count } => text_with(lang, "page-order-devices", &[("count", count.into())]),
    };
    let time = clock(&shopper.account.time_zone, invoice.expires_at);
    if let Some(stars) = stars {
        let args = [
            ("what", what.as_str().into()),
            ("stars", stars.stars.into()),
            ("minutes", minutes.into()),
            ("time", time.as_str().into()),
        ];
        let mut body = text_with(lang, "shop-stars-invoice", &args);
        if stars.subscription {
            let note = text_with(lang, "shop-stars-subscription", &[("stars", stars.stars.into())]);
            body = format!("{body}\n\n{note}");
        }
        let pay = Button::link(text_with(lang, "shop-stars-pay", &[("stars", stars.stars.into())]), url.clone());
        return Ok(shopper.message(body, vec![pay, shopper.back()]));
    }
    let amount = invoice.amounts.customer;
    let body = text_with(
        lang,
        "shop-invoice",
        &[
            ("what", what.as_str().into()),
            ("amount", amount.into()),
            ("minutes", minutes.into()),
            ("time", time.as_str().into()),
        ],
    );
    let pay = Button::link(text_with(lang, "shop-pay", &[("amount", amount.into())]), url.clone());
    // The consent is offered with the words it gives, before the pay button is used.
    let Some(offer) = renewal else { return Ok(shopper.message(body, vec![pay, shopper.back()])) };
    let body = format!("{body}\n\n{}", renewal_sentence(lang, offer));
    let renew = shopper.button("shop-renew-on", &Choice::RenewOn { payment_id: invoice.payment_id.to_string() });
    Ok(shopper.message(body, vec![renew, pay, shopper.back()]))
}

/// "Renew automatically" pressed under an invoice: the consent is given with the sentence the
/// message showed, then the pay button again.
pub(super) async fn renew_on(shop: &BotShop, shopper: &Shopper, payment_id: &str) -> AppResult<BotMessage> {
    let lang = shopper.lang;
    let invoice = match PaymentId::parse(payment_id) {
        Ok(id) => shop.consent_to_renewal(shopper, &id, |offer| renewal_sentence(lang, offer)).await?,
        // Text that is no payment id names no invoice of the shopper's.
        Err(_) => None,
    };
    if invoice.as_ref().is_some_and(|i| i.status == InvoiceStatus::Succeeded) {
        // Pressed after paying: on already, with the card just used.
        let buttons = vec![shopper.button("shop-menu-subscription", &Choice::Subscription), shopper.back()];
        return Ok(shopper.message(shopper.say("shop-renew-on-now"), buttons));
    }
    let Some(url) = invoice.as_ref().and_then(|i| i.payment_url.as_ref().map(|u| (i.amounts.customer, u))) else {
        let buttons = vec![shopper.button("shop-menu-plans", &Choice::Plans), shopper.back()];
        return Ok(shopper.message(shopper.say("shop-invoice-closed"), buttons));
    };
    let (amount, url) = url;
    let pay = Button::link(text_with(lang, "shop-pay", &[("amount", amount.into())]), url.clone());
    Ok(shopper.message(shopper.say("shop-renew-on-done"), vec![pay, shopper.back()]))
}

/// The consent sentence in the bot: the amount, the period, the next charge and how to cancel.
fn renewal_sentence(lang: Lang, offer: &RenewalOffer) -> String {
    let day = offer.time_zone.day(offer.next_charge_at);
    let args = [("amount", offer.amount.into()), ("months", offer.months.into()), ("day", day.into())];
    text_with(lang, "shop-renew-consent", &args)
}

/// The trial, then how to connect.
pub(super) async fn trial(shop: &BotShop, shopper: &Shopper) -> AppResult<BotMessage> {
    match shop.trial(shopper).await {
        Ok(connect) => Ok(connect_screen(shopper, connect.as_ref(), Some(shopper.say("shop-trial-started")))),
        Err(e) => Ok(refusal(shopper, e)),
    }
}

fn method_name(method: &PaymentMethodRecord, lang: Lang) -> String {
    match lang {
        Lang::Ru => method.name_ru.clone(),
        Lang::En => method.name_en.clone(),
    }
}
