//! A partner's own bot: connecting it with a token Telegram accepts, one bot per account and one
//! account per bot, the token kept only sealed, and the secrets key's rotation.

use crate::support;
use vp_domain::AccountId;

use support::{World, declined};
use vp_app::audit::Who;
use vp_app::secrets::SecretKeys;
use vp_app::{AppError, Declined};

const OPERATOR: Who<'static> = Who::Operator;

const TOKEN: &str = "5550001:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-bs";
const RENEWED: &str = "5550001:AAFnewTokenAfterRevokeInBotFather_x";
const OTHER_BOT: &str = "7770002:AAEotherBotOfTheSamePartner-1234567";

async fn second_account(w: &World) -> AccountId {
    let (account, _) = w.app.operator.create_account(Some("Other VPN"), "0", false).await.unwrap();
    account.id
}

#[tokio::test]
async fn a_bot_connects_with_a_token_telegram_accepts_and_the_token_is_kept_only_sealed() {
    let w = World::new().await;
    w.bots.add(TOKEN, 5550001, "fast_vpn_bot");
    let bot = w.app.bots.connect_bot(&w.account.id, &format!(" {TOKEN}\n"), OPERATOR).await.unwrap();
    assert_eq!((bot.bot_id, bot.username.as_str(), bot.disconnected_at), (5550001, "fast_vpn_bot", None));
    assert!(!bot.token_sealed.contains("AAEhBOweik6ad9r"), "the token is not stored as given");
    assert_eq!(w.keys.bot_token(&bot).unwrap(), TOKEN, "and opens to the token");
    assert_eq!(w.app.bots.partner_bot(&w.account.id).await.unwrap(), Some(bot));
}

#[tokio::test]
async fn a_token_telegram_refuses_or_of_the_wrong_shape_connects_nothing() {
    let w = World::new().await;
    assert_eq!(declined(w.app.bots.connect_bot(&w.account.id, TOKEN, OPERATOR).await), Declined::BotTokenRejected);
    assert_eq!(
        declined(w.app.bots.connect_bot(&w.account.id, "not a token", OPERATOR).await),
        Declined::BotTokenMalformed
    );
    w.bots.unavailable.store(true, std::sync::atomic::Ordering::Relaxed);
    w.bots.add(TOKEN, 5550001, "fast_vpn_bot");
    assert!(matches!(w.app.bots.connect_bot(&w.account.id, TOKEN, OPERATOR).await, Err(AppError::External(_))));
    assert_eq!(w.app.bots.partner_bot(&w.account.id).await.unwrap(), None);
    assert!(matches!(
        w.app.bots.connect_bot(&AccountId::issued("acc_missing".into()), TOKEN, OPERATOR).await,
        Err(AppError::NotFound("account"))
    ));
}

#[tokio::test]
async fn a_bot_belongs_to_one_account_and_an_account_has_one_bot() {
    let w = World::new().await;
    w.bots.add(TOKEN, 5550001, "fast_vpn_bot");
    w.bots.add(RENEWED, 5550001, "fast_vpn_bot");
    w.bots.add(OTHER_BOT, 7770002, "other_bot");
    w.app.bots.connect_bot(&w.account.id, TOKEN, OPERATOR).await.unwrap();

    let other = second_account(&w).await;
    assert_eq!(declined(w.app.bots.connect_bot(&other, TOKEN, OPERATOR).await), Declined::BotTaken, "the same token");
    assert_eq!(
        declined(w.app.bots.connect_bot(&other, RENEWED, OPERATOR).await),
        Declined::BotTaken,
        "the same bot, a new token"
    );
    assert_eq!(
        declined(w.app.bots.connect_bot(&w.account.id, OTHER_BOT, OPERATOR).await),
        Declined::BotAlreadyConnected("fast_vpn_bot".into())
    );

    let renewed = w.app.bots.connect_bot(&w.account.id, RENEWED, OPERATOR).await.unwrap();
    assert_eq!(w.keys.bot_token(&renewed).unwrap(), RENEWED, "a renewed token replaces the old one");

    let gone = w.app.bots.disconnect_bot(&w.account.id, OPERATOR).await.unwrap();
    assert_eq!(gone.bot_id, 5550001);
    assert_eq!(w.app.bots.partner_bot(&w.account.id).await.unwrap(), None);
    assert!(matches!(w.app.bots.disconnect_bot(&w.account.id, OPERATOR).await, Err(AppError::NotFound("bot"))));
    w.app.bots.connect_bot(&other, TOKEN, OPERATOR).await.expect("a disconnected bot may go to another account");
}

