//! A partner's own bot created through the platform's bot (Telegram's managed bots), through
//! the real binary and the Bot API emulator: one link, one button, and the bot carries the
//! brand with no token copied; its token replaced without a lost update or a false
//! disconnection; and every refusal changing nothing.

use crate::support;

use std::time::Duration;

use support::chat::{PARTNER_TOKEN, PLATFORM_TOKEN, Person, url_of};
use support::server::{Backend, Server};
use support::wait_for;
use vp_testkit::telegram::{BOTS_PER_USER, TelegramEmulator};

/// The partner's private chat with the platform's bot.
const PARTNER_CHAT: i64 = 4242;

each_backend!(
    a_partner_gets_a_bot_carrying_the_brand_from_one_link_with_no_token_to_copy,
    a_managed_bots_token_is_replaced_without_losing_an_update_or_disconnecting_it,
    refusals_leave_the_account_as_it_was_and_say_why,
    on_https_the_new_bot_is_told_by_webhook_and_gets_its_own,
);

/// Telegram with the platform's bot in Bot Management Mode, and a bot made in BotFather.
fn telegram() -> TelegramEmulator {
    let telegram = support::chat::telegram();
    telegram.set_can_manage_bots(PLATFORM_TOKEN, true);
    telegram
}

fn server(backend: Backend, telegram: &TelegramEmulator, name: &str) -> Option<Server> {
    let api_url = telegram.url();
    let env = [
        ("VP_TELEGRAM_BOT_TOKEN", PLATFORM_TOKEN),
        ("VP_TELEGRAM_API_URL", api_url.as_str()),
        ("VP_SHIFTED_CLOCK", "on"),
    ];
    Server::start_with(backend, name, &env)
}

/// `vp-api bot create-link` for the demo account: the code in its deep link.
fn create_link(s: &Server, lang: &str) -> String {
    let link = s.cli(&["bot", "create-link", &s.account_id, "--lang", lang]);
    let url = link["url"].as_str().expect("a link");
    let code = url.strip_prefix("https://t.me/platform_bot?start=").expect("the platform bot's deep link");
    assert!(code.starts_with("bot_") && code.len() <= 64, "a start parameter Telegram takes: {code}");
    code.to_owned()
}

/// The partner opens a fresh link and creates the bot with its suggestions; the bot's token
/// and username once the platform's bot says it is connected.
fn create_bot(s: &Server, telegram: &TelegramEmulator, partner: &Person) -> (String, String) {
    let code = create_link(s, "ru");
    let offer = partner.write(&format!("/start {code}"), "Создадим Telegram-бота Demo VPN");
    let request = offer.buttons()[0].request_managed_bot.clone().expect("the button creates a managed bot");
    let username = request["suggested_username"].as_str().unwrap().to_owned();
    partner.did("[Создать моего бота]: creates the bot, keeping Telegram's suggestions");
    let seen = partner.messages().len();
    let token = telegram.create_managed_bot(PARTNER_CHAT, None, Some("ru")).expect("Telegram creates the bot");
    partner.next_with(seen, "теперь бот Demo VPN");
    (token, username)
}

fn a_partner_gets_a_bot_carrying_the_brand_from_one_link_with_no_token_to_copy(backend: Backend) {
    let telegram = telegram();
    let Some(s) = server(backend, &telegram, "managed_bot") else { return };
    // The link is asked for in Russian; the partner's Telegram app is in English: the platform's
    // bot speaks the language of the link.
    let code = create_link(&s, "ru");
    let partner = Person::with_bot(&telegram, PARTNER_CHAT, PLATFORM_TOKEN);
    let offer = partner.write(&format!("/start {code}"), "Создадим Telegram-бота Demo VPN");
    let buttons = offer.buttons();
    assert_eq!(buttons.len(), 1, "{offer:#?}");
    assert_eq!(buttons[0].text, "Создать моего бота");
    let request = buttons[0].request_managed_bot.clone().expect("a button that creates a managed bot");
    assert_eq!(request["suggested_name"], "Demo VPN");
    let username = request["suggested_username"].as_str().unwrap().to_owned();
    assert!(username.starts_with("demovpn_") && username.ends_with("_bot") && username.len() == 16, "{username}");
    assert!(request["request_id"].as_i64().is_some_and(|id| id > 0 && id <= i64::from(i32::MAX)), "{request}");

    partner.did("[Создать моего бота]: creates the bot, keeping Telegram's suggestions");
    let seen = partner.messages().len();
    let token = telegram.create_managed_bot(PARTNER_CHAT, None, Some("en")).expect("Telegram creates the bot");
    let done = partner.next_with(seen, "теперь бот Demo VPN");
    assert!(done.text.starts_with(&format!("Готово: @{username} теперь бот Demo VPN.")), "{done:#?}");
    assert_eq!(url_of(&done, "Открыть"), format!("https://t.me/{username}"));

    // Connected as a pasted token is: the account's one bot, its token kept sealed, the brand
    // on its profile, and customers answered by it.
    let shown = s.cli(&["bot", "show", &s.account_id]);
    assert_eq!(shown["username"], username.as_str(), "{shown}");
    assert_eq!((&shown["status"], &shown["managed"]), (&"connected".into(), &true.into()), "{shown}");
    assert!(!shown.to_string().contains(&token[token.find(':').unwrap() + 1..]), "the token is never shown");
    // The menu button is the profile's last step.
    let synced = wait_for(Duration::from_secs(60), || telegram.profile(&token).filter(|p| p.menu_button.is_some()));
    let profile = synced.expect("the bot's profile synced");
    assert_eq!(profile.name, "Demo VPN");
    assert!(profile.commands.iter().any(|(_, c)| c.contains(&"start".to_owned())), "{profile:?}");
    let customer = Person::with_bot(&telegram, 777, &token);
    customer.write("/start", "Добро пожаловать в Demo VPN!");

    // Telegram told twice (the update and the message): the partner heard once; the link is
    // used up.
    std::thread::sleep(Duration::from_secs(1));
    let told = partner.messages().iter().filter(|m| m.text.contains("теперь бот")).count();
    assert_eq!(told, 1, "{:#?}", partner.messages());
    partner.write(&format!("/start {code}"), "Ссылка устарела или уже использована");
    partner.save_transcript(&format!("telegram-managed-bot-created-{backend:?}").to_lowercase());
    telegram.assert_contract();
}

