//! The background work of a process: the periodic jobs, the term-event check, the event
//! dispatcher's workers and, when on, the shifted clock's refresher. `serve` runs them beside
//! the HTTP server; `worker` runs them alone for deployments that split roles.

use std::sync::Arc;
use std::time::Duration;

use tokio::task::JoinHandle;
use vp_app::Services;
use vp_app::operator::shifted_clock::ShiftedClock;

use crate::config::Config;
use crate::stopping::Stopping;

/// How often the periodic jobs run: invoice expiry, completion of requests cut off by a
/// crash, reconciliation of payments pending at the gateway, the panel sync, partners' bots'
/// profiles, and where bots' updates go.
const JOB_INTERVAL: Duration = Duration::from_secs(30);
const JOB_BATCH: u32 = 200;
/// Bots whose profile is synced per round: each takes about ten Bot API calls.
const BOT_PROFILE_BATCH: u32 = 20;
/// Attempts in flight per delivery worker slot (`VP_DELIVERY_WORKERS`).
const ATTEMPTS_PER_WORKER: usize = 32;
const SHIFTED_CLOCK_REFRESH: Duration = Duration::from_secs(1);
/// How often due notice sends are looked for, and how many at a time.
const NOTICE_INTERVAL: Duration = Duration::from_secs(2);
const NOTICE_BATCH: u32 = 50;
/// How often due reminders to customers are looked for, and how many bots' a round sends.
const REMINDER_INTERVAL: Duration = Duration::from_secs(1);
const REMINDER_BOTS: u32 = 1_000;
/// How often broadcasts being sent get a turn (a turn is about a second of each bot's pace);
/// while none is, the pause doubles up to `BROADCAST_IDLE` (each look takes the lease, a write).
const BROADCAST_INTERVAL: Duration = Duration::from_millis(200);
const BROADCAST_IDLE: Duration = Duration::from_secs(2);
/// How often due mail is looked for, and how many messages a round sends.
const MAIL_INTERVAL: Duration = Duration::from_secs(2);
const MAIL_BATCH: u32 = 20;
/// How often each process looks whether the sales figures are due (`vp_app::sales::RECENT_EVERY`
/// and once a day, across the instances).
const SALES_LOOK_EVERY: Duration = Duration::from_secs(60);
/// The update poller's long poll: well inside the poll lease, which each round renews.
const UPDATE_POLL_WAIT: Duration = Duration::from_secs(8);
/// How often a process without the poll lease tries for it, and a poller's pause after a
/// failed round or a round with no bots to poll.
const UPDATE_POLL_PAUSE: Duration = Duration::from_secs(3);
/// How long a stop waits for each lease to be given up.
const LEASE_RELEASE_WITHIN: Duration = Duration::from_secs(3);

/// The background work of a process, stopped by `shut_down`.
pub struct Background {
    services: Services,
    /// This process's name in the leases (the update poller's and the reminder worker's).
    holder: String,
    /// Whether this process polls bots' updates (plain http) rather than taking webhook posts.
    polls: bool,
    tasks: Vec<JoinHandle<()>>,
    dispatcher: JoinHandle<()>,
    stop: tokio::sync::watch::Sender<bool>,
    drain_for: Duration,
}

impl Background {
    /// Lets the event dispatcher finish its attempts in flight (or give their deliveries
    /// back) within the shutdown allowance, and stops the rest at once.
    pub async fn shut_down(self, steps: &Stopping) {
        for t in &self.tasks {
            t.abort();
        }
        steps.step("giving up the leases");
        if self.polls {
            let released = self.services.bot_updates.release_poll_lease(&self.holder);
            given_back("update poller's", released).await;
        }
        given_back("reminder", self.services.reminders.release_reminder_lease(&self.holder)).await;
        given_back("broadcast", self.services.broadcasts.release_broadcast_lease(&self.holder)).await;
        steps.step("finishing the delivery attempts under way");
        let _ = self.stop.send(true);
        let margin = Duration::from_secs(5);
        if tokio::time::timeout(self.drain_for + margin, self.dispatcher).await.is_err() {
            tracing::warn!("the event dispatcher did not stop in time; its leases run out");
        }
    }
}

