//! The shop phase: the shop in partners' own bots under load, as `tests/telegram_shop.rs`
//! checks it, with the figures that test leaves to the bench. Partners' bots are connected with
//! the operator's `bot connect` to the real service on an https public address, so their updates
//! come by webhook from the Bot API emulator (which answers 429 above 30 messages a second per
//! bot, as Telegram does), each partner with a `payment.succeeded` endpoint on a loopback
//! receiver. Client threads serve the chats one after another, spread over the bots: `/start`,
//! "Buy a subscription", "1 month", "Bank card", then pay the invoice on the sandbox page. Timed
//! from the first `/start` to the last payment; each answer (the webhook post of a message or a
//! press, which returns once the bot has answered) timed alone; then the paid messages and the
//! events waited for.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use vp_testkit::telegram::{SentMessage, TelegramEmulator};

use crate::dispatch::{Receipts, start_receiver};
use crate::service::{Backend, Database, Service};
use crate::stats::Samples;

/// How long the paid messages and the events may take after the last payment before the phase
/// fails: a behavioural bound, far above what they take.
const SETTLE: Duration = Duration::from_secs(300);

pub struct ShopRun {
    pub bots: usize,
    pub chats: usize,
    pub threads: usize,
    /// From the first `/start` to the last payment on the sandbox page.
    pub buying: Duration,
    /// From the first `/start` to the last paid message.
    pub until_last_paid: Duration,
    pub answer_p50: Duration,
    pub answer_p99: Duration,
    pub answers: usize,
    /// Distinct invoices the chats were shown (and paid).
    pub invoices: usize,
    /// `payment.succeeded` received, one per invoice.
    pub events: usize,
    /// "Payment received" messages the bots sent.
    pub paid_messages: usize,
    /// Sends the emulator answered 429.
    pub throttled: usize,
    /// Presses no `answerCallbackQuery` confirmed.
    pub unanswered_presses: usize,
    /// Chats stopped because an answer never came (no button to press next, no invoice): what
    /// a 429 to an answer costs; reported beside the 429s.
    pub lost_chats: usize,
    /// Chats stopped by a failed request (a webhook post not answered 200, a payment refused).
    pub failed_chats: usize,
}

impl ShopRun {
    /// Chats that bought and paid, a second.
    pub fn chats_per_second(&self) -> f64 {
        self.invoices as f64 / self.buying.as_secs_f64().max(0.001)
    }

    /// Failures the run counts as errors: failed requests, unconfirmed presses, and lost chats
    /// beyond one per 429 (each 429 can cost one answer; the 429s are a target of their own).
    pub fn errors(&self) -> usize {
        self.failed_chats + self.unanswered_presses + self.lost_chats.saturating_sub(self.throttled)
    }
}

fn bot_token(n: usize) -> (String, i64) {
    let id = 6_000_000 + n as i64;
    (format!("{id}:AAEshop{n:0>32}"), id)
}

/// Why a chat stopped before paying.
enum Stopped {
    /// An answer never came.
    Lost(String),
    /// A request failed.
    Failed(String),
}

/// What one chat did: its answers' latencies and the invoice it paid, or why it stopped.
struct Chat {
    latencies: Vec<Duration>,
    invoice: Result<String, Stopped>,
}

/// One chat: start, the plans, a month, a card, then pays on the sandbox page.
fn buy(telegram: &TelegramEmulator, port: u16, token: &str, chat: i64) -> Chat {
    let mut latencies = Vec::with_capacity(4);
    let mut invoice = || -> Result<String, Stopped> {
        let at = Instant::now();
        let (_, status) = telegram.write_to(token, chat, "/start", Some("en"));
        latencies.push(at.elapsed());
        if status != Some(200) {
            return Err(Stopped::Failed(format!("/start in chat {chat} was answered {status:?}")));
        }
        for label in ["Buy a subscription", "1 month", "Bank card"] {
            let at = Instant::now();
            let pressed = telegram.try_press_button(token, chat, label, Some("en"));
            latencies.push(at.elapsed());
            match pressed {
                Some((_, Some(200))) => {}
                Some((_, status)) => {
                    return Err(Stopped::Failed(format!("[{label}] in chat {chat} was answered {status:?}")));
                }
                None => return Err(Stopped::Lost(format!("chat {chat} was shown no [{label}] button"))),
            }
        }
        let shown = telegram.last_sent_to(token, chat, "Pay within");
        let shown = shown.ok_or_else(|| Stopped::Lost(format!("chat {chat} got no invoice")))?;
        let id = payment_id(&shown)
            .ok_or_else(|| Stopped::Failed(format!("the invoice in chat {chat} has no [Pay] link")))?;
        let url = format!("http://127.0.0.1:{port}/sandbox/pay/{id}");
        let form = [("content-type", "application/x-www-form-urlencoded")];
        match vp_testkit::http::send("POST", &url, &form, b"action=pay") {
            Ok(paid) if paid.status == 303 => Ok(id),
            Ok(paid) => Err(Stopped::Failed(format!("paying {id} was answered {}", paid.status))),
            Err(e) => Err(Stopped::Failed(format!("paying {id}: {e}"))),
        }
    };
    let invoice = invoice();
    Chat { latencies, invoice }
}

/// The invoice's id: the last segment of the [Pay ...] button's link.
fn payment_id(invoice: &SentMessage) -> Option<String> {
    let button = invoice.buttons().into_iter().find(|b| b.text.starts_with("Pay "))?;
    button.url?.rsplit('/').next().filter(|id| !id.is_empty()).map(str::to_owned)
}

