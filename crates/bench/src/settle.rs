//! The settle phase: settlement as partners' customers load it. `invoices` card invoices are
//! created over the API by 16 connections at once, spread over `accounts` partner accounts,
//! then paid on the sandbox page by 16 connections at once (each payment settles before the
//! page answers). Both are timed, so the settling rate is read against the creating rate of
//! the same run, for one account and for many. Beside each rate stands the machine's CPU time
//! per invoice (service, database and bench together): on a CPU-bound 2-core machine shared
//! with others the rates swing by a quarter from run to run, the CPU time much less.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::client::Conn;
use crate::service::{Backend, Database, Service};
use crate::stats::Samples;

/// Connections creating, then paying, at once.
pub const CONNECTIONS: usize = 16;

pub struct SettleRun {
    pub accounts: usize,
    pub invoices: usize,
    pub created_per_second: f64,
    pub settled_per_second: f64,
    pub settle_p50: Duration,
    pub settle_p99: Duration,
    /// The machine's busy CPU time per invoice created, and per invoice settled.
    pub created_cpu: Duration,
    pub settled_cpu: Duration,
    /// Creations or payments not answered as expected (must be 0).
    pub failed: usize,
}

pub async fn run(backend: Backend, accounts: usize, invoices: usize) -> Result<SettleRun, String> {
    let db = Database::fresh(backend, &format!("settle{accounts}"))?;
    let service = Service::start(db, &[("VP_LOG", "error")]).await?;
    let mut keys = vec![service.key.clone()];
    for i in 1..accounts {
        keys.push(service.new_partner(&format!("Settle Partner {i}"))?);
    }
    let keys = Arc::new(keys);

    let (started, cpu) = (Instant::now(), busy_cpu());
    let (ids, _, create_failed) = in_parallel(service.port, invoices, {
        let keys = keys.clone();
        move |n| {
            let client = format!("settle-{n}");
            let body = format!(r#"{{"client_id":"{client}","purpose":"subscription","plan_id":1,"method":"card"}}"#);
            let auth = format!("Bearer {}", keys[n % keys.len()]);
            let headers = vec![
                ("authorization".to_owned(), auth),
                ("content-type".to_owned(), "application/json".to_owned()),
                ("idempotency-key".to_owned(), client),
            ];
            ("POST", "/api/partner/v1/payments".to_owned(), headers, body.into_bytes(), 201)
        }
    })
    .await;
    let (creating, created_cpu) = (started.elapsed(), busy_cpu().saturating_sub(cpu));
    let ids = Arc::new(ids);

    let (started, cpu) = (Instant::now(), busy_cpu());
    let (_, mut samples, pay_failed) = in_parallel(service.port, ids.len(), {
        let ids = ids.clone();
        move |n| {
            let headers = vec![("content-type".to_owned(), "application/x-www-form-urlencoded".to_owned())];
            ("POST", format!("/sandbox/pay/{}", ids[n]), headers, b"action=pay".to_vec(), 303)
        }
    })
    .await;
    let (settling, settled_cpu) = (started.elapsed(), busy_cpu().saturating_sub(cpu));
    let each = |cpu: Duration, n: usize| cpu / (n.max(1) as u32);
    Ok(SettleRun {
        accounts,
        invoices: ids.len(),
        created_per_second: ids.len() as f64 / creating.as_secs_f64().max(0.001),
        settled_per_second: samples.latencies.len() as f64 / settling.as_secs_f64().max(0.001),
        settle_p50: samples.percentile(0.50),
        settle_p99: samples.percentile(0.99),
        created_cpu: each(created_cpu, invoices),
        settled_cpu: each(settled_cpu, samples.latencies.len()),
        failed: create_failed + pay_failed,
    })
}

/// The machine's busy CPU time so far (all cores; idle, I/O wait and time stolen by the
/// host not counted), from /proc/stat; zero where there is none.
fn busy_cpu() -> Duration {
    // /proc/stat counts in USER_HZ ticks, 100 a second on Linux.
    const TICK_MS: u64 = 10;
    let stat = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let ticks: Vec<u64> = stat
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("cpu "))
        .map(|l| l.split_whitespace().filter_map(|t| t.parse().ok()).collect())
        .unwrap_or_default();
    // user, nice, system, idle, iowait, irq, softirq, steal, ...
    let busy: u64 = [0, 1, 2, 5, 6].iter().filter_map(|&i| ticks.get(i)).sum();
    Duration::from_millis(busy * TICK_MS)
}

type Planned = (&'static str, String, Vec<(String, String)>, Vec<u8>, u16);

/// Sends requests 0..count, each as `plan` makes it, over `CONNECTIONS` connections; returns
/// the `payment_id`s the answers carried, the latencies of those answered with the expected
/// status, and how many were not.
async fn in_parallel<F>(port: u16, count: usize, plan: F) -> (Vec<String>, Samples, usize)
where
    F: Fn(usize) -> Planned + Send + Sync + 'static,
{
    let plan = Arc::new(plan);
    let next = Arc::new(AtomicUsize::new(0));
    let found = Arc::new(Mutex::new((Vec::new(), Samples::default(), 0usize)));
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..CONNECTIONS {
        let (plan, next, found) = (plan.clone(), next.clone(), found.clone());
        tasks.spawn(async move {
            let Ok(mut conn) = Conn::open(port).await else {
                return;
            };
            loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                if n >= count {
                    return;
                }
                let (method, path, headers, body, expected) = plan(n);
                let headers: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
                let at = Instant::now();
                let reply = conn.send(method, &path, &headers, &body).await;
                let took = at.elapsed();
                let Ok(mut found) = found.lock() else { return };
                match reply {
                    Ok(r) if r.status == expected => {
                        found.1.latencies.push(took);
                        let answer: serde_json::Value = serde_json::from_slice(&r.body).unwrap_or_default();
                        if let Some(id) = answer["payment_id"].as_str() {
                            found.0.push(id.to_owned());
                        }
                    }
                    _ => found.2 += 1,
                }
            }
        });
    }
    while tasks.join_next().await.is_some() {}
    let mut found = found.lock().map(|mut f| std::mem::take(&mut *f)).unwrap_or_default();
    // Connections that could not open left their share unsent.
    let sent = found.1.latencies.len() + found.2;
    found.2 += count.saturating_sub(sent);
    found
}
