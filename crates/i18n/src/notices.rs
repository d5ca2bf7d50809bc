//! How a notice from the platform to a partner reads, the same in the cabinet's Notices page and
//! in a chat the partner linked to the notice bot.

use vp_domain::Lang;
use vp_ports::NoticeKind;

use crate::text_with;

/// The notice in `lang`, under the partner's brand.
pub fn notice_text(kind: &NoticeKind, brand: &str, lang: Lang) -> String {
    match kind {
        NoticeKind::EndpointDisabled { url, reason, .. } => text_with(
            lang,
            "notice-endpoint-disabled",
            &[("brand", brand.into()), ("url", url.into()), ("reason", reason.into())],
        ),
        NoticeKind::WithdrawalPaid { withdrawal_id, amount } => text_with(
            lang,
            "notice-withdrawal-paid",
            &[("brand", brand.into()), ("withdrawal", withdrawal_id.into()), ("amount", (*amount).into())],
        ),
        NoticeKind::BotDisconnected { username, .. } => {
            text_with(lang, "notice-bot-disconnected", &[("brand", brand.into()), ("bot", username.into())])
        }
    }
}
