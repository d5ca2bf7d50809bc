//! The databases' rows: copies of what the service wrote for one paid customer of the demo
//! partner (client, subscription, panel user, invoice, ledger entry, event and its delivery),
//! with only keys, owners and dates changed (`INSERT ... SELECT` over `generate_series`), so
//! every column is as the service writes it without the bench restating the schema. The
//! new-client counts of the last day's customers are summed from them, as the migration that
//! introduced the counts does.

use std::time::Instant;

use super::INVOICES_PER_CUSTOMER;
use crate::service::psql;

/// The database's clock as the service stores moments (UTC, without a zone).
pub const NOW: &str = "(now() AT TIME ZONE 'utc')";

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

/// Seeds `customers` over `accounts`, and `busy` more invoices of the demo partner's own
/// customers over the last year (a busy account, for its figures and exports).
pub fn seed(
    url: &str,
    demo: &str,
    payment_id: &str,
    customers: usize,
    accounts: usize,
    busy: usize,
) -> Result<(), String> {
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
        // The busy account's year: its customers (every `accounts`-th) pay round the clock.
        copies(
            "invoices",
            "payment_id",
            payment_id,
            &format!("1, {busy}"),
            &format!(
                "'payment_id', 'pay_busy' || g, 'client_ref', 'cli_scale' || ((g % {}) + 1) * {accounts}, \
                 'gateway_payment_id', 'sbx_busy' || g, 'created_at', {NOW} - (g % 525000) * interval '1 minute'",
                customers / accounts
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
pub fn make_due(url: &str, count: usize, customers: usize, accounts: usize, per_account: usize) -> Result<(), String> {
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
