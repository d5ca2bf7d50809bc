//! The daily sales figures agree with the facts: after any sequence of payments, renewals
//! (a client paying again), declines, unpaid invoices that expire, refunds (recalls), trials,
//! their conversions and days passing, the rebuilt rollups equal what the test itself recorded
//! it did, day by day and method by method (every client here comes through the API).

use crate::support;
use crate::support::World;

use std::collections::BTreeMap;

use proptest::prelude::*;
use time::{Date, Duration};
use vp_domain::sales::{Channel, Figures};
use vp_domain::{IdempotencyKey, Money, PaymentOutcome};
use vp_ports::DailySales;

#[derive(Debug, Clone)]
enum Op {
    /// A client (0-7) pays a plan (1 or 2) by a method: its first payment is its first
    /// purchase (converting its trial when it had one), a later one a renewal.
    Pay { client: u8, plan: i32, sbp: bool },
    /// The gateway declines an invoice.
    Decline { client: u8 },
    /// An invoice is left unpaid (it expires at its deadline).
    Leave { client: u8 },
    /// The n-th paid invoice so far is recalled (refunded).
    Refund { nth: usize },
    /// A client (4-7) not made yet starts the trial.
    Trial { client: u8 },
    /// Time passes.
    Wait { hours: i64 },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0u8..8, 1i32..3, any::<bool>()).prop_map(|(client, plan, sbp)| Op::Pay { client, plan, sbp }),
        1 => (0u8..4).prop_map(|client| Op::Decline { client }),
        1 => (0u8..4).prop_map(|client| Op::Leave { client }),
        1 => (0usize..8).prop_map(|nth| Op::Refund { nth }),
        1 => (4u8..8).prop_map(|client| Op::Trial { client }),
        2 => (1i64..30).prop_map(|hours| Op::Wait { hours }),
    ]
}

/// What the test did, as it expects the figures to count it.
#[derive(Default)]
struct Expected {
    days: BTreeMap<(Date, String), Figures>,
}

impl Expected {
    fn at(&mut self, day: Date, method: &str) -> &mut Figures {
        self.days.entry((day, method.to_owned())).or_default()
    }
}

async fn run(ops: Vec<Op>) {
    let w = World::new().await;
    let account = w.account().await;
    let zone = account.time_zone.clone();
    let first_day = zone.day(w.clock.now_for_test());
    let mut expected = Expected::default();
    // (day, method, amount, partner share) of each paid invoice, by payment id.
    let mut paid: Vec<(String, Date, String, Money, Money, bool)> = Vec::new();
    let mut trials = std::collections::HashSet::new();
    let mut made = std::collections::HashSet::new();
    let mut bought = std::collections::HashSet::new();
    for (n, op) in ops.into_iter().enumerate() {
        // A second between steps, as between any two customers' clicks: a client's first
        // purchase is its earliest paid invoice, which equal times would leave to the ids.
        w.clock.advance(Duration::seconds(1));
        let now = w.clock.now_for_test();
        let day = zone.day(now);
        // An invoice of `client` for `plan` by `method`, paid, declined or left unpaid.
        let invoice = match op {
            Op::Pay { client, plan, sbp } => Some((client, plan, if sbp { "sbp" } else { "card" }, Some(true))),
            Op::Decline { client } => Some((client, 1, "card", Some(false))),
            Op::Leave { client } => Some((client, 1, "card", None)),
            _ => None,
        };
        if let Some((client, plan, method, outcome)) = invoice {
            let request = support::order(&format!("c{client}"), plan, method);
            let key = IdempotencyKey::parse(Some(&format!("op-{n}"))).unwrap();
            let issued = w.app.payments.create_invoice(&account, key, request).await.unwrap().invoice;
            if made.insert(client) {
                expected.at(day, "").new_clients += 1;
            }
            let f = expected.at(day, method);
            f.issued += 1;
            match outcome {
                Some(true) => {
                    w.app.payments.apply_payment_outcome(&issued.payment_id, PaymentOutcome::Paid).await.unwrap();
                    f.paid += 1;
                    if bought.insert(client) {
                        f.first_purchases += 1;
                        f.converted += u32::from(trials.contains(&client));
                    } else {
                        f.renewals_manual += 1;
                    }
                    f.gross = f.gross.checked_add(issued.amounts.customer).unwrap();
                    f.partner_share = f.partner_share.checked_add(issued.amounts.partner_share).unwrap();
                    let (amount, share) = (issued.amounts.customer, issued.amounts.partner_share);
                    paid.push((issued.payment_id.to_string(), day, method.to_owned(), amount, share, false));
                }
                Some(false) => {
                    let declined = PaymentOutcome::AttemptFailed;
                    w.app.payments.apply_payment_outcome(&issued.payment_id, declined).await.unwrap();
                    f.failed += 1;
                }
                None => f.expired += 1,
            }
            continue;
        }
        match op {
            Op::Refund { nth } => {
                let Some(entry) = paid.iter_mut().filter(|p| !p.5).nth(nth) else { continue };
                let payment_id = vp_domain::PaymentId::parse(&entry.0).unwrap();
                w.app.payments.apply_payment_outcome(&payment_id, PaymentOutcome::BankRecall).await.unwrap();
                entry.5 = true;
                let (day, method, amount, share) = (entry.1, entry.2.clone(), entry.3, entry.4);
                let f = expected.at(day, &method);
                f.refunded += 1;
                f.gross = f.gross.checked_sub(amount).unwrap();
                f.partner_share = f.partner_share.checked_sub(share).unwrap();
            }
            Op::Trial { client } => {
                let id = support::cid(&format!("c{client}"));
                if made.insert(client) {
                    trials.insert(client);
                    w.app.clients.start_trial(&account, &id).await.unwrap();
                    expected.at(day, "").trials += 1;
                    expected.at(day, "").new_clients += 1;
                }
            }
            Op::Wait { hours } => w.clock.advance(Duration::hours(hours)),
            Op::Pay { .. } | Op::Decline { .. } | Op::Leave { .. } => {}
        }
    }
    // The invoices left unpaid expire at their deadline.
    w.clock.advance(Duration::hours(1));
    w.app.payments.expire_overdue_invoices(1_000).await.unwrap();
    let last_day = zone.day(w.clock.now_for_test());
    // A paid subscription whose term ran out by now ended on its day (as the client stands:
    // a renewal moved its end).
    for client in &bought {
        let view = w.app.clients.client_view(&account, &support::cid(&format!("c{client}"))).await.unwrap();
        let ended = view.subscription.filter(|s| !s.is_trial && !s.lifetime && s.expires_at < w.clock.now_for_test());
        if let Some(subscription) = ended {
            expected.at(zone.day(subscription.expires_at), "").ended += 1;
        }
    }

    w.app.sales.rebuild(&account.id, first_day, last_day).await.unwrap();
    let mut tx = w.store.read().await.unwrap();
    let rows = tx.daily_sales(&account.id, first_day, last_day).await.unwrap();
    tx.commit().await.unwrap();
    assert!(rows.iter().all(|r| r.channel == Channel::Api), "every client here came through the API");
    let got: BTreeMap<(Date, String), Figures> =
        rows.into_iter().map(|DailySales { day, method, figures, .. }| ((day, method), figures)).collect();
    let want: BTreeMap<(Date, String), Figures> =
        expected.days.into_iter().filter(|(_, f)| *f != Figures::default()).collect();
    assert_eq!(got, want);

    // A report of the range sums the same rows.
    let report = w.app.sales.report(&account, vp_domain::sales::SalesRange::Days7).await.unwrap();
    let mut in_range = Figures::default();
    for ((day, _), f) in &got {
        if (report.first..=report.last).contains(day) {
            in_range += *f;
        }
    }
    assert_eq!(report.total, in_range);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn the_daily_figures_equal_what_was_done_after_any_sequence_of_payments_refunds_trials_and_renewals(
        ops in proptest::collection::vec(op(), 1..40)
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(run(ops));
    }
}

