//! The broadcast phase: one partner's bot with `chats` customers gets a broadcast to all of
//! them from `vp-api broadcast send`, while other people keep writing `/start` to the same bot.
//! The bot is connected with the operator's `bot connect` on an https public address, so its
//! updates come by webhook from the Bot API emulator (which answers 429 above 30 messages a
//! second per bot, as Telegram does) and each webhook post returns once the bot has answered:
//! that is an answer's time. The customers are written through the storage port, as people who
//! started the bot. Timed from the first broadcast message to the last.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use vp_testkit::telegram::TelegramEmulator;

use crate::service::{Backend, Database, Service};
use crate::stats::Samples;

const TOKEN: &str = "8800001:AAEbroadcast0000000000000000000000";
const TEXT: &str = "Bench broadcast: 3 months for the price of 2.";
/// People writing to the bot while it sends, each every `TALK_EVERY`: about 2 answers a
/// second, a busy shop's traffic beside a broadcast.
const TALKERS: usize = 2;
const TALK_EVERY: Duration = Duration::from_secs(1);
/// A behavioural bound far above what the phase takes.
const DEADLINE: Duration = Duration::from_secs(1_800);

pub struct BroadcastRun {
    pub chats: usize,
    /// From the first broadcast message to the last.
    pub sending: Duration,
    pub sent: usize,
    pub answers: usize,
    pub answer_p50: Duration,
    pub answer_p99: Duration,
    /// Answers not given (a webhook post not answered 200).
    pub failed_answers: usize,
    /// Sends the emulator answered 429.
    pub throttled: usize,
}

impl BroadcastRun {
    pub fn per_second(&self) -> f64 {
        self.sent as f64 / self.sending.as_secs_f64().max(0.001)
    }
}

pub async fn run(backend: Backend, chats: usize) -> Result<BroadcastRun, String> {
    let name = backend.name();
    let telegram = TelegramEmulator::start("100:AAEplatformBenchToken000000000000000", "bench_platform");
    telegram.add_bot(TOKEN, 8_800_001, "broadcast_bench_bot");
    let api_url = telegram.url();
    let env = [("VP_PUBLIC_BASE_URL", "https://vpn.example"), ("VP_TELEGRAM_API_URL", api_url.as_str())];
    let service = Service::start(Database::fresh(backend, "broadcast")?, &env).await?;
    let dir = service.db.dir().to_owned();
    let token_file = dir.join("bot.token");
    std::fs::write(&token_file, TOKEN).map_err(|e| e.to_string())?;
    let account = service.account.clone();
    service.cli(&["bot", "connect", &account, "--token-file", &token_file.to_string_lossy()])?;
    let _ = std::fs::remove_file(&token_file);
    service.cli(&["jobs"])?;
    telegram.deliver_to(&format!("http://127.0.0.1:{}", service.port));
    if telegram.webhook(TOKEN).is_none() {
        return Err(format!("{name}: the bot has no webhook after `jobs`"));
    }
    let seeding = Instant::now();
    seed(&service.db.url, &account, chats).await?;
    println!("\n{name}: {chats} people of one bot seeded in {:.1} s", seeding.elapsed().as_secs_f64());

    let text_file = dir.join("broadcast.txt");
    std::fs::write(&text_file, TEXT).map_err(|e| e.to_string())?;
    let done = AtomicBool::new(false);
    let latencies = Mutex::new(Samples::default());
    let failed = Mutex::new(0usize);
    // The audience is fixed when it is sent: the talkers, who start after, are not in it.
    let path = text_file.to_string_lossy().into_owned();
    service.cli(&["broadcast", "send", &account, "--text-file", &path, "--audience", "all"])?;
    let started = Instant::now();
    let (first, last) = std::thread::scope(|scope| {
        for t in 0..TALKERS {
            let (telegram, done, latencies, failed) = (&telegram, &done, &latencies, &failed);
            scope.spawn(move || {
                let mut n = 0i64;
                while !done.load(Ordering::Relaxed) {
                    let chat = 90_000_000 + (t as i64) * 1_000_000 + n;
                    n += 1;
                    let at = Instant::now();
                    let (_, status) = telegram.write_to(TOKEN, chat, "/start", Some("en"));
                    let took = at.elapsed();
                    if status == Some(200) {
                        if let Ok(mut l) = latencies.lock() {
                            l.latencies.push(took);
                        }
                    } else if let Ok(mut f) = failed.lock() {
                        *f += 1;
                    }
                    std::thread::sleep(TALK_EVERY.saturating_sub(took));
                }
            });
        }
        let outcome = (|| {
            let mut first = None;
            loop {
                let sent = telegram.sent_count_starting_with(TEXT);
                if sent > 0 && first.is_none() {
                    first = Some(Instant::now());
                }
                if sent >= chats {
                    return Ok((first.unwrap_or(started), Instant::now()));
                }
                if started.elapsed() > DEADLINE {
                    return Err(format!(
                        "{name}: {sent} of {chats} broadcast messages within {} s",
                        DEADLINE.as_secs()
                    ));
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        })();
        done.store(true, Ordering::Relaxed);
        outcome
    })?;
    let sent = telegram.sent_count_starting_with(TEXT);
    let throttled = telegram.throttled();
    drop(service);
    let mut answers = latencies.into_inner().map_err(|e| e.to_string())?;
    Ok(BroadcastRun {
        chats,
        sending: last - first,
        sent,
        answers: answers.latencies.len(),
        answer_p50: answers.percentile(0.50),
        answer_p99: answers.percentile(0.99),
        failed_answers: failed.into_inner().map_err(|e| e.to_string())?,
        throttled,
    })
}

/// `count` people who started the account's bot, each in a private chat of their own.
async fn seed(url: &str, account: &str, count: usize) -> Result<(), String> {
    let options = vp_store::StoreOptions { max_connections: 2, ..Default::default() };
    let store = vp_store::connect(url, &options).await.map_err(|e| e.to_string())?;
    vp_testkit::seed::bot_people(store.as_ref(), account, count, 20_000_000).await
}
