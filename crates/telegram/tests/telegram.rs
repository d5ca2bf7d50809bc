//! The Bot API adapter over real HTTP against the Bot API emulator: messages, updates by
//! polling, webhooks, and what each refusal means.

use std::time::Duration;

use vp_ports::{BotApi, BotApiError, BotMessage, LinkButton};
use vp_telegram::TelegramBots;
use vp_testkit::telegram::TelegramEmulator;

const TOKEN: &str = "123456789:AAHtoken_0123456789abcdefghijklmnop";

fn bot() -> (TelegramEmulator, TelegramBots) {
    let emulator = TelegramEmulator::start(TOKEN, "platform_bot");
    let bots = TelegramBots::new(&emulator.url()).unwrap();
    (emulator, bots)
}

#[tokio::test]
async fn a_message_reaches_its_chat_as_plain_text_with_its_link_buttons() {
    let (emulator, bots) = bot();
    bots.send_message(TOKEN, &BotMessage::text(-1001, "Withdrawal wd_1 of 1,00 ₽ <paid>")).await.unwrap();
    let renew = LinkButton { text: "Renew".into(), url: "https://vpn.example/renew".into() };
    bots.send_message(TOKEN, &BotMessage { chat_id: 7, text: "Ends soon".into(), buttons: vec![renew] }).await.unwrap();
    let sent = emulator.sent_by(TOKEN);
    assert_eq!((sent[0].0, sent[0].1.as_str(), &sent[0].2), (-1001, "Withdrawal wd_1 of 1,00 ₽ <paid>", &None));
    let markup = sent[1].2.clone().unwrap();
    assert_eq!(markup["inline_keyboard"][0][0]["url"], "https://vpn.example/renew");
    emulator.assert_contract();
}

#[tokio::test]
async fn too_many_requests_asks_for_the_wait_telegram_names_and_failures_are_worth_retrying() {
    let (emulator, bots) = bot();
    emulator.fail_next_sends(1, 429, Some(7));
    let message = BotMessage::text(5, "x");
    assert_eq!(bots.send_message(TOKEN, &message).await, Err(BotApiError::Throttled(Duration::from_secs(7))));
    emulator.fail_next_sends(1, 500, None);
    assert!(matches!(bots.send_message(TOKEN, &message).await, Err(BotApiError::Unavailable(_))));
    bots.send_message(TOKEN, &message).await.unwrap();
    assert_eq!(emulator.sent().len(), 1, "delivered once the bot answers");
}

#[tokio::test]
async fn more_than_thirty_messages_a_second_from_one_bot_are_throttled() {
    let (emulator, bots) = bot();
    let mut throttled = 0;
    for chat in 0..31 {
        if let Err(BotApiError::Throttled(wait)) = bots.send_message(TOKEN, &BotMessage::text(chat, "x")).await {
            assert_eq!(wait, Duration::from_secs(1));
            throttled += 1;
        }
    }
    assert_eq!((throttled, emulator.throttled()), (1, 1));
}

#[tokio::test]
async fn a_chat_that_blocked_the_bot_is_gone_for_good() {
    let (emulator, bots) = bot();
    emulator.block_chat(9);
    match bots.send_message(TOKEN, &BotMessage::text(9, "x")).await {
        Err(BotApiError::ChatGone(reason)) => assert!(reason.contains("blocked"), "{reason}"),
        other => panic!("{other:?}"),
    }
    emulator.fail_next_sends(1, 429, Some(3));
    let _ = bots.send_message(TOKEN, &BotMessage::text(5, "x")).await;
    emulator.assert_contract();
}

#[tokio::test]
async fn a_partners_bot_shows_the_profile_it_is_given_in_each_language() {
    let (emulator, bots) = bot();
    let profile = vp_ports::BotProfile {
        name: "Demo VPN".into(),
        languages: vec![vp_ports::BotProfileLanguage {
            code: "ru",
            short_description: "Demo VPN: подписка".into(),
            description: "Этот бот — Demo VPN".into(),
            commands: vec![("status".into(), "Подписка".into())],
        }],
    };
    bots.set_profile(TOKEN, &profile).await.unwrap();
    let seen = emulator.profile(TOKEN).unwrap();
    assert_eq!(seen.name, "Demo VPN");
    assert_eq!(
        seen.commands,
        [("".to_owned(), vec!["status".to_owned()]), ("ru".to_owned(), vec!["status".to_owned()])]
    );
    assert_eq!(bots.identify(TOKEN).await.unwrap().username, "platform_bot");
    emulator.assert_contract();
}

#[tokio::test]
async fn a_wrong_token_is_rejected_and_never_shows_the_token() {
    let (_emulator, bots) = bot();
    let wrong = "987654321:AAHwrong_0123456789abcdefghijklmnop";
    assert_eq!(bots.send_message(wrong, &BotMessage::text(1, "x")).await, Err(BotApiError::Rejected));
    assert_eq!(bots.identify(wrong).await, Err(BotApiError::Rejected));
    // Nothing listens here: the error names the failure, not the URL with the token.
    let gone = TelegramBots::new("http://127.0.0.1:9").unwrap();
    let e = gone.send_message(TOKEN, &BotMessage::text(1, "x")).await.unwrap_err();
    assert!(!format!("{e:?}").contains("AAHtoken"), "{e:?}");
}

#[tokio::test]
async fn updates_carry_their_chat_language_and_text_and_the_next_offset_confirms_them() {
    let (emulator, bots) = bot();
    emulator.press_start(11, "code-a");
    emulator.write_to(TOKEN, 12, "/status", Some("ru"));
    let updates = bots.updates(TOKEN, 0, Duration::from_secs(1)).await.unwrap();
    let read: Vec<(i64, Option<&str>, &str)> = updates
        .iter()
        .filter_map(|u| u.message.as_ref())
        .map(|m| (m.chat_id, m.language.as_deref(), m.text.as_str()))
        .collect();
    assert_eq!(read, [(11, Some("en"), "/start code-a"), (12, Some("ru"), "/status")]);
    let next = updates.iter().map(|u| u.update_id).max().unwrap() + 1;
    assert!(bots.updates(TOKEN, next, Duration::ZERO).await.unwrap().is_empty(), "confirmed updates are gone");
    emulator.assert_contract();
}

#[tokio::test]
async fn a_poll_without_updates_waits() {
    let (emulator, bots) = bot();
    let started = std::time::Instant::now();
    assert!(bots.updates(TOKEN, 42, Duration::from_secs(1)).await.unwrap().is_empty());
    assert!(started.elapsed() >= Duration::from_millis(900), "long polling waits for updates");
    assert_eq!(emulator.calls("getUpdates"), 1);
}

#[tokio::test]
async fn while_a_webhook_is_set_updates_cannot_be_polled() {
    let (emulator, bots) = bot();
    bots.set_webhook(TOKEN, "https://vpn.example/telegram/123456789/updates", "s3cret_token-1").await.unwrap();
    assert_eq!(
        emulator.webhook(TOKEN),
        Some(("https://vpn.example/telegram/123456789/updates".into(), "s3cret_token-1".into()))
    );
    assert!(matches!(bots.updates(TOKEN, 0, Duration::ZERO).await, Err(BotApiError::Conflict(_))));
    bots.delete_webhook(TOKEN).await.unwrap();
    assert_eq!(emulator.webhook(TOKEN), None);
    assert!(bots.updates(TOKEN, 0, Duration::ZERO).await.unwrap().is_empty());
    emulator.assert_contract();
}
