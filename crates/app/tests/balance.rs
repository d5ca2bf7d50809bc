//! The partner balance and withdrawals, and the notices that reach linked chats, on a real
//! SQLite store with a hand-moved clock.

use crate::support;

use support::World;
use time::Duration;
use vp_app::{AppError, Declined};
use vp_domain::withdrawal::{Balance, WithdrawalRefused, WithdrawalStatus, WithdrawalStep};
use vp_domain::{Money, WithdrawalId};
use vp_ports::{BotApiError, Cursor, LedgerKind, LedgerSubject, NoticeKind};

fn rub(kopecks: i64) -> Money {
    Money::from_kopecks(kopecks)
}

/// The account's balance after `n` paid invoices; returns one invoice's share.
async fn earned(w: &World, n: usize) -> Money {
    let mut share = Money::ZERO;
    for i in 0..n {
        share = w.pay(&w.account, &format!("client-{i}")).await.amounts.partner_share;
    }
    assert!(share.is_positive(), "the demo account has a markup");
    share
}

#[tokio::test]
async fn a_request_is_held_at_once_and_can_never_take_more_than_is_available() {
    let w = World::new().await;
    let share = earned(&w, 2).await;
    let two = share.checked_mul(2).unwrap();
    let actor = w.actor(&w.account.id, "money@example.com").await;

    let one_kopeck_too_many = two.checked_add(rub(1)).unwrap().to_string();
    let refused = w.app.cabinet.request_withdrawal(&actor, &one_kopeck_too_many, "IBAN 1").await.unwrap_err();
    assert!(
        matches!(refused, AppError::Declined(Declined::Withdrawal(WithdrawalRefused::MoreThanAvailable { available })) if available == two),
        "{refused:?}"
    );
    assert_eq!(w.app.ledger.balance(&w.account.id).await.unwrap(), Balance { available: two, held: Money::ZERO });

    let first = w.app.cabinet.request_withdrawal(&actor, &share.to_string(), "IBAN 1").await.unwrap();
    assert_eq!(first.status, WithdrawalStatus::Requested);
    assert_eq!(first.requested_by, "money@example.com");
    assert_eq!(w.app.ledger.balance(&w.account.id).await.unwrap(), Balance { available: share, held: share });
    w.app.cabinet.request_withdrawal(&actor, &share.to_string(), "IBAN 1").await.unwrap();
    assert_eq!(w.app.ledger.balance(&w.account.id).await.unwrap(), Balance { available: Money::ZERO, held: two });
    let nothing_left = w.app.cabinet.request_withdrawal(&actor, "0.01", "IBAN 1").await.unwrap_err();
    assert!(
        matches!(nothing_left, AppError::Declined(Declined::Withdrawal(WithdrawalRefused::MoreThanAvailable { .. }))),
        "{nothing_left:?}"
    );
    let no_details = w.app.cabinet.request_withdrawal(&actor, "0.01", " ").await.unwrap_err();
    assert!(matches!(no_details, AppError::Declined(Declined::Withdrawal(WithdrawalRefused::NoPayoutDetails))));
    assert_eq!(w.app.cabinet.withdrawals(&actor, None).await.unwrap().len(), 2, "refusals leave nothing behind");
}