/// Waits a little for a lease to be given up: one not given up runs out by itself, so a stop
/// does not wait on the database for it.
async fn given_back(lease: &str, release: impl std::future::Future<Output = vp_app::AppResult<()>>) {
    match tokio::time::timeout(LEASE_RELEASE_WITHIN, release).await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => tracing::warn!(error = %e, "could not give up the {lease} lease; it runs out by itself"),
        Err(_) => tracing::warn!("the {lease} lease was not given up in time; it runs out by itself"),
    }
}

/// Starts every background task.
pub fn spawn_all(services: &Services, config: &Config, shifted_clock: Option<Arc<ShiftedClock>>) -> Background {
    let mut tasks =
        vec![
            tokio::spawn(every(JOB_INTERVAL, services.clone(), |services| async move {
                run_periodic_jobs(&services).await
            })),
            tokio::spawn(every(config.term_check_every, services.clone(), |services| async move {
                check_terms(&services).await
            })),
        ];
    if services.notices.messenger().is_some() {
        tasks.push(tokio::spawn(every(NOTICE_INTERVAL, services.clone(), |services| async move {
            deliver_notices(&services).await
        })));
    }
    // Bots' updates: posted to any instance by webhook, or polled by one process at a time.
    let holder = lease_holder();
    let polls = !services.bot_updates.by_webhook();
    if polls {
        tasks.push(tokio::spawn(poll_updates(services.clone(), holder.clone())));
    }
    tasks.push(tokio::spawn(every(
        MAIL_INTERVAL,
        services.clone(),
        |services| async move { send_mail(&services).await },
    )));
    let sender = holder.clone();
    tasks.push(tokio::spawn(rebuild_sales(services.clone(), holder.clone())));
    tasks.push(tokio::spawn(every(REMINDER_INTERVAL, services.clone(), move |services| {
        let holder = sender.clone();
        async move { send_reminders(&services, &holder).await }
    })));
    tasks.push(tokio::spawn(send_broadcasts(services.clone(), holder.clone())));
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let dispatcher = services.clone();
    let capacity = config.delivery_workers * ATTEMPTS_PER_WORKER;
    let drain_for = config.shutdown_after;
    let dispatcher = tokio::spawn(async move { dispatcher.events.run_dispatcher(capacity, stopped, drain_for).await });
    if let Some(clock) = shifted_clock {
        let operator = services.operator.clone();
        tasks.push(tokio::spawn(async move {
            loop {
                clock.refresh(&operator).await;
                tokio::time::sleep(SHIFTED_CLOCK_REFRESH).await;
            }
        }));
    }
    Background { services: services.clone(), holder, polls, tasks, dispatcher, stop, drain_for }
}

async fn every<F, Fut>(period: Duration, services: Services, job: F)
where
    F: Fn(Services) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let mut tick = tokio::time::interval(period);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        job(services.clone()).await;
    }
}

/// The sales figures, when due: the last two days every five minutes, the last 92 once a day,
/// by whichever instance takes the lease first.
async fn rebuild_sales(services: Services, holder: String) {
    let mut tick = tokio::time::interval(SALES_LOOK_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        match services.sales.rebuild_when_due(&holder).await {
            Ok(Some(true)) => tracing::info!("rebuilt the sales figures of the last 92 days"),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "rebuilding the sales figures failed"),
        }
    }
}

async fn deliver_notices(services: &Services) {
    match services.notices.deliver_notices_once(NOTICE_BATCH).await {
        Ok(0) => {}
        Ok(n) => tracing::info!(sent = n, "sent notices to partners' chats"),
        Err(e) => tracing::warn!(error = %e, "notice delivery failed"),
    }
}