#[tokio::test]
async fn a_key_rotation_seals_every_secret_again_and_a_missing_key_is_refused_by_name() {
    let w = World::new().await;
    w.bots.add(TOKEN, 5550001, "fast_vpn_bot");
    let (old, new) = (SecretKeys::generate_base64(), SecretKeys::generate_base64());
    let (before, before_keys) = w.with_keys(&old, None);
    before.bots.connect_bot(&w.account.id, TOKEN, OPERATOR).await.unwrap();
    let types = ["payment.succeeded".to_owned()];
    let endpoint =
        before.events.add_endpoint(&w.account.id, "https://a.example/hooks", &types, OPERATOR).await.unwrap();
    let rotated = before.events.rotate_endpoint_secret(&endpoint.id, OPERATOR).await.unwrap();
    let signing = (before_keys.endpoint_secret(&endpoint).unwrap(), before_keys.endpoint_secret(&rotated).unwrap());
    assert_eq!(before.secrets.prepare_secrets().await.unwrap(), 0, "nothing in plain text");

    let (wrong, _) = w.with_keys(&new, None);
    let refused = wrong.secrets.prepare_secrets().await.unwrap_err().to_string();
    assert!(refused.contains("VP_SECRETS_KEY"), "{refused}");

    let (rotating, _) = w.with_keys(&new, Some(&old));
    rotating.secrets.prepare_secrets().await.unwrap();
    assert_eq!(
        rotating.secrets.reseal_secrets().await.unwrap(),
        3,
        "the token, the endpoint's secret and its previous one"
    );
    assert_eq!(rotating.secrets.reseal_secrets().await.unwrap(), 0, "already under the new key");

    let (after, after_keys) = w.with_keys(&new, None);
    after.secrets.prepare_secrets().await.unwrap();
    let bot = after.bots.partner_bot(&w.account.id).await.unwrap().unwrap();
    assert_eq!(after_keys.bot_token(&bot).unwrap(), TOKEN);
    let resealed = after.events.endpoint(&endpoint.id).await.unwrap();
    assert_eq!(after_keys.endpoint_secret(&resealed).unwrap(), signing.1, "the same secret, sealed anew");
    let previous = SecretKeys::from_base64(&new, None).unwrap();
    let purpose = vp_app::secrets::SecretPurpose::WebhookSecret { endpoint_id: &endpoint.id };
    let opened = previous.open(purpose, resealed.previous_secret_sealed.as_deref().unwrap());
    assert_eq!(opened.unwrap(), signing.0, "the previous secret too");
}

#[tokio::test]
async fn signing_secrets_stored_in_plain_text_are_sealed_at_the_next_start() {
    let w = World::new().await;
    let types = ["payment.succeeded".to_owned()];
    let mut endpoint =
        w.app.events.add_endpoint(&w.account.id, "https://a.example/hooks", &types, OPERATOR).await.unwrap();
    // As a database written before sealing existed holds them.
    endpoint.secret_sealed = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwMfKQ9r8GKYqrTw==".into();
    endpoint.previous_secret_sealed = Some("whsec_b2xkIHNlY3JldCBvbGQgc2VjcmV0IG9sZCBzZWNyZXQ=".into());
    let mut tx = w.store.begin().await.unwrap();
    tx.update_webhook_endpoint(&endpoint).await.unwrap();
    tx.commit().await.unwrap();

    assert_eq!(w.app.secrets.prepare_secrets().await.unwrap(), 2);
    assert_eq!(w.app.secrets.prepare_secrets().await.unwrap(), 0, "once");
    let stored = w.app.events.endpoint(&endpoint.id).await.unwrap();
    assert!(stored.secret_sealed.starts_with("v1.") && !stored.secret_sealed.contains("MfKQ9r8"));
    assert_eq!(w.keys.endpoint_secret(&stored).unwrap(), "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwMfKQ9r8GKYqrTw==");
}

