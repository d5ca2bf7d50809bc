//! Event delivery at scale, black-box on both backends: a slow partner endpoint holds only its
//! own slots, and another endpoint's events keep arriving within a second of their cause.

use crate::support;

use std::time::{Duration, Instant};

use support::partner::buy;
use support::receiver::Receiver;
use support::server::{Backend, Server};

each_backend!(a_slow_endpoint_does_not_delay_another_endpoints_events);

/// Attempts one process keeps in flight to one endpoint (`PER_ENDPOINT_IN_FLIGHT`).
const PER_ENDPOINT_IN_FLIGHT: usize = 16;

fn a_slow_endpoint_does_not_delay_another_endpoints_events(backend: Backend) {
    let env = [("VP_WEBHOOK_ALLOW_ADDRESSES", "127.0.0.1")];
    let Some(s) = Server::start_with(backend, "slow_endpoint", &env) else { return };
    // The slow partner never answers in time (each attempt runs into the 15-second limit).
    let slow = Receiver::start_hanging(usize::MAX);
    let fast = Receiver::start();
    for url in [&slow.url, &fast.url] {
        s.cli(&["endpoint", "add", &s.account_id, url, "--type", "payment.succeeded"]);
    }
    let payments = PER_ENDPOINT_IN_FLIGHT * 2 + 8;
    for n in 0..payments {
        let paid_at = Instant::now();
        let paid = buy(&s, &format!("buyer-{n}"), 1);
        let event = fast.next_of("payment.succeeded", Duration::from_secs(2));
        let lag = paid_at.elapsed();
        assert_eq!(event.json()["data"]["payment_id"], paid["payment_id"], "the events arrive in order here");
        assert!(lag < Duration::from_secs(1), "payment {n}: the fast endpoint waited {lag:?}");
    }
    let held = slow.received_so_far();
    assert!(
        (1..=PER_ENDPOINT_IN_FLIGHT).contains(&held),
        "the slow endpoint holds at most {PER_ENDPOINT_IN_FLIGHT} attempts at once, got {held}"
    );
}
