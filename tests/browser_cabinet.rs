//! The partner cabinet's main journey in a real headless Chromium at a phone's size (390x844):
//! accept an invitation and set a password, land on the overview, add an address pointing at a
//! loopback receiver, press the test button and see the code and time, rotate the secret, and
//! switch to Russian; and sign in, see a failed delivery in the log and replay it, request a
//! withdrawal and see the balance held. Every page must fit the phone (the document is as wide as the viewport);
//! each step's screenshot goes to `tests/screenshots/cabinet-*.png` for a person to look at.

use crate::support;

use serde_json::json;
use support::browser::{Browser, PHONE, fill, fits_the_phone, press, text, wait_until};
use support::receiver::Receiver;
use support::server::{Backend, Server};
use support::wait_for;

/// At a phone's width a list table reads as one card per row: no header row, every cell within
/// the screen and nothing cut off inside it.
fn reads_as_cards(browser: &Browser, what: &str) {
    let shape = browser.eval(
        "const t = document.querySelector('table.cards'); if (!t) return null; \
         const cells = [...t.querySelectorAll('td')]; \
         const off = cells.filter(td => td.getBoundingClientRect().right > window.innerWidth \
             || td.scrollWidth > td.clientWidth + 1).length; \
         return [getComputedStyle(t.querySelector('thead')).display, cells.length > 0, off];",
        json!([]),
    );
    assert_eq!(shape, json!(["none", true, 0]), "{what}: [header shown, cells, cells cut off]");
}

/// Opens a welcome link, chooses the password and lands on the overview.
fn set_password(browser: &Browser, base: &str, welcome_path: &str) {
    browser.goto(&format!("{base}{welcome_path}"));
    fill(browser, &[("password", "a long enough phrase"), ("confirm", "a long enough phrase")]);
    press(browser, welcome_path);
    wait_until(browser, "return location.pathname === '/cabinet';");
}

/// Adds a webhook address for `payment.succeeded` and stays on its page.
fn add_address(browser: &Browser, base: &str, url: &str) {
    browser.goto(&format!("{base}/cabinet/webhooks"));
    fill(browser, &[("url", url)]);
    browser.eval("document.querySelector('input[value=\"payment.succeeded\"]').checked = true;", json!([]));
    press(browser, "/cabinet/webhooks");
}

#[test]
fn a_partner_gets_in_adds_an_address_tests_it_and_rotates_its_secret_on_a_phone() {
    let env = [("VP_WEBHOOK_ALLOW_ADDRESSES", "127.0.0.1")];
    let Some(s) = Server::start_with(Backend::Sqlite, "browser_cabinet", &env) else { return };
    let receiver = Receiver::start();
    let invited = s.cli(&["cabinet", "invite", &s.account_id, "--email", "partner@example.com"]);
    let link = invited["link"].as_str().unwrap();
    let path = &link[link.find("/cabinet/welcome/").unwrap()..];
    let Some(browser) = Browser::start(PHONE) else { return };

    browser.goto(&format!("{}{path}", s.base));
    fits_the_phone(&browser, "welcome");
    browser.screenshot("cabinet-1-welcome");
    set_password(&browser, &s.base, path);
    fits_the_phone(&browser, "overview");
    assert!(text(&browser).contains("Demo VPN"));
    browser.screenshot("cabinet-2-overview");

    add_address(&browser, &s.base, &receiver.url);
    fits_the_phone(&browser, "address page");
    assert!(text(&browser).contains("The address is added."), "{}", text(&browser));

    press(&browser, "/test");
    let shown = text(&browser);
    assert!(shown.contains("Test event sent: response 200"), "the code is shown: {shown}");
    assert!(shown.contains(" ms"), "and the time");
    receiver.next_of("webhook.test", std::time::Duration::from_secs(5));
    fits_the_phone(&browser, "test result");
    browser.screenshot("cabinet-3-tested");

    press(&browser, "/rotate");
    assert!(text(&browser).contains("signed with both the old and the new one"));
    browser.screenshot("cabinet-4-rotated");

    browser.eval("document.querySelector('a[hreflang=\"ru\"]').click();", json!([]));
    wait_until(&browser, "return document.documentElement.lang === 'ru' && document.readyState === 'complete';");
    browser.goto(&format!("{}/cabinet", s.base));
    let russian = text(&browser);
    assert!(russian.contains("Обзор") && russian.contains("Действующие лимиты"), "Russian holds: {russian}");
    fits_the_phone(&browser, "overview in Russian");
    browser.screenshot("cabinet-5-overview-ru");
}

