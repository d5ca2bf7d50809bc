//! `vp-api import bedolaga`: a Bedolaga shop bot's database (its real schema, from its models
//! and migrations: tests/fixtures/bedolaga) seeded as a bot with a few customers left it, with
//! the panel users its subscriptions hold in the Remnawave emulator, imported into an account:
//! the mapping, the rows it could not map listed, and a second run changing nothing.

use crate::support;

use serde_json::{Value, json};
use std::process::Command;
use support::server::{Backend, postgres_url};
use time::OffsetDateTime;
use vp_testkit::remnawave::{ExistingUser, Remnawave};

use crate::remnawave::{connects, panel, panel_env};

each_backend!(a_bedolaga_bots_customers_come_over_with_their_links_languages_and_balances_and_the_rest_is_listed,);

/// A Bedolaga database of `backend`'s kind with its schema, at `revision`, holding `seed`;
/// returns the URL to give `import bedolaga`.
fn bedolaga_database(backend: Backend, name: &str, revision: &str, seed: &str) -> String {
    let dir = env!("CARGO_MANIFEST_DIR");
    let sql = |kind: &str| {
        let schema = std::fs::read_to_string(format!("{dir}/../../tests/fixtures/bedolaga/schema_{kind}.sql"))
            .expect("the Bedolaga schema fixture");
        format!("{schema}\nINSERT INTO alembic_version (version_num) VALUES ('{revision}');\n{seed}")
    };
    let tag = format!("{name}_{}", std::process::id());
    match backend {
        Backend::Sqlite => {
            let file = std::env::temp_dir().join(format!("bedolaga-{tag}.db"));
            let _ = std::fs::remove_file(&file);
            let script = std::env::temp_dir().join(format!("bedolaga-{tag}.sql"));
            std::fs::write(&script, sql("sqlite")).unwrap();
            let out = Command::new("sqlite3")
                .arg(&file)
                .arg(format!(".read {}", script.display()))
                .output()
                .expect("run sqlite3");
            assert!(out.status.success() && out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
            file.display().to_string()
        }
        Backend::Postgres => {
            let base = postgres_url().expect("PostgreSQL for the PostgreSQL half");
            let schema = format!("bedolaga_{tag}");
            let script = std::env::temp_dir().join(format!("bedolaga-{tag}.sql"));
            let body = format!(
                "DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}; SET search_path TO {schema};\n{}",
                sql("postgres")
            );
            std::fs::write(&script, body).unwrap();
            let out = Command::new("psql")
                .args([base.as_str(), "-v", "ON_ERROR_STOP=1", "-q", "-f"])
                .arg(&script)
                .output()
                .expect("run psql");
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            let sep = if base.contains('?') { '&' } else { '?' };
            format!("{base}{sep}options=-csearch_path%3D{schema}")
        }
    }
}

/// A time as the bot's database writes it: `timestamptz` on PostgreSQL, naive UTC text on SQLite.
fn stamp(backend: Backend, at: OffsetDateTime) -> String {
    let (date, time) = (at.date(), at.time());
    let text = format!("{date} {:02}:{:02}:{:02}", time.hour(), time.minute(), time.second());
    match backend {
        Backend::Sqlite => format!("'{text}.000000'"),
        Backend::Postgres => format!("'{text}+00'"),
    }
}

/// A customer of the bot: who they are, whether they paid the bot, who invited them.
struct Customer<'a> {
    id: i64,
    telegram_id: Option<i64>,
    status: &'a str,
    language: &'a str,
    balance: i64,
    panel_id: Option<i64>,
    paid: bool,
    invited_by: Option<i64>,
}

/// A user row with the columns the bot's ORM always fills.
fn user(c: Customer<'_>) -> String {
    let Customer { id, telegram_id, status, language, balance, panel_id, paid, invited_by } = c;
    let none = || "NULL".to_owned();
    let (telegram, panel) =
        (telegram_id.map_or_else(none, |t| t.to_string()), panel_id.map_or_else(none, |p| p.to_string()));
    let inviter = invited_by.map_or_else(none, |i| i.to_string());
    format!(
        "INSERT INTO users (id, telegram_id, auth_type, status, language, balance_kopeks, has_had_paid_subscription, \
         referral_code, referred_by_id, created_at, remnawave_id, email_verified, auto_promo_group_assigned, \
         auto_promo_group_threshold_kopeks, promo_offer_discount_percent, has_made_first_topup, restriction_topup, \
         restriction_subscription, partner_status) VALUES ({id}, {telegram}, 'telegram', '{status}', '{language}', \
         {balance}, {paid}, 'ref{id:08}', {inviter}, CURRENT_TIMESTAMP, {panel}, FALSE, FALSE, 0, 0, {paid}, FALSE, \
         FALSE, 'none');\n"
    )
}

