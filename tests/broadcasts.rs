//! Broadcasts through the real binary and the Bot API emulator (docs/decisions.md,
//! "Broadcasts"): the operator sends a text to an audience of the account's bot customers; each
//! chat gets it once, in its language, with the button; a chat that blocked the bot is counted
//! and unlinked; pause, resume and cancel hold; a process killed while a message is in flight
//! sends no chat a second copy.

use crate::support;

use std::time::{Duration, Instant};

use serde_json::Value;
use support::chat::{PARTNER_TOKEN, PLATFORM_TOKEN, Person, shop, shop_with};
use support::server::{Backend, Server};
use vp_testkit::telegram::TelegramEmulator;

each_backend!(
    a_broadcast_reaches_each_chat_once_in_its_language_and_a_blocked_chat_is_counted_and_unlinked,
    a_broadcast_killed_mid_way_goes_on_after_the_restart_and_no_chat_gets_it_twice,
    the_cabinet_previews_a_broadcast_in_the_partners_chat_then_sends_it_and_pause_holds_it_until_resumed,
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

    // The chat known to refuse the bot is left out of later broadcasts, not counted again.
    let sent = send(&s, "all");
    assert_eq!(sent["state"], "sending", "{sent}");
    let id = sent["id"].as_str().unwrap().to_owned();
    let done = until_state(&s, &id, "done");
    assert_eq!(
        (&done["sent"], &done["blocked"], &done["failed"], &done["left"]),
        (&Value::from(5), &Value::from(0), &Value::from(0), &Value::from(0)),
        "{done}"
    );
    for user in &people[..5] {
        assert_eq!(copies(&telegram, *user), 1, "chat {user} once");
    }
    let english = telegram.last_sent_to(PARTNER_TOKEN, 700_001, TEXT_EN).expect("English text in the English chat");
    assert_eq!(english.buttons()[0].url.as_deref(), Some("https://example.com/sale"));
    assert!(telegram.last_sent_to(PARTNER_TOKEN, 700_002, TEXT_RU).is_some(), "Russian text in a Russian chat");
    assert_eq!(copies(&telegram, 700_006), 0);
    // Once the person writes to the bot again, broadcasts reach them.
    telegram.unblock_chat(700_006);
    blocker.write("/start", "Добро пожаловать в Demo VPN!");
    let again = send(&s, "trial");
    let done = until_state(&s, again["id"].as_str().unwrap(), "done");
    assert_eq!((&done["sent"], &done["blocked"]), (&Value::from(1), &Value::from(0)), "{done}");
    assert_eq!(copies(&telegram, 700_006), 1);

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
    // The killed process's broadcast lease (30 s) runs out on the service's clock, not the wall's.
    s.cli(&["clock", "advance", "31s"]);
    let done = until_state(&s, &id, "done");
    assert_eq!((&done["sent"], &done["left"]), (&Value::from(40), &Value::from(0)), "{done}");
    for user in &people {
        assert_eq!(copies(&telegram, *user), 1, "chat {user} exactly once");
    }
    telegram.assert_contract();
}