#[test]
fn a_partner_signs_in_replays_a_failed_delivery_and_requests_a_withdrawal_on_a_phone() {
    let env = [("VP_WEBHOOK_ALLOW_ADDRESSES", "127.0.0.1")];
    let Some(s) = Server::start_with(Backend::Sqlite, "browser_cabinet_money", &env) else { return };
    // An address where nothing listens: every attempt fails.
    let dead = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let invited = s.cli(&["cabinet", "invite", &s.account_id, "--email", "money@example.com"]);
    let link = invited["link"].as_str().unwrap();
    let path = &link[link.find("/cabinet/welcome/").unwrap()..];
    let Some(browser) = Browser::start(PHONE) else { return };
    set_password(&browser, &s.base, path);
    press(&browser, "/cabinet/sign-out");

    browser.goto(&format!("{}/cabinet/sign-in", s.base));
    fill(&browser, &[("email", "money@example.com"), ("password", "a long enough phrase")]);
    press(&browser, "/cabinet/sign-in");
    wait_until(&browser, "return location.pathname === '/cabinet';");

    add_address(&browser, &s.base, &format!("http://127.0.0.1:{dead}/hooks"));
    let address = browser.eval("return location.pathname;", json!([])).as_str().unwrap().to_owned();
    support::partner::buy(&s, "browser-money", 1);

    let log = format!("{}{address}/deliveries?failed=1", s.base);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    loop {
        browser.goto(&log);
        if text(&browser).contains("payment.succeeded") {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the failed delivery never showed: {}", text(&browser));
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    fits_the_phone(&browser, "delivery log");
    reads_as_cards(&browser, "delivery log");
    browser.screenshot("cabinet-6-failed-delivery");

    browser.goto(&format!("{}{address}", s.base));
    press(&browser, "/disable");
    press(&browser, "/enable");
    press(&browser, "/replay");
    let replayed = text(&browser);
    assert!(replayed.contains("1 undelivered event of the last 1 day is queued again"), "{replayed}");
    fits_the_phone(&browser, "replayed");
    browser.screenshot("cabinet-7-replayed");

    browser.goto(&format!("{}/cabinet/balance", s.base));
    fill(&browser, &[("amount", "1.00"), ("payout_details", "Card 4000 0000 0000 0002, Ivan Petrov")]);
    press(&browser, "/cabinet/withdrawals");
    let requested = text(&browser);
    assert!(requested.contains("The request is made and its amount is held."), "{requested}");
    fits_the_phone(&browser, "withdrawal request");
    browser.goto(&format!("{}/cabinet/balance", s.base));
    let held = browser.eval("return document.getElementById('held').innerText;", json!([]));
    assert_eq!(held, json!("RUB\u{a0}1.00"), "the requested amount is held at once");
    fits_the_phone(&browser, "balance");
    reads_as_cards(&browser, "ledger");
    browser.screenshot("cabinet-8-balance-held");
    browser.eval("document.querySelector('table.cards').scrollIntoView();", json!([]));
    browser.screenshot("cabinet-9-ledger-cards");

    // A customer of the partner's bot, marked as such in the list: the bot links the person to
    // the client it serves them as (written here as the bot's shop writes it).
    support::partner::buy(&s, "telegram:424242", 1);
    let client_ref = s.db.query_sql("SELECT id FROM clients WHERE client_id = 'telegram:424242'").remove(0);
    s.db.execute_sql(&format!(
        "INSERT INTO bot_customers (account_id, user_id, chat_id, started_at, last_seen_at, client_ref) \
         VALUES ('{}', 424242, 424242, '2026-11-01 10:00:00', '2026-11-01 10:00:00', '{client_ref}')",
        s.account_id
    ));
    browser.goto(&format!("{}/cabinet/clients", s.base));
    fits_the_phone(&browser, "clients");
    reads_as_cards(&browser, "client list");
    let list = text(&browser);
    assert!(list.contains("telegram:424242") && list.contains("bot customer"), "{list}");
    browser.screenshot("cabinet-10-clients");

    browser.goto(&format!("{}/cabinet/bot?lang=ru", s.base));
    fits_the_phone(&browser, "telegram bot");
    assert!(text(&browser).contains("Токен от BotFather"), "{}", text(&browser));
    browser.screenshot("cabinet-11-bot-ru");
}

#[test]
fn a_partner_connects_its_bot_sets_the_renewal_link_and_sees_the_brand_in_telegram_on_a_phone() {
    let telegram = vp_testkit::telegram::TelegramEmulator::start("123456789:AAHplatform_0123456789abcdefghijklm", "p");
    let token = "5550001:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-bs";
    telegram.add_bot(token, 5_550_001, "demo_vpn_bot");
    let api_url = telegram.url();
    let Some(s) = Server::start_with(Backend::Sqlite, "browser_cabinet_bot", &[("VP_TELEGRAM_API_URL", &api_url)])
    else {
        return;
    };
    let invited = s.cli(&["cabinet", "invite", &s.account_id, "--email", "bot@example.com"]);
    let link = invited["link"].as_str().unwrap();
    let path = &link[link.find("/cabinet/welcome/").unwrap()..];
    let Some(browser) = Browser::start(PHONE) else { return };
    set_password(&browser, &s.base, path);

    browser.goto(&format!("{}/cabinet/bot", s.base));
    fits_the_phone(&browser, "bot page");
    browser.screenshot("cabinet-12-bot-empty");
    let field = browser.eval("return document.getElementById('token').type;", json!([]));
    assert_eq!(field, json!("password"), "the token is not shown while it is typed");
    fill(&browser, &[("token", token)]);
    press(&browser, "/cabinet/bot");
    let shown = text(&browser);
    assert!(shown.contains("The bot is connected.") && shown.contains("@demo_vpn_bot"), "{shown}");
    assert!(!browser.eval("return document.body.innerHTML;", json!([])).as_str().unwrap().contains(&token[8..]));
    fits_the_phone(&browser, "bot connected");

    // The periodic jobs show the brand in Telegram; the page says the profile is in step.
    s.cli(&["jobs"]);
    assert_eq!(telegram.profile(token).unwrap().name, "Demo VPN");
    fill(&browser, &[("renewal_url", "https://demo.example/renew")]);
    press(&browser, "/cabinet/bot/renewal");
    let shown = text(&browser);
    assert!(shown.contains("The renewal link is saved.") && shown.contains("up to date with your brand"), "{shown}");
    fits_the_phone(&browser, "renewal link saved");
    browser.screenshot("cabinet-13-bot-connected");

    // A brand change over the partner API reaches the bot's name.
    let renamed = s.api("PATCH", "/account", Some(&json!({"brand_name": "Night Owl VPN"})), &[]);
    assert_eq!(renamed.status, 200, "{}", renamed.text());
    s.cli(&["jobs"]);
    assert_eq!(telegram.profile(token).unwrap().name, "Night Owl VPN");
    telegram.assert_contract();
}

/// Clicks the submit button of the form whose action ends with `action`, and waits until the
/// page says `expect` (the page may come back at the same address, as a refused form does).
fn submit_and_see(browser: &Browser, action: &str, expect: &str) {
    browser.eval(
        "document.querySelector(`form[action$=\"${arguments[0]}\"] button[type=submit]`).click();",
        json!([action]),
    );
    let script = format!("return document.readyState === 'complete' && document.body.innerText.includes({expect:?});");
    wait_until(browser, &script);
}

#[test]
fn a_partner_creates_a_promo_code_sees_it_used_and_turns_it_off_on_a_phone() {
    let Some(s) = Server::start(Backend::Sqlite, "browser_cabinet_promo") else { return };
    let invited = s.cli(&["cabinet", "invite", &s.account_id, "--email", "partner@example.com"]);
    let link = invited["link"].as_str().unwrap();
    let path = &link[link.find("/cabinet/welcome/").unwrap()..];
    let Some(browser) = Browser::start(PHONE) else { return };
    set_password(&browser, &s.base, path);

    browser.goto(&format!("{}/cabinet/promotions?lang=en", s.base));
    assert!(text(&browser).contains("No promo codes yet."), "{}", text(&browser));
    fill(&browser, &[("code", "greedy"), ("value", "17")]);
    submit_and_see(&browser, "/cabinet/promotions", "below the platform's price");
    let refused = text(&browser).replace('\u{a0}', " ");
    assert!(refused.contains("The discount takes plan 1 RUB 0.80 below the platform's price"), "{refused}");
    fits_the_phone(&browser, "refused code");
    browser.screenshot("cabinet-promo-1-refused");

    fill(&browser, &[("code", "spring-10"), ("value", "10"), ("max_uses", "100")]);
    browser.eval("document.querySelector('input[name=plans][value=\"1\"]').checked = true;", json!([]));
    submit_and_see(&browser, "/cabinet/promotions", "Promo code SPRING-10 created.");
    let listed = text(&browser).replace('\u{a0}', " ");
    assert!(listed.contains("SPRING-10 · 10% off"), "{listed}");
    assert!(listed.contains("up to 100 uses; 1 per customer; plans 1 only"), "{listed}");
    assert!(listed.contains("RUB 0.00 given in discounts, 0 waiting for payment; used 0 times."), "{listed}");

    let body = json!({"client_id": "promo-buyer", "purpose": "subscription", "plan_id": 1, "method": "card", "promo_code": "SPRING-10"});
    let inv = s.api("POST", "/payments", Some(&body), &[("idempotency-key", "promo-in-browser")]);
    assert_eq!(inv.status, 201, "{}", inv.text());
    support::partner::pay(&s, inv.json()["payment_id"].as_str().unwrap());
    browser.goto(&format!("{}/cabinet/promotions?lang=en", s.base));
    let used = text(&browser).replace('\u{a0}', " ");
    assert!(used.contains("RUB 23.88 given in discounts, 0 waiting for payment; used once."), "{used}");
    fits_the_phone(&browser, "codes");
    browser.screenshot("cabinet-promo-2-used");

    browser.goto(&format!("{}/cabinet/clients/promo-buyer?lang=en", s.base));
    let client = text(&browser).replace('\u{a0}', " ");
    assert!(client.contains("code SPRING-10: RUB 23.88 off"), "the client's invoice names its code: {client}");
    assert!(client.contains("RUB 214.92") && client.contains("RUB 15.92"), "paid, and the markup after it: {client}");
    fits_the_phone(&browser, "client with a code");
    browser.goto(&format!("{}/cabinet?lang=en", s.base));
    let overview = text(&browser).replace('\u{a0}', " ");
    assert!(overview.contains("RUB 23.88 given in discounts, in one paid order"), "{overview}");
    browser.goto(&format!("{}/cabinet/promotions?lang=en", s.base));
    submit_and_see(&browser, "/cabinet/promotions/disable", "Promo code SPRING-10 turned off.");
    assert!(text(&browser).contains("Turned off."));
    let r = s.api("POST", "/payments", Some(&body), &[("idempotency-key", "promo-after-off")]);
    assert_eq!(r.code(), "PROMO_CODE_EXPIRED", "turned off in the cabinet, refused in the API");
    browser.goto(&format!("{}/cabinet/activity?lang=en", s.base));
    let activity = text(&browser);
    assert!(activity.contains("Promo code created") && activity.contains("Promo code turned off"), "{activity}");
    browser.goto(&format!("{}/cabinet/promotions?lang=ru", s.base));
    fits_the_phone(&browser, "codes in Russian");
    browser.screenshot("cabinet-promo-3-off-ru");

    // The referral program below the codes: a number out of range is said, a good one kept.
    browser.goto(&format!("{}/cabinet/promotions?lang=en#referrals", s.base));
    assert!(text(&browser).contains("Invited: 0. Paid: 0. Days given: 0."), "{}", text(&browser));
    browser.eval("const d = document.querySelector('#days'); d.removeAttribute('max'); d.value = '400';", json!([]));
    submit_and_see(&browser, "/cabinet/promotions/referrals", "a whole number from 0 to 365");
    fill(&browser, &[("days", "7")]);
    submit_and_see(&browser, "/cabinet/promotions/referrals", "Referral days saved.");
    assert_eq!(s.cli(&["account", "referrals", &s.account_id])["days"], json!(7));
    fits_the_phone(&browser, "referral program");
    browser.screenshot("cabinet-promo-4-referrals");
    browser.goto(&format!("{}/cabinet/activity?lang=en", s.base));
    assert!(text(&browser).contains("Referral days set"), "{}", text(&browser));
}

#[test]
fn a_partner_previews_a_broadcast_in_telegram_sends_it_and_watches_it_finish_on_a_phone() {
    use support::chat::{PARTNER_TOKEN, PLATFORM_TOKEN, Person, shop_with};
    let platform = [("VP_TELEGRAM_BOT_TOKEN", PLATFORM_TOKEN)];
    let Some((telegram, s)) = shop_with(Backend::Sqlite, "browser_cabinet_broadcast", &platform) else { return };
    for user in 730_001..=730_012 {
        Person::new(&telegram, user).write("/start", "Добро пожаловать в Demo VPN!");
    }
    let invited = s.cli(&["cabinet", "invite", &s.account_id, "--email", "partner@example.com"]);
    let link = invited["link"].as_str().unwrap();
    let path = &link[link.find("/cabinet/welcome/").unwrap()..];
    let Some(browser) = Browser::start(PHONE) else { return };
    set_password(&browser, &s.base, path);

    // The partner's own chat: it started the partner's bot and is linked for notices.
    Person::new(&telegram, 515_151).write("/start", "Добро пожаловать в Demo VPN!");
    browser.goto(&format!("{}/cabinet/notices?lang=en", s.base));
    press(&browser, "/cabinet/notices/telegram");
    let deep = browser.eval(
        "return [...document.querySelectorAll('a')].map(a => a.href).find(h => h.startsWith('https://t.me/platform_bot?start='));",
        json!([]),
    );
    telegram.press_start(515_151, deep.as_str().unwrap().rsplit('=').next().unwrap());
    wait_until(&browser, "location.reload(); return document.body.innerText.includes('515151');");

    browser.goto(&format!("{}/cabinet/broadcasts?lang=en", s.base));
    assert!(text(&browser).contains("No broadcasts yet."), "{}", text(&browser));
    fits_the_phone(&browser, "broadcasts, empty");
    fill(
        &browser,
        &[
            ("text", "Autumn sale: 3 months for the price of 2.\nOnly this week."),
            ("text_ru", "Осенняя распродажа: 3 месяца по цене 2.\nТолько на этой неделе."),
            ("button_text", "Buy"),
            ("button_url", "https://example.com/sale"),
        ],
    );
    submit_and_see(&browser, "/cabinet/broadcasts/preview", "Your bot sent the preview to your linked chat.");
    let shown = text(&browser);
    assert!(shown.contains("It will go to 13 customers (Everyone who started your bot)."), "{shown}");
    assert!(telegram.last_sent_to(PARTNER_TOKEN, 515_151, "Only this week.").is_some(), "the preview in Telegram");
    fits_the_phone(&browser, "broadcast preview");
    browser.screenshot("cabinet-broadcast-1-preview");
    browser.eval("document.getElementById('preview-audience').scrollIntoView();", json!([]));
    browser.screenshot("cabinet-broadcast-1-preview-send");

    submit_and_see(&browser, "/cabinet/broadcasts", "The broadcast is being sent.");
    fits_the_phone(&browser, "broadcast sending");
    browser.screenshot("cabinet-broadcast-2-sending");
    wait_until(&browser, "location.reload(); return document.body.innerText.includes('Sent: 13 ·');");
    let done = text(&browser);
    assert!(done.contains("Sent: 13 · Blocked the bot: 0 · Failed: 0 · Left: 0"), "{done}");
    fits_the_phone(&browser, "broadcast done");
    browser.eval("document.querySelector('section.broadcast').scrollIntoView();", json!([]));
    browser.screenshot("cabinet-broadcast-3-done");
    browser.goto(&format!("{}/cabinet?lang=en", s.base));
    assert!(text(&browser).contains("Last broadcast (done): sent 13"), "{}", text(&browser));
    browser.goto(&format!("{}/cabinet/broadcasts?lang=ru", s.base));
    fits_the_phone(&browser, "broadcasts in Russian");
    browser.screenshot("cabinet-broadcast-4-ru");
    telegram.assert_contract();
}

#[test]
fn a_partner_creates_its_bot_from_the_cabinet_in_one_tap_and_replaces_its_token_on_a_phone() {
    let platform = "123456789:AAHplatform_0123456789abcdefghijklm";
    let telegram = vp_testkit::telegram::TelegramEmulator::start(platform, "platform_bot");
    let api_url = telegram.url();
    let env = [("VP_TELEGRAM_API_URL", api_url.as_str()), ("VP_TELEGRAM_BOT_TOKEN", platform)];
    let Some(s) = Server::start_with(Backend::Sqlite, "browser_cabinet_create_bot", &env) else { return };
    let invited = s.cli(&["cabinet", "invite", &s.account_id, "--email", "creator@example.com"]);
    let link = invited["link"].as_str().unwrap();
    let path = &link[link.find("/cabinet/welcome/").unwrap()..];
    let Some(browser) = Browser::start(PHONE) else { return };
    set_password(&browser, &s.base, path);

    // The platform's bot without Bot Management Mode: the page says what to switch on, and the
    // token form stays.
    browser.goto(&format!("{}/cabinet/bot?lang=en", s.base));
    fits_the_phone(&browser, "bot page with Create my bot");
    browser.screenshot("cabinet-14-bot-create");
    submit_and_see(&browser, "/cabinet/bot/create", "Bot Management Mode");
    assert!(text(&browser).contains("@platform_bot"), "{}", text(&browser));
    assert_eq!(browser.eval("return document.getElementById('token').type;", json!([])), json!("password"));
    fits_the_phone(&browser, "Bot Management Mode off");
    browser.screenshot("cabinet-15-bot-create-off");

    // Switched on: one tap gives the link to open in Telegram.
    telegram.set_can_manage_bots(platform, true);
    browser.goto(&format!("{}/cabinet/bot", s.base));
    press(&browser, "/cabinet/bot/create");
    let url = browser.eval("return document.getElementById('create_link').href;", json!([]));
    let code = url.as_str().and_then(|u| u.strip_prefix("https://t.me/platform_bot?start=")).expect("a deep link");
    assert!(text(&browser).contains("The link works once"), "{}", text(&browser));
    fits_the_phone(&browser, "the link to open");
    browser.screenshot("cabinet-16-bot-create-link");

    // In Telegram: the platform's bot offers the button, the partner creates the bot.
    telegram.write_to(platform, 4242, &format!("/start {code}"), Some("en"));
    let within = std::time::Duration::from_secs(30);
    let offered = wait_for(within, || {
        let sent = telegram.sent_messages(platform);
        sent.iter().any(|m| m.buttons().iter().any(|b| b.request_managed_bot.is_some())).then_some(())
    });
    assert!(offered.is_some(), "the platform's bot offers the button");
    telegram.create_managed_bot(4242, None, Some("en")).expect("Telegram creates the bot");
    let connected = wait_for(within, || (!s.cli(&["bot", "show", &s.account_id]).is_null()).then_some(()));
    assert!(connected.is_some(), "the bot is connected");

    // Back in the cabinet: the bot is there, and its token can be replaced with one tap.
    browser.goto(&format!("{}/cabinet/bot", s.base));
    let shown = text(&browser);
    assert!(shown.contains("@demovpn_") && shown.contains("Replace the token"), "{shown}");
    assert!(!shown.contains("Create my bot in Telegram"), "one bot per account: {shown}");
    let before = telegram.sent_messages(platform).len();
    press(&browser, "/cabinet/bot/rotate");
    assert!(text(&browser).contains("The token is replaced"), "{}", text(&browser));
    assert_eq!(telegram.calls("replaceManagedBotToken"), 1);
    assert_eq!(telegram.sent_messages(platform).len(), before, "nothing more to tell in Telegram");
    fits_the_phone(&browser, "bot created, token replaced");
    browser.screenshot("cabinet-17-bot-created");
    telegram.assert_contract();
}

/// How many bars the overview's sales chart draws, and the range marked as shown.
fn chart(browser: &Browser) -> serde_json::Value {
    browser.eval(
        "return [document.querySelector('#sales svg.chart').querySelectorAll('rect.bar').length, \
                 document.querySelector('#sales nav [aria-current]').textContent];",
        json!([]),
    )
}

/// The figure named `name` in this period, as the sales table shows it.
fn figure(browser: &Browser, name: &str) -> serde_json::Value {
    browser.eval(
        "return [...document.querySelectorAll('#sales table tr')].find(r => r.querySelector('td')?.textContent === arguments[0])\
            ?.querySelectorAll('td')[1].textContent;",
        json!([name]),
    )
}

#[test]
fn a_partner_reads_the_sales_of_the_month_as_a_chart_and_switches_to_the_week_on_a_phone_and_a_desktop() {
    let Some(s) = Server::start(Backend::Sqlite, "browser_cabinet_sales") else { return };
    let paid: Vec<_> = [("sales-1", 1), ("sales-2", 2), ("sales-3", 1), ("sales-2", 1)]
        .into_iter()
        .map(|(client, plan)| support::partner::buy(&s, client, plan))
        .collect();
    s.cli(&["invoice", "refund", paid[0]["payment_id"].as_str().unwrap()]);
    let zone = time::UtcOffset::from_hms(3, 0, 0).unwrap(); // the demo account's Moscow
    let today = time::OffsetDateTime::now_utc().to_offset(zone).date().to_string();
    s.cli(&["sales", "rebuild", &s.account_id, "--from", &today, "--to", &today]);
    let invited = s.cli(&["cabinet", "invite", &s.account_id, "--email", "sales@example.com"]);
    let link = invited["link"].as_str().unwrap();
    let path = &link[link.find("/cabinet/welcome/").unwrap()..];

    let Some(phone) = Browser::start(PHONE) else { return };
    set_password(&phone, &s.base, path);
    phone.goto(&format!("{}/cabinet?lang=ru", s.base));
    fits_the_phone(&phone, "the sales overview");
    phone.screenshot("cabinet-sales-1-month-ru");
    let page = text(&phone);
    assert!(page.contains("Продажи") && page.contains("Оплаченные счета"), "{page}");
    assert_eq!(chart(&phone), json!([30, "30 дней"]), "a bar a day of the last 30");
    assert_eq!(figure(&phone, "Оплаченные счета"), "4", "four invoices paid (one refunded since)");
    assert_eq!(figure(&phone, "Возвраты"), "1");
    assert_eq!(figure(&phone, "Первые покупки"), "3", "each client's first");
    assert_eq!(figure(&phone, "Продления, оплаченные вручную"), "1", "sales-2 paid again");
    assert_eq!(figure(&phone, "Продления сохранённой картой"), "0");
    let channels = phone.eval(
        "const charts = document.querySelectorAll('#sales svg.chart'); \
         const api = [...document.querySelectorAll('#sales table tr')].find(r => r.textContent.includes('Ваш API')); \
         return [charts.length, charts[1].querySelectorAll('rect.bar').length, api.querySelectorAll('td')[2].textContent];",
        json!([]),
    );
    assert_eq!(channels, json!([2, 3, "3"]), "a chart of the three channels; the API's three first purchases");
    phone.eval("document.getElementById('channels').scrollIntoView();", json!([]));
    phone.screenshot("cabinet-sales-4-channels-ru");
    assert!(text(&phone).contains("Промокоды и рефералы"), "the promotions' effect");
    let today_bar = phone
        .eval("return document.querySelector('#sales svg.chart rect.bar:last-of-type title').textContent;", json!([]));
    assert!(today_bar.as_str().unwrap().contains('₽'), "today's bar names its amount: {today_bar}");

    phone.eval("document.querySelector('#sales nav a[href*=\"range=7d\"]').click();", json!([]));
    wait_until(&phone, "return location.search.includes('range=7d') && document.readyState === 'complete';");
    assert_eq!(chart(&phone), json!([7, "7 дней"]));
    assert_eq!(figure(&phone, "Первые покупки"), "3", "today is in the week too");
    fits_the_phone(&phone, "the week's sales");
    phone.screenshot("cabinet-sales-2-week-ru");

    let Some(desktop) = Browser::start(support::browser::DESKTOP) else { return };
    desktop.goto(&format!("{}/cabinet/sign-in?lang=en", s.base));
    fill(&desktop, &[("email", "sales@example.com"), ("password", "a long enough phrase")]);
    press(&desktop, "/cabinet/sign-in");
    wait_until(&desktop, "return location.pathname === '/cabinet';");
    desktop.goto(&format!("{}/cabinet?range=this-month&lang=en", s.base));
    desktop.screenshot("cabinet-sales-3-this-month-en");
    let page = text(&desktop);
    assert!(page.contains("Customers paid") && page.contains("By payment method"), "{page}");
    assert!(page.contains("By channel") && page.contains("Bot shop") && page.contains("Web shop"), "{page}");
    assert_eq!(chart(&desktop)[1], "This month");
    let shown = ["Invoices paid", "Refunded", "New clients"].map(|name| figure(&desktop, name));
    assert_eq!(shown, ["4", "1", "3"].map(serde_json::Value::from));

    // The month's books, downloaded from the balance page as an accountant would, each file
    // read by a standard CSV reader: what they hold is what the API and the overview say.
    desktop.goto(&format!("{}/cabinet/balance?lang=en", s.base));
    let range =
        desktop.eval("return ['export_from', 'export_to'].map(id => document.getElementById(id).value);", json!([]));
    let (from, to) = (range[0].as_str().unwrap(), range[1].as_str().unwrap());
    assert_eq!((&from[..8], to), (&today[..8], today.as_str()), "the form offers this month so far");
    desktop.eval("document.getElementById('export_from').scrollIntoView({block: 'center'});", json!([]));
    desktop.screenshot("cabinet-sales-5-exports-en");
    let download = |file: &str| {
        let button = format!("button[formaction=\"/cabinet/exports/{file}.csv\"]");
        desktop.eval("document.querySelector(arguments[0]).click();", json!([button]));
        support::csv::read(&desktop.downloaded(&format!("{file}-{from}-{to}.csv")))
    };
    let invoices = download("invoices");
    let ids: Vec<&str> = invoices.iter().map(|r| r["payment_id"].as_str().unwrap()).collect();
    let made: Vec<&str> = paid.iter().map(|i| i["payment_id"].as_str().unwrap()).collect();
    assert_eq!(ids, made, "the month's invoices, oldest first");
    for row in &invoices {
        let api = s.api("GET", &format!("/payments/{}", row["payment_id"].as_str().unwrap()), None, &[]).json();
        assert_eq!((&row["amount"], &row["status"]), (&api["amount"], &api["status"]), "as the API has it");
    }
    let paid_rows = invoices.iter().filter(|r| r["paid_at"] != "").count();
    // A refund (a recall) fails a paid invoice: its status is `failed`, its `paid_at` stays.
    let refunded_rows = invoices.iter().filter(|r| r["status"] == "failed" && r["paid_at"] != "").count();
    assert_eq!(
        [json!(paid_rows.to_string()), json!(refunded_rows.to_string())],
        shown[..2],
        "as the overview counts them"
    );
    let clients = download("clients");
    assert_eq!(json!(clients.len().to_string()), shown[2], "the clients made this month, as the overview counts them");
    let ledger = download("ledger");
    let share_kept: i64 =
        invoices.iter().filter(|r| r["status"] == "succeeded").map(|r| support::csv::cents(&r["partner_share"])).sum();
    let ledger_total: i64 = ledger.iter().map(|l| support::csv::cents(&l["amount"])).sum();
    assert_eq!(ledger_total, share_kept, "the ledger's lines net to the share of the invoices kept: {ledger:?}");
}
