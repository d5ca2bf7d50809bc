//! The ledger and withdrawals (`BalanceRepo`).

use super::*;
use vp_domain::AccountId;

contract_tests!(
    ledger_is_unique_per_invoice_and_kind_and_sums,
    withdrawal_steps_are_one_entry_each_and_the_balance_sums_both_columns,
    withdrawals_list_by_account_and_status_newest_first,
    ledger_entries_and_clients_of_a_range_come_oldest_first_a_page_at_a_time,
);

async fn ledger_entries_and_clients_of_a_range_come_oldest_first_a_page_at_a_time(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    let mut tx = begin(s).await;
    let entry = |id: &str, payment: &str, t: i64| {
        ledger_entry(id, LedgerSubject::Invoice(payment.into()), LedgerKind::PartnerShareCredit, 100, 0, t)
    };
    for e in [entry("l3", "pay-3", 10), entry("l1", "pay-1", 0), entry("l2", "pay-2", 10), entry("l4", "pay-4", 20)] {
        tx.insert_ledger_entry(&e).await.unwrap();
    }
    for (id, client_id, t) in [("c-2", "bob", 10), ("c-1", "ann", 10), ("c-3", "cat", 20)] {
        tx.insert_client(&client(id, "acc-a", client_id, at(t))).await.unwrap();
    }
    tx.commit().await.unwrap();
    let mut tx = begin(s).await;
    let ids = |page: &[LedgerEntry]| page.iter().map(|e| e.id.clone()).collect::<Vec<_>>();
    let first = tx.ledger_entries_between("acc-a", at(10), at(20), None, 1).await.unwrap();
    assert_eq!(ids(&first), ["l2"], "from the range's start, ties by id");
    let after = Cursor { at: first[0].created_at, id: first[0].id.clone() };
    let rest = tx.ledger_entries_between("acc-a", at(10), at(20), Some(&after), 10).await.unwrap();
    assert_eq!(ids(&rest), ["l3"], "the range's end is not in it");
    // The seed's client (made at T0) is before the range.
    let clients = tx.clients_created_between("acc-a", at(10), at(21), None, 2).await.unwrap();
    let names: Vec<&str> = clients.iter().map(|c| c.client_id.as_str()).collect();
    assert_eq!(names, ["ann", "bob"], "by creation, then by reference");
    let after = Cursor { at: clients[1].created_at, id: clients[1].id.to_string() };
    let rest = tx.clients_created_between("acc-a", at(10), at(21), Some(&after), 2).await.unwrap();
    assert_eq!(rest.iter().map(|c| c.client_id.as_str()).collect::<Vec<_>>(), ["cat"]);
    assert!(tx.clients_created_between("acc-b", at(0), at(30), None, 2).await.unwrap().is_empty());
    tx.commit().await.unwrap();
}

pub(super) fn ledger_entry(
    id: &str,
    subject: LedgerSubject,
    kind: LedgerKind,
    amount: i64,
    held: i64,
    t: i64,
) -> LedgerEntry {
    LedgerEntry {
        id: id.into(),
        account_id: AccountId::issued("acc-a".into()),
        subject,
        kind,
        amount: Money::from_kopecks(amount),
        held: Money::from_kopecks(held),
        created_at: at(t),
    }
}

pub(super) fn balance(available: i64, held: i64) -> Balance {
    Balance { available: Money::from_kopecks(available), held: Money::from_kopecks(held) }
}

async fn ledger_is_unique_per_invoice_and_kind_and_sums(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    seed(s, "acc-b").await;
    let entry = |id: &str, payment: &str, kind: LedgerKind, amount: i64, t: i64| {
        ledger_entry(id, LedgerSubject::Invoice(payment.into()), kind, amount, 0, t)
    };
    let mut tx = begin(s).await;
    assert_eq!(tx.partner_balance("acc-a").await.unwrap(), balance(0, 0));
    let e1 = entry("l1", "pay-1", LedgerKind::PartnerShareCredit, 12_500, 1);
    let e2 = entry("l2", "pay-2", LedgerKind::PartnerShareCredit, 7_000_000_000, 2);
    let e3 = entry("l3", "pay-1", LedgerKind::PartnerShareReversal, -12_500, 3);
    for e in [&e2, &e1, &e3] {
        tx.insert_ledger_entry(e).await.unwrap();
    }
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    let dup = tx.insert_ledger_entry(&entry("l4", "pay-1", LedgerKind::PartnerShareCredit, 12_500, 4)).await;
    let dup = written_and_committed(tx, dup).await;
    assert!(is_conflict(&dup), "one entry per invoice and kind: {dup:?}");

    let mut tx = begin(s).await;
    assert_eq!(tx.partner_balance("acc-a").await.unwrap(), balance(7_000_000_000, 0), "beyond i32");
    assert_eq!(tx.partner_balance("acc-b").await.unwrap(), balance(0, 0));
    assert_eq!(tx.ledger_entries("acc-a", None, 10).await.unwrap(), vec![e3.clone(), e2.clone(), e1.clone()]);
    assert_eq!(
        tx.ledger_entries("acc-a", Some(Cursor { at: e2.created_at, id: e2.id.clone() }), 10).await.unwrap(),
        vec![e1]
    );
    assert_eq!(tx.ledger_entries("acc-a", None, 1).await.unwrap(), vec![e3]);
    assert_eq!(tx.ledger_entries("acc-b", None, 10).await.unwrap(), vec![]);
    tx.commit().await.unwrap();
}

