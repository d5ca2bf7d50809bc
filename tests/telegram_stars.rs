//! Telegram Stars in a partner's bot, through the real binary and the Bot API emulator, on both
//! backends: the operator sets the account's rate; a plan offers "Telegram Stars" beside the
//! other methods, priced in whole Stars rounded up; the pre-checkout query is answered at once
//! and refuses an invoice no longer payable; access comes with `successful_payment` only, once
//! per charge however often Telegram reports it; `vp-api invoice refund` gives the Stars back.
//! A one-month plan is a Stars subscription: each renewal charge extends the term by a month,
//! once; "Turn off automatic renewal" cancels it in Telegram, and the term then ends as usual.

use crate::support;

use serde_json::Value;
use support::chat::{PARTNER_TOKEN, Person, shop, url_of};
use support::partner::{jobs_at, term_end};
use support::server::{Backend, Server};
use time::Duration;
use vp_testkit::telegram::{STARS_SUBSCRIPTION_PERIOD, TelegramEmulator};

each_backend!(
    a_plan_paid_in_stars_is_settled_once_per_charge_and_refunded_in_stars,
    a_monthly_plan_in_stars_renews_by_each_charge_once_and_is_cancelled_from_the_bot,
    a_stars_subscription_cancelled_in_telegram_is_off_at_once_and_a_failed_charge_is_told,
);

/// The account's bot takes Stars at 1.50 ₽ each.
fn take_stars(s: &Server) {
    let set = s.cli(&["account", "stars", &s.account_id, "--rub-per-star", "1.50"]);
    assert_eq!(set["stars"]["rub_per_star"], "1.50", "{set}");
}

/// The person writes `/status` and waits for its answer: every update before it was handled.
fn handled_so_far(person: &Person) {
    person.write("/status", "Статус");
}

fn payment(s: &Server, payment_id: &str) -> Value {
    s.api("GET", &format!("/payments/{payment_id}"), None, &[]).json()
}

fn balance(s: &Server) -> Value {
    s.cli(&["account", "show", &s.account_id])["partner_balance"].clone()
}

fn paid_messages(telegram: &TelegramEmulator, user: i64) -> usize {
    let sent = telegram.sent_messages(PARTNER_TOKEN);
    sent.iter().filter(|m| m.chat_id == user && m.text.contains("Оплата получена")).count()
}

