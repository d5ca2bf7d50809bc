//! A minimal keep-alive HTTP/1.1 client: enough for a load harness, with nothing between the
//! measurement and the socket.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

pub struct Conn {
    stream: TcpStream,
    port: u16,
    buf: Vec<u8>,
}

/// A reply's status, headers and body.
pub struct Reply {
    pub status: u16,
    /// The status line and headers, as sent.
    pub head: String,
    pub body: Vec<u8>,
}

impl Reply {
    /// The values of every header `name` (lower case), in order.
    pub fn headers<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.head.lines().filter_map(move |l| {
            let (k, v) = l.split_once(':')?;
            k.trim().eq_ignore_ascii_case(name).then_some(v.trim())
        })
    }
}

impl Conn {
    pub async fn open(port: u16) -> std::io::Result<Conn> {
        let stream = TcpStream::connect(("127.0.0.1", port)).await?;
        stream.set_nodelay(true)?;
        Ok(Conn { stream, port, buf: Vec::with_capacity(8192) })
    }

    pub async fn send(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> std::io::Result<Reply> {
        let mut req = format!("{method} {path} HTTP/1.1\r\nhost: 127.0.0.1:{}\r\n", self.port);
        for (k, v) in headers {
            req.push_str(k);
            req.push_str(": ");
            req.push_str(v);
            req.push_str("\r\n");
        }
        req.push_str(&format!("content-length: {}\r\n\r\n", body.len()));
        let mut out = req.into_bytes();
        out.extend_from_slice(body);
        tokio::time::timeout(Duration::from_secs(30), self.exchange(&out)).await.map_err(std::io::Error::other)?
    }

    async fn exchange(&mut self, request: &[u8]) -> std::io::Result<Reply> {
        self.stream.write_all(request).await?;
        self.buf.clear();
        let mut chunk = [0u8; 8192];
        let (head_end, head, status, length) = loop {
            if let Some(end) = self.buf.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&self.buf[..end]).into_owned();
                let lower = head.to_ascii_lowercase();
                let status = lower.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
                let length = lower
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .and_then(|v| v.trim().parse::<usize>().ok())
                    .unwrap_or(0);
                break (end + 4, head, status, length);
            }
            let n = self.stream.read(&mut chunk).await?;
            if n == 0 {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
            self.buf.extend_from_slice(&chunk[..n]);
        };
        while self.buf.len() < head_end + length {
            let n = self.stream.read(&mut chunk).await?;
            if n == 0 {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
            self.buf.extend_from_slice(&chunk[..n]);
        }
        Ok(Reply { status, head, body: self.buf[head_end..head_end + length].to_vec() })
    }
}
