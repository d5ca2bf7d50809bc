//! The SDKs kept in `sdk/`, each run against the real `vp-api` binary through the whole partner
//! flow by its own test suite: TypeScript (`sdk/typescript`, under Node) and Python
//! (`sdk/python`, in a virtualenv made from its pinned requirements). Each runs where its
//! toolchain is installed; `VP_TEST_SDKS=require` (CI) makes a missing one a failure.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::installed;

fn run(dir: &Path, program: &str, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("VP_API_BIN", env!("CARGO_BIN_EXE_vp-api"))
        .output()
        .unwrap_or_else(|e| panic!("run {program}: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{program} {args:?} in {}:\n{text}", dir.display());
    text
}

fn required_or_skipped(tools: &[&str], what: &str) -> bool {
    if tools.iter().all(|t| installed(t)) {
        return true;
    }
    let required = std::env::var("VP_TEST_SDKS").is_ok_and(|v| v == "require");
    assert!(!required, "VP_TEST_SDKS=require but {tools:?} is missing");
    eprintln!("SKIPPED: {what} (install {tools:?})");
    false
}

#[test]
fn the_python_sdk_runs_the_whole_partner_flow_against_the_real_service() {
    if !required_or_skipped(&["python3"], "the Python SDK's tests") {
        return;
    }
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../sdk/python");
    let python = dir.join(".venv/bin/python");
    if !python.is_file() {
        run(&dir, "python3", &["-m", "venv", ".venv"]);
        let pip = dir.join(".venv/bin/pip");
        let installed = Command::new(&pip)
            .args(["install", "-q", "--disable-pip-version-check", "-r", "requirements.txt"])
            .current_dir(&dir)
            .status();
        if !installed.is_ok_and(|s| s.success()) {
            let _ = std::fs::remove_dir_all(dir.join(".venv"));
            panic!("pip install -r sdk/python/requirements.txt failed");
        }
    }
    let out = Command::new(&python)
        .args(["-m", "unittest", "discover", "-s", "tests", "-v"])
        .current_dir(&dir)
        .env("PYTHONPATH", dir.join("src"))
        .env("VP_API_BIN", env!("CARGO_BIN_EXE_vp-api"))
        .output()
        .expect("run the Python SDK's tests");
    let report = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && report.contains("\nOK"), "{report}");
}

#[test]
fn the_typescript_sdk_runs_the_whole_partner_flow_against_the_real_service() {
    if !required_or_skipped(&["node", "npm"], "the TypeScript SDK's tests") {
        return;
    }
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../sdk/typescript");
    if !dir.join("node_modules/.package-lock.json").is_file() {
        run(&dir, "npm", &["ci", "--no-audit", "--no-fund", "--ignore-scripts"]);
    }
    run(&dir, "npm", &["run", "--silent", "build"]);
    let report = run(&dir, "node", &["--test", "dist/test/"]);
    assert!(report.contains("# fail 0") && !report.contains("# pass 0"), "{report}");
}
