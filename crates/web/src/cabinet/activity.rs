//! The Activity page: the account's audit log, newest first, fifty a page.

use actix_web::http::StatusCode;
use actix_web::web::{Data, Query};
use actix_web::{HttpRequest, HttpResponse};
use maud::html;
use vp_app::audit::{ACTIVITY_PAGE, AuditAction};
use vp_app::cabinet::Cabinet;

use crate::pages::kit::{self, Column};

use super::{ListQuery, Section, Shell, SignedIn, failed, when};

/// The catalogue key naming an action on the page.
fn action_key(action: AuditAction) -> &'static str {
    match action {
        AuditAction::UserInvited => "cabinet-action-user-invited",
        AuditAction::UserResetLink => "cabinet-action-user-reset-link",
        AuditAction::UserRevoked => "cabinet-action-user-revoked",
        AuditAction::PasswordSet => "cabinet-action-password-set",
        AuditAction::SignedIn => "cabinet-action-signed-in",
        AuditAction::SignedOut => "cabinet-action-signed-out",
        AuditAction::BrandRenamed => "cabinet-action-brand-renamed",
        AuditAction::EndpointAdded => "cabinet-action-endpoint-added",
        AuditAction::EndpointTypesChanged => "cabinet-action-endpoint-types-changed",
        AuditAction::EndpointEnabled => "cabinet-action-endpoint-enabled",
        AuditAction::EndpointDisabled => "cabinet-action-endpoint-disabled",
        AuditAction::EndpointSecretRevealed => "cabinet-action-endpoint-secret-revealed",
        AuditAction::EndpointSecretRotated => "cabinet-action-endpoint-secret-rotated",
        AuditAction::EndpointTested => "cabinet-action-endpoint-tested",
        AuditAction::EndpointReplayed => "cabinet-action-endpoint-replayed",
        AuditAction::WithdrawalRequested => "cabinet-action-withdrawal-requested",
        AuditAction::WithdrawalApproved => "cabinet-action-withdrawal-approved",
        AuditAction::WithdrawalRejected => "cabinet-action-withdrawal-rejected",
        AuditAction::WithdrawalPaid => "cabinet-action-withdrawal-paid",
        AuditAction::ChatLinked => "cabinet-action-chat-linked",
        AuditAction::ChatUnlinked => "cabinet-action-chat-unlinked",
        AuditAction::BotConnected => "cabinet-action-bot-connected",
        AuditAction::BotDisconnected => "cabinet-action-bot-disconnected",
        AuditAction::BotTokenReplaced => "cabinet-action-bot-token-replaced",
        AuditAction::RenewalLinkSet => "cabinet-action-renewal-link-set",
        AuditAction::AutoRenewOff => "cabinet-action-auto-renew-off",
        AuditAction::PromoCreated => "cabinet-action-promo-created",
        AuditAction::PromoDisabled => "cabinet-action-promo-disabled",
        AuditAction::ReferralsSet => "cabinet-action-referrals-set",
        AuditAction::BroadcastSent => "cabinet-action-broadcast-sent",
        AuditAction::BroadcastPaused => "cabinet-action-broadcast-paused",
        AuditAction::BroadcastResumed => "cabinet-action-broadcast-resumed",
        AuditAction::BroadcastCancelled => "cabinet-action-broadcast-cancelled",
        AuditAction::StarsRateSet => "cabinet-action-stars-rate-set",
        AuditAction::GiftRefunded => "cabinet-action-gift-refunded",
    }
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
                    vec![html! { (when(shell.zone(), e.at)) }, html! { (e.actor) }, html! { (tx.get(action_key(e.action))) }, html! { (e.detail) }]
                }),
            ))
            (shell.older_link("/cabinet/activity", entries.len(), ACTIVITY_PAGE, last))
        }
    };
    shell.render(StatusCode::OK, &title, body)
}
