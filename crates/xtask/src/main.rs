//! `cargo xtask test`: runs every test of the workspace. The PostgreSQL half runs when a server
//! answers at `VP_TEST_POSTGRES_URL` (default `postgres://postgres@127.0.0.1:5432/test`), the
//! Redis tests when one answers at `VP_TEST_REDIS_URL` (default `redis://127.0.0.1:6379`);
//! otherwise they are skipped with a loud banner, unless `VP_TEST_POSTGRES=require` /
//! `VP_TEST_REDIS=require` (CI) makes a missing server a failure. `cargo xtask run` starts the service with the demo data.

use std::env;
use std::net::{TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::Duration;

const DEFAULT_PG_URL: &str = "postgres://postgres@127.0.0.1:5432/test";
const DEFAULT_REDIS_URL: &str = "redis://127.0.0.1:6379";

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

/// host:port of a `scheme://user@host:port/db` URL (enough for a reachability probe).
fn host_port(url: &str, default_port: u16) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let authority = rest.split(['/', '?']).next()?;
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, hp)| hp);
    Some(if host_port.contains(':') { host_port.to_owned() } else { format!("{host_port}:{default_port}") })
}

fn answers(url: &str, default_port: u16) -> bool {
    let Some(addrs) = host_port(url, default_port).and_then(|hp| hp.to_socket_addrs().ok()) else { return false };
    addrs.into_iter().any(|a| TcpStream::connect_timeout(&a, Duration::from_secs(2)).is_ok())
}

/// A server some tests need: they run when it answers, are skipped with a banner when it does
/// not, and fail the run when `VP_TEST_<NAME>=require` (CI) and it does not answer.
struct Needed {
    name: &'static str,
    mode_var: &'static str,
    url_var: &'static str,
    default_url: &'static str,
    default_port: u16,
}

const NEEDED: [Needed; 2] = [
    Needed {
        name: "PostgreSQL",
        mode_var: "VP_TEST_POSTGRES",
        url_var: "VP_TEST_POSTGRES_URL",
        default_url: DEFAULT_PG_URL,
        default_port: 5432,
    },
    Needed {
        name: "Redis",
        mode_var: "VP_TEST_REDIS",
        url_var: "VP_TEST_REDIS_URL",
        default_url: DEFAULT_REDIS_URL,
        default_port: 6379,
    },
];

impl Needed {
    /// The URL and whether its tests run (`require`) or are skipped (`skip`).
    fn resolve(&self) -> Result<(String, &'static str), ExitCode> {
        let url = env::var(self.url_var).unwrap_or_else(|_| self.default_url.to_owned());
        let mode = env::var(self.mode_var).unwrap_or_else(|_| "auto".to_owned());
        match (mode.as_str(), answers(&url, self.default_port)) {
            ("skip", _) | ("auto", false) => Ok((url, "skip")),
            ("require", false) => {
                banner(&[&format!("{} is required ({}=require) but {url} does not answer.", self.name, self.mode_var)]);
                Err(ExitCode::FAILURE)
            }
            ("auto" | "require", true) => Ok((url, "require")),
            (other, _) => {
                eprintln!("{} must be auto, require or skip, not {other:?}", self.mode_var);
                Err(ExitCode::from(2))
            }
        }
    }
}

fn banner(lines: &[&str]) {
    let bar = "!".repeat(78);
    eprintln!("\n{bar}");
    for l in lines {
        eprintln!("!!  {l}");
    }
    eprintln!("{bar}\n");
}

/// The contract checks run the vendors' own models: Remnawave's contract package under Node
/// (from the committed lock file), the Bot API's models in aiogram and the gateways' SDK models
/// (aioplatega, aiocryptopay) under Python (pinned in requirements.txt); the mail tests run a
/// real SMTP server (aiosmtpd, pinned likewise). Install
/// them when absent so `cargo xtask test` works on a fresh checkout.
fn install_contract_packages() -> Result<(), String> {
    install_python_packages("telegram", "the Bot API models (aiogram)")?;
    install_python_packages("mail", "the SMTP server of the mail tests (aiosmtpd)")?;
    install_python_packages("platega", "Platega's API models (aioplatega)")?;
    install_python_packages("cryptopay", "the Crypto Pay API's models (aiocryptopay)")?;
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

/// `contract/<name>/requirements.txt` into `contract/<name>/.venv`.
fn install_python_packages(name: &str, what_for: &str) -> Result<(), String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../contract").join(name);
    let venv = dir.join(".venv");
    if venv.join("bin/python").is_file() {
        return Ok(());
    }
    eprintln!("installing {what_for} into {}", venv.display());
    let run = |cmd: &mut Command, what: &str| -> Result<(), String> {
        let status = cmd.status().map_err(|e| format!("cannot run {what} ({e}); Python 3 is needed for {what_for}"))?;
        if status.success() { Ok(()) } else { Err(format!("{what} failed")) }
    };
    run(Command::new("python3").args(["-m", "venv"]).arg(&venv), "python3 -m venv")?;
    let installed = run(
        Command::new(venv.join("bin/pip"))
            .args(["install", "-q", "--disable-pip-version-check", "-r"])
            .arg(dir.join("requirements.txt")),
        &format!("pip install -r contract/{name}/requirements.txt"),
    );
    if installed.is_err() {
        // A half-made environment would pass the check above next time.
        let _ = std::fs::remove_dir_all(&venv);
    }
    installed
}

