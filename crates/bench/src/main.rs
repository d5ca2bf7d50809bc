//! `just bench`: starts the real service on a fresh SQLite database and a bare actix-web JSON
//! route in this process, drives both over loopback, and prints requests/s and p50/p99 per
//! endpoint with the targets as ratios measured in the same run. `--short` (CI) only checks that
//! the harness runs end to end.

mod client;
mod dispatch;
mod stats;

use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use client::Conn;
use stats::Table;

struct Options {
    duration: Duration,
    connections: usize,
    short: bool,
}

fn options() -> Result<Options, String> {
    let mut o = Options { duration: Duration::from_secs(10), connections: 32, short: false };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--short" => {
                o.short = true;
                o.duration = Duration::from_secs(1);
                o.connections = 4;
            }
            "--seconds" => {
                o.duration =
                    Duration::from_secs(args.next().and_then(|v| v.parse().ok()).ok_or("--seconds needs a number")?)
            }
            "--connections" => {
                o.connections =
                    args.next().and_then(|v| v.parse().ok()).filter(|n| *n > 0).ok_or("--connections needs a number")?
            }
            other => return Err(format!("unknown argument {other}; use --short, --seconds N, --connections N")),
        }
    }
    Ok(o)
}

/// The service under test, stopped on drop.
struct Service {
    child: Child,
    port: u16,
    key: String,
    account: String,
    bin: std::path::PathBuf,
    db: String,
    env: Vec<(String, String)>,
    dir: std::path::PathBuf,
}

impl Drop for Service {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Service {
    /// Runs an operator command against the service's database (with its settings).
    fn cli(&self, args: &[&str]) -> Result<serde_json::Value, String> {
        let env: Vec<(&str, &str)> = self.env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        cli(&self.bin, &self.db, &env, args)
    }
}

fn free_port() -> Result<u16, String> {
    std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).map_err(|e| e.to_string())
}

fn vp_api() -> Result<std::path::PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let path = exe.with_file_name("vp-api");
    if path.exists() {
        Ok(path)
    } else {
        Err(format!("{} not found: build it first (just bench does)", path.display()))
    }
}

fn cli(bin: &std::path::Path, db: &str, env: &[(&str, &str)], args: &[&str]) -> Result<serde_json::Value, String> {
    let out = Command::new(bin)
        .args(args)
        .env("DATABASE_URL", db)
        .env("VP_LOG", "warn")
        .envs(env.iter().copied())
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("vp-api {args:?}: {}", String::from_utf8_lossy(&out.stderr)));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())
}

