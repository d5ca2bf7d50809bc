//! Keeping a notice: written for the cabinet in the unit of work of its cause, and queued to
//! every chat the partner linked when the platform has a notice bot.

use vp_domain::AccountId;
use vp_ports::{NoticeKind, NoticeRecord, NoticeRepo, NoticeSend};

use crate::error::AppResult;
use crate::stamp::Stamp;

#[derive(Clone)]
pub(crate) struct Notifier {
    pub(crate) stamp: Stamp,
    /// Whether the platform has a notice bot to carry notices to chats.
    pub(crate) messenger: bool,
}

impl Notifier {
    /// Keeps a notice for the account and queues it for every linked chat.
    pub(crate) async fn notify(
        &self,
        tx: &mut (impl NoticeRepo + ?Sized),
        account_id: &AccountId,
        kind: NoticeKind,
    ) -> AppResult<()> {
        let now = self.stamp.now();
        let notice = NoticeRecord { id: self.stamp.id("ntc"), account_id: account_id.clone(), kind, created_at: now };
        tx.insert_notice(&notice).await?;
        tracing::info!(target: "partner_notice", %account_id, notice_id = %notice.id, kind = ?notice.kind, "partner notice");
        if self.messenger {
            let sends: Vec<NoticeSend> = tx
                .partner_chats(account_id)
                .await?
                .into_iter()
                .map(|chat| NoticeSend {
                    notice_id: notice.id.clone(),
                    chat_id: chat.chat_id,
                    attempts: 0,
                    next_attempt_at: Some(now),
                    sent_at: None,
                    last_error: None,
                })
                .collect();
            tx.insert_notice_sends(&sends).await?;
        }
        Ok(())
    }
}
