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

/// A reply's status and body.
pub struct Reply {
    pub status: u16,
    pub body: Vec<u8>,
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
        let (head_end, status, length) = loop {
            if let Some(end) = self.buf.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&self.buf[..end]).to_ascii_lowercase();
                let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
                let length = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .and_then(|v| v.trim().parse::<usize>().ok())
                    .unwrap_or(0);
                break (end + 4, status, length);
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
        Ok(Reply { status, body: self.buf[head_end..head_end + length].to_vec() })
    }
}