fn a_plan_paid_in_stars_is_settled_once_per_charge_and_refunded_in_stars(backend: Backend) {
    let Some((telegram, s)) = shop(backend, "tg_stars_once") else { return };
    // The operator's rate is checked; a refused one changes nothing.
    let (code, said) = s.db.cli_raw(&["account", "stars", &s.account_id, "--rub-per-star", "0"]);
    assert_ne!(code, Some(0), "{said}");
    assert!(said.contains("--rub-per-star: the rate must be more than 0"), "{said}");
    take_stars(&s);

    let person = Person::new(&telegram, 616_161);
    let menu = person.write("/start", "Добро пожаловать в Demo VPN!");
    let plans = person.press(&menu, "Купить подписку", "выберите тариф");
    let methods = person.press(&plans, "3 месяца", "Как вы хотите оплатить?");
    assert!(methods.button_labels().contains(&"Telegram Stars".to_owned()), "{:?}", methods.button_labels());
    let invoice = person.press(&methods, "Telegram Stars", "Оплатите в течение");
    // 658.80 ₽ at 1.50 ₽ a Star is 439.2 Stars: 440, worth 660.00 ₽.
    assert!(invoice.text.starts_with("3 месяца: 440 ⭐ (Telegram Stars)."), "{}", invoice.text);
    let link = url_of(&invoice, "Оплатить 440 ⭐");
    let made = telegram.invoice_links(PARTNER_TOKEN);
    let made = made.iter().find(|l| l.url == link).expect("the link the bot made");
    assert_eq!((made.currency.as_str(), made.amount, made.subscription_period), ("XTR", 440, None));
    let payment_id = made.payload.clone();
    let issued = payment(&s, &payment_id);
    assert_eq!(
        (&issued["status"], &issued["method"], &issued["amount"], &issued["payment_url"]),
        (&Value::from("pending"), &Value::from("telegram_stars"), &Value::from("660.00"), &Value::from(link.clone())),
        "{issued}"
    );
    let before = balance(&s);

    let seen = person.messages().len();
    let checkout = telegram.pay_link(&link, person.user, Some("ru"));
    assert!(checkout.answered && checkout.ok, "the pre-checkout query is answered yes: {checkout:?}");
    person.next_with(seen, "Оплата получена");
    let paid = payment(&s, &payment_id);
    assert_eq!(paid["status"], "succeeded", "{paid}");
    let client = s.api("GET", "/clients/telegram:616161", None, &[]).json();
    assert_eq!(client["subscription"]["status"], "active", "{client}");
    let ends = term_end(&s, "telegram:616161");
    let after_payment = balance(&s);
    assert_eq!(before, "0.00");
    // The ruble value of 440 Stars less the platform's 549.00: the rounding up is the partner's.
    assert_eq!(after_payment, "111.00", "the partner's share is credited");

    // Telegram reports the same payment again: nothing changes.
    telegram.deliver_again(PARTNER_TOKEN, checkout.update.as_ref().unwrap());
    handled_so_far(&person);
    assert_eq!(term_end(&s, "telegram:616161"), ends, "the term moved once");
    assert_eq!(balance(&s), after_payment, "credited once");
    assert_eq!(paid_messages(&telegram, person.user), 1, "one paid message");

    // The link again: the invoice is no longer payable, and the form says why.
    let again = telegram.pay_link(&link, person.user, Some("ru"));
    assert!(again.answered && !again.ok, "{again:?}");
    assert_eq!(again.error_message.as_deref(), Some("Этот счёт уже нельзя оплатить. Выберите тариф в боте заново."));
    assert_eq!(again.charge_id, None, "nothing charged");

    let refunded = s.cli(&["invoice", "refund", &payment_id]);
    assert_eq!((&refunded["status"], &refunded["refund"]), (&Value::from("failed"), &Value::from("succeeded")));
    assert_eq!(telegram.star_refunds(), vec![(person.user, checkout.charge_id.clone().unwrap())], "the Stars back");
    assert_eq!(balance(&s), before, "the partner's share is reversed");
    telegram.assert_contract();
    person.save_transcript(&format!("stars-{backend:?}").to_lowercase());
}

fn a_monthly_plan_in_stars_renews_by_each_charge_once_and_is_cancelled_from_the_bot(backend: Backend) {
    let Some((telegram, s)) = shop(backend, "tg_stars_monthly") else { return };
    take_stars(&s);
    let person = Person::new(&telegram, 717_171);
    let invoice = person.order_a_month("Telegram Stars");
    // 238.80 ₽ at 1.50 ₽ a Star: 160 Stars.
    assert!(
        invoice.text.contains("ежемесячная подписка в Telegram Stars: Telegram списывает 160 ⭐"),
        "{}",
        invoice.text
    );
    assert!(!invoice.text.contains("Продлевать автоматически"), "no card consent for Stars: {}", invoice.text);
    let link = url_of(&invoice, "Оплатить 160 ⭐");
    let made = telegram.invoice_links(PARTNER_TOKEN);
    assert_eq!(made.last().unwrap().subscription_period, Some(STARS_SUBSCRIPTION_PERIOD), "a Stars subscription");

    let seen = person.messages().len();
    let first = telegram.pay_link(&link, person.user, Some("ru"));
    let first_charge = first.charge_id.clone().expect("paid");
    let paid = person.next_with(seen, "Оплата получена");
    let client = || s.api("GET", "/clients/telegram:717171", None, &[]).json();
    assert_eq!(client()["subscription"]["auto_renew"], true, "Telegram renews it");
    let first_end = term_end(&s, "telegram:717171");

    // Telegram charges the next month: the term moves a month on, once.
    let seen = person.messages().len();
    let (_, renewal) = telegram.renew_subscription(&first_charge).expect("renewed");
    person.next_with(seen, "Оплата получена");
    let renewed_end = term_end(&s, "telegram:717171");
    assert!(renewed_end - first_end >= Duration::days(28) && renewed_end - first_end <= Duration::days(31));
    telegram.deliver_again(PARTNER_TOKEN, &renewal);
    handled_so_far(&person);
    assert_eq!(term_end(&s, "telegram:717171"), renewed_end, "one month per charge");
    assert_eq!(paid_messages(&telegram, person.user), 2);

    // The partner's support sees it on the client's page.
    let mut cabinet = support::visitor::cabinet_member(&s, &s.account_id, "support@example.com");
    let shown = cabinet.get("/cabinet/clients/telegram:717171").text();
    assert!(shown.contains("160 Stars every 30 days") && shown.contains(&first_charge), "{shown}");

    // Telegram renews it: no reminder asks to renew by hand.
    jobs_at(&s, renewed_end - Duration::hours(23));
    let reminders = |s: &Server| s.db.query_sql("SELECT kind FROM reminder_sends ORDER BY created_at");
    assert_eq!(reminders(&s), vec!["paid".to_owned(), "paid".to_owned()], "only the paid messages");

    let mine = person.press(&paid, "Моя подписка", "Статус: Активна");
    assert!(mine.text.contains("Подписка в Telegram Stars: около"), "{}", mine.text);
    assert!(mine.text.contains("спишется 160 ⭐."), "{}", mine.text);
    let off = person.press(&mine, "Отключить автопродление", "Автопродление отключено");
    assert!(off.text.contains("больше ничего не спишем"), "{}", off.text);
    assert_eq!(telegram.star_subscription_canceled(&first_charge), Some(true), "cancelled in Telegram");
    assert_eq!(client()["subscription"]["auto_renew"], false);
    assert!(telegram.renew_subscription(&first_charge).is_none(), "Telegram charges no more");

    // The month paid runs out and the term ends as usual.
    jobs_at(&s, renewed_end + Duration::minutes(1));
    assert_eq!(client()["subscription"]["status"], "expired", "{}", client());
    assert_eq!(reminders(&s).last().map(String::as_str), Some("expired"), "the end is told as usual");
    telegram.assert_contract();
    person.save_transcript(&format!("stars-subscription-{backend:?}").to_lowercase());
}

