//! Bots' updates: handled once however often they arrive, by webhook with the secret only the
//! platform can make, or polled by the one holder of the poll lease.

use crate::support;

use std::sync::atomic::Ordering;

use support::{PARTNER_BOT_TOKEN, PLATFORM_BOT_TOKEN, World};
use time::Duration;
use vp_app::bot_updates::POLL_LEASE_FOR;
use vp_app::bots::PlatformBot;
use vp_app::{Services, Settings};
use vp_ports::BotUpdates;

/// The world's app, but public on https: bots' updates come by webhook.
fn on_https(w: &World) -> Services {
    let settings = Settings {
        public_base_url: "https://vpn.example".into(),
        secrets: w.keys.clone(),
        platform_bot: PlatformBot::new(PLATFORM_BOT_TOKEN),
        ..Settings::default()
    };
    Services::new(w.adapters.clone(), settings)
}

fn sent_by(w: &World, token: &str) -> Vec<(i64, String)> {
    let sent = w.bots.sent.lock().unwrap();
    sent.iter().filter(|(t, _)| t == token).map(|(_, m)| (m.chat_id, m.text.clone())).collect()
}

#[tokio::test]
async fn an_update_posted_twice_or_to_two_instances_is_handled_once() {
    let w = World::new().await;
    w.connect_partner_bot().await;
    let update = w.bots.said(PARTNER_BOT_TOKEN, 77, "/start");
    let second_instance = on_https(&w);
    assert!(w.conversations().receive(5550001, update.clone()).await.unwrap(), "handled now");
    let second = vp_bots::Conversations::new(&second_instance);
    assert!(!second.receive(5550001, update.clone()).await.unwrap(), "handled before");
    assert!(!w.conversations().receive(5550001, update).await.unwrap());
    let answers = sent_by(&w, PARTNER_BOT_TOKEN);
    assert_eq!(answers.len(), 1, "{answers:?}");
    assert!(answers[0].1.contains("Demo VPN"), "the partner's bot greets under the brand: {answers:?}");
    assert_eq!(w.poll_updates().await, 0, "a polled copy of it is not handled again either");
}

#[tokio::test]
async fn an_update_for_a_bot_the_platform_does_not_run_changes_nothing() {
    let w = World::new().await;
    let update = w.bots.said(PARTNER_BOT_TOKEN, 77, "/start");
    assert!(!w.conversations().receive(5550001, update).await.unwrap());
    assert!(w.bots.sent.lock().unwrap().is_empty());
}

#[tokio::test]
async fn on_https_each_bot_gets_a_webhook_whose_secret_only_that_bot_passes() {
    let w = World::new().await;
    w.connect_partner_bot().await;
    let app = on_https(&w);
    assert_eq!(app.bot_updates.register_bot_webhooks().await.unwrap(), 2, "the notice bot and the partner's");
    assert_eq!(app.bot_updates.register_bot_webhooks().await.unwrap(), 0, "nothing changed since");
    // A webhook an older release set asked for fewer kinds of updates (no managed bots): the
    // platform's bot's is set again, once.
    let mut tx = w.store.begin().await.unwrap();
    let kept = tx.setting(vp_ports::SettingKey::PlatformBotWebhook).await.unwrap().unwrap();
    let older = kept.value.rsplit_once(" kinds:").unwrap().0.to_owned();
    tx.put_setting(&vp_ports::SettingRecord { value: older, ..kept }).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(app.bot_updates.register_bot_webhooks().await.unwrap(), 1, "the older registration is renewed");
    assert_eq!(app.bot_updates.register_bot_webhooks().await.unwrap(), 0);
    let set = w.bots.webhooks.lock().unwrap().clone();
    let (url, secret) = set.iter().find(|(t, _)| t == PARTNER_BOT_TOKEN).and_then(|(_, h)| h.clone()).unwrap();
    assert_eq!(url, "https://vpn.example/telegram/5550001/updates");
    let (_, platform_secret) = set.iter().find(|(t, _)| t == PLATFORM_BOT_TOKEN).and_then(|(_, h)| h.clone()).unwrap();
    assert!(app.bot_updates.webhook_secret_ok(5550001, &secret));
    assert!(!app.bot_updates.webhook_secret_ok(5550001, &platform_secret), "another bot's secret");
    assert!(!app.bot_updates.webhook_secret_ok(5550001, ""));
    assert!(!app.bot_updates.webhook_secret_ok(5550001, &format!("{}x", &secret[..42])));

    // Back on plain http: the webhooks are removed, so the poller can read the updates.
    assert_eq!(w.app.bot_updates.register_bot_webhooks().await.unwrap(), 2);
    let removed = w.bots.webhooks.lock().unwrap().iter().filter(|(_, h)| h.is_none()).count();
    assert_eq!(removed, 2);
}

