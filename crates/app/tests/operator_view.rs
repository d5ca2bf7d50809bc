//! The operator's view on a real SQLite store with a hand-moved clock: operators invited by
//! `vp-api`, their own door (separate from the cabinet's, with the same lockout), revocation,
//! every account's sales summed and ranked, what is owed to partners, and the audit of each
//! page an operator opened.

use crate::support;

use support::World;
use time::Duration;
use vp_app::AppError;
use vp_app::cabinet::SignInRefusal;
use vp_app::operator_view::OperatorActor;
use vp_domain::audit::OperatorAction;
use vp_domain::sales::{AccountOrder, SalesRange};
use vp_domain::{Lang, Money, PaymentOutcome};
use vp_ports::CabinetLinkPurpose;

const PASSWORD: &str = "an operator's long phrase";
const ADDRESS: &str = "198.51.100.4";

fn token_of(link: &str) -> &str {
    link.rsplit('/').next().unwrap()
}

/// An operator invited and signed in with `PASSWORD`.
async fn operator(w: &World, email: &str) -> OperatorActor {
    let invitation = w.app.operator_access.invite(email, Lang::En).await.unwrap();
    w.clock.advance(Duration::seconds(1));
    let signed_in = w.app.operator_access.set_password(token_of(&invitation.link), PASSWORD).await.unwrap();
    w.app.operator_access.actor(&signed_in.token).await.unwrap().expect("signed in")
}

/// The operators' audit, oldest first, as (actor, action).
async fn audit(w: &World, by: &OperatorActor) -> Vec<(String, OperatorAction, String)> {
    w.clock.advance(Duration::seconds(1));
    let mut entries = w.app.operator_view.audit(by, None).await.unwrap();
    entries.reverse();
    entries.into_iter().map(|e| (e.actor, e.action, e.detail)).collect()
}

#[tokio::test]
async fn an_operator_is_invited_by_mail_signs_in_at_their_own_door_and_is_shut_out_when_revoked() {
    let w = World::new().await;
    let invitation = w.app.operator_access.invite("Ops@Example.com", Lang::Ru).await.unwrap();
    assert_eq!(invitation.purpose, CabinetLinkPurpose::Invite);
    assert_eq!(invitation.operator.email, "ops@example.com", "emails are kept in lower case");
    assert!(invitation.link.starts_with("http://127.0.0.1:8080/operator/welcome/"), "{}", invitation.link);
    w.app.mail.deliver_due(10).await.unwrap();
    let sent = w.mailer.sent.lock().unwrap().clone();
    let mail = sent.iter().find(|m| m.id == invitation.mail_id).expect("the invitation is mailed");
    assert_eq!(mail.to, "ops@example.com");
    assert!(mail.mail.text.contains(&invitation.link), "{}", mail.mail.text);
    assert!(
        mail.mail.subject.contains("панели оператора"),
        "worded for the operator, in Russian: {}",
        mail.mail.subject
    );

    // A second between audited steps: entries of one instant have no order among them.
    let tick = || w.clock.advance(Duration::seconds(1));
    tick();
    let signed_in = w.app.operator_access.set_password(token_of(&invitation.link), PASSWORD).await.unwrap();
    assert!(w.app.operator_access.actor(&signed_in.token).await.unwrap().is_some());
    // The doors are apart: an operator's session opens no cabinet, and their password no
    // cabinet account.
    assert!(w.app.cabinet_access.actor(&signed_in.token).await.unwrap().is_none());
    let at_cabinet = w.app.cabinet_access.sign_in("ops@example.com", PASSWORD, ADDRESS).await.unwrap();
    assert_eq!(at_cabinet.unwrap_err(), SignInRefusal::Wrong);
    let member = w.actor(w.account.id.as_str(), "member@example.com").await;
    let at_operator = w.app.operator_access.sign_in(&member.user.email, "a long enough phrase", ADDRESS).await.unwrap();
    assert_eq!(at_operator.unwrap_err(), SignInRefusal::Wrong, "a cabinet user is no operator");
    tick();
    assert!(w.app.operator_access.sign_in("ops@example.com", PASSWORD, ADDRESS).await.unwrap().is_ok());
    tick();
    let (revoked, ended) = w.app.operator_access.revoke("ops@example.com").await.unwrap();
    assert_eq!(ended, 2, "both sessions end");
    assert!(revoked.revoked_at.is_some());
    assert!(w.app.operator_access.actor(&signed_in.token).await.unwrap().is_none());
    let after = w.app.operator_access.sign_in("ops@example.com", PASSWORD, ADDRESS).await.unwrap();
    assert_eq!(after.unwrap_err(), SignInRefusal::Wrong);
    let again = w.app.operator_access.revoke("ops@example.com").await.unwrap_err();
    assert!(matches!(again, AppError::Conflict(_)), "{again:?}");
    let unknown = w.app.operator_access.revoke("nobody@example.com").await.unwrap_err();
    assert!(matches!(unknown, AppError::NotFound("operator")), "{unknown:?}");
    let bad = w.app.operator_access.invite("not-an-email", Lang::En).await.unwrap_err();
    assert!(matches!(bad, AppError::Validation(ref f) if f.contains_key("email")), "{bad:?}");

    // A new invitation lets a revoked operator in again, with a new password.
    tick();
    let back = w.app.operator_access.invite("ops@example.com", Lang::En).await.unwrap();
    tick();
    assert_eq!(back.purpose, CabinetLinkPurpose::Invite);
    let signed_in = w.app.operator_access.set_password(token_of(&back.link), "another long phrase").await.unwrap();
    let actor = w.app.operator_access.actor(&signed_in.token).await.unwrap().unwrap();
    tick();
    let reset = w.app.operator_access.invite("ops@example.com", Lang::En).await.unwrap();
    assert_eq!(reset.purpose, CabinetLinkPurpose::Reset, "an operator with a password gets a reset link");
    assert_eq!(w.app.operator_access.operators().await.unwrap().len(), 1);

    let actions: Vec<OperatorAction> = audit(&w, &actor).await.into_iter().map(|(_, action, _)| action).collect();
    use OperatorAction::*;
    assert_eq!(
        actions,
        [Invited, PasswordSet, SignedIn, Revoked, Invited, PasswordSet, ResetLink],
        "getting in and out is audited; the refused sign-ins are counted, not audited"
    );
}