#[tokio::test]
async fn every_step_is_a_ledger_entry_and_the_ledger_sums_to_the_balance_exactly() {
    let w = World::new().await;
    let share = earned(&w, 3).await;
    let actor = w.actor(&w.account.id, "money@example.com").await;
    let to_reject = w.app.cabinet.request_withdrawal(&actor, "100.01", "card 4000").await.unwrap();
    let to_pay = w.app.cabinet.request_withdrawal(&actor, "0.99", "card 4000").await.unwrap();

    // Entries of one instant have no order among them; the steps are read in order below.
    let tick = || w.clock.advance(Duration::seconds(1));
    tick();
    w.app.ledger.step_withdrawal(&to_reject.id, WithdrawalStep::Approve, None).await.unwrap();
    tick();
    let rejected =
        w.app.ledger.step_withdrawal(&to_reject.id, WithdrawalStep::Reject, Some(" wrong card ")).await.unwrap();
    assert_eq!((rejected.status, rejected.note.as_deref()), (WithdrawalStatus::Rejected, Some("wrong card")));
    w.app.ledger.step_withdrawal(&to_pay.id, WithdrawalStep::Approve, None).await.unwrap();
    tick();
    let paid = w.app.ledger.step_withdrawal(&to_pay.id, WithdrawalStep::MarkPaid, Some("transfer 77")).await.unwrap();
    assert_eq!(paid.status, WithdrawalStatus::Paid);

    let earned_total = share.checked_mul(3).unwrap();
    let balance = w.app.ledger.balance(&w.account.id).await.unwrap();
    assert_eq!(balance, Balance { available: earned_total.checked_sub(rub(99)).unwrap(), held: Money::ZERO });

    let view = w.app.cabinet.own_withdrawal(&actor, &to_reject.id).await.unwrap();
    let steps: Vec<_> = view.ledger.iter().map(|e| (e.kind, e.amount, e.held)).collect();
    assert_eq!(
        steps,
        [
            (LedgerKind::WithdrawalHold, rub(-10_001), rub(10_001)),
            (LedgerKind::WithdrawalApproval, Money::ZERO, Money::ZERO),
            (LedgerKind::WithdrawalRelease, rub(10_001), rub(-10_001)),
        ]
    );
    let view = w.app.cabinet.own_withdrawal(&actor, &to_pay.id).await.unwrap();
    let steps: Vec<_> = view.ledger.iter().map(|e| (e.kind, e.amount, e.held)).collect();
    assert_eq!(
        steps,
        [
            (LedgerKind::WithdrawalHold, rub(-99), rub(99)),
            (LedgerKind::WithdrawalApproval, Money::ZERO, Money::ZERO),
            (LedgerKind::WithdrawalPayout, Money::ZERO, rub(-99)),
        ]
    );

    let ledger = w.app.cabinet.ledger_export(&actor).await.unwrap();
    assert_eq!(ledger.len(), 3 + 6, "three credits and six withdrawal steps");
    let sum =
        |f: fn(&vp_ports::LedgerEntry) -> Money| ledger.iter().fold(Money::ZERO, |a, e| a.checked_add(f(e)).unwrap());
    assert_eq!(sum(|e| e.amount), balance.available);
    assert_eq!(sum(|e| e.held), balance.held);
    assert!(
        ledger
            .iter()
            .filter(|e| e.kind == LedgerKind::PartnerShareCredit)
            .all(|e| matches!(e.subject, LedgerSubject::Invoice(_)))
    );
    let page = w.app.ledger.ledger(&w.account.id, None, 4).await.unwrap();
    let next = w
        .app
        .ledger
        .ledger(&w.account.id, page.last().map(|e| Cursor { at: e.created_at, id: e.id.clone() }), 50)
        .await
        .unwrap();
    assert_eq!([page, next].concat(), ledger, "pages follow each other, newest first");
}

#[tokio::test]
async fn a_step_the_status_does_not_allow_is_a_conflict_and_changes_nothing() {
    let w = World::new().await;
    earned(&w, 1).await;
    let actor = w.actor(&w.account.id, "money@example.com").await;
    let request = w.app.cabinet.request_withdrawal(&actor, "1.00", "card").await.unwrap();
    let before = w.app.ledger.balance(&w.account.id).await.unwrap();
    let early = w.app.ledger.step_withdrawal(&request.id, WithdrawalStep::MarkPaid, None).await.unwrap_err();
    assert!(matches!(early, AppError::Conflict(ref m) if m.contains("requested")), "{early:?}");
    w.app.ledger.step_withdrawal(&request.id, WithdrawalStep::Reject, None).await.unwrap();
    let again = w.app.ledger.step_withdrawal(&request.id, WithdrawalStep::Reject, None).await.unwrap_err();
    assert!(matches!(again, AppError::Conflict(_)), "a hold is released once: {again:?}");
    let after = w.app.ledger.balance(&w.account.id).await.unwrap();
    assert_eq!(after, Balance { available: before.available.checked_add(rub(100)).unwrap(), held: Money::ZERO });
    let long_note = "n".repeat(501);
    let refused =
        w.app.ledger.step_withdrawal(&request.id, WithdrawalStep::Approve, Some(&long_note)).await.unwrap_err();
    assert!(matches!(refused, AppError::Declined(Declined::Withdrawal(WithdrawalRefused::NoteTooLong))));
    assert!(matches!(
        w.app.ledger.step_withdrawal(&WithdrawalId::parse("wd_none").unwrap(), WithdrawalStep::Approve, None).await,
        Err(AppError::NotFound(_))
    ));
}

#[tokio::test]
async fn another_accounts_withdrawal_is_not_found_from_the_cabinet() {
    let w = World::new().await;
    earned(&w, 1).await;
    let ours = w.actor(&w.account.id, "a@example.com").await;
    let (other, _) = w.app.operator.create_account(Some("Other"), "10", false).await.unwrap();
    let theirs = w.actor(&other.id, "b@example.com").await;
    let request = w.app.cabinet.request_withdrawal(&ours, "1.00", "card").await.unwrap();
    assert!(matches!(w.app.cabinet.own_withdrawal(&theirs, &request.id).await, Err(AppError::NotFound("withdrawal"))));
    assert!(w.app.cabinet.withdrawals(&theirs, None).await.unwrap().is_empty());
    let refused = w.app.cabinet.request_withdrawal(&theirs, "1.00", "card").await.unwrap_err();
    assert!(
        matches!(refused, AppError::Declined(Declined::Withdrawal(WithdrawalRefused::MoreThanAvailable { .. }))),
        "the other account has nothing to withdraw"
    );
}

/// The one-time code in a chat link.
fn code_of(link: &str) -> &str {
    link.split("start=").nth(1).unwrap()
}

