//! `just bench`: the real service on a fresh database of each backend asked for (`--db
//! sqlite|postgres|both`), driven over loopback beside a bare actix-web route, with requests/s
//! and p50/p99 per phase, PostgreSQL's own ceiling measured by pgbench in the same run, and the
//! targets as ratios. `--short` (CI) only checks that the harness runs end to end.

mod broadcast;
mod client;
mod dispatch;
mod flood;
mod import;
mod load;
mod pgbench;
mod phases;
mod reminders;
mod renewals;
mod scale;
mod seed;
mod service;
mod settle;
mod shop;
mod stats;

use std::process::ExitCode;
use std::time::Duration;

use service::Backend;

pub struct Options {
    pub duration: Duration,
    pub connections: usize,
    pub short: bool,
    pub backends: Vec<Backend>,
    pub phases: Vec<String>,
    /// `--scale N`: the scale comparison instead of the phases.
    pub scale: Option<usize>,
}

const PHASES: [&str; 16] = [
    "account",
    "webshop",
    "payments",
    "accounts10",
    "mixed",
    "grown",
    "dispatch",
    "flood",
    "reminders",
    "reminders100",
    "renewals",
    "settle",
    "shop",
    "broadcast",
    "import",
    "pgbench",
];

impl Options {
    fn wants(&self, phase: &str) -> bool {
        self.phases.iter().any(|p| p == phase)
    }
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        duration: Duration::from_secs(10),
        connections: 32,
        short: false,
        backends: vec![Backend::Sqlite, Backend::Postgres],
        phases: PHASES.iter().map(|p| (*p).to_owned()).collect(),
        scale: None,
    };
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
            "--db" => {
                o.backends = match args.next().as_deref() {
                    Some("sqlite") => vec![Backend::Sqlite],
                    Some("postgres") => vec![Backend::Postgres],
                    Some("both") => vec![Backend::Sqlite, Backend::Postgres],
                    _ => return Err("--db needs sqlite, postgres or both".into()),
                }
            }
            "--scale" => {
                let text = args.next().unwrap_or_default();
                o.scale =
                    Some(scale::parse_count(&text).ok_or("--scale needs a count of customers: 1m, 100k or a number")?);
            }
            "--phases" => {
                let list = args.next().ok_or("--phases needs a comma-separated list")?;
                o.phases = list.split(',').map(str::trim).filter(|p| !p.is_empty()).map(str::to_owned).collect();
                if let Some(bad) = o.phases.iter().find(|p| !PHASES.contains(&p.as_str())) {
                    return Err(format!("unknown phase {bad}; phases: {}", PHASES.join(", ")));
                }
            }
            other => {
                return Err(format!(
                    "unknown argument {other}; use --db sqlite|postgres|both, --phases {}, --scale N, --seconds N, --connections N, --short",
                    PHASES.join(",")
                ));
            }
        }
    }
    Ok(o)
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
    let run = match o.scale {
        Some(customers) => rt.block_on(scale::run(&o, customers)),
        None => rt.block_on(phases::run(&o)),
    };
    match run {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