/// Polls bots' updates while this process holds the poll lease; waits for it otherwise.
/// Long polling keeps one request per bot open, so an update is handled within a second.
async fn poll_updates(services: Services, holder: String) {
    let mut polling = false;
    // The bot adapter answers polled updates as it answers posted ones.
    let conversations: Arc<dyn vp_ports::BotUpdates> = Arc::new(vp_bots::Conversations::new(&services));
    loop {
        let started = tokio::time::Instant::now();
        let polled = services.bot_updates.poll_bot_updates_once(&holder, UPDATE_POLL_WAIT, conversations.clone());
        match polled.await {
            Ok(Some(n)) => {
                if !polling {
                    tracing::info!(%holder, "this process polls bots' updates");
                    polling = true;
                }
                if n > 0 {
                    tracing::info!(handled = n, "handled bots' updates");
                }
                // A round that handled nothing at once (no bot to poll, or none waited): do not
                // spin. One that handled updates polls again at once: a person is waiting.
                if n == 0 && started.elapsed() < Duration::from_secs(1) {
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
            Ok(None) => {
                polling = false;
                tokio::time::sleep(UPDATE_POLL_PAUSE).await;
            }
            Err(e) => {
                tracing::warn!(error = %e, "polling bots' updates failed");
                tokio::time::sleep(UPDATE_POLL_PAUSE).await;
            }
        }
    }
}

/// This process's name in the leases: the machine's name and the process id (the process id
/// alone repeats across containers).
fn lease_holder() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_owned())
        .ok()
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "host".into());
    format!("{host}:{}", std::process::id())
}

/// Sends a turn of each broadcast being sent, when this process holds the broadcast lease:
/// turn after turn while one is being sent, less and less often while none is.
async fn send_broadcasts(services: Services, holder: String) {
    let mut idle = BROADCAST_INTERVAL;
    loop {
        let started = tokio::time::Instant::now();
        let busy = match services.broadcasts.deliver_once(&holder).await {
            Ok(Some(turn)) => {
                if turn.sent > 0 {
                    tracing::info!(sent = turn.sent, "sent broadcast messages");
                }
                turn.broadcasts > 0
            }
            Ok(None) => false,
            Err(e) => {
                tracing::warn!(error = %e, "sending broadcasts failed");
                false
            }
        };
        let pause = if busy {
            idle = BROADCAST_INTERVAL;
            BROADCAST_INTERVAL.saturating_sub(started.elapsed())
        } else {
            idle = (idle * 2).min(BROADCAST_IDLE);
            idle
        };
        tokio::time::sleep(pause).await;
    }
}

/// Sends the reminders due, when this process holds the reminder lease.
async fn send_reminders(services: &Services, holder: &str) {
    match services.reminders.deliver_reminders_once(holder, REMINDER_BOTS).await {
        Ok(None | Some(0)) => {}
        Ok(Some(n)) => tracing::info!(sent = n, "sent reminders to customers"),
        Err(e) => tracing::warn!(error = %e, "sending reminders failed"),
    }
}

/// The mail outbox: what is due, a batch at a time.
async fn send_mail(services: &Services) {
    match services.mail.deliver_due(MAIL_BATCH).await {
        Ok(0) => {}
        Ok(n) => tracing::debug!(taken = n, "mail outbox round"),
        Err(e) => tracing::warn!(error = %e, "sending mail failed"),
    }
}

/// The term check, then the renewal charges it decided (and the retries that are due), then
/// the traffic notices (on the same cadence: the spec's five minutes by default).
async fn check_terms(services: &Services) {
    match services.events.check_terms().await {
        Ok(done) if done == vp_app::events::TermCheck::default() => {}
        Ok(done) => tracing::info!(?done, "term events checked"),
        Err(e) => tracing::warn!(error = %e, "term check failed"),
    }
    loop {
        match services.renewals.run_due_charges(JOB_BATCH).await {
            Ok(run) if run == vp_app::renewals::RenewalRun::default() => break,
            Ok(run) => tracing::info!(?run, "renewal charges made"),
            Err(e) => {
                tracing::warn!(error = %e, "renewal charges failed");
                break;
            }
        }
    }
    match services.events.check_traffic(&lease_holder()).await {
        Ok(Some(c)) if c.told > 0 || c.unread > 0 => tracing::info!(?c, "traffic counts checked"),
        Ok(_) => {}
        Err(e) => tracing::warn!(error = %e, "the traffic check failed"),
    }
}

