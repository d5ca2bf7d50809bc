//! A real `vp-api serve` on a loopback port with its own database (SQLite file, or a
//! PostgreSQL schema of its own), stopped and cleaned up on drop.

#![allow(dead_code)]

use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

static NEXT: AtomicU32 = AtomicU32::new(0);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Whether PostgreSQL tests run: `VP_TEST_POSTGRES=require` makes a missing server a failure,
/// `skip` skips, anything else probes the server.
pub fn postgres_url() -> Option<String> {
    let url =
        std::env::var("VP_TEST_POSTGRES_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into());
    let mode = std::env::var("VP_TEST_POSTGRES").unwrap_or_default();
    if mode == "skip" {
        eprintln!("SKIPPED: PostgreSQL half (VP_TEST_POSTGRES=skip)");
        return None;
    }
    let reachable = TcpStream::connect_timeout(&"127.0.0.1:5432".parse().unwrap(), Duration::from_secs(1)).is_ok()
        && Command::new("psql").arg("--version").output().is_ok_and(|o| o.status.success());
    if !reachable {
        assert_ne!(mode, "require", "PostgreSQL is required but not reachable at {url}");
        eprintln!("SKIPPED: PostgreSQL half (no server or no psql)");
        return None;
    }
    Some(url)
}

fn psql(url: &str, sql: &str) {
    let out = Command::new("psql").args([url, "-v", "ON_ERROR_STOP=1", "-q", "-c", sql]).output().expect("run psql");
    assert!(out.status.success(), "psql {sql}: {}", String::from_utf8_lossy(&out.stderr));
}

/// The `VP_METRICS_TOKEN` of servers whose tests read `/metrics`.
pub const METRICS_TOKEN: &str = "metrics-token-for-tests-0123456789";

/// The value of the sample `name` exactly (labels included), e.g. `vp_deliveries_pending`.
pub fn sample(text: &str, name: &str) -> Option<f64> {
    text.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
}

/// A database of a test's own.
/// The secrets key of the PostgreSQL test databases (32 bytes in base64).
pub const TEST_SECRETS_KEY: &str = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";

pub struct Database {
    pub url: String,
    /// Extra settings for every process on this database (CLI and server).
    pub env: Vec<(String, String)>,
    /// PostgreSQL: the database URL holding the schema, the schema, and whether the database
    /// itself is the test's own (a restored copy), dropped with it.
    cleanup: Option<(String, String, bool)>,
    dir: std::path::PathBuf,
}

impl Database {
    pub fn new(backend: Backend, name: &str) -> Option<Database> {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let tag = format!("{name}_{}_{n}", std::process::id());
        let dir = std::env::temp_dir().join(format!("vp-http-{tag}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch dir");
        match backend {
            Backend::Sqlite => Some(Database {
                url: format!("sqlite://{}", dir.join("db.sqlite").display()),
                env: vec![],
                cleanup: None,
                dir,
            }),
            Backend::Postgres => {
                let base = postgres_url()?;
                let schema =
                    format!("t_{}", tag.to_ascii_lowercase().replace(|c: char| !c.is_ascii_alphanumeric(), "_"));
                psql(&base, &format!("CREATE SCHEMA {schema}"));
                let sep = if base.contains('?') { '&' } else { '?' };
                let url = format!("{base}{sep}options=-csearch_path%3D{schema}");
                // PostgreSQL has no data directory for a generated key file: set the key, as
                // production does (SQLite databases use the generated file beside them).
                let env = vec![("VP_SECRETS_KEY".to_owned(), TEST_SECRETS_KEY.to_owned())];
                Some(Database { url, env, cleanup: Some((base, schema, false)), dir })
            }
        }
    }

    /// PostgreSQL: every later process on this database (CLI and server) runs with sequential
    /// scans priced out, so the planner takes any index that serves, and under an application
    /// name of its own, returned, by which its sessions are found in `pg_stat_activity`.
    pub fn priced_out_sequential_scans(&mut self) -> String {
        let Some((_, schema, _)) = &self.cleanup else { panic!("a PostgreSQL database") };
        let app = schema.clone();
        self.url.push_str(&format!("%20-cenable_seqscan%3Doff&application_name={app}"));
        app
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_vp-api"));
        command
            .args(args)
            .env("DATABASE_URL", &self.url)
            .env("VP_LOG", "warn")
            .envs(self.env.iter().map(|(k, v)| (k, v)));
        command
    }

    fn run(&self, args: &[&str]) -> std::process::Output {
        self.command(args).output().expect("run vp-api")
    }

    /// Starts an operator command without waiting for it (to kill it midway).
    /// Its log (at info) goes to `spawned_log`, read when a test fails.
    pub fn spawn(&self, args: &[&str]) -> std::process::Child {
        let log = std::fs::OpenOptions::new().create(true).append(true).open(self.dir.join("spawned.log"));
        let stderr = log.map_or_else(|_| Stdio::null(), Stdio::from);
        self.command(args).env("VP_LOG", "info").stdout(Stdio::null()).stderr(stderr).spawn().expect("start vp-api")
    }

    /// What the commands started by `spawn` logged.
    pub fn spawned_log(&self) -> String {
        std::fs::read_to_string(self.dir.join("spawned.log")).unwrap_or_default()
    }

    /// Runs an operator command that may fail; returns its exit code and everything it printed.
    pub fn cli_raw(&self, args: &[&str]) -> (Option<i32>, String) {
        let out = self.run(args);
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        (out.status.code(), text)
    }

    /// Runs an operator command that prints a file (an export); returns its standard output.
    pub fn cli_stdout(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).expect("UTF-8")
    }

    /// Runs an operator command on this database; returns its JSON.
    pub fn cli(&self, args: &[&str]) -> Value {
        let out = self.run(args);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).unwrap_or(Value::Null)
    }

    /// The operator connects `account_id`'s own bot with `token` (from a file, as the CLI
    /// takes it, removed afterwards); returns the bot as `bot connect` shows it.
    pub fn connect_bot(&self, account_id: &str, token: &str) -> Value {
        let token_file = self.dir.join("bot.token");
        std::fs::write(&token_file, token).expect("write the token file");
        let connected = self.cli(&["bot", "connect", account_id, "--token-file", token_file.to_str().unwrap()]);
        std::fs::remove_file(&token_file).expect("remove the token file");
        connected
    }

    /// The scratch directory beside the database (key files, backups).
    pub fn dir(&self) -> &std::path::Path {
        &self.dir
    }

    /// Runs SQL on the database behind the service's back (the `sqlite3` or `psql` client),
    /// as an old release or a manual edit would have written it.
    pub fn execute_sql(&self, sql: &str) {
        self.query_sql(sql);
    }

    /// The rows `sql` selects, one line each (`|` between columns), read behind the service's back.
    pub fn query_sql(&self, sql: &str) -> Vec<String> {
        let out = match &self.cleanup {
            Some((base, schema, _)) => Command::new("psql")
                .args([
                    base.as_str(),
                    "-v",
                    "ON_ERROR_STOP=1",
                    "-qAt",
                    "-c",
                    &format!("SET search_path TO {schema}; {sql}"),
                ])
                .output(),
            // The server writes while the test reads or edits (deliveries, jobs): wait for
            // its lock as the service's own connections do, rather than fail at once.
            None => Command::new("sqlite3")
                .args(["-cmd", ".timeout 10000"])
                .arg(self.dir.join("db.sqlite"))
                .arg(sql)
                .output(),
        }
        .expect("run the database's own client (psql or sqlite3)");
        assert!(out.status.success(), "{sql}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).lines().filter(|l| !l.is_empty()).map(str::to_owned).collect()
    }

    /// A backup taken while the service runs, as docs/operations.md has the operator take it:
    /// `vp-api backup FILE` for SQLite, `pg_dump -Fc` for PostgreSQL.
    pub fn backup(&self) -> std::path::PathBuf {
        match &self.cleanup {
            Some((base, schema, _)) => {
                let file = self.dir.join("backup.dump");
                let out = Command::new("pg_dump")
                    .args(["--format=custom", "--dbname", base.as_str(), "--schema", schema.as_str(), "--file"])
                    .arg(&file)
                    .output()
                    .expect("run pg_dump");
                assert!(out.status.success(), "pg_dump: {}", String::from_utf8_lossy(&out.stderr));
                file
            }
            None => {
                let file = self.dir.join("backup.sqlite");
                let shown = self.cli(&["backup", file.to_str().expect("a UTF-8 path")]);
                assert_eq!(shown["backup"], file.to_str().unwrap());
                file
            }
        }
    }

    /// A fresh database restored from `backup`, with this one's settings: the file copied into
    /// place for SQLite, a new PostgreSQL database filled by `pg_restore`.
    pub fn restore(&self, backup: &std::path::Path, name: &str) -> Database {
        match &self.cleanup {
            Some((base, schema, _)) => {
                let n = NEXT.fetch_add(1, Ordering::Relaxed);
                let dbname = format!("vp_restore_{}_{n}", std::process::id());
                let (admin, _) = base.rsplit_once('/').expect("a database URL");
                psql(base, &format!("CREATE DATABASE {dbname}"));
                let target = format!("{admin}/{dbname}");
                let out = Command::new("pg_restore")
                    .args(["--exit-on-error", "--no-owner", "--dbname", target.as_str()])
                    .arg(backup)
                    .output()
                    .expect("run pg_restore");
                assert!(out.status.success(), "pg_restore: {}", String::from_utf8_lossy(&out.stderr));
                let dir = std::env::temp_dir().join(format!("vp-http-{name}_{}_{n}", std::process::id()));
                let _ = std::fs::remove_dir_all(&dir);
                std::fs::create_dir_all(&dir).expect("scratch dir");
                let url = format!("{target}?options=-csearch_path%3D{schema}");
                Database { url, env: self.env.clone(), cleanup: Some((target, schema.clone(), true)), dir }
            }
            None => {
                let mut restored = Database::new(Backend::Sqlite, name).expect("an SQLite database");
                std::fs::copy(backup, restored.dir.join("db.sqlite")).expect("copy the backup into place");
                restored.env = self.env.clone();
                restored
            }
        }
    }

    /// Everything a thief of the database would get: every byte of the SQLite files (the
    /// database, its WAL and shared memory), or `pg_dump` of the PostgreSQL schema.
    pub fn dump(&self) -> Vec<u8> {
        match &self.cleanup {
            Some((base, schema, _)) => {
                let out = Command::new("pg_dump")
                    .args(["--dbname", base.as_str(), "--schema", schema.as_str()])
                    .output()
                    .expect("run pg_dump");
                assert!(out.status.success(), "pg_dump: {}", String::from_utf8_lossy(&out.stderr));
                out.stdout
            }
            None => {
                let mut all = Vec::new();
                for entry in std::fs::read_dir(&self.dir).expect("scratch dir").flatten() {
                    if entry.file_name().to_string_lossy().starts_with("db.sqlite") {
                        all.extend(std::fs::read(entry.path()).expect("read a database file"));
                    }
                }
                all
            }
        }
    }
}

/// Whether `needle` occurs in `haystack`, byte for byte.
pub fn contains_bytes(haystack: &[u8], needle: &str) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle.as_bytes())
}