/// `bots` partners with a connected bot, `per_bot` chats on each, served by `threads` clients.
pub async fn run(backend: Backend, bots: usize, per_bot: usize, threads: usize) -> Result<ShopRun, String> {
    let name = backend.name();
    let telegram = TelegramEmulator::start("100:AAEplatformBenchToken000000000000000", "bench_platform");
    let receipts = Arc::new(Receipts::default());
    let hooks = format!("http://127.0.0.1:{}/hooks", start_receiver(receipts.clone())?);
    let api_url = telegram.url();
    let env = [
        // An https public address: Telegram posts bots' updates to a webhook (`deliver_to`
        // stands for the TLS-terminating proxy in front of the service).
        ("VP_PUBLIC_BASE_URL", "https://vpn.example"),
        ("VP_TELEGRAM_API_URL", api_url.as_str()),
        // The partners' endpoints are on this machine.
        ("VP_WEBHOOK_ALLOW_ADDRESSES", "127.0.0.1"),
    ];
    let service = Service::start(Database::fresh(backend, "shop")?, &env).await?;
    let token_file = service.db.dir().join("bot.token");
    let mut tokens = Vec::with_capacity(bots);
    for n in 0..bots {
        // Limits lifted, as in every phase: the bench measures the shop, not a partner's
        // payment window (the test raises it to 200 a minute).
        let account = if n == 0 { service.account.clone() } else { service.new_account(&format!("Shop {n}"))?.0 };
        let (token, id) = bot_token(n);
        telegram.add_bot(&token, id, &format!("shop_{n}_bot"));
        std::fs::write(&token_file, &token).map_err(|e| e.to_string())?;
        let path = token_file.to_string_lossy().into_owned();
        service.cli(&["bot", "connect", &account, "--token-file", &path])?;
        service.cli(&["endpoint", "add", &account, &hooks, "--type", "payment.succeeded"])?;
        tokens.push(token);
    }
    let _ = std::fs::remove_file(&token_file);
    // Tells Telegram where each bot's updates go.
    service.cli(&["jobs"])?;
    telegram.deliver_to(&format!("http://127.0.0.1:{}", service.port));
    if let Some(t) = tokens.iter().find(|t| telegram.webhook(t).is_none()) {
        return Err(format!("{name}: the bot {} has no webhook after `jobs`", t.split(':').next().unwrap_or("?")));
    }
    // Account settings a running service caches take effect within a second.
    tokio::time::sleep(Duration::from_millis(1_200)).await;

    let chats = bots * per_bot;
    let threads = threads.clamp(1, chats.max(1));
    let port = service.port;
    let done = Mutex::new(Vec::with_capacity(chats));
    let started = Instant::now();
    std::thread::scope(|scope| {
        for t in 0..threads {
            let (telegram, tokens, done) = (&telegram, &tokens, &done);
            scope.spawn(move || {
                for n in (t..chats).step_by(threads) {
                    let chat = buy(telegram, port, &tokens[n % bots], 7_000_000 + n as i64);
                    if let Ok(mut d) = done.lock() {
                        d.push(chat);
                    }
                }
            });
        }
    });
    let buying = started.elapsed();
    let done = done.into_inner().map_err(|e| e.to_string())?;
    let mut answers = Samples::default();
    let mut invoices = HashSet::new();
    let (mut lost, mut failed) = (Vec::new(), Vec::new());
    for chat in done {
        answers.latencies.extend(chat.latencies);
        match chat.invoice {
            Ok(id) => {
                invoices.insert(id);
            }
            Err(Stopped::Lost(why)) => lost.push(why),
            Err(Stopped::Failed(why)) => failed.push(why),
        }
    }
    for (stopped, how) in [(&lost, "missed an answer"), (&failed, "had a request fail")] {
        if let Some(first) = stopped.first() {
            eprintln!("{name}: {} of {chats} chats {how}, the first: {first}", stopped.len());
        }
    }
    if invoices.is_empty() {
        return Err(format!("{name}: none of {chats} chats got as far as paying"));
    }

    // The paid messages and the events, each within a bound far above what they take.
    let paid_ones = invoices.len();
    let deadline = Instant::now() + SETTLE;
    let paid = || telegram.sent_count_starting_with("Payment received");
    while paid() < paid_ones && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let until_last_paid = started.elapsed();
    let paid_messages = paid();
    while !receipts.ids().is_superset(&invoices) && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let events = receipts.ids().intersection(&invoices).count();
    let unanswered_presses = telegram.unanswered_presses();
    let throttled = telegram.throttled();
    drop(service);
    if paid_messages < paid_ones {
        return Err(format!(
            "{name}: {paid_messages} of {paid_ones} paid chats were told their payment arrived within {} s",
            SETTLE.as_secs()
        ));
    }
    if events < paid_ones {
        return Err(format!(
            "{name}: {events} of {paid_ones} invoices had their payment.succeeded within {} s",
            SETTLE.as_secs()
        ));
    }
    let run = ShopRun {
        bots,
        chats,
        threads,
        buying,
        until_last_paid,
        answer_p50: answers.percentile(0.50),
        answer_p99: answers.percentile(0.99),
        answers: answers.latencies.len(),
        invoices: invoices.len(),
        events,
        paid_messages,
        throttled,
        unanswered_presses,
        lost_chats: lost.len(),
        failed_chats: failed.len(),
    };
    Ok(run)
}
