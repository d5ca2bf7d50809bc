//! The Activity page: the account's audit log, newest first, fifty a page.

use actix_web::http::StatusCode;
use actix_web::web::{Data, Query};
use actix_web::{HttpRequest, HttpResponse};
use maud::html;
use vp_app::cabinet::Cabinet;
use vp_app::cabinet::audit;
use vp_i18n::Texts;

use crate::pages::kit::{self, Column};

use super::{ListQuery, Section, Shell, SignedIn, failed, when};

/// The catalogue key naming an action on the page; `None` for an action this page does not
/// know (shown as recorded).
fn action_key(action: &str) -> Option<&'static str> {
    Some(match action {
        audit::USER_INVITED => "cabinet-action-user-invited",
        audit::USER_RESET_LINK => "cabinet-action-user-reset-link",
        audit::USER_REVOKED => "cabinet-action-user-revoked",
        audit::PASSWORD_SET => "cabinet-action-password-set",
        audit::SIGNED_IN => "cabinet-action-signed-in",
        audit::SIGNED_OUT => "cabinet-action-signed-out",
        audit::BRAND_RENAMED => "cabinet-action-brand-renamed",
        audit::ENDPOINT_ADDED => "cabinet-action-endpoint-added",
        audit::ENDPOINT_TYPES_CHANGED => "cabinet-action-endpoint-types-changed",
        audit::ENDPOINT_ENABLED => "cabinet-action-endpoint-enabled",
        audit::ENDPOINT_DISABLED => "cabinet-action-endpoint-disabled",
        audit::ENDPOINT_SECRET_REVEALED => "cabinet-action-endpoint-secret-revealed",
        audit::ENDPOINT_SECRET_ROTATED => "cabinet-action-endpoint-secret-rotated",
        audit::ENDPOINT_TESTED => "cabinet-action-endpoint-tested",
        audit::ENDPOINT_REPLAYED => "cabinet-action-endpoint-replayed",
        audit::WITHDRAWAL_REQUESTED => "cabinet-action-withdrawal-requested",
        audit::WITHDRAWAL_APPROVED => "cabinet-action-withdrawal-approved",
        audit::WITHDRAWAL_REJECTED => "cabinet-action-withdrawal-rejected",
        audit::WITHDRAWAL_PAID => "cabinet-action-withdrawal-paid",
        audit::CHAT_LINKED => "cabinet-action-chat-linked",
        audit::CHAT_UNLINKED => "cabinet-action-chat-unlinked",
        audit::BOT_CONNECTED => "cabinet-action-bot-connected",
        audit::BOT_DISCONNECTED => "cabinet-action-bot-disconnected",
        audit::BOT_TOKEN_REPLACED => "cabinet-action-bot-token-replaced",
        audit::RENEWAL_LINK_SET => "cabinet-action-renewal-link-set",
        audit::AUTO_RENEW_OFF => "cabinet-action-auto-renew-off",
        audit::PROMO_CREATED => "cabinet-action-promo-created",
        audit::PROMO_DISABLED => "cabinet-action-promo-disabled",
        audit::REFERRALS_SET => "cabinet-action-referrals-set",
        audit::BROADCAST_SENT => "cabinet-action-broadcast-sent",
        audit::BROADCAST_PAUSED => "cabinet-action-broadcast-paused",
        audit::BROADCAST_RESUMED => "cabinet-action-broadcast-resumed",
        audit::BROADCAST_CANCELLED => "cabinet-action-broadcast-cancelled",
        _ => return None,
    })
}

fn action_name(tx: Texts, action: &str) -> String {
    action_key(action).map_or_else(|| action.to_owned(), |key| tx.get(key))
}

pub async fn show(
    req: HttpRequest,
    cabinet: Data<Cabinet>,
    SignedIn(actor): SignedIn,
    list: Query<ListQuery>,
) -> HttpResponse {
    let entries = match cabinet.activity(&actor, list.cursor()).await {
        Ok(entries) => entries,
        Err(e) => return failed(&req, &e),
    };
    let shell = Shell::new(&req, &actor, Section::Activity);
    let tx = shell.tx;
    let last = entries.last().map(|e| (e.at, e.id.as_str()));
    let title = tx.get("cabinet-section-activity");
    let body = html! {
        h1 { (title) }
        @if entries.is_empty() {
            p { (tx.get("cabinet-activity-none")) }
        } @else {
            (kit::table(
                &["cabinet-activity-when", "cabinet-activity-who", "cabinet-activity-what", "cabinet-activity-details"]
                    .map(|key| Column::text(tx.get(key))),
                entries.iter().map(|e| {
                    vec![html! { (when(e.at)) }, html! { (e.actor) }, html! { (action_name(tx, &e.action)) }, html! { (e.detail) }]
                }),
            ))
            (shell.older_link("/cabinet/activity", entries.len(), audit::ACTIVITY_PAGE, last))
        }
    };
    shell.render(StatusCode::OK, &title, body)
}
