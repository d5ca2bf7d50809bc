//! The service under test: a fresh database (an SQLite file, or a PostgreSQL database of its
//! own), the demo partner with its limits lifted, and `vp-api serve` on a loopback port.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::client::Conn;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Sqlite => "SQLite",
            Backend::Postgres => "PostgreSQL",
        }
    }
}

/// `VP_BENCH_POSTGRES_URL`, default the test server.
pub fn postgres_base() -> String {
    std::env::var("VP_BENCH_POSTGRES_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_owned())
}

/// Runs SQL on the server of `url` through psql.
pub fn psql(url: &str, sql: &str) -> Result<String, String> {
    let out = Command::new("psql")
        .args([url, "-v", "ON_ERROR_STOP=1", "-qtA", "-c", sql])
        .output()
        .map_err(|e| format!("cannot run psql: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_owned())
    }
}

/// `url` with its database name replaced.
fn with_database(url: &str, name: &str) -> String {
    let (rest, query) = url.split_once('?').map_or((url, None), |(r, q)| (r, Some(q)));
    let base = rest.rsplit_once('/').map_or(rest, |(b, _)| b);
    match query {
        Some(q) => format!("{base}/{name}?{q}"),
        None => format!("{base}/{name}"),
    }
}

/// A database of the bench's own, removed on drop.
pub struct Database {
    pub url: String,
    dir: PathBuf,
    /// (server URL, database name) of a PostgreSQL database to drop.
    postgres: Option<(String, String)>,
}

impl Database {
    pub fn fresh(backend: Backend, name: &str) -> Result<Database, String> {
        let dir = std::env::temp_dir().join(format!("vp-bench-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        match backend {
            Backend::Sqlite => {
                let url = format!("sqlite://{}", dir.join("bench.sqlite").display());
                Ok(Database { url, dir, postgres: None })
            }
            Backend::Postgres => {
                let server = postgres_base();
                let db = format!("vp_bench_{name}_{}", std::process::id());
                psql(&server, &format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)"))?;
                psql(&server, &format!("CREATE DATABASE {db}"))?;
                Ok(Database { url: with_database(&server, &db), dir, postgres: Some((server, db)) })
            }
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        if let Some((server, db)) = &self.postgres {
            let _ = psql(server, &format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)"));
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A running `vp-api serve`, stopped on drop (before its database goes).
pub struct Service {
    pub port: u16,
    /// The demo partner's key and account.
    pub key: String,
    pub account: String,
    env: Vec<(String, String)>,
    child: Child,
    pub db: Database,
}

impl Drop for Service {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `vp-api serve` on `db`, listening on loopback `port`.
fn serve(db: &str, env: &[(String, String)], port: u16) -> Result<Child, String> {
    Command::new(vp_api()?)
        .arg("serve")
        .env("DATABASE_URL", db)
        .env("VP_BIND", format!("127.0.0.1:{port}"))
        .env("VP_LOG", "warn")
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdout(Stdio::null())
        .spawn()
        .map_err(|e| e.to_string())
}

pub fn free_port() -> Result<u16, String> {
    std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).map_err(|e| e.to_string())
}

fn vp_api() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let path = exe.with_file_name("vp-api");
    if path.exists() {
        Ok(path)
    } else {
        Err(format!("{} not found: build it first (just bench does)", path.display()))
    }
}

/// Runs an operator command on `db`; returns its JSON.
pub fn cli(db: &str, env: &[(String, String)], args: &[&str]) -> Result<serde_json::Value, String> {
    serde_json::from_slice(&cli_output(db, env, args)?).map_err(|e| e.to_string())
}

/// Runs an operator command on `db`; returns what it wrote on standard output.
pub fn cli_output(db: &str, env: &[(String, String)], args: &[&str]) -> Result<Vec<u8>, String> {
    let out = Command::new(vp_api()?)
        .args(args)
        .env("DATABASE_URL", db)
        .env("VP_LOG", "warn")
        .env("VP_SECRETS_KEY", BENCH_SECRETS_KEY)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("vp-api {args:?}: {}", String::from_utf8_lossy(&out.stderr)));
    }
    Ok(out.stdout)
}

/// Lifts every limit of `account` so the bench measures the service, not the limits.
pub fn lift_limits(db: &str, env: &[(String, String)], account: &str) -> Result<(), String> {
    let big = "1000000000";
    let args = [
        "account",
        "limits",
        account,
        "--requests-per-minute",
        big,
        "--payments-per-minute",
        big,
        "--new-clients-per-day",
        big,
        "--trials-per-day",
        big,
    ];
    cli(db, env, &args).map(|_| ())
}

/// The bench's secrets key (32 bytes in base64).
const BENCH_SECRETS_KEY: &str = "YmVuY2gta2V5LW9mLXRoaXJ0eS10d28tYnl0ZXMtISE=";

impl Service {
    /// Seeds the demo on `db`, lifts the demo partner's limits and starts `vp-api serve`; every
    /// process on it runs with `env`.
    pub async fn start(db: Database, env: &[(&str, &str)]) -> Result<Service, String> {
        let mut env: Vec<(String, String)> = env.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        // A key of its own, so no key file is written where the bench runs.
        env.push(("VP_SECRETS_KEY".into(), BENCH_SECRETS_KEY.into()));
        let demo = cli(&db.url, &env, &["demo"])?;
        let key = demo["api_key"]["api_key"].as_str().ok_or("no demo key")?.to_owned();
        let account = demo["account"]["account_id"].as_str().ok_or("no demo account")?.to_owned();
        lift_limits(&db.url, &env, &account)?;
        Service::launch(db, env, key, account).await
    }

    /// Starts `vp-api serve` on a database the caller seeded (no demo partner of its own).
    pub async fn start_seeded(db: Database, env: &[(&str, &str)]) -> Result<Service, String> {
        let mut env: Vec<(String, String)> = env.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        env.push(("VP_SECRETS_KEY".into(), BENCH_SECRETS_KEY.into()));
        Service::launch(db, env, String::new(), String::new()).await
    }

    async fn launch(db: Database, env: Vec<(String, String)>, key: String, account: String) -> Result<Service, String> {
        let port = free_port()?;
        let child = serve(&db.url, &env, port)?;
        let service = Service { port, key, account, env, child, db };
        wait_up(port).await?;
        Ok(service)
    }

    /// Stops `vp-api serve` as an operator would (SIGTERM: it gives back its leases, so the
    /// bench's own `vp-api jobs` runs find the jobs free) and starts a new one on the same
    /// database, on a new port.
    pub async fn restart(&mut self) -> Result<(), String> {
        let pid = self.child.id().to_string();
        Command::new("kill").args(["-TERM", &pid]).status().map_err(|e| format!("cannot run kill: {e}"))?;
        let deadline = Instant::now() + Duration::from_secs(30);
        while self.child.try_wait().map_err(|e| e.to_string())?.is_none() {
            if Instant::now() > deadline {
                return Err(format!("vp-api serve (pid {pid}) did not stop within 30 s of SIGTERM"));
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        self.port = free_port()?;
        self.child = serve(&self.db.url, &self.env, self.port)?;
        wait_up(self.port).await
    }

    /// Runs an operator command against the service's database (with its settings).
    pub fn cli(&self, args: &[&str]) -> Result<serde_json::Value, String> {
        cli(&self.db.url, &self.env, args)
    }

    /// Runs an operator command against the service's database; returns its standard output.
    pub fn cli_output(&self, args: &[&str]) -> Result<Vec<u8>, String> {
        cli_output(&self.db.url, &self.env, args)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// A new partner account with lifted limits; returns its API key.
    pub fn new_partner(&self, brand: &str) -> Result<String, String> {
        self.new_account(brand).map(|(_, key)| key)
    }

    /// A new partner account with lifted limits; returns its id and API key.
    pub fn new_account(&self, brand: &str) -> Result<(String, String), String> {
        let created = self.cli(&["account", "create", "--brand", brand, "--markup", "20"])?;
        let id = created["account"]["account_id"].as_str().ok_or("no account id")?.to_owned();
        lift_limits(&self.db.url, &self.env, &id)?;
        let key = created["api_key"]["api_key"].as_str().ok_or("no key")?.to_owned();
        Ok((id, key))
    }
}

pub async fn wait_up(port: u16) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok(mut c) = Conn::open(port).await {
            if c.send("GET", "/health", &[], b"").await.is_ok_and(|r| r.status == 200) {
                return Ok(());
            }
        }
        if Instant::now() > deadline {
            return Err(format!("nothing answers on port {port}"));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::with_database;

    #[test]
    fn the_database_name_is_replaced_and_options_kept() {
        assert_eq!(with_database("postgres://u@h:5432/test", "b"), "postgres://u@h:5432/b");
        assert_eq!(with_database("postgres://u@h/test?sslmode=disable", "b"), "postgres://u@h/b?sslmode=disable");
    }
}
