//! Shared helpers of the black-box tests: run the real `vp-api` binary against a fresh database.

#![allow(dead_code)]

/// Generates `sqlite::<name>` and `postgres::<name>` tests, each calling `<name>(Backend)`
/// (a test skips the PostgreSQL half loudly when no server answers).
macro_rules! each_backend {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $( #[test] fn $name() { super::$name(crate::support::server::Backend::Sqlite) } )*
        }
        mod postgres {
            $( #[test] fn $name() { super::$name(crate::support::server::Backend::Postgres) } )*
        }
    };
}

/// Asks `probe` every 100 ms until it finds something or `within` has passed (a behavioural
/// bound, wide for a loaded machine: it returns as soon as the thing is there).
pub fn wait_for<T>(within: std::time::Duration, mut probe: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = std::time::Instant::now() + within;
    loop {
        if let Some(found) = probe() {
            return Some(found);
        }
        if std::time::Instant::now() > deadline {
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

pub mod browser;
pub mod chat;
pub mod csv;
pub mod nothing_internal;
pub mod partner;
pub mod qr;
pub mod receiver;
pub mod server;
pub mod smtp;
pub mod visitor;

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};

use serde_json::Value;

static NEXT: AtomicU32 = AtomicU32::new(0);

/// The path of the first of `names` installed on this machine (`command -v`).
pub fn which(names: &[&str]) -> Option<String> {
    names.iter().find_map(|n| {
        let found = Command::new("sh").arg("-c").arg(format!("command -v {n}")).output().ok()?;
        let path = String::from_utf8_lossy(&found.stdout).trim().to_owned();
        (found.status.success() && !path.is_empty()).then_some(path)
    })
}

/// Whether `tool` is installed on this machine.
pub fn installed(tool: &str) -> bool {
    which(&[tool]).is_some()
}

/// A scratch directory with its own SQLite database, removed on drop.
pub struct Scratch {
    pub dir: PathBuf,
    pub database_url: String,
    /// Extra settings for every command run here.
    pub env: Vec<(String, String)>,
}

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("vp-bb-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch dir");
        let database_url = format!("sqlite://{}", dir.join("db.sqlite").display());
        Scratch { dir, database_url, env: vec![] }
    }

    pub fn file(&self, name: &str, content: &str) -> PathBuf {
        let path = self.dir.join(name);
        std::fs::write(&path, content).expect("write scratch file");
        path
    }

    /// Runs `vp-api` with this database and returns what it printed.
    pub fn run(&self, args: &[&str]) -> Run {
        let output = Command::new(env!("CARGO_BIN_EXE_vp-api"))
            .args(args)
            .env("DATABASE_URL", &self.database_url)
            .env("VP_LOG", "warn")
            .env_remove("VP_CONFIG_FILE")
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .output()
            .expect("run vp-api");
        Run::from(output)
    }

    /// Runs a command that must succeed and returns its JSON.
    pub fn ok(&self, args: &[&str]) -> Value {
        let run = self.run(args);
        assert_eq!(run.code, 0, "{args:?} failed: {}", run.stderr);
        run.json()
    }

    /// Runs a command that must be refused as bad input; returns the error message.
    pub fn refused(&self, args: &[&str]) -> String {
        let run = self.run(args);
        assert_eq!(
            run.code, 2,
            "{args:?} should be refused with exit 2, got {}: {}{}",
            run.code, run.stdout, run.stderr
        );
        assert!(run.stdout.trim().is_empty(), "a refused command prints no JSON: {}", run.stdout);
        assert!(run.stderr.starts_with("error: "), "clear message expected: {}", run.stderr);
        run.stderr
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl From<Output> for Run {
    fn from(o: Output) -> Run {
        Run {
            code: o.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        }
    }
}

impl Run {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", self.stdout))
    }
}
