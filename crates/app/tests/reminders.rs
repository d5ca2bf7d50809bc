//! The platform's reminders to customers linked to their partner's bot (spec: term events,
//! rule 6): 72 and 24 hours before the end and at the end, once per term, in the chat's
//! language, with the renewal button; nothing after /stop, nothing to a chat that blocked the
//! bot (which is unlinked), and a renewal counts again.

use crate::support;
use crate::support::cid;

use support::{PARTNER_BOT_TOKEN, World};
use time::{Duration, OffsetDateTime};
use vp_ports::{BotApiError, BotMessage, Button};

/// Pays a month for `client`; returns the end of its term.
async fn pay(w: &World, client: &str) -> OffsetDateTime {
    let account = w.account().await;
    w.pay(&account, client).await;
    w.subscription(client).await.subscription.expires_at
}

/// Links `client` to `chat_id` the way a customer does, in `language`.
async fn link(w: &World, client: &str, chat_id: i64, language: &str) {
    let link = w.app.bot_shop.reminders_link(&w.subscription(client).await.link_token).await.unwrap();
    let code = link.rsplit('=').next().unwrap();
    w.write_to_partner_bot(chat_id, &format!("/start {code}"), Some(language)).await;
}

async fn command(w: &World, chat_id: i64, text: &str) {
    w.write_to_partner_bot(chat_id, text, None).await;
}

/// Moves the clock to `at`, runs the term check and the reminder worker; returns the
/// reminders the bot sent.
async fn at(w: &World, at: OffsetDateTime) -> Vec<BotMessage> {
    let now = w.clock.now_for_test();
    if at > now {
        w.clock.advance(at - now);
    }
    let before = w.bots.sent.lock().unwrap().len();
    w.app.events.check_terms().await.unwrap();
    w.app.reminders.deliver_reminders_once("test", 100).await.unwrap().expect("the only worker");
    let sent = w.bots.sent.lock().unwrap();
    sent[before..].iter().filter(|(t, _)| t == PARTNER_BOT_TOKEN).map(|(_, m)| m.clone()).collect()
}

#[tokio::test]
async fn a_linked_customer_is_reminded_72_and_24_hours_before_the_end_and_at_the_end_once_each() {
    let w = World::with_partner_bot().await;
    let ends = pay(&w, "alice").await;
    link(&w, "alice", 900, "ru").await;
    let actor = w.actor(&w.account.id, "owner@example.com").await;
    w.app.cabinet.set_renewal_url(&actor, "https://demo.example/renew").await.unwrap();

    assert!(at(&w, ends - Duration::hours(73)).await.is_empty(), "nothing before 72 hours");
    let first = at(&w, ends - Duration::hours(71)).await;
    assert_eq!(first.len(), 1);
    assert_eq!(first[0].chat_id, 900);
    assert!(first[0].text.contains("Demo VPN: ваша подписка заканчивается 01.02.2026"), "{:?}", first[0].text);
    assert!(first[0].text.ends_with("осталось 3 дня."), "{:?}", first[0].text);
    assert_eq!(first[0].buttons, vec![Button::link("Продлить", "https://demo.example/renew")]);
    assert!(at(&w, ends - Duration::hours(70)).await.is_empty(), "once per term");

    let second = at(&w, ends - Duration::hours(23)).await;
    assert_eq!(second.len(), 1);
    assert!(second[0].text.ends_with("остался 1 день."), "{:?}", second[0].text);
    let last = at(&w, ends + Duration::minutes(6)).await;
    assert_eq!(last.len(), 1);
    assert!(last[0].text.starts_with("Demo VPN: ваша подписка закончилась, VPN отключён."), "{:?}", last[0].text);
    assert!(at(&w, ends + Duration::days(3)).await.is_empty(), "the end is said once");

    // Renewed: the new term is reminded again.
    let renewed_end = pay(&w, "alice").await;
    assert!(renewed_end > ends);
    let again = at(&w, renewed_end - Duration::hours(71)).await;
    assert_eq!(again.len(), 2, "the renewal's payment is confirmed, and the new term counts again: {again:?}");
    assert!(
        again[0].text.starts_with("Оплата получена, спасибо! Demo VPN: подписка действует до"),
        "{:?}",
        again[0].text
    );
    assert!(again[0].photo.is_some(), "with the QR code to connect");
    assert!(again[1].text.ends_with("осталось 3 дня."), "{:?}", again[1].text);
    // After /stop, nothing more.
    command(&w, 900, "/stop").await;
    assert!(at(&w, renewed_end - Duration::hours(23)).await.is_empty(), "none after /stop");
}