/// Links `chat_id` to the account's notices through the cabinet's deep link to the platform bot.
fn link_partner_chat(telegram: &TelegramEmulator, cabinet: &mut support::visitor::Visitor, chat_id: i64) {
    let page = cabinet.submit("/cabinet/notices", "/cabinet/notices/telegram", &[]).text();
    let code = page.split("https://t.me/platform_bot?start=").nth(1).expect("the deep link").split('"').next().unwrap();
    telegram.press_start(chat_id, code);
    let deadline = Instant::now() + Duration::from_secs(60);
    while !cabinet.get("/cabinet/notices").text().contains(&format!("<code>{chat_id}</code>")) {
        assert!(Instant::now() < deadline, "chat {chat_id} is not linked");
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn the_cabinet_previews_a_broadcast_in_the_partners_chat_then_sends_it_and_pause_holds_it_until_resumed(
    backend: Backend,
) {
    let platform = [("VP_TELEGRAM_BOT_TOKEN", PLATFORM_TOKEN)];
    let Some((telegram, s)) = shop_with(backend, "broadcast_cabinet", &platform) else { return };
    let people: Vec<i64> = (720_001..=720_020).collect();
    for user in &people {
        Person::new(&telegram, *user).write("/start", "Добро пожаловать в Demo VPN!");
    }
    let mut cabinet = support::visitor::cabinet_member(&s, &s.account_id, "partner@example.com");
    // The partner's own chat has started their bot; a colleague's chat refuses it.
    Person::new(&telegram, 424_242).write("/start", "Добро пожаловать в Demo VPN!");
    link_partner_chat(&telegram, &mut cabinet, 424_242);
    link_partner_chat(&telegram, &mut cabinet, 424_243);
    telegram.block_chat(424_243);
    let page = cabinet.get("/cabinet/broadcasts").text();
    assert!(page.contains("No broadcasts yet.") && page.contains("Everyone who started your bot"), "{page}");

    let fields = [
        ("text", TEXT_EN),
        ("text_ru", TEXT_RU),
        ("button_text", "Купить"),
        ("button_url", "https://example.com/sale"),
        ("audience", "all"),
    ];
    let mut empty = fields;
    empty[0].1 = " ";
    let refused = cabinet.submit("/cabinet/broadcasts", "/cabinet/broadcasts/preview", &empty);
    assert_eq!(refused.status, 422);
    assert!(refused.text().contains("The text is empty."), "{}", refused.text());
    let mut half = fields;
    half[3].1 = "";
    let refused = cabinet.submit("/cabinet/broadcasts", "/cabinet/broadcasts/preview", &half);
    assert!(refused.status == 422 && refused.text().contains("A button needs both a label and a link."));

    let preview = cabinet.submit("/cabinet/broadcasts", "/cabinet/broadcasts/preview", &fields);
    assert_eq!(preview.status, 200);
    let page = preview.text();
    assert!(page.contains("Your bot sent the preview to your linked chat."), "{page}");
    assert!(page.contains("could not write to chat 424243: open @demo_vpn_bot there"), "{page}");
    assert!(page.contains("It will go to 21 customers (Everyone who started your bot)."), "{page}");
    // Both texts, with the button, through the partner's bot to the partner's chat, and to
    // no customer yet; nothing is recorded.
    for text in [TEXT_EN, TEXT_RU] {
        let shown = telegram.last_sent_to(PARTNER_TOKEN, 424_242, text).expect("the preview in the partner's chat");
        assert_eq!(shown.buttons()[0].url.as_deref(), Some("https://example.com/sale"));
    }
    assert!(people.iter().all(|p| copies(&telegram, *p) == 0));
    assert_eq!(s.cli(&["broadcast", "list", &s.account_id]).as_array().map(Vec::len), Some(0));

    // Sent from the preview's button; paused while a message is in flight, nothing more goes.
    telegram.hold_sends();
    let sent = cabinet.submit("/cabinet/broadcasts", "/cabinet/broadcasts", &fields);
    assert_eq!(sent.status, 303, "{}", sent.text());
    let id = sent.header("location").unwrap().rsplit('=').next().unwrap().to_owned();
    assert!(telegram.wait_for_held_sends(Duration::from_secs(60)) >= 1, "a message is in flight");
    let paused = cabinet.submit("/cabinet/broadcasts", &format!("/cabinet/broadcasts/{id}/pause"), &[]);
    assert_eq!(paused.status, 303);
    telegram.release_sends();
    let held = until_state(&s, &id, "paused");
    std::thread::sleep(Duration::from_secs(2));
    let after = s.cli(&["broadcast", "show", &id]);
    assert_eq!(after["sent"], held["sent"], "a paused broadcast sends nothing more: {after}");
    let (sent_so_far, left) = (after["sent"].as_u64().unwrap(), after["left"].as_u64().unwrap());
    assert!(sent_so_far < 21 && sent_so_far + left == 21, "{after}");
    let page = cabinet.get("/cabinet/broadcasts").text();
    assert!(page.contains("paused") && page.contains(&format!("/cabinet/broadcasts/{id}/resume")), "{page}");

    let resumed = cabinet.submit("/cabinet/broadcasts", &format!("/cabinet/broadcasts/{id}/resume"), &[]);
    assert_eq!(resumed.status, 303);
    let done = until_state(&s, &id, "done");
    assert_eq!((&done["sent"], &done["left"]), (&Value::from(21), &Value::from(0)), "{done}");
    for user in &people {
        assert_eq!(copies(&telegram, *user), 1, "chat {user} exactly once");
    }
    let overview = cabinet.get("/cabinet").text();
    assert!(overview.contains("Last broadcast (done): sent 21, blocked 0, failed 0, left 0."), "{overview}");
    let activity = cabinet.get("/cabinet/activity").text();
    for what in ["Broadcast sent", "Broadcast paused", "Broadcast resumed"] {
        assert!(activity.contains(what), "{what} in the activity: {activity}");
    }
    let cancel = cabinet.submit("/cabinet/broadcasts", &format!("/cabinet/broadcasts/{id}/cancel"), &[]);
    assert!(cancel.status == 422 && cancel.text().contains("The broadcast is done and cannot be changed."));
    let other = cabinet.submit("/cabinet/broadcasts", "/cabinet/broadcasts/bcs_nothing/pause", &[]);
    assert_eq!(other.status, 404);
    telegram.assert_contract();
}