#[tokio::test]
async fn a_chat_link_works_once_within_an_hour_and_the_chat_then_receives_notices() {
    let w = World::new().await;
    earned(&w, 1).await;
    let actor = w.actor(&w.account.id, "a@example.com").await;
    let link = w.app.notices.chat_link(&actor, vp_app::Lang::Ru).await.unwrap().expect("a messenger is configured");
    assert!(link.url.starts_with("https://t.me/test_bot?start="));
    assert_eq!(link.expires_at, w.clock.now_for_test() + Duration::hours(1));
    let stale = w.app.notices.chat_link(&actor, vp_app::Lang::En).await.unwrap().unwrap();
    w.clock.advance(Duration::minutes(61));

    w.bots.start(555, code_of(&link.url));
    w.bots.start(777, code_of(&stale.url));
    assert_eq!(w.poll_updates().await, 2);
    assert!(w.app.notices.partner_chats(&w.account.id).await.unwrap().is_empty(), "both codes expired");
    let fresh = w.app.notices.chat_link(&actor, vp_app::Lang::Ru).await.unwrap().unwrap();
    w.bots.start(555, code_of(&fresh.url));
    w.bots.start(556, code_of(&fresh.url));
    assert_eq!(w.poll_updates().await, 2);
    assert_eq!(w.poll_updates().await, 0, "updates are read once");
    let chats = w.app.notices.partner_chats(&w.account.id).await.unwrap();
    assert_eq!(
        chats.iter().map(|c| (c.chat_id, c.lang.code())).collect::<Vec<_>>(),
        [(555, "ru")],
        "a code works once"
    );
    let answers = w.bots.platform_sent();
    assert_eq!(answers.len(), 4, "every start is answered: {answers:?}");
    assert!(answers[2].1.contains("Этот чат теперь получает уведомления"), "{answers:?}");

    let request = w.app.cabinet.request_withdrawal(&actor, "1.00", "card").await.unwrap();
    w.app.ledger.step_withdrawal(&request.id, WithdrawalStep::Approve, None).await.unwrap();
    w.app.ledger.step_withdrawal(&request.id, WithdrawalStep::MarkPaid, None).await.unwrap();
    let notices = w.app.notices.notices(&w.account.id, None, 10).await.unwrap();
    assert_eq!(notices[0].kind, NoticeKind::WithdrawalPaid { withdrawal_id: request.id.to_string(), amount: rub(100) });

    w.bots.send_failures.lock().unwrap().push(BotApiError::Unavailable("502".into()));
    assert_eq!(w.app.notices.deliver_notices_once(10).await.unwrap(), 0, "the messenger failed");
    assert_eq!(w.app.notices.deliver_notices_once(10).await.unwrap(), 0, "not due again yet");
    w.clock.advance(Duration::seconds(30));
    assert_eq!(w.app.notices.deliver_notices_once(10).await.unwrap(), 1, "retried after the pause");
    let last = w.bots.platform_sent().last().cloned().unwrap();
    assert_eq!(last.0, 555);
    assert!(
        last.1.contains(request.id.as_str()) && last.1.contains("1,00\u{a0}₽"),
        "worded in the linker's language: {last:?}"
    );
    w.clock.advance(Duration::days(2));
    assert_eq!(w.app.notices.deliver_notices_once(10).await.unwrap(), 0, "sent once");
}

#[tokio::test]
async fn a_chat_that_refuses_is_given_up_and_an_unlinked_chat_gets_nothing() {
    let w = World::new().await;
    earned(&w, 1).await;
    let actor = w.actor(&w.account.id, "a@example.com").await;
    for chat in [1, 2] {
        let link = w.app.notices.chat_link(&actor, vp_app::Lang::En).await.unwrap().unwrap();
        w.bots.start(chat, code_of(&link.url));
    }
    assert_eq!(w.poll_updates().await, 2);
    assert_eq!(w.app.notices.partner_chats(&w.account.id).await.unwrap().len(), 2);
    w.bots.sent.lock().unwrap().clear();
    w.app.notices.unlink_chat(&actor, 2).await.unwrap();
    assert!(matches!(w.app.notices.unlink_chat(&actor, 2).await, Err(AppError::NotFound("chat"))));

    let request = w.app.cabinet.request_withdrawal(&actor, "1.00", "card").await.unwrap();
    w.app.ledger.step_withdrawal(&request.id, WithdrawalStep::Approve, None).await.unwrap();
    w.app.ledger.step_withdrawal(&request.id, WithdrawalStep::MarkPaid, None).await.unwrap();
    w.bots.send_failures.lock().unwrap().push(BotApiError::ChatGone("Forbidden: bot was blocked by the user".into()));
    assert_eq!(w.app.notices.deliver_notices_once(10).await.unwrap(), 0);
    w.clock.advance(Duration::days(1));
    assert_eq!(w.app.notices.deliver_notices_once(10).await.unwrap(), 0, "a refusal is final");
    assert!(w.bots.platform_sent().is_empty(), "chat 2 was unlinked before the notice");
}
