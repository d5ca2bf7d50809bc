//! The Telegram notifier over real HTTP against the Bot API emulator.

use std::time::Duration;

use vp_ports::{MessengerError, PartnerNotifier};
use vp_telegram::TelegramNotifier;
use vp_testkit::telegram::TelegramEmulator;

const TOKEN: &str = "123456789:AAHtoken_0123456789abcdefghijklmnop";

fn bot() -> (TelegramEmulator, TelegramNotifier) {
    let emulator = TelegramEmulator::start(TOKEN, "platform_bot");
    let notifier = TelegramNotifier::new(&emulator.url(), TOKEN).unwrap();
    (emulator, notifier)
}

#[tokio::test]
async fn a_chat_link_is_the_bots_deep_link_and_get_me_is_asked_once() {
    let (emulator, notifier) = bot();
    assert_eq!(notifier.chat_link("code-1").await.unwrap(), "https://t.me/platform_bot?start=code-1");
    assert_eq!(notifier.chat_link("code-2").await.unwrap(), "https://t.me/platform_bot?start=code-2");
    assert_eq!(emulator.calls("getMe"), 1);
}

#[tokio::test]
async fn a_message_reaches_its_chat_as_plain_text() {
    let (emulator, notifier) = bot();
    notifier.send(-1001, "Withdrawal wd_1 of 1,00 ₽ <paid>").await.unwrap();
    assert_eq!(emulator.sent(), [(-1001, "Withdrawal wd_1 of 1,00 ₽ <paid>".to_owned())]);
}

#[tokio::test]
async fn too_many_requests_is_worth_retrying_after_the_wait_telegram_asks() {
    let (emulator, notifier) = bot();
    emulator.fail_next_sends(1, 429, Some(7));
    match notifier.send(5, "x").await {
        Err(MessengerError::Unavailable { retry_after, .. }) => assert_eq!(retry_after, Some(Duration::from_secs(7))),
        other => panic!("{other:?}"),
    }
    emulator.fail_next_sends(1, 500, None);
    assert!(matches!(notifier.send(5, "x").await, Err(MessengerError::Unavailable { retry_after: None, .. })));
    notifier.send(5, "x").await.unwrap();
    assert_eq!(emulator.sent().len(), 1, "delivered once the bot answers");
}

#[tokio::test]
async fn a_chat_that_blocked_the_bot_refuses_for_good() {
    let (emulator, notifier) = bot();
    emulator.block_chat(9);
    match notifier.send(9, "x").await {
        Err(MessengerError::Refused(reason)) => assert!(reason.contains("blocked"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_wrong_token_is_unavailable_and_never_shows_the_token() {
    let emulator = TelegramEmulator::start(TOKEN, "platform_bot");
    let wrong = "987654321:AAHwrong_0123456789abcdefghijklmnop";
    let notifier = TelegramNotifier::new(&emulator.url(), wrong).unwrap();
    let e = notifier.send(1, "x").await.unwrap_err();
    assert!(matches!(e, MessengerError::Unavailable { .. }), "{e:?}");
    assert!(!e.to_string().contains("AAHwrong"), "{e}");
    let e = notifier.chat_link("c").await.unwrap_err();
    assert!(!format!("{e:?}").contains("AAHwrong"), "{e:?}");
    // Nothing listens here: the error names the failure, not the URL with the token.
    let gone = TelegramNotifier::new("http://127.0.0.1:9", TOKEN).unwrap();
    let e = gone.send(1, "x").await.unwrap_err();
    assert!(!e.to_string().contains("AAHtoken"), "{e}");
}

#[tokio::test]
async fn start_commands_carry_their_codes_and_the_next_offset_confirms_every_update() {
    let (emulator, notifier) = bot();
    emulator.press_start(11, "code-a");
    emulator.queue_text(12, "hello");
    emulator.queue_text(13, "/start@platform_bot code-b");
    emulator.queue_text(14, "/start");
    let batch = notifier.chat_starts(0, Duration::from_secs(1)).await.unwrap();
    let starts: Vec<(i64, &str)> = batch.starts.iter().map(|s| (s.chat_id, s.code.as_str())).collect();
    assert_eq!(starts, [(11, "code-a"), (13, "code-b")]);
    let again = notifier.chat_starts(batch.next_offset, Duration::ZERO).await.unwrap();
    assert!(again.starts.is_empty(), "confirmed updates are not read again");
    assert_eq!(again.next_offset, batch.next_offset);
}

#[tokio::test]
async fn a_poll_without_updates_waits_and_keeps_its_offset() {
    let (emulator, notifier) = bot();
    let started = std::time::Instant::now();
    let batch = notifier.chat_starts(42, Duration::from_secs(1)).await.unwrap();
    assert!(started.elapsed() >= Duration::from_millis(900), "long polling waits for updates");
    assert_eq!((batch.starts.len(), batch.next_offset), (0, 42));
    assert_eq!(emulator.calls("getUpdates"), 1);
}
