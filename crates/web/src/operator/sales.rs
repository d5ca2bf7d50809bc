//! The view's first page: every account's sales of a chosen range, summed (the cabinet's
//! figures and charts from the same daily rollups), and the accounts ranked by revenue, growth
//! or failure rate, each against the period before.

use actix_web::web::{Data, Query};
use actix_web::{HttpRequest, HttpResponse};
use maud::{Markup, html};
use serde::Deserialize;
use vp_app::operator_view::{AccountSales, OperatorView};
use vp_domain::sales::{AccountOrder, SalesRange};
use vp_i18n::Texts;

use super::{Operator, Section, Shell};
use crate::cabinet::failed;
use crate::cabinet::sales::{Shown as Figures, change, section};
use crate::cabinet::session::SignedIn;
use crate::pages::kit::{self, Column};

/// `?range=` (as the cabinet's, 30 days when none or another) and `?by=` (revenue when none or
/// another).
#[derive(Deserialize)]
pub struct Chosen {
    range: Option<String>,
    by: Option<String>,
}

fn order_key(order: AccountOrder) -> &'static str {
    match order {
        AccountOrder::Revenue => "operator-by-revenue",
        AccountOrder::Growth => "operator-by-growth",
        AccountOrder::Failures => "operator-by-failures",
    }
}

pub async fn show(
    req: HttpRequest,
    view: Data<OperatorView>,
    SignedIn(actor): Operator,
    chosen: Query<Chosen>,
) -> HttpResponse {
    let range = chosen.range.as_deref().and_then(SalesRange::parse).unwrap_or(SalesRange::Days30);
    let order = chosen.by.as_deref().and_then(AccountOrder::parse).unwrap_or(AccountOrder::Revenue);
    let sales = match view.sales(&actor, range, order).await {
        Ok(sales) => sales,
        Err(e) => return failed(&req, &e),
    };
    let shell = Shell::new(&req, &actor, Section::Sales);
    let tx = shell.tx;
    let title = tx.get("operator-sales-title");
    let keep = format!("&by={}", order.code());
    let shown =
        Figures { page: "/operator", keep: &keep, help: "operator-sales-help", share: "operator-partners-share" };
    let body = html! {
        h1 { (title) }
        (section(tx, &sales.report, &shown))
        section #accounts {
            h2 { (tx.get("operator-accounts")) }
            nav.choices aria-label=(tx.get("operator-accounts-order")) {
                @for o in AccountOrder::ALL {
                    a href={ "/operator?range=" (range.code()) "&by=" (o.code()) "#accounts" } aria-current=[(o == order).then_some("page")] {
                        (tx.get(order_key(o)))
                    }
                }
            }
            @if sales.accounts.is_empty() {
                p { (tx.get("cabinet-sales-none")) }
            } @else {
                (kit::table(
                    &[
                        Column::text(tx.get("operator-account")),
                        Column::amount(tx.get("cabinet-sales-gross")),
                        Column::amount(tx.get("operator-partners-share")),
                        Column::amount(tx.get("cabinet-sales-gross-before")),
                        Column::amount(tx.get("operator-growth")),
                        Column::amount(tx.get("cabinet-sales-paid")),
                        Column::amount(tx.get("cabinet-sales-declined")),
                        Column::amount(tx.get("operator-failure-rate")),
                        Column::amount(tx.get("cabinet-sales-new-clients")),
                    ],
                    sales.accounts.iter().map(|a| account_row(tx, a)),
                ))
            }
            p.muted { (tx.get("operator-accounts-help")) }
        }
    };
    shell.render(&title, body)
}

fn account_row(tx: Texts, a: &AccountSales) -> Vec<Markup> {
    let (f, before) = (&a.figures, &a.before);
    let failure = f.failure_percent().map_or_else(|| "—".to_owned(), |p| format!("{p} %"));
    vec![
        html! { span { (a.brand_name) br; small.muted { code { (a.account_id) } } } },
        html! { (tx.money(f.gross)) },
        html! { (tx.money(f.partner_share)) },
        html! { (tx.money(before.gross)) },
        html! { (change(f.gross.kopecks(), before.gross.kopecks())) },
        html! { (f.paid) },
        html! { (f.failed) },
        html! { (failure) },
        html! { (f.new_clients) },
    ]
}
