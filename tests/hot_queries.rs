//! No hot path reads a table that grows with customers by sequential scan (issue 39: "no query
//! in these paths without an index"). On PostgreSQL, with sequential scans priced out for the
//! service's and the jobs' sessions (`enable_seqscan=off`: the planner takes any index that can
//! serve a query, so a sequential scan left means none can), the service settles payments,
//! answers the partner API, delivers events, shows the cabinet's client list and search, and the
//! jobs run the term check with subscriptions due. PostgreSQL's own counters
//! (`pg_stat_user_tables`) then name every table read by sequential scan.
//!
//! The million-customer bench (`just bench --scale 1m`) reads the same counters with the
//! planner free, on a seeded database.

use crate::support;

use std::collections::BTreeMap;
use std::time::Duration;

use support::partner::{buy, jobs_at, term_end};
use support::receiver::Receiver;
use support::server::{Backend, Database, Server};
use support::visitor::cabinet_member;

/// Tables whose size follows configuration, not customers: an account's settings, keys,
/// endpoints and bot, the plans and the platform's settings. Reading one whole is fine (the
/// jobs walk the accounts, for one).
const BOUNDED: &[&str] = &[
    "accounts",
    "api_keys",
    "cabinet_users",
    "device_settings",
    "leases",
    "partner_bots",
    "payment_methods",
    "plans",
    "referral_programs",
    "settings",
    "shop_slugs",
    "stars_rates",
    "webhook_endpoints",
];

/// Customers who buy: enough for the list's page and the due subscriptions to be many.
const CUSTOMERS: usize = 25;

#[test]
fn the_hot_paths_read_tables_that_grow_with_customers_through_indexes_only() {
    let Some(mut db) = Database::new(Backend::Postgres, "hot_queries") else { return };
    let app = db.priced_out_sequential_scans();
    db.env.extend(
        [("VP_SHIFTED_CLOCK", "on"), ("VP_WEBHOOK_ALLOW_ADDRESSES", "127.0.0.1")]
            .map(|(k, v)| (k.to_owned(), v.to_owned())),
    );
    let demo = db.cli(&["demo"]);
    let key = demo["api_key"]["api_key"].as_str().expect("demo key").to_owned();
    let account_id = demo["account"]["account_id"].as_str().expect("demo account").to_owned();
    let receiver = Receiver::start();
    let types = "payment.succeeded,subscription.expiring,subscription.expired";
    db.cli(&["endpoint", "add", &account_id, &receiver.url, "--type", types]);
    let before = scans(&db, &app);

    let mut s = Server::start_on(db, key, account_id.clone());
    // Creating and settling, with the events they send.
    let mut paid = Vec::new();
    for n in 0..CUSTOMERS {
        paid.push(buy(&s, &format!("hot-{n}"), 1));
        receiver.next_of("payment.succeeded", Duration::from_secs(20));
    }
    // The partner's reads.
    let payment_id = paid[0]["payment_id"].as_str().expect("a payment id");
    for path in [
        format!("/payments/{payment_id}"),
        "/clients/hot-3".to_owned(),
        "/clients?limit=20".to_owned(),
        "/account".to_owned(),
        "/clients/hot-3/devices".to_owned(),
    ] {
        let r = s.api("GET", &path, None, &[]);
        assert_eq!(r.status, 200, "GET {path}: {}", r.text());
    }
    // The cabinet's client list, its filter and its search.
    let mut member = cabinet_member(&s, &account_id, "owner@partner.example");
    for path in ["/cabinet/clients", "/cabinet/clients?status=active"] {
        let r = member.get(path);
        assert_eq!(r.status, 200, "GET {path}: {}", r.text());
        assert!(r.text().contains("hot-3"), "{path} shows the client");
    }
    let found = member.get("/cabinet/clients?client_id=hot-3");
    assert_eq!(found.status, 303, "the search opens the client it finds");
    let client_page = member.get(found.header("location").expect("the client's page"));
    assert_eq!(client_page.status, 200, "{}", client_page.text());
    // The term check with every subscription due: warned, then ended.
    let ends = term_end(&s, "hot-0");
    jobs_at(&s, ends - time::Duration::hours(60));
    for _ in 0..CUSTOMERS {
        receiver.next_of("subscription.expiring", Duration::from_secs(20));
    }
    jobs_at(&s, ends + time::Duration::minutes(10));
    for _ in 0..CUSTOMERS {
        receiver.next_of("subscription.expired", Duration::from_secs(20));
    }
    s.terminate();

    let after = scans(&s.db, &app);
    let sequential: BTreeMap<&String, i64> = after
        .iter()
        .filter(|(table, _)| !BOUNDED.contains(&table.as_str()))
        .map(|(table, (seq, _))| (table, seq - before.get(table).map_or(0, |b| b.0)))
        .filter(|(_, seq)| *seq > 0)
        .collect();
    assert!(sequential.is_empty(), "tables that grow with customers read by sequential scan: {sequential:?}");
    // The counters did count: the paths above read the big tables through their indexes.
    for table in ["clients", "subscriptions", "invoices", "events", "webhook_deliveries"] {
        let indexed = after[table].1 - before.get(table).map_or(0, |b| b.1);
        assert!(indexed > 0, "{table} was read through an index ({after:?})");
    }
}

/// Each table's sequential and index scans so far, once every session of `app` has ended
/// (a session's counters reach the statistics when it ends).
fn scans(db: &Database, app: &str) -> BTreeMap<String, (i64, i64)> {
    let ended = support::wait_for(Duration::from_secs(30), || {
        let open = db.query_sql(&format!("SELECT count(*) FROM pg_stat_activity WHERE application_name = '{app}'"));
        (open == ["0"]).then_some(())
    });
    assert!(ended.is_some(), "the service's sessions ended");
    // The last session's counters are written as it exits, just after it leaves the list.
    std::thread::sleep(Duration::from_millis(500));
    db.query_sql(
        "SELECT relname, seq_scan, coalesce(idx_scan, 0) FROM pg_stat_user_tables \
         WHERE schemaname = current_schema()",
    )
    .iter()
    .filter_map(|row| {
        let mut cols = row.split('|');
        let table = cols.next()?.to_owned();
        Some((table, (cols.next()?.parse().ok()?, cols.next()?.parse().ok()?)))
    })
    .collect()
}
