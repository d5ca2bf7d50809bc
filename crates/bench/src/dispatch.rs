//! The dispatch phase: event delivery measured end to end on SQLite and PostgreSQL. Invoices
//! are paid on the sandbox page with a partner endpoint on a loopback receiver in this process.
//! Steady: the lag from each payment to the receipt of its `payment.succeeded`. Burst: every
//! first attempt is answered 500 with `Retry-After: 3600`, the operator's shifted clock is moved
//! two hours, and the retries, all due at once, are timed from the first to the last receipt.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::client::Conn;
use crate::service::{Backend, Database, Service, free_port};
use crate::stats::Samples;

/// What the receiver saw: per invoice id, when each attempt arrived.
#[derive(Default)]
pub struct Receipts {
    fail_first: AtomicBool,
    arrivals: Mutex<HashMap<String, Vec<Instant>>>,
}

impl Receipts {
    pub fn count_with(&self, attempts: usize) -> usize {
        self.arrivals.lock().map_or(0, |a| a.values().filter(|v| v.len() >= attempts).count())
    }

    /// From each payment in `paid` (invoice id, when it was made) to its event's first arrival.
    pub fn lags(&self, paid: &HashMap<String, Instant>) -> Samples {
        let mut lags = Samples::default();
        if let Ok(arrivals) = self.arrivals.lock() {
            for (id, at) in paid {
                if let Some(first) = arrivals.get(id).and_then(|v| v.first()) {
                    lags.latencies.push(first.saturating_duration_since(*at));
                }
            }
        }
        lags
    }

    /// The invoice ids with at least one event received.
    pub fn ids(&self) -> HashSet<String> {
        self.arrivals.lock().map(|a| a.keys().cloned().collect()).unwrap_or_default()
    }
}

/// A partner's endpoint that answers at once (200, or 500 to a first attempt when asked to) on
/// `http://127.0.0.1:PORT/hooks`; its port.
pub fn start_receiver(receipts: Arc<Receipts>) -> Result<u16, String> {
    let port = free_port()?;
    std::thread::spawn(move || {
        let sys = actix_web::rt::System::new();
        sys.block_on(async move {
            let data = actix_web::web::Data::from(receipts);
            let server = actix_web::HttpServer::new(move || {
                actix_web::App::new().app_data(data.clone()).route(
                    "/hooks",
                    actix_web::web::post().to(
                        |body: actix_web::web::Bytes, receipts: actix_web::web::Data<Receipts>| async move {
                            let event: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
                            let id = event["data"]["payment_id"].as_str().unwrap_or_default().to_owned();
                            let attempt = {
                                let Ok(mut all) = receipts.arrivals.lock() else {
                                    return actix_web::HttpResponse::InternalServerError().finish();
                                };
                                let seen = all.entry(id).or_default();
                                seen.push(Instant::now());
                                seen.len()
                            };
                            if attempt == 1 && receipts.fail_first.load(Ordering::SeqCst) {
                                actix_web::HttpResponse::InternalServerError()
                                    .insert_header(("retry-after", "3600"))
                                    .finish()
                            } else {
                                actix_web::HttpResponse::Ok().finish()
                            }
                        },
                    ),
                )
            })
            .workers(1)
            .bind(("127.0.0.1", port));
            if let Ok(s) = server {
                let _ = s.run().await;
            }
        });
    });
    Ok(port)
}