fn withdrawal(id: &str, account: &str, status: WithdrawalStatus, t: i64) -> WithdrawalRecord {
    WithdrawalRecord {
        id: vp_domain::WithdrawalId::issued(id.into()),
        account_id: AccountId::issued(account.into()),
        amount: Money::from_kopecks(150_050),
        payout_details: "IBAN DE00 1234\nBank \"Ost\"".into(),
        status,
        note: None,
        requested_by: "money@example.com".into(),
        created_at: at(t),
        updated_at: at(t),
    }
}

async fn withdrawal_steps_are_one_entry_each_and_the_balance_sums_both_columns(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    let wd = |id: &str| LedgerSubject::Withdrawal(id.into());
    let mut tx = begin(s).await;
    let mut w = withdrawal("wd-1", "acc-a", WithdrawalStatus::Requested, 1);
    tx.insert_withdrawal(&w).await.unwrap();
    let credit =
        ledger_entry("l0", LedgerSubject::Invoice("pay-1".into()), LedgerKind::PartnerShareCredit, 200_000, 0, 0);
    let hold = ledger_entry("l1", wd("wd-1"), LedgerKind::WithdrawalHold, -150_050, 150_050, 1);
    let approval = ledger_entry("l2", wd("wd-1"), LedgerKind::WithdrawalApproval, 0, 0, 2);
    let payout = ledger_entry("l3", wd("wd-1"), LedgerKind::WithdrawalPayout, 0, -150_050, 3);
    for e in [&credit, &hold, &approval] {
        tx.insert_ledger_entry(e).await.unwrap();
    }
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    assert_eq!(tx.partner_balance("acc-a").await.unwrap(), balance(49_950, 150_050));
    let twice = tx.insert_ledger_entry(&ledger_entry("l9", wd("wd-1"), LedgerKind::WithdrawalHold, -1, 1, 4)).await;
    let twice = written_and_committed(tx, twice).await;
    assert!(is_conflict(&twice), "one entry per withdrawal and kind: {twice:?}");

    let mut tx = begin(s).await;
    w.status = WithdrawalStatus::Paid;
    w.note = Some("transfer 77".into());
    w.updated_at = at(3);
    tx.update_withdrawal(&w).await.unwrap();
    tx.insert_ledger_entry(&payout).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    assert_eq!(tx.withdrawal("wd-1").await.unwrap(), Some(w));
    assert_eq!(tx.withdrawal("wd-2").await.unwrap(), None);
    assert_eq!(tx.withdrawal_ledger("wd-1").await.unwrap(), vec![hold, approval, payout]);
    assert_eq!(tx.partner_balance("acc-a").await.unwrap(), balance(49_950, 0), "the payout left the balance");
    tx.commit().await.unwrap();
}

async fn withdrawals_list_by_account_and_status_newest_first(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    seed(s, "acc-b").await;
    let mut tx = begin(s).await;
    let a1 = withdrawal("wd-a1", "acc-a", WithdrawalStatus::Paid, 1);
    let a2 = withdrawal("wd-a2", "acc-a", WithdrawalStatus::Requested, 2);
    let a3 = withdrawal("wd-a3", "acc-a", WithdrawalStatus::Requested, 3);
    let b1 = withdrawal("wd-b1", "acc-b", WithdrawalStatus::Requested, 4);
    for w in [&a1, &a2, &a3, &b1] {
        tx.insert_withdrawal(w).await.unwrap();
    }
    let ids = |list: Vec<WithdrawalRecord>| list.into_iter().map(|w| w.id).collect::<Vec<_>>();
    let all = WithdrawalFilter { limit: 10, ..WithdrawalFilter::default() };
    assert_eq!(ids(tx.withdrawals(&all).await.unwrap()), ["wd-b1", "wd-a3", "wd-a2", "wd-a1"]);
    let requested = WithdrawalFilter { status: Some(WithdrawalStatus::Requested), ..all.clone() };
    assert_eq!(ids(tx.withdrawals(&requested).await.unwrap()), ["wd-b1", "wd-a3", "wd-a2"]);
    let ours = WithdrawalFilter { account_id: Some(AccountId::issued("acc-a".into())), limit: 2, ..all.clone() };
    assert_eq!(ids(tx.withdrawals(&ours).await.unwrap()), ["wd-a3", "wd-a2"]);
    let next = WithdrawalFilter { before: Some(Cursor { at: a2.created_at, id: a2.id.to_string() }), ..ours };
    assert_eq!(ids(tx.withdrawals(&next).await.unwrap()), ["wd-a1"]);
    tx.commit().await.unwrap();
}