#[tokio::test]
async fn without_a_renewal_link_the_button_leads_to_support_and_unlinked_clients_get_nothing() {
    let w = World::with_partner_bot().await;
    let ends = pay(&w, "bob").await;
    pay(&w, "carol").await;
    link(&w, "bob", 901, "en").await;
    w.app.operator.set_style(&w.account.id, support_only()).await.unwrap();
    let sent = at(&w, ends - Duration::hours(71)).await;
    assert_eq!(sent.len(), 1, "carol never linked a chat: {sent:?}");
    assert!(sent[0].text.ends_with("3 days left."), "{:?}", sent[0].text);
    assert_eq!(sent[0].buttons, vec![Button::link("Contact support", "https://t.me/demo_support")]);
}

fn support_only() -> vp_app::style::StyleChanges {
    use vp_app::style::{StyleChange, StyleChanges};
    StyleChanges {
        logo_url: StyleChange::Keep,
        accent_color: StyleChange::Keep,
        support_url: StyleChange::Set("https://t.me/demo_support".into()),
    }
}

#[tokio::test]
async fn a_chat_that_blocked_the_bot_is_unlinked_and_a_failure_is_retried_once_due() {
    let w = World::with_partner_bot().await;
    let ends = pay(&w, "dave").await;
    link(&w, "dave", 902, "en").await;
    w.bots.send_failures.lock().unwrap().push(BotApiError::Unavailable("502".into()));
    assert!(at(&w, ends - Duration::hours(71)).await.is_empty(), "Telegram failed");
    assert_eq!(at(&w, ends - Duration::hours(71) + Duration::seconds(31)).await.len(), 1, "retried after 30 s");

    w.bots.send_failures.lock().unwrap().push(BotApiError::ChatGone("Forbidden: bot was blocked by the user".into()));
    assert!(at(&w, ends - Duration::hours(23)).await.is_empty());
    let actor = w.actor(&w.account.id, "support@example.com").await;
    assert!(!w.app.cabinet.client(&actor, &cid("dave")).await.unwrap().reachable_in_messenger, "unlinked");
    assert!(at(&w, ends + Duration::minutes(6)).await.is_empty(), "nothing more to that chat");
}

#[tokio::test]
async fn the_renewal_link_is_https_only() {
    let w = World::with_partner_bot().await;
    let actor = w.actor(&w.account.id, "owner@example.com").await;
    for bad in ["http://demo.example/renew", "demo.example", "https://a b"] {
        assert!(matches!(w.app.cabinet.set_renewal_url(&actor, bad).await, Err(vp_app::AppError::Validation(_))));
    }
    assert_eq!(w.app.cabinet.renewal_url(&actor).await.unwrap(), None, "nothing was saved");
    w.app.cabinet.set_renewal_url(&actor, " https://demo.example/renew ").await.unwrap();
    assert_eq!(w.app.cabinet.renewal_url(&actor).await.unwrap().as_deref(), Some("https://demo.example/renew"));
    w.app.cabinet.set_renewal_url(&actor, "").await.unwrap();
    assert_eq!(w.app.cabinet.renewal_url(&actor).await.unwrap(), None, "cleared");
}
