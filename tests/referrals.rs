//! Referrals through the real binary and the Bot API emulator (docs/decisions.md,
//! "Referrals"): the operator sets the days; a customer's "Invite a friend" gives their personal
//! link; a new person who starts the bot through it is invited, and their first payment gives
//! the inviter the days (added to a running subscription, else kept for the inviter's next
//! purchase) once, with a word in the inviter's chat; a refund of that payment takes the days
//! back; one's own link and a person the bot knew before invite nobody; a first payment while
//! the program is off rewards nobody.

use crate::support;

use serde_json::Value;
use support::chat::{Person, shop, url_of};
use support::server::{Backend, Server};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use vp_testkit::telegram::SentMessage;

each_backend!(
    a_friends_first_payment_gives_the_inviter_days_once_and_its_refund_takes_them_back,
    an_inviter_without_a_subscription_gets_the_days_with_their_next_purchase,
);

/// The program as `vp-api account referrals` shows it.
fn program(s: &Server) -> Value {
    s.cli(&["account", "referrals", &s.account_id])
}

/// The end of the client's subscription.
fn expires_at(s: &Server, client_id: &str) -> OffsetDateTime {
    let client = s.api("GET", &format!("/clients/{client_id}"), None, &[]).json();
    let at = client["subscription"]["expires_at"].as_str().unwrap_or_else(|| panic!("a subscription: {client}"));
    OffsetDateTime::parse(at, &Rfc3339).unwrap()
}

/// The personal link in the answer to "Invite a friend", and its `/start` parameter.
fn personal_link(answer: &SentMessage) -> (String, String) {
    let at = answer.text.find("https://t.me/demo_vpn_bot?start=").unwrap_or_else(|| panic!("a link: {}", answer.text));
    let url: String = answer.text[at..].chars().take_while(|c| !c.is_whitespace()).collect();
    let parameter = url.rsplit('=').next().unwrap().to_owned();
    (url, parameter)
}

/// Buys the one-month plan in the bot and returns the invoice's id (not paid yet).
fn order_a_month(person: &Person<'_>, menu: &SentMessage) -> String {
    let plans = person.press(menu, "Купить подписку", "выберите тариф");
    let methods = person.press(&plans, "1 месяц", "Как вы хотите оплатить?");
    let invoice = person.press(&methods, "Банковская карта", "Оплатите в течение");
    url_of(&invoice, "Оплатить").rsplit('/').next().unwrap().to_owned()
}