/// A promo code row: `kind`, its value (percent for a discount), uses allowed and taken.
fn promo_code(backend: Backend, code: &str, kind: &str, value: i64, uses: (i64, i64), until: OffsetDateTime) -> String {
    format!(
        "INSERT INTO promocodes (code, type, balance_bonus_kopeks, subscription_days, traffic_gb, max_uses, \
         current_uses, valid_from, valid_until, is_active, first_purchase_only) VALUES ('{code}', '{kind}', {value}, \
         0, 0, {}, {}, CURRENT_TIMESTAMP, {}, TRUE, FALSE);\n",
        uses.0,
        uses.1,
        stamp(backend, until)
    )
}

#[allow(clippy::too_many_arguments)]
fn subscription(
    backend: Backend,
    id: i64,
    user_id: i64,
    status: &str,
    ends: OffsetDateTime,
    panel_id: Option<i64>,
    short_uuid: Option<&str>,
) -> String {
    let panel = panel_id.map_or("NULL".to_owned(), |p| p.to_string());
    let short = short_uuid.map_or("NULL".to_owned(), |s| format!("'{s}'"));
    format!(
        "INSERT INTO subscriptions (id, user_id, status, is_trial, start_date, end_date, traffic_limit_gb, \
         device_limit, remnawave_id, remnawave_short_uuid, remnawave_short_id, is_daily_paused) VALUES \
         ({id}, {user_id}, '{status}', FALSE, CURRENT_TIMESTAMP, {}, 0, 3, {panel}, {short}, 's{id:05}', FALSE);\n",
        stamp(backend, ends)
    )
}

