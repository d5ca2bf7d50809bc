//! Drives a service with keep-alive connections for a while and collects latencies.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::client::Conn;
use crate::stats::Table;

/// One request a worker sends.
pub struct Request {
    pub name: &'static str,
    pub method: &'static str,
    pub path: String,
    pub body: Vec<u8>,
    /// Which of the run's keys authenticates it.
    pub key: usize,
}

/// Chooses request number `n` (numbers never repeat within a run, so neither do the
/// idempotency keys and client ids made from them).
pub type Pick = Arc<dyn Fn(u64) -> Request + Send + Sync>;

/// A run's settings.
#[derive(Clone)]
pub struct Load {
    pub port: u16,
    /// `Authorization` values; none for the bare route.
    pub keys: Vec<String>,
    /// A `Cookie` value sent with every request (a cabinet session).
    pub cookie: Option<String>,
    pub connections: usize,
    pub duration: Duration,
}

impl Load {
    /// The run's connections and duration, with one partner's key.
    pub fn partner(o: &crate::Options, port: u16, key: &str) -> Load {
        Load { port, keys: vec![key.to_owned()], cookie: None, connections: o.connections, duration: o.duration }
    }
}

/// Request numbers of one phase start here, so phases never reuse each other's clients or keys.
pub fn first_number(phase: u64) -> u64 {
    phase << 32
}

/// Runs `connections` workers for `duration`; returns the latencies per request name.
pub async fn drive(load: &Load, pick: Pick, phase: u64) -> (Table, Duration) {
    let counter = Arc::new(AtomicU64::new(first_number(phase)));
    let auths: Arc<Vec<String>> = Arc::new(load.keys.iter().map(|k| format!("Bearer {k}")).collect());
    let start = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..load.connections {
        let (pick, counter, auths, port, duration, cookie) =
            (pick.clone(), counter.clone(), auths.clone(), load.port, load.duration, load.cookie.clone());
        tasks.push(tokio::spawn(async move {
            let mut table = Table::new();
            let Ok(mut conn) = Conn::open(port).await else { return table };
            while start.elapsed() < duration {
                let n = counter.fetch_add(1, Ordering::Relaxed);
                let r = pick(n);
                let key = format!("bench-{n}");
                let mut headers = vec![("content-type", "application/json"), ("idempotency-key", key.as_str())];
                if let Some(auth) = auths.get(r.key) {
                    headers.push(("authorization", auth.as_str()));
                }
                if let Some(cookie) = &cookie {
                    headers.push(("cookie", cookie.as_str()));
                }
                let t = Instant::now();
                let reply = conn.send(r.method, &r.path, &headers, &r.body).await;
                let s = table.entry(r.name).or_default();
                match reply {
                    // A redirect is an answer too: the cabinet's search opens the client it finds.
                    Ok(reply) if reply.status < 400 => s.latencies.push(t.elapsed()),
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

pub fn rate(table: &Table, name: &str, elapsed: Duration) -> f64 {
    table.get(name).map_or(0.0, |s| s.latencies.len() as f64 / elapsed.as_secs_f64())
}

pub fn errors(table: &Table) -> u64 {
    table.values().map(|s| s.errors).sum()
}
