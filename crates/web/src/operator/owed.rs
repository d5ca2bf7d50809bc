//! What the platform owes partners: each account's balance (available and held by withdrawals
//! asked for), the total, and the withdrawals waiting to be paid, newest first.

use actix_web::web::Data;
use actix_web::{HttpRequest, HttpResponse};
use maud::html;
use vp_app::operator_view::OperatorView;
use vp_domain::withdrawal::WithdrawalStatus;

use super::{Operator, Section, Shell, utc};
use crate::cabinet::session::SignedIn;
use crate::cabinet::{failed, when};
use crate::pages::kit::{self, Column};

pub async fn show(req: HttpRequest, view: Data<OperatorView>, SignedIn(actor): Operator) -> HttpResponse {
    let owed = match view.owed(&actor).await {
        Ok(owed) => owed,
        Err(e) => return failed(&req, &e),
    };
    let shell = Shell::new(&req, &actor, Section::Owed);
    let tx = shell.tx;
    let title = tx.get("operator-owed-title");
    let status_key = |s: WithdrawalStatus| match s {
        WithdrawalStatus::Approved => "operator-withdrawal-approved",
        _ => "operator-withdrawal-requested",
    };
    let body = html! {
        h1 { (title) }
        p { (tx.with("operator-owed-total", &[("total", owed.total.total().into()), ("accounts", owed.balances.len().into())])) }
        (kit::table(
            &[
                Column::text(tx.get("operator-account")),
                Column::amount(tx.get("operator-available")),
                Column::amount(tx.get("operator-held")),
                Column::amount(tx.get("operator-owed")),
            ],
            owed.balances.iter().map(|(id, name, b)| vec![
                html! { span { (name) br; small.muted { code { (id) } } } },
                html! { (tx.money(b.available)) },
                html! { (tx.money(b.held)) },
                html! { (tx.money(b.total())) },
            ]).chain(std::iter::once(vec![
                html! { strong { (tx.get("operator-total")) } },
                html! { strong { (tx.money(owed.total.available)) } },
                html! { strong { (tx.money(owed.total.held)) } },
                html! { strong { (tx.money(owed.total.total())) } },
            ])),
        ))
        h2 #waiting { (tx.get("operator-waiting")) }
        @if owed.waiting.is_empty() {
            p { (tx.get("operator-waiting-none")) }
        } @else {
            p { (tx.with("operator-waiting-total", &[("total", owed.waiting_total.into()), ("count", owed.waiting.len().into())])) }
            @if owed.more_waiting {
                p.error role="status" { (tx.get("operator-waiting-more")) }
            }
            (kit::table(
                &[
                    Column::text(tx.get("operator-asked")),
                    Column::text(tx.get("operator-account")),
                    Column::amount(tx.get("operator-amount")),
                    Column::text(tx.get("operator-withdrawal-status")),
                    Column::text(tx.get("operator-withdrawal")),
                ],
                owed.waiting.iter().map(|(w, name)| vec![
                    html! { (when(&utc(), w.created_at)) },
                    html! { (name) },
                    html! { (tx.money(w.amount)) },
                    html! { (tx.get(status_key(w.status))) },
                    html! { code { (w.id) } },
                ]),
            ))
        }
        p.muted { (tx.get("operator-owed-help")) }
    };
    shell.render(&title, body)
}