/// A fresh SQLite database in a directory of its own; returns (directory, URL).
fn fresh_sqlite(name: &str) -> Result<(std::path::PathBuf, String), String> {
    let dir = std::env::temp_dir().join(format!("vp-bench-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let db = format!("sqlite://{}", dir.join("bench.sqlite").display());
    Ok((dir, db))
}

fn start_service() -> Result<Service, String> {
    let (dir, db) = fresh_sqlite("api")?;
    start_service_on(dir, db, &[])
}

/// Seeds the demo on `db`, lifts the demo partner's limits and starts `vp-api serve`; every
/// process on it runs with `env`.
fn start_service_on(dir: std::path::PathBuf, db: String, env: &[(&str, &str)]) -> Result<Service, String> {
    let bin = vp_api()?;
    let demo = cli(&bin, &db, env, &["demo"])?;
    let key = demo["api_key"]["api_key"].as_str().ok_or("no demo key")?.to_owned();
    let account = demo["account"]["account_id"].as_str().ok_or("no demo account")?.to_owned();
    let big = "1000000000";
    cli(
        &bin,
        &db,
        env,
        &[
            "account",
            "limits",
            &account,
            "--requests-per-minute",
            big,
            "--payments-per-minute",
            big,
            "--new-clients-per-day",
            big,
        ],
    )?;
    let port = free_port()?;
    let child = Command::new(&bin)
        .arg("serve")
        .env("DATABASE_URL", &db)
        .env("VP_BIND", format!("127.0.0.1:{port}"))
        .env("VP_LOG", "warn")
        .envs(env.iter().copied())
        .stdout(Stdio::null())
        .spawn()
        .map_err(|e| e.to_string())?;
    let env = env.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
    Ok(Service { child, port, key, account, bin, db, env, dir })
}

async fn wait_up(port: u16) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok(mut c) = Conn::open(port).await {
            if c.send("GET", "/health", &[], b"").await.is_ok_and(|r| r.status == 200) {
                return Ok(());
            }
        }
        if Instant::now() > deadline {
            return Err(format!("nothing answers on port {port}"));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A request a worker sends; `None` ends nothing, it only skips.
type Pick = Arc<dyn Fn(u64) -> (&'static str, &'static str, String, Vec<u8>) + Send + Sync>;

const PHASE_SHIFT: u32 = 32;
const PAYMENTS_PHASE: u64 = 2;

/// Runs `connections` workers for `duration`, each sending what `pick` chooses.
async fn drive(
    port: u16,
    auth: Option<String>,
    connections: usize,
    duration: Duration,
    pick: Pick,
    phase: u64,
) -> (Table, Duration) {
    // Request numbers (and so idempotency keys and client ids) never repeat across phases.
    let counter = Arc::new(AtomicU64::new(phase << PHASE_SHIFT));
    let start = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..connections {
        let (pick, counter, auth) = (pick.clone(), counter.clone(), auth.clone());
        tasks.push(tokio::spawn(async move {
            let mut table = Table::new();
            let Ok(mut conn) = Conn::open(port).await else { return table };
            while start.elapsed() < duration {
                let n = counter.fetch_add(1, Ordering::Relaxed);
                let (name, method, path, body) = pick(n);
                let key = format!("bench-{n}");
                let mut headers = vec![("content-type", "application/json"), ("idempotency-key", key.as_str())];
                if let Some(a) = &auth {
                    headers.push(("authorization", a.as_str()));
                }
                let t = Instant::now();
                let reply = conn.send(method, &path, &headers, &body).await;
                let s = table.entry(name).or_default();
                match reply {
                    Ok(r) if r.status < 300 => s.latencies.push(t.elapsed()),
                    Ok(_) => s.errors += 1,
                    Err(_) => {
                        s.errors += 1;
                        match Conn::open(port).await {
                            Ok(c) => conn = c,
                            Err(_) => break,
                        }
                    }
                }
            }
            table
        }));
    }
    let mut all = Table::new();
    for t in tasks {
        if let Ok(table) = t.await {
            for (k, v) in table {
                all.entry(k).or_default().merge(v);
            }
        }
    }
    (all, start.elapsed())
}

fn rate(table: &Table, name: &str, elapsed: Duration) -> f64 {
    table.get(name).map_or(0.0, |s| s.latencies.len() as f64 / elapsed.as_secs_f64())
}

fn resident_peak_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

fn start_bare() -> Result<u16, String> {
    let port = free_port()?;
    std::thread::spawn(move || {
        let sys = actix_web::rt::System::new();
        sys.block_on(async move {
            let server = actix_web::HttpServer::new(|| {
                actix_web::App::new()
                    .route("/health", actix_web::web::get().to(|| async { actix_web::HttpResponse::Ok().json(serde_json::json!({"status": "ok"})) }))
                    .route(
                        "/bare",
                        actix_web::web::get().to(|| async {
                            actix_web::HttpResponse::Ok().json(serde_json::json!({"brand_name": "Bare", "markup_percent": "0.00", "trial_enabled": true, "currency": "RUB"}))
                        }),
                    )
            })
            .bind(("127.0.0.1", port));
            if let Ok(s) = server {
                let _ = s.run().await;
            }
        });
    });
    Ok(port)
}

fn subscribe_body(n: u64) -> Vec<u8> {
    format!(r#"{{"client_id":"bench-{n}","purpose":"subscription","plan_id":1,"method":"card"}}"#).into_bytes()
}

async fn run(o: Options) -> Result<bool, String> {
    let service = start_service()?;
    let bare = start_bare()?;
    wait_up(service.port).await?;
    wait_up(bare).await?;
    let auth = Some(format!("Bearer {}", service.key));
    let d = o.duration;

    let (mut t, e) = drive(
        bare,
        None,
        o.connections,
        d,
        Arc::new(|_| ("GET /bare (actix-web alone)", "GET", "/bare".into(), vec![])),
        0,
    )
    .await;
    let bare_rps = rate(&t, "GET /bare (actix-web alone)", e);
    stats::print("Bare actix-web JSON route", &mut t, e);

    let (mut t, e) = drive(
        service.port,
        auth.clone(),
        o.connections,
        d,
        Arc::new(|_| ("GET /account", "GET", "/api/partner/v1/account".into(), vec![])),
        1,
    )
    .await;
    let account_rps = rate(&t, "GET /account", e);
    let account_errors = t.values().map(|s| s.errors).sum::<u64>();
    stats::print("GET /account", &mut t, e);

    let (mut t, e) = drive(
        service.port,
        auth.clone(),
        o.connections,
        d,
        Arc::new(|n| ("POST /payments", "POST", "/api/partner/v1/payments".into(), subscribe_body(n))),
        PAYMENTS_PHASE,
    )
    .await;
    let invoices_rps = rate(&t, "POST /payments", e);
    let payments_p99 = t.get_mut("POST /payments").map_or(Duration::ZERO, |s| s.percentile(0.99));
    let payment_errors = t.values().map(|s| s.errors).sum::<u64>();
    stats::print("POST /payments (a new client and invoice each)", &mut t, e);

    let (mut t, e) = drive(
        service.port,
        auth,
        o.connections,
        d,
        Arc::new(|n| match n % 10 {
            0 => ("POST /payments", "POST", "/api/partner/v1/payments".into(), subscribe_body(n)),
            1 | 2 => ("GET /plans", "GET", "/api/partner/v1/plans".into(), vec![]),
            // Clients the payments phase created.
            3 | 4 => {
                let client = (PAYMENTS_PHASE << PHASE_SHIFT) + n % 50;
                ("GET /clients/{id}", "GET", format!("/api/partner/v1/clients/bench-{client}"), vec![])
            }
            5 => ("GET /payment-methods", "GET", "/api/partner/v1/payment-methods".into(), vec![]),
            6 => ("GET /apps", "GET", "/api/partner/v1/apps".into(), vec![]),
            _ => ("GET /account", "GET", "/api/partner/v1/account".into(), vec![]),
        }),
        3,
    )
    .await;
    stats::print("Mixed partner workload", &mut t, e);

    let rss_mib = resident_peak_kib(service.child.id()).map(|k| k as f64 / 1024.0);
    drop(service);

    let (steady, burst) = if o.short { (20, 40) } else { (1_000, 2_000) };
    let mut dispatch = Vec::new();
    let (dir, db) = dispatch::sqlite()?;
    dispatch.push(dispatch::run("SQLite", dir, db, steady, burst).await?);
    match dispatch::postgres() {
        Ok((dir, db, _schema)) => dispatch.push(dispatch::run("PostgreSQL", dir, db, steady, burst).await?),
        Err(e) => println!("\nEvent dispatch on PostgreSQL skipped: {}", e.trim()),
    }
    for d in &dispatch {
        println!(
            "\nEvent dispatch on {} (8 delivery workers, one endpoint on a loopback receiver)\n  steady: {} payments, payment.succeeded lag p50 {:.0} ms, p99 {:.0} ms\n  burst: {} retries due at once, delivered at {:.0}/s (first to last receipt {:.2} s)",
            d.backend,
            d.steady_payments,
            d.lag_p50.as_secs_f64() * 1000.0,
            d.lag_p99.as_secs_f64() * 1000.0,
            d.burst,
            d.burst_per_second,
            d.burst_span.as_secs_f64(),
        );
    }

    println!("\nTargets (ratios in this run)");
    let account_ratio = if bare_rps > 0.0 { account_rps / bare_rps } else { 0.0 };
    let checks = [
        (
            format!("GET /account = {:.0}% of the bare route's requests/s (target >= 50%)", account_ratio * 100.0),
            account_ratio >= 0.5,
        ),
        (format!("POST /payments = {invoices_rps:.0} invoices/s on SQLite (target >= 1000)"), invoices_rps >= 1000.0),
        (
            format!("POST /payments p99 = {:.1} ms (target < 50 ms)", payments_p99.as_secs_f64() * 1000.0),
            payments_p99 < Duration::from_millis(50),
        ),
        (
            format!(
                "peak resident memory = {} (target < 256 MiB)",
                rss_mib.map_or("unknown".into(), |m| format!("{m:.0} MiB"))
            ),
            rss_mib.is_some_and(|m| m < 256.0),
        ),
    ];
    let mut checks = checks.to_vec();
    for d in &dispatch {
        let floor = if d.backend == "PostgreSQL" { 2_000.0 } else { 1_000.0 };
        checks.push((
            format!("burst delivery on {} = {:.0}/s (target >= {floor:.0}/s)", d.backend, d.burst_per_second),
            d.burst_per_second >= floor,
        ));
        checks.push((
            format!(
                "steady event lag p99 on {} = {:.0} ms (target < 1000 ms)",
                d.backend,
                d.lag_p99.as_secs_f64() * 1000.0
            ),
            d.lag_p99 < Duration::from_secs(1),
        ));
    }
    for (text, ok) in &checks {
        println!("  [{}] {text}", if *ok { "met" } else { "MISSED" });
    }
    // Every request of the two focused phases must have succeeded; targets are reported, not
    // enforced, since they depend on the machine.
    if account_errors + payment_errors > 0 {
        eprintln!("errors during the focused phases: GET /account {account_errors}, POST /payments {payment_errors}");
        return Ok(false);
    }
    if o.short {
        println!("\nshort mode: the harness ran end to end (numbers from a 1-second run mean little)");
    }
    Ok(true)
}

fn main() -> ExitCode {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let rt = match tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    match rt.block_on(run(o)) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
