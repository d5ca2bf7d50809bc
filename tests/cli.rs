//! Operator commands, black-box: the real binary on a fresh SQLite database. Every command
//! prints JSON; bad input gives a clear message, exit code 2, and changes nothing.

use crate::support;

use serde_json::{Value, json};
use support::Scratch;

fn create_account(s: &Scratch) -> (String, Value) {
    let out = s.ok(&["account", "create", "--brand", "  Fast VPN ", "--markup", "12.5", "--trial"]);
    (out["account"]["account_id"].as_str().expect("account id").to_owned(), out)
}

#[test]
fn account_create_shows_the_key_once_and_stores_only_its_prefix() {
    let s = Scratch::new("account");
    let (id, out) = create_account(&s);
    assert_eq!(out["account"]["brand_name"], "Fast VPN");
    assert_eq!(out["account"]["markup_percent"], "12.50");
    assert_eq!(out["account"]["trial_enabled"], true);
    assert_eq!(out["account"]["api_enabled"], true);
    let secret = out["api_key"]["api_key"].as_str().unwrap().to_owned();
    assert!(secret.starts_with("vpk_"));
    let shown = s.ok(&["account", "show", &id]);
    assert_eq!(shown["partner_balance"], "0.00");
    let keys = shown["api_keys"].as_array().unwrap();
    assert_eq!(keys.len(), 1);
    assert_eq!(keys[0]["prefix"], json!(&secret[..8]));
    assert!(!shown.to_string().contains(&secret), "the key is never shown again");
    let db = std::fs::read(s.dir.join("db.sqlite")).unwrap();
    assert!(!db.windows(secret.len()).any(|w| w == secret.as_bytes()), "the key is not stored in clear");
}

#[test]
fn account_create_with_bad_brand_or_markup_is_refused_and_creates_nothing() {
    let s = Scratch::new("account-bad");
    let msg = s.refused(&["account", "create", "--brand", "   ", "--markup", "abc"]);
    assert!(msg.contains("brand_name") && msg.contains("markup_percent"), "{msg}");
    s.refused(&["account", "create", "--brand", &"x".repeat(65)]);
    s.refused(&["account", "create", "--brand", "ok", "--markup", "1000.01"]);
    s.refused(&["account", "create", "--brand", "ok", "--markup", "-5"]);
    assert_eq!(s.ok(&["account", "list"]), json!([]));
}

#[test]
fn account_settings_change_and_bad_values_leave_the_account_unchanged() {
    let s = Scratch::new("account-set");
    let (id, _) = create_account(&s);
    assert_eq!(s.ok(&["account", "set-markup", &id, "20"])["markup_percent"], "20.00");
    assert_eq!(s.ok(&["account", "trial", &id, "off"])["trial_enabled"], false);
    assert_eq!(s.ok(&["account", "api-access", &id, "off"])["api_enabled"], false);
    assert_eq!(s.ok(&["account", "set-brand", &id, "New Name"])["brand_name"], "New Name");
    assert_eq!(s.ok(&["account", "show", &id])["time_zone"], "Europe/Moscow", "the default zone");
    assert_eq!(s.ok(&["account", "set-time-zone", &id, "Asia/Yekaterinburg"])["time_zone"], "Asia/Yekaterinburg");
    let before = s.ok(&["account", "show", &id]);
    s.refused(&["account", "set-markup", &id, "12.345"]);
    s.refused(&["account", "set-brand", &id, ""]);
    assert!(s.refused(&["account", "set-time-zone", &id, "Moscow"]).contains("time_zone"));
    s.refused(&["account", "set-time-zone", &id, "Europe/Atlantis"]);
    s.refused(&["account", "trial", &id, "maybe"]);
    s.refused(&["account", "set-markup", "acc_missing", "10"]);
    assert_eq!(s.ok(&["account", "show", &id]), before);
}

