//! The Bot API adapter over real HTTP against the Bot API emulator: messages, photos, buttons
//! and their presses, updates by polling, webhooks, and what each refusal means.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use vp_ports::{BotApi, BotApiError, BotMessage, Button, ButtonPress};
use vp_telegram::TelegramBots;
use vp_testkit::http::{HttpServer, Reply};
use vp_testkit::telegram::TelegramEmulator;

const TOKEN: &str = "123456789:AAHtoken_0123456789abcdefghijklmnop";
/// A 1x1 PNG: binary, with CR LF and NUL bytes a form must carry as they are.
const PNG: [u8; 68] = [
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x04, 0x00, 0x00, 0x00, 0xb5, 0x1c, 0x0c, 0x02, 0x00, 0x00, 0x00, 0x0b, 0x49,
    0x44, 0x41, 0x54, 0x78, 0xda, 0x63, 0x64, 0x60, 0x00, 0x00, 0x00, 0x06, 0x00, 0x02, 0x30, 0x81, 0xd0, 0x2f, 0x00,
    0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

fn bot() -> (TelegramEmulator, TelegramBots) {
    let emulator = TelegramEmulator::start(TOKEN, "platform_bot");
    let bots = TelegramBots::new(&emulator.url()).unwrap();
    (emulator, bots)
}

#[tokio::test]
async fn a_message_reaches_its_chat_as_plain_text_with_its_buttons() {
    let (emulator, bots) = bot();
    bots.send_message(TOKEN, &BotMessage::text(-1001, "Withdrawal wd_1 of 1,00 ₽ <paid>")).await.unwrap();
    let buttons = vec![Button::press("Русский", "lang:ru"), Button::link("Renew", "https://vpn.example/renew")];
    bots.send_message(TOKEN, &BotMessage::text(7, "Ends soon").with_buttons(buttons)).await.unwrap();
    let sent = emulator.sent_by(TOKEN);
    assert_eq!((sent[0].0, sent[0].1.as_str(), &sent[0].2), (-1001, "Withdrawal wd_1 of 1,00 ₽ <paid>", &None));
    let markup = sent[1].2.clone().unwrap();
    assert_eq!(markup["inline_keyboard"][0][0], serde_json::json!({"text": "Русский", "callback_data": "lang:ru"}));
    assert_eq!(
        markup["inline_keyboard"][1][0],
        serde_json::json!({"text": "Renew", "url": "https://vpn.example/renew"})
    );
    emulator.assert_contract();
}

#[tokio::test]
async fn a_photo_reaches_its_chat_with_its_caption_and_buttons() {
    let (emulator, bots) = bot();
    let message = BotMessage {
        photo: Some(PNG.to_vec()),
        ..BotMessage::text(7, "Scan to connect").with_buttons(vec![Button::press("Done", "connected")])
    };
    bots.send_message(TOKEN, &message).await.unwrap();
    let sent = emulator.sent_messages(TOKEN);
    assert_eq!(sent.len(), 1);
    assert_eq!((sent[0].chat_id, sent[0].text.as_str()), (7, "Scan to connect"));
    assert_eq!(sent[0].photo.as_deref(), Some(&PNG[..]), "the same PNG, byte for byte");
    assert_eq!(sent[0].button_labels(), ["Done"]);
    assert_eq!(emulator.calls("sendPhoto"), 1);
    // Without a caption too.
    bots.send_message(TOKEN, &BotMessage { photo: Some(PNG.to_vec()), ..BotMessage::text(8, "") }).await.unwrap();
    assert_eq!(emulator.sent_messages(TOKEN)[1].text, "");
    emulator.assert_contract();
}

#[tokio::test]
async fn a_photo_is_uploaded_as_a_png_file_part() {
    let received = Arc::new(Mutex::new(None));
    let keep = received.clone();
    let telegram = HttpServer::start(move |req| {
        *keep.lock().unwrap() = Some(req.clone());
        Reply::json(200, &serde_json::json!({"ok": true, "result": {}}))
    });
    let bots = TelegramBots::new(&telegram.url()).unwrap();
    bots.send_message(TOKEN, &BotMessage { photo: Some(PNG.to_vec()), ..BotMessage::text(7, "QR") }).await.unwrap();
    let request = received.lock().unwrap().clone().unwrap();
    assert!(request.header("content-type").unwrap().starts_with("multipart/form-data; boundary="));
    let body = String::from_utf8_lossy(&request.body).to_lowercase();
    assert!(body.contains(r#"name="photo"; filename="qr.png""#) && body.contains("content-type: image/png"), "{body}");
    assert!(request.body.windows(PNG.len()).any(|w| w == PNG), "the PNG as it is");
}

#[tokio::test]
async fn a_photo_is_refused_and_throttled_like_a_message() {
    let (emulator, bots) = bot();
    let photo = |chat_id| BotMessage { photo: Some(PNG.to_vec()), ..BotMessage::text(chat_id, "QR") };
    emulator.block_chat(9);
    assert!(matches!(bots.send_message(TOKEN, &photo(9)).await, Err(BotApiError::ChatGone(_))));
    emulator.fail_next_sends(1, 429, Some(4));
    assert_eq!(bots.send_message(TOKEN, &photo(5)).await, Err(BotApiError::Throttled(Duration::from_secs(4))));
    let not_png = BotMessage { photo: Some(b"GIF89a".to_vec()), ..BotMessage::text(5, "QR") };
    match bots.send_message(TOKEN, &not_png).await {
        Err(BotApiError::Refused(reason)) => assert!(reason.contains("IMAGE_PROCESS_FAILED"), "{reason}"),
        other => panic!("{other:?}"),
    }
    assert!(emulator.sent().is_empty());
    emulator.assert_contract();
}

#[tokio::test]
async fn a_press_comes_back_as_a_button_press_and_is_answered_once() {
    let (emulator, bots) = bot();
    let menu = BotMessage::text(12, "Language?").with_buttons(vec![Button::press("Русский", "lang:ru")]);
    bots.send_message(TOKEN, &menu).await.unwrap();
    let message_id = emulator.sent_messages(TOKEN)[0].message_id;
    assert_eq!(emulator.press_button(TOKEN, 12, "Рус", Some("ru")), "lang:ru");
    let updates = bots.updates(TOKEN, 0, Duration::from_secs(1)).await.unwrap();
    let [update] = &updates[..] else { panic!("{updates:?}") };
    assert_eq!(update.message, None);
    let press = update.press.clone().unwrap();
    assert_eq!(
        ButtonPress { id: String::new(), ..press.clone() },
        ButtonPress {
            id: String::new(),
            chat_id: 12,
            user_id: 12,
            message_id,
            language: Some("ru".into()),
            data: "lang:ru".into(),
        }
    );
    assert_eq!(emulator.unanswered_presses(), 1);
    bots.answer_press(TOKEN, &press.id, Some("Язык: русский")).await.unwrap();
    assert_eq!(emulator.press_answers(), [(press.id.clone(), Some("Язык: русский".to_owned()))]);
    assert_eq!(emulator.unanswered_presses(), 0);
    assert!(
        matches!(bots.answer_press(TOKEN, &press.id, None).await, Err(BotApiError::Refused(_))),
        "a press is answered once"
    );
    emulator.assert_contract();
}

#[tokio::test]
async fn with_a_webhook_set_a_press_is_posted_to_it() {
    let (emulator, bots) = bot();
    let posted = Arc::new(Mutex::new(vec![]));
    let seen = posted.clone();
    let service = HttpServer::start(move |req| {
        let secret = req.header("x-telegram-bot-api-secret-token").unwrap_or_default().to_owned();
        seen.lock().unwrap().push((req.path.clone(), secret, req.json()));
        Reply::text(200, "ok")
    });
    emulator.deliver_to(&service.url());
    bots.set_webhook(TOKEN, "https://vpn.example/telegram/123456789/updates", "s3cret").await.unwrap();
    let menu = BotMessage::text(12, "Language?").with_buttons(vec![Button::press("English", "lang:en")]);
    bots.send_message(TOKEN, &menu).await.unwrap();
    let message_id = emulator.sent_messages(TOKEN)[0].message_id;
    let (update, status) = emulator.press(TOKEN, 12, message_id, "lang:en", None);
    assert_eq!(status, Some(200));
    let posted = posted.lock().unwrap().clone();
    let [(path, secret, body)] = &posted[..] else { panic!("{posted:?}") };
    assert_eq!(
        (path.as_str(), secret.as_str(), body.as_ref()),
        ("/telegram/123456789/updates", "s3cret", Some(&update))
    );
    assert_eq!(update["callback_query"]["message"]["message_id"], message_id);
    emulator.assert_contract();
}

#[tokio::test]
#[should_panic(expected = "no button with callback data")]
async fn a_test_cannot_press_a_button_the_bot_never_showed() {
    let (emulator, bots) = bot();
    bots.send_message(TOKEN, &BotMessage::text(12, "Hello")).await.unwrap();
    let message_id = emulator.sent_messages(TOKEN)[0].message_id;
    emulator.press(TOKEN, 12, message_id, "lang:ru", None);
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
