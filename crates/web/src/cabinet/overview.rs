//! The overview: the sales figures of a chosen range (`sales`), the account as the platform set it up, the editable brand name, the keys'
//! prefixes and dates, the limits in force and shortcuts to the rest.

use actix_web::http::StatusCode;
use actix_web::web::{Data, Query};
use actix_web::{HttpRequest, HttpResponse};
use maud::html;
use serde::Deserialize;
use vp_app::AppError;
use vp_app::actor::Actor;
use vp_app::broadcasts::Broadcasts;
use vp_app::cabinet::Cabinet;
use vp_app::promotions::Promotions;
use vp_app::referrals::Referrals;
use vp_app::sales::Sales;
use vp_app::shop::Shop;
use vp_domain::limits::BRAND_NAME_MAX_CHARS;
use vp_domain::sales::SalesRange;

use super::session;
use super::{Section, Shell, SignedForm, SignedIn, failed, when};
use crate::pages::kit::{self, Column};

/// `?saved=brand` after the name was saved.
#[derive(Deserialize)]
pub struct Shown {
    saved: Option<String>,
    /// The sales figures' range (`7d`, `30d`, …); 30 days when none or another.
    range: Option<String>,
}

/// The services whose figures the overview shows beside the account's: the sales, promo codes'
/// uses, the referral program's, the latest broadcast.
type Figures = (Data<Sales>, Data<Promotions>, Data<Referrals>, Data<Broadcasts>);

pub async fn show(
    req: HttpRequest,
    (cabinet, shop): (Data<Cabinet>, Data<Shop>),
    figures: Figures,
    SignedIn(actor): SignedIn,
    shown: Query<Shown>,
) -> HttpResponse {
    let saved = shown.saved.as_deref() == Some("brand");
    let range = shown.range.as_deref().and_then(SalesRange::parse).unwrap_or(SalesRange::Days30);
    let outcome = Outcome { refused: false, saved, range };
    render(&req, (&cabinet, &shop), &figures, &actor, StatusCode::OK, outcome).await
}

pub async fn rename(
    req: HttpRequest,
    (cabinet, shop): (Data<Cabinet>, Data<Shop>),
    figures: Figures,
    form: SignedForm,
) -> HttpResponse {
    let SignedForm { actor, fields } = form;
    match cabinet.rename_brand(&actor, fields.get("brand_name")).await {
        Ok(_) => session::see_other("/cabinet?saved=brand"),
        Err(AppError::Validation(_)) => {
            let outcome = Outcome { refused: true, saved: false, range: SalesRange::Days30 };
            render(&req, (&cabinet, &shop), &figures, &actor, StatusCode::UNPROCESSABLE_ENTITY, outcome).await
        }
        Err(e) => failed(&req, &e),
    }
}

/// What the brand form says above itself: the name was refused, or saved.
struct Outcome {
    refused: bool,
    saved: bool,
    /// The sales figures' range.
    range: SalesRange,
}

