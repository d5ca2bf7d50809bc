//! `--scale N`: the same measurements on a PostgreSQL database holding N customers and on one
//! holding only the 10,000 the term check needs, side by side in one run.
//!
//! Seeding copies rows the service itself wrote (a paid customer of the demo partner: client,
//! subscription, panel user, invoice, ledger entry, event and its delivery) with `INSERT ...
//! SELECT` over `generate_series`, changing only keys, owners and dates, so every column is as
//! the service writes it without the bench restating the schema. 1,000 accounts share the
//! customers; each has a device, three paid invoices with their ledger entries and events. The
//! new-client counts of the last day's customers are summed from them, as the migration that
//! introduced the counts does. The requests use the demo partner, one of the 1,000.
//!
//! Every measured step also reads PostgreSQL's own counters of rows read by sequential scans,
//! so a query that reads a big table without an index shows up by name.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::client::{Conn, Reply};
use crate::dispatch::{Receipts, pay_invoices, start_receiver, wait_for};
use crate::load::{self, Load, Request, drive};
use crate::service::{Backend, Database, Service, psql};
use crate::stats;
use crate::{Options, stats::Table};

/// Accounts the big database's customers are spread over. The small one has fewer, with as
/// many customers each, so the demo partner's own share is the same in both: only the rest of
/// the database grows.
const ACCOUNTS: usize = 1_000;
/// Invoices (each with a ledger entry and an event) per customer.
const INVOICES_PER_CUSTOMER: usize = 3;
/// Sequentially read rows in one step above which a table is named, if it holds more than
/// `SMALL_TABLE` rows: a planner reads a small table (the settings) whole by choice, not for
/// want of an index.
const SCAN_REPORTED: i64 = 50_000;
const SMALL_TABLE: i64 = 10_000;

/// What one database showed.
pub struct Measured {
    pub customers: usize,
    pub seeding: Duration,
    pub bytes_per_customer: f64,
    pub account_rps: f64,
    pub payments_rps: f64,
    pub client_rps: f64,
    pub list_rps: f64,
    /// The cabinet's client list (its first page) and its search by `client_id`.
    pub cabinet_list_rps: f64,
    pub cabinet_search_rps: f64,
    /// `vp-api jobs` with nothing due, then with each count of `DUE` due.
    pub jobs_idle: Duration,
    pub jobs_due: Vec<(usize, Duration)>,
    pub event_lag_p50: Duration,
    pub event_lag_p99: Duration,
    /// (step, table, rows read by sequential scans) above `SCAN_REPORTED`.
    pub scans: Vec<(String, String, i64)>,
    pub errors: u64,
}

/// Parses `1m`, `100k` or a plain number.
pub fn parse_count(text: &str) -> Option<usize> {
    let t = text.trim().to_ascii_lowercase();
    let (digits, times) = match t.strip_suffix('m') {
        Some(d) => (d, 1_000_000),
        None => t.strip_suffix('k').map_or((t.as_str(), 1), |d| (d, 1_000)),
    };
    digits.parse::<usize>().ok().and_then(|n| n.checked_mul(times)).filter(|n| *n > 0)
}

/// Due counts the term check is timed with.
fn due_counts(short: bool) -> [usize; 2] {
    if short { [100, 1_000] } else { [1_000, 10_000] }
}

pub async fn run(o: &Options, customers: usize) -> Result<bool, String> {
    let due = due_counts(o.short);
    let per_account = customers.div_ceil(ACCOUNTS);
    let small = due[1].min(customers).div_ceil(per_account) * per_account;
    let fresh = measure(o, small, per_account, "scale_small").await?;
    let grown = measure(o, customers, per_account, "scale_big").await?;
    Ok(report(&fresh, &grown, &due))
}

