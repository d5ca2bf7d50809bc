//! The people who use a partner's bot (`bot_customers`: when each started and was last seen),
//! the bot's numbers, and the device list each chat was last shown (`bot_device_lists`): the
//! `BotCustomerRepo` implemented for the unit of work.

use async_trait::async_trait;
use diesel::{
    BoolExpressionMethods, ExpressionMethods, JoinOnDsl, NullableExpressionMethods, OptionalExtension, QueryDsl,
    SelectableHelper,
};
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use vp_domain::InvoiceStatus;
use vp_domain::{AccountId, ClientId, ClientRef};
use vp_ports::store::StoreResult;
use vp_ports::{BotCustomer, BotCustomerRepo, BotDeviceList, BotStats, PersonSubscription};

use crate::convert::{db_time, utc};
use crate::errors::{corrupt, db};
use crate::models::{BotCustomerRow, BotDeviceListRow, PersonSubscriptionRow};
use crate::pool::{db_run, upsert};
use crate::schema::{bot_customers, bot_device_lists, client_chats, person_subscriptions};
use crate::tx::StoreTx;

/// `bot_customer_of_client`'s query (`read_ahead` makes it too).
macro_rules! bot_customer_of_client {
    ($client_ref:expr) => {
        $crate::schema::bot_customers::table
            .filter($crate::schema::bot_customers::client_ref.eq($client_ref))
            .select(<$crate::models::BotCustomerRow as diesel::SelectableHelper<_>>::as_select())
    };
}
pub(crate) use bot_customer_of_client;

pub(crate) fn customer(r: BotCustomerRow) -> BotCustomer {
    BotCustomer {
        account_id: AccountId::issued(r.account_id),
        user_id: r.user_id,
        chat_id: r.chat_id,
        started_at: utc(r.started_at),
        last_seen_at: utc(r.last_seen_at),
        client_ref: r.client_ref.map(ClientRef::issued),
        receipt_email: r.receipt_email,
        promo_code: r.promo_code,
        promo_asked_at: r.promo_asked_at.map(utc),
    }
}

