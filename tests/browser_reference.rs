//! The API reference page in a real headless Chromium: `GET /api/partner/v1/docs` renders the
//! served OpenAPI document with every operation and every event, from this server alone (the
//! renderer is built into the binary). Screenshots go to `tests/screenshots/`.

use crate::support;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::browser::{Browser, DESKTOP, PHONE};
use support::server::{Backend, Server};

/// Every element id of the rendered page, once Redoc has drawn the operations (or after 20 s).
const RENDERED_IDS: &str = "return Array.from(document.querySelectorAll('[id]')).map(e => e.id);";

fn rendered(browser: &Browser) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let ids: Vec<String> = serde_json::from_value(browser.eval(RENDERED_IDS, json!([]))).unwrap_or_default();
        if ids.iter().any(|id| id.contains("operation/")) || Instant::now() > deadline {
            return ids;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn the_reference_page_shows_every_operation_and_every_event_from_this_server_alone() {
    let Some(s) = Server::start(Backend::Sqlite, "browser_reference") else { return };
    let doc: Value = s.get_raw("/api/partner/v1/openapi.json", &[]).json();
    let page = s.get_raw("/api/partner/v1/docs", &[]);
    assert_eq!(page.status, 200);
    assert!(page.header("content-security-policy").is_some_and(|p| p.starts_with("default-src 'none'")));

    for (size, name) in [(DESKTOP, "desktop"), (PHONE, "phone")] {
        let Some(browser) = Browser::start(size) else { return };
        browser.goto(&format!("{}/api/partner/v1/docs", s.base));
        let ids = rendered(&browser);
        let has = |operation_id: &str| ids.iter().any(|id| id.ends_with(&format!("operation/{operation_id}")));
        for (path, item) in doc["paths"].as_object().unwrap() {
            for (method, op) in item.as_object().unwrap() {
                let id = op["operationId"].as_str().unwrap();
                assert!(has(id), "{name}: {method} {path} ({id}) is not on the page; ids: {ids:?}");
            }
        }
        let text = browser.eval("return document.body.innerText;", json!([])).as_str().unwrap_or_default().to_owned();
        for (event_type, item) in doc["webhooks"].as_object().unwrap() {
            let id = item["post"]["operationId"].as_str().unwrap();
            assert!(has(id), "{name}: the event {event_type} ({id}) is not on the page");
            assert!(text.contains(item["post"]["summary"].as_str().unwrap()), "{name}: {event_type}'s summary");
        }
        let events = doc["tags"].as_array().unwrap().iter().find(|t| t["name"] == "events").unwrap();
        let about = events["description"].as_str().unwrap().split(". ").next().unwrap().to_owned();
        assert!(text.contains(&about), "{name}: the events have their own section, with what it says of them");
        // What the page needed (scripts, the document) came from this server. The one foreign
        // address Redoc names, the logo of its "API docs by Redocly" footer, the page's
        // Content-Security-Policy refuses, and the page does not need it.
        let loaded: Vec<(String, String)> =
            serde_json::from_value(browser.eval(
                "return performance.getEntriesByType('resource').map(e => [e.initiatorType, e.name]);",
                json!([]),
            ))
            .unwrap();
        let (ours, foreign): (Vec<_>, Vec<_>) = loaded.iter().partition(|(_, url)| url.starts_with(&s.base));
        assert!(ours.iter().any(|(_, url)| url.ends_with("/openapi.json")), "{name}: {loaded:?}");
        assert!(
            foreign.iter().all(|(kind, url)| kind == "img" && url == "https://cdn.redoc.ly/redoc/logo-mini.svg"),
            "{name}: loaded from elsewhere: {foreign:?}"
        );
        browser.screenshot(&format!("api-reference-{name}"));
        browser.eval(
            "document.getElementById(arguments[0]).scrollIntoView();",
            json!([format!(
                "tag/events/operation/{}",
                doc["webhooks"]["subscription.expiring"]["post"]["operationId"].as_str().unwrap()
            )]),
        );
        std::thread::sleep(Duration::from_millis(300));
        browser.screenshot(&format!("api-reference-{name}-event"));
    }
}