fn a_friends_first_payment_gives_the_inviter_days_once_and_its_refund_takes_them_back(backend: Backend) {
    let Some((telegram, s)) = shop(backend, "referrals") else { return };
    let set = s.cli(&["account", "referrals", &s.account_id, "--days", "7"]);
    assert_eq!((&set["days"], &set["status"]), (&Value::from(7), &Value::from("on")), "{set}");
    let (code, said) = s.db.cli_raw(&["account", "referrals", &s.account_id, "--days", "366"]);
    assert_eq!(code, Some(2), "more than a year is refused: {said}");
    assert!(said.contains("0 (off) to 365"), "{said}");

    // The inviter: a link needs a client, which the trial makes.
    let inviter = Person::new(&telegram, 610_001);
    let menu = inviter.write("/start", "Добро пожаловать в Demo VPN!");
    inviter.press(&menu, "Пригласить друга", "появится, когда у вас будет подписка");
    inviter.press(&menu, "Попробовать бесплатно", "");
    let answer = inviter.press(&menu, "Пригласить друга", "Ваша личная ссылка");
    assert!(answer.text.contains("вы получите 7 дней VPN бесплатно"), "{}", answer.text);
    let (link, parameter) = personal_link(&answer);
    let again = inviter.press(&menu, "Пригласить друга", "Ваша личная ссылка");
    assert_eq!(personal_link(&again).0, link, "one personal link per customer");
    let before = expires_at(&s, "telegram:610001");

    // One's own link invites nobody; nor does it invite a person the bot knew before.
    inviter.write(&format!("/start {parameter}"), "Добро пожаловать в Demo VPN!");
    let known = Person::new(&telegram, 610_004);
    known.write("/start", "Добро пожаловать в Demo VPN!");
    known.write(&format!("/start {parameter}"), "Добро пожаловать в Demo VPN!");
    assert!(known.messages().iter().all(|m| !m.text.contains("пригласил")), "{:#?}", known.messages());
    assert_eq!(program(&s)["invited"], Value::from(0), "no invitation yet: {}", program(&s));

    // A new person through the link is invited, and their first payment rewards the inviter.
    let friend = Person::new(&telegram, 610_002);
    let menu = friend.write(&format!("/start {parameter}"), "Вас пригласил друг.\n\nДобро пожаловать в Demo VPN!");
    assert_eq!(program(&s)["invited"], Value::from(1));
    let first = order_a_month(&friend, &menu);
    let seen = inviter.messages().len();
    support::partner::pay(&s, &first);
    let told = inviter.next_with(seen, "приглашённый вами друг оплатил");
    assert!(told.text.contains("добавлено 7 дней"), "{}", told.text);
    assert_eq!(expires_at(&s, "telegram:610001") - before, time::Duration::days(7), "7 days added");

    // A second payment of the same friend gives nothing more.
    support::partner::buy(&s, "telegram:610002", 1);
    let shown = program(&s);
    assert_eq!((&shown["rewarded"], &shown["days_given"]), (&Value::from(1), &Value::from(7)), "{shown}");
    assert_eq!(shown["top_inviters"][0]["client_id"], "telegram:610001", "{shown}");
    assert_eq!(expires_at(&s, "telegram:610001") - before, time::Duration::days(7), "once per friend");

    // The partner sees it in the cabinet, and a bad number there changes nothing.
    let mut cabinet = support::visitor::cabinet_member(&s, &s.account_id, "partner@example.com");
    let page = cabinet.get("/cabinet/promotions?lang=en").text();
    assert!(page.contains("Invited: 1. Paid: 1. Days given: 7."), "{page}");
    assert!(page.contains("<code>telegram:610001</code>"), "the top inviter: {page}");
    let overview = cabinet.get("/cabinet?lang=en").text();
    assert!(overview.contains("Days given: 7. Invited: 1."), "{overview}");
    let refused = cabinet.submit("/cabinet/promotions", "/cabinet/promotions/referrals", &[("days", "400")]);
    assert_eq!(refused.status, 422, "{}", refused.text());
    assert!(refused.text().contains("a whole number from 0 to 365"), "{}", refused.text());
    assert_eq!(program(&s)["days"], Value::from(7), "unchanged");

    // The rewarded payment refunded: the days are taken back.
    s.cli(&["invoice", "refund", &first]);
    assert_eq!(expires_at(&s, "telegram:610001"), before, "the days are taken back");
    let shown = program(&s);
    assert_eq!((&shown["rewarded"], &shown["days_given"]), (&Value::from(0), &Value::from(0)), "{shown}");
    inviter.save_transcript(&format!("telegram-referral-inviter-{backend:?}").to_lowercase());
    friend.save_transcript(&format!("telegram-referral-friend-{backend:?}").to_lowercase());

    // Turned off: no button, and a link invites nobody.
    s.cli(&["account", "referrals", &s.account_id, "--days", "0"]);
    let menu = inviter.write("/start", "Добро пожаловать в Demo VPN!");
    assert!(menu.buttons().iter().all(|b| !b.text.contains("Пригласить")), "{menu:#?}");
    let late = Person::new(&telegram, 610_006);
    late.write(&format!("/start {parameter}"), "Добро пожаловать в Demo VPN!");
    assert_eq!(program(&s)["invited"], Value::from(1));
    assert_eq!(telegram.unanswered_presses(), 0, "every press is confirmed");
    telegram.assert_contract();
}

fn an_inviter_without_a_subscription_gets_the_days_with_their_next_purchase(backend: Backend) {
    let Some((telegram, s)) = shop(backend, "referral_credit") else { return };
    s.cli(&["account", "referrals", &s.account_id, "--days", "10"]);
    // An invoice makes the inviter a client, without a subscription yet.
    let inviter = Person::new(&telegram, 620_001);
    let menu = inviter.write("/start", "Добро пожаловать в Demo VPN!");
    let own = order_a_month(&inviter, &menu);
    let (_, parameter) = personal_link(&inviter.press(&menu, "Пригласить друга", "Ваша личная ссылка"));

    let friend = Person::new(&telegram, 620_002);
    let menu = friend.write(&format!("/start {parameter}"), "Вас пригласил друг.");
    let seen = inviter.messages().len();
    support::partner::pay(&s, &order_a_month(&friend, &menu));
    let told = inviter.next_with(seen, "приглашённый вами друг оплатил");
    assert!(told.text.contains("10 дней добавим к вашей следующей покупке"), "{}", told.text);
    assert_eq!(program(&s)["days_given"], Value::from(10));

    // The inviter pays their own invoice: a month and the 10 days.
    support::partner::pay(&s, &own);
    let paid = s.api("GET", &format!("/payments/{own}"), None, &[]).json();
    let paid_at = OffsetDateTime::parse(paid["paid_at"].as_str().unwrap(), &Rfc3339).unwrap();
    let term = expires_at(&s, "telegram:620001") - paid_at;
    assert!((38..=41).contains(&term.whole_days()), "a month and 10 days: {term}");
    inviter.save_transcript(&format!("telegram-referral-credit-{backend:?}").to_lowercase());

    // A first payment made while the program is off rewards nobody, then or later.
    let later = Person::new(&telegram, 620_003);
    let menu = later.write(&format!("/start {parameter}"), "Вас пригласил друг.");
    s.cli(&["account", "referrals", &s.account_id, "--days", "0"]);
    support::partner::pay(&s, &order_a_month(&later, &menu));
    s.cli(&["account", "referrals", &s.account_id, "--days", "10"]);
    support::partner::buy(&s, "telegram:620003", 1);
    let shown = program(&s);
    assert_eq!((&shown["invited"], &shown["rewarded"]), (&Value::from(2), &Value::from(1)), "{shown}");
    telegram.assert_contract();
}