#[test]
fn limit_overrides_are_set_reset_and_validated() {
    let s = Scratch::new("limits");
    let (id, _) = create_account(&s);
    let out = s.ok(&["account", "limits", &id, "--trials-per-day", "200", "--requests-per-minute", "1200"]);
    assert_eq!(
        out["limit_overrides"],
        json!({"requests_per_minute": 1200, "payments_per_minute": null, "new_clients_per_day": null, "trials_per_day": 200})
    );
    let out = s.ok(&["account", "limits", &id, "--trials-per-day", "default"]);
    assert_eq!(out["limit_overrides"]["trials_per_day"], Value::Null);
    assert_eq!(out["limit_overrides"]["requests_per_minute"], 1200);
    for bad in ["0", "-1", "lots", "1.5"] {
        s.refused(&["account", "limits", &id, "--payments-per-minute", bad]);
    }
    assert_eq!(s.ok(&["account", "show", &id])["limit_overrides"]["payments_per_minute"], Value::Null);
}

#[test]
fn keys_are_issued_listed_and_revoked_once() {
    let s = Scratch::new("keys");
    let (id, first) = create_account(&s);
    let second = s.ok(&["key", "issue", &id]);
    assert_ne!(second["api_key"], first["api_key"]["api_key"]);
    let key_id = second["key_id"].as_str().unwrap();
    let revoked = s.ok(&["key", "revoke", key_id]);
    assert!(revoked["revoked_at"].is_string());
    s.refused(&["key", "revoke", key_id]);
    s.refused(&["key", "revoke", "key_unknown"]);
    s.refused(&["key", "issue", "acc_unknown"]);
    let keys = s.ok(&["key", "list", &id]);
    assert_eq!(keys.as_array().unwrap().len(), 2);
    assert_eq!(keys.as_array().unwrap().iter().filter(|k| k["revoked_at"].is_null()).count(), 1);
}

#[test]
fn plans_are_created_listed_and_retired() {
    let s = Scratch::new("plans");
    let monthly = s.ok(&["plan", "create", "--months", "1", "--price", "199"]);
    assert_eq!(monthly["platform_price"], "199.00");
    assert_eq!(monthly["lifetime"], false);
    let lifetime = s.ok(&["plan", "create", "--lifetime", "--price", "4990.00", "--unlimited-devices"]);
    assert_eq!(lifetime["lifetime"], true);
    assert_eq!(lifetime["months"], 0);
    assert_eq!(lifetime["unlimited_devices"], true);
    let id = monthly["plan_id"].as_i64().unwrap().to_string();
    assert!(s.ok(&["plan", "retire", &id])["retired_at"].is_string());
    s.refused(&["plan", "withdraw", &id]);
    s.refused(&["plan", "withdraw", "999"]);
    assert_eq!(s.ok(&["plan", "list"]).as_array().unwrap().len(), 1);
    assert_eq!(s.ok(&["plan", "list", "--include-retired"]).as_array().unwrap().len(), 2);
}

#[test]
fn bad_plans_are_refused_and_nothing_is_created() {
    let s = Scratch::new("plans-bad");
    for args in [
        vec!["plan", "create", "--months", "1", "--price", "0"],
        vec!["plan", "create", "--months", "1", "--price", "1.234"],
        vec!["plan", "create", "--months", "1", "--price", "abc"],
        vec!["plan", "create", "--months", "0", "--price", "100"],
        vec!["plan", "create", "--months", "121", "--price", "100"],
        vec!["plan", "create", "--months", "1", "--lifetime", "--price", "100"],
        vec!["plan", "create", "--price", "100"],
    ] {
        s.refused(&args);
    }
    assert_eq!(s.ok(&["plan", "list", "--include-withdrawn"]), json!([]));
}

#[test]
fn the_device_offer_is_set_switched_off_and_validated() {
    let s = Scratch::new("devices");
    assert_eq!(s.ok(&["devices", "show"])["configured"], false);
    s.refused(&["devices", "off"]);
    let set = s.ok(&["devices", "set", "--included", "3", "--max", "5", "--price", "49"]);
    assert_eq!(
        set,
        json!({"configured": true, "included": 3, "max": 5, "on_sale": true, "platform_price": "49.00", "currency": "RUB"})
    );
    s.refused(&["devices", "set", "--included", "6", "--max", "5", "--price", "49"]);
    s.refused(&["devices", "set", "--included", "1", "--max", "5", "--price", "0"]);
    assert_eq!(s.ok(&["devices", "show"]), set);
    let off = s.ok(&["devices", "off"]);
    assert_eq!(off["on_sale"], false);
    assert_eq!(off["included"], 3);
    assert_eq!(off["max"], 5);
}