#[tokio::test]
async fn one_process_polls_at_a_time_and_another_takes_over_when_the_lease_runs_out() {
    let w = World::new().await;
    let wait = std::time::Duration::ZERO;
    let handler: std::sync::Arc<dyn BotUpdates> = std::sync::Arc::new(w.conversations());
    assert!(w.app.bot_updates.poll_bot_updates_once("a", wait, handler.clone()).await.unwrap().is_some());
    assert!(
        w.app.bot_updates.poll_bot_updates_once("b", wait, handler.clone()).await.unwrap().is_none(),
        "a holds the lease"
    );
    w.clock.advance(POLL_LEASE_FOR - Duration::seconds(1));
    assert!(
        w.app.bot_updates.poll_bot_updates_once("a", wait, handler.clone()).await.unwrap().is_some(),
        "a renews it"
    );
    w.clock.advance(POLL_LEASE_FOR - Duration::seconds(1));
    assert!(
        w.app.bot_updates.poll_bot_updates_once("b", wait, handler.clone()).await.unwrap().is_none(),
        "renewed, so still a's"
    );
    w.clock.advance(Duration::seconds(2));
    assert!(
        w.app.bot_updates.poll_bot_updates_once("b", wait, handler.clone()).await.unwrap().is_some(),
        "a stopped renewing: b takes over"
    );
    assert!(w.app.bot_updates.poll_bot_updates_once("a", wait, handler.clone()).await.unwrap().is_none());
    w.app.bot_updates.release_poll_lease("b").await.unwrap();
    assert!(
        w.app.bot_updates.poll_bot_updates_once("a", wait, handler.clone()).await.unwrap().is_some(),
        "given up on a clean stop"
    );
}

#[tokio::test]
async fn a_revoked_partner_token_found_while_polling_disconnects_the_bot() {
    let w = World::new().await;
    w.connect_partner_bot().await;
    w.bots.known.lock().unwrap().retain(|(t, _)| t != PARTNER_BOT_TOKEN);
    w.poll_updates().await;
    let bot = w.app.bots.partner_bot(&w.account.id).await.unwrap().unwrap();
    assert!(bot.disconnected_at.is_some());
    let notices = w.app.notices.notices(&w.account.id, None, 10).await.unwrap();
    assert!(matches!(notices[0].kind, vp_ports::NoticeKind::BotDisconnected { bot_id: 5550001, .. }));
}

/// The bot adapter, with a person who writes to the partner's bot again each time a message of
/// theirs there is handled, `more` times: someone answering at once.
struct Answering {
    conversations: vp_bots::Conversations,
    bots: std::sync::Arc<support::FakeBots>,
    more: std::sync::atomic::AtomicUsize,
}

#[async_trait::async_trait]
impl BotUpdates for Answering {
    fn webhook_secret_ok(&self, bot_id: i64, secret: &str) -> bool {
        self.conversations.webhook_secret_ok(bot_id, secret)
    }

    async fn receive(&self, bot_id: i64, update: vp_ports::BotUpdate) -> Result<bool, String> {
        let handled = self.conversations.receive(bot_id, update).await?;
        let answered = self.more.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1)).is_ok();
        if handled && answered {
            self.bots.said(PARTNER_BOT_TOKEN, 515_151, "/help");
        }
        Ok(handled)
    }
}

#[tokio::test]
async fn a_bots_next_update_is_handled_in_the_same_round_not_after_it() {
    let w = World::with_partner_bot().await;
    w.bots.said(PARTNER_BOT_TOKEN, 515_151, "/start");
    let answering = Answering { conversations: w.conversations(), bots: w.bots.clone(), more: 2.into() };
    let wait = std::time::Duration::from_secs(2);
    let handled = w.app.bot_updates.poll_bot_updates_once("a", wait, std::sync::Arc::new(answering)).await.unwrap();
    assert_eq!(handled, Some(3), "the first message and both answers to it, in one round");
}
