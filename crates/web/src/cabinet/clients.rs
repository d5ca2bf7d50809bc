//! Clients for the partner's support staff: the list with a status filter and a search by
//! `client_id`, and one client's subscription, devices and invoices. Read-only.

use actix_web::http::StatusCode;
use actix_web::web::{Data, Path, Query};
use actix_web::{HttpRequest, HttpResponse};
use maud::{Markup, html};
use serde::Deserialize;
use vp_app::AppError;
use vp_app::cabinet::Cabinet;
use vp_app::cabinet::{CLIENT_INVOICES, ClientDetail};
use vp_app::clients::{CLIENT_PAGE_DEFAULT, ClientListQuery};
use vp_app::views::{ClientView, SubscriptionView, traffic_used_text};
use vp_domain::TimeZone;
use vp_domain::renewal::TurnedOffBy;
use vp_domain::{ClientId, InvoiceStatus, Purpose, SubscriptionStatus};
use vp_i18n::Texts;
use vp_ports::pages::url_encode;

use super::session;
use super::{Missing, Section, Shell, SignedIn, failed, when};
use crate::pages::kit::{self, Column};

/// The list's status filter as its links write it; `none`: clients without a subscription.
const FILTERS: [&str; 5] = ["all", "active", "expired", "suspended", "none"];

fn filter_key(filter: &str) -> &'static str {
    match filter {
        "active" => "cabinet-clients-filter-active",
        "expired" => "cabinet-clients-filter-expired",
        "suspended" => "cabinet-clients-filter-suspended",
        "none" => "cabinet-clients-filter-none",
        _ => "cabinet-clients-filter-all",
    }
}

fn status_name(s: Option<&SubscriptionView>, tx: Texts) -> String {
    let Some(s) = s else { return tx.get("cabinet-clients-status-none") };
    let status = tx.get(match s.status {
        SubscriptionStatus::Active => "cabinet-clients-status-active",
        SubscriptionStatus::Expired => "cabinet-clients-status-expired",
        SubscriptionStatus::Suspended => "cabinet-clients-status-suspended",
    });
    if s.is_trial { tx.with("cabinet-clients-status-trial", &[("status", (&status).into())]) } else { status }
}

fn expiry(s: Option<&SubscriptionView>, tx: Texts, zone: &TimeZone) -> String {
    match s {
        Some(s) if s.lifetime => tx.get("cabinet-clients-lifetime"),
        Some(s) => when(zone, s.expires_at),
        None => "—".to_owned(),
    }
}

/// The list's query: a `client_id` to open, the `status` filter and the next page's `cursor`.
/// An empty value counts as none; a query that does not read shows the whole list.
#[derive(Debug, Default, Deserialize)]
pub struct ClientsQuery {
    client_id: Option<String>,
    status: Option<String>,
    cursor: Option<String>,
}

fn given(value: &Option<String>) -> Option<String> {
    value.as_deref().filter(|v| !v.is_empty()).map(|v| v.trim().to_owned())
}

