//! A real headless Chromium for the page tests, driven over the W3C WebDriver protocol through
//! `chromedriver` (Debian's `chromium` and `chromium-driver`). The protocol's few JSON
//! commands these tests need are sent with the test kit's HTTP client: a WebDriver crate would
//! bring some thirty crates (ICU tables among them) to compile for a handful of requests.
//!
//! Without `chromedriver` the browser tests skip loudly, unless `VP_TEST_BROWSER=require`
//! (CI), which makes a missing browser a failure.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::{Value, json};

/// The two window sizes every page is checked at.
pub const PHONE: (u32, u32) = (390, 844);
pub const DESKTOP: (u32, u32) = (1280, 900);

const PHONE_AGENT: &str =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148";

pub struct Browser {
    driver: Child,
    base: String,
    session: String,
    /// Where the window's downloads go (its own folder, removed with it).
    downloads: PathBuf,
}

impl Browser {
    /// A browser window of `size`; at the phone size, as a phone (touch, its User-Agent and
    /// device pixel ratio), so the page's viewport rules apply as on a real one.
    pub fn start(size: (u32, u32)) -> Option<Browser> {
        let required = std::env::var("VP_TEST_BROWSER").is_ok_and(|v| v == "require");
        let (Some(driver), Some(chromium)) =
            (super::which(&["chromedriver"]), super::which(&["chromium", "chromium-browser", "google-chrome"]))
        else {
            assert!(!required, "VP_TEST_BROWSER=require but chromedriver or chromium is not installed");
            eprintln!("SKIPPED: browser test (install chromium and chromium-driver, or set VP_TEST_BROWSER=require)");
            return None;
        };
        let port = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("free port").port();
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let base = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(20);
        while vp_testkit::http::send("GET", &format!("{base}/status"), &[], b"").is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not come up");
            std::thread::sleep(Duration::from_millis(100));
        }
        let downloads = std::env::temp_dir().join(format!("vp-browser-downloads-{port}"));
        let _ = std::fs::remove_dir_all(&downloads);
        std::fs::create_dir_all(&downloads).expect("a downloads folder");
        let mut options = json!({
            "binary": chromium,
            // Downloads go to the window's folder, a second one from a page without asking
            // (a script's click is not a person's, whom Chromium would let have each file).
            "prefs": {"download.default_directory": downloads, "download.prompt_for_download": false,
                      "profile.default_content_setting_values.automatic_downloads": 1},
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--hide-scrollbars", "--force-color-profile=srgb", "--lang=en-US",
                     format!("--window-size={},{}", size.0, size.1)],
        });
        if size == PHONE {
            options["mobileEmulation"] = json!({
                "deviceMetrics": {"width": size.0, "height": size.1, "pixelRatio": 3.0, "touch": true, "mobile": true},
                "userAgent": PHONE_AGENT,
            });
        }
        let mut browser = Browser { driver: child, base, session: String::new(), downloads };
        let created = browser.command(
            "POST",
            "/session",
            json!({"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": options}}}),
        );
        browser.session = created["sessionId"].as_str().expect("a WebDriver session").to_owned();
        Some(browser)
    }

    fn command(&self, method: &str, path: &str, body: Value) -> Value {
        let body = if body.is_null() { String::new() } else { body.to_string() };
        let answer = vp_testkit::http::send(
            method,
            &format!("{}{path}", self.base),
            &[("content-type", "application/json")],
            body.as_bytes(),
        )
        .expect("chromedriver answers");
        let value: Value = serde_json::from_slice(&answer.body).expect("WebDriver JSON");
        assert!(answer.status < 300, "WebDriver {method} {path}: {value}");
        value["value"].clone()
    }

    fn session(&self, method: &str, path: &str, body: Value) -> Value {
        self.command(method, &format!("/session/{}{path}", self.session), body)
    }

    pub fn goto(&self, url: &str) {
        self.session("POST", "/url", json!({ "url": url }));
    }

    /// Runs `script` (a function body; `arguments` holds `args`) and returns its value.
    pub fn eval(&self, script: &str, args: Value) -> Value {
        self.session("POST", "/execute/sync", json!({ "script": script, "args": args }))
    }

    /// Presses Tab once, as a keyboard user does.
    pub fn tab(&self) {
        let tab = "\u{E004}";
        let keys = json!([{ "type": "keyDown", "value": tab }, { "type": "keyUp", "value": tab }]);
        self.session("POST", "/actions", json!({ "actions": [{ "type": "key", "id": "keyboard", "actions": keys }] }));
    }

    /// The text of the file `name` this window downloaded, once the download is whole (the
    /// browser writes `NAME.crdownload` until then).
    pub fn downloaded(&self, name: &str) -> String {
        let path = self.downloads.join(name);
        let whole = super::wait_for(Duration::from_secs(30), || {
            let partial = self.downloads.join(format!("{name}.crdownload"));
            (path.exists() && !partial.exists()).then_some(())
        });
        let present: Vec<_> =
            std::fs::read_dir(&self.downloads).into_iter().flatten().flatten().map(|e| e.file_name()).collect();
        assert!(whole.is_some(), "{name} was not downloaded within 30 s; the folder holds {present:?}");
        std::fs::read_to_string(&path).expect("a downloaded text file")
    }

    /// Saves a screenshot of the window to `tests/screenshots/NAME.png` (ignored by git) for a
    /// person to look at; returns its path.
    pub fn screenshot(&self, name: &str) -> PathBuf {
        let data = self.session("GET", "/screenshot", Value::Null);
        let png = base64::engine::general_purpose::STANDARD.decode(data.as_str().expect("base64 PNG")).expect("PNG");
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/screenshots");
        std::fs::create_dir_all(&dir).expect("screenshot folder");
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, png).expect("write screenshot");
        path
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = vp_testkit::http::send("DELETE", &format!("{}/session/{}", self.base, self.session), &[], b"");
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.downloads);
    }
}

/// Waits until `script` returns true in the page (a form's submission is under way).
pub fn wait_until(browser: &Browser, script: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    while browser.eval(script, json!([])) != Value::Bool(true) {
        assert!(std::time::Instant::now() < deadline, "the page never got to: {script}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// Submits the form whose action ends with `action` the way a person does: by its button, and
/// waits for the next page (a new document: the answer may have the same address).
pub fn press(browser: &Browser, action: &str) {
    browser.eval(
        "window.vpPressed = true; \
         document.querySelector(`form[action$=\"${arguments[0]}\"] button[type=submit]`).click();",
        json!([action]),
    );
    wait_until(browser, "return window.vpPressed === undefined && document.readyState === 'complete';");
}

pub fn fits_the_phone(browser: &Browser, what: &str) {
    let shape = browser.eval("return [document.documentElement.scrollWidth, window.innerWidth];", json!([]));
    assert_eq!(shape[1], json!(PHONE.0), "{what}: the viewport is the phone's width");
    assert_eq!(shape[0], shape[1], "{what}: nothing runs off the side");
}

/// Types values into the page's inputs, by id.
pub fn fill(browser: &Browser, values: &[(&str, &str)]) {
    browser.eval("for (const [id, value] of arguments[0]) document.getElementById(id).value = value;", json!([values]));
}

pub fn text(browser: &Browser) -> String {
    browser.eval("return document.body.innerText;", json!([])).as_str().unwrap_or_default().to_owned()
}