/// Every periodic job once, the term check too: the `jobs` command, handy with the shifted clock.
pub async fn run_jobs_once(services: &Services) {
    run_periodic_jobs(services).await;
    check_terms(services).await;
    send_mail(services).await;
}

/// The jobs of the 30-second loop. The term check has a loop of its own: run from both, two
/// checks at once would read and lock the same clients.
async fn run_periodic_jobs(services: &Services) {
    match services.payments.expire_overdue_invoices(JOB_BATCH).await {
        Ok(0) => {}
        Ok(n) => tracing::info!(expired = n, "expired overdue invoices"),
        Err(e) => tracing::warn!(error = %e, "invoice expiry failed"),
    }
    match services.payments.complete_unfinished_invoices(JOB_BATCH).await {
        Ok(0) => {}
        Ok(n) => tracing::info!(completed = n, "completed invoices left unfinished by a crash"),
        Err(e) => tracing::warn!(error = %e, "invoice completion failed"),
    }
    match services.payments.reconcile_pending_payments(JOB_BATCH).await {
        Ok(0) => {}
        Ok(n) => tracing::info!(read = n, "re-read payments still pending at the gateway"),
        Err(e) => tracing::warn!(error = %e, "payment reconciliation failed"),
    }
    match services.panel_sync.sync_panel(JOB_BATCH).await {
        Ok(0) => {}
        Ok(n) => tracing::info!(synced = n, "pushed subscriptions to the VPN panel"),
        Err(e) => tracing::warn!(error = %e, "panel sync failed"),
    }
    match services.bots.sync_bot_profiles(BOT_PROFILE_BATCH).await {
        Ok(0) => {}
        Ok(n) => tracing::info!(synced = n, "brought partners' bots in step with their brands"),
        Err(e) => tracing::warn!(error = %e, "bot profile sync failed"),
    }
    match services.bot_updates.register_bot_webhooks().await {
        Ok(0) => {}
        Ok(n) => tracing::info!(set = n, "told Telegram where bots' updates go"),
        Err(e) => tracing::warn!(error = %e, "setting where bots' updates go failed"),
    }
    match services.payments.check_paid_access(&lease_holder()).await {
        Ok(Some(c)) if c.found > 0 => {
            tracing::error!(
                checked = c.checked,
                found = c.found,
                repaired = c.repaired,
                "invoices paid without the access they bought"
            )
        }
        Ok(Some(c)) => tracing::info!(checked = c.checked, "every invoice paid lately has its access"),
        Ok(None) => {}
        Err(e) => tracing::warn!(error = %e, "the paid-access check failed"),
    }
    if let Err(e) = services.bot_updates.prune_bot_updates().await {
        tracing::warn!(error = %e, "pruning handled bot updates failed");
    }
    if let Err(e) = services.clients.prune_daily_counts().await {
        tracing::warn!(error = %e, "pruning the daily counts failed");
    }
    if let Err(e) = services.cabinet_access.prune().await {
        tracing::warn!(error = %e, "pruning ended cabinet sessions failed");
    }
    if let Err(e) = services.shop.prune_sign_ins().await {
        tracing::warn!(error = %e, "pruning shop sign-in codes and sessions failed");
    }
}

/// `worker`: the background work without the HTTP server, until SIGINT or SIGTERM.
pub async fn run_worker(services: Services, config: &Config, shifted_clock: Option<Arc<ShiftedClock>>) {
    let background = spawn_all(&services, config, shifted_clock);
    tracing::info!(delivery_workers = config.delivery_workers, "worker running");
    terminated().await;
    let steps = Stopping::begin(config.shutdown_after * 2);
    background.shut_down(&steps).await;
}

/// SIGINT (Ctrl-C) or SIGTERM (systemd, container runtimes).
pub(crate) async fn terminated() {
    match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
        Ok(mut term) => {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
        }
        Err(_) => {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}