#[async_trait]
impl BotCustomerRepo for StoreTx {
    async fn touch_bot_customer(
        &mut self,
        account_id: &str,
        user_id: i64,
        chat_id: i64,
        at: OffsetDateTime,
    ) -> StoreResult<bool> {
        use bot_customers::dsl as b;
        let conn = self.conn().await?;
        let at = db_time(at);
        let row = BotCustomerRow {
            account_id: account_id.to_owned(),
            user_id,
            chat_id,
            started_at: at,
            last_seen_at: at,
            client_ref: None,
            receipt_email: None,
            promo_code: None,
            promo_asked_at: None,
            refused_at: None,
        };
        let inserted = db_run!(conn, c => {
            diesel::insert_into(b::bot_customers).values(&row).on_conflict_do_nothing().execute(c).await
        })
        .map_err(db)?;
        if inserted > 0 {
            return Ok(true);
        }
        db_run!(conn, c => {
            diesel::update(b::bot_customers.find((account_id, user_id)))
                .set((b::last_seen_at.eq(at), b::chat_id.eq(chat_id), b::refused_at.eq(None::<time::PrimitiveDateTime>)))
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(false)
    }

    async fn mark_chat_refused(&mut self, account_id: &str, chat_id: i64, at: OffsetDateTime) -> StoreResult<()> {
        use bot_customers::dsl as b;
        let conn = self.conn().await?;
        let at = db_time(at);
        db_run!(conn, c => {
            diesel::update(b::bot_customers.filter(b::account_id.eq(account_id)).filter(b::chat_id.eq(chat_id)))
                .set(b::refused_at.eq(Some(at)))
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn set_bot_customer_email(&mut self, account_id: &str, user_id: i64, email: &str) -> StoreResult<()> {
        use bot_customers::dsl as b;
        let conn = self.conn().await?;
        db_run!(conn, c => {
            diesel::update(b::bot_customers.find((account_id, user_id)))
                .set(b::receipt_email.eq(Some(email)))
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn set_bot_customer_promo(
        &mut self,
        account_id: &str,
        user_id: i64,
        code: Option<&str>,
        asked_at: Option<OffsetDateTime>,
    ) -> StoreResult<()> {
        use bot_customers::dsl as b;
        let conn = self.conn().await?;
        let asked_at = crate::convert::db_time_opt(asked_at);
        db_run!(conn, c => {
            diesel::update(b::bot_customers.find((account_id, user_id)))
                .set((b::promo_code.eq(code), b::promo_asked_at.eq(asked_at)))
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn bot_customers(&mut self, account_id: &str, user_ids: &[i64]) -> StoreResult<Vec<BotCustomer>> {
        use bot_customers::dsl as b;
        let conn = self.conn().await?;
        let rows: Vec<BotCustomerRow> = db_run!(conn, c => {
            b::bot_customers
                .filter(b::account_id.eq(account_id))
                .filter(b::user_id.eq_any(user_ids))
                .select(BotCustomerRow::as_select())
                .load(c)
                .await
        })
        .map_err(db)?;
        Ok(rows.into_iter().map(customer).collect())
    }

    async fn link_bot_customer(&mut self, account_id: &str, user_id: i64, client_ref: &str) -> StoreResult<()> {
        use bot_customers::dsl as b;
        let conn = self.conn().await?;
        db_run!(conn, c => {
            diesel::update(b::bot_customers.find((account_id, user_id)).filter(b::client_ref.is_null()))
                .set(b::client_ref.eq(client_ref))
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn bot_customer_of_client(&mut self, client_ref: &str) -> StoreResult<Option<BotCustomer>> {
        if let Some(ahead) = self.ahead.bot_customer.take(client_ref) {
            return Ok(ahead);
        }
        let conn = self.conn().await?;
        let row: Option<BotCustomerRow> =
            db_run!(conn, c => bot_customer_of_client!(client_ref).first(c).await.optional()).map_err(db)?;
        Ok(row.map(customer))
    }

    async fn bot_customers_among(&mut self, account_id: &str, client_ids: &[String]) -> StoreResult<Vec<String>> {
        use crate::schema::clients;
        let conn = self.conn().await?;
        let mut firsts: Vec<String> = db_run!(conn, c => {
            bot_customers::table
                .inner_join(clients::table.on(bot_customers::client_ref.eq(clients::id.nullable())))
                .filter(bot_customers::account_id.eq(account_id))
                .filter(clients::account_id.eq(account_id))
                .filter(clients::client_id.eq_any(client_ids))
                .select(clients::client_id)
                .load(c)
                .await
        })
        .map_err(db)?;
        let further: Vec<String> = db_run!(conn, c => {
            person_subscriptions::table
                .filter(person_subscriptions::account_id.eq(account_id))
                .filter(person_subscriptions::client_id.eq_any(client_ids))
                .filter(person_subscriptions::name.is_not_null())
                .select(person_subscriptions::client_id)
                .load(c)
                .await
        })
        .map_err(db)?;
        firsts.extend(further);
        Ok(firsts)
    }

    /// Starts read from `bot_customers`; purchases are the paid invoices of the clients bot
    /// customers are linked to, and of their named further subscriptions, matched in the
    /// database.
    async fn bot_stats(&mut self, account_id: &str, since: OffsetDateTime) -> StoreResult<BotStats> {
        use crate::schema::invoices;
        use bot_customers::dsl as b;
        let conn = self.conn().await?;
        let since = db_time(since);
        let started: Vec<i64> = db_run!(conn, c => {
            b::bot_customers
                .filter(b::account_id.eq(account_id))
                .filter(b::started_at.ge(since))
                .select(b::user_id)
                .load(c)
                .await
        })
        .map_err(db)?;
        let linked: i64 = db_run!(conn, c => {
            client_chats::table.filter(client_chats::account_id.eq(account_id)).count().get_result(c).await
        })
        .map_err(db)?;
        // The user behind each paid invoice of a bot customer's client.
        let mut paid: Vec<i64> = db_run!(conn, c => {
            invoices::table
                .inner_join(b::bot_customers.on(b::client_ref.eq(invoices::client_ref.nullable())))
                .filter(invoices::account_id.eq(account_id))
                .filter(b::account_id.eq(account_id))
                .filter(invoices::status.eq(InvoiceStatus::Succeeded.as_str()))
                .filter(invoices::paid_at.ge(since))
                .select(b::user_id)
                .load(c)
                .await
        })
        .map_err(db)?;
        // And behind each paid invoice of a person's further subscription.
        let further_paid: Vec<i64> = db_run!(conn, c => {
            use crate::schema::clients;
            invoices::table
                .inner_join(clients::table.on(clients::id.eq(invoices::client_ref)))
                .inner_join(
                    person_subscriptions::table.on(person_subscriptions::client_id
                        .eq(clients::client_id)
                        .and(person_subscriptions::account_id.eq(clients::account_id))),
                )
                .filter(invoices::account_id.eq(account_id))
                .filter(person_subscriptions::name.is_not_null())
                .filter(invoices::status.eq(InvoiceStatus::Succeeded.as_str()))
                .filter(invoices::paid_at.ge(since))
                .select(person_subscriptions::user_id)
                .load(c)
                .await
        })
        .map_err(db)?;
        paid.extend(further_paid);
        let payers: std::collections::HashSet<i64> = paid.iter().copied().collect();
        let started_and_paid = started.iter().filter(|u| payers.contains(u)).count();
        let count = |n: usize| u64::try_from(n).unwrap_or(u64::MAX);
        Ok(BotStats {
            started: count(started.len()),
            linked: u64::try_from(linked).unwrap_or(0),
            purchases: count(paid.len()),
            started_and_paid: count(started_and_paid),
        })
    }

    async fn person_subscriptions(&mut self, account_id: &str, user_id: i64) -> StoreResult<Vec<PersonSubscription>> {
        use person_subscriptions::dsl as p;
        let conn = self.conn().await?;
        let rows: Vec<PersonSubscriptionRow> = db_run!(conn, c => {
            p::person_subscriptions
                .filter(p::account_id.eq(account_id))
                .filter(p::user_id.eq(user_id))
                .order(p::position.asc())
                .select(PersonSubscriptionRow::as_select())
                .load(c)
                .await
        })
        .map_err(db)?;
        rows.into_iter().map(person_subscription).collect()
    }

    async fn put_person_subscription(&mut self, subscription: &PersonSubscription) -> StoreResult<()> {
        use person_subscriptions::dsl as p;
        let conn = self.conn().await?;
        let row = PersonSubscriptionRow {
            account_id: subscription.account_id.to_string(),
            user_id: subscription.user_id,
            position: i32::try_from(subscription.position).map_err(|_| corrupt("subscription position"))?,
            client_id: subscription.client_id.as_str().to_owned(),
            name: subscription.name.clone(),
            asked_at: db_time(subscription.asked_at),
        };
        upsert!(conn, p::person_subscriptions, (p::account_id, p::user_id, p::position), &row)
    }

    async fn person_subscription_of_client(
        &mut self,
        account_id: &str,
        client_id: &str,
    ) -> StoreResult<Option<PersonSubscription>> {
        use person_subscriptions::dsl as p;
        let conn = self.conn().await?;
        let row: Option<PersonSubscriptionRow> = db_run!(conn, c => {
            p::person_subscriptions
                .filter(p::account_id.eq(account_id))
                .filter(p::client_id.eq(client_id))
                .select(PersonSubscriptionRow::as_select())
                .first(c)
                .await
                .optional()
        })
        .map_err(db)?;
        row.map(person_subscription).transpose()
    }

    async fn save_device_list(&mut self, list: &BotDeviceList) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = BotDeviceListRow {
            account_id: list.account_id.to_string(),
            chat_id: list.chat_id,
            nonce: list.nonce.clone(),
            device_ids: serde_json::to_string(&list.device_ids).map_err(|e| corrupt(e.to_string()))?,
            listed_at: db_time(list.listed_at),
        };
        upsert!(conn, bot_device_lists::table, (bot_device_lists::account_id, bot_device_lists::chat_id), &row)
    }

    async fn device_list(&mut self, account_id: &str, chat_id: i64) -> StoreResult<Option<BotDeviceList>> {
        let conn = self.conn().await?;
        let row: Option<BotDeviceListRow> = db_run!(conn, c => {
            bot_device_lists::table
                .find((account_id, chat_id))
                .select(BotDeviceListRow::as_select())
                .first(c)
                .await
                .optional()
        })
        .map_err(db)?;
        row.map(|r| {
            Ok(BotDeviceList {
                device_ids: serde_json::from_str(&r.device_ids).map_err(|e| corrupt(format!("device list: {e}")))?,
                account_id: AccountId::issued(r.account_id),
                chat_id: r.chat_id,
                nonce: r.nonce,
                listed_at: utc(r.listed_at),
            })
        })
        .transpose()
    }
}

fn person_subscription(r: PersonSubscriptionRow) -> StoreResult<PersonSubscription> {
    Ok(PersonSubscription {
        position: u32::try_from(r.position).map_err(|_| corrupt(format!("subscription position {}", r.position)))?,
        client_id: ClientId::parse(&r.client_id).map_err(|_| corrupt(format!("client id {}", r.client_id)))?,
        account_id: AccountId::issued(r.account_id),
        user_id: r.user_id,
        name: r.name,
        asked_at: utc(r.asked_at),
    })
}
