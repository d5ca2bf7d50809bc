//! The rolling-restart drills (docs/operations.md, "Several instances"): three `serve` instances
//! on one PostgreSQL and one Redis behind HAProxy with `deploy/haproxy.cfg`, a steady load of
//! keyed `POST /payments` (one in five paid on the sandbox page) and reads through the proxy,
//! a second account asking for invoices above its per-minute limit, and each instance stopped
//! in turn, with SIGTERM in one drill and SIGKILL in the other. A client that retries as our
//! SDKs do sees no failure, each key has one invoice, every paid invoice's event arrives (once
//! after SIGTERM; a delivery cut off by SIGKILL may come again), and the limit holds across the
//! instances. Runs when haproxy is installed (`VP_TEST_HAPROXY=require`, as CI sets, makes it
//! required).

use crate::support;

use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use support::partner::subscription;
use support::receiver::Receiver;
use support::server::{Backend, Server};
use vp_testkit::services::redis_url;

/// HAProxy on `port` in front of `instances`, with the shipped configuration.
struct Proxy {
    child: Child,
    port: u16,
}

impl Proxy {
    fn start(dir: &std::path::Path, instances: &[u16]) -> Proxy {
        let shipped = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../deploy/haproxy.cfg"))
            .expect("deploy/haproxy.cfg");
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut config: Vec<String> = shipped
            .lines()
            .filter(|l| !l.trim_start().starts_with("server "))
            .map(|l| if l.trim() == "bind :8080" { format!("    bind 127.0.0.1:{port}") } else { l.to_owned() })
            .collect();
        for (i, p) in instances.iter().enumerate() {
            config.push(format!("    server vp{} 127.0.0.1:{p} check", i + 1));
        }
        let path = dir.join("haproxy.cfg");
        std::fs::write(&path, config.join("\n") + "\n").unwrap();
        let log = std::fs::File::create(dir.join("haproxy.log")).unwrap();
        let child = Command::new("haproxy")
            .args(["-db", "-f", path.to_str().unwrap()])
            .stdout(Stdio::from(log.try_clone().unwrap()))
            .stderr(Stdio::from(log))
            .spawn()
            .expect("start haproxy");
        Proxy { child, port }
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn haproxy_present() -> bool {
    if support::installed("haproxy") {
        return true;
    }
    assert_ne!(
        std::env::var("VP_TEST_HAPROXY").as_deref(),
        Ok("require"),
        "haproxy is required (apt-get install haproxy)"
    );
    eprintln!("skipped: haproxy is not installed");
    false
}

/// What the load saw.
#[derive(Default)]
struct Seen {
    /// Answers that were not the request's success, before any retry.
    raw_failures: AtomicUsize,
    /// Requests that failed after the retries.
    failed: Mutex<Vec<String>>,
    /// Keys whose invoice was issued.
    issued: Mutex<Vec<String>>,
    reads: AtomicUsize,
    /// Invoices paid on the sandbox page through the proxy.
    paid: Mutex<Vec<String>>,
    /// The limited account's requests admitted (201) and refused (429).
    limited_admitted: AtomicUsize,
    limited_refused: AtomicUsize,
}

/// Whether an SDK retries this answer: no answer at all, `409 OPERATION_IN_PROGRESS`, `429`, `5xx`.
fn retried(status: Option<u16>, body: &str) -> bool {
    match status {
        None => true,
        Some(409) => body.contains("OPERATION_IN_PROGRESS"),
        Some(429) => true,
        Some(s) => s >= 500,
    }
}

/// One request through the proxy, retried as the SDKs do (3 retries, 0.5 s, 1 s, 2 s apart);
/// the answer's status and body.
fn with_retries(
    seen: &Seen,
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Result<(u16, String), String> {
    let url = if path.starts_with("/sandbox/") {
        format!("http://127.0.0.1:{port}{path}")
    } else {
        format!("http://127.0.0.1:{port}/api/partner/v1{path}")
    };
    let mut last = String::new();
    for (attempt, pause) in [0u64, 500, 1_000, 2_000].into_iter().enumerate() {
        std::thread::sleep(Duration::from_millis(pause));
        let answer = vp_testkit::http::send(method, &url, headers, body);
        let (status, text) = match &answer {
            Ok(a) => (Some(a.status), String::from_utf8_lossy(&a.body).into_owned()),
            Err(e) => (None, e.to_string()),
        };
        if let Some(ok @ (200 | 201 | 303)) = status {
            return Ok((ok, text));
        }
        seen.raw_failures.fetch_add(1, Ordering::Relaxed);
        last = format!("attempt {attempt}: {status:?} {text}");
        if !retried(status, &text) {
            break;
        }
    }
    Err(last)
}

/// How the drill stops each instance in turn.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// SIGTERM, as systemd and Kubernetes do: the instance drains, then exits.
    Term,
    /// SIGKILL: the instance dies with requests in flight.
    Kill,
}

/// What a drill saw through the proxy.
struct Drill {
    issued: Vec<String>,
    failed: Vec<String>,
    raw_failures: usize,
    reads: usize,
    /// Invoices of the loaded account in the database.
    invoices: usize,
    /// Paid invoices, and how many `payment.succeeded` deliveries each event got.
    paid: Vec<String>,
    deliveries: std::collections::HashMap<String, usize>,
    /// The limited account's (30 invoices a minute) requests admitted and refused.
    limited: (usize, usize),
    /// Deadlocks PostgreSQL counted in the drill's database while it ran, and the instances'
    /// log lines about units of work the database aborted.
    deadlocks: i64,
    aborted_units: Vec<String>,
}

/// Invoices a minute the limited account may create in the drill.
const LIMITED_PER_MINUTE: usize = 30;

/// Deadlocks PostgreSQL has counted in `s`'s database so far.
fn deadlocks(s: &Server) -> i64 {
    let rows = s.db.query_sql("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()");
    rows.first().and_then(|n| n.parse().ok()).unwrap_or_default()
}

/// Three instances on one PostgreSQL and one Redis behind HAProxy under a steady keyed load of
/// `clients` clients, each stopped (`how`) and started again in turn.
fn drill(name: &str, how: Stop, clients: usize) -> Option<Drill> {
    if !haproxy_present() {
        return None;
    }
    let redis = redis_url()?;
    let env =
        [("VP_REDIS_URL", redis.as_str()), ("VP_DRAIN_SECONDS", "2"), ("VP_WEBHOOK_ALLOW_ADDRESSES", "127.0.0.1")];
    let mut first = Server::start_with(Backend::Postgres, name, &env)?;
    // The drill's load is above the spec's default 60 invoices a minute.
    let raise =
        ["--payments-per-minute", "100000", "--requests-per-minute", "100000", "--new-clients-per-day", "100000"];
    let mut limits = vec!["account", "limits", first.account_id.as_str()];
    limits.extend(raise);
    first.cli_settled(&limits);
    // A gateway that takes as long as YooKassa's API does, so stops meet requests in flight.
    first.cli(&["sandbox", "gateway", "slow:300"]);
    // Every payment.succeeded goes to a receiver; a second account keeps the spec's kind of limit.
    let receiver = Receiver::start();
    first.cli(&["endpoint", "add", &first.account_id, &receiver.url, "--type", "payment.succeeded"]);
    let other = first.cli(&["account", "create", "--brand", "Limited"]);
    let limited_id = other["account"]["account_id"].as_str().unwrap().to_owned();
    let limited_key = other["api_key"]["api_key"].as_str().unwrap().to_owned();
    let per_minute = LIMITED_PER_MINUTE.to_string();
    first.cli_settled(&["account", "limits", &limited_id, "--payments-per-minute", &per_minute]);
    let mut second = first.another_instance();
    let mut third = first.another_instance();
    let proxy = Proxy::start(first.db.dir(), &[first.port, second.port, third.port]);
    let deadline = Instant::now() + Duration::from_secs(20);
    while vp_testkit::http::send("GET", &format!("http://127.0.0.1:{}/ready", proxy.port), &[], b"")
        .map(|a| a.status)
        .ok()
        != Some(200)
    {
        assert!(Instant::now() < deadline, "haproxy did not come up");
        std::thread::sleep(Duration::from_millis(100));
    }

    let deadlocks_before = deadlocks(&first);
    let seen = Seen::default();
    let stop = AtomicBool::new(false);
    let auth = format!("Bearer {}", first.key);
    std::thread::scope(|scope| {
        for worker in 0..clients {
            let (seen, stop, auth, port) = (&seen, &stop, auth.as_str(), proxy.port);
            scope.spawn(move || {
                let mut i = 0;
                while !stop.load(Ordering::Relaxed) {
                    i += 1;
                    let key = format!("drill-{worker}-{i}");
                    let body = subscription(&format!("drill-client-{worker}-{i}"), 1).to_string();
                    let headers = [
                        ("authorization", auth),
                        ("content-type", "application/json"),
                        ("idempotency-key", key.as_str()),
                    ];
                    match with_retries(seen, port, "POST", "/payments", &headers, body.as_bytes()) {
                        Ok((_, invoice)) => {
                            seen.issued.lock().unwrap().push(key);
                            // One invoice in five is paid on the sandbox page, through the proxy.
                            let id = serde_json::from_str::<serde_json::Value>(&invoice).unwrap()["payment_id"]
                                .as_str()
                                .unwrap()
                                .to_owned();
                            if i % 5 == 0 {
                                let form = [("content-type", "application/x-www-form-urlencoded")];
                                let page = format!("/sandbox/pay/{id}");
                                match with_retries(seen, port, "POST", &page, &form, b"action=pay") {
                                    Ok(_) => seen.paid.lock().unwrap().push(id),
                                    Err(e) => seen.failed.lock().unwrap().push(format!("paying {id}: {e}")),
                                }
                            }
                        }
                        Err(e) => seen.failed.lock().unwrap().push(format!("{key}: {e}")),
                    }
                    match with_retries(seen, port, "GET", "/account", &[("authorization", auth)], b"") {
                        Ok(_) => {
                            seen.reads.fetch_add(1, Ordering::Relaxed);
                        }
                        Err(e) => seen.failed.lock().unwrap().push(format!("GET /account: {e}")),
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
            });
        }
        // The limited account asks for invoices from three clients at once, well above its
        // limit: never more than the limit within a minute is admitted, whichever instance
        // answers.
        for client in 0..3 {
            let (seen, stop, port, limited) = (&seen, &stop, proxy.port, format!("Bearer {limited_key}"));
            scope.spawn(move || {
                let url = format!("http://127.0.0.1:{port}/api/partner/v1/payments");
                let mut i = 0;
                while !stop.load(Ordering::Relaxed) {
                    i += 1;
                    let key = format!("limited-{client}-{i}");
                    let body = subscription(&format!("limited-client-{client}-{i}"), 1).to_string();
                    let headers = [
                        ("authorization", limited.as_str()),
                        ("content-type", "application/json"),
                        ("idempotency-key", key.as_str()),
                    ];
                    match vp_testkit::http::send("POST", &url, &headers, body.as_bytes()).map(|a| a.status) {
                        Ok(201) => seen.limited_admitted.fetch_add(1, Ordering::Relaxed),
                        Ok(429) => seen.limited_refused.fetch_add(1, Ordering::Relaxed),
                        _ => 0,
                    };
                    std::thread::sleep(Duration::from_millis(100));
                }
            });
        }
        std::thread::sleep(Duration::from_secs(2));
        match how {
            Stop::Term => {
                assert_eq!(first.restart_gracefully(), Some(0), "a clean exit");
                std::thread::sleep(Duration::from_secs(2));
                assert_eq!(second.restart_gracefully(), Some(0));
                std::thread::sleep(Duration::from_secs(2));
                assert_eq!(third.restart_gracefully(), Some(0));
            }
            Stop::Kill => {
                first.kill_and_restart();
                std::thread::sleep(Duration::from_secs(2));
                second.kill_and_restart();
                std::thread::sleep(Duration::from_secs(2));
                third.kill_and_restart();
            }
        }
        // Long enough for the last retries (3.5 s) of requests cut off by the last stop.
        std::thread::sleep(Duration::from_secs(4));
        stop.store(true, Ordering::Relaxed);
    });

    let own = format!("SELECT COUNT(*) FROM invoices WHERE account_id = '{}'", first.account_id);
    let invoices = first.db.query_sql(&own);
    // Every paid invoice's payment.succeeded arrives: a delivery a killed instance had claimed
    // goes out again once its lease (60 s) runs out, hence the bound.
    let paid = seen.paid.into_inner().unwrap();
    let mut deliveries = std::collections::HashMap::<String, usize>::new();
    let mut events_of = std::collections::HashSet::<String>::new();
    let deadline = Instant::now() + Duration::from_secs(150);
    while events_of.len() < paid.len() && Instant::now() < deadline {
        for d in receiver.drain() {
            let event = d.json();
            events_of.insert(event["data"]["payment_id"].as_str().unwrap_or_default().to_owned());
            *deliveries.entry(d.header("webhook-id").to_owned()).or_default() += 1;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    // Late duplicates, if any, would come within the delivery lease's retry.
    std::thread::sleep(Duration::from_secs(2));
    for d in receiver.drain() {
        *deliveries.entry(d.header("webhook-id").to_owned()).or_default() += 1;
    }
    let missing: Vec<&String> = paid.iter().filter(|p| !events_of.contains(*p)).collect();
    assert!(missing.is_empty(), "paid invoices without their payment.succeeded: {missing:?}");
    let logs = [first.log(), second.log(), third.log()].concat();
    let aborted_units = logs
        .lines()
        .filter(|l| l.contains("aborted by the database") || l.contains("deadlock"))
        .map(str::to_owned)
        .collect();
    Some(Drill {
        deadlocks: deadlocks(&first) - deadlocks_before,
        aborted_units,
        paid,
        deliveries,
        limited: (seen.limited_admitted.into_inner(), seen.limited_refused.into_inner()),
        issued: seen.issued.into_inner().unwrap(),
        failed: seen.failed.into_inner().unwrap(),
        raw_failures: seen.raw_failures.into_inner(),
        reads: seen.reads.into_inner(),
        invoices: invoices[0].parse().unwrap(),
    })
}

#[test]
fn three_instances_behind_haproxy_restarted_in_turn_with_sigterm_fail_no_request() {
    let Some(d) = drill("rolling", Stop::Term, 4) else { return };
    eprintln!(
        "rolling restart (SIGTERM): {} invoices and {} reads through HAProxy, {} raw failures before retries, {} failed",
        d.issued.len(),
        d.reads,
        d.raw_failures,
        d.failed.len()
    );
    assert!(d.failed.is_empty(), "a retrying client saw failures: {:#?}", d.failed);
    assert_eq!(d.deadlocks, 0, "no lock cycle: {:#?}", d.aborted_units);
    assert!(d.issued.len() > 50, "a steady load ran through the restarts: {}", d.issued.len());
    assert_eq!(d.invoices, d.issued.len(), "one invoice per key");
    assert!(!d.paid.is_empty(), "invoices were paid during the restarts");
    let twice: Vec<_> = d.deliveries.iter().filter(|(_, n)| **n != 1).collect();
    assert!(twice.is_empty() && d.deliveries.len() == d.paid.len(), "each event delivered once: {twice:?}");
    assert_eq!(d.limited.0, LIMITED_PER_MINUTE, "exactly the per-minute limit across the instances: {:?}", d.limited);
    assert!(d.limited.1 > 0, "the limit refused the rest: {:?}", d.limited);
}

#[test]
fn three_instances_behind_haproxy_killed_in_turn_fail_no_request_of_a_client_that_retries() {
    // Twelve clients, as the operator who found the deadlock of docs/decisions.md ("Lock order").
    let Some(d) = drill("rolling_kill", Stop::Kill, 12) else { return };
    eprintln!(
        "rolling restart (SIGKILL): {} invoices and {} reads through HAProxy, {} raw failures before retries, {} failed",
        d.issued.len(),
        d.reads,
        d.raw_failures,
        d.failed.len()
    );
    assert!(d.failed.is_empty(), "a client retrying as the SDKs do saw failures: {:#?}", d.failed);
    assert!(d.issued.len() > 50, "a steady load ran through the kills: {}", d.issued.len());
    assert_eq!(d.deadlocks, 0, "no lock cycle: {:#?}", d.aborted_units);
    assert!(d.aborted_units.is_empty(), "no unit of work aborted by the database: {:#?}", d.aborted_units);
    // A request cut off after its key was taken but before its invoice was written leaves a
    // key with no invoice only until its retry resumes it: every issued key has one invoice.
    assert_eq!(d.invoices, d.issued.len(), "one invoice per key");
    // A delivery in flight when its instance died is delivered again (at least once); a
    // request killed after the limit admitted it used its place.
    let again = d.deliveries.values().filter(|n| **n > 1).count();
    eprintln!(
        "rolling restart (SIGKILL): {} events for {} paid invoices, {again} delivered more than once; limited account: {} admitted, {} refused",
        d.deliveries.len(),
        d.paid.len(),
        d.limited.0,
        d.limited.1
    );
    assert_eq!(d.deliveries.len(), d.paid.len(), "every paid invoice's event arrived");
    assert!(
        d.limited.0 <= LIMITED_PER_MINUTE && d.limited.0 + 3 >= LIMITED_PER_MINUTE,
        "never above the limit, at most one place lost per kill: {:?}",
        d.limited
    );
}