fn a_bedolaga_bots_customers_come_over_with_their_links_languages_and_balances_and_the_rest_is_listed(
    backend: Backend,
) {
    let (rw, squad) = panel();
    let env = panel_env(&rw, &squad);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let Some((telegram, s)) = support::chat::shop_with(backend, "bedolaga", &env) else { return };
    let days = |n: i64| OffsetDateTime::now_utc() + time::Duration::days(n);
    let seeded = |rw: &Remnawave, username: &str, ends: OffsetDateTime, telegram_id: Option<i64>| {
        rw.seed_user(ExistingUser {
            username: username.into(),
            expire_at: ends,
            hwid_device_limit: Some(3),
            telegram_id,
            squads: vec![squad.clone()],
            ..ExistingUser::default()
        })
    };
    let anna = seeded(&rw, "bdl_anna", days(20), None);
    let boris = seeded(&rw, "bdl_boris", days(30), Some(8002));
    let router = seeded(&rw, "bdl_boris_router", days(10), None);
    let web = seeded(&rw, "bdl_web", days(5), None);
    seeded(&rw, "not_the_bots", days(5), None);

    let customer = |id, telegram_id, status, language, balance, panel_id: Option<i64>| Customer {
        id,
        telegram_id,
        status,
        language,
        balance,
        panel_id,
        paid: true,
        invited_by: None,
    };
    let mut seed = String::new();
    // Anna: her old subscription and her current one hold the same panel user (single tariff).
    seed += &user(customer(1, Some(8001), "active", "en", 15_050, Some(anna.id)));
    seed += &subscription(backend, 11, 1, "expired", days(-40), None, None);
    seed += &subscription(backend, 12, 1, "active", days(20), Some(anna.id), Some(&anna.short_uuid));
    // Boris: two subscriptions with a panel user each (multi tariff); he reads Ukrainian.
    seed += &user(customer(2, Some(8002), "active", "ua", 0, Some(boris.id)));
    seed += &subscription(backend, 21, 2, "active", days(30), Some(boris.id), Some(&boris.short_uuid));
    seed += &subscription(backend, 22, 2, "active", days(10), Some(router.id), Some(&router.short_uuid));
    // Carl never bought (Anna invited him); Dina is deleted; Egor (Boris invited him and he
    // paid) left an unpaid draft; Fedor's panel user is gone, and his inviter has no Telegram.
    seed +=
        &user(Customer { paid: false, invited_by: Some(1), ..customer(3, Some(8003), "active", "ru", 5_000, None) });
    seed += &user(customer(4, Some(8004), "deleted", "ru", 0, None));
    seed += &user(Customer { invited_by: Some(2), ..customer(5, Some(8005), "active", "ru", 0, None) });
    seed += &subscription(backend, 51, 5, "pending", days(3), None, None);
    // A web-cabinet customer without Telegram, recorded before the panel's numeric ids.
    seed += &user(customer(7, None, "active", "ru", 0, None));
    seed += &subscription(backend, 71, 7, "active", days(5), None, Some(&web.short_uuid));
    seed += &user(Customer { paid: false, invited_by: Some(7), ..customer(6, Some(8006), "active", "ru", 0, None) });
    seed += &subscription(backend, 61, 6, "active", days(7), Some(999_999), Some("0000gone0000beef"));
    // The bot's promo codes: one valid discount, and five that cannot be codes here.
    seed += &promo_code(backend, "SPRING-25", "discount", 25, (10, 3), days(30));
    seed += &promo_code(backend, "BONUS100", "balance", 10_000, (10, 0), days(30));
    seed += &promo_code(backend, "OLD-10", "discount", 10, (10, 0), days(-1));
    seed += &promo_code(backend, "BIG-200", "discount", 200, (10, 0), days(30));
    seed += &promo_code(backend, "X1", "discount", 10, (10, 0), days(30));
    seed += &promo_code(backend, "USED-UP", "discount", 10, (5, 5), days(30));
    let database = bedolaga_database(backend, "shop", "0106", &seed);
    let import = |extra: &[&str]| {
        let args: Vec<&str> = ["import", "bedolaga", &s.account_id, "--database", &database]
            .iter()
            .copied()
            .chain(extra.iter().copied())
            .collect();
        s.cli(&args)
    };
    let panel_writes = || rw.count("POST", "/api/users") + rw.count("PATCH", "/api/users");
    let writes_before = panel_writes();

    let dry = import(&["--dry-run"]);
    assert_eq!(
        (dry["dry_run"].clone(), dry["customers"].clone(), dry["panel"]["imported"].clone()),
        (json!(true), json!(7), json!(4)),
        "{dry}"
    );
    assert_eq!(s.api("GET", "/clients/bdl_anna", None, &[]).status, 404, "a dry run writes nothing");

    let report = import(&[]);
    assert_eq!(report["source"], "bedolaga 0106");
    assert_eq!((report["customers"].clone(), report["subscriptions"].clone()), (json!(7), json!(7)), "{report}");
    let panel = &report["panel"];
    assert_eq!(
        (
            panel["read"].clone(),
            panel["outside_squad"].clone(),
            panel["imported"].clone(),
            panel["bot_customers"].clone()
        ),
        (json!(5), json!(1), json!(4), json!(2)),
        "every panel user a subscription holds, and no other: {report}"
    );
    assert_eq!(report["bot_customers_without_subscription"], 3, "Carl, Egor and Fedor: {report}");
    assert_eq!(report["languages_set"], 4, "{report}");
    assert_eq!((report["balances_recorded"].clone(), report["balances_total"].clone()), (json!(2), json!("200.50")));
    assert_eq!(
        (report["referrals_carried"].clone(), report["referral_links_not_carried"].clone()),
        (json!(1), json!(6)),
        "Carl's invitation by Anna: {report}"
    );
    assert_eq!(
        (report["promo_codes"].clone(), report["promo_codes_imported"].clone()),
        (json!(6), json!(1)),
        "{report}"
    );
    let listed: Vec<(Value, Value, Value, String, Value)> = report["not_mapped_items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            let reason = n["reason"].as_str().unwrap().to_owned();
            (
                n["customer_id"].clone(),
                n["subscription_id"].clone(),
                n["promo_code"].clone(),
                reason,
                n["detail"].clone(),
            )
        })
        .collect();
    let row = |customer: Value, subscription: Value, code: Value, reason: &str, detail: Value| {
        (customer, subscription, code, reason.to_owned(), detail)
    };
    let none = Value::Null;
    assert_eq!(
        listed,
        [
            row(json!(1), json!(11), none.clone(), "same_panel_user", none.clone()),
            row(json!(2), none.clone(), none.clone(), "language_not_offered", json!("ua")),
            row(json!(4), none.clone(), none.clone(), "customer_deleted", none.clone()),
            row(json!(5), none.clone(), none.clone(), "referral_rewarded_in_bot", none.clone()),
            row(json!(5), json!(51), none.clone(), "unpaid_draft", none.clone()),
            row(json!(6), none.clone(), none.clone(), "referral_not_joined", none.clone()),
            row(json!(6), json!(61), none.clone(), "panel_user_missing", none.clone()),
            row(none.clone(), none.clone(), json!("BIG-200"), "promo_code_value", none.clone()),
            row(none.clone(), none.clone(), json!("BONUS100"), "promo_code_kind", json!("balance")),
            row(none.clone(), none.clone(), json!("OLD-10"), "promo_code_not_valid", none.clone()),
            row(none.clone(), none.clone(), json!("USED-UP"), "promo_code_not_valid", none.clone()),
            row(none.clone(), none.clone(), json!("X1"), "promo_code_format", none.clone()),
        ],
        "each row it could not map, with why: {report}"
    );
    // The valid discount, with the uses it had left and one use per customer, as in the bot.
    let codes = s.cli(&["promo", "list", &s.account_id]);
    let spring = &codes[0];
    assert_eq!(
        (
            spring["code"].clone(),
            spring["percent_off"].clone(),
            spring["max_uses"].clone(),
            spring["per_customer"].clone()
        ),
        (json!("SPRING-25"), json!(25), json!(7), json!(1)),
        "{codes}"
    );
    let invitations = s.db.query_sql("SELECT invited_user_id FROM referrals");
    assert_eq!(invitations, ["8003"], "Carl's first payment here rewards Anna");
    assert_eq!(panel_writes(), writes_before, "the import never writes to the panel");

    // Each subscription keeps its panel user and link: the apps installed keep working.
    let client = s.api("GET", "/clients/bdl_anna", None, &[]).json();
    let link = client["subscription"]["subscription_url"].as_str().unwrap().to_owned();
    assert_eq!(link, format!("{}/{}", rw.sub_url(), anna.short_uuid));
    assert!(connects(&link, "hwid-anna-phone"));
    assert_eq!(s.api("GET", "/clients/bdl_web", None, &[]).json()["subscription"]["status"], "active");
    assert_eq!(s.api("GET", "/clients/not_the_bots", None, &[]).status, 404);

    // The bot knows Anna from the first day, in her language, with her subscription.
    let anna_chat = support::chat::Person::new(&telegram, 8001);
    let menu = anna_chat.write("/start", "Welcome to Demo VPN!");
    let mine = anna_chat.press(&menu, "My subscription", "Status: Active");
    assert!(mine.text.contains("Devices: 1 of 3"), "the phone that connected above: {}", mine.text);
    // Carl, who never bought, is a customer of the bot too, in Russian.
    let carl = support::chat::Person::new(&telegram, 8003);
    carl.write("/start", "Добро пожаловать в Demo VPN!");
    let stats = s.cli(&["bot", "stats", &s.account_id]);
    assert_eq!(stats["started"], 5, "Anna, Boris, Carl, Egor and Fedor; the web customer has no Telegram: {stats}");

    // Balances are the partner's record, kept with the customer.
    let kept = s.db.query_sql(
        "SELECT source_customer_id, amount, currency, client_ref IS NOT NULL FROM imported_balances ORDER BY source_customer_id",
    );
    let truth = |b: bool| {
        if backend == Backend::Postgres {
            if b { "t" } else { "f" }
        } else if b {
            "1"
        } else {
            "0"
        }
    };
    assert_eq!(kept, [format!("1|15050|RUB|{}", truth(true)), format!("3|5000|RUB|{}", truth(false))]);

    // Again: nothing changes.
    let again = import(&[]);
    assert_eq!(
        (again["panel"]["imported"].clone(), again["panel"]["already_imported"].clone()),
        (json!(0), json!(4)),
        "{again}"
    );
    assert_eq!(
        (again["bot_customers_without_subscription"].clone(), again["balances_recorded"].clone()),
        (json!(0), json!(0)),
        "{again}"
    );
    assert_eq!(
        (
            again["referrals_carried"].clone(),
            again["promo_codes_imported"].clone(),
            again["promo_codes_already"].clone()
        ),
        (json!(0), json!(0), json!(1)),
        "{again}"
    );
    assert_eq!(s.api("GET", "/clients?limit=100", None, &[]).json()["clients"].as_array().unwrap().len(), 4);

    // A bot database from before the panel's numeric ids is refused, and says why.
    let old = bedolaga_database(backend, "old", "0090", "");
    let (code, out) = s.cli_raw(&["import", "bedolaga", &s.account_id, "--database", &old]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("revision 0104 or later"), "{out}");
    let (code, out) = s.cli_raw(&["import", "bedolaga", &s.account_id, "--database", "/nonexistent/bot.db"]);
    assert_ne!(code, Some(0), "{out}");
    rw.assert_contract();
}
