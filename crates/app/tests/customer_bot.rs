//! Customers link themselves to their partner's bot with "Get reminders in Telegram" and use
//! its commands: a one-time code valid 24 hours, a chat for several clients of the account, a
//! client in one chat, the chat's language, and `/stop`.

use crate::support;
use crate::support::cid;

use support::World;
use time::Duration;
use vp_app::AppError;
use vp_ports::ButtonAction;

/// The subscription link token of a client that paid.
async fn paid_client(w: &World, client: &str) -> String {
    let account = w.account().await;
    w.pay(&account, client).await;
    w.subscription(client).await.link_token
}

fn code_of(link: &str) -> &str {
    link.strip_prefix("https://t.me/demo_vpn_bot?start=").expect("the bot's deep link")
}

async fn reachable(w: &World, client: &str) -> bool {
    let actor = w.actor(&w.account.id, &format!("{client}@example.com")).await;
    w.app.cabinet.client(&actor, &cid(client)).await.unwrap().reachable_in_messenger
}

#[tokio::test]
async fn a_customer_links_with_a_one_time_code_and_the_bot_answers_with_the_status() {
    let w = World::with_partner_bot().await;
    let token = paid_client(&w, "alice").await;
    let link = w.app.bot_shop.reminders_link(&token).await.unwrap();
    let code = code_of(&link).to_owned();
    assert_eq!(code.len(), 43);
    assert!(!reachable(&w, "alice").await);

    let answer = w.write_to_partner_bot(900, &format!("/start {code}"), Some("ru")).await;
    assert_eq!(answer.len(), 1);
    let text = &answer[0].text;
    assert!(text.starts_with("Готово: этот чат получает напоминания Demo VPN."), "{text}");
    assert!(text.contains("\n\nВаша подписка\nСтатус: Активна"), "{text}");
    assert!(!text.contains("alice"), "the client id is the partner's, never the customer's: {text}");
    assert!(
        text.contains("Действует до: 01.02.2026 (остался 31 день)"),
        "the date and plural as Russian writes them: {text}"
    );
    assert!(text.contains("Устройства: 0 из 3"), "{text}");
    assert!(reachable(&w, "alice").await);

    let again = w.write_to_partner_bot(901, &format!("/start {code}"), Some("en")).await;
    assert!(again[0].text.starts_with("This link has expired or was used already."), "a code works once");
    let status = w.write_to_partner_bot(901, "/status", Some("en")).await;
    assert!(status[0].text.starts_with("No subscription is linked to this chat yet."), "{status:?}");
}

#[tokio::test]
async fn a_code_expires_after_24_hours_and_only_the_accounts_own_subscriptions_give_one() {
    let w = World::with_partner_bot().await;
    let token = paid_client(&w, "bob").await;
    let link = w.app.bot_shop.reminders_link(&token).await.unwrap();
    w.clock.advance(Duration::hours(24));
    let late = w.write_to_partner_bot(902, &format!("/start {}", code_of(&link)), None).await;
    assert!(late[0].text.starts_with("This link has expired"), "{late:?}");
    assert!(matches!(w.app.bot_shop.reminders_link("no-such-token").await, Err(AppError::NotFound(_))));
    w.app.bots.disconnect_bot(&w.account.id, vp_app::audit::Who::Operator).await.unwrap();
    assert!(matches!(w.app.bot_shop.reminders_link(&token).await, Err(AppError::NotFound("bot"))), "no bot, no link");
}

#[tokio::test]
async fn a_family_shares_a_chat_and_stop_unlinks_every_client_of_it() {
    let w = World::with_partner_bot().await;
    for client in ["mum", "dad"] {
        let token = paid_client(&w, client).await;
        let link = w.app.bot_shop.reminders_link(&token).await.unwrap();
        w.write_to_partner_bot(903, &format!("/start {}", code_of(&link)), Some("en")).await;
    }
    let status = w.write_to_partner_bot(903, "/status", None).await;
    let text = &status[0].text;
    assert!(text.starts_with("Subscription 1\nStatus: Active") && text.contains("\n\nSubscription 2\n"), "{text}");
    assert!(!text.contains("mum") && !text.contains("dad"), "numbered, not named by client id: {text}");
    assert!(text.contains("Devices: 0 of"), "devices used of the limit: {text}");

    let connect = w.write_to_partner_bot(903, "/connect", None).await;
    assert_eq!(connect.len(), 2, "one message per subscription");
    assert!(connect[0].text.contains("http"), "the subscription link: {connect:?}");
    let button = &connect[0].buttons[0];
    let ButtonAction::Url(url) = &button.action else { panic!("a link button: {button:?}") };
    assert!(url.starts_with("http://127.0.0.1:8080/connect/"), "{button:?}");

    // A client is in one chat: linking it elsewhere moves it.
    let token = paid_client(&w, "dad").await;
    let link = w.app.bot_shop.reminders_link(&token).await.unwrap();
    w.write_to_partner_bot(904, &format!("/start {}", code_of(&link)), Some("en")).await;
    let left = w.write_to_partner_bot(903, "/status", None).await;
    assert!(left[0].text.starts_with("Your subscription\n") && !left[0].text.contains("Subscription 2"), "{left:?}");

    let stopped = w.write_to_partner_bot(903, "/stop", None).await;
    assert!(stopped[0].text.starts_with("Done: Demo VPN sends no more messages to this chat."), "{stopped:?}");
    assert!(!reachable(&w, "mum").await);
    assert!(reachable(&w, "dad").await, "another chat's client stays linked");
}

#[tokio::test]
async fn language_switches_the_chat_between_russian_and_english() {
    let w = World::with_partner_bot().await;
    let help = w.write_to_partner_bot(905, "/help", Some("ru")).await;
    assert!(help[0].text.contains("Это бот Demo VPN."), "the app's language first: {help:?}");
    let switched = w.write_to_partner_bot(905, "/language", Some("ru")).await;
    assert_eq!(switched[0].text, "This chat now reads English.");
    assert!(w.write_to_partner_bot(905, "/help", Some("ru")).await[0].text.contains("This is the Demo VPN bot."));
    assert_eq!(w.write_to_partner_bot(905, "/language ru", None).await[0].text, "Теперь этот чат на русском.");
    let anything = w.write_to_partner_bot(905, "hello", None).await;
    assert!(
        anything[0].text.starts_with("Добро пожаловать в Demo VPN!"),
        "anything else gets the shop's menu: {anything:?}"
    );
}
