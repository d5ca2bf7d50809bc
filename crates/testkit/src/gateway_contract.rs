//! The gateways' contract check: exchanges with the Platega and Crypto Pay emulators, checked
//! by `contract/<gateway>/validate.py` against the vendors' SDK models (`aioplatega`,
//! `aiocryptopay`, each pinned in its `requirements.txt`: they pin `certifi` apart), as the
//! Telegram emulator's are against aiogram's.

use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Value, json};

static CHECKS: AtomicU64 = AtomicU64::new(0);

/// The folder where `cargo xtask test` serves the contract checks for its run (`<contract>.sock`,
/// by `validate.py --serve`), so the SDKs' models are built once; without it, or while a server
/// is not up yet, each check starts Python.
pub const SOCKETS_VAR: &str = "VP_CONTRACT_SOCKETS";

/// One exchange: a call's query parameters or body and its answer, or a callback posted.
#[derive(Debug, Clone)]
pub struct Exchange(Value);

impl Exchange {
    pub fn new(gateway: &str, kind: &str, params: Value, body: Value, status: u16, response: Value) -> Exchange {
        Exchange(json!({
            "gateway": gateway,
            "kind": kind,
            "params": params,
            "body": body,
            "status": status,
            "response": response,
        }))
    }
}

fn contract_dir(gateway: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../contract").join(gateway)
}

/// Runs `gateway`'s validator over `exchanges`: `Ok` with its report, `Err` with its findings.
pub fn check(gateway: &str, exchanges: &[Exchange]) -> Result<String, String> {
    let all = Value::Array(exchanges.iter().map(|e| e.0.clone()).collect());
    run_validator(&contract_dir(gateway), &all)
}

/// Runs `dir`'s `validate.py` under its virtualenv over `exchanges` (written to a file it
/// reads): `Ok` with its report, `Err` with its findings, or with how to install it.
pub(crate) fn run_validator(dir: &std::path::Path, exchanges: &Value) -> Result<String, String> {
    let python = dir.join(".venv/bin/python");
    if !python.is_file() {
        return Err(format!(
            "the contract models are not installed: run `python3 -m venv {0}/.venv && {0}/.venv/bin/pip install -r \
             {0}/requirements.txt` (cargo xtask test does it)",
            dir.display()
        ));
    }
    let n = CHECKS.fetch_add(1, Ordering::Relaxed);
    let name = dir.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let file = std::env::temp_dir().join(format!("vp-{name}-exchanges-{}-{n}.json", std::process::id()));
    std::fs::write(&file, exchanges.to_string()).map_err(|e| e.to_string())?;
    let checked = match ask_server(&name, &file) {
        Some(answer) => Ok(answer),
        None => std::process::Command::new(python).arg(dir.join("validate.py")).arg(&file).output().map(|out| {
            (
                out.status.success(),
                format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)),
            )
        }),
    };
    let _ = std::fs::remove_file(&file);
    let (conforms, text) = checked.map_err(|e| format!("cannot run python: {e}"))?;
    if conforms { Ok(text) } else { Err(text) }
}

/// The check of `file` by the run's server of contract `name`: whether the exchanges conform,
/// and the report; `None` when no server answers.
fn ask_server(name: &str, file: &Path) -> Option<(bool, String)> {
    let sockets = std::env::var_os(SOCKETS_VAR)?;
    let mut stream = UnixStream::connect(Path::new(&sockets).join(format!("{name}.sock"))).ok()?;
    stream.write_all(format!("{}\n", file.display()).as_bytes()).ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    let (verdict, report) = answer.split_once('\n')?;
    match verdict {
        "ok" => Some((true, report.to_owned())),
        "findings" => Some((false, report.to_owned())),
        _ => None,
    }
}
