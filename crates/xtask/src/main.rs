//! `cargo xtask test`: runs every test of the workspace. The PostgreSQL half runs when a server
//! answers at `VP_TEST_POSTGRES_URL` (default `postgres://postgres@127.0.0.1:5432/test`);
//! otherwise it is skipped with a loud banner, unless `VP_TEST_POSTGRES=require` (CI) makes a
//! missing server a failure. `cargo xtask run` starts the service with the demo data.

use std::env;
use std::net::{TcpStream, ToSocketAddrs};
use std::process::{Command, ExitCode};
use std::time::Duration;

const DEFAULT_PG_URL: &str = "postgres://postgres@127.0.0.1:5432/test";

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("test") => test(&args[1..]),
        Some("run") => run(&args[1..]),
        _ => {
            eprintln!("usage: cargo xtask test [extra test-runner args] | cargo xtask run [serve args]");
            ExitCode::from(2)
        }
    }
}

/// host:port of a `postgres://user@host:port/db` URL (enough for a reachability probe).
fn host_port(url: &str) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let authority = rest.split(['/', '?']).next()?;
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, hp)| hp);
    Some(if host_port.contains(':') { host_port.to_owned() } else { format!("{host_port}:5432") })
}

fn postgres_answers(url: &str) -> bool {
    let Some(addrs) = host_port(url).and_then(|hp| hp.to_socket_addrs().ok()) else { return false };
    addrs.into_iter().any(|a| TcpStream::connect_timeout(&a, Duration::from_secs(2)).is_ok())
}

fn banner(lines: &[&str]) {
    let bar = "!".repeat(78);
    eprintln!("\n{bar}");
    for l in lines {
        eprintln!("!!  {l}");
    }
    eprintln!("{bar}\n");
}

/// The Remnawave contract check runs under Node with the contract package from the committed
/// lock file; install it when absent so `cargo xtask test` works on a fresh checkout.
fn install_contract_packages() -> Result<(), String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../contract/remnawave");
    if dir.join("node_modules/@remnawave/backend-contract").is_dir() {
        return Ok(());
    }
    eprintln!("installing the Remnawave contract package (npm ci in {})", dir.display());
    let status =
        Command::new("npm").args(["ci", "--no-audit", "--no-fund", "--prefix"]).arg(&dir).status().map_err(|e| {
            format!("cannot run npm ({e}); Node.js and npm are needed for the Remnawave contract check")
        })?;
    if status.success() { Ok(()) } else { Err(format!("npm ci in {} failed", dir.display())) }
}

fn test(extra: &[String]) -> ExitCode {
    if let Err(e) = install_contract_packages() {
        banner(&[&e]);
        return ExitCode::FAILURE;
    }
    let url = env::var("VP_TEST_POSTGRES_URL").unwrap_or_else(|_| DEFAULT_PG_URL.to_owned());
    let mode = env::var("VP_TEST_POSTGRES").unwrap_or_else(|_| "auto".to_owned());
    let pg_mode = match (mode.as_str(), postgres_answers(&url)) {
        ("skip", _) | ("auto", false) => "skip",
        ("require", false) => {
            banner(&[&format!("PostgreSQL is required (VP_TEST_POSTGRES=require) but {url} does not answer.")]);
            return ExitCode::FAILURE;
        }
        (_, true) => "require",
        (other, false) => {
            eprintln!("VP_TEST_POSTGRES must be auto, require or skip, not {other:?}");
            return ExitCode::from(2);
        }
    };
    if pg_mode == "skip" {
        banner(&[
            "PostgreSQL half SKIPPED: no server answers at",
            &format!("{url} (set VP_TEST_POSTGRES_URL)."),
            "Only the SQLite half runs. CI runs both.",
        ]);
    }
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let has_nextest = Command::new(&cargo).args(["nextest", "--version"]).output().is_ok_and(|o| o.status.success());
    let mut cmd = Command::new(&cargo);
    if has_nextest {
        cmd.args(["nextest", "run", "--workspace", "--no-fail-fast"]);
    } else {
        cmd.args(["test", "--workspace", "--no-fail-fast"]);
    }
    cmd.args(extra).env("VP_TEST_POSTGRES", pg_mode).env("VP_TEST_POSTGRES_URL", &url);
    let status = match cmd.status() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("could not start {cargo}: {e}");
            return ExitCode::FAILURE;
        }
    };
    if pg_mode == "skip" {
        banner(&["Reminder: the PostgreSQL half was SKIPPED in this run."]);
    }
    if status.success() { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

fn run(extra: &[String]) -> ExitCode {
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let mut cmd = Command::new(cargo);
    cmd.args(["run", "--release", "--package", "vp-api", "--", "serve", "--demo"]).args(extra);
    match cmd.status() {
        Ok(s) if s.success() => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("could not start cargo: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_port_is_read_from_postgres_urls() {
        assert_eq!(host_port("postgres://postgres@127.0.0.1:5432/test").as_deref(), Some("127.0.0.1:5432"));
        assert_eq!(host_port("postgres://u:p@db.internal/x?sslmode=disable").as_deref(), Some("db.internal:5432"));
        assert_eq!(host_port("not a url"), None);
    }
}