pub async fn list(
    req: HttpRequest,
    cabinet: Data<Cabinet>,
    SignedIn(actor): SignedIn,
    query: Option<Query<ClientsQuery>>,
) -> HttpResponse {
    let query = query.map(Query::into_inner).unwrap_or_default();
    let shell = Shell::new(&req, &actor, Section::Clients);
    let tx = shell.tx;
    let search = given(&query.client_id).unwrap_or_default();
    let mut missing = false;
    if !search.is_empty() {
        match the_client(&cabinet, &actor, &search).await {
            Ok(_) => return session::see_other(&format!("/cabinet/clients/{search}")),
            Err(AppError::NotFound(_)) => missing = true,
            Err(e) => return failed(&req, &e),
        }
    }
    let filter = given(&query.status).filter(|f| FILTERS.contains(&f.as_str())).unwrap_or_else(|| "all".to_owned());
    let status = match filter.as_str() {
        "all" => None,
        "none" => Some(None),
        other => other.parse::<SubscriptionStatus>().ok().map(Some),
    };
    let list = match cabinet
        .clients(&actor, ClientListQuery { status, limit: Some(CLIENT_PAGE_DEFAULT), cursor: given(&query.cursor) })
        .await
    {
        Ok(list) => list,
        // A cursor that does not read starts the list over.
        Err(AppError::Validation(_)) => return session::see_other(&format!("/cabinet/clients?status={filter}")),
        Err(e) => return failed(&req, &e),
    };
    let columns = [
        Column::text(tx.get("cabinet-clients-client-id")),
        Column::text(tx.get("cabinet-clients-subscription")),
        Column::text(tx.get("cabinet-clients-until")),
        Column::text(tx.get("cabinet-clients-since")),
    ];
    let title = tx.get("cabinet-section-clients");
    let body = html! {
        h1 { (title) }
        @if missing {
            p.error role="alert" { (tx.get("cabinet-clients-search-missing")) " " code { (search) } }
        }
        form method="get" action="/cabinet/clients" role="search" {
            label for="client_id" { (tx.get("cabinet-clients-find")) }
            div.copy {
                input #client_id name="client_id" type="text" autocomplete="off" value=(search);
                button type="submit" { (tx.get("cabinet-clients-find-submit")) }
            }
        }
        nav.choices aria-label=(tx.get("cabinet-clients-filter")) {
            @for f in FILTERS {
                a href={ "/cabinet/clients?status=" (f) } aria-current=[(f == filter).then_some("page")] {
                    (tx.get(filter_key(f)))
                }
            }
        }
        @if list.page.clients.is_empty() {
            p { (tx.get("cabinet-clients-none")) }
        } @else {
            (kit::table(&columns, list.page.clients.iter().map(|c| {
                let s = c.subscription.as_ref();
                vec![
                    // One element, so the phone's card layout keeps the mark beside the id.
                    html! {
                        span {
                            a href={ "/cabinet/clients/" (c.client_id) } { code { (c.client_id) } }
                            @if list.bot_customers.contains(&c.client_id) {
                                " " small.muted { (tx.get("cabinet-clients-bot-customer")) }
                            }
                        }
                    },
                    html! { (status_name(s, tx)) },
                    html! { (expiry(s, tx, shell.zone())) },
                    html! { (when(shell.zone(), c.created_at)) },
                ]
            })))
        }
        @if let Some(cursor) = &list.page.next_cursor {
            p { a href={ "/cabinet/clients?status=" (filter) "&cursor=" (cursor) } { (tx.get("cabinet-clients-more")) } }
        }
    };
    shell.render(if missing { StatusCode::NOT_FOUND } else { StatusCode::OK }, &title, body)
}

pub async fn show(
    req: HttpRequest,
    cabinet: Data<Cabinet>,
    SignedIn(actor): SignedIn,
    client_id: Path<String>,
) -> HttpResponse {
    let shell = Shell::new(&req, &actor, Section::Clients);
    let tx = shell.tx;
    let missing =
        Missing { message: "cabinet-clients-not-found", back: "/cabinet/clients", back_label: "cabinet-clients-all" };
    let detail = match shell.found(the_client(&cabinet, &actor, &client_id).await, missing) {
        Ok(detail) => detail,
        Err(page) => return page,
    };
    let title = tx.get("cabinet-clients-one");
    let turned_off = Query::<TurnedOffQuery>::from_query(req.query_string()).ok().is_some_and(|q| q.renewal.is_some());
    let body = html! {
        h1 { (title) " " code { (detail.client.client_id) } }
        @if turned_off { p.ok role="status" { (tx.get("cabinet-renewal-turned-off")) } }
        (client_section(tx, shell.zone(), &detail))
        (renewal_section(&shell, &detail))
        (stars_section(&shell, &detail))
        (devices_section(tx, shell.zone(), &detail))
        (invoices_section(tx, shell.zone(), &detail))
        p { a href="/cabinet/clients" { (tx.get("cabinet-clients-all")) } }
    };
    shell.render(StatusCode::OK, &title, body)
}

/// `?renewal=off` after support turned automatic renewal off.
#[derive(Deserialize)]
struct TurnedOffQuery {
    renewal: Option<String>,
}

/// Support turns the client's automatic renewal off; back to the client's page, which says so.
pub async fn turn_off_renewal(
    req: HttpRequest,
    cabinet: Data<Cabinet>,
    form: session::SignedForm,
    client_id: Path<String>,
) -> HttpResponse {
    let turned_off = match client_named(&client_id) {
        Ok(id) => cabinet.turn_off_auto_renew(&form.actor, &id).await,
        Err(e) => Err(e),
    };
    match turned_off {
        Ok(_) => session::see_other(&format!("/cabinet/clients/{}?renewal=off", url_encode(&client_id))),
        Err(e) => failed(&req, &e),
    }
}

/// The client id a path or the search box names: text that is no client id names no client.
fn client_named(text: &str) -> Result<ClientId, AppError> {
    ClientId::parse(text).map_err(|_| AppError::NotFound("client"))
}

/// The client the text names (`client_named`).
async fn the_client(
    cabinet: &Cabinet,
    actor: &vp_app::actor::Actor,
    client_id: &str,
) -> Result<ClientDetail, AppError> {
    cabinet.client(actor, &client_named(client_id)?).await
}

