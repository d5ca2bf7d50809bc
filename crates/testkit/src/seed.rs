//! Data written straight through the storage port, for tests and the bench that need many
//! records at once (as the service would write them).

use time::{Duration, OffsetDateTime};
use vp_domain::AccountId;
use vp_domain::{ClientId, ClientRef, DeviceLimit, Subscription, Term};
use vp_ports::{ClientChat, ClientRecord, Store, SubscriptionRecord};

/// Clients written in one unit of work.
const BATCH: usize = 1_000;

/// `count` clients of `account_id` with a month's subscription, the n-th ending at `ends_at`
/// plus n milliseconds (so several accounts seeded with the same `ends_at` fall due
/// interleaved, as many partners' customers do), each linked to a chat of its own with the
/// account's bot (chat ids from `first_chat`); nothing is owed to the panel. Client ids are
/// `linked-<n>`.
pub async fn linked_clients(
    store: &dyn Store,
    account_id: &str,
    count: usize,
    ends_at: OffsetDateTime,
    first_chat: i64,
) -> Result<(), String> {
    let now = OffsetDateTime::now_utc();
    let limit = DeviceLimit::Limited { included: 3, purchased: 0 };
    for batch in 0..count.div_ceil(BATCH) {
        let mut tx = store.begin().await.map_err(|e| e.to_string())?;
        for i in batch * BATCH..((batch + 1) * BATCH).min(count) {
            let mut subscription = Subscription::activate(Term::Months(1), limit, now - Duration::days(28));
            subscription.expires_at = ends_at + Duration::milliseconds(i64::try_from(i).unwrap_or(0));
            let id = format!("cli_{account_id}_{i:06}");
            let client = ClientRecord {
                id: ClientRef::issued(id.clone()),
                account_id: AccountId::issued(account_id.to_owned()),
                client_id: ClientId::parse(&format!("linked-{i}")).map_err(|e| e.to_string())?,
                created_at: now,
                blocked: false,
                subscription: Some(SubscriptionRecord {
                    subscription,
                    link_token: format!("lt-{account_id}-{i:06}"),
                    revision: 1,
                    panel_revision: 1,
                    auto_renew: false,
                    panel_name: None,
                }),
            };
            tx.insert_client(&client).await.map_err(|e| e.to_string())?;
            let chat_id = first_chat + i64::try_from(i).map_err(|e| e.to_string())?;
            let linked = ClientChat {
                client_ref: ClientRef::issued(id),
                account_id: AccountId::issued(account_id.to_owned()),
                chat_id,
                linked_at: now,
            };
            tx.link_client_chat(&linked).await.map_err(|e| e.to_string())?;
        }
        tx.commit().await.map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// `count` people who started the bot of `account_id`, each in their private chat (user and
/// chat ids from `first_user`), without clients: a broadcast's audience of `all`.
pub async fn bot_people(store: &dyn Store, account_id: &str, count: usize, first_user: i64) -> Result<(), String> {
    let now = OffsetDateTime::now_utc();
    for batch in 0..count.div_ceil(BATCH) {
        let mut tx = store.begin().await.map_err(|e| e.to_string())?;
        for i in batch * BATCH..((batch + 1) * BATCH).min(count) {
            let user = first_user + i64::try_from(i).map_err(|e| e.to_string())?;
            tx.touch_bot_customer(account_id, user, user, now).await.map_err(|e| e.to_string())?;
        }
        tx.commit().await.map_err(|e| e.to_string())?;
    }
    Ok(())
}
