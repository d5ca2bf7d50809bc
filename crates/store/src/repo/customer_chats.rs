//! Customers' chats with their partner's bot, the codes that link them, and chats' languages.

use async_trait::async_trait;
use diesel::{ExpressionMethods, JoinOnDsl, OptionalExtension, QueryDsl, SelectableHelper, TextExpressionMethods};
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use vp_ports::store::StoreResult;
use vp_ports::{BotCustomer, BotDeviceList, BotStats, ClientChat, ClientLinkCode, CustomerChatRepo};

use crate::convert::{db_time, utc};
use crate::errors::{corrupt, db};
use crate::models::{BotCustomerRow, BotDeviceListRow, ClientChatRow, ClientLinkCodeRow};
use crate::pool::{DbConn, db_run, upsert};
use crate::schema::{bot_chat_languages, bot_customers, bot_device_lists, client_chats, client_link_codes};
use crate::tx::StoreTx;

fn chat(r: ClientChatRow) -> ClientChat {
    ClientChat { client_ref: r.client_ref, account_id: r.account_id, chat_id: r.chat_id, linked_at: utc(r.linked_at) }
}

pub(crate) async fn insert_code(conn: &mut DbConn, code: &ClientLinkCode) -> StoreResult<()> {
    let row = ClientLinkCodeRow {
        code_hash: code.code_hash.clone(),
        client_ref: code.client_ref.clone(),
        expires_at: db_time(code.expires_at),
    };
    db_run!(conn, c => diesel::insert_into(client_link_codes::table).values(&row).execute(c).await).map_err(db)?;
    Ok(())
}

pub(crate) async fn take_code(conn: &mut DbConn, code_hash: &str) -> StoreResult<Option<ClientLinkCode>> {
    let row: Option<ClientLinkCodeRow> = db_run!(conn, c => {
        diesel::delete(client_link_codes::table.find(code_hash))
            .returning(ClientLinkCodeRow::as_returning())
            .get_result(c)
            .await
            .optional()
    })
    .map_err(db)?;
    Ok(row.map(|r| ClientLinkCode { code_hash: r.code_hash, client_ref: r.client_ref, expires_at: utc(r.expires_at) }))
}

pub(crate) async fn prune_codes(conn: &mut DbConn, before: OffsetDateTime) -> StoreResult<u64> {
    let before = db_time(before);
    let gone = db_run!(conn, c => {
        diesel::delete(client_link_codes::table.filter(client_link_codes::expires_at.lt(before))).execute(c).await
    })
    .map_err(db)?;
    Ok(u64::try_from(gone).unwrap_or(0))
}

pub(crate) async fn link(conn: &mut DbConn, linked: &ClientChat) -> StoreResult<()> {
    let row = ClientChatRow {
        client_ref: linked.client_ref.clone(),
        account_id: linked.account_id.clone(),
        chat_id: linked.chat_id,
        linked_at: db_time(linked.linked_at),
    };
    upsert!(conn, client_chats::table, client_chats::client_ref, &row)
}

pub(crate) async fn of_client(conn: &mut DbConn, client_ref: &str) -> StoreResult<Option<ClientChat>> {
    let row: Option<ClientChatRow> = db_run!(conn, c => {
        client_chats::table.find(client_ref).select(ClientChatRow::as_select()).first(c).await.optional()
    })
    .map_err(db)?;
    Ok(row.map(chat))
}

pub(crate) async fn of_clients(conn: &mut DbConn, client_refs: &[String]) -> StoreResult<Vec<ClientChat>> {
    let rows: Vec<ClientChatRow> = db_run!(conn, c => {
        client_chats::table
            .filter(client_chats::client_ref.eq_any(client_refs))
            .select(ClientChatRow::as_select())
            .load(c)
            .await
    })
    .map_err(db)?;
    Ok(rows.into_iter().map(chat).collect())
}