/// Who turned automatic renewal off, in the cabinet's words.
fn who_turned_off(tx: Texts, by: Option<&TurnedOffBy>) -> String {
    match by {
        Some(TurnedOffBy::Customer) => tx.get("cabinet-renewal-off-by-customer"),
        Some(TurnedOffBy::Support { email }) => {
            tx.with("cabinet-renewal-off-by-support", &[("email", email.as_str().into())])
        }
        Some(TurnedOffBy::Operator) => tx.get("cabinet-renewal-off-by-operator"),
        Some(TurnedOffBy::StarsSubscription) => tx.get("cabinet-renewal-off-by-stars"),
        None => "—".to_owned(),
    }
}

/// The customer's consent to automatic renewal as given: when, with which invoice, the words
/// they were shown, the saved method; and whether it is still on (with the button to turn it
/// off) or who turned it off and when.
fn renewal_section(shell: &Shell, d: &ClientDetail) -> Markup {
    let tx = shell.tx;
    let Some(c) = &d.renewal else { return html! {} };
    // A consent in effect: on with its saved method, or turned off.
    let on = c.turned_off_at.is_none();
    let state = match &c.turned_off_at {
        Some(at) => tx.with(
            "cabinet-renewal-off-since",
            &[
                ("when", when(shell.zone(), *at).as_str().into()),
                ("by", who_turned_off(tx, c.turned_off_by.as_ref()).as_str().into()),
            ],
        ),
        None => tx.get("cabinet-renewal-on"),
    };
    html! {
        h2 { (tx.get("cabinet-renewal-title")) }
        dl {
            dt { (tx.get("cabinet-renewal-state")) } dd #renewal-state { (state) }
            dt { (tx.get("cabinet-renewal-consented")) } dd { (when(shell.zone(), c.consented_at)) }
            dt { (tx.get("cabinet-renewal-invoice")) } dd { code { (c.payment_id) } }
            dt { (tx.get("cabinet-renewal-next-amount")) } dd { (tx.money(c.price.customer)) }
            @if let Some(title) = &c.saved_method_title { dt { (tx.get("cabinet-renewal-method")) } dd { (title) } }
            dt { (tx.get("cabinet-renewal-text")) } dd.prewrap #renewal-text { (c.text) }
        }
        @if on {
            (turn_off_form(shell, d))
        }
    }
}

/// The customer's Telegram Stars subscription: renewing (with the button that cancels it, the
/// same as for a card's renewal) or cancelled, and what Telegram says it is paid until.
fn stars_section(shell: &Shell, d: &ClientDetail) -> Markup {
    let tx = shell.tx;
    let Some(s) = &d.stars_subscription else { return html! {} };
    let state = match s.canceled_at {
        Some(at) => tx.with("cabinet-stars-canceled-since", &[("when", when(shell.zone(), at).as_str().into())]),
        None => tx.with("cabinet-stars-renewing", &[("stars", s.stars.into())]),
    };
    // The card's section has the button already when its consent is on.
    let card_on = d.renewal.as_ref().is_some_and(|c| c.turned_off_at.is_none());
    html! {
        h2 { (tx.get("cabinet-stars-title")) }
        dl {
            dt { (tx.get("cabinet-renewal-state")) } dd #stars-state { (state) }
            dt { (tx.get("cabinet-stars-first-charge")) } dd { code { (s.charge_id) } }
            dt { (tx.get("cabinet-stars-paid-until")) } dd { (when(shell.zone(), s.paid_until)) }
        }
        @if s.canceled_at.is_none() && !card_on {
            (turn_off_form(shell, d))
        }
    }
}

/// The button that turns the client's automatic renewal off: a card's and a Stars subscription.
fn turn_off_form(shell: &Shell, d: &ClientDetail) -> Markup {
    html! {
        form method="post" action={ "/cabinet/clients/" (url_encode(d.client.client_id.as_str())) "/renewal-off" } {
            (shell.csrf_field())
            button.button type="submit" { (shell.tx.get("cabinet-renewal-turn-off")) }
        }
    }
}