#[tokio::test]
async fn the_bot_shows_the_brand_and_follows_every_brand_change_with_retries_when_throttled() {
    let w = World::new().await;
    w.bots.add(TOKEN, 5550001, "fast_vpn_bot");
    w.app.bots.connect_bot(&w.account.id, TOKEN, OPERATOR).await.unwrap();
    assert_eq!(w.app.bots.sync_bot_profiles(10).await.unwrap(), 1);
    let shown = w.bots.profiles.lock().unwrap().last().cloned().unwrap().1;
    assert_eq!(shown.name, "Demo VPN");
    let ru = shown.languages.iter().find(|l| l.code == "ru").unwrap();
    assert!(ru.short_description.starts_with("Demo VPN: ваша VPN-подписка"), "{}", ru.short_description);
    let commands: Vec<&str> = ru.commands.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(commands, ["start", "status", "connect", "help", "language", "stop"]);
    assert_eq!(w.app.bots.sync_bot_profiles(10).await.unwrap(), 0, "in sync: nothing to do");
    assert!(w.app.bots.partner_bot(&w.account.id).await.unwrap().unwrap().profile_in_sync());

    w.app.operator.set_brand_name(&w.account.id, "Faster VPN").await.unwrap();
    assert!(!w.app.bots.partner_bot(&w.account.id).await.unwrap().unwrap().profile_in_sync());
    *w.bots.throttle_next.lock().unwrap() = Some(std::time::Duration::from_secs(30));
    assert_eq!(w.app.bots.sync_bot_profiles(10).await.unwrap(), 0, "Telegram asked to wait");
    assert_eq!(w.app.bots.sync_bot_profiles(10).await.unwrap(), 0, "and the wait is kept");
    w.clock.advance(time::Duration::seconds(31));
    assert_eq!(w.app.bots.sync_bot_profiles(10).await.unwrap(), 1);
    assert_eq!(w.bots.profiles.lock().unwrap().last().unwrap().1.name, "Faster VPN");

    use vp_app::style::{StyleChange, StyleChanges};
    let support = StyleChange::Set("https://help.example.com".into());
    let style = StyleChanges { logo_url: StyleChange::Keep, accent_color: StyleChange::Keep, support_url: support };
    w.app.operator.set_style(&w.account.id, style).await.unwrap();
    assert_eq!(w.app.bots.sync_bot_profiles(10).await.unwrap(), 1, "the support address is in the description");
    let shown = w.bots.profiles.lock().unwrap().last().cloned().unwrap().1;
    assert!(shown.languages[0].description.ends_with("Support: https://help.example.com"));
    w.app.operator.set_markup(&w.account.id, "30").await.unwrap();
    assert_eq!(w.app.bots.sync_bot_profiles(10).await.unwrap(), 0, "a markup change is not the bot's business");
}

#[tokio::test]
async fn a_token_revoked_in_botfather_disconnects_the_bot_and_tells_the_partner() {
    let w = World::new().await;
    w.bots.add(TOKEN, 5550001, "fast_vpn_bot");
    w.app.bots.connect_bot(&w.account.id, TOKEN, OPERATOR).await.unwrap();
    w.bots.known.lock().unwrap().clear();
    assert_eq!(w.app.bots.sync_bot_profiles(10).await.unwrap(), 0);
    let bot = w.app.bots.partner_bot(&w.account.id).await.unwrap().unwrap();
    assert!(bot.disconnected_at.is_some(), "marked disconnected");
    let mut tx = w.store.read().await.unwrap();
    let notices = tx.notices(&w.account.id, None, 10).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(notices.len(), 1);
    let text = vp_i18n::notice_text(&notices[0].kind, "Demo VPN", vp_app::Lang::En);
    assert!(text.contains("@fast_vpn_bot") && text.contains("new token"), "{text}");
    w.app.operator.set_brand_name(&w.account.id, "Other").await.unwrap();
    assert_eq!(w.app.bots.sync_bot_profiles(10).await.unwrap(), 0, "a disconnected bot is left alone");
}