pub(crate) async fn of_chat(conn: &mut DbConn, account_id: &str, chat_id: i64) -> StoreResult<Vec<ClientChat>> {
    use client_chats::dsl as cc;
    let rows: Vec<ClientChatRow> = db_run!(conn, c => {
        cc::client_chats
            .filter(cc::account_id.eq(account_id))
            .filter(cc::chat_id.eq(chat_id))
            .order((cc::linked_at, cc::client_ref))
            .select(ClientChatRow::as_select())
            .load(c)
            .await
    })
    .map_err(db)?;
    Ok(rows.into_iter().map(chat).collect())
}

pub(crate) async fn unlink(conn: &mut DbConn, account_id: &str, chat_id: i64) -> StoreResult<u64> {
    use client_chats::dsl as cc;
    let gone = db_run!(conn, c => {
        diesel::delete(cc::client_chats.filter(cc::account_id.eq(account_id)).filter(cc::chat_id.eq(chat_id)))
            .execute(c)
            .await
    })
    .map_err(db)?;
    Ok(u64::try_from(gone).unwrap_or(0))
}

pub(crate) async fn language(conn: &mut DbConn, account_id: &str, chat_id: i64) -> StoreResult<Option<String>> {
    db_run!(conn, c => {
        bot_chat_languages::table.find((account_id, chat_id)).select(bot_chat_languages::lang).first(c).await.optional()
    })
    .map_err(db)
}

pub(crate) async fn set_language(conn: &mut DbConn, account_id: &str, chat_id: i64, lang: &str) -> StoreResult<()> {
    use bot_chat_languages::dsl as l;
    let row = (l::account_id.eq(account_id), l::chat_id.eq(chat_id), l::lang.eq(lang));
    db_run!(conn, c => {
        diesel::insert_into(l::bot_chat_languages)
            .values(row)
            .on_conflict((l::account_id, l::chat_id))
            .do_update()
            .set(l::lang.eq(lang))
            .execute(c)
            .await
    })
    .map_err(db)?;
    Ok(())
}

pub(crate) async fn touch_customer(
    conn: &mut DbConn,
    account_id: &str,
    user_id: i64,
    chat_id: i64,
    at: OffsetDateTime,
) -> StoreResult<bool> {
    use bot_customers::dsl as b;
    let at = db_time(at);
    let row = BotCustomerRow { account_id: account_id.to_owned(), user_id, chat_id, started_at: at, last_seen_at: at };
    let inserted = db_run!(conn, c => {
        diesel::insert_into(b::bot_customers).values(&row).on_conflict_do_nothing().execute(c).await
    })
    .map_err(db)?;
    if inserted > 0 {
        return Ok(true);
    }
    db_run!(conn, c => {
        diesel::update(b::bot_customers.find((account_id, user_id)))
            .set((b::last_seen_at.eq(at), b::chat_id.eq(chat_id)))
            .execute(c)
            .await
    })
    .map_err(db)?;
    Ok(false)
}

fn customer(r: BotCustomerRow) -> BotCustomer {
    BotCustomer {
        account_id: r.account_id,
        user_id: r.user_id,
        chat_id: r.chat_id,
        started_at: utc(r.started_at),
        last_seen_at: utc(r.last_seen_at),
    }
}

