//! A person's chat with a partner's bot through the Bot API emulator: the shop set up (the
//! real binary with the partner's bot connected), what the person writes and presses, what the
//! bot answered, and the transcript a person reads.

use std::time::{Duration, Instant};

use vp_testkit::telegram::{SentMessage, TelegramEmulator};

use super::server::{Backend, Server};

pub const PLATFORM_TOKEN: &str = "123456789:AAHplatform_0123456789abcdefghijklm";
pub const PARTNER_TOKEN: &str = "5550001:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-bs";

pub fn shop(backend: Backend, name: &str) -> Option<(TelegramEmulator, Server)> {
    shop_with(backend, name, &[])
}

/// Telegram knowing the platform's bot (`@platform_bot`) and the partner's, made in BotFather
/// (`@demo_vpn_bot`).
pub fn telegram() -> TelegramEmulator {
    let telegram = TelegramEmulator::start(PLATFORM_TOKEN, "platform_bot");
    telegram.add_bot(PARTNER_TOKEN, 5_550_001, "demo_vpn_bot");
    telegram
}

/// The real binary at a public https address, whose bots (the platform's too) are told their
/// updates by webhook.
pub fn https_server(backend: Backend, name: &str, telegram: &TelegramEmulator) -> Option<Server> {
    let api_url = telegram.url();
    let env = [
        ("VP_PUBLIC_BASE_URL", "https://vpn.example"),
        ("VP_TELEGRAM_BOT_TOKEN", PLATFORM_TOKEN),
        ("VP_TELEGRAM_API_URL", api_url.as_str()),
    ];
    Server::start_with(backend, name, &env)
}

/// `shop` with more settings.
pub fn shop_with(backend: Backend, name: &str, more: &[(&str, &str)]) -> Option<(TelegramEmulator, Server)> {
    let telegram = telegram();
    let api_url = telegram.url();
    let env = [
        ("VP_TELEGRAM_API_URL", api_url.as_str()),
        ("VP_WEBHOOK_ALLOW_ADDRESSES", "127.0.0.1"),
        ("VP_SHIFTED_CLOCK", "on"),
        ("VP_TERM_CHECK_SECONDS", "1"),
    ];
    let env: Vec<(&str, &str)> = env.iter().copied().chain(more.iter().copied()).collect();
    let s = Server::start_with(backend, name, &env)?;
    let connected = s.connect_bot(&s.account_id, PARTNER_TOKEN);
    assert_eq!(connected["username"], "demo_vpn_bot", "{connected}");
    Some((telegram, s))
}

/// A person in their private chat with the partner's bot (or another, `with_bot`), their
/// Telegram app in Russian.
pub struct Person<'a> {
    pub telegram: &'a TelegramEmulator,
    pub user: i64,
    /// The token of the bot the chat is with.
    bot: &'a str,
    /// What the person did, each with how many of the bot's messages they had seen by then.
    did: std::cell::RefCell<Vec<(usize, String)>>,
}

impl<'a> Person<'a> {
    pub fn new(telegram: &'a TelegramEmulator, user: i64) -> Person<'a> {
        Person::with_bot(telegram, user, PARTNER_TOKEN)
    }

    /// A person in their private chat with the bot of `token`.
    pub fn with_bot(telegram: &'a TelegramEmulator, user: i64, token: &'a str) -> Person<'a> {
        Person { telegram, user, bot: token, did: Default::default() }
    }

    /// From `/start` to the invoice of the one-month plan paid with `method` (its button).
    pub fn order_a_month(&self, method: &str) -> SentMessage {
        let menu = self.write("/start", "Добро пожаловать в Demo VPN!");
        let plans = self.press(&menu, "Купить подписку", "выберите тариф");
        let methods = self.press(&plans, "1 месяц", "Как вы хотите оплатить?");
        self.press(&methods, method, "Оплатите в течение")
    }

    /// Records something the person did outside the chat's messages (pressing a keyboard
    /// button, say), for the transcript.
    pub fn did(&self, action: &str) {
        let seen = self.messages().len();
        self.did.borrow_mut().push((seen, action.to_owned()));
    }