async fn render(
    req: &HttpRequest,
    (cabinet, shop): (&Cabinet, &Shop),
    (sales, promotions, referrals, broadcasts): &Figures,
    actor: &Actor,
    status: StatusCode,
    outcome: Outcome,
) -> HttpResponse {
    let (overview, limits) = match cabinet.overview(actor).await {
        Ok(found) => found,
        Err(e) => return failed(req, &e),
    };
    let (promos, referrals, broadcast) = match (
        promotions.totals(actor.into()).await,
        referrals.totals(actor.into()).await,
        broadcasts.list(actor.into(), 1).await,
    ) {
        (Ok(promos), Ok(referrals), Ok(latest)) => (promos, referrals, latest.into_iter().next()),
        (Err(e), ..) | (_, Err(e), _) | (.., Err(e)) => return failed(req, &e),
    };
    let report = match sales.report(&actor.account, outcome.range).await {
        Ok(report) => report,
        Err(e) => return failed(req, &e),
    };
    let shop_url = match shop.slug(&actor.account.id).await {
        Ok(slug) => shop.url(&slug),
        Err(e) => return failed(req, &e),
    };
    let shell = Shell::new(req, actor, Section::Overview);
    let tx = shell.tx;
    let account = &overview.account;
    let on_off = |on: bool| tx.get(if on { "cabinet-overview-on" } else { "cabinet-overview-off" });
    let title = tx.get("cabinet-section-overview");
    let body = html! {
        h1 { (title) }
        @if outcome.refused {
            p.error role="alert" {
                (tx.with("cabinet-overview-brand-refused", &[("max", BRAND_NAME_MAX_CHARS.into())]))
            }
        } @else if outcome.saved {
            p.ok role="status" { (tx.get("cabinet-overview-brand-saved")) }
        }
        (super::sales::section(shell.tx, &report, &super::sales::Shown { page: "/cabinet", keep: "", help: "cabinet-sales-help", share: "cabinet-sales-share" }))
        form method="post" action="/cabinet/brand" {
            (shell.csrf_field())
            label for="brand_name" { (tx.get("cabinet-overview-brand")) }
            input #brand_name name="brand_name" type="text" required maxlength=(BRAND_NAME_MAX_CHARS)
                value=(account.brand_name.as_str()) aria-describedby="brand_help";
            p #brand_help .muted { (tx.get("cabinet-overview-brand-help")) }
            p { button type="submit" { (tx.get("cabinet-overview-brand-save")) } }
        }
        h2 { (tx.get("cabinet-overview-account")) }
        dl {
            dt { (tx.get("cabinet-overview-account-id")) } dd { code { (account.id) } }
            dt { (tx.get("cabinet-overview-markup")) } dd { (account.markup) " %" }
            dt { (tx.get("cabinet-overview-trial")) } dd { (on_off(account.trial_enabled)) }
            dt { (tx.get("cabinet-overview-shop")) } dd { a href=(shop_url) { (shop_url) } }
            dt { (tx.get("cabinet-overview-api")) }
            dd {
                (tx.get(if account.api_enabled { "cabinet-overview-api-enabled" } else { "cabinet-overview-api-disabled" }))
            }
            dt { (tx.get("cabinet-overview-available")) }
            dd { a href="/cabinet/balance" { (tx.money(overview.balance.available)) } }
            dt { (tx.get("cabinet-section-promotions")) }
            dd {
                a href="/cabinet/promotions" {
                    (tx.with("cabinet-overview-promos", &[("used", promos.spent.into()), ("amount", promos.discount_given.into())]))
                }
            }
            dt { (tx.get("cabinet-referrals")) }
            dd #overview-referrals {
                a href="/cabinet/promotions#referrals" {
                    (tx.with("cabinet-overview-referrals", &[("days", referrals.days_given.into()), ("count", referrals.invited.into())]))
                }
            }
            dt { (tx.get("cabinet-section-broadcasts")) }
            dd #overview-broadcast {
                a href="/cabinet/broadcasts" {
                    @if let Some(last) = &broadcast {
                        (tx.with("cabinet-overview-broadcast", &[
                            ("state", super::broadcasts::state(tx, last.broadcast.state).as_str().into()),
                            ("count", last.counts.sent.into()),
                            ("blocked_count", last.counts.blocked.into()),
                            ("failed_count", last.counts.failed.into()),
                            ("left_count", last.counts.left.into()),
                        ]))
                    } @else {
                        (tx.get("cabinet-overview-no-broadcast"))
                    }
                }
            }
        }
        h2 { (tx.get("cabinet-overview-keys")) }
        p.muted { (tx.get("cabinet-overview-keys-help")) }
        (kit::table(
            &["cabinet-overview-key", "cabinet-overview-key-issued", "cabinet-overview-key-state"]
                .map(|key| Column::text(tx.get(key))),
            overview.keys.iter().map(|k| {
                let state = match k.revoked_at {
                    Some(at) => html! { (tx.get("cabinet-overview-key-revoked")) " " (when(shell.zone(), at)) },
                    None => html! { (tx.get("cabinet-overview-key-active")) },
                };
                vec![html! { code { (k.prefix) "…" } }, html! { (when(shell.zone(), k.created_at)) }, state]
            }),
        ))
        h2 { (tx.get("cabinet-overview-limits")) }
        dl {
            dt { (tx.get("cabinet-overview-requests-per-minute")) } dd { (limits.requests_per_minute) }
            dt { (tx.get("cabinet-overview-invoices-per-minute")) } dd { (limits.payments_per_minute) }
            dt { (tx.get("cabinet-overview-new-clients-per-day")) } dd { (limits.new_clients_per_day) }
            dt { (tx.get("cabinet-overview-trials-per-day")) } dd { (limits.trials_per_day) }
        }
        p.muted { (tx.get("cabinet-overview-limits-help")) }
        h2 { (tx.get("cabinet-overview-more")) }
        ul {
            li { a href="/cabinet/webhooks" { (tx.get("cabinet-overview-more-webhooks")) } }
            li { a href="/cabinet/balance" { (tx.get("cabinet-overview-more-balance")) } }
            li { a href="/cabinet/clients" { (tx.get("cabinet-overview-more-clients")) } }
            li { a href="/cabinet/notices" { (tx.get("cabinet-overview-more-notices")) } }
            li { a href="/cabinet/activity" { (tx.get("cabinet-overview-more-activity")) } }
        }
    };
    shell.render(status, &title, body)
}
