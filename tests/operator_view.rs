//! The operator's view over real HTTP on the real binary: operators invited and revoked with
//! `vp-api operator`, their door apart from the cabinet's, every partner's sales summed and
//! ranked, what the platform owes partners, and the audit of each page opened.

use serde_json::{Value, json};

use crate::support;

use support::partner::{pay, rand_suffix, subscription};
use support::server::{Backend, Server, partner_request};
use support::visitor::{PASSWORD, Visitor};

// The sums across accounts are SQL of their own: both backends.
each_backend!(an_operator_sees_every_partners_sales_ranked_and_what_is_owed_and_each_page_is_audited);

/// The welcome path of an operator's invitation.
fn invite(s: &Server, email: &str) -> (Value, String) {
    let out = s.cli(&["operator", "invite", email]);
    let link = out["link"].as_str().expect("a link");
    let path = link[link.find("/operator/welcome/").expect("an operator's welcome link")..].to_owned();
    (out, path)
}

/// Sells `plan` to `client` with `key` (an account's API key) and pays it.
fn sell(s: &Server, key: &str, client: &str, plan: i64) -> Value {
    let idempotency = format!("op-{client}-{}", rand_suffix());
    let headers = [("idempotency-key", idempotency.as_str())];
    let created = partner_request(s.port, key, "POST", "/payments", Some(&subscription(client, plan)), &headers);
    assert_eq!(created.status, 201, "{}", created.text());
    let payment_id = created.json()["payment_id"].as_str().unwrap().to_owned();
    pay(s, &payment_id);
    partner_request(s.port, key, "GET", &format!("/payments/{payment_id}"), None, &[]).json()
}

fn an_operator_sees_every_partners_sales_ranked_and_what_is_owed_and_each_page_is_audited(backend: Backend) {
    let Some(s) = Server::start(backend, "operator_view") else { return };
    let other = s.cli(&["account", "create", "--brand", "Other VPN", "--markup", "10"]);
    let other_id = other["account"]["account_id"].as_str().unwrap().to_owned();
    let other_key = other["api_key"]["api_key"].as_str().unwrap().to_owned();
    let sold = [sell(&s, &s.key, "demo-1", 1), sell(&s, &s.key, "demo-2", 2), sell(&s, &other_key, "other-1", 1)];
    let today = time::OffsetDateTime::now_utc().date();
    let (from, to) = ((today - time::Duration::days(1)).to_string(), (today + time::Duration::days(1)).to_string());
    for account in [s.account_id.as_str(), other_id.as_str()] {
        s.cli(&["sales", "rebuild", account, "--from", &from, "--to", &to]);
    }

    let (invited, path) = invite(&s, "Ops@Example.com");
    assert_eq!((invited["email"].as_str(), invited["purpose"].as_str()), (Some("ops@example.com"), Some("invite")));
    let mut ops = Visitor::new(s.port);
    let door = ops.get("/operator");
    assert_eq!((door.status, door.header("location")), (303, Some("/operator/sign-in")), "signed in or nothing");
    // A partner signed in to the cabinet is no operator.
    let mut partner = support::visitor::cabinet_member(&s, &s.account_id, "partner@example.com");
    let refused = partner.get("/operator/owed");
    assert_eq!((refused.status, refused.header("location")), (303, Some("/operator/sign-in")));

    let done = ops.submit(&path, &path, &[("password", PASSWORD), ("confirm", PASSWORD)]);
    assert_eq!((done.status, done.header("location")), (303, Some("/operator")), "{}", done.text());
    let cookie = done.headers.iter().find(|(k, v)| k == "set-cookie" && v.starts_with("vp_operator=")).unwrap();
    assert!(cookie.1.contains("Path=/operator") && cookie.1.contains("HttpOnly"), "{}", cookie.1);
    assert_eq!(ops.get("/cabinet").header("location"), Some("/cabinet/sign-in"), "and an operator no partner");

    let gross: i64 = sold.iter().map(|i| support::csv::cents(&i["amount"])).sum();
    let page = ops.get("/operator?range=7d&lang=en");
    assert_eq!(page.status, 200);
    assert_eq!(page.header("cache-control"), Some("no-store"));
    let html = page.text();
    for shown in ["Sales of every partner", "Demo VPN", "Other VPN", "Accounts", "ops@example.com"] {
        assert!(html.contains(shown), "{shown} on the sales page: {html}");
    }
    let demo_at = html.find("Demo VPN").unwrap();
    let other_at = html.find("Other VPN").unwrap();
    assert!(demo_at < other_at, "by revenue: the demo account's two sales before the other's one");
    assert!(html.contains(&money(gross)), "every account's revenue summed, {}: {html}", money(gross));
    let by_growth = ops.get("/operator?range=7d&by=growth&lang=en").text();
    assert!(by_growth.contains("aria-current=\"page\">Growth"), "the order chosen is marked");

    let owed = ops.get("/operator/owed?lang=en");
    assert_eq!(owed.status, 200);
    let shares: i64 = sold.iter().map(|i| support::csv::cents(&i["partner_share"])).sum();
    assert!(owed.text().contains(&money(shares)), "the partners' shares are owed, {}: {}", money(shares), owed.text());
    assert!(owed.text().contains("No withdrawal is waiting."));

    let audit = ops.get("/operator/audit?lang=en").text();
    for line in ["Looked at the sales", "Looked at what is owed", "Invited", "Set the password"] {
        assert!(audit.contains(line), "{line} in the audit: {audit}");
    }
    assert!(audit.contains("sales 7d") && audit.contains("by growth"), "with what each page showed: {audit}");

    let stale = ops.post("/operator/sign-out", &[("csrf", "not the session's")]);
    assert_eq!(stale.status, 403, "a form without the session's token changes nothing");
    assert_eq!(ops.get("/operator").status, 200);

    let listed = s.cli(&["operator", "list"]);
    assert_eq!(
        listed,
        json!([{
            "operator_id": listed[0]["operator_id"], "email": "ops@example.com", "password_set": true,
            "created_at": listed[0]["created_at"], "revoked_at": null,
        }])
    );
    let revoked = s.cli(&["operator", "revoke", "ops@example.com"]);
    assert_eq!(revoked["sessions_ended"], 1);
    let after = ops.get("/operator");
    assert_eq!((after.status, after.header("location")), (303, Some("/operator/sign-in")), "the session ended");
    let (code, said) = s.cli_raw(&["operator", "revoke", "ops@example.com"]);
    assert_ne!(code, Some(0), "revoking twice is refused: {said}");
    assert!(said.contains("already revoked"), "{said}");
}

/// An amount as the English pages write it: `RUB 1,234.50` (a no-break space after RUB).
fn money(kopecks: i64) -> String {
    let digits = (kopecks / 100).to_string();
    let mut grouped = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(d);
    }
    format!("RUB\u{a0}{grouped}.{:02}", kopecks % 100)
}