fn a_managed_bots_token_is_replaced_without_losing_an_update_or_disconnecting_it(backend: Backend) {
    let telegram = telegram();
    let Some(s) = server(backend, &telegram, "managed_bot_rotate") else { return };
    let partner = Person::with_bot(&telegram, PARTNER_CHAT, PLATFORM_TOKEN);
    let (old, username) = create_bot(&s, &telegram, &partner);
    Person::with_bot(&telegram, 777, &old).write("/start", "Добро пожаловать в Demo VPN!");

    // A customer writes just as the token is replaced: the update waits at Telegram for the bot
    // (no poll takes it meanwhile) and is answered under the new token.
    telegram.hold_updates();
    telegram.write_to(&old, 777, "/help", Some("ru"));
    let rotated = s.cli(&["bot", "rotate-token", &s.account_id]);
    assert_eq!((&rotated["status"], &rotated["managed"]), (&"connected".into(), &true.into()), "{rotated}");
    let new = telegram.token_of(&username).expect("the bot");
    assert_ne!(new, old, "Telegram gave a new token");
    telegram.release_updates();
    let answered = wait_for(Duration::from_secs(60), || {
        telegram.sent_messages(&new).into_iter().find(|m| m.chat_id == 777).map(|_| ())
    });
    assert!(answered.is_some(), "the waiting update is answered with the new token");
    Person::with_bot(&telegram, 778, &new).write("/start", "Добро пожаловать в Demo VPN!");

    // The owner replaces the token in BotFather: the platform asks for the new one.
    telegram.owner_replaces_token(&username);
    let newer = telegram.token_of(&username).expect("the bot");
    assert_ne!(newer, new);
    Person::with_bot(&telegram, 779, &newer).write("/start", "Добро пожаловать в Demo VPN!");

    // Telegram replaces the token but its answer is lost: the operator is told it failed, and
    // the service, refused with the old token, asks for the current one instead of taking the
    // bot for revoked.
    telegram.lose_next_answer("replaceManagedBotToken");
    let (code, said) = s.cli_raw(&["bot", "rotate-token", &s.account_id]);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("Telegram did not replace the token"), "{said}");
    let newest = telegram.token_of(&username).expect("the bot");
    assert_ne!(newest, newer, "replaced at Telegram all the same");
    Person::with_bot(&telegram, 780, &newest).write("/start", "Добро пожаловать в Demo VPN!");
    let shown = s.cli(&["bot", "show", &s.account_id]);
    // Never taken for revoked: a disconnected bot stays so until a new token comes.
    assert_eq!((&shown["status"], &shown["disconnected_at"]), (&"connected".into(), &serde_json::Value::Null));

    // A bot connected with a pasted token: only BotFather replaces its token.
    s.cli(&["bot", "disconnect", &s.account_id]);
    s.connect_bot(&s.account_id, PARTNER_TOKEN);
    let (code, said) = s.cli_raw(&["bot", "rotate-token", &s.account_id]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("/revoke") && said.contains("@BotFather"), "{said}");
    telegram.assert_contract();
}