#[test]
fn payment_methods_are_added_once_and_enabled_or_disabled() {
    let s = Scratch::new("methods");
    let card = s.ok(&["method", "add", "card", "--name-en", "Bank card", "--name-ru", "Банковская карта"]);
    assert_eq!(card["enabled"], true);
    s.ok(&["method", "add", "sbp", "--name-en", "SBP", "--name-ru", "СБП"]);
    s.refused(&["method", "add", "card", "--name-en", "Again", "--name-ru", "Снова"]);
    s.refused(&["method", "add", "bad code", "--name-en", "X", "--name-ru", "X"]);
    s.refused(&["method", "add", &"m".repeat(33), "--name-en", "X", "--name-ru", "X"]);
    s.refused(&["method", "add", "x", "--name-en", " ", "--name-ru", "X"]);
    assert_eq!(s.ok(&["method", "disable", "sbp"])["enabled"], false);
    s.refused(&["method", "enable", "nope"]);
    let list = s.ok(&["method", "list"]);
    let codes: Vec<_> = list.as_array().unwrap().iter().map(|m| (m["code"].clone(), m["enabled"].clone())).collect();
    assert_eq!(codes, vec![(json!("card"), json!(true)), (json!("sbp"), json!(false))]);
    assert_eq!(list[0]["name_ru"], "Банковская карта");
}

#[test]
fn payment_methods_map_to_yookassa_types_from_its_list_only() {
    let s = Scratch::new("yookassa-types");
    let sbp = s.ok(&["method", "add", "sbp", "--name-en", "SBP", "--name-ru", "СБП", "--yookassa-type", "sbp"]);
    assert_eq!(sbp["yookassa_type"], "sbp");
    let refused =
        s.refused(&["method", "add", "pp", "--name-en", "PayPal", "--name-ru", "PayPal", "--yookassa-type", "paypal"]);
    assert!(refused.contains("bank_card"), "the message lists the types: {refused}");
    assert!(s.ok(&["method", "list"]).as_array().unwrap().iter().all(|m| m["code"] != "pp"), "nothing created");
    s.refused(&["method", "set-yookassa-type", "sbp", "paypal"]);
    s.refused(&["method", "set-yookassa-type", "nope", "bank_card"]);
    assert_eq!(s.ok(&["method", "list"])[0]["yookassa_type"], "sbp", "unchanged by the refusals");
    assert_eq!(s.ok(&["method", "set-yookassa-type", "sbp", "none"])["yookassa_type"], Value::Null);
    assert_eq!(s.ok(&["method", "set-yookassa-type", "sbp", "yoo_money"])["yookassa_type"], "yoo_money");
}

