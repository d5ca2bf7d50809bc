//! The physical ceiling of the PostgreSQL server in the same run, measured with pgbench on the
//! bench's own database: one-row inserts with a unique key, and a script writing the rows one
//! invoice makes (idempotency record, client, invoice) in one transaction.

use std::process::Command;

use crate::service::psql;

pub struct Ceiling {
    pub single_row: f64,
    pub invoice_rows: f64,
}

const SINGLE_ROW: &str =
    "\\set n random(1, 1000000000000)\nINSERT INTO bench_ceiling (id) VALUES (:client_id || '-' || :n);\n";

/// The rows of one invoice of `:account`, in the columns the service writes.
const INVOICE_ROWS: &str = "\\set n random(1, 1000000000000)
BEGIN;
INSERT INTO idempotency_keys (account_id, key, request_fingerprint, payment_id, recovery_point, locked_until, created_at, gateway_request) VALUES (':account', 'pgb-' || :client_id || '-' || :n, '{\"client_id\":\"pgb\",\"purpose\":\"subscription\",\"plan_id\":1,\"devices\":null,\"method\":\"card\",\"return_url\":null}', 'pay_pgb' || :client_id || '-' || :n, 'started', now(), now(), '{\"customer\":23880}');
INSERT INTO clients (id, account_id, client_id, created_at, blocked) VALUES ('cli_pgb' || :client_id || '-' || :n, ':account', 'pgb-' || :client_id || '-' || :n, now(), false);
INSERT INTO invoices (payment_id, account_id, client_ref, status, purpose, plan_id, devices, method, amount, platform_amount, partner_share, return_url, payment_url, gateway_payment_id, created_at, expires_at, paid_at) VALUES ('pay_pgb' || :client_id || '-' || :n, ':account', 'cli_pgb' || :client_id || '-' || :n, 'pending', 'subscription', 1, NULL, 'card', 23880, 19900, 3980, NULL, 'https://vpn.example.com/sandbox/pay/x', 'sbx_x', now(), now(), NULL);
COMMIT;
";

/// Whether pgbench can be run here.
pub fn available() -> bool {
    Command::new("pgbench").arg("--version").output().is_ok_and(|o| o.status.success())
}

fn tps(url: &str, script: &std::path::Path, account: &str, connections: usize, seconds: u64) -> Result<f64, String> {
    let out = Command::new("pgbench")
        .args(["-n", "-c", &connections.to_string(), "-j", "2", "-T", &seconds.to_string(), "-f"])
        .arg(script)
        .args(["-D", &format!("account={account}"), url])
        .output()
        .map_err(|e| format!("cannot run pgbench: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .find_map(|l| l.strip_prefix("tps = "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| format!("pgbench gave no rate: {}{}", text, String::from_utf8_lossy(&out.stderr)))
}

pub fn run(
    url: &str,
    dir: &std::path::Path,
    account: &str,
    connections: usize,
    seconds: u64,
) -> Result<Ceiling, String> {
    psql(url, "CREATE TABLE IF NOT EXISTS bench_ceiling (id TEXT PRIMARY KEY)")?;
    let single = dir.join("single-row.sql");
    let invoice = dir.join("invoice-rows.sql");
    std::fs::write(&single, SINGLE_ROW).map_err(|e| e.to_string())?;
    std::fs::write(&invoice, INVOICE_ROWS).map_err(|e| e.to_string())?;
    Ok(Ceiling {
        single_row: tps(url, &single, account, connections, seconds)?,
        invoice_rows: tps(url, &invoice, account, connections, seconds)?,
    })
}
