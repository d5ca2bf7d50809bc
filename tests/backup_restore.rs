//! Backups that restore, black-box on both backends: a backup taken while invoices are being
//! created and paid and events delivered (`vp-api backup` for SQLite, `pg_dump` for
//! PostgreSQL), restored into a fresh database and served again: every invoice committed before
//! the backup is there in its state, no event delivered before the backup goes out again, and
//! the events undelivered at backup time are delivered after the restore (docs/operations.md).

use crate::support;

use std::collections::BTreeSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use support::partner::{pay, post_payment, rand_suffix, subscription};
use support::receiver::Receiver;
use support::server::{Backend, Server};

each_backend!(a_backup_taken_under_load_restores_to_a_service_that_loses_and_repeats_nothing);

const SECRETS_KEY: &str = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";

/// An invoice of the load as the partner saw it: when its creation and its payment answered.
struct Bought {
    payment_id: String,
    created: Instant,
    paid: Option<Instant>,
}

fn a_backup_taken_under_load_restores_to_a_service_that_loses_and_repeats_nothing(backend: Backend) {
    let env = [("VP_WEBHOOK_ALLOW_ADDRESSES", "127.0.0.1"), ("VP_SECRETS_KEY", SECRETS_KEY)];
    let Some(mut s) = Server::start_with(backend, "backup", &env) else { return };
    let receiver = Receiver::start();
    s.cli(&["endpoint", "add", &s.account_id, &receiver.url, "--type", "payment.succeeded"]);
    let limits = ["--requests-per-minute", "100000", "--payments-per-minute", "100000"];
    s.cli_settled(&[&["account", "limits", s.account_id.as_str()][..], &limits[..]].concat());

    let bought = Mutex::new(Vec::<Bought>::new());
    let stop = AtomicBool::new(false);
    let (backup, backup_started, backup_ended) = std::thread::scope(|scope| {
        for buyer in 0..2 {
            let (s, bought, stop) = (&s, &bought, &stop);
            scope.spawn(move || {
                let mut n = 0;
                while !stop.load(Ordering::SeqCst) {
                    let client = format!("buyer-{buyer}-{n}");
                    let created = post_payment(s, &format!("k-{client}-{}", rand_suffix()), &subscription(&client, 1));
                    assert_eq!(created.status, 201, "{}", created.text());
                    let payment_id = created.json()["payment_id"].as_str().unwrap().to_owned();
                    let created = Instant::now();
                    let paid = (n % 3 != 0).then(|| {
                        pay(s, &payment_id);
                        Instant::now()
                    });
                    bought.lock().unwrap().push(Bought { payment_id, created, paid });
                    n += 1;
                }
            });
        }
        // Events go out, then the partner's server fails for a while: the events of that
        // while are undelivered (their next attempt 5 s away) when the backup is taken.
        std::thread::sleep(Duration::from_millis(1_500));
        receiver.refuse(true);
        std::thread::sleep(Duration::from_millis(700));
        let started = Instant::now();
        let backup = s.db.backup();
        let ended = Instant::now();
        std::thread::sleep(Duration::from_millis(300));
        stop.store(true, Ordering::SeqCst);
        (backup, started, ended)
    });
    let again = s.db.cli_raw(&["backup", backup.to_str().unwrap()]);
    assert!(again.0 == Some(2) && again.1.contains("never overwrites"), "{again:?}");
    if backend == Backend::Postgres {
        let elsewhere = backup.with_extension("sqlite");
        let refused = s.db.cli_raw(&["backup", elsewhere.to_str().unwrap()]);
        assert!(refused.0 == Some(2) && refused.1.contains("pg_dump"), "PostgreSQL has its own tools: {refused:?}");
    }

    // The database is lost with its server; the partner's server recovers meanwhile.
    s.terminate();
    receiver.refuse(false);
    receiver.drain();

    let restored = s.db.restore(&backup, "restored");
    let in_backup = |status: &str| -> BTreeSet<String> {
        let sql = format!("SELECT event_id FROM webhook_deliveries WHERE status = '{status}'");
        restored.query_sql(&sql).into_iter().collect()
    };
    let (delivered, undelivered) = (in_backup("delivered"), in_backup("pending"));
    assert!(!delivered.is_empty(), "events went out before the backup");
    assert!(!undelivered.is_empty(), "and some were undelivered when it was taken");

    // The drill's step before starting (docs/operations.md): the lost processes' leases go.
    assert!(restored.cli(&["release-leases"])["deliveries_freed"].is_u64());
    let r = Server::start_on(restored, s.key.clone(), s.account_id.clone());
    let bought = bought.into_inner().unwrap();
    let mut committed = 0;
    for b in &bought {
        let shown = r.api("GET", &format!("/payments/{}", b.payment_id), None, &[]);
        if b.created < backup_started {
            committed += 1;
            assert_eq!(shown.status, 200, "{} was committed before the backup: {}", b.payment_id, shown.text());
            if b.paid.is_some_and(|paid| paid < backup_started) {
                assert_eq!(shown.json()["status"], "succeeded", "{} was paid before the backup", b.payment_id);
            }
        } else if b.created > backup_ended + Duration::from_millis(200) {
            assert_eq!(shown.status, 404, "{} came after the backup", b.payment_id);
        }
    }
    assert!(committed >= 10, "a backup under load: {committed} invoices before it");

    // Their next attempt was due 5 s after the failed one; nothing waits for a lease.
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut after_restore = BTreeSet::new();
    while !undelivered.is_subset(&after_restore) {
        assert!(Instant::now() < deadline, "undelivered at backup time, still missing: {:?}", {
            undelivered.difference(&after_restore).collect::<Vec<_>>()
        });
        std::thread::sleep(Duration::from_millis(200));
        after_restore.extend(receiver.drain().iter().map(|d| d.header("webhook-id").to_owned()));
    }
    std::thread::sleep(Duration::from_secs(1));
    after_restore.extend(receiver.drain().iter().map(|d| d.header("webhook-id").to_owned()));
    eprintln!(
        "backup under load: {committed} of {} invoices before it; events delivered {}, undelivered {}, sent after the restore {}",
        bought.len(),
        delivered.len(),
        undelivered.len(),
        after_restore.len()
    );
    let repeated: Vec<&String> = delivered.intersection(&after_restore).collect();
    assert!(repeated.is_empty(), "delivered before the backup, sent again: {repeated:?}");
}