#[test]
fn a_payment_method_names_its_gateway_and_that_gateways_own_method() {
    let s = Scratch::new("method-gateways");
    let add = |code: &str, gateway: &str| {
        s.ok(&["method", "add", code, "--name-en", code, "--name-ru", code, "--gateway", gateway])
    };
    assert_eq!(add("sbp", "platega:sbp")["gateway"], "platega:sbp");
    assert_eq!(add("crypto", "cryptopay")["gateway"], "cryptopay");
    assert_eq!(add("card", "yookassa:bank_card")["gateway"], "yookassa:bank_card");
    for (gateway, says) in [
        ("platega:qr", "sbp, card"),
        ("cryptopay:usdt", "one way to pay"),
        ("yookassa:paypal", "bank_card"),
        ("paypal", "sandbox, yookassa, platega, cryptopay"),
        ("platega:", "GATEWAY[:METHOD]"),
    ] {
        let refused = s.refused(&["method", "add", "bad", "--name-en", "B", "--name-ru", "B", "--gateway", gateway]);
        assert!(refused.contains(says), "{gateway}: {refused}");
    }
    let both =
        ["method", "add", "x", "--name-en", "X", "--name-ru", "X", "--gateway", "sandbox", "--yookassa-type", "sbp"];
    assert_eq!(s.run(&both).code, 2, "a gateway and a default gateway's type at once are refused");
    let codes: Vec<Value> = s.ok(&["method", "list"]).as_array().unwrap().iter().map(|m| m["code"].clone()).collect();
    assert_eq!(codes, ["sbp", "crypto", "card"], "nothing created by the refusals");

    let moved = s.ok(&["method", "set-gateway", "sbp", "platega:card"]);
    assert_eq!((&moved["gateway"], &moved["yookassa_type"]), (&json!("platega:card"), &json!("card")));
    let back = s.ok(&["method", "set-gateway", "sbp", "default"]);
    assert_eq!((&back["gateway"], &back["yookassa_type"]), (&Value::Null, &Value::Null), "the default gateway again");
    s.refused(&["method", "set-gateway", "sbp", "platega:qr"]);
    s.refused(&["method", "set-gateway", "nope", "sandbox"]);
}

#[test]
fn the_embedded_gateway_and_panel_answer_their_checks() {
    let s = Scratch::new("checks");
    let all = s.ok(&["gateway", "check"]);
    assert_eq!(all["gateways"].as_array().map(Vec::len), Some(1), "only the sandbox is on without settings: {all}");
    let gateway = &all["gateways"][0];
    assert_eq!(
        (&gateway["gateway"], &gateway["default"], &gateway["test"]),
        (&json!("sandbox"), &json!(true), &json!(true))
    );
    assert_eq!(s.ok(&["gateway", "check", "sandbox"])["gateway"], "sandbox", "one gateway, as it answered");
    let off = s.refused(&["gateway", "check", "platega"]);
    assert!(off.contains("platega is off"), "{off}");
    assert!(s.refused(&["gateway", "check", "paypal"]).contains("one of sandbox, yookassa, platega, cryptopay"));
    let panel = s.ok(&["panel", "check"]);
    assert_eq!(panel["panel"], "local");
    assert_eq!(s.ok(&["panel", "reconcile"]), json!({"checked": 0, "drifted": 0, "clients": []}));
}

#[test]
fn an_unknown_invoice_cannot_be_refunded() {
    let s = Scratch::new("refund");
    assert!(s.refused(&["invoice", "refund", "pay_missing"]).contains("invoice not found"));
}

#[test]
fn client_and_subscription_commands_refuse_unknown_accounts_and_clients() {
    let s = Scratch::new("clients");
    let (id, _) = create_account(&s);
    assert!(s.refused(&["client", "block", &id, "nobody"]).contains("client not found"));
    assert!(s.refused(&["client", "show", "acc_missing", "nobody"]).contains("account not found"));
    s.refused(&["client", "unblock", &id, ".."]);
    s.refused(&["subscription", "suspend", &id, "nobody"]);
    s.refused(&["subscription", "resume", &id, "nobody"]);
}