#[tokio::test]
async fn failed_sign_ins_lock_the_operators_door_as_the_cabinets() {
    let w = World::new().await;
    operator(&w, "ops@example.com").await;
    let mut last = SignInRefusal::Wrong;
    for n in 0..vp_domain::cabinet::LOCK_AFTER_FAILURES {
        let address = format!("203.0.113.{n}");
        last = w.app.operator_access.sign_in("ops@example.com", "wrong phrase!!", &address).await.unwrap().unwrap_err();
    }
    assert!(matches!(last, SignInRefusal::Locked { .. }), "{last:?}");
    let right = w.app.operator_access.sign_in("ops@example.com", PASSWORD, ADDRESS).await.unwrap();
    assert!(matches!(right, Err(SignInRefusal::Locked { .. })), "the right password waits for the lock too");
}

#[tokio::test]
async fn the_operator_sees_every_accounts_sales_summed_and_ranked_and_what_is_owed_and_each_view_is_audited() {
    let w = World::new().await;
    let first = w.account().await;
    let (other, _) = w.app.operator.create_account(Some("Other VPN"), "10", false).await.unwrap();
    // The first account sells twice; the other once and has a payment declined.
    let a1 = w.pay(&first, "alice").await;
    let a2 = w.pay(&first, "bob").await;
    let b1 = w.pay(&other, "carol").await;
    let request = support::order("dave", 1, "card");
    let key = vp_domain::IdempotencyKey::parse(Some("declined")).unwrap();
    let declined = w.app.payments.create_invoice(&other, key, request).await.unwrap().invoice;
    w.app.payments.apply_payment_outcome(&declined.payment_id, PaymentOutcome::AttemptFailed).await.unwrap();
    let today = first.time_zone.day(w.clock.now_for_test());
    for account in [&first, &other] {
        w.app.sales.rebuild(account.id.as_str(), today - Duration::days(7), today).await.unwrap();
    }
    let ops = operator(&w, "ops@example.com").await;

    let sales = w.app.operator_view.sales(&ops, SalesRange::Days7, AccountOrder::Revenue).await.unwrap();
    let gross = [&a1, &a2, &b1].iter().fold(Money::ZERO, |sum, i| sum.checked_add(i.amounts.customer).unwrap());
    assert_eq!((sales.report.total.paid, sales.report.total.failed), (3, 1));
    assert_eq!(sales.report.total.gross, gross, "every account's revenue, summed");
    // The same figures as each account's own overview, added up.
    let mut cabinets = vp_domain::sales::Figures::default();
    for account in [&first, &other] {
        cabinets += w.app.sales.report(account, SalesRange::Days7).await.unwrap().total;
    }
    assert_eq!(sales.report.total, cabinets);
    let names: Vec<&str> = sales.accounts.iter().map(|a| a.brand_name.as_str()).collect();
    assert_eq!(names, [first.brand_name.as_str(), "Other VPN"], "by revenue: two sales before one");
    w.clock.advance(Duration::seconds(1));
    let by_failures = w.app.operator_view.sales(&ops, SalesRange::Days7, AccountOrder::Failures).await.unwrap();
    assert_eq!(by_failures.accounts[0].brand_name, "Other VPN", "one payment in two declined");
    assert_eq!(by_failures.accounts[0].figures.failure_percent(), Some(50));

    // What is owed: each account's balance as its cabinet shows it, and a withdrawal waiting.
    let member = w.actor(first.id.as_str(), "member@example.com").await;
    let asked = w.app.cabinet.request_withdrawal(&member, "1.00", "IBAN 1").await.unwrap();
    w.clock.advance(Duration::seconds(1));
    let owed = w.app.operator_view.owed(&ops).await.unwrap();
    for (id, _, balance) in &owed.balances {
        assert_eq!(*balance, w.app.ledger.balance(id).await.unwrap(), "{id}");
    }
    assert_eq!(owed.balances.len(), 2);
    let partner_shares =
        [&a1, &a2, &b1].iter().fold(Money::ZERO, |sum, i| sum.checked_add(i.amounts.partner_share).unwrap());
    assert_eq!(owed.total.total(), partner_shares, "the partners' shares are owed until paid out");
    assert_eq!(owed.total.held, Money::from_kopecks(100), "the withdrawal holds what it asks for");
    let waiting: Vec<&str> = owed.waiting.iter().map(|(w, _)| w.id.as_str()).collect();
    assert_eq!(waiting, [asked.id.as_str()]);
    assert_eq!(owed.waiting_total, Money::from_kopecks(100));

    let viewed: Vec<(OperatorAction, String)> = audit(&w, &ops)
        .await
        .into_iter()
        .filter(|(actor, ..)| actor == "ops@example.com")
        .map(|(_, action, detail)| (action, detail))
        .filter(|(action, _)| !matches!(action, OperatorAction::PasswordSet))
        .collect();
    assert_eq!(viewed.len(), 3, "{viewed:?}");
    assert_eq!(viewed[0].0, OperatorAction::ViewedSales);
    assert!(viewed[0].1.contains("sales 7d") && viewed[0].1.contains("by revenue: 2 accounts"), "{}", viewed[0].1);
    assert!(viewed[0].1.contains(&format!("gross {gross}")), "what it showed: {}", viewed[0].1);
    assert!(viewed[1].1.contains("by failures"), "{}", viewed[1].1);
    assert_eq!(viewed[2].0, OperatorAction::ViewedLedger);
    assert!(viewed[2].1.contains("1 withdrawals waiting (1.00)"), "{}", viewed[2].1);
    w.clock.advance(Duration::seconds(1));
    let latest = w.app.operator_view.audit(&ops, None).await.unwrap();
    let actions: Vec<OperatorAction> = latest.iter().take(2).map(|e| e.action).collect();
    assert_eq!(
        actions,
        [OperatorAction::ViewedActivity, OperatorAction::ViewedLedger],
        "looking at the audit is audited too"
    );
}

