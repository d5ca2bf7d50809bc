//! The operators' audit: who signed in, who was invited or revoked, and each page of the view
//! an operator opened with what it showed, newest first, fifty a page.

use actix_web::web::{Data, Query};
use actix_web::{HttpRequest, HttpResponse};
use maud::html;
use vp_app::operator_view::{AUDIT_PAGE, OperatorView};
use vp_domain::audit::OperatorAction;

use super::{Operator, Section, Shell, utc};
use crate::cabinet::session::SignedIn;
use crate::cabinet::{ListQuery, cursor_value, failed, when};
use crate::pages::kit::{self, Column};

fn action_key(action: OperatorAction) -> &'static str {
    match action {
        OperatorAction::Invited => "operator-action-invited",
        OperatorAction::ResetLink => "operator-action-reset-link",
        OperatorAction::Revoked => "operator-action-revoked",
        OperatorAction::PasswordSet => "operator-action-password-set",
        OperatorAction::SignedIn => "operator-action-signed-in",
        OperatorAction::SignedOut => "operator-action-signed-out",
        OperatorAction::ViewedSales => "operator-action-viewed-sales",
        OperatorAction::ViewedLedger => "operator-action-viewed-ledger",
        OperatorAction::ViewedActivity => "operator-action-viewed-audit",
    }
}

pub async fn show(
    req: HttpRequest,
    view: Data<OperatorView>,
    SignedIn(actor): Operator,
    list: Query<ListQuery>,
) -> HttpResponse {
    let entries = match view.audit(&actor, list.cursor()).await {
        Ok(entries) => entries,
        Err(e) => return failed(&req, &e),
    };
    let shell = Shell::new(&req, &actor, Section::Audit);
    let tx = shell.tx;
    let title = tx.get("operator-audit-title");
    let older = entries.last().filter(|_| entries.len() == AUDIT_PAGE as usize);
    let body = html! {
        h1 { (title) }
        @if entries.is_empty() {
            p { (tx.get("cabinet-activity-none")) }
        } @else {
            (kit::table(
                &["cabinet-activity-when", "cabinet-activity-who", "cabinet-activity-what", "cabinet-activity-details"]
                    .map(|key| Column::text(tx.get(key))),
                entries.iter().map(|e| {
                    vec![html! { (when(&utc(), e.at)) }, html! { (e.actor) }, html! { (tx.get(action_key(e.action))) }, html! { (e.detail) }]
                }),
            ))
            @if let Some(last) = older {
                p { a href={ "/operator/audit?before=" (cursor_value(last.at, &last.id)) } { (tx.get("cabinet-older")) } }
            }
        }
        p.muted { (tx.get("operator-audit-help")) }
    };
    shell.render(&title, body)
}
