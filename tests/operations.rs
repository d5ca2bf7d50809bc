//! Production operations of the real binary, on both backends: graceful shutdown, after a drain
//! time in which `/ready` tells the proxy to take the instance out.

use crate::support;

use std::time::{Duration, Instant};

use support::partner::subscription;
use support::server::{Backend, Server};

each_backend!(
    sigterm_lets_the_request_in_flight_finish_and_exits_0,
    sigterm_first_answers_ready_503_and_goes_on_serving_for_the_drain_time,
);

fn sigterm_lets_the_request_in_flight_finish_and_exits_0(backend: Backend) {
    let Some(mut s) = Server::start(backend, "sigterm") else { return };
    s.cli_settled(&["sandbox", "gateway", "slow:3000"]);
    let (port, auth) = (s.port, format!("Bearer {}", s.key));
    let body = subscription("patient", 1).to_string();
    let started = Instant::now();
    let in_flight = std::thread::spawn(move || {
        let headers =
            [("authorization", auth.as_str()), ("content-type", "application/json"), ("idempotency-key", "k-term")];
        support::server::request(port, "POST", "/api/partner/v1/payments", &headers, Some(body.as_bytes()))
    });
    std::thread::sleep(Duration::from_millis(700)); // the request now waits on the slow gateway
    let _ = std::process::Command::new("kill").args(["-TERM", &s.pid().to_string()]).status();
    std::thread::sleep(Duration::from_millis(300));
    assert!(!answers_a_new_request(port), "after SIGTERM no new request is served");
    let answer = in_flight.join().expect("the request thread");
    assert_eq!(answer.status, 201, "the request in flight completed: {}", answer.text());
    assert!(started.elapsed() >= Duration::from_secs(3), "it waited for the slow gateway");
    assert_eq!(s.terminate(), Some(0), "a clean exit after SIGTERM");
}

fn sigterm_first_answers_ready_503_and_goes_on_serving_for_the_drain_time(backend: Backend) {
    let Some(mut s) = Server::start_with(backend, "drain", &[("VP_DRAIN_SECONDS", "3")]) else { return };
    assert_eq!(s.request("GET", "/ready", &[], None).status, 200);
    let asked = Instant::now();
    let _ = std::process::Command::new("kill").args(["-TERM", &s.pid().to_string()]).status();
    std::thread::sleep(Duration::from_millis(300));
    let ready = s.request("GET", "/ready", &[], None);
    assert_eq!((ready.status, ready.json()["status"].as_str()), (503, Some("draining")), "the proxy takes it out");
    let account = s.api("GET", "/account", None, &[]);
    assert_eq!(account.status, 200, "still serving while the proxy notices: {}", account.text());
    assert_eq!(s.request("GET", "/health", &[], None).status, 200, "alive");
    assert_eq!(s.terminate(), Some(0), "a clean exit once drained");
    assert!(asked.elapsed() >= Duration::from_secs(3), "it served for the whole drain time");
}

/// Whether a new connection gets an HTTP answer within half a second.
fn answers_a_new_request(port: u16) -> bool {
    use std::io::{Read, Write};
    let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", port)) else { return false };
    let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
    if stream.write_all(b"GET /health HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n").is_err() {
        return false;
    }
    let mut first = [0u8; 1];
    matches!(stream.read(&mut first), Ok(1))
}
