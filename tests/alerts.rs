//! The alert rules and the dashboard in `deploy/` against the real binary: every `vp_` metric
//! they use is one `/metrics` exports, so renaming a metric breaks the build rather than an
//! alert at night; `promtool` finds the rules well-formed and their unit tests
//! (`alerts.test.yml`) pass; and every dashboard query parses. Runs where promtool is installed
//! (Debian's `prometheus`; `VP_TEST_PROMTOOL=require`, as CI sets, makes it a failure when not).

use crate::support;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

use support::server::{Backend, METRICS_TOKEN, Server};

fn deploy(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../deploy").join(path)
}

/// The `vp_…` metric names in `text`, a histogram's series (`_bucket`, `_count`, `_sum`) by
/// their family's name.
fn metric_names(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(at) = text[i..].find("vp_").map(|at| at + i) {
        let starts_a_name = at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
        let end = text[at..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).map_or(text.len(), |e| at + e);
        if starts_a_name && end > at + 3 {
            let name = &text[at..end];
            let family = ["_bucket", "_count", "_sum"].iter().find_map(|s| name.strip_suffix(s)).unwrap_or(name);
            names.insert(family.to_owned());
        }
        i = end;
    }
    names
}

/// The families `/metrics` declares (`# TYPE <name> …`).
fn exported(metrics: &str) -> BTreeSet<String> {
    metrics.lines().filter_map(|l| l.strip_prefix("# TYPE ")?.split(' ').next().map(str::to_owned)).collect()
}

fn promtool_present() -> bool {
    if support::installed("promtool") {
        return true;
    }
    let required = std::env::var("VP_TEST_PROMTOOL").as_deref() == Ok("require");
    assert!(!required, "promtool is required (apt-get install prometheus)");
    eprintln!("skipped: promtool is not installed");
    false
}

fn promtool(args: &[&str]) -> String {
    let out = Command::new("promtool").args(args).current_dir(deploy("prometheus")).output().expect("run promtool");
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "promtool {args:?}:\n{said}");
    said
}

/// The dashboard's queries.
fn dashboard_queries() -> Vec<String> {
    let text = std::fs::read_to_string(deploy("grafana/vp-api.json")).expect("the dashboard");
    let dashboard: serde_json::Value = serde_json::from_str(&text).expect("the dashboard is JSON");
    let panels = dashboard["panels"].as_array().expect("panels");
    panels
        .iter()
        .flat_map(|p| p["targets"].as_array().cloned().unwrap_or_default())
        .map(|t| t["expr"].as_str().expect("each target has a query").to_owned())
        .collect()
}

#[test]
fn every_metric_the_alerts_and_the_dashboard_use_is_one_the_service_exports() {
    let env = [("VP_METRICS_TOKEN", METRICS_TOKEN)];
    let Some(s) = Server::start_with(Backend::Sqlite, "alerts", &env) else { return };
    // A paid invoice: the gateway and the panel are called, so their series exist.
    support::partner::buy(&s, "alerts-client", 1);
    let exported = exported(&s.metrics());
    assert!(exported.contains("vp_database_up") && exported.contains("vp_mail_outbox_pending"), "{exported:?}");

    let rules = std::fs::read_to_string(deploy("prometheus/alerts.yml")).expect("the alert rules");
    let used_by_rules = metric_names(&rules);
    assert!(used_by_rules.len() >= 7, "the rules use the service's metrics: {used_by_rules:?}");
    let queries = dashboard_queries();
    let used_by_dashboard = metric_names(&queries.join("\n"));
    for (what, used) in [("alerts.yml", &used_by_rules), ("the dashboard", &used_by_dashboard)] {
        let unknown: Vec<&String> = used.difference(&exported).collect();
        assert!(unknown.is_empty(), "{what} uses metrics the service does not export: {unknown:?}");
    }
    let shown: BTreeSet<&String> = used_by_rules.iter().chain(&used_by_dashboard).collect();
    let unwatched: Vec<&String> = exported.iter().filter(|m| !shown.contains(m)).collect();
    assert!(unwatched.is_empty(), "every metric is on the dashboard or in an alert: {unwatched:?}");

    if !promtool_present() {
        return;
    }
    assert!(promtool(&["check", "rules", "alerts.yml"]).contains("SUCCESS"));
    assert!(promtool(&["test", "rules", "alerts.test.yml"]).contains("SUCCESS"));
    // The dashboard's queries as recording rules: promtool parses each.
    let scratch = support::Scratch::new("dashboard-queries");
    let mut recording = String::from("groups:\n  - name: dashboard\n    rules:\n");
    for (i, query) in queries.iter().enumerate() {
        recording
            .push_str(&format!("      - record: dashboard:query_{i}\n        expr: {}\n", serde_json::json!(query)));
    }
    let file = scratch.file("dashboard.rules.yml", &recording);
    assert!(promtool(&["check", "rules", file.to_str().unwrap()]).contains("SUCCESS"), "{recording}");
}

#[test]
fn metric_names_are_read_as_families_and_only_where_a_name_starts() {
    let names = metric_names("rate(vp_a_count[5m]) / x_vp_b + vp_c_bucket{le=\"1\"} and vp_d, every vp_ metric");
    assert_eq!(names.into_iter().collect::<Vec<_>>(), ["vp_a", "vp_c", "vp_d"]);
}
