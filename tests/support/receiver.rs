//! A partner's webhook receiver on loopback: accepts every request, answers 200, and hands
//! each one (headers and raw body) to the test.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver as Channel, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

#[derive(Debug, Clone)]
pub struct Delivered {
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Delivered {
    pub fn header(&self, name: &str) -> &str {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map_or("", |(_, v)| v.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).expect("event body is JSON")
    }

    /// Whether the event carries a valid Standard Webhooks signature under `secret`.
    pub fn signed_by(&self, secret: &str) -> bool {
        let timestamp: i64 = self.header("webhook-timestamp").parse().unwrap_or_default();
        let (id, signature) = (self.header("webhook-id"), self.header("webhook-signature"));
        vp_webhooks::signature::verify(secret, id, timestamp, self.body.as_bytes(), signature)
    }
}

pub struct Receiver {
    pub url: String,
    requests: Channel<Delivered>,
    /// While set, every request is answered 500 (a partner server failing).
    refusing: Arc<AtomicBool>,
}

impl Receiver {
    pub fn start() -> Receiver {
        Receiver::start_hanging(0)
    }

    /// A receiver that never answers its first `hang` requests (a stuck partner server); it
    /// still reports them, then answers the rest.
    pub fn start_hanging(hang: usize) -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind receiver");
        let url = format!("http://{}/hooks", listener.local_addr().expect("receiver address"));
        let (tx, requests) = channel();
        let refusing = Arc::new(AtomicBool::new(false));
        let refuse = refusing.clone();
        std::thread::spawn(move || {
            let mut held = vec![];
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let mut reader = BufReader::new(stream.try_clone().expect("clone stream"));
                let mut headers = vec![];
                let mut line = String::new();
                let started = reader.read_line(&mut line).unwrap_or(0) > 0; // request line
                let mut headers_ended = false;
                loop {
                    line.clear();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        break;
                    }
                    if line.trim().is_empty() {
                        headers_ended = true;
                        break;
                    }
                    if let Some((k, v)) = line.trim_end().split_once(':') {
                        headers.push((k.trim().to_owned(), v.trim().to_owned()));
                    }
                }
                let len = headers
                    .iter()
                    .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
                    .and_then(|(_, v)| v.parse().ok())
                    .unwrap_or(0);
                let mut body = vec![0; len];
                // A sender that went away mid-request (an instance killed while sending) delivered
                // nothing: not answered, not reported.
                if !started || !headers_ended || reader.read_exact(&mut body).is_err() {
                    continue;
                }
                if held.len() < hang {
                    held.push(stream);
                } else if refuse.load(Ordering::SeqCst) {
                    let _ = stream.write_all(b"HTTP/1.1 500 Oops\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
                    continue;
                } else {
                    let _ = stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
                }
                if tx.send(Delivered { headers, body: String::from_utf8_lossy(&body).into_owned() }).is_err() {
                    return;
                }
            }
        });
        Receiver { url, requests, refusing }
    }

    /// From now on answers every request 500 (`true`) or 200 again (`false`). Refused
    /// requests are not reported.
    pub fn refuse(&self, refusing: bool) {
        self.refusing.store(refusing, Ordering::SeqCst);
    }

    /// Every request accepted since the last look, without waiting.
    pub fn drain(&self) -> Vec<Delivered> {
        self.requests.try_iter().collect()
    }

    /// How many requests arrived since the last look, without waiting.
    pub fn received_so_far(&self) -> usize {
        self.requests.try_iter().count()
    }

    /// The next event of `event_type`, skipping others; panics after `within`.
    pub fn next_of(&self, event_type: &str, within: Duration) -> Delivered {
        let deadline = Instant::now() + within;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.requests.recv_timeout(left) {
                Ok(d) if d.json()["type"] == event_type => return d,
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                    panic!("no {event_type} event within {within:?}")
                }
            }
        }
    }
}
