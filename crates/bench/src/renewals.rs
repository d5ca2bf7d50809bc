//! The renewals phase: `count` customers who paid a month on the sandbox page with "renew
//! automatically" ticked (through the real service: `POST /payments`, then the page's form),
//! then the service's shifted clock moved to a day before their terms end, so every renewal
//! charge falls due at once; the service's term check and renewal worker do the rest. Timed
//! from the clock's move to the last charge settled; double charges (more than one succeeded
//! renewal for a client) are counted from the database.

use std::time::{Duration, Instant};

use crate::client::Conn;
use crate::service::{Backend, Database, Service, psql};

/// Customers paying at once while the phase is prepared.
const SEEDERS: usize = 8;

pub struct RenewalsRun {
    pub customers: usize,
    /// Renewal charges that succeeded.
    pub charged: usize,
    /// Succeeded renewals beyond one per customer (must be 0).
    pub double: usize,
    /// From the clock's move to the last charge settled.
    pub total: Duration,
}

impl RenewalsRun {
    pub fn per_second(&self) -> f64 {
        self.charged as f64 / self.total.as_secs_f64().max(0.001)
    }
}

pub async fn run(count: usize) -> Result<RenewalsRun, String> {
    let db = Database::fresh(Backend::Postgres, "renewals")?;
    let env = [("VP_SHIFTED_CLOCK", "on"), ("VP_TERM_CHECK_SECONDS", "1")];
    let service = Service::start(db, &env).await?;
    let seeding = Instant::now();
    let mut seeders = tokio::task::JoinSet::new();
    for seeder in 0..SEEDERS {
        let (port, key) = (service.port, service.key.clone());
        seeders.spawn(async move { consenting_customers(port, &key, seeder, count).await });
    }
    while let Some(done) = seeders.join_next().await {
        done.map_err(|e| e.to_string())??;
    }
    println!(
        "\nPostgreSQL: {count} customers paid with automatic renewal ticked in {:.1} s",
        seeding.elapsed().as_secs_f64()
    );
    psql(&service.db.url, "ANALYZE")?;

    // Every term ends a month after its payment, all paid by now: a minute past the latest
    // one's charge moment, before the earliest one's end.
    let offset = service.cli(&["clock", "show"])?["offset_seconds"].as_i64().unwrap_or(0);
    let now = time::OffsetDateTime::now_utc() + time::Duration::seconds(offset);
    let due =
        vp_domain::subscription::add_months(now, 1) - vp_domain::renewal::CHARGE_LEAD + time::Duration::minutes(1);
    let started = Instant::now();
    service.cli(&["clock", "advance", &format!("{}s", (due - now).whole_seconds())])?;
    let succeeded = |url: &str| -> Result<usize, String> {
        psql(url, "SELECT count(*) FROM renewal_charges WHERE state = 'succeeded'")?.parse().map_err(|e| format!("{e}"))
    };
    let deadline = started + Duration::from_secs(1_200);
    let mut charged = 0;
    while charged < count && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(200)).await;
        charged = succeeded(&service.db.url)?;
    }
    let total = started.elapsed();
    // A renewal's charge is its invoice, paid through a saved sandbox card (`sbxpaid_`).
    let double: usize = psql(
        &service.db.url,
        "SELECT count(*) - count(DISTINCT client_ref) FROM invoices \
         WHERE status = 'succeeded' AND gateway_payment_id LIKE 'sbxpaid\\_%'",
    )?
    .parse()
    .map_err(|e| format!("{e}"))?;
    drop(service);
    if charged < count {
        return Err(format!("only {charged} of {count} renewals were charged within 20 minutes"));
    }
    Ok(RenewalsRun { customers: count, charged, double, total })
}

/// The seeder's share of the customers: a one-month invoice each, paid on the sandbox page with
/// the tick.
async fn consenting_customers(port: u16, key: &str, seeder: usize, count: usize) -> Result<(), String> {
    let mut conn = Conn::open(port).await.map_err(|e| e.to_string())?;
    let auth = format!("Bearer {key}");
    for n in (seeder..count).step_by(SEEDERS) {
        let body = format!(r#"{{"client_id":"renewing-{n}","purpose":"subscription","plan_id":1,"method":"card"}}"#);
        let idempotency = format!("renewing-{n}");
        let headers = [
            ("authorization", auth.as_str()),
            ("content-type", "application/json"),
            ("idempotency-key", idempotency.as_str()),
        ];
        let created = conn.send("POST", "/api/partner/v1/payments", &headers, body.as_bytes()).await;
        let created = created.map_err(|e| e.to_string())?;
        if created.status != 201 {
            return Err(format!("POST /payments answered {}", created.status));
        }
        let invoice: serde_json::Value = serde_json::from_slice(&created.body).map_err(|e| e.to_string())?;
        let id = invoice["payment_id"].as_str().ok_or("no payment_id")?;
        let form = [("content-type", "application/x-www-form-urlencoded")];
        let paid = conn.send("POST", &format!("/sandbox/pay/{id}"), &form, b"action=pay&renew=on").await;
        let paid = paid.map_err(|e| e.to_string())?;
        if paid.status != 303 {
            return Err(format!("the sandbox page answered {}", paid.status));
        }
    }
    Ok(())
}