/// Issues and pays `count` invoices over `connections` connections; returns when each payment
/// was made, by invoice id.
pub(crate) async fn pay_invoices(
    service: &Service,
    count: usize,
    connections: usize,
    tag: &str,
) -> HashMap<String, Instant> {
    let paid = Arc::new(Mutex::new(HashMap::new()));
    let next = Arc::new(AtomicU64::new(0));
    let auth = format!("Bearer {}", service.key);
    let mut tasks = Vec::new();
    for _ in 0..connections {
        let (paid, next, auth, tag, port) = (paid.clone(), next.clone(), auth.clone(), tag.to_owned(), service.port);
        tasks.push(tokio::spawn(async move {
            let Ok(mut conn) = Conn::open(port).await else { return };
            loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                if n >= count as u64 {
                    return;
                }
                let key = format!("dispatch-{tag}-{n}");
                let body = format!(r#"{{"client_id":"{key}","purpose":"subscription","plan_id":1,"method":"card"}}"#);
                let headers =
                    [("authorization", auth.as_str()), ("content-type", "application/json"), ("idempotency-key", &key)];
                let Ok(reply) = conn.send("POST", "/api/partner/v1/payments", &headers, body.as_bytes()).await else {
                    return;
                };
                let invoice: serde_json::Value = serde_json::from_slice(&reply.body).unwrap_or_default();
                let Some(id) = invoice["payment_id"].as_str() else { continue };
                let form = [("content-type", "application/x-www-form-urlencoded")];
                let at = Instant::now();
                if conn
                    .send("POST", &format!("/sandbox/pay/{id}"), &form, b"action=pay")
                    .await
                    .is_ok_and(|r| r.status == 303)
                {
                    if let Ok(mut p) = paid.lock() {
                        p.insert(id.to_owned(), at);
                    }
                }
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    Arc::try_unwrap(paid).ok().and_then(|m| m.into_inner().ok()).unwrap_or_default()
}

pub(crate) async fn wait_for(receipts: &Receipts, attempts: usize, count: usize, within: Duration) -> bool {
    let deadline = Instant::now() + within;
    while receipts.count_with(attempts) < count {
        if Instant::now() > deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    true
}

/// One backend's numbers.
pub struct DispatchRun {
    pub steady_payments: usize,
    pub lag_p50: Duration,
    pub lag_p99: Duration,
    pub burst: usize,
    pub burst_per_second: f64,
    pub burst_span: Duration,
}

/// Runs both phases on a fresh database of `backend`.
pub async fn run(backend: Backend, steady: usize, burst: usize) -> Result<DispatchRun, String> {
    let name = backend.name();
    let receipts = Arc::new(Receipts::default());
    let receiver = start_receiver(receipts.clone())?;
    let env = [
        ("VP_SHIFTED_CLOCK", "on"),
        ("VP_WEBHOOK_ALLOW_ADDRESSES", "127.0.0.1"),
        ("VP_DELIVERY_WORKERS", "8"),
        ("VP_LOG", "error"),
    ];
    let service = Service::start(Database::fresh(backend, "dispatch")?, &env).await?;
    let hooks = format!("http://127.0.0.1:{receiver}/hooks");
    service.cli(&["endpoint", "add", &service.account, &hooks, "--type", "payment.succeeded"])?;

    let paid = pay_invoices(&service, steady, 8, "steady").await;
    if !wait_for(&receipts, 1, paid.len(), Duration::from_secs(60)).await {
        return Err(format!("{name}: not every payment.succeeded arrived within a minute"));
    }
    let mut lags = receipts.lags(&paid);

    receipts.fail_first.store(true, Ordering::SeqCst);
    let failing = pay_invoices(&service, burst, 8, "burst").await;
    let total = paid.len() + failing.len();
    if !wait_for(&receipts, 1, total, Duration::from_secs(120)).await {
        return Err(format!("{name}: the first attempts of the burst did not all arrive"));
    }
    // Every retry of the burst falls due at the same moment of the shifted clock.
    service.cli(&["clock", "advance", "2h"])?;
    if !wait_for(&receipts, 2, failing.len(), Duration::from_secs(120)).await {
        return Err(format!("{name}: the burst's retries did not all arrive within two minutes"));
    }
    let seconds: Vec<Instant> = receipts
        .arrivals
        .lock()
        .map(|a| failing.keys().filter_map(|id| a.get(id).and_then(|v| v.get(1)).copied()).collect())
        .unwrap_or_default();
    let (first, last) = (seconds.iter().min().copied(), seconds.iter().max().copied());
    let span = match (first, last) {
        (Some(f), Some(l)) => l.saturating_duration_since(f),
        _ => Duration::ZERO,
    };
    let per_second = if span.is_zero() { 0.0 } else { seconds.len().saturating_sub(1) as f64 / span.as_secs_f64() };
    Ok(DispatchRun {
        steady_payments: paid.len(),
        lag_p50: lags.percentile(0.50),
        lag_p99: lags.percentile(0.99),
        burst: seconds.len(),
        burst_per_second: per_second,
        burst_span: span,
    })
}
