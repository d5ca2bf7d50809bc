//! A tiny threaded HTTP/1.1 server and client for emulators and tests. Hand-written on
//! purpose: an emulator must misbehave at the socket level (hang, close without answering),
//! which a framework makes hard, and tests must not need an async runtime to drive it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::Value;

/// A request as the emulator received it.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    /// The path without the query string.
    pub path: String,
    pub query: String,
    /// Header names in lower case.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub peer: SocketAddr,
}

impl Request {
    /// The query string's pairs, decoded as a form's.
    pub fn query_pairs(&self) -> Vec<(String, String)> {
        self.query
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|pair| {
                let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                (form_decode(k), form_decode(v))
            })
            .collect()
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The body as JSON; `None` when empty or not JSON.
    pub fn json(&self) -> Option<Value> {
        serde_json::from_slice(&self.body).ok()
    }

    /// Path segments after `prefix`, e.g. `segments("/api/users/")` of `/api/users/7/actions`.
    pub fn segments(&self, prefix: &str) -> Option<Vec<&str>> {
        let rest = self.path.strip_prefix(prefix)?;
        Some(rest.split('/').filter(|s| !s.is_empty()).collect())
    }
}

/// What the server does with a request.
#[derive(Debug, Clone)]
pub enum Reply {
    Respond {
        status: u16,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    },
    /// Close the connection without writing anything.
    Close,
}

impl Reply {
    pub fn json(status: u16, body: &Value) -> Reply {
        Reply::Respond {
            status,
            headers: vec![("content-type".into(), "application/json; charset=utf-8".into())],
            body: body.to_string().into_bytes(),
        }
    }

    pub fn empty(status: u16) -> Reply {
        Reply::Respond { status, headers: vec![], body: vec![] }
    }

    pub fn text(status: u16, text: &str) -> Reply {
        Reply::Respond {
            status,
            headers: vec![("content-type".into(), "text/plain; charset=utf-8".into())],
            body: text.as_bytes().to_vec(),
        }
    }

    pub fn with_header(mut self, name: &str, value: &str) -> Reply {
        if let Reply::Respond { headers, .. } = &mut self {
            headers.push((name.to_owned(), value.to_owned()));
        }
        self
    }
}

type Handler = dyn Fn(&Request) -> Reply + Send + Sync;

/// A server on `127.0.0.1:<free port>`, one thread per connection, one request per connection
/// (`connection: close`). Stops accepting when dropped.
pub struct HttpServer {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    accept: Option<JoinHandle<()>>,
}

impl HttpServer {
    pub fn start(handler: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> HttpServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind an emulator port");
        let addr = listener.local_addr().expect("emulator address");
        let stop = Arc::new(AtomicBool::new(false));
        let handler: Arc<Handler> = Arc::new(handler);
        let stopping = stop.clone();
        let accept = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopping.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let handler = handler.clone();
                std::thread::spawn(move || serve(stream, handler.as_ref()));
            }
        });
        HttpServer { addr, stop, accept: Some(accept) }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn port(&self) -> u16 {
        self.addr.port()
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.addr); // wakes the accept loop
        if let Some(t) = self.accept.take() {
            let _ = t.join();
        }
    }
}

fn serve(stream: TcpStream, handler: &Handler) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
    let Ok(peer) = stream.peer_addr() else { return };
    let Some(request) = read_request(&stream, peer) else { return };
    match handler(&request) {
        Reply::Close => {
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
        Reply::Respond { status, headers, body } => {
            let mut out = stream;
            let mut head = format!("HTTP/1.1 {status} {}\r\nconnection: close\r\n", reason(status));
            for (k, v) in &headers {
                head.push_str(&format!("{k}: {v}\r\n"));
            }
            head.push_str(&format!("content-length: {}\r\n\r\n", body.len()));
            let _ = out.write_all(head.as_bytes());
            let _ = out.write_all(&body);
            let _ = out.flush();
        }
    }
}

fn read_request(stream: &TcpStream, peer: SocketAddr) -> Option<Request> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_owned();
    let target = parts.next()?.to_owned();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).ok()? == 0 {
            return None;
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        let (k, v) = h.split_once(':')?;
        headers.push((k.trim().to_ascii_lowercase(), v.trim().to_owned()));
    }
    let length = headers.iter().find(|(k, _)| k == "content-length").and_then(|(_, v)| v.parse().ok()).unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    let (path, query) = target.split_once('?').unwrap_or((&target, ""));
    Some(Request { method, path: path.to_owned(), query: query.to_owned(), headers, body, peer })
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        204 => "No Content",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

/// An answer the test client read.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// One blocking request to `http://127.0.0.1:PORT/...` (tests only; `connection: close`);
/// a chunked answer is read whole.
pub fn send(method: &str, url: &str, headers: &[(&str, &str)], body: &[u8]) -> std::io::Result<Answer> {
    let rest = url.strip_prefix("http://").ok_or_else(|| std::io::Error::other("only http:// URLs"))?;
    let (authority, path) = rest.split_once('/').map_or((rest, "/".to_owned()), |(a, p)| (a, format!("/{p}")));
    let mut stream = TcpStream::connect(authority)?;
    stream.set_read_timeout(Some(Duration::from_secs(60)))?;
    let mut head = format!("{method} {path} HTTP/1.1\r\nhost: {authority}\r\nconnection: close\r\n");
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str(&format!("content-length: {}\r\n\r\n", body.len()));
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    // Read the head, then as much body as it announces: some servers (chromedriver) keep the
    // connection open despite `connection: close`.
    let mut raw = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    let split = loop {
        if let Some(at) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            break at;
        }
        let n = stream.read(&mut chunk)?;
        if n == 0 {
            return Err(std::io::Error::other("the connection closed without an answer"));
        }
        raw.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other("no status line"))?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':').map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned())))
        .collect();
    let header = |name: &str| headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
    let chunked = header("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked"));
    let length: Option<usize> = header("content-length").and_then(|v| v.parse().ok());
    let bodyless = method == "HEAD" || status == 204 || status == 304;
    loop {
        let received = raw.len() - (split + 4);
        let complete = bodyless
            || length.is_some_and(|len| received >= len)
            || (chunked && raw[split + 4..].ends_with(b"0\r\n\r\n"));
        if complete {
            break;
        }
        let n = stream.read(&mut chunk)?;
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&chunk[..n]);
    }
    let mut body = raw[split + 4..].to_vec();
    if let Some(len) = length {
        body.truncate(len);
    }
    if chunked {
        body = dechunk(&body);
    }
    Ok(Answer { status, headers, body })
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(pos) = data.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(String::from_utf8_lossy(&data[..pos]).trim(), 16).unwrap_or(0);
        if size == 0 || data.len() < pos + 2 + size {
            break;
        }
        out.extend_from_slice(&data[pos + 2..pos + 2 + size]);
        data = data.get(pos + 2 + size + 2..).unwrap_or_default();
    }
    out
}

/// A form-encoded value decoded: `+` is a space, `%XX` a byte.
pub fn form_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok().and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(b) => {
                        out.push(b);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
