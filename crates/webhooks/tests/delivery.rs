//! The sender over real HTTP against a receiver on loopback (admitted by the operator-only
//! allow-list, as in our integration tests): what a partner's server receives.

use std::time::Duration as StdDuration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use vp_ports::{OutgoingWebhook, WebhookSender};
use vp_webhooks::signature::verify;
use vp_webhooks::{AddressPolicy, HttpsSender};

const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

/// Accepts one request, answers with `response`, and returns the raw request.
async fn receiver(response: &'static str) -> (String, tokio::task::JoinHandle<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hooks", listener.local_addr().unwrap());
    let task = tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut raw = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            let n = socket.read(&mut buf).await.unwrap();
            raw.extend_from_slice(&buf[..n]);
            let text = String::from_utf8_lossy(&raw).to_string();
            if let Some((head, body)) = text.split_once("\r\n\r\n") {
                let len: usize = head
                    .lines()
                    .find_map(|l| {
                        l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse().unwrap())
                    })
                    .unwrap_or(0);
                if body.len() >= len {
                    break;
                }
            }
            if n == 0 {
                break;
            }
        }
        socket.write_all(response.as_bytes()).await.unwrap();
        String::from_utf8(raw).unwrap()
    });
    (url, task)
}

fn header<'a>(raw: &'a str, name: &str) -> Option<&'a str> {
    raw.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

fn sender() -> HttpsSender {
    HttpsSender::new(AddressPolicy { allowed: vec!["127.0.0.1".parse().unwrap()] }).unwrap()
}

#[tokio::test]
async fn a_2xx_is_delivered_and_the_request_is_signed_as_the_spec_describes() {
    let (url, got) = receiver("HTTP/1.1 204 No Content\r\ncontent-length: 0\r\n\r\n").await;
    let body = r#"{"type":"webhook.test","timestamp":"2026-11-23T10:00:00.000000Z","data":{}}"#;
    let r = sender().send(&OutgoingWebhook { url: &url, webhook_id: "msg_1", body, secrets: vec![SECRET] }).await;
    assert!(r.accepted(), "{r:?}");
    assert_eq!(r.status_code, Some(204));
    let raw = got.await.unwrap();
    assert!(raw.starts_with("POST /hooks HTTP/1.1"));
    assert_eq!(header(&raw, "content-type"), Some("application/json"));
    assert_eq!(header(&raw, "webhook-id"), Some("msg_1"));
    let timestamp: i64 = header(&raw, "webhook-timestamp").unwrap().parse().unwrap();
    let now =
        i64::try_from(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs()).unwrap();
    assert!((now - timestamp).abs() < 60, "the send time of this attempt");
    let received_body = raw.split_once("\r\n\r\n").unwrap().1;
    assert_eq!(received_body, body, "the body exactly as recorded");
    assert!(verify(SECRET, "msg_1", timestamp, received_body.as_bytes(), header(&raw, "webhook-signature").unwrap()));
}

#[tokio::test]
async fn a_redirect_is_a_failure_and_is_not_followed() {
    let (url, got) =
        receiver("HTTP/1.1 301 Moved\r\nlocation: http://127.0.0.1:9/elsewhere\r\ncontent-length: 0\r\n\r\n").await;
    let r = sender().send(&OutgoingWebhook { url: &url, webhook_id: "msg_2", body: "{}", secrets: vec![SECRET] }).await;
    got.await.unwrap();
    assert_eq!(r.status_code, Some(301));
    assert!(!r.accepted());
    assert!(r.error.unwrap().contains("redirects are not followed"));
}

#[tokio::test]
async fn retry_after_is_read_from_an_error_response() {
    let (url, got) = receiver("HTTP/1.1 429 Too Many\r\nretry-after: 120\r\ncontent-length: 0\r\n\r\n").await;
    let r = sender().send(&OutgoingWebhook { url: &url, webhook_id: "msg_3", body: "{}", secrets: vec![SECRET] }).await;
    got.await.unwrap();
    assert_eq!(r.status_code, Some(429));
    assert_eq!(r.retry_after, Some(time::Duration::seconds(120)));
}

#[tokio::test]
async fn a_closed_port_is_a_failure_without_a_status() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hooks", listener.local_addr().unwrap());
    drop(listener);
    let send = sender();
    let webhook = OutgoingWebhook { url: &url, webhook_id: "msg_4", body: "{}", secrets: vec![SECRET] };
    let r = tokio::time::timeout(StdDuration::from_secs(20), send.send(&webhook)).await.unwrap();
    assert_eq!(r.status_code, None);
    assert!(r.error.unwrap().starts_with("request failed"));
}

/// A receiver that keeps connections open and answers every request on them with 200;
/// returns its URL and the number of connections it accepted so far.
async fn keep_alive_receiver() -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hooks", listener.local_addr().unwrap());
    let connections = std::sync::Arc::new(AtomicUsize::new(0));
    let counted = connections.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else { return };
            counted.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                let mut pending = Vec::new();
                let mut buf = [0u8; 4096];
                loop {
                    let Ok(n) = socket.read(&mut buf).await else { return };
                    if n == 0 {
                        return;
                    }
                    pending.extend_from_slice(&buf[..n]);
                    // Answer every complete request in the buffer.
                    while let Some(end) = pending.windows(4).position(|w| w == b"\r\n\r\n") {
                        let head = String::from_utf8_lossy(&pending[..end]).to_ascii_lowercase();
                        let len: usize = head
                            .lines()
                            .find_map(|l| l.strip_prefix("content-length:").map(|v| v.trim().parse().unwrap_or(0)))
                            .unwrap_or(0);
                        if pending.len() < end + 4 + len {
                            break;
                        }
                        pending.drain(..end + 4 + len);
                        if socket.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").await.is_err() {
                            return;
                        }
                    }
                }
            });
        }
    });
    (url, connections)
}

#[tokio::test]
async fn attempts_to_one_endpoint_reuse_its_connection() {
    let (url, connections) = keep_alive_receiver().await;
    let s = sender();
    for n in 0..5 {
        let id = format!("msg_{n}");
        let r = s.send(&OutgoingWebhook { url: &url, webhook_id: &id, body: "{}", secrets: vec![SECRET] }).await;
        assert!(r.accepted(), "{r:?}");
    }
    assert_eq!(connections.load(std::sync::atomic::Ordering::SeqCst), 1, "five attempts, one connection");
}
