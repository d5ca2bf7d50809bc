//! Files the service writes as CSV, read back by a standard reader (Python's `csv` module in
//! strict mode), as a partner's accountant's tools would read them.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

/// The rows of `csv` as Python's `csv.DictReader` reads them, each an object by header.
pub fn read(csv: &str) -> Vec<Value> {
    let script = "import csv, json, sys; print(json.dumps(list(csv.DictReader(sys.stdin, strict=True))))";
    let mut python = Command::new("python3")
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3");
    python.stdin.take().unwrap().write_all(csv.as_bytes()).unwrap();
    let out = python.wait_with_output().unwrap();
    assert!(out.status.success(), "python's csv module reads it");
    serde_json::from_slice::<Vec<Value>>(&out.stdout).unwrap()
}

/// A money cell (`"1234.50"`, `"-12.00"`) in minor units.
pub fn cents(cell: &Value) -> i64 {
    let text = cell.as_str().unwrap_or_else(|| panic!("a money cell: {cell}"));
    let (sign, digits) = text.strip_prefix('-').map_or((1, text), |d| (-1, d));
    let (whole, frac) = digits.split_once('.').unwrap_or_else(|| panic!("a decimal: {text}"));
    sign * (whole.parse::<i64>().unwrap() * 100 + frac.parse::<i64>().unwrap())
}
