//! Customers' chats with their partner's bot: the codes that link them, which chat each client
//! linked, and chats' languages: `CustomerChatRepo` for the unit of work.

use async_trait::async_trait;
use diesel::{ExpressionMethods, OptionalExtension, QueryDsl, SelectableHelper};
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use vp_domain::Lang;
use vp_domain::{AccountId, ClientRef};
use vp_ports::store::StoreResult;
use vp_ports::{ClientChat, ClientLinkCode, CustomerChatRepo};

use crate::convert::{db_time, utc};
use crate::errors::db;
use crate::models::{ClientChatRow, ClientLinkCodeRow};
use crate::pool::{db_run, upsert};
use crate::schema::{bot_chat_languages, client_chats, client_link_codes};
use crate::tx::StoreTx;

/// `client_chat`'s query (`read_ahead` makes it too).
macro_rules! chat_of_client {
    ($client_ref:expr) => {
        $crate::schema::client_chats::table
            .find($client_ref)
            .select(<$crate::models::ClientChatRow as diesel::SelectableHelper<_>>::as_select())
    };
}
pub(crate) use chat_of_client;

pub(crate) fn chat(r: ClientChatRow) -> ClientChat {
    ClientChat {
        client_ref: ClientRef::issued(r.client_ref),
        account_id: AccountId::issued(r.account_id),
        chat_id: r.chat_id,
        linked_at: utc(r.linked_at),
    }
}

#[async_trait]
impl CustomerChatRepo for StoreTx {
    async fn insert_client_link_code(&mut self, code: &ClientLinkCode) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = ClientLinkCodeRow {
            code_hash: code.code_hash.clone(),
            client_ref: code.client_ref.to_string(),
            expires_at: db_time(code.expires_at),
        };
        db_run!(conn, c => diesel::insert_into(client_link_codes::table).values(&row).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn take_client_link_code(&mut self, code_hash: &str) -> StoreResult<Option<ClientLinkCode>> {
        let conn = self.conn().await?;
        let row: Option<ClientLinkCodeRow> = db_run!(conn, c => {
            diesel::delete(client_link_codes::table.find(code_hash))
                .returning(ClientLinkCodeRow::as_returning())
                .get_result(c)
                .await
                .optional()
        })
        .map_err(db)?;
        Ok(row.map(|r| ClientLinkCode {
            code_hash: r.code_hash,
            client_ref: ClientRef::issued(r.client_ref),
            expires_at: utc(r.expires_at),
        }))
    }

    async fn prune_client_link_codes(&mut self, before: OffsetDateTime) -> StoreResult<u64> {
        let conn = self.conn().await?;
        let before = db_time(before);
        let gone = db_run!(conn, c => {
            diesel::delete(client_link_codes::table.filter(client_link_codes::expires_at.lt(before))).execute(c).await
        })
        .map_err(db)?;
        Ok(u64::try_from(gone).unwrap_or(0))
    }

    async fn link_client_chat(&mut self, linked: &ClientChat) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = ClientChatRow {
            client_ref: linked.client_ref.to_string(),
            account_id: linked.account_id.to_string(),
            chat_id: linked.chat_id,
            linked_at: db_time(linked.linked_at),
        };
        upsert!(conn, client_chats::table, client_chats::client_ref, &row)
    }

    async fn client_chat(&mut self, client_ref: &str) -> StoreResult<Option<ClientChat>> {
        if let Some(ahead) = self.ahead.chat.take(client_ref) {
            return Ok(ahead);
        }
        let conn = self.conn().await?;
        let row: Option<ClientChatRow> =
            db_run!(conn, c => chat_of_client!(client_ref).first(c).await.optional()).map_err(db)?;
        Ok(row.map(chat))
    }

    async fn client_chats(&mut self, client_refs: &[ClientRef]) -> StoreResult<Vec<ClientChat>> {
        let client_refs: Vec<&str> = client_refs.iter().map(ClientRef::as_str).collect();
        let conn = self.conn().await?;
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

    async fn chat_clients(&mut self, account_id: &str, chat_id: i64) -> StoreResult<Vec<ClientChat>> {
        use client_chats::dsl as cc;
        let conn = self.conn().await?;
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

    async fn unlink_chat(&mut self, account_id: &str, chat_id: i64) -> StoreResult<u64> {
        use client_chats::dsl as cc;
        let conn = self.conn().await?;
        let gone = db_run!(conn, c => {
            diesel::delete(cc::client_chats.filter(cc::account_id.eq(account_id)).filter(cc::chat_id.eq(chat_id)))
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(u64::try_from(gone).unwrap_or(0))
    }

    async fn chat_language(&mut self, account_id: &str, chat_id: i64) -> StoreResult<Option<Lang>> {
        let conn = self.conn().await?;
        let code: Option<String> = db_run!(conn, c => {
            bot_chat_languages::table
                .find((account_id, chat_id))
                .select(bot_chat_languages::lang)
                .first(c)
                .await
                .optional()
        })
        .map_err(db)?;
        code.as_deref().map(crate::convert::lang).transpose()
    }

    async fn set_chat_language(&mut self, account_id: &str, chat_id: i64, lang: Lang) -> StoreResult<()> {
        use bot_chat_languages::dsl as l;
        let lang = lang.code();
        let conn = self.conn().await?;
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
}
