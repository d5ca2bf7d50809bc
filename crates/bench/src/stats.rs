//! Latency samples per endpoint and what the report prints.

use std::collections::BTreeMap;
use std::time::Duration;

#[derive(Default, Clone)]
pub struct Samples {
    pub latencies: Vec<Duration>,
    pub errors: u64,
}

impl Samples {
    pub fn merge(&mut self, other: Samples) {
        self.latencies.extend(other.latencies);
        self.errors += other.errors;
    }

    pub fn percentile(&mut self, p: f64) -> Duration {
        if self.latencies.is_empty() {
            return Duration::ZERO;
        }
        self.latencies.sort_unstable();
        let rank = ((self.latencies.len() as f64 - 1.0) * p).round() as usize;
        self.latencies[rank.min(self.latencies.len() - 1)]
    }
}

pub type Table = BTreeMap<&'static str, Samples>;

pub fn print(title: &str, table: &mut Table, elapsed: Duration) {
    println!("\n{title} ({:.1} s)", elapsed.as_secs_f64());
    println!(
        "{:<28} {:>10} {:>12} {:>10} {:>10} {:>8}",
        "endpoint", "requests", "requests/s", "p50 ms", "p99 ms", "errors"
    );
    for (name, s) in table.iter_mut() {
        let n = s.latencies.len();
        println!(
            "{name:<28} {n:>10} {:>12.0} {:>10.2} {:>10.2} {:>8}",
            n as f64 / elapsed.as_secs_f64(),
            s.percentile(0.5).as_secs_f64() * 1000.0,
            s.percentile(0.99).as_secs_f64() * 1000.0,
            s.errors
        );
    }
}
