//! The Gifts page: the gifts bought in the account's bot and web shop, newest first, each with
//! its plan, what the buyer paid, who bought it (their client), whom it was mailed to, and where
//! it stands (waiting until its lapse, redeemed by which client, refunded, lapsed); a gift that
//! waits can be refunded to the buyer (docs/decisions.md, "Gift subscriptions").

use actix_web::http::StatusCode;
use actix_web::web::{Data, Query};
use actix_web::{HttpRequest, HttpResponse};
use maud::{Markup, html};
use serde::Deserialize;
use vp_app::AppError;
use vp_app::actor::Actor;
use vp_app::gifts::{GiftView, Gifts};
use vp_app::views::plan_term;
use vp_domain::gift::{GiftRefused, GiftState};
use vp_i18n::Texts;
use vp_ports::pages::url_encode;

use super::session;
use super::{Section, Shell, SignedForm, SignedIn, failed, said_first, when};
use crate::pages::kit::{self, Column};

/// `?refunded=pay_…` after a refund.
#[derive(Deserialize)]
pub struct Shown {
    refunded: Option<String>,
}

pub async fn show(
    req: HttpRequest,
    gifts: Data<Gifts>,
    SignedIn(actor): SignedIn,
    shown: Query<Shown>,
) -> HttpResponse {
    let tx = Texts(session::lang(&req));
    let top = shown.refunded.as_ref().map(|_| ("ok", tx.get("cabinet-gift-refunded")));
    render(&req, &gifts, &actor, StatusCode::OK, top).await
}

/// `POST /cabinet/gifts/refund`: the gift's payment back to its buyer, while nobody redeemed it.
pub async fn refund(req: HttpRequest, gifts: Data<Gifts>, form: SignedForm) -> HttpResponse {
    let SignedForm { actor, fields } = form;
    let payment_id = fields.get("payment_id").to_owned();
    let tx = Texts(session::lang(&req));
    let refused = |key: &str| Some(("error", tx.get(key)));
    let (status, top) = match gifts.refund(&actor.account, (&actor).into(), &payment_id).await {
        Ok(Ok(())) => {
            return session::see_other(&format!("/cabinet/gifts?refunded={}", url_encode(&payment_id)));
        }
        Ok(Err(GiftRefused::Unknown | GiftRefused::Unpaid)) => (StatusCode::NOT_FOUND, refused("cabinet-gift-unknown")),
        Ok(Err(GiftRefused::Redeemed)) => (StatusCode::CONFLICT, refused("cabinet-gift-refund-redeemed")),
        Ok(Err(GiftRefused::Refunded)) => (StatusCode::CONFLICT, refused("cabinet-gift-refund-refunded")),
        Ok(Err(GiftRefused::Lapsed)) => (StatusCode::CONFLICT, refused("cabinet-gift-refund-lapsed")),
        // The gateway refused or gives no refunds: the gift waits again, and the reason is said.
        Err(AppError::Conflict(reason)) => (
            StatusCode::CONFLICT,
            Some(("error", tx.with("cabinet-gift-refund-failed", &[("reason", reason.as_str().into())]))),
        ),
        Err(e) => return failed(&req, &e),
    };
    render(&req, &gifts, &actor, status, top).await
}

async fn render(
    req: &HttpRequest,
    gifts: &Gifts,
    actor: &Actor,
    status: StatusCode,
    top: Option<(&'static str, String)>,
) -> HttpResponse {
    let list = match gifts.account_gifts(&actor.account).await {
        Ok(list) => list,
        Err(e) => return failed(req, &e),
    };
    let shell = Shell::new(req, actor, Section::Gifts);
    let tx = shell.tx;
    let title = tx.get("cabinet-section-gifts");
    let columns = [
        Column::text(tx.get("cabinet-gift-bought")),
        Column::text(tx.get("cabinet-gift-plan")),
        Column::amount(tx.get("cabinet-gift-amount")),
        Column::text(tx.get("cabinet-gift-buyer")),
        Column::text(tx.get("cabinet-gift-recipient")),
        Column::text(tx.get("cabinet-gift-state")),
    ];
    let rows = list.iter().map(|g| {
        vec![
            html! { (when(shell.zone(), g.created_at)) },
            html! { (g.plan.as_ref().map(|p| plan_term(shell.lang, p)).unwrap_or_default()) },
            html! { (tx.money(g.amount)) },
            client_link(g.buyer.as_str()),
            html! { (g.recipient_email.as_deref().unwrap_or("—")) },
            state(&shell, g),
        ]
    });
    let body = html! {
        h1 { (title) }
        (said_first(&top))
        p.muted { (tx.get("cabinet-gift-intro")) }
        @if list.is_empty() {
            p { (tx.get("cabinet-gift-none")) }
        } @else {
            (kit::table(&columns, rows))
        }
    };
    shell.render(status, &title, body)
}

fn client_link(client_id: &str) -> Markup {
    html! { a href={ "/cabinet/clients/" (url_encode(client_id)) } { code { (client_id) } } }
}

/// Where the gift stands; a waiting one with its refund button.
fn state(shell: &Shell<'_>, g: &GiftView) -> Markup {
    let tx = shell.tx;
    let zone = shell.zone();
    match g.state {
        GiftState::Unpaid => html! { (tx.get("cabinet-gift-unpaid")) },
        GiftState::Waiting { lapses_at } => html! {
            (tx.with("cabinet-gift-waiting", &[("until", when(zone, lapses_at).as_str().into())]))
            form method="post" action="/cabinet/gifts/refund" {
                (shell.csrf_field())
                input type="hidden" name="payment_id" value=(g.payment_id);
                button type="submit" { (tx.get("cabinet-gift-refund")) }
            }
        },
        GiftState::Redeemed { at } => html! {
            (tx.with("cabinet-gift-redeemed", &[("at", when(zone, at).as_str().into())])) " "
            @if let Some(client) = &g.redeemed_by { (client_link(client.as_str())) }
        },
        GiftState::Refunded { at } => {
            html! { (tx.with("cabinet-gift-was-refunded", &[("at", when(zone, at).as_str().into())])) }
        }
        GiftState::Lapsed { at } => {
            html! { (tx.with("cabinet-gift-lapsed", &[("at", when(zone, at).as_str().into())])) }
        }
    }
}
