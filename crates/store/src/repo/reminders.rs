//! The platform's reminders to customers in their partner's bot: `ReminderRepo` for the unit of
//! work. The renewal link a reminder shows is the account's (`accounts.rs`).

use async_trait::async_trait;
use diesel::{
    BoolExpressionMethods, ExpressionMethods, JoinOnDsl, NullableExpressionMethods, OptionalExtension, QueryDsl,
    SelectableHelper,
};
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use vp_domain::{AccountId, ClientRef};
use vp_ports::store::StoreResult;
use vp_ports::{Claim, ReminderKind, ReminderRecipient, ReminderRepo, ReminderSend};

use crate::convert::{db_time, db_time_opt, utc};
use crate::errors::{corrupt, db};
use crate::models::{ClientRow, ReminderSendRow, SubscriptionRow};
use crate::pool::{db_run, load_for_claim};
use crate::schema::reminder_sends;
use crate::tx::StoreTx;

fn row(r: &ReminderSend) -> ReminderSendRow {
    ReminderSendRow {
        id: r.id.clone(),
        account_id: r.account_id.to_string(),
        client_ref: r.client_ref.to_string(),
        chat_id: r.chat_id,
        kind: r.kind.code().to_owned(),
        term_ends_at: db_time(r.term_ends_at),
        created_at: db_time(r.created_at),
        attempts: i32::try_from(r.attempts).unwrap_or(i32::MAX),
        next_attempt_at: db_time_opt(r.next_attempt_at),
        sent_at: db_time_opt(r.sent_at),
        last_error: r.last_error.clone(),
        payment_id: r.payment_id.clone().unwrap_or_default(),
    }
}

fn record(r: ReminderSendRow) -> StoreResult<ReminderSend> {
    let kind = ReminderKind::from_code(&r.kind).ok_or_else(|| corrupt(format!("reminder kind {}", r.kind)))?;
    Ok(ReminderSend {
        id: r.id,
        account_id: AccountId::issued(r.account_id),
        client_ref: ClientRef::issued(r.client_ref),
        chat_id: r.chat_id,
        kind,
        term_ends_at: utc(r.term_ends_at),
        created_at: utc(r.created_at),
        attempts: u32::try_from(r.attempts).unwrap_or(0),
        next_attempt_at: r.next_attempt_at.map(utc),
        sent_at: r.sent_at.map(utc),
        last_error: r.last_error,
        payment_id: Some(r.payment_id).filter(|p| !p.is_empty()),
    })
}

#[async_trait]
impl ReminderRepo for StoreTx {
    async fn insert_reminder(&mut self, reminder: &ReminderSend) -> StoreResult<bool> {
        let conn = self.conn().await?;
        let row = row(reminder);
        let inserted = db_run!(conn, c => {
            diesel::insert_into(reminder_sends::table).values(&row).on_conflict_do_nothing().execute(c).await
        })
        .map_err(db)?;
        Ok(inserted > 0)
    }

    async fn accounts_with_due_reminders(&mut self, now: OffsetDateTime, limit: u32) -> StoreResult<Vec<AccountId>> {
        use reminder_sends::dsl as r;
        let conn = self.conn().await?;
        let now = db_time(now);
        db_run!(conn, c => {
            r::reminder_sends
                .filter(r::next_attempt_at.le(now))
                .select(r::account_id)
                .distinct()
                .order(r::account_id)
                .limit(i64::from(limit))
                .load(c)
                .await
        })
        .map(|ids: Vec<String>| ids.into_iter().map(AccountId::issued).collect())
        .map_err(db)
    }

    async fn claim_reminders(&mut self, account_id: &str, claim: Claim) -> StoreResult<Vec<ReminderSend>> {
        let Claim { now, lease_until, limit } = claim;
        use reminder_sends::dsl as r;
        let conn = self.conn().await?;
        let now = db_time(now);
        let rows: Vec<ReminderSendRow> = load_for_claim!(
            conn,
            r::reminder_sends
                .filter(r::account_id.eq(account_id))
                .filter(r::next_attempt_at.le(now))
                .order((r::next_attempt_at, r::id))
                .limit(i64::from(limit))
                .select(ReminderSendRow::as_select())
        )
        .map_err(db)?;
        let ids: Vec<String> = rows.iter().map(|row| row.id.clone()).collect();
        let lease = db_time(lease_until);
        db_run!(conn, c => {
            diesel::update(r::reminder_sends.filter(r::id.eq_any(&ids)))
                .set(r::next_attempt_at.eq(Some(lease)))
                .execute(c)
                .await
        })
        .map_err(db)?;
        rows.into_iter().map(record).collect()
    }

    async fn update_reminder(&mut self, reminder: &ReminderSend) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = row(reminder);
        db_run!(conn, c => diesel::update(reminder_sends::table.find(&reminder.id)).set(&row).execute(c).await)
            .map_err(db)?;
        Ok(())
    }

    async fn reminders_of_client(&mut self, client_ref: &str) -> StoreResult<Vec<ReminderSend>> {
        use reminder_sends::dsl as r;
        let conn = self.conn().await?;
        let rows: Vec<ReminderSendRow> = db_run!(conn, c => {
            r::reminder_sends
                .filter(r::client_ref.eq(client_ref))
                .order((r::created_at, r::id))
                .select(ReminderSendRow::as_select())
                .load(c)
                .await
        })
        .map_err(db)?;
        rows.into_iter().map(record).collect()
    }

    async fn reminder_recipient(&mut self, reminder: &ReminderSend) -> StoreResult<Option<ReminderRecipient>> {
        use crate::schema::{bot_chat_languages as l, bot_customers as b, client_chats, clients, subscriptions};
        type Row = (ClientRow, Option<SubscriptionRow>, Option<i64>, Option<String>, Option<i64>);
        let conn = self.conn().await?;
        // Owned: the bind values of a query this deep must outlive it.
        let (account_id, chat_id, client_ref) =
            (reminder.account_id.to_string(), reminder.chat_id, reminder.client_ref.to_string());
        let row: Option<Row> = db_run!(conn, c => {
            clients::table
                .left_join(subscriptions::table)
                .left_join(client_chats::table)
                .left_join(l::table.on(l::account_id.eq(account_id).and(l::chat_id.eq(chat_id))))
                .left_join(b::table.on(b::client_ref.eq(clients::id.nullable())))
                .filter(clients::id.eq(client_ref))
                .select((
                    ClientRow::as_select(),
                    Option::<SubscriptionRow>::as_select(),
                    client_chats::chat_id.nullable(),
                    l::lang.nullable(),
                    b::chat_id.nullable(),
                ))
                .first(c)
                .await
                .optional()
        })
        .map_err(db)?;
        let Some((client, sub, linked_chat, language, bot_customer_chat)) = row else { return Ok(None) };
        let language = language.as_deref().map(crate::convert::lang).transpose()?;
        let client = crate::convert::client(client, sub)?;
        Ok(Some(ReminderRecipient { client, linked_chat, language, bot_customer_chat }))
    }
}
