//! Notices to partners, their sends to linked chats, the chats and the codes that link them:
//! `NoticeRepo` for the unit of work.

use async_trait::async_trait;
use vp_domain::{AccountId, EndpointId};
use vp_ports::{Cursor, NoticeRepo};

use crate::tx::StoreTx;
use diesel::{BoolExpressionMethods, ExpressionMethods, OptionalExtension, QueryDsl, SelectableHelper};
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use vp_domain::Money;
use vp_ports::notice::*;
use vp_ports::store::StoreResult;

use crate::convert::{db_time, db_time_opt, utc};
use crate::errors::{corrupt, db};
use crate::models::{ChatLinkCodeRow, NoticeRow, NoticeSendRow, PartnerChatRow};
use crate::pool::db_run;
use crate::repo::{page_before, page_cursor};
use crate::schema::{chat_link_codes, notice_sends, partner_chats, partner_notices};

const ENDPOINT_DISABLED: &str = "endpoint_disabled";
const WITHDRAWAL_PAID: &str = "withdrawal_paid";
const BOT_DISCONNECTED: &str = "bot_disconnected";

fn notice_row(n: &NoticeRecord) -> NoticeRow {
    let (kind, subject_id, url, reason, amount) = match &n.kind {
        NoticeKind::EndpointDisabled { endpoint_id, url, reason } => {
            (ENDPOINT_DISABLED, endpoint_id.to_string(), Some(url.clone()), Some(reason.clone()), None)
        }
        NoticeKind::WithdrawalPaid { withdrawal_id, amount } => {
            (WITHDRAWAL_PAID, withdrawal_id.clone(), None, None, Some(amount.kopecks()))
        }
        // The bot's username is kept where an endpoint keeps its reason.
        NoticeKind::BotDisconnected { bot_id, username } => {
            (BOT_DISCONNECTED, bot_id.to_string(), None, Some(username.clone()), None)
        }
    };
    NoticeRow {
        id: n.id.clone(),
        account_id: n.account_id.to_string(),
        kind: kind.to_owned(),
        subject_id,
        url,
        reason,
        amount,
        created_at: db_time(n.created_at),
    }
}

fn notice(r: NoticeRow) -> StoreResult<NoticeRecord> {
    let kind = match (r.kind.as_str(), r.url, r.reason, r.amount) {
        (ENDPOINT_DISABLED, Some(url), Some(reason), _) => {
            NoticeKind::EndpointDisabled { endpoint_id: EndpointId::issued(r.subject_id), url, reason }
        }
        (WITHDRAWAL_PAID, _, _, Some(amount)) => {
            NoticeKind::WithdrawalPaid { withdrawal_id: r.subject_id, amount: Money::from_kopecks(amount) }
        }
        (BOT_DISCONNECTED, _, Some(username), _) if r.subject_id.parse::<i64>().is_ok() => {
            NoticeKind::BotDisconnected { bot_id: r.subject_id.parse().unwrap_or_default(), username }
        }
        (kind, ..) => return Err(corrupt(format!("stored notice {} of kind {kind:?} is incomplete", r.id))),
    };
    Ok(NoticeRecord { id: r.id, account_id: AccountId::issued(r.account_id), kind, created_at: utc(r.created_at) })
}

fn send_row(s: &NoticeSend) -> NoticeSendRow {
    NoticeSendRow {
        notice_id: s.notice_id.clone(),
        chat_id: s.chat_id,
        attempts: i32::try_from(s.attempts).unwrap_or(i32::MAX),
        next_attempt_at: db_time_opt(s.next_attempt_at),
        sent_at: db_time_opt(s.sent_at),
        last_error: s.last_error.clone(),
    }
}

fn send(r: NoticeSendRow) -> NoticeSend {
    NoticeSend {
        notice_id: r.notice_id,
        chat_id: r.chat_id,
        attempts: u32::try_from(r.attempts).unwrap_or(0),
        next_attempt_at: r.next_attempt_at.map(utc),
        sent_at: r.sent_at.map(utc),
        last_error: r.last_error,
    }
}

