//! A browser without a browser: keeps the cookies the server sets, posts forms the way a
//! browser encodes them, and reads hidden fields out of pages. For the cabinet's HTTP tests;
//! the journeys in a real browser are in `browser_cabinet.rs`.

use super::server::{Response, Server, request};

pub struct Visitor {
    port: u16,
    cookies: Vec<(String, String)>,
}

/// `application/x-www-form-urlencoded`, as browsers write it.
pub fn form_encode(fields: &[(&str, &str)]) -> String {
    let enc = |s: &str| {
        s.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'*' => (b as char).to_string(),
                b' ' => "+".to_owned(),
                _ => format!("%{b:02X}"),
            })
            .collect::<String>()
    };
    fields.iter().map(|(k, v)| format!("{}={}", enc(k), enc(v))).collect::<Vec<_>>().join("&")
}

/// The `value` of the input named `name` in a page.
pub fn field(html: &str, name: &str) -> String {
    let at = html.find(&format!("name=\"{name}\"")).unwrap_or_else(|| panic!("no field {name} in {html}"));
    let rest = &html[at..];
    let value = rest.split("value=\"").nth(1).expect("a value");
    value[..value.find('"').unwrap()].replace("&amp;", "&")
}

impl Visitor {
    pub fn new(port: u16) -> Visitor {
        Visitor { port, cookies: Vec::new() }
    }

    pub fn cookie(&self, name: &str) -> Option<&str> {
        self.cookies.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    pub fn set_cookie(&mut self, name: &str, value: &str) {
        self.cookies.retain(|(k, _)| k != name);
        self.cookies.push((name.to_owned(), value.to_owned()));
    }

    fn keep_cookies(&mut self, res: &Response) {
        for (k, v) in &res.headers {
            if !k.eq_ignore_ascii_case("set-cookie") {
                continue;
            }
            let pair = v.split(';').next().unwrap_or_default();
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let deleted = v.contains("Max-Age=0") || value.is_empty();
            self.cookies.retain(|(k, _)| k != name);
            if !deleted {
                self.cookies.push((name.to_owned(), value.to_owned()));
            }
        }
    }

    fn cookie_header(&self) -> String {
        self.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; ")
    }

    pub fn get(&mut self, path: &str) -> Response {
        let cookies = self.cookie_header();
        let res = request(self.port, "GET", path, &[("cookie", &cookies), ("accept", "text/html")], None);
        self.keep_cookies(&res);
        res
    }

    pub fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> Response {
        let cookies = self.cookie_header();
        let body = form_encode(fields);
        let headers = [("cookie", cookies.as_str()), ("content-type", "application/x-www-form-urlencoded")];
        let res = request(self.port, "POST", path, &headers, Some(body.as_bytes()));
        self.keep_cookies(&res);
        res
    }

    /// Opens a page and posts its form (the first that has `csrf` or `form_token`) with these
    /// fields and the page's token.
    pub fn submit(&mut self, page: &str, action: &str, fields: &[(&str, &str)]) -> Response {
        let html = self.get(page).text();
        let (name, token) = if html.contains("name=\"csrf\"") {
            ("csrf", field(&html, "csrf"))
        } else {
            ("form_token", field(&html, "form_token"))
        };
        let mut all = vec![(name, token.as_str())];
        all.extend_from_slice(fields);
        self.post(action, &all)
    }
}

/// The password the cabinet's tests set when they accept an invitation.
pub const PASSWORD: &str = "a long enough phrase";

/// The path of a one-time link inviting `email` to `account_id`'s cabinet, from the operator's CLI.
pub fn invite_to(s: &Server, account_id: &str, email: &str) -> String {
    let out = s.cli(&["cabinet", "invite", account_id, "--email", email]);
    let link = out["link"].as_str().expect("a link").to_owned();
    // The operator's command runs with its own settings; the path is what the server serves.
    link[link.find("/cabinet/welcome/").expect("a welcome link")..].to_owned()
}

/// A visitor who accepted an invitation to `account_id`'s cabinet and is signed in.
pub fn cabinet_member(s: &Server, account_id: &str, email: &str) -> Visitor {
    let path = invite_to(s, account_id, email);
    let mut v = Visitor::new(s.port);
    let res = v.submit(&path, &path, &[("password", PASSWORD), ("confirm", PASSWORD)]);
    assert_eq!(res.status, 303, "{}", res.text());
    v
}
