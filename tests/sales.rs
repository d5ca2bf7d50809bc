//! The partners' sales figures from the CLI: `vp-api sales rebuild` writes a range's daily
//! figures from the invoices, clients and trials, `vp-api sales show` reads a range's totals
//! as the cabinet will, per channel too; a bad range or date is refused with the reason and
//! changes nothing.

use crate::support;

use support::partner::{buy, post_payment, subscription};
use support::server::{Backend, Server};

#[test]
fn a_rebuild_writes_the_days_figures_and_show_reads_them_with_a_refund_taken_out() {
    let Some(s) = Server::start(Backend::Sqlite, "sales") else { return };
    let paid = [buy(&s, "sales-a", 1), buy(&s, "sales-b", 2), buy(&s, "sales-a", 1)];
    post_payment(&s, "sales-pending", &subscription("sales-c", 1));
    s.cli(&["invoice", "refund", paid[1]["payment_id"].as_str().unwrap()]);
    let zone = time::UtcOffset::from_hms(3, 0, 0).unwrap(); // the demo account's Moscow
    let today = time::OffsetDateTime::now_utc().to_offset(zone).date();
    let (from, to) = (today.previous_day().unwrap().to_string(), today.to_string());
    // sales-b is served by the partner's bot, sales-c by the web shop (linked as each shop
    // links the person it serves).
    let client_ref = |id: &str| s.db.query_sql(&format!("SELECT id FROM clients WHERE client_id = '{id}'")).remove(0);
    s.db.execute_sql(&format!(
        "INSERT INTO bot_customers (account_id, user_id, chat_id, started_at, last_seen_at, client_ref) \
         VALUES ('{}', 5150, 5150, '2026-11-01 10:00:00', '2026-11-01 10:00:00', '{}')",
        s.account_id,
        client_ref("sales-b")
    ));
    s.db.execute_sql(&format!(
        "INSERT INTO shop_customers (account_id, email, client_ref, lang, first_payment_id, created_at) \
         VALUES ('{}', 'c@example.com', '{}', 'en', '', '2026-11-01 10:00:00')",
        s.account_id,
        client_ref("sales-c")
    ));

    let rebuilt = s.cli(&["sales", "rebuild", &s.account_id, "--from", &from, "--to", &to]);
    assert_eq!(rebuilt["rows"], 6, "per channel (3), a card row and the day's clients: {rebuilt}");
    let shown = s.cli(&["sales", "show", &s.account_id, "--range", "7d"]);
    let total = &shown["total"];
    assert_eq!(
        (total["issued"].as_u64(), total["paid"].as_u64(), total["refunded"].as_u64()),
        (Some(4), Some(3), Some(1)),
        "{shown}"
    );
    assert_eq!(total["new_clients"], 3, "sales-a, sales-b and sales-c: {shown}");
    let kopecks = |i: &serde_json::Value| {
        let (whole, frac) = i["amount"].as_str().unwrap().split_once('.').unwrap();
        whole.parse::<i64>().unwrap() * 100 + frac.parse::<i64>().unwrap()
    };
    let kept = kopecks(&paid[0]) + kopecks(&paid[2]);
    let kept = format!("{}.{:02}", kept / 100, kept % 100);
    assert_eq!(total["gross"], kept.as_str(), "what customers paid, the refund taken out: {shown}");
    assert_eq!(total["success_percent"], 100, "{shown}");
    assert_eq!(shown["by_method"][0]["method"], "card");
    assert_eq!(shown["previous"]["issued"], 0, "nothing the week before");
    assert_eq!(
        (total["first_purchases"].as_u64(), total["renewals_manual"].as_u64()),
        (Some(2), Some(1)),
        "sales-a's and sales-b's first purchases (a refunded one was made), sales-a's second a renewal: {shown}"
    );
    let channel = |name: &str| {
        let found = shown["by_channel"].as_array().unwrap().iter().find(|c| c["channel"] == name).cloned();
        found.unwrap_or_else(|| panic!("{name} in {shown}"))["figures"].clone()
    };
    let (api, bot, web) = (channel("api"), channel("bot"), channel("web"));
    assert_eq!((api["paid"].as_u64(), api["new_clients"].as_u64()), (Some(2), Some(1)), "sales-a: {shown}");
    assert_eq!((bot["paid"].as_u64(), bot["refunded"].as_u64()), (Some(1), Some(1)), "sales-b: {shown}");
    assert_eq!((web["issued"].as_u64(), web["paid"].as_u64()), (Some(1), Some(0)), "sales-c: {shown}");
    assert_eq!(api["gross"], kept.as_str(), "what the API's customer paid: {shown}");

    // Refused with the reason, nothing written.
    let (code, said) = s.cli_raw(&["sales", "rebuild", &s.account_id, "--from", &to, "--to", &from]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("must not be before from"), "{said}");
    let (code, said) = s.cli_raw(&["sales", "rebuild", &s.account_id, "--from", "yesterday", "--to", &to]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("--from is a date such as 2026-11-30"), "{said}");
    let (code, said) = s.cli_raw(&["sales", "show", &s.account_id, "--range", "forever"]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("--range is one of"), "{said}");
    assert_eq!(s.cli(&["sales", "show", &s.account_id, "--range", "7d"]), shown, "unchanged");
}