async fn measure(o: &Options, customers: usize, per_account: usize, name: &str) -> Result<Measured, String> {
    let accounts = customers / per_account;
    let receipts = Arc::new(Receipts::default());
    let receiver = start_receiver(receipts.clone())?;
    let env = [
        ("VP_LOG", "error"),
        ("VP_WEBHOOK_ALLOW_ADDRESSES", "127.0.0.1"),
        // The service's own term check runs at its start only: the bench times its own runs.
        ("VP_TERM_CHECK_SECONDS", "3600"),
    ];
    let service = Service::start(Database::fresh(Backend::Postgres, name)?, &env).await?;
    let hooks = format!("http://127.0.0.1:{receiver}/hooks");
    service.cli(&["endpoint", "add", &service.account, &hooks, "--type", "payment.succeeded"])?;
    let url = service.db.url.clone();

    // The rows to copy: one customer who paid, as the service records them.
    let paid = pay_invoices(&service, 1, 1, "template").await;
    let template = paid.keys().next().ok_or("the template payment did not go through")?.clone();
    if !wait_for(&receipts, 1, 1, Duration::from_secs(30)).await {
        return Err("the template payment's event was not delivered".into());
    }
    let started = Instant::now();
    seed(&url, &service.account, &template, customers, accounts)?;
    // As autovacuum would leave the tables, without it running while the steps are measured,
    // and with the seeding's pages written out.
    psql(&url, "VACUUM ANALYZE")?;
    psql(&url, "CHECKPOINT")?;
    let seeding = started.elapsed();
    let size: f64 = psql(&url, "SELECT pg_database_size(current_database())")?.parse().map_err(|_| "no size")?;
    println!("\nPostgreSQL, {customers} customers over {accounts} accounts: seeded in {:.1} s", seeding.as_secs_f64());

    let mut m = Measured {
        customers,
        seeding,
        bytes_per_customer: size / customers as f64,
        account_rps: 0.0,
        payments_rps: 0.0,
        client_rps: 0.0,
        list_rps: 0.0,
        cabinet_list_rps: 0.0,
        cabinet_search_rps: 0.0,
        jobs_idle: Duration::ZERO,
        jobs_due: vec![],
        event_lag_p50: Duration::ZERO,
        event_lag_p99: Duration::ZERO,
        scans: vec![],
        errors: 0,
    };
    let load = Load::partner(o, service.port, &service.key);
    // The cabinet's pages, signed in as the demo partner.
    let cabinet = Load { keys: vec![], cookie: Some(cabinet_session(&service).await?), ..load.clone() };
    // The demo partner's customers are every `accounts`-th one.
    let (own, every) = (per_account as u64, accounts as u64);
    let steps: [(&Load, &'static str, &'static str, load::Pick); 6] = [
        (&load, "GET /account", "account", get("GET /account", |_| "/api/partner/v1/account".into())),
        (
            &load,
            "GET /clients/{id}",
            "client",
            get("GET /clients/{id}", move |n| format!("/api/partner/v1/clients/scale-{}", (n % own + 1) * every)),
        ),
        (&load, "GET /clients", "list", get("GET /clients", |_| "/api/partner/v1/clients?limit=20".into())),
        (
            &load,
            "POST /payments",
            "payments",
            Arc::new(|n| Request {
                name: "POST /payments",
                method: "POST",
                path: "/api/partner/v1/payments".into(),
                body: format!(r#"{{"client_id":"new-{n}","purpose":"subscription","plan_id":1,"method":"card"}}"#)
                    .into_bytes(),
                key: 0,
            }),
        ),
        (&cabinet, "cabinet client list", "cabinet list", get("cabinet client list", |_| "/cabinet/clients".into())),
        (
            &cabinet,
            "cabinet search",
            "cabinet search",
            get("cabinet search", move |n| format!("/cabinet/clients?client_id=scale-{}", (n % own + 1) * every)),
        ),
    ];
    for (i, (with, request, step, pick)) in steps.into_iter().enumerate() {
        let before = scans(&url)?;
        let (mut t, e): (Table, Duration) = drive(with, pick, 20 + i as u64).await;
        note_scans(&url, &before, step, &mut m.scans)?;
        let rps = load::rate(&t, request, e);
        m.errors += load::errors(&t);
        stats::print(&format!("PostgreSQL, {customers} customers: {request}"), &mut t, e);
        match step {
            "account" => m.account_rps = rps,
            "client" => m.client_rps = rps,
            "list" => m.list_rps = rps,
            "cabinet list" => m.cabinet_list_rps = rps,
            "cabinet search" => m.cabinet_search_rps = rps,
            _ => m.payments_rps = rps,
        }
    }

    // Event dispatch: payments made one after another over 8 connections, each timed to its
    // payment.succeeded at the partner's endpoint.
    let before = scans(&url)?;
    let count = if o.short { 50 } else { 500 };
    let paid = pay_invoices(&service, count, 8, "lag").await;
    if !wait_for(&receipts, 1, paid.len() + 1, Duration::from_secs(60)).await {
        return Err("not every payment.succeeded arrived within a minute".into());
    }
    note_scans(&url, &before, "dispatch", &mut m.scans)?;
    let mut lags = receipts.lags(&paid);
    m.event_lag_p50 = lags.percentile(0.50);
    m.event_lag_p99 = lags.percentile(0.99);

    // The term check (with the rest of `vp-api jobs`): nothing due, then each count due.
    let before = scans(&url)?;
    m.jobs_idle = timed_jobs(&service)?;
    note_scans(&url, &before, "jobs, nothing due", &mut m.scans)?;
    for due in due_counts(o.short) {
        let due = due.min(customers);
        make_due(&url, due, customers, accounts, per_account)?;
        let before = scans(&url)?;
        m.jobs_due.push((due, timed_jobs(&service)?));
        note_scans(&url, &before, &format!("jobs, {due} due"), &mut m.scans)?;
        let left = psql(&url, &format!("SELECT count(*) FROM subscriptions WHERE next_check_at <= {NOW}"))?;
        if left != "0" {
            return Err(format!("{left} subscriptions still due after the term check"));
        }
    }
    Ok(m)
}

/// A cabinet session of the demo partner: invited by the operator, the password set on the
/// invitation's page; returns the `Cookie` value the service set.
async fn cabinet_session(service: &Service) -> Result<String, String> {
    let invited = service.cli(&["cabinet", "invite", &service.account, "--email", "bench@partner.example"])?;
    let link = invited["link"].as_str().ok_or("no invitation link")?;
    let path = &link[link.find("/cabinet/welcome/").ok_or("not a welcome link")?..];
    let mut conn = Conn::open(service.port).await.map_err(|e| e.to_string())?;
    let page = conn.send("GET", path, &[("accept", "text/html")], b"").await.map_err(|e| e.to_string())?;
    let html = String::from_utf8_lossy(&page.body);
    // Form tokens are URL-safe (the cabinet's `form_token`), so the form carries it as it is.
    let token = html
        .split("name=\"form_token\" value=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .ok_or("no form_token on the welcome page")?;
    let form = format!("form_token={token}&password=bench+password+long+enough&confirm=bench+password+long+enough");
    let cookie = cookies(&page);
    let headers = [("content-type", "application/x-www-form-urlencoded"), ("cookie", cookie.as_str())];
    let signed_in = conn.send("POST", path, &headers, form.as_bytes()).await.map_err(|e| e.to_string())?;
    if signed_in.status != 303 {
        return Err(format!("setting the cabinet password answered {}", signed_in.status));
    }
    Ok(cookies(&signed_in))
}

/// The `name=value` pairs a reply sets, as one `Cookie` value.
fn cookies(reply: &Reply) -> String {
    reply.headers("set-cookie").filter_map(|c| c.split(';').next()).collect::<Vec<_>>().join("; ")
}

fn get(name: &'static str, path: impl Fn(u64) -> String + Send + Sync + 'static) -> load::Pick {
    Arc::new(move |n| Request { name, method: "GET", path: path(n), body: vec![], key: 0 })
}

/// The database's clock as the service stores moments (UTC, without a zone).
const NOW: &str = "(now() AT TIME ZONE 'utc')";

/// The owner of customer `g` (an SQL expression) of `accounts`: the demo account for every
/// `accounts`-th.
fn owner(demo: &str, customer: &str, accounts: usize) -> String {
    format!("CASE WHEN {customer} % {accounts} = 0 THEN '{demo}' ELSE 'acc_scale' || ({customer} % {accounts}) END")
}

/// Copies of the row of `table` where `key` is `id`, one per `g` of `series`, with `changes`
/// (a `jsonb_build_object` argument list over `g`). The row is read once, and made once per
/// copy (`LATERAL`: `(f(...)).*` would call `f` once per column).
fn copies(table: &str, key: &str, id: &str, series: &str, changes: &str) -> String {
    format!(
        "WITH t AS MATERIALIZED (SELECT * FROM {table} WHERE {key} = '{id}') \
         INSERT INTO {table} SELECT r.* FROM t, generate_series({series}) g, \
         LATERAL jsonb_populate_record(NULL::{table}, to_jsonb(t) || jsonb_build_object({changes})) r"
    )
}

fn seed(url: &str, demo: &str, payment_id: &str, customers: usize, accounts: usize) -> Result<(), String> {
    let owner = |customer: &str| owner(demo, customer, accounts);
    let ids = psql(
        url,
        &format!(
            "SELECT i.client_ref || ' ' || e.id || ' ' || l.id || ' ' || d.id FROM invoices i \
             JOIN events e ON e.body LIKE '%' || i.payment_id || '%' \
             JOIN webhook_deliveries d ON d.event_id = e.id \
             JOIN ledger_entries l ON l.payment_id = i.payment_id WHERE i.payment_id = '{payment_id}' LIMIT 1"
        ),
    )?;
    let [client, event, ledger, delivery] = ids.split(' ').collect::<Vec<_>>()[..] else {
        return Err(format!("the template's rows were not found: {ids:?}"));
    };
    let invoices = customers * INVOICES_PER_CUSTOMER;
    let customer_of = format!("((g - 1) / {INVOICES_PER_CUSTOMER} + 1)");
    let statements = [
        copies(
            "accounts",
            "id",
            demo,
            &format!("1, {}", accounts - 1),
            "'id', 'acc_scale' || g, 'brand_name', 'Scale ' || g",
        ),
        copies(
            "shop_slugs",
            "account_id",
            demo,
            &format!("1, {}", accounts - 1),
            "'account_id', 'acc_scale' || g, 'slug', 'scale-' || g",
        ),
        copies(
            "clients",
            "id",
            client,
            &format!("1, {customers}"),
            &format!(
                "'id', 'cli_scale' || g, 'account_id', {}, 'client_id', 'scale-' || g, 'created_at', {NOW} - (g % 700) * interval '1 hour'",
                owner("g")
            ),
        ),
        // Terms end over the next year; none is due until `make_due`.
        copies(
            "subscriptions",
            "client_ref",
            client,
            &format!("1, {customers}"),
            &format!(
                "'client_ref', 'cli_scale' || g, 'link_token', t.link_token || '-' || g, 'change_seq', g, \
                 'expires_at', {NOW} + (10 + g % 355) * interval '1 day', \
                 'next_check_at', {NOW} + (7 + g % 355) * interval '1 day'"
            ),
        ),
        copies(
            "local_panel_users",
            "user_ref",
            client,
            &format!("1, {customers}"),
            "'user_ref', 'cli_scale' || g, 'link_token', t.link_token || '-' || g",
        ),
        format!(
            "INSERT INTO local_panel_devices (user_ref, hwid, platform, os_version, model, user_agent, created_at, last_seen_at) \
             SELECT 'cli_scale' || g, 'hwid-' || g, 'android', '14', 'Pixel 8', 'v2rayNG/1.9', {NOW}, {NOW} FROM generate_series(1, {customers}) g"
        ),
        copies(
            "invoices",
            "payment_id",
            payment_id,
            &format!("1, {invoices}"),
            &format!(
                "'payment_id', 'pay_scale' || g, 'client_ref', 'cli_scale' || {customer_of}, 'account_id', {}, \
                 'gateway_payment_id', 'sbx_scale' || g, 'created_at', {NOW} - (g % 8760) * interval '1 hour'",
                owner(&customer_of)
            ),
        ),
        // Partners send a key with each invoice; their lookups go by the primary key.
        copies(
            "idempotency_keys",
            "payment_id",
            payment_id,
            &format!("1, {invoices}"),
            &format!("'payment_id', 'pay_scale' || g, 'key', 'scale-key-' || g, 'account_id', {}", owner(&customer_of)),
        ),
        copies(
            "ledger_entries",
            "id",
            ledger,
            &format!("1, {invoices}"),
            &format!("'id', 'led_scale' || g, 'payment_id', 'pay_scale' || g, 'account_id', {}", owner(&customer_of)),
        ),
        copies(
            "events",
            "id",
            event,
            &format!("1, {invoices}"),
            &format!(
                "'id', 'msg_scale' || g, 'account_id', {}, 'created_at', {NOW} - (g % 8760) * interval '1 hour'",
                owner(&customer_of)
            ),
        ),
        // Each event was delivered, as the template's was: without these rows ANALYZE sees an
        // empty table, and the planner reads the dispatch's new deliveries by sequential scan.
        copies(
            "webhook_deliveries",
            "id",
            delivery,
            &format!("1, {invoices}"),
            &format!(
                "'id', 'dlv_scale' || g, 'event_id', 'msg_scale' || g, 'created_at', {NOW} - (g % 8760) * interval '1 hour'"
            ),
        ),
        // The new-client counts of the last 25 hours' customers, as their creation left them
        // (older buckets are pruned): without them the table holds only the run's own.
        format!(
            "INSERT INTO daily_counts (account_id, kind, hour, stripe, n) \
             SELECT account_id, 'new_clients', FLOOR(EXTRACT(EPOCH FROM created_at) / 3600)::BIGINT, 0, COUNT(*) \
             FROM clients WHERE id LIKE 'cli_scale%' AND created_at > {NOW} - interval '25 hours' GROUP BY 1, 2, 3, 4 \
             ON CONFLICT (account_id, kind, hour, stripe) DO UPDATE SET n = daily_counts.n + EXCLUDED.n"
        ),
    ];
    for sql in statements {
        let started = Instant::now();
        psql(url, &sql)?;
        let table = sql.split_once("INSERT INTO ").and_then(|(_, r)| r.split_whitespace().next()).unwrap_or("?");
        println!("  {table}: {:.1} s", started.elapsed().as_secs_f64());
    }
    Ok(())
}

/// Brings the terms of `count` customers to two days before their end, due now. They belong to
/// as few accounts as hold that many (`per_account` each), in both databases alike: the term
/// check works one account at a time, so the comparison is of what is due, not of how it spreads.
fn make_due(url: &str, count: usize, customers: usize, accounts: usize, per_account: usize) -> Result<(), String> {
    let spread = count.div_ceil(per_account).max(1);
    psql(
        url,
        &format!(
            "UPDATE subscriptions SET expires_at = {NOW} + interval '2 days', next_check_at = {NOW} - interval '1 minute', \
             reminder_72_sent = false, reminder_24_sent = false \
             WHERE client_ref IN (SELECT 'cli_scale' || g FROM generate_series(1, {customers}) g \
             WHERE g % {accounts} < {spread} LIMIT {count})"
        ),
    )
    .map(|_| ())
}

fn timed_jobs(service: &Service) -> Result<Duration, String> {
    let started = Instant::now();
    service.cli(&["jobs"])?;
    Ok(started.elapsed())
}

/// Per table: rows read by sequential scans so far, and rows it holds.
type Counters = Vec<(String, i64, i64)>;

fn scans(url: &str) -> Result<Counters, String> {
    // The statistics collector reports what a session did when it ends or goes idle.
    std::thread::sleep(Duration::from_millis(1_500));
    let text =
        psql(url, "SELECT relname || ' ' || coalesce(seq_tup_read, 0) || ' ' || n_live_tup FROM pg_stat_user_tables")?;
    Ok(text
        .lines()
        .filter_map(|l| match l.split(' ').collect::<Vec<_>>()[..] {
            [table, read, rows] => Some((table.to_owned(), read.parse().ok()?, rows.parse().ok()?)),
            _ => None,
        })
        .collect())
}

fn note_scans(url: &str, before: &Counters, step: &str, found: &mut Vec<(String, String, i64)>) -> Result<(), String> {
    for (table, now, rows) in scans(url)? {
        let was = before.iter().find(|(t, _, _)| *t == table).map_or(0, |(_, n, _)| *n);
        if now - was > SCAN_REPORTED && rows > SMALL_TABLE {
            found.push((step.to_owned(), table, now - was));
        }
    }
    Ok(())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Prints both databases side by side with the targets; false when a request failed.
fn report(fresh: &Measured, grown: &Measured, due: &[usize; 2]) -> bool {
    println!(
        "\nScale: PostgreSQL with {} customers against {} (same run, same machine)",
        grown.customers, fresh.customers
    );
    println!("  {:<44} {:>14} {:>14} {:>7}", "", fresh.customers, grown.customers, "ratio");
    let mut checks: Vec<(String, bool)> = vec![];
    for (name, a, b) in [
        ("GET /account, requests/s", fresh.account_rps, grown.account_rps),
        ("POST /payments, invoices/s", fresh.payments_rps, grown.payments_rps),
        ("GET /clients/{id}, requests/s", fresh.client_rps, grown.client_rps),
        ("GET /clients (a page of 20), requests/s", fresh.list_rps, grown.list_rps),
        ("cabinet client list, pages/s", fresh.cabinet_list_rps, grown.cabinet_list_rps),
        ("cabinet search by client_id, requests/s", fresh.cabinet_search_rps, grown.cabinet_search_rps),
    ] {
        let ratio = b / a.max(0.001);
        println!("  {name:<44} {a:>14.0} {b:>14.0} {:>6.0}%", ratio * 100.0);
        checks.push((
            format!("scale: {name} = {:.0}% of the small database's (target >= 90%)", ratio * 100.0),
            ratio >= 0.9,
        ));
    }
    for (name, a, b) in [
        ("event lag p50, ms", fresh.event_lag_p50, grown.event_lag_p50),
        ("event lag p99, ms", fresh.event_lag_p99, grown.event_lag_p99),
    ] {
        println!("  {name:<44} {:>14.0} {:>14.0}", ms(a), ms(b));
    }
    println!("  {:<44} {:>14.0} {:>14.0}", "vp-api jobs, nothing due, ms", ms(fresh.jobs_idle), ms(grown.jobs_idle));
    for ((n, a), (_, b)) in fresh.jobs_due.iter().zip(&grown.jobs_due) {
        println!("  {:<44} {:>14.0} {:>14.0}", format!("vp-api jobs, {n} due, ms"), ms(*a), ms(*b));
    }
    println!(
        "  {:<44} {:>14.0} {:>14.0}",
        "database bytes per customer", fresh.bytes_per_customer, grown.bytes_per_customer
    );
    println!("  {:<44} {:>14.1} {:>14.1}", "seeding, s", fresh.seeding.as_secs_f64(), grown.seeding.as_secs_f64());
    // The term check's own work: the run with each count due less the run with none.
    if let [(_, small), (_, big)] = grown.jobs_due[..] {
        let work = |d: Duration| d.saturating_sub(grown.jobs_idle).as_secs_f64().max(0.001);
        let growth = work(big) / work(small);
        let expected = due[1] as f64 / due[0] as f64;
        checks.push((
            format!(
                "scale: the term check's work grows {growth:.1}x from {} to {} due (target: about {expected:.0}x, with what is due)",
                due[0], due[1]
            ),
            growth <= expected * 1.5,
        ));
    }
    let idle = grown.jobs_idle.as_secs_f64() / fresh.jobs_idle.as_secs_f64().max(0.001);
    checks.push((
        format!(
            "scale: vp-api jobs with nothing due = {:.0} ms, {:.0}% of the small database's (target: no growth with size, <= 150%)",
            ms(grown.jobs_idle),
            idle * 100.0
        ),
        idle <= 1.5,
    ));
    for (step, table, rows) in &grown.scans {
        checks.push((
            format!("scale: during {step}, {rows} rows of {table} were read by sequential scan (target: none)"),
            false,
        ));
    }
    if grown.scans.is_empty() {
        checks.push(("scale: no step read a big table by sequential scan".into(), true));
    }
    println!("\nTargets (ratios in this run)");
    for (text, ok) in &checks {
        println!("  [{}] {text}", if *ok { "met" } else { "MISSED" });
    }
    let errors = fresh.errors + grown.errors;
    if errors > 0 {
        eprintln!("{errors} requests failed during the measured steps");
        return false;
    }
    true
}
