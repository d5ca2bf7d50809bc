//! Secrets at rest, black-box on both backends: what a stolen database (its files, or
//! `pg_dump`) holds of partners' webhook signing secrets and bot tokens, sealing what an older
//! release stored in plain text, and rotating the secrets key.

use crate::support;

use support::server::{Backend, Database, contains_bytes};
use vp_testkit::telegram::TelegramEmulator;

const PARTNER_TOKEN: &str = "5550001:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-bs";
const OLD_KEY: &str = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";
const NEW_KEY: &str = "bmV3LWtleS1vZi10aGlydHktdHdvLWJ5dGVzLW9rISE=";

each_backend!(
    a_database_dump_holds_no_signing_secret_and_no_bot_token_in_the_clear,
    signing_secrets_an_older_release_stored_in_plain_text_are_sealed_at_the_next_start,
    a_key_rotation_seals_every_secret_again_and_the_old_key_can_then_be_removed,
);

/// A database under `OLD_KEY` with the demo account, its bot connected, and an endpoint whose
/// secret was rotated once (so a previous secret is stored too); returns the database, the
/// Telegram emulator, the endpoint's id and its two secrets (current first).
fn partner_with_secrets(backend: Backend, name: &str) -> Option<(Database, TelegramEmulator, String, [String; 2])> {
    let mut db = Database::new(backend, name)?;
    let telegram = TelegramEmulator::start("123456789:AAHplatform_0123456789abcdefghijklm", "platform_bot");
    telegram.add_bot(PARTNER_TOKEN, 5_550_001, "demo_vpn_bot");
    db.env.retain(|(k, _)| k != "VP_SECRETS_KEY");
    db.env.push(("VP_SECRETS_KEY".into(), OLD_KEY.into()));
    db.env.push(("VP_TELEGRAM_API_URL".into(), telegram.url()));
    let account = db.cli(&["demo"])["account"]["account_id"].as_str().unwrap().to_owned();
    db.connect_bot(&account, PARTNER_TOKEN);
    let added = db.cli(&["endpoint", "add", &account, "https://1.1.1.1/hooks", "--type", "payment.succeeded"]);
    let id = added["endpoint_id"].as_str().unwrap().to_owned();
    let first = added["secret"].as_str().unwrap().to_owned();
    let rotated = db.cli(&["endpoint", "rotate-secret", &id])["secret"].as_str().unwrap().to_owned();
    assert!(first.starts_with("whsec_") && rotated.starts_with("whsec_") && first != rotated);
    Some((db, telegram, id, [rotated, first]))
}

fn assert_nothing_in_the_clear(db: &Database, secrets: &[String]) {
    let dump = db.dump();
    assert!(contains_bytes(&dump, "webhook_endpoints"), "the dump is the database's");
    assert!(!contains_bytes(&dump, "whsec_"), "no signing secret, current or previous");
    for secret in secrets {
        let body = secret.trim_start_matches("whsec_");
        assert!(!contains_bytes(&dump, body), "not even without its prefix");
    }
    let token_secret = PARTNER_TOKEN.split_once(':').unwrap().1;
    assert!(!contains_bytes(&dump, token_secret), "no bot token");
}

fn a_database_dump_holds_no_signing_secret_and_no_bot_token_in_the_clear(backend: Backend) {
    let Some((db, _telegram, id, secrets)) = partner_with_secrets(backend, "dump") else { return };
    assert_nothing_in_the_clear(&db, &secrets);
    assert_eq!(db.cli(&["endpoint", "secret", &id])["secret"], secrets[0].as_str(), "shown again to its owner");
}

fn signing_secrets_an_older_release_stored_in_plain_text_are_sealed_at_the_next_start(backend: Backend) {
    let Some((db, _telegram, id, _)) = partner_with_secrets(backend, "plain") else { return };
    let (current, previous) =
        ("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwMfKQ9r8GKYq=", "whsec_b2xkIHNlY3JldCBvbGQgc2VjcmV0IG9sZCBzZWNyZXQ=");
    db.execute_sql(&format!(
        "UPDATE webhook_endpoints SET secret_sealed = '{current}', previous_secret_sealed = '{previous}' \
         WHERE id = '{id}'"
    ));
    assert!(contains_bytes(&db.dump(), current), "as an older release left it");

    // Any start of the binary (here an operator command) seals them first.
    assert_eq!(db.cli(&["endpoint", "secret", &id])["secret"], current);
    assert_nothing_in_the_clear(&db, &[current.to_owned(), previous.to_owned()]);
    assert_eq!(db.cli(&["endpoint", "secret", &id])["secret"], current, "the same secret, now sealed");
}

fn a_key_rotation_seals_every_secret_again_and_the_old_key_can_then_be_removed(backend: Backend) {
    let Some((mut db, _telegram, id, secrets)) = partner_with_secrets(backend, "rotate") else { return };
    let account = db.cli(&["account", "list"])[0]["account_id"].as_str().unwrap().to_owned();
    let set_keys = |db: &mut Database, current: &str, previous: Option<&str>| {
        db.env.retain(|(k, _)| !k.starts_with("VP_SECRETS_KEY"));
        db.env.push(("VP_SECRETS_KEY".into(), current.into()));
        if let Some(previous) = previous {
            db.env.push(("VP_SECRETS_KEY_PREVIOUS".into(), previous.into()));
        }
    };

    set_keys(&mut db, NEW_KEY, None);
    let (code, refused) = db.cli_raw(&["endpoint", "secret", &id]);
    assert_eq!(code, Some(2), "{refused}");
    assert!(refused.contains("VP_SECRETS_KEY") && !refused.contains(NEW_KEY), "{refused}");

    set_keys(&mut db, NEW_KEY, Some(OLD_KEY));
    let rotated = db.cli(&["secrets", "rotate-key"]);
    assert_eq!(rotated["resealed"], 3, "the bot token, the endpoint's secret and its previous one: {rotated}");
    assert_eq!(db.cli(&["secrets", "rotate-key"])["resealed"], 0, "nothing left under the old key");

    set_keys(&mut db, NEW_KEY, None);
    assert_eq!(db.cli(&["endpoint", "secret", &id])["secret"], secrets[0].as_str(), "the new key alone opens them");
    assert_eq!(db.cli(&["bot", "show", &account])["username"], "demo_vpn_bot");
    assert_nothing_in_the_clear(&db, &secrets);

    set_keys(&mut db, OLD_KEY, None);
    let (code, refused) = db.cli_raw(&["bot", "show", &account]);
    assert_eq!(code, Some(2), "the removed key opens nothing: {refused}");
}
