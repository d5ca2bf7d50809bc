//! A wrong-key flood from one address (32 connections) beside a partner's valid traffic from
//! another, behind a trusted proxy so the two sources differ on loopback: how many wrong keys
//! reach the database (the service's own `vp_api_key_lookups_total`), how much of the flood is
//! answered 429, and the partner's p99 during the flood against its quiet p99.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::client::Conn;
use crate::service::{Backend, Database, Service};
use crate::stats::Samples;

const METRICS_TOKEN: &str = "bench-metrics-token-0123456789abcdef";
const FLOODING: &str = "203.0.113.66";
const PARTNER: &str = "198.51.100.10";
/// Connections of the partner's own traffic.
const PARTNER_CONNECTIONS: usize = 2;

pub struct FloodRun {
    pub quiet_p99: Duration,
    pub flood_p99: Duration,
    pub flood_requests: u64,
    /// Answers 429 among the flood's requests after its first second.
    pub flood_429_after_first_second: u64,
    /// Wrong keys looked up in the database during the flood, in all and after its first second.
    pub lookups: u64,
    pub lookups_after_first_second: u64,
    pub flood_after_first_second: u64,
}

impl FloodRun {
    /// The share of the flood after its first second (past the threshold) answered 429.
    pub fn share_429(&self) -> f64 {
        self.flood_429_after_first_second as f64 / self.flood_after_first_second.max(1) as f64
    }

    pub fn lookups_per_request_after_first_second(&self) -> f64 {
        self.lookups_after_first_second as f64 / self.flood_after_first_second.max(1) as f64
    }
}

/// The partner's `GET /account` from its own address until `stop`; its latencies.
async fn partner(port: u16, key: String, stop: Arc<AtomicBool>) -> Samples {
    let mut samples = Samples::default();
    let Ok(mut conn) = Conn::open(port).await else { return samples };
    let auth = format!("Bearer {key}");
    while !stop.load(Ordering::Relaxed) {
        let headers = [("authorization", auth.as_str()), ("x-forwarded-for", PARTNER)];
        let t = Instant::now();
        match conn.send("GET", "/api/partner/v1/account", &headers, b"").await {
            Ok(r) if r.status == 200 => samples.latencies.push(t.elapsed()),
            _ => samples.errors += 1,
        }
    }
    samples
}

async fn partner_p99(port: u16, key: &str, for_how_long: Duration) -> Result<Duration, String> {
    let stop = Arc::new(AtomicBool::new(false));
    let tasks: Vec<_> =
        (0..PARTNER_CONNECTIONS).map(|_| tokio::spawn(partner(port, key.to_owned(), stop.clone()))).collect();
    tokio::time::sleep(for_how_long).await;
    stop.store(true, Ordering::Relaxed);
    let mut all = Samples::default();
    for t in tasks {
        all.merge(t.await.map_err(|e| e.to_string())?);
    }
    if all.errors > 0 {
        return Err(format!("{} of the partner's requests failed", all.errors));
    }
    Ok(all.percentile(0.99))
}

async fn wrong_key_lookups(port: u16) -> Result<u64, String> {
    let mut conn = Conn::open(port).await.map_err(|e| e.to_string())?;
    let auth = format!("Bearer {METRICS_TOKEN}");
    let reply = conn.send("GET", "/metrics", &[("authorization", &auth)], b"").await.map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&reply.body).into_owned();
    Ok(text
        .lines()
        .find_map(|l| l.strip_prefix(r#"vp_api_key_lookups_total{found="false"} "#)?.parse().ok())
        .unwrap_or(0))
}

pub async fn run(backend: Backend, connections: usize, duration: Duration) -> Result<FloodRun, String> {
    let env = [("VP_TRUSTED_PROXIES", "127.0.0.1/32"), ("VP_METRICS_TOKEN", METRICS_TOKEN)];
    let service = Service::start(Database::fresh(backend, "flood")?, &env).await?;
    let port = service.port;
    let quiet_p99 = partner_p99(port, &service.key, duration).await?;

    let stop = Arc::new(AtomicBool::new(false));
    let (sent, limited, sent_early) =
        (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let started = Instant::now();
    let mut flood = Vec::new();
    for c in 0..connections {
        let (stop, sent, limited, sent_early) = (stop.clone(), sent.clone(), limited.clone(), sent_early.clone());
        flood.push(tokio::spawn(async move {
            let Ok(mut conn) = Conn::open(port).await else { return };
            let mut n = 0u64;
            while !stop.load(Ordering::Relaxed) {
                // A new guess each time: nothing is saved by remembering one wrong key.
                let auth = format!("Bearer vpk_guess_{c}_{n}");
                n += 1;
                let headers = [("authorization", auth.as_str()), ("x-forwarded-for", FLOODING)];
                match conn.send("GET", "/api/partner/v1/account", &headers, b"").await {
                    Ok(r) => {
                        sent.fetch_add(1, Ordering::Relaxed);
                        if started.elapsed() < Duration::from_secs(1) {
                            sent_early.fetch_add(1, Ordering::Relaxed);
                        } else if r.status == 429 {
                            limited.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    Err(_) => match Conn::open(port).await {
                        Ok(fresh) => conn = fresh,
                        Err(_) => return,
                    },
                }
            }
        }));
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let after_first_second = wrong_key_lookups(port).await?;
    let flood_p99 = partner_p99(port, &service.key, duration).await?;
    stop.store(true, Ordering::Relaxed);
    for t in flood {
        let _ = t.await;
    }
    let lookups = wrong_key_lookups(port).await?;
    let flood_requests = sent.load(Ordering::Relaxed);
    let run = FloodRun {
        quiet_p99,
        flood_p99,
        flood_requests,
        flood_429_after_first_second: limited.load(Ordering::Relaxed),
        lookups,
        lookups_after_first_second: lookups - after_first_second,
        flood_after_first_second: flood_requests - sent_early.load(Ordering::Relaxed),
    };
    println!(
        "\nWrong-key flood on {} ({connections} connections from one address, a partner's {PARTNER_CONNECTIONS} from another)\n  flood: {} requests ({:.0}/s; each 429 is held back a second), {:.1}% of them after the first second answered 429, {} wrong keys looked up ({} after the first second: {:.4} per request)\n  partner GET /account p99: quiet {:.2} ms, during the flood {:.2} ms",
        backend.name(),
        run.flood_requests,
        run.flood_requests as f64 / (duration + Duration::from_secs(1)).as_secs_f64(),
        run.share_429() * 100.0,
        run.lookups,
        run.lookups_after_first_second,
        run.lookups_per_request_after_first_second(),
        run.quiet_p99.as_secs_f64() * 1000.0,
        run.flood_p99.as_secs_f64() * 1000.0,
    );
    Ok(run)
}
