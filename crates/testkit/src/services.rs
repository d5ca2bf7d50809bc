//! Whether the tests that need a Redis server run: `VP_TEST_REDIS=require` (CI) makes a
//! missing server a failure, `skip` skips, anything else probes `VP_TEST_REDIS_URL` (default
//! `redis://127.0.0.1:6379`).

use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

/// The Redis URL to test against, or `None` (said loudly) when those tests are skipped.
pub fn redis_url() -> Option<String> {
    let url = std::env::var("VP_TEST_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into());
    let mode = std::env::var("VP_TEST_REDIS").unwrap_or_default();
    if mode == "skip" {
        eprintln!("SKIPPED: Redis test (VP_TEST_REDIS=skip)");
        return None;
    }
    // redis://[:password@]host[:port][/db]
    let authority = url.split_once("://").map_or("", |(_, rest)| rest.split('/').next().unwrap_or(""));
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, hp)| hp);
    let host_port = if host_port.contains(':') { host_port.to_owned() } else { format!("{host_port}:6379") };
    let reachable = host_port
        .to_socket_addrs()
        .is_ok_and(|mut a| a.any(|a| TcpStream::connect_timeout(&a, Duration::from_secs(1)).is_ok()));
    if !reachable {
        assert_ne!(mode, "require", "Redis is required but does not answer at {url}");
        eprintln!("SKIPPED: Redis test (no server at {url})");
        return None;
    }
    Some(url)
}
