//! The gateways' contract check: exchanges with the Platega and Crypto Pay emulators, checked
//! by `contract/<gateway>/validate.py` against the vendors' SDK models (`aioplatega`,
//! `aiocryptopay`, each pinned in its `requirements.txt`: they pin `certifi` apart), as the
//! Telegram emulator's are against aiogram's.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Value, json};

static CHECKS: AtomicU64 = AtomicU64::new(0);

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
    let out = std::process::Command::new(python).arg(dir.join("validate.py")).arg(&file).output();
    let _ = std::fs::remove_file(&file);
    let out = out.map_err(|e| format!("cannot run python: {e}"))?;
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if out.status.success() { Ok(text) } else { Err(text) }
}