fn test(extra: &[String]) -> ExitCode {
    if let Err(e) = install_contract_packages() {
        banner(&[&e]);
        return ExitCode::FAILURE;
    }
    let mut skipped = Vec::new();
    let mut settings = Vec::new();
    for needed in &NEEDED {
        let (url, mode) = match needed.resolve() {
            Ok(resolved) => resolved,
            Err(code) => return code,
        };
        if mode == "skip" {
            banner(&[
                &format!("{} tests SKIPPED: no server answers at", needed.name),
                &format!("{url} (set {}).", needed.url_var),
                "CI runs them.",
            ]);
            skipped.push(needed.name);
        }
        settings.push((needed.mode_var, mode.to_owned()));
        settings.push((needed.url_var, url));
    }
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let has_nextest = Command::new(&cargo).args(["nextest", "--version"]).output().is_ok_and(|o| o.status.success());
    let mut cmd = Command::new(&cargo);
    if has_nextest {
        cmd.args(["nextest", "run", "--workspace", "--no-fail-fast"]);
    } else {
        cmd.args(["test", "--workspace", "--no-fail-fast"]);
    }
    cmd.args(extra).envs(settings);
    let servers = ContractServers::start();
    cmd.env(ContractServers::VAR, &servers.dir);
    let status = match cmd.status() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("could not start {cargo}: {e}");
            return ExitCode::FAILURE;
        }
    };
    if !skipped.is_empty() {
        banner(&[&format!("Reminder: the tests needing {} were SKIPPED in this run.", skipped.join(" and "))]);
    }
    if status.success() { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

/// The Python contract checks served for the run (`validate.py --serve`, one Unix socket each
/// in `dir`), so each SDK's models are built once instead of at every test's check (aiogram
/// alone takes seconds of CPU to import). A check finding no server starts the script itself,
/// so a test run by hand needs none. Stopped when the run ends.
struct ContractServers {
    dir: PathBuf,
    children: Vec<Child>,
}

impl ContractServers {
    /// The variable the test kit reads the folder from (`vp_testkit::gateway_contract`).
    const VAR: &str = "VP_CONTRACT_SOCKETS";

    fn start() -> ContractServers {
        let dir = env::temp_dir().join(format!("vp-contracts-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let contracts = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../contract");
        let children = ["telegram", "platega", "cryptopay"]
            .into_iter()
            .filter_map(|name| {
                let python = contracts.join(name).join(".venv/bin/python");
                Command::new(python)
                    .arg(contracts.join(name).join("validate.py"))
                    .arg("--serve")
                    .arg(dir.join(format!("{name}.sock")))
                    .stdout(Stdio::null())
                    .spawn()
                    .ok()
            })
            .collect();
        ContractServers { dir, children }
    }
}

impl Drop for ContractServers {
    fn drop(&mut self) {
        for child in &mut self.children {
            let _ = child.kill();
            let _ = child.wait();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
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
    fn host_port_is_read_from_postgres_and_redis_urls() {
        assert_eq!(host_port("postgres://postgres@127.0.0.1:5432/test", 5432).as_deref(), Some("127.0.0.1:5432"));
        assert_eq!(
            host_port("postgres://u:p@db.internal/x?sslmode=disable", 5432).as_deref(),
            Some("db.internal:5432")
        );
        assert_eq!(host_port("redis://:secret@cache.internal/0", 6379).as_deref(), Some("cache.internal:6379"));
        assert_eq!(host_port("not a url", 5432), None);
    }
}