#[async_trait]
impl NoticeRepo for StoreTx {
    async fn insert_notice(&mut self, n: &NoticeRecord) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = notice_row(n);
        db_run!(conn, c => diesel::insert_into(partner_notices::table).values(&row).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn notices(
        &mut self,
        account_id: &str,
        before: Option<Cursor>,
        limit: u32,
    ) -> StoreResult<Vec<NoticeRecord>> {
        use partner_notices::dsl as n;
        let conn = self.conn().await?;
        let cursor = page_cursor(before);
        let rows: Vec<NoticeRow> = db_run!(conn, c => {
            let notices = n::partner_notices.filter(n::account_id.eq(account_id)).select(NoticeRow::as_select());
            page_before!(notices, n::created_at, n::id, cursor, limit).load(c).await
        })
        .map_err(db)?;
        rows.into_iter().map(notice).collect()
    }

    async fn insert_notice_sends(&mut self, sends: &[NoticeSend]) -> StoreResult<()> {
        let conn = self.conn().await?;
        // One row each: SQLite's batch insert cannot leave the optional columns to their default.
        for row in sends.iter().map(send_row) {
            db_run!(conn, c => diesel::insert_into(notice_sends::table).values(&row).execute(c).await).map_err(db)?;
        }
        Ok(())
    }

    async fn notice_sends_due(&mut self, now: OffsetDateTime, limit: u32) -> StoreResult<Vec<NoticeSend>> {
        use notice_sends::dsl as s;
        let conn = self.conn().await?;
        let rows: Vec<NoticeSendRow> = db_run!(conn, c => {
            s::notice_sends
                .filter(s::next_attempt_at.le(db_time(now)))
                .select(NoticeSendRow::as_select())
                .order((s::next_attempt_at, s::notice_id, s::chat_id))
                .limit(i64::from(limit))
                .load(c)
                .await
        })
        .map_err(db)?;
        Ok(rows.into_iter().map(send).collect())
    }

    async fn claim_notice_send(&mut self, due: &NoticeSend, until: OffsetDateTime) -> StoreResult<bool> {
        use notice_sends::dsl as s;
        let conn = self.conn().await?;
        let Some(expected) = due.next_attempt_at else { return Ok(false) };
        let changed = db_run!(conn, c => {
            diesel::update(
                s::notice_sends
                    .filter(s::notice_id.eq(&due.notice_id))
                    .filter(s::chat_id.eq(due.chat_id))
                    .filter(s::next_attempt_at.eq(db_time(expected))),
            )
            .set(s::next_attempt_at.eq(db_time(until)))
            .execute(c)
            .await
        })
        .map_err(db)?;
        Ok(changed == 1)
    }

    async fn update_notice_send(&mut self, x: &NoticeSend) -> StoreResult<()> {
        use notice_sends::dsl as s;
        let conn = self.conn().await?;
        let row = send_row(x);
        db_run!(conn, c => {
            diesel::update(s::notice_sends.filter(s::notice_id.eq(&x.notice_id)).filter(s::chat_id.eq(x.chat_id)))
                .set(&row)
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn notice(&mut self, id: &str) -> StoreResult<Option<NoticeRecord>> {
        let conn = self.conn().await?;
        let row: Option<NoticeRow> = db_run!(conn, c => {
            partner_notices::table.find(id).select(NoticeRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        row.map(notice).transpose()
    }

    async fn insert_partner_chat(&mut self, chat: &PartnerChat) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = PartnerChatRow {
            account_id: chat.account_id.to_string(),
            chat_id: chat.chat_id,
            linked_by: chat.linked_by.clone(),
            lang: chat.lang.code().to_owned(),
            linked_at: db_time(chat.linked_at),
        };
        db_run!(conn, c => diesel::insert_into(partner_chats::table).values(&row).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn partner_chats(&mut self, account_id: &str) -> StoreResult<Vec<PartnerChat>> {
        use partner_chats::dsl as p;
        let conn = self.conn().await?;
        let rows: Vec<PartnerChatRow> = db_run!(conn, c => {
            p::partner_chats
                .filter(p::account_id.eq(account_id))
                .select(PartnerChatRow::as_select())
                .order((p::linked_at, p::chat_id))
                .load(c)
                .await
        })
        .map_err(db)?;
        rows.into_iter()
            .map(|r| {
                Ok(PartnerChat {
                    lang: crate::convert::lang(&r.lang)?,
                    account_id: AccountId::issued(r.account_id),
                    chat_id: r.chat_id,
                    linked_by: r.linked_by,
                    linked_at: utc(r.linked_at),
                })
            })
            .collect()
    }

    async fn delete_partner_chat(&mut self, account_id: &str, chat_id: i64) -> StoreResult<bool> {
        use partner_chats::dsl as p;
        let conn = self.conn().await?;
        let gone = db_run!(conn, c => {
            diesel::delete(p::partner_chats.filter(p::account_id.eq(account_id)).filter(p::chat_id.eq(chat_id)))
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(gone > 0)
    }

    async fn insert_chat_link_code(&mut self, code: &ChatLinkCode) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = ChatLinkCodeRow {
            code_hash: code.code_hash.clone(),
            account_id: code.account_id.to_string(),
            user_id: code.user_id.clone(),
            linked_by: code.linked_by.clone(),
            lang: code.lang.code().to_owned(),
            expires_at: db_time(code.expires_at),
        };
        db_run!(conn, c => diesel::insert_into(chat_link_codes::table).values(&row).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn take_chat_link_code(&mut self, code_hash: &str) -> StoreResult<Option<ChatLinkCode>> {
        let conn = self.conn().await?;
        let row: Option<ChatLinkCodeRow> = db_run!(conn, c => {
            diesel::delete(chat_link_codes::table.find(code_hash))
                .returning(ChatLinkCodeRow::as_returning())
                .get_result(c)
                .await
                .optional()
        })
        .map_err(db)?;
        row.map(|r| {
            Ok(ChatLinkCode {
                lang: crate::convert::lang(&r.lang)?,
                code_hash: r.code_hash,
                account_id: AccountId::issued(r.account_id),
                user_id: r.user_id,
                linked_by: r.linked_by,
                expires_at: utc(r.expires_at),
            })
        })
        .transpose()
    }

    async fn prune_chat_link_codes(&mut self, before: OffsetDateTime) -> StoreResult<u64> {
        let conn = self.conn().await?;
        let gone = db_run!(conn, c => {
            diesel::delete(chat_link_codes::table.filter(chat_link_codes::expires_at.lt(db_time(before))))
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(gone as u64)
    }
}
