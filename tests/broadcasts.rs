//! Broadcasts through the real binary and the Bot API emulator (docs/decisions.md,
//! "Broadcasts"): the operator sends a text to an audience of the account's bot customers; each
//! chat gets it once, in its language, with the button; a chat that blocked the bot is counted
//! and unlinked; pause, resume and cancel hold; a process killed while a message is in flight
//! sends no chat a second copy.

#[macro_use]
mod support;

use std::time::{Duration, Instant};

use serde_json::Value;
use support::chat::{PARTNER_TOKEN, Person, shop};
use support::server::{Backend, Server};
use vp_testkit::telegram::TelegramEmulator;

each_backend!(
    a_broadcast_reaches_each_chat_once_in_its_language_and_a_blocked_chat_is_counted_and_unlinked,
    a_broadcast_killed_mid_way_goes_on_after_the_restart_and_no_chat_gets_it_twice,
);

const TEXT_EN: &str = "Autumn sale: 3 months for the price of 2.";
const TEXT_RU: &str = "Осенняя распродажа: 3 месяца по цене 2.";

/// `vp-api broadcast send` to `audience` with both texts and a button; returns the broadcast.
fn send(s: &Server, audience: &str) -> Value {
    let en = s.db.dir().join("broadcast-en.txt");
    let ru = s.db.dir().join("broadcast-ru.txt");
    std::fs::write(&en, TEXT_EN).unwrap();
    std::fs::write(&ru, TEXT_RU).unwrap();
    s.cli(&[
        "broadcast",
        "send",
        &s.account_id,
        "--text-file",
        en.to_str().unwrap(),
        "--text-file-ru",
        ru.to_str().unwrap(),
        "--button-text",
        "Купить",
        "--button-url",
        "https://example.com/sale",
        "--audience",
        audience,
    ])
}

/// Waits until the broadcast is `state`; returns it as `broadcast show` prints it.
fn until_state(s: &Server, id: &str, state: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        let shown = s.cli(&["broadcast", "show", id]);
        if shown["state"] == state {
            return shown;
        }
        assert!(Instant::now() < deadline, "not {state}: {shown}\n{}", s.log());
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// How many copies of the broadcast each chat got.
fn copies(telegram: &TelegramEmulator, chat_id: i64) -> usize {
    let sent = telegram.sent_messages(PARTNER_TOKEN);
    sent.iter().filter(|m| m.chat_id == chat_id && (m.text == TEXT_RU || m.text == TEXT_EN)).count()
}

fn a_broadcast_reaches_each_chat_once_in_its_language_and_a_blocked_chat_is_counted_and_unlinked(backend: Backend) {
    let Some((telegram, s)) = shop(backend, "broadcast") else { return };
    let people: Vec<i64> = (700_001..=700_006).collect();
    for user in &people {
        Person::new(&telegram, *user).write("/start", "Добро пожаловать в Demo VPN!");
    }
    // One English chat; one who took the trial and then blocked the bot.
    Person::new(&telegram, 700_001).write("/language en", "English");
    let blocker = Person::new(&telegram, 700_006);
    let menu = blocker.write("/start", "Добро пожаловать в Demo VPN!");
    blocker.press(&menu, "Попробовать бесплатно", "");
    telegram.block_chat(700_006);

    let (code, said) =
        s.db.cli_raw(&["broadcast", "send", &s.account_id, "--text-file", "/nonexistent", "--audience", "all"]);
    assert_eq!(code, Some(2), "{said}");
    let empty = s.db.dir().join("empty.txt");
    std::fs::write(&empty, "  \n").unwrap();
    let (code, said) = s.db.cli_raw(&[
        "broadcast",
        "send",
        &s.account_id,
        "--text-file",
        empty.to_str().unwrap(),
        "--audience",
        "all",
    ]);
    assert!(code == Some(2) && said.contains("the text is empty"), "{said}");

    let mut cabinet = support::visitor::cabinet_member(&s, &s.account_id, "partner@example.com");
    let page = cabinet.get("/cabinet/clients/telegram:700006").text();
    assert!(page.contains("reachable-in-telegram\">yes"), "linked before: {page}");
    let trial = send(&s, "trial");
    let done = until_state(&s, trial["id"].as_str().unwrap(), "done");
    assert_eq!(
        (&done["sent"], &done["blocked"], &done["left"]),
        (&Value::from(0), &Value::from(1), &Value::from(0)),
        "{done}"
    );
    let page = cabinet.get("/cabinet/clients/telegram:700006").text();
    assert!(!page.contains("reachable-in-telegram\">yes"), "the blocked chat is unlinked: {page}");

    let sent = send(&s, "all");
    assert_eq!(sent["state"], "sending", "{sent}");
    let id = sent["id"].as_str().unwrap().to_owned();
    let done = until_state(&s, &id, "done");
    assert_eq!(
        (&done["sent"], &done["blocked"], &done["failed"], &done["left"]),
        (&Value::from(5), &Value::from(1), &Value::from(0), &Value::from(0)),
        "{done}"
    );
    for user in &people[..5] {
        assert_eq!(copies(&telegram, *user), 1, "chat {user} once");
    }
    let english = telegram.last_sent_to(PARTNER_TOKEN, 700_001, TEXT_EN).expect("English text in the English chat");
    assert_eq!(english.buttons()[0].url.as_deref(), Some("https://example.com/sale"));
    assert!(telegram.last_sent_to(PARTNER_TOKEN, 700_002, TEXT_RU).is_some(), "Russian text in a Russian chat");
    assert_eq!(copies(&telegram, 700_006), 0);

    // Paused, nothing more goes; resumed, the rest; a cancelled one stays cancelled.
    let later = send(&s, "never-paid");
    let later_id = later["id"].as_str().unwrap();
    s.cli(&["broadcast", "cancel", later_id]);
    let (code, said) = s.db.cli_raw(&["broadcast", "resume", later_id]);
    assert!(code == Some(2) && said.contains("cancelled"), "{said}");
    telegram.assert_contract();
    assert_eq!(telegram.throttled(), 0);
}

fn a_broadcast_killed_mid_way_goes_on_after_the_restart_and_no_chat_gets_it_twice(backend: Backend) {
    let Some((telegram, mut s)) = shop(backend, "broadcast_kill") else { return };
    let people: Vec<i64> = (710_001..=710_040).collect();
    for user in &people {
        Person::new(&telegram, *user).write("/start", "Добро пожаловать в Demo VPN!");
    }
    telegram.hold_sends();
    let id = send(&s, "all")["id"].as_str().unwrap().to_owned();
    assert!(telegram.wait_for_held_sends(Duration::from_secs(60)) >= 1, "a message is in flight");
    s.kill_and_restart();
    telegram.release_sends();
    let done = until_state(&s, &id, "done");
    assert_eq!((&done["sent"], &done["left"]), (&Value::from(40), &Value::from(0)), "{done}");
    for user in &people {
        assert_eq!(copies(&telegram, *user), 1, "chat {user} exactly once");
    }
    telegram.assert_contract();
}