fn client_section(tx: Texts, zone: &TimeZone, d: &ClientDetail) -> Markup {
    let c: &ClientView = &d.client;
    let s = c.subscription.as_ref();
    let devices_limit = match s.map(|s| s.devices_limit) {
        Some(Some(n)) => n.to_string(),
        Some(None) => tx.get("cabinet-clients-unlimited"),
        None => "—".to_owned(),
    };
    html! {
        @if d.blocked { p.error { (tx.get("cabinet-clients-blocked")) } }
        dl {
            dt { (tx.get("cabinet-clients-subscription")) } dd #subscription { (status_name(s, tx)) }
            dt { (tx.get("cabinet-clients-until")) } dd { (expiry(s, tx, zone)) }
            dt { (tx.get("cabinet-clients-devices-allowed")) } dd { (devices_limit) }
            @if let Some(limit) = s.and_then(|s| s.traffic) {
                dt { (tx.get("page-subscription-traffic")) }
                dd #traffic { (traffic_used_text(tx.0, limit, d.traffic_used)) }
            }
            dt { (tx.get("cabinet-clients-link")) }
            dd.prewrap {
                @match s {
                    Some(s) => a href=(s.subscription_url) { (s.subscription_url) },
                    None => "—",
                }
            }
            dt { (tx.get("cabinet-clients-trial")) }
            dd { (tx.get(if c.trial_available { "cabinet-clients-yes" } else { "cabinet-clients-no" })) }
            dt { (tx.get("cabinet-clients-client-since")) } dd #client-since { (when(zone, c.created_at)) }
            dt { (tx.get("cabinet-clients-reachable-in-telegram")) }
            dd #reachable-in-telegram {
                (tx.get(if d.reachable_in_messenger { "cabinet-clients-yes" } else { "cabinet-clients-no" }))
            }
            @if let Some(bot) = &d.bot_activity {
                dt { (tx.get("cabinet-clients-bot-started")) } dd #bot-started { (when(zone, bot.started_at)) }
                dt { (tx.get("cabinet-clients-bot-last-seen")) } dd #bot-last-seen { (when(zone, bot.last_seen_at)) }
            }
        }
    }
}

fn devices_section(tx: Texts, zone: &TimeZone, d: &ClientDetail) -> Markup {
    let heading = tx.get("cabinet-clients-devices");
    let devices = match &d.devices {
        Err(_) => return html! { h2 { (heading) } p.muted { (tx.get("cabinet-clients-devices-unavailable")) } },
        Ok(v) if v.devices.is_empty() => {
            return html! { h2 { (heading) } p { (tx.get("cabinet-clients-devices-none")) } };
        }
        Ok(v) => v,
    };
    let columns = [
        Column::text(tx.get("cabinet-clients-hwid")),
        Column::text(tx.get("cabinet-clients-device")),
        Column::text(tx.get("cabinet-clients-connected")),
    ];
    html! {
        h2 { (tx.with("cabinet-clients-devices-count", &[("count", devices.devices_count.into())])) }
        (kit::table(&columns, devices.devices.iter().map(|dev| {
            let model = [dev.platform.as_deref(), dev.os_version.as_deref(), dev.model.as_deref()]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(" · ");
            vec![html! { code { (dev.hwid) } }, html! { (model) }, html! { (when(zone, dev.created_at)) }]
        })))
    }
}

fn invoice_status_key(s: InvoiceStatus) -> &'static str {
    match s {
        InvoiceStatus::Pending => "cabinet-clients-invoice-pending",
        InvoiceStatus::Succeeded => "cabinet-clients-invoice-paid",
        InvoiceStatus::Failed => "cabinet-clients-invoice-failed",
        InvoiceStatus::Expired => "cabinet-clients-invoice-expired",
    }
}

fn invoices_section(tx: Texts, zone: &TimeZone, d: &ClientDetail) -> Markup {
    let heading = tx.get("cabinet-clients-invoices");
    if d.invoices.is_empty() {
        return html! { h2 { (heading) } p { (tx.get("cabinet-clients-invoices-none")) } };
    }
    let columns = [
        Column::text(tx.get("cabinet-clients-payment-id")),
        Column::text(tx.get("cabinet-clients-created")),
        Column::text(tx.get("cabinet-clients-for")),
        Column::amount(tx.get("cabinet-clients-customer-paid")),
        Column::amount(tx.get("cabinet-clients-markup")),
        Column::text(tx.get("cabinet-clients-status")),
    ];
    html! {
        h2 { (heading) }
        (kit::table(&columns, d.invoices.iter().map(|i| {
            let what = match i.purpose {
                Purpose::Subscription { plan_id } => {
                    tx.with("cabinet-clients-invoice-plan", &[("plan", (&plan_id.to_string()).into())])
                }
                Purpose::Devices { count } => tx.with("cabinet-clients-invoice-devices", &[("count", count.into())]),
            };
            // The code it was bought with: the discount came out of the markup shown.
            let promo = i.promo.as_ref().map(|p| match p.extra_days {
                0 => tx.with("cabinet-clients-invoice-promo", &[("code", p.code.as_str().into()), ("amount", p.discount.into())]),
                days => tx.with("cabinet-clients-invoice-promo-days", &[("code", p.code.as_str().into()), ("days", days.into())]),
            });
            vec![
                html! { code { (i.payment_id) } },
                html! { (when(zone, i.created_at)) },
                html! { (what) @if let Some(p) = &promo { br; span.muted { (p) } } },
                html! { (tx.money(i.amounts.customer)) },
                html! { (tx.money(i.amounts.partner_share)) },
                html! { (tx.get(invoice_status_key(i.status))) },
            ]
        })))
        @if d.invoices.len() == CLIENT_INVOICES as usize {
            p.muted { (tx.get("cabinet-clients-invoices-newest")) }
        }
    }
}