#[test]
fn the_app_list_and_documents_are_replaced_only_by_valid_files() {
    let s = Scratch::new("content");
    assert_eq!(s.ok(&["apps", "show"]), Value::Null);
    let good = s.file("apps.json", include_str!("../crates/app/seed/apps.json"));
    let set = s.ok(&["catalogue", "set", good.to_str().unwrap()]);
    assert_eq!(set["recommended_app_id"], "happ");
    let bad = s.file("bad.json", r#"{"platforms": [], "apps": [], "recommended_app_id": "happ"}"#);
    assert!(s.refused(&["catalogue", "set", bad.to_str().unwrap()]).contains("recommended_app_id"));
    s.refused(&["catalogue", "set", "/nonexistent/file.json"]);
    assert_eq!(s.ok(&["apps", "show"]), set);

    let docs = s.file("docs.json", include_str!("../crates/app/seed/documents.json"));
    let set = s.ok(&["documents", "set", docs.to_str().unwrap()]);
    assert_eq!(set["privacy_policy"]["title"]["ru"], "Политика конфиденциальности");
    let bad = s.file("bad-docs.json", r#"{"terms_of_service": {}}"#);
    s.refused(&["documents", "set", bad.to_str().unwrap()]);
    let mut unfilled: Value = serde_json::from_str(include_str!("../crates/app/seed/documents.json")).unwrap();
    unfilled["operator"]["name"]["en"] = json!("");
    let unfilled = s.file("unfilled.json", &unfilled.to_string());
    assert!(s.refused(&["documents", "set", unfilled.to_str().unwrap()]).contains("operator.name.en"));
    assert_eq!(s.ok(&["documents", "show"]), set);
}

#[test]
fn demo_seeds_an_empty_database_once() {
    let s = Scratch::new("demo");
    let out = s.ok(&["demo"]);
    assert!(out["api_key"]["api_key"].as_str().unwrap().starts_with("vpk_"));
    assert_eq!(out["account"]["trial_enabled"], true);
    let plans = s.ok(&["plan", "list"]);
    let terms: Vec<_> =
        plans.as_array().unwrap().iter().map(|p| (p["months"].clone(), p["lifetime"].clone())).collect();
    assert_eq!(
        terms,
        vec![
            (json!(1), json!(false)),
            (json!(3), json!(false)),
            (json!(6), json!(false)),
            (json!(12), json!(false)),
            (json!(0), json!(true))
        ]
    );
    assert_eq!(s.ok(&["devices", "show"])["on_sale"], true);
    assert_eq!(s.ok(&["method", "list"]).as_array().unwrap().len(), 2);
    let apps = s.ok(&["apps", "show"]);
    let ids: Vec<_> =
        apps["apps"].as_array().unwrap().iter().map(|a| a["app_id"].as_str().unwrap().to_owned()).collect();
    assert_eq!(ids, ["happ", "v2raytun", "hiddify", "streisand"]);
    assert!(s.ok(&["documents", "show"])["terms_of_service"].is_object());
    assert!(s.refused(&["demo"]).contains("not empty"));
    assert_eq!(s.ok(&["account", "list"]).as_array().unwrap().len(), 1);
}

#[test]
fn migrate_applies_pending_migrations_once() {
    let s = Scratch::new("migrate");
    let first = s.ok(&["migrate"]);
    assert!(!first["applied"].as_array().unwrap().is_empty());
    assert_eq!(s.ok(&["migrate"])["applied"], json!([]));
}

#[test]
fn bad_configuration_is_refused_naming_the_setting() {
    let s = Scratch::new("config");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_vp-api"))
        .args(["plan", "list"])
        .env("DATABASE_URL", "mysql://nope")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("DATABASE_URL"));
    let file = s.file("bad.env", "VP_BND=1.2.3.4:5\n");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_vp-api"))
        .args(["--config", file.to_str().unwrap(), "plan", "list"])
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown key \"VP_BND\""));
}

#[test]
fn postgresql_without_a_secrets_key_is_refused_and_no_key_file_is_made() {
    let s = Scratch::new("pg_key");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_vp-api"))
        .args(["plan", "list"])
        .current_dir(&s.dir)
        .env("DATABASE_URL", "postgres://postgres@127.0.0.1:1/never")
        .env_remove("VP_SECRETS_KEY")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("VP_SECRETS_KEY: is required with PostgreSQL"), "{said}");
    assert!(!s.dir.join("data").exists(), "nothing written where the command ran");
}