pub(crate) async fn customers(conn: &mut DbConn, account_id: &str, user_ids: &[i64]) -> StoreResult<Vec<BotCustomer>> {
    use bot_customers::dsl as b;
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

/// Counted in two reads and matched here: a bot customer's client id is `telegram:<user_id>`.
pub(crate) async fn stats(conn: &mut DbConn, account_id: &str, since: OffsetDateTime) -> StoreResult<BotStats> {
    use crate::schema::{clients, invoices};
    use bot_customers::dsl as b;
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
    let paid: Vec<String> = db_run!(conn, c => {
        invoices::table
            .inner_join(clients::table.on(clients::id.eq(invoices::client_ref)))
            .filter(invoices::account_id.eq(account_id))
            .filter(invoices::status.eq("succeeded"))
            .filter(invoices::paid_at.ge(since))
            .filter(clients::client_id.like("telegram:%"))
            .select(clients::client_id)
            .load(c)
            .await
    })
    .map_err(db)?;
    let payers: std::collections::HashSet<i64> =
        paid.iter().filter_map(|id| id.strip_prefix("telegram:")?.parse().ok()).collect();
    let started_and_paid = started.iter().filter(|u| payers.contains(u)).count();
    let count = |n: usize| u64::try_from(n).unwrap_or(u64::MAX);
    Ok(BotStats {
        started: count(started.len()),
        linked: u64::try_from(linked).unwrap_or(0),
        purchases: count(paid.len()),
        started_and_paid: count(started_and_paid),
    })
}

pub(crate) async fn save_devices(conn: &mut DbConn, list: &BotDeviceList) -> StoreResult<()> {
    let row = BotDeviceListRow {
        account_id: list.account_id.clone(),
        chat_id: list.chat_id,
        nonce: list.nonce.clone(),
        device_ids: serde_json::to_string(&list.device_ids).map_err(|e| corrupt(e.to_string()))?,
        listed_at: db_time(list.listed_at),
    };
    upsert!(conn, bot_device_lists::table, (bot_device_lists::account_id, bot_device_lists::chat_id), &row)
}

pub(crate) async fn devices(conn: &mut DbConn, account_id: &str, chat_id: i64) -> StoreResult<Option<BotDeviceList>> {
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
            account_id: r.account_id,
            chat_id: r.chat_id,
            nonce: r.nonce,
            listed_at: utc(r.listed_at),
        })
    })
    .transpose()
}

#[async_trait]
impl CustomerChatRepo for StoreTx {
    async fn insert_client_link_code(&mut self, code: &ClientLinkCode) -> StoreResult<()> {
        insert_code(self.conn()?, code).await
    }

    async fn take_client_link_code(&mut self, code_hash: &str) -> StoreResult<Option<ClientLinkCode>> {
        take_code(self.conn()?, code_hash).await
    }

    async fn prune_client_link_codes(&mut self, before: OffsetDateTime) -> StoreResult<u64> {
        prune_codes(self.conn()?, before).await
    }

    async fn link_client_chat(&mut self, chat: &ClientChat) -> StoreResult<()> {
        link(self.conn()?, chat).await
    }

    async fn client_chat(&mut self, client_ref: &str) -> StoreResult<Option<ClientChat>> {
        of_client(self.conn()?, client_ref).await
    }

    async fn client_chats(&mut self, client_refs: &[String]) -> StoreResult<Vec<ClientChat>> {
        of_clients(self.conn()?, client_refs).await
    }

    async fn chat_clients(&mut self, account_id: &str, chat_id: i64) -> StoreResult<Vec<ClientChat>> {
        of_chat(self.conn()?, account_id, chat_id).await
    }

    async fn unlink_chat(&mut self, account_id: &str, chat_id: i64) -> StoreResult<u64> {
        unlink(self.conn()?, account_id, chat_id).await
    }

    async fn chat_language(&mut self, account_id: &str, chat_id: i64) -> StoreResult<Option<String>> {
        language(self.conn()?, account_id, chat_id).await
    }

    async fn set_chat_language(&mut self, account_id: &str, chat_id: i64, lang: &str) -> StoreResult<()> {
        set_language(self.conn()?, account_id, chat_id, lang).await
    }

    async fn touch_bot_customer(
        &mut self,
        account_id: &str,
        user_id: i64,
        chat_id: i64,
        at: OffsetDateTime,
    ) -> StoreResult<bool> {
        touch_customer(self.conn()?, account_id, user_id, chat_id, at).await
    }

    async fn bot_customers(&mut self, account_id: &str, user_ids: &[i64]) -> StoreResult<Vec<BotCustomer>> {
        customers(self.conn()?, account_id, user_ids).await
    }

    async fn bot_stats(&mut self, account_id: &str, since: OffsetDateTime) -> StoreResult<BotStats> {
        stats(self.conn()?, account_id, since).await
    }

    async fn save_device_list(&mut self, list: &BotDeviceList) -> StoreResult<()> {
        save_devices(self.conn()?, list).await
    }

    async fn device_list(&mut self, account_id: &str, chat_id: i64) -> StoreResult<Option<BotDeviceList>> {
        devices(self.conn()?, account_id, chat_id).await
    }
}