impl Drop for Database {
    fn drop(&mut self) {
        match &self.cleanup {
            Some((base, schema, false)) => {
                let _ = Command::new("psql")
                    .args([base.as_str(), "-q", "-c", &format!("DROP SCHEMA {schema} CASCADE")])
                    .output();
            }
            Some((base, _, true)) => {
                let (admin, name) = base.rsplit_once('/').expect("a database URL");
                let drop = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
                let _ = Command::new("psql").args([&format!("{admin}/postgres"), "-q", "-c", &drop]).output();
            }
            None => {}
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A running server.
pub struct Server {
    pub base: String,
    pub port: u16,
    pub db: Database,
    pub key: String,
    pub account_id: String,
    child: Child,
}

/// Starts `serve`; what it logs goes to `log` (shown when the test fails).
fn spawn_serve(db: &Database, port: u16, base: &str, log: &std::path::Path) -> Child {
    spawn_serve_on(&db.url, &db.env, port, base, log)
}

fn spawn_serve_on(url: &str, env: &[(String, String)], port: u16, base: &str, log: &std::path::Path) -> Child {
    let file = std::fs::OpenOptions::new().create(true).append(true).open(log).expect("server log file");
    Command::new(env!("CARGO_BIN_EXE_vp-api"))
        .arg("serve")
        .env("DATABASE_URL", url)
        .env("VP_BIND", format!("127.0.0.1:{port}"))
        .env("VP_PUBLIC_BASE_URL", base)
        .env("VP_LOG", "warn")
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdout(Stdio::null())
        .stderr(file)
        .spawn()
        .expect("start vp-api serve")
}

/// Waits until the server on `port` answers `/health`.
fn wait_up(child: &mut Child, port: u16, log: &std::path::Path) {
    assert!(came_up(child, port), "the server exited at start: {}", std::fs::read_to_string(log).unwrap_or_default());
}

/// Whether something answers `/health` on `port` while `child` runs; `false` once it exited.
fn came_up(child: &mut Child, port: u16) -> bool {
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(("127.0.0.1", port)).is_err() || request(port, "GET", "/health", &[], None).status != 200 {
        if child.try_wait().expect("child state").is_some() {
            return false;
        }
        assert!(Instant::now() < deadline, "server did not come up");
        std::thread::sleep(Duration::from_millis(50));
    }
    true
}

/// Starts `serve` on a free port that is ours for sure: between `free_port` and the bind,
/// another test's server may take the port and answer `/health` before ours fails to bind.
/// Ours is the process that holds the listening socket; asked of the kernel, not of the
/// server, so no request is counted in a test's limits or metrics.
fn serve_on_free_port(db: &Database) -> (u16, Child, std::path::PathBuf) {
    for _ in 0..5 {
        let port = free_port();
        let log = db.dir.join(format!("serve-{port}.log"));
        let mut child = spawn_serve(db, port, &format!("http://127.0.0.1:{port}"), &log);
        if came_up(&mut child, port) && listens_on(child.id(), port) {
            return (port, child, log);
        }
        let _ = child.kill();
        let _ = child.wait();
    }
    panic!("five free ports in a row were taken by others' servers");
}

/// Whether process `pid` holds the TCP socket listening on `port` (Linux: the socket's inode in
/// `/proc/net/tcp` among the process's descriptors).
fn listens_on(pid: u32, port: u16) -> bool {
    let local = format!(":{port:04X}");
    let mut sockets = Vec::new();
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let text = std::fs::read_to_string(table).unwrap_or_default();
        for line in text.lines().skip(1) {
            let cols: Vec<&str> = line.split_whitespace().collect();
            // local_address, state (0A: listening), inode
            if cols.len() > 9 && cols[1].ends_with(&local) && cols[3] == "0A" {
                sockets.push(format!("socket:[{}]", cols[9]));
            }
        }
    }
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else { return false };
    fds.flatten()
        .filter_map(|fd| std::fs::read_link(fd.path()).ok())
        .any(|l| sockets.iter().any(|s| l.as_os_str() == s.as_str()))
}

/// Sends SIGTERM, as systemd or a container runtime does, and waits for the process to exit;
/// returns its exit code. A server still running after `STOP_WITHIN` (its drain and shutdown
/// allowances and then some) fails the test with its threads' stacks and its log, and is
/// killed: a stop that hangs must not hang the suite.
fn stop_gracefully(child: &mut Child, log: &std::path::Path) -> Option<i32> {
    const STOP_WITHIN: Duration = Duration::from_secs(120);
    let pid = child.id().to_string();
    let _ = Command::new("kill").args(["-TERM", &pid]).status();
    let deadline = Instant::now() + STOP_WITHIN;
    while Instant::now() < deadline {
        if let Some(status) = child.try_wait().expect("child state") {
            return status.code();
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let stacks = Command::new("gdb")
        .args(["-batch", "-p", &pid, "-ex", "thread apply all bt"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_else(|e| format!("(no stacks: gdb: {e})"));
    let _ = child.kill();
    let _ = child.wait();
    panic!(
        "the server did not exit within {STOP_WITHIN:?} of SIGTERM\n--- its threads ---\n{stacks}\n--- its log ---\n{}",
        std::fs::read_to_string(log).unwrap_or_default()
    );
}

/// A failing test shows what its server logged.
fn show_log_if_failing(log: &std::path::Path) {
    if std::thread::panicking() {
        eprintln!("--- server log {} ---\n{}", log.display(), std::fs::read_to_string(log).unwrap_or_default());
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("free port")
}

impl Server {
    /// A server on a demo-seeded database.
    pub fn start(backend: Backend, name: &str) -> Option<Server> {
        Server::start_with(backend, name, &[])
    }

    /// A server on a demo-seeded database, every process of it run with `env`.
    pub fn start_with(backend: Backend, name: &str, env: &[(&str, &str)]) -> Option<Server> {
        let mut db = Database::new(backend, name)?;
        db.env.extend(env.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())));
        let demo = db.cli(&["demo"]);
        let key = demo["api_key"]["api_key"].as_str().expect("demo key").to_owned();
        let account_id = demo["account"]["account_id"].as_str().expect("demo account").to_owned();
        Some(Server::start_on(db, key, account_id))
    }

    pub fn start_on(db: Database, key: String, account_id: String) -> Server {
        let (port, child, _) = serve_on_free_port(&db);
        Server { base: format!("http://127.0.0.1:{port}"), port, db, key, account_id, child }
    }

    /// What the server process has logged so far (every start of it on this port).
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.log_path()).unwrap_or_default()
    }

    fn log_path(&self) -> std::path::PathBuf {
        self.db.dir.join(format!("serve-{}.log", self.port))
    }

    /// Kills the server process at once (no shutdown) and starts a new one on the same
    /// database and port, as after a crash.
    pub fn kill_and_restart(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let log = self.log_path();
        self.child = spawn_serve(&self.db, self.port, &self.base, &log);
        wait_up(&mut self.child, self.port, &log);
    }

    /// Stops the server as systemd does (SIGTERM, then waits for its exit) and starts it again
    /// on the same database and port: a rolling restart's step. Returns the exit code.
    pub fn restart_gracefully(&mut self) -> Option<i32> {
        let code = self.terminate();
        let log = self.log_path();
        self.child = spawn_serve(&self.db, self.port, &self.base, &log);
        wait_up(&mut self.child, self.port, &log);
        code
    }

    /// A second `serve` process on the same database and settings, as a second instance
    /// behind a load balancer.
    pub fn another_instance(&self) -> Instance {
        let (port, child, log) = serve_on_free_port(&self.db);
        Instance { port, key: self.key.clone(), log, child, db_url: self.db.url.clone(), env: self.db.env.clone() }
    }

    pub fn cli(&self, args: &[&str]) -> Value {
        self.db.cli(args)
    }

    /// An operator command that prints a file (`Database::cli_stdout`).
    pub fn cli_stdout(&self, args: &[&str]) -> String {
        self.db.cli_stdout(args)
    }

    /// An operator command that may fail (`Database::cli_raw`).
    pub fn cli_raw(&self, args: &[&str]) -> (Option<i32>, String) {
        self.db.cli_raw(args)
    }

    /// The operator connects `account_id`'s own bot with `token` (`Database::connect_bot`).
    pub fn connect_bot(&self, account_id: &str, token: &str) -> Value {
        self.db.connect_bot(account_id, token)
    }

    /// What `/metrics` shows now, read with `METRICS_TOKEN` (the server must run with it).
    pub fn metrics(&self) -> String {
        let auth = format!("Bearer {METRICS_TOKEN}");
        let r = self.get_raw("/metrics", &[("authorization", &auth)]);
        assert_eq!(r.status, 200, "{}", r.text());
        assert_eq!(r.header("content-type"), Some("text/plain; version=0.0.4; charset=utf-8"));
        r.text()
    }

    /// Sends SIGTERM and waits for the process to exit (`stop_gracefully`); returns its exit code.
    pub fn terminate(&mut self) -> Option<i32> {
        let log = self.log_path();
        stop_gracefully(&mut self.child, &log)
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// An operator command that changes what a running server caches (keys, account
    /// settings, stand-in modes): it takes effect within one second (docs/decisions.md),
    /// so the test waits that long before going on.
    pub fn cli_settled(&self, args: &[&str]) -> Value {
        let out = self.db.cli(args);
        std::thread::sleep(Duration::from_millis(1_150));
        out
    }

    /// A partner request with the demo key.
    pub fn api(&self, method: &str, path: &str, body: Option<&Value>, headers: &[(&str, &str)]) -> Response {
        partner_request(self.port, &self.key, method, path, body, headers)
    }

    pub fn get_raw(&self, path: &str, headers: &[(&str, &str)]) -> Response {
        self.request("GET", path, headers, None)
    }

    pub fn request(&self, method: &str, path: &str, headers: &[(&str, &str)], body: Option<&str>) -> Response {
        request(self.port, method, path, headers, body.map(str::as_bytes))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        show_log_if_failing(&self.log_path());
    }
}

/// Another server process on a `Server`'s database, stopped on drop.
pub struct Instance {
    pub port: u16,
    key: String,
    log: std::path::PathBuf,
    child: Child,
    db_url: String,
    env: Vec<(String, String)>,
}

impl Instance {
    /// A partner request with the demo key.
    pub fn api(&self, method: &str, path: &str, body: Option<&Value>, headers: &[(&str, &str)]) -> Response {
        partner_request(self.port, &self.key, method, path, body, headers)
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Kills the instance (SIGKILL: no drain, nothing given back) and starts it again on the
    /// same port.
    pub fn kill_and_restart(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let base = format!("http://127.0.0.1:{}", self.port);
        self.child = spawn_serve_on(&self.db_url, &self.env, self.port, &base, &self.log);
        wait_up(&mut self.child, self.port, &self.log);
    }

    /// `Server::restart_gracefully` for this instance.
    pub fn restart_gracefully(&mut self) -> Option<i32> {
        let code = stop_gracefully(&mut self.child, &self.log);
        let base = format!("http://127.0.0.1:{}", self.port);
        self.child = spawn_serve_on(&self.db_url, &self.env, self.port, &base, &self.log);
        wait_up(&mut self.child, self.port, &self.log);
        code
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        show_log_if_failing(&self.log);
    }
}

/// A partner API request (`/api/partner/v1{path}`) with `key`.
pub fn partner_request(
    port: u16,
    key: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
    headers: &[(&str, &str)],
) -> Response {
    let auth = format!("Bearer {key}");
    let mut all: Vec<(&str, &str)> = vec![("authorization", auth.as_str())];
    all.extend_from_slice(headers);
    let body_text = body.map(Value::to_string);
    if body_text.is_some() {
        all.push(("content-type", "application/json"));
    }
    request(port, method, &format!("/api/partner/v1{path}"), &all, body_text.as_deref().map(str::as_bytes))
}

#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The error code of an envelope.
    pub fn code(&self) -> String {
        self.json()["error"]["code"].as_str().unwrap_or_default().to_owned()
    }
}

/// One request to the server on `port` (`Connection: close`), through the test kit's client.
pub fn request(port: u16, method: &str, path: &str, headers: &[(&str, &str)], body: Option<&[u8]>) -> Response {
    let url = format!("http://127.0.0.1:{port}{path}");
    let answer = vp_testkit::http::send(method, &url, headers, body.unwrap_or_default()).expect("request");
    Response { status: answer.status, headers: answer.headers, body: answer.body }
}