#[test]
fn an_account_created_without_a_brand_gets_the_platform_name() {
    let s = Scratch::new("platform_name");
    assert_eq!(s.ok(&["account", "create"])["account"]["brand_name"], "VPN", "the default platform name");
    let file = s.file("named.env", "VP_PLATFORM_NAME=  Acme VPN \n");
    let named = s.ok(&["--config", file.to_str().unwrap(), "account", "create"]);
    assert_eq!(named["account"]["brand_name"], "Acme VPN", "trimmed like any brand name");
    let bad = s.file("bad-name.env", &format!("VP_PLATFORM_NAME={}\n", "x".repeat(65)));
    let run = s.run(&["--config", bad.to_str().unwrap(), "account", "create"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("VP_PLATFORM_NAME"), "{}", run.stderr);
}

#[test]
fn unknown_commands_and_missing_arguments_are_refused() {
    let s = Scratch::new("usage");
    assert_eq!(s.run(&["frobnicate"]).code, 2);
    assert_eq!(s.run(&["account", "set-brand"]).code, 2);
    assert_eq!(s.run(&["plan", "withdraw", "not-a-number"]).code, 2);
}

#[test]
fn an_account_argument_that_is_not_an_account_id_is_refused_before_the_command_runs() {
    let s = Scratch::new("account-ids");
    let (id, _) = create_account(&s);
    let before = s.ok(&["account", "show", &id]);
    for bad in ["acc-1", "pay_1", "acc_", "acc_a b"] {
        let run = s.run(&["account", "set-brand", bad, "Other"]);
        assert_eq!(run.code, 2, "{bad:?}: {}", run.stderr);
        assert!(run.stderr.contains("account id must be `acc_` followed by"), "{}", run.stderr);
    }
    assert_eq!(s.ok(&["account", "show", &id]), before, "nothing changed");
    let run = s.run(&["endpoint", "disable", "acc_1"]);
    assert_eq!(run.code, 2, "an account id is not an endpoint id: {}", run.stderr);
    assert!(run.stderr.contains("endpoint id must be `we_` followed by"), "{}", run.stderr);
}

#[test]
fn webhook_endpoints_are_managed_and_bad_input_changes_nothing() {
    let s = Scratch::new("endpoints");
    let (account, _) = create_account(&s);
    // 1.1.1.1 is a public address, so registration needs no DNS.
    let added = s.ok(&["endpoint", "add", &account, "https://1.1.1.1/hooks", "--type", "payment.succeeded"]);
    let id = added["endpoint_id"].as_str().unwrap().to_owned();
    let secret = added["secret"].as_str().unwrap().to_owned();
    assert!(secret.starts_with("whsec_"), "the secret is shown at creation");
    assert!(
        s.refused(&["endpoint", "add", &account, "http://1.1.1.1/hooks", "--type", "payment.succeeded"])
            .contains("https")
    );
    assert!(
        s.refused(&["endpoint", "add", &account, "https://1.1.1.1:8443/", "--type", "payment.succeeded"])
            .contains("443")
    );
    assert!(
        s.refused(&["endpoint", "add", &account, "https://127.0.0.1/", "--type", "payment.succeeded"])
            .contains("publicly reachable")
    );
    assert!(
        s.refused(&["endpoint", "add", &account, "https://1.1.1.1/", "--type", "invoice.paid"]).contains("event_types")
    );
    assert!(
        s.refused(&["endpoint", "add", "acc_none", "https://1.1.1.1/", "--type", "payment.succeeded"])
            .contains("not found")
    );
    assert_eq!(
        s.ok(&["endpoint", "list", &account])["endpoints"].as_array().unwrap().len(),
        1,
        "refusals created nothing"
    );

    let changed = s.ok(&["endpoint", "types", &id, "--type", "payment.expired,subscription.expired"]);
    assert_eq!(changed["event_types"], json!(["payment.expired", "subscription.expired"]));
    s.refused(&["endpoint", "types", &id, "--type", "nope"]);
    assert_eq!(s.ok(&["endpoint", "list", &account])["endpoints"][0]["event_types"], changed["event_types"]);

    let rotated = s.ok(&["endpoint", "rotate-secret", &id]);
    assert_ne!(rotated["secret"], json!(secret));
    assert_eq!(s.ok(&["endpoint", "secret", &id])["secret"], rotated["secret"], "viewable again");
    assert_eq!(s.ok(&["endpoint", "disable", &id])["enabled"], false);
    s.refused(&["endpoint", "test", &id]);
    s.refused(&["endpoint", "replay", &id, "--days", "1"]);
    assert_eq!(s.ok(&["endpoint", "enable", &id])["enabled"], true);
    s.refused(&["endpoint", "replay", &id, "--days", "2"]);
    assert_eq!(s.ok(&["endpoint", "replay", &id, "--days", "30"])["queued"], 0);
    assert_eq!(s.ok(&["endpoint", "deliveries", &id])["attempts"], json!([]));
    s.refused(&["endpoint", "secret", "we_none"]);
}

#[test]
fn the_shifted_clock_is_refused_unless_switched_on() {
    let s = Scratch::new("clock");
    assert!(s.refused(&["clock", "advance", "1h"]).contains("VP_SHIFTED_CLOCK"));
    assert!(s.refused(&["clock", "show"]).contains("VP_SHIFTED_CLOCK"));
}

const BOT_TOKEN: &str = "5550001:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-bs";

#[test]
fn a_create_my_bot_link_needs_the_platforms_own_bot() {
    let s = Scratch::new("create_link");
    let (account, _) = create_account(&s);
    assert!(s.refused(&["bot", "create-link", &account]).contains("VP_TELEGRAM_BOT_TOKEN"));
    assert!(s.refused(&["bot", "rotate-token", &account]).contains("bot not found"), "nothing to rotate");
}

#[test]
fn a_partner_bot_connects_from_a_token_file_is_kept_sealed_and_is_never_shown_again() {
    let telegram = vp_testkit::telegram::TelegramEmulator::start("1:platform-bot-token-unused-here-000000", "platform");
    telegram.add_bot(BOT_TOKEN, 5550001, "fast_vpn_bot");
    let mut s = Scratch::new("bot");
    s.env.push(("VP_TELEGRAM_API_URL".into(), telegram.url()));
    let (id, _) = create_account(&s);
    assert_eq!(s.ok(&["bot", "show", &id]), Value::Null, "no bot yet");

    let token_file = s.file("token", &format!("{BOT_TOKEN}\n"));
    let run = s.run(&["bot", "connect", &id, "--token-file", token_file.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let bot = run.json();
    assert_eq!((bot["bot_id"].clone(), bot["username"].clone()), (json!(5550001), json!("fast_vpn_bot")));
    assert_eq!((bot["status"].clone(), bot["link"].clone()), (json!("connected"), json!("https://t.me/fast_vpn_bot")));
    assert_eq!(telegram.calls("getMe"), 1, "the token was checked with Telegram");
    let secret = BOT_TOKEN.split_once(':').unwrap().1;
    assert!(!run.stdout.contains(secret) && !run.stderr.contains(secret), "the token is never printed");
    assert!(!s.run(&["bot", "show", &id]).stdout.contains(secret));

    let stored = std::fs::read(s.dir.join("db.sqlite")).unwrap();
    assert!(!stored.windows(secret.len()).any(|w| w == secret.as_bytes()), "the database holds no plain token");
    assert!(s.dir.join("secrets.key").exists(), "the embedded default generated its key beside the database");

    let (other, _) = create_account(&s);
    assert!(
        s.refused(&["bot", "connect", &other, "--token-file", token_file.to_str().unwrap()])
            .contains("another account")
    );
    let wrong = s.file("wrong", "5550001:AAEthisTokenWasRevokedInBotFather123");
    assert!(
        s.refused(&["bot", "connect", &other, "--token-file", wrong.to_str().unwrap()]).contains("does not accept")
    );
    let junk = s.file("junk", "hello");
    assert!(s.refused(&["bot", "connect", &other, "--token-file", junk.to_str().unwrap()]).contains("BotFather"));
    s.refused(&["bot", "connect", &other, "--token-file", "/nonexistent/token"]);

    assert_eq!(s.ok(&["bot", "disconnect", &id])["disconnected"], true);
    assert_eq!(s.ok(&["bot", "show", &id]), Value::Null);
    s.refused(&["bot", "disconnect", &id]);
}

#[test]
fn the_bot_shows_the_brand_in_telegram_follows_its_changes_and_is_disconnected_when_its_token_is_revoked() {
    let telegram = vp_testkit::telegram::TelegramEmulator::start("1:platform-bot-token-unused-here-000000", "platform");
    telegram.add_bot(BOT_TOKEN, 5550001, "fast_vpn_bot");
    let mut s = Scratch::new("bot-profile");
    s.env.push(("VP_TELEGRAM_API_URL".into(), telegram.url()));
    let (id, _) = create_account(&s);
    let token_file = s.file("token", BOT_TOKEN);
    let connected = s.ok(&["bot", "connect", &id, "--token-file", token_file.to_str().unwrap()]);
    assert_eq!(connected["profile_in_sync"], false, "the profile is set by the jobs, with retries");

    s.ok(&["jobs"]);
    let shown = telegram.profile(BOT_TOKEN).unwrap();
    assert_eq!(shown.name, "Fast VPN");
    let short = |code: &str| shown.short_descriptions.iter().find(|(c, _)| c == code).map(|(_, t)| t.clone());
    assert_eq!(short("ru").as_deref(), Some("Fast VPN: ваша VPN-подписка, подключение и напоминания."));
    assert_eq!(short(""), short("en"), "English is the default");
    let commands = shown.commands.iter().find(|(c, _)| c == "ru").map(|(_, list)| list.clone()).unwrap();
    assert_eq!(commands, ["start", "status", "connect", "help", "language", "stop"]);
    assert_eq!(shown.menu_button, Some(json!({"type": "commands"})));
    assert_eq!(s.ok(&["bot", "show", &id])["profile_in_sync"], true);

    s.ok(&["account", "set-brand", &id, "Faster VPN"]);
    assert_eq!(s.ok(&["bot", "show", &id])["profile_in_sync"], false);
    s.ok(&["jobs"]);
    assert_eq!(telegram.profile(BOT_TOKEN).unwrap().name, "Faster VPN");

    telegram.revoke(BOT_TOKEN);
    s.ok(&["account", "set-brand", &id, "Fastest VPN"]);
    s.ok(&["jobs"]);
    let bot = s.ok(&["bot", "show", &id]);
    assert_eq!((bot["status"].clone(), bot["profile_in_sync"].clone()), (json!("disconnected"), json!(false)));
}

#[test]
fn a_database_sealed_under_another_key_refuses_to_start_naming_vp_secrets_key() {
    let telegram = vp_testkit::telegram::TelegramEmulator::start("1:platform-bot-token-unused-here-000000", "platform");
    telegram.add_bot(BOT_TOKEN, 5550001, "fast_vpn_bot");
    let mut s = Scratch::new("secrets-key");
    s.env.push(("VP_TELEGRAM_API_URL".into(), telegram.url()));
    let (id, _) = create_account(&s);
    let token_file = s.file("token", BOT_TOKEN);
    s.ok(&["bot", "connect", &id, "--token-file", token_file.to_str().unwrap()]);
    let old = std::fs::read_to_string(s.dir.join("secrets.key")).unwrap();

    let new = "bmV3LWtleS1vZi10aGlydHktdHdvLWJ5dGVzLW9rISE=";
    s.env.push(("VP_SECRETS_KEY".into(), new.into()));
    let refused = s.refused(&["bot", "show", &id]);
    assert!(refused.contains("VP_SECRETS_KEY"), "{refused}");
    assert!(!refused.contains(new), "the key is never printed");

    s.env.push(("VP_SECRETS_KEY_PREVIOUS".into(), old.trim().into()));
    assert_eq!(s.ok(&["secrets", "rotate-key"])["resealed"], 1);
    s.env.pop();
    assert_eq!(s.ok(&["bot", "show", &id])["username"], "fast_vpn_bot", "the new key alone opens it now");

    s.env.pop();
    s.env.push(("VP_SECRETS_KEY".into(), "c2hvcnQ=".into()));
    assert!(s.refused(&["bot", "show", &id]).contains("VP_SECRETS_KEY"), "a malformed key stops the start");
}