#[tokio::test]
async fn the_jobs_rebuild_the_recent_days_every_five_minutes_and_the_last_92_once_a_day_across_instances() {
    let w = World::new().await;
    let account = w.account().await;
    let request = support::order("c1", 1, "card");
    let key = IdempotencyKey::parse(Some("job-1")).unwrap();
    let issued = w.app.payments.create_invoice(&account, key, request).await.unwrap().invoice;
    w.app.payments.apply_payment_outcome(&issued.payment_id, PaymentOutcome::Paid).await.unwrap();
    let paid_today = |w: &World| {
        let (store, zone, id) = (w.store.clone(), account.time_zone.clone(), account.id.clone());
        let today = zone.day(w.clock.now_for_test());
        async move {
            let mut tx = store.read().await.unwrap();
            let rows = tx.daily_sales(&id, today, today).await.unwrap();
            tx.commit().await.unwrap();
            rows.iter().map(|r| r.figures.paid).sum::<u32>()
        }
    };
    let sales = &w.app.sales;

    // The first run after an upgrade is the nightly one; another instance then finds it done.
    assert_eq!(sales.rebuild_when_due("instance-a").await.unwrap(), Some(true));
    assert_eq!(paid_today(&w).await, 1);
    assert_eq!(sales.rebuild_when_due("instance-b").await.unwrap(), None, "not due again yet");

    // Five minutes on, the recent days are due once, for whichever instance looks first.
    w.clock.advance(vp_app::sales::RECENT_EVERY);
    let key = IdempotencyKey::parse(Some("job-2")).unwrap();
    let issued = w.app.payments.create_invoice(&account, key, support::order("c2", 1, "card")).await.unwrap().invoice;
    w.app.payments.apply_payment_outcome(&issued.payment_id, PaymentOutcome::Paid).await.unwrap();
    // An instance in the middle of a rebuild holds the lease: nobody else starts one.
    let now = w.clock.now_for_test();
    let mut tx = w.store.begin().await.unwrap();
    assert!(
        tx.take_lease(vp_ports::Lease::SalesFigures, "instance-c", now, now + Duration::minutes(30)).await.unwrap()
    );
    tx.commit().await.unwrap();
    assert_eq!(sales.rebuild_when_due("instance-b").await.unwrap(), None, "instance-c holds the lease");
    let mut tx = w.store.begin().await.unwrap();
    tx.release_lease(vp_ports::Lease::SalesFigures, "instance-c").await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(sales.rebuild_when_due("instance-b").await.unwrap(), Some(false), "the recent days only");
    assert_eq!(paid_today(&w).await, 2);
    assert_eq!(sales.rebuild_when_due("instance-a").await.unwrap(), None);

    // The next UTC day brings the nightly rebuild again, once.
    w.clock.advance(Duration::days(1));
    assert_eq!(sales.rebuild_when_due("instance-a").await.unwrap(), Some(true));
    assert_eq!(sales.rebuild_when_due("instance-b").await.unwrap(), None);
}