fn refusals_leave_the_account_as_it_was_and_say_why(backend: Backend) {
    let telegram = telegram();
    let Some(s) = server(backend, &telegram, "managed_bot_refusals") else { return };
    let no_bot = || s.cli(&["bot", "show", &s.account_id]).is_null();

    // Without Bot Management Mode no link is made; the operator is told what to switch on.
    telegram.set_can_manage_bots(PLATFORM_TOKEN, false);
    let (code, said) = s.cli_raw(&["bot", "create-link", &s.account_id]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("Bot Management Mode") && said.contains("@platform_bot"), "{said}");
    telegram.set_can_manage_bots(PLATFORM_TOKEN, true);

    // The link is the first opener's: someone else gets no button.
    let code = create_link(&s, "ru");
    let partner = Person::with_bot(&telegram, PARTNER_CHAT, PLATFORM_TOKEN);
    partner.write(&format!("/start {code}"), "Создадим Telegram-бота Demo VPN");
    let stranger = Person::with_bot(&telegram, 5151, PLATFORM_TOKEN);
    let refused = stranger.write(&format!("/start {code}"), "первым открыл другой человек");
    assert!(refused.buttons().is_empty(), "{refused:#?}");
    stranger.write("/start bot_no-such-code", "Ссылка устарела или уже использована");

    // A person at Telegram's limit of bots creates nothing; the link still waits for them.
    telegram.set_bots_owned(PARTNER_CHAT, BOTS_PER_USER);
    let limit = telegram.create_managed_bot(PARTNER_CHAT, None, Some("ru"));
    assert!(limit.is_err_and(|why| why.contains("bots already")));
    telegram.set_bots_owned(PARTNER_CHAT, 0);
    std::thread::sleep(Duration::from_secs(1));
    assert!(no_bot());

    // A day later the link has expired: the bot Telegram created is not connected.
    s.cli_settled(&["clock", "advance", "25h"]);
    let seen = partner.messages().len();
    partner.did("[Создать моего бота] a day later");
    telegram.create_managed_bot(PARTNER_CHAT, Some("late_demo_bot"), Some("ru")).expect("created at Telegram");
    partner.next_with(seen, "не подключён ни к одному аккаунту");
    assert!(no_bot());

    // A bot connected meanwhile by a pasted token: a second one is refused.
    let code = create_link(&s, "ru");
    partner.write(&format!("/start {code}"), "Создадим Telegram-бота Demo VPN");
    s.connect_bot(&s.account_id, PARTNER_TOKEN);
    let seen = partner.messages().len();
    partner.did("[Создать моего бота] after a bot was connected by its token");
    telegram.create_managed_bot(PARTNER_CHAT, Some("second_demo_bot"), Some("ru")).expect("created at Telegram");
    partner.next_with(seen, "уже есть бот @demo_vpn_bot");
    let shown = s.cli(&["bot", "show", &s.account_id]);
    assert_eq!((&shown["username"], &shown["managed"]), (&"demo_vpn_bot".into(), &false.into()), "{shown}");
    let (code, said) = s.cli_raw(&["bot", "create-link", &s.account_id]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("already has the bot @demo_vpn_bot"), "{said}");
    partner.save_transcript(&format!("telegram-managed-bot-refusals-{backend:?}").to_lowercase());
    telegram.assert_contract();
}

fn on_https_the_new_bot_is_told_by_webhook_and_gets_its_own(backend: Backend) {
    let telegram = telegram();
    let Some(s) = support::chat::https_server(backend, "managed_bot_webhook", &telegram) else { return };
    s.cli(&["jobs"]);
    assert!(telegram.webhook(PLATFORM_TOKEN).is_some(), "the platform's bot's updates come by webhook");
    telegram.deliver_to(&s.base);
    let code = create_link(&s, "en");
    let partner = Person::with_bot(&telegram, PARTNER_CHAT, PLATFORM_TOKEN);
    partner.write(&format!("/start {code}"), "Let's create the Telegram bot of Demo VPN.");
    let seen = partner.messages().len();
    // Posted to the webhook: the `managed_bot` update, then the `managed_bot_created` message.
    let token = telegram.create_managed_bot(PARTNER_CHAT, None, Some("en")).expect("Telegram creates the bot");
    let done = partner.next_with(seen, "is now the bot of Demo VPN");
    assert!(done.text.starts_with("Done: @demovpn_"), "{done:#?}");
    s.cli(&["jobs"]);
    let bot_id = &token[..token.find(':').unwrap()];
    let (url, _) = telegram.webhook(&token).expect("the new bot's updates come by webhook too");
    assert_eq!(url, format!("https://vpn.example/telegram/{bot_id}/updates"));
    Person::with_bot(&telegram, 777, &token).write("/start", "Добро пожаловать в Demo VPN!");
    assert_eq!(telegram.calls("getUpdates"), 0, "nobody polls");
    telegram.assert_contract();
}
