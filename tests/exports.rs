//! The partner's books as CSV: `vp-api export invoices|clients|ledger` and the cabinet's
//! downloads give the same files for a range of days, which a standard CSV reader (Python's
//! `csv` module) reads back, matching what the API shows; a bad range is refused with the reason.

use crate::support;

use serde_json::Value;
use support::csv::{cents, read as read_csv};
use support::partner::{buy, post_payment, subscription};
use support::server::{Backend, Server};
use support::visitor::cabinet_member;

#[test]
fn the_invoices_of_a_range_export_as_csv_from_the_cli_and_the_cabinet_with_the_apis_amounts() {
    let Some(s) = Server::start(Backend::Sqlite, "exports") else { return };
    let paid = [buy(&s, "export-a", 1), buy(&s, "@export-b", 2)];
    let pending = post_payment(&s, "export-pending", &subscription("export-c", 1)).json();
    let zone = time::UtcOffset::from_hms(3, 0, 0).unwrap(); // the demo account's Moscow
    let today = time::OffsetDateTime::now_utc().to_offset(zone).date();
    let (from, to) = (today.previous_day().unwrap().to_string(), today.next_day().unwrap().to_string());

    let csv = s.cli_stdout(&["export", "invoices", &s.account_id, "--from", &from, "--to", &to]);
    assert!(csv.starts_with("payment_id,created_at,client_id,purpose,plan_id,devices,method,status,amount,"), "{csv}");
    assert!(csv.ends_with("\r\n") && csv.lines().count() == 4, "a header and three rows, CRLF: {csv:?}");
    let rows = read_csv(&csv);
    let ids: Vec<&str> = rows.iter().map(|r| r["payment_id"].as_str().unwrap()).collect();
    let expected: Vec<&str> = paid.iter().chain([&pending]).map(|i| i["payment_id"].as_str().unwrap()).collect();
    assert_eq!(ids, expected, "in the order they were made");
    for (row, api) in rows.iter().zip(paid.iter().chain([&pending])) {
        assert_eq!(row["amount"], api["amount"], "the customer's amount as the API has it: {row}");
        assert_eq!(row["status"], api["status"]);
        assert_eq!(row["client_id"].as_str().unwrap().trim_start_matches('\''), api["client_id"]);
    }
    assert_eq!(rows[1]["client_id"], "'@export-b", "a cell a spreadsheet would run as a formula is not one");
    let paid_total: i64 = rows.iter().filter(|r| r["status"] == "succeeded").map(|r| cents(&r["amount"])).sum();
    assert_eq!(paid_total, paid.iter().map(|i| cents(&i["amount"])).sum::<i64>());
    assert!(rows.iter().all(|r| r["created_at"].as_str().unwrap().ends_with('Z')), "times in UTC");

    // The cabinet's download is the same file; its form offers this month so far.
    let mut cabinet = cabinet_member(&s, &s.account_id, "books@partner.example");
    let balance = cabinet.get("/cabinet/balance").text();
    assert!(
        balance.contains("action=\"/cabinet/exports/invoices.csv\"") && balance.contains("type=\"date\""),
        "{balance}"
    );
    let download = cabinet.get(&format!("/cabinet/exports/invoices.csv?from={from}&to={to}"));
    assert_eq!(download.status, 200);
    assert_eq!(download.header("content-type"), Some("text/csv; charset=utf-8"));
    assert!(download.header("content-disposition").unwrap().starts_with("attachment;"));
    assert_eq!(download.text(), csv);

    // The clients made in the range, with their subscriptions; the ledger lines of the payments.
    let clients_csv = s.cli_stdout(&["export", "clients", &s.account_id, "--from", &from, "--to", &to]);
    let clients = read_csv(&clients_csv);
    let ids: Vec<&str> = clients.iter().map(|c| c["client_id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["export-a", "'@export-b", "export-c"], "{clients_csv}");
    let api = s.api("GET", "/clients/export-a", None, &[]).json();
    let a = &clients[0];
    assert_eq!(
        (a["subscription_status"].clone(), a["is_trial"].clone()),
        (api["subscription"]["status"].clone(), Value::from("false"))
    );
    assert_eq!(a["expires_at"].as_str().unwrap()[..19], api["subscription"]["expires_at"].as_str().unwrap()[..19]);
    assert_eq!(
        (clients[2]["subscription_status"].as_str(), clients[2]["blocked"].as_str()),
        (Some(""), Some("false")),
        "no subscription yet"
    );
    let ledger_csv = s.cli_stdout(&["export", "ledger", &s.account_id, "--from", &from, "--to", &to]);
    let ledger = read_csv(&ledger_csv);
    let credited: Vec<&str> = ledger.iter().map(|l| l["invoice_id"].as_str().unwrap()).collect();
    assert_eq!(credited, [paid[0]["payment_id"].as_str().unwrap(), paid[1]["payment_id"].as_str().unwrap()]);
    assert!(ledger.iter().all(|l| l["kind"] == "partner_share_credit" && cents(&l["amount"]) > 0), "{ledger_csv}");
    for (path, expected) in [("clients", &clients_csv), ("ledger", &ledger_csv)] {
        let got = cabinet.get(&format!("/cabinet/exports/{path}.csv?from={from}&to={to}"));
        assert_eq!((got.status, &got.text()), (200, expected), "{path}");
    }
    assert_eq!(cabinet.get(&format!("/cabinet/exports/keys.csv?from={from}&to={to}")).status, 404);

    // A range before them has the header only; a bad range is said, in the CLI and the cabinet.
    let earlier = s.cli_stdout(&["export", "invoices", &s.account_id, "--from", "2020-01-01", "--to", "2020-01-31"]);
    assert_eq!(earlier.lines().count(), 1, "{earlier}");
    let (code, said) = s.cli_raw(&["export", "invoices", &s.account_id, "--from", &to, "--to", &from]);
    assert!(code == Some(2) && said.contains("must not be before from"), "{said}");
    let (code, said) = s.cli_raw(&["export", "invoices", &s.account_id, "--from", "01.11.2026", "--to", &to]);
    assert!(code == Some(2) && said.contains("--from is a date"), "{said}");
    let refused = cabinet.get(&format!("/cabinet/exports/invoices.csv?from={to}&to={from}"));
    assert_eq!(refused.status, 400);
    assert!(refused.text().contains("at most 366 days"), "{}", refused.text());
    let stranger =
        support::visitor::Visitor::new(s.port).get(&format!("/cabinet/exports/invoices.csv?from={from}&to={to}"));
    assert_ne!(stranger.status, 200, "signed in only");
}
