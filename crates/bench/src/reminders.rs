//! The reminders phase: customers linked to their partner's bot whose 72-hour reminders all fall
//! due at once, sent by the real service to the Bot API emulator (which answers 429 above 30
//! messages a second per bot, as Telegram does). Clients, their subscriptions (ending in 60
//! hours) and their chats are written through the storage port; the bots are connected with
//! the operator's `bot connect`; then the service starts and its term check and reminder worker
//! do the rest. Timed from the service's start to the last message, and from the first message
//! to the last.

use std::time::{Duration, Instant};

use vp_testkit::seed::linked_clients;
use vp_testkit::telegram::TelegramEmulator;

use crate::service::{Backend, Database, Service};

pub struct RemindersRun {
    pub bots: usize,
    pub per_bot: usize,
    /// From the service's start to the last message.
    pub total: Duration,
    /// From the first message to the last.
    pub sending: Duration,
    pub sent: usize,
    /// 429s the emulator answered.
    pub throttled: usize,
}

impl RemindersRun {
    pub fn per_second(&self) -> f64 {
        self.sent as f64 / self.sending.as_secs_f64().max(0.001)
    }
}

fn bot_token(n: usize) -> (String, i64) {
    let id = 7_000_000 + n as i64;
    (format!("{id}:AAEbench{n:0>30}"), id)
}

/// `bots` accounts with a connected bot and `per_bot` linked clients each, all due at once.
pub async fn run(backend: Backend, bots: usize, per_bot: usize) -> Result<RemindersRun, String> {
    let telegram = TelegramEmulator::start("100:AAEplatformBenchToken000000000000000", "bench_platform");
    let db = Database::fresh(backend, "reminders")?;
    let url = db.url.clone();
    // The service is started later, on the seeded database; `Service::start` seeds the demo.
    let env = [("VP_TELEGRAM_API_URL", telegram.url()), ("VP_TERM_CHECK_SECONDS", "1".to_owned())];
    let env_refs: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let env_owned: Vec<(String, String)> = env.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect();
    crate::service::cli(&url, &env_owned, &["demo"])?;
    let mut accounts = Vec::with_capacity(bots);
    let token_file = db.dir().join("bot.token");
    for n in 0..bots {
        let created = crate::service::cli(&url, &env_owned, &["account", "create", "--brand", &format!("Bench {n}")])?;
        let account = created["account"]["account_id"].as_str().ok_or("no account id")?.to_owned();
        let (token, id) = bot_token(n);
        telegram.add_bot(&token, id, &format!("bench_{n}_bot"));
        std::fs::write(&token_file, &token).map_err(|e| e.to_string())?;
        let path = token_file.to_string_lossy().into_owned();
        crate::service::cli(&url, &env_owned, &["bot", "connect", &account, "--token-file", &path])?;
        accounts.push(account);
    }
    let _ = std::fs::remove_file(&token_file);
    let seeding = Instant::now();
    seed(&url, &accounts, per_bot).await?;
    if backend == Backend::Postgres {
        // A database in service has its statistics kept by autovacuum; right after a bulk seed
        // they still describe the near-empty tables, and the planner would read every due term
        // and sort them at every page of the term check.
        crate::service::psql(&url, "ANALYZE")?;
    }
    println!(
        "\n{}: {bots} bots with {per_bot} linked clients each seeded in {:.1} s",
        backend.name(),
        seeding.elapsed().as_secs_f64()
    );

    let total = bots * per_bot;
    let started = Instant::now();
    let service = Service::start_seeded(db, &env_refs).await?;
    let mut first = None;
    let deadline = started + Duration::from_secs(1_200);
    loop {
        let sent = telegram.sent_count();
        if sent > 0 && first.is_none() {
            first = Some(Instant::now());
        }
        if sent >= total || Instant::now() > deadline {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let last = Instant::now();
    let sent = telegram.sent_count();
    drop(service);
    if sent < total {
        return Err(format!("only {sent} of {total} reminders arrived within 20 minutes"));
    }
    Ok(RemindersRun {
        bots,
        per_bot,
        total: last - started,
        sending: last - first.unwrap_or(started),
        sent,
        throttled: telegram.throttled(),
    })
}

/// Every account's clients, linked and due at once, the accounts' interleaved
/// (`vp_testkit::seed::linked_clients`).
async fn seed(url: &str, accounts: &[String], per_bot: usize) -> Result<(), String> {
    let options = vp_store::StoreOptions { max_connections: 2, ..Default::default() };
    let store = vp_store::connect(url, &options).await.map_err(|e| e.to_string())?;
    let ends_at = time::OffsetDateTime::now_utc() + time::Duration::hours(60);
    for (a, account) in accounts.iter().enumerate() {
        let first_chat = 10_000_000 + i64::try_from(a * per_bot).map_err(|e| e.to_string())?;
        linked_clients(store.as_ref(), account, per_bot, ends_at, first_chat).await?;
    }
    Ok(())
}