fn a_stars_subscription_cancelled_in_telegram_is_off_at_once_and_a_failed_charge_is_told(backend: Backend) {
    let Some((telegram, s)) = shop(backend, "tg_stars_changed") else { return };
    take_stars(&s);
    let person = Person::new(&telegram, 727_272);
    let invoice = person.order_a_month("Telegram Stars");
    let seen = person.messages().len();
    let first = telegram.pay_link(&url_of(&invoice, "Оплатить 160 ⭐"), person.user, Some("ru"));
    let first_charge = first.charge_id.clone().expect("paid");
    person.next_with(seen, "Оплата получена");
    let client = || s.api("GET", "/clients/telegram:727272", None, &[]).json();
    assert_eq!(client()["subscription"]["auto_renew"], true);

    // Cancelled in Telegram's settings: off at once, and said, not at the term's end.
    let seen = person.messages().len();
    telegram.subscription_changed(&first_charge, "canceled");
    let off = person.next_with(seen, "автопродление в Telegram выключено");
    // The demo account's zone is Moscow's.
    let ends = term_end(&s, "telegram:727272").to_offset(time::macros::offset!(+3));
    let ends = ends.format(time::macros::format_description!("[day].[month].[year]"));
    assert!(off.text.starts_with("Demo VPN: ") && off.text.contains(&format!("до {}", ends.unwrap())), "{}", off.text);
    assert_eq!(client()["subscription"]["auto_renew"], false);

    // Enabled again in Telegram: on again.
    let seen = person.messages().len();
    telegram.subscription_changed(&first_charge, "active");
    person.next_with(seen, "автопродление в Telegram снова включено");
    assert_eq!(client()["subscription"]["auto_renew"], true);

    // A charge Telegram could not make: off, and the person is told to renew by hand, once.
    let seen = person.messages().len();
    let failed = telegram.subscription_changed(&first_charge, "failed");
    let told = person.next_with(seen, "Telegram не смог списать звёзды");
    assert!(told.text.contains("«Купить подписку»"), "{}", told.text);
    assert_eq!(client()["subscription"]["auto_renew"], false);
    telegram.deliver_again(PARTNER_TOKEN, &failed);
    handled_so_far(&person);
    let failures = person.messages().iter().filter(|m| m.text.contains("не смог списать")).count();
    assert_eq!(failures, 1, "a redelivery tells nothing twice");
    telegram.assert_contract();
    person.save_transcript(&format!("stars-subscription-changed-in-telegram-{backend:?}").to_lowercase());
}