#[tokio::test]
async fn the_owed_page_says_when_more_withdrawals_wait_than_it_shows() {
    let w = World::new().await;
    let account = w.account().await;
    w.pay(&account, "alice").await;
    let member = w.actor(account.id.as_str(), "member@example.com").await;
    let ops = operator(&w, "ops@example.com").await;
    for n in 0..200 {
        w.clock.advance(Duration::seconds(1));
        w.app.cabinet.request_withdrawal(&member, "0.01", &format!("IBAN {n}")).await.unwrap();
    }
    let owed = w.app.operator_view.owed(&ops).await.unwrap();
    assert_eq!((owed.waiting.len(), owed.more_waiting), (200, true), "the newest 200, and a line saying more wait");
    assert_eq!(owed.waiting[0].0.payout_details, "IBAN 199", "newest first");
    assert_eq!(owed.total.held, Money::from_kopecks(200), "the balance holds every one of them");
    w.clock.advance(Duration::seconds(1));
    let fewer = {
        let asked = w.app.cabinet.withdrawals(&member, None).await.unwrap();
        w.app.ledger.step_withdrawal(&asked[0].id, vp_domain::withdrawal::WithdrawalStep::Reject, None).await.unwrap();
        w.app.operator_view.owed(&ops).await.unwrap()
    };
    assert_eq!((fewer.waiting.len(), fewer.more_waiting), (199, false));
}