    /// Writes the conversation to `tests/transcripts/NAME.txt` (ignored by git) for a person
    /// to read: what the person wrote or pressed, and each message with its buttons.
    pub fn save_transcript(&self, name: &str) {
        let did = self.did.borrow();
        let mut out = String::new();
        let messages = self.messages();
        for (i, m) in messages.iter().enumerate() {
            for (_, action) in did.iter().filter(|(seen, _)| *seen == i) {
                out.push_str(&format!("\n>>> {action}\n"));
            }
            let photo = if m.photo.is_some() { " [photo: QR code]" } else { "" };
            out.push_str(&format!("<<< #{}{photo}\n{}\n", m.message_id, m.text));
            for b in m.buttons() {
                let does = match (b.url, b.callback_data, b.request_managed_bot) {
                    (Some(url), ..) => format!("open {url}"),
                    (None, Some(data), _) => format!("press {data}"),
                    (None, None, Some(request)) => format!(
                        "create a bot: name {}, username @{}",
                        request["suggested_name"],
                        request["suggested_username"].as_str().unwrap_or_default()
                    ),
                    (None, None, None) => "nothing".to_owned(),
                };
                out.push_str(&format!("    [{}] ({does})\n", b.text));
            }
        }
        let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/transcripts");
        std::fs::create_dir_all(&dir).expect("transcript folder");
        std::fs::write(dir.join(format!("{name}.txt")), out).expect("write the transcript");
    }

    /// Fails if a message to this person, or a button's label, names something internal: the
    /// `ids` the test knows (client ids), or any id, key or code name
    /// (`support::nothing_internal`). The person's app is in Russian.
    #[track_caller]
    pub fn assert_reads_nothing_internal(&self, ids: &[&str]) {
        for m in self.messages() {
            let labels: Vec<String> = m.buttons().into_iter().map(|b| b.text).collect();
            let read = format!("{}\n{}", m.text, labels.join("\n"));
            let what = format!("the bot's message #{}", m.message_id);
            super::nothing_internal::assert_nothing_internal(&what, &read, ids, true);
        }
    }

    pub fn messages(&self) -> Vec<SentMessage> {
        self.telegram.sent_messages(self.bot).into_iter().filter(|m| m.chat_id == self.user).collect()
    }

    /// Waits for the bot's next message to this chat that contains `text`, after the `seen`
    /// first ones (a behavioural bound, wide for a loaded machine: it returns once it came).
    pub fn next_with(&self, seen: usize, text: &str) -> SentMessage {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(m) = self.messages().into_iter().skip(seen).find(|m| m.text.contains(text)) {
                return m;
            }
            assert!(Instant::now() < deadline, "no message with {text:?} after {seen}: {:#?}", self.messages());
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn write(&self, text: &str, expect: &str) -> SentMessage {
        let seen = self.messages().len();
        self.did.borrow_mut().push((seen, format!("writes {text:?}")));
        self.telegram.write_to(self.bot, self.user, text, Some("ru"));
        self.next_with(seen, expect)
    }

    /// Presses the button labelled with `label` on `message` without waiting for the answer.
    pub fn tap(&self, message: &SentMessage, label: &str) {
        let seen = self.messages().len();
        self.did.borrow_mut().push((seen, format!("taps [{label}] under #{}", message.message_id)));
        self.telegram.press(self.bot, self.user, message.message_id, &data_of(message, label), Some("ru"));
    }

    /// Presses the button labelled with `label` on `message`; waits for the answer with `expect`.
    pub fn press(&self, message: &SentMessage, label: &str, expect: &str) -> SentMessage {
        let data = data_of(message, label);
        let seen = self.messages().len();
        self.did.borrow_mut().push((seen, format!("presses [{label}] under #{}", message.message_id)));
        self.telegram.press(self.bot, self.user, message.message_id, &data, Some("ru"));
        self.next_with(seen, expect)
    }
}

pub fn data_of(message: &SentMessage, label: &str) -> String {
    let button = message.buttons().into_iter().find(|b| b.text.contains(label));
    button.and_then(|b| b.callback_data).unwrap_or_else(|| panic!("no {label:?} button: {message:#?}"))
}

pub fn url_of(message: &SentMessage, label: &str) -> String {
    let button = message.buttons().into_iter().find(|b| b.text.contains(label));
    button.and_then(|b| b.url).unwrap_or_else(|| panic!("no {label:?} link: {message:#?}"))
}
