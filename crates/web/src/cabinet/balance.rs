//! The balance page: what may be withdrawn and what requests hold, the withdrawal request
//! form, the requests and the ledger (paged, and as CSV).

use actix_web::http::StatusCode;
use actix_web::web::{Data, Path, Query};
use actix_web::{HttpRequest, HttpResponse};
use maud::{Markup, html};
use serde::Deserialize;
use vp_app::actor::Actor;
use vp_app::cabinet::Cabinet;
use vp_app::cabinet::WITHDRAWAL_PAGE;
use vp_app::ledger::LEDGER_PAGE;
use vp_app::{AppError, Declined};
use vp_domain::TimeZone;
use vp_domain::WithdrawalId;
use vp_domain::money::MoneyError;
use vp_domain::withdrawal::{PAYOUT_DETAILS_MAX_CHARS, WithdrawalRefused, WithdrawalStatus};
use vp_i18n::Texts;
use vp_ports::{LedgerEntry, LedgerKind, LedgerSubject, WithdrawalRecord};

use super::session;
use super::{ListQuery, Missing, Section, Shell, SignedForm, SignedIn, failed, when};
use crate::pages::kit::{self, Column};

fn status_key(status: WithdrawalStatus) -> &'static str {
    match status {
        WithdrawalStatus::Requested => "cabinet-withdrawals-status-requested",
        WithdrawalStatus::Approved => "cabinet-withdrawals-status-approved",
        WithdrawalStatus::Rejected => "cabinet-withdrawals-status-rejected",
        WithdrawalStatus::Paid => "cabinet-withdrawals-status-paid",
    }
}

fn kind_key(kind: LedgerKind) -> &'static str {
    match kind {
        LedgerKind::PartnerShareCredit => "cabinet-balance-kind-share-credit",
        LedgerKind::PartnerShareReversal => "cabinet-balance-kind-share-reversal",
        LedgerKind::WithdrawalHold => "cabinet-balance-kind-withdrawal-hold",
        LedgerKind::WithdrawalApproval => "cabinet-balance-kind-withdrawal-approval",
        LedgerKind::WithdrawalRelease => "cabinet-balance-kind-withdrawal-release",
        LedgerKind::WithdrawalPayout => "cabinet-balance-kind-withdrawal-payout",
    }
}

fn withdrawal_link(id: &str) -> Markup {
    html! { a href={ "/cabinet/withdrawals/" (id) } { code { (id) } } }
}

/// Ledger entries as a table; `about` names the column of the invoice or request each is about.
fn ledger_table(tx: Texts, zone: &TimeZone, entries: &[LedgerEntry], about: &str) -> Markup {
    let columns = [
        Column::text(tx.get("cabinet-balance-when")),
        Column::text(tx.get("cabinet-balance-entry")),
        Column::text(tx.get(about)),
        Column::amount(tx.get("cabinet-balance-entry-available")),
        Column::amount(tx.get("cabinet-balance-entry-held")),
    ];
    kit::table(
        &columns,
        entries.iter().map(|e| {
            let subject = match &e.subject {
                LedgerSubject::Invoice(id) => html! { code { (id) } },
                LedgerSubject::Withdrawal(id) => withdrawal_link(id),
            };
            vec![
                html! { (when(zone, e.created_at)) },
                html! { (tx.get(kind_key(e.kind))) },
                subject,
                html! { (tx.money(e.amount)) },
                html! { (tx.money(e.held)) },
            ]
        }),
    )
}

fn withdrawal_table(tx: Texts, zone: &TimeZone, list: &[WithdrawalRecord]) -> Markup {
    if list.is_empty() {
        return html! { p { (tx.get("cabinet-withdrawals-none")) } };
    }
    let columns = [
        Column::text(tx.get("cabinet-withdrawals-request")),
        Column::text(tx.get("cabinet-withdrawals-requested")),
        Column::amount(tx.get("cabinet-withdrawals-amount")),
        Column::text(tx.get("cabinet-withdrawals-status")),
    ];
    kit::table(
        &columns,
        list.iter().map(|w| {
            vec![
                withdrawal_link(&w.id),
                html! { (when(zone, w.created_at)) },
                html! { (tx.money(w.amount)) },
                html! { (tx.get(status_key(w.status))) },
            ]
        }),
    )
}

pub async fn show(
    req: HttpRequest,
    cabinet: Data<Cabinet>,
    SignedIn(actor): SignedIn,
    list: Query<ListQuery>,
) -> HttpResponse {
    render(&req, &cabinet, &actor, list.cursor(), StatusCode::OK, &RequestForm::default()).await
}

/// The request form as posted, with the reason it was refused.
#[derive(Default)]
struct RequestForm {
    amount: String,
    payout_details: String,
    problem: Option<(&'static str, String)>,
}

pub async fn request(
    req: HttpRequest,
    cabinet: Data<Cabinet>,
    form: SignedForm,
    list: Query<ListQuery>,
) -> HttpResponse {
    let SignedForm { actor, fields } = form;
    let (amount, details) = (fields.get("amount"), fields.get("payout_details"));
    match cabinet.request_withdrawal(&actor, amount, details).await {
        Ok(w) => session::see_other(&format!("/cabinet/withdrawals/{}?requested=1", w.id)),
        Err(e) => match problem(&e, Texts(session::lang(&req))) {
            Some(problem) => {
                let form = RequestForm {
                    amount: amount.to_owned(),
                    payout_details: details.to_owned(),
                    problem: Some(problem),
                };
                render(&req, &cabinet, &actor, list.cursor(), StatusCode::UNPROCESSABLE_ENTITY, &form).await
            }
            None => failed(&req, &e),
        },
    }
}

/// The form field a refusal of the request points at, and the reason in the page's language;
/// `None` for a failure that is not about the form (an operator's refusals never reach it).
fn problem(e: &AppError, tx: Texts) -> Option<(&'static str, String)> {
    let AppError::Declined(Declined::Withdrawal(refused)) = e else { return None };
    let max = [("max", PAYOUT_DETAILS_MAX_CHARS.into())];
    Some(match refused {
        WithdrawalRefused::Amount(MoneyError::Malformed) => ("amount", tx.get("cabinet-withdrawals-refused-malformed")),
        WithdrawalRefused::Amount(MoneyError::Overflow) => ("amount", tx.get("cabinet-withdrawals-refused-too-large")),
        WithdrawalRefused::Amount(MoneyError::NotPositive) => {
            ("amount", tx.get("cabinet-withdrawals-refused-not-positive"))
        }
        WithdrawalRefused::MoreThanAvailable { available } => (
            "amount",
            tx.with("cabinet-withdrawals-refused-more-than-available", &[("available_amount", (*available).into())]),
        ),
        WithdrawalRefused::NoPayoutDetails => {
            ("payout_details", tx.with("cabinet-withdrawals-refused-no-details", &max))
        }
        WithdrawalRefused::PayoutDetailsTooLong => {
            ("payout_details", tx.with("cabinet-withdrawals-refused-details-too-long", &max))
        }
        WithdrawalRefused::NoteTooLong | WithdrawalRefused::Step { .. } => return None,
    })
}

async fn render(
    req: &HttpRequest,
    cabinet: &Cabinet,
    actor: &Actor,
    before: Option<vp_ports::Cursor>,
    status: StatusCode,
    form: &RequestForm,
) -> HttpResponse {
    let loaded = async {
        Ok::<_, AppError>((
            cabinet.balance(actor).await?,
            cabinet.withdrawals(actor, None).await?,
            cabinet.ledger(actor, before, LEDGER_PAGE).await?,
        ))
    };
    let (balance, requests, ledger) = match loaded.await {
        Ok(found) => found,
        Err(e) => return failed(req, &e),
    };
    let shell = Shell::new(req, actor, Section::Balance);
    let tx = shell.tx;
    let problem_for = |field: &str| match &form.problem {
        Some((f, p)) if *f == field => Some(p.as_str()),
        _ => None,
    };
    let (amount_problem, details_problem) = (problem_for("amount"), problem_for("payout_details"));
    let last = ledger.last().map(|e| (e.created_at, e.id.as_str()));
    let title = tx.get("cabinet-section-balance");
    let body = html! {
        h1 { (title) }
        dl {
            dt { (tx.get("cabinet-balance-available")) } dd #available { strong { (tx.money(balance.available)) } }
            dt { (tx.get("cabinet-balance-held")) } dd #held { (tx.money(balance.held)) }
            dt { (tx.get("cabinet-balance-total")) } dd { (tx.money(balance.total())) }
        }
        h2 { (tx.get("cabinet-balance-request")) }
        form method="post" action="/cabinet/withdrawals" {
            (shell.csrf_field())
            label for="amount" { (tx.get("cabinet-balance-amount")) }
            @if let Some(p) = amount_problem { p.error #amount_problem role="alert" { (p) } }
            input #amount name="amount" type="text" inputmode="decimal" required autocomplete="off"
                placeholder="1500.00" value=(form.amount)
                aria-invalid=[amount_problem.map(|_| "true")] aria-describedby=[amount_problem.map(|_| "amount_problem")];
            label for="payout_details" { (tx.get("cabinet-balance-payout-details")) }
            @if let Some(p) = details_problem { p.error #payout_details_problem role="alert" { (p) } }
            textarea #payout_details name="payout_details" rows="4" required maxlength=(PAYOUT_DETAILS_MAX_CHARS)
                aria-invalid=[details_problem.map(|_| "true")]
                aria-describedby=[details_problem.map(|_| "payout_details_problem")] { (form.payout_details) }
            p.muted { (tx.get("cabinet-balance-request-help")) }
            p { button type="submit" { (tx.get("cabinet-balance-request-submit")) } }
        }
        h2 { (tx.get("cabinet-withdrawals-title")) }
        (withdrawal_table(tx, shell.zone(), &requests))
        @if requests.len() == WITHDRAWAL_PAGE as usize {
            p { a href="/cabinet/withdrawals" { (tx.get("cabinet-balance-all-requests")) } }
        }
        (super::exports::form(tx, cabinet.export_defaults(actor)))
        h2 { (tx.get("cabinet-balance-ledger")) }
        p { a href="/cabinet/balance/ledger.csv" download { (tx.get("cabinet-balance-csv")) } }
        @if ledger.is_empty() {
            p { (tx.get("cabinet-balance-ledger-none")) }
        } @else {
            (ledger_table(tx, shell.zone(), &ledger, "cabinet-balance-subject"))
            (shell.older_link("/cabinet/balance", ledger.len(), LEDGER_PAGE, last))
        }
    };
    shell.render(status, &title, body)
}

/// Every request, newest first, with paging.
pub async fn list(
    req: HttpRequest,
    cabinet: Data<Cabinet>,
    SignedIn(actor): SignedIn,
    list: Query<ListQuery>,
) -> HttpResponse {
    let list = match cabinet.withdrawals(&actor, list.cursor()).await {
        Ok(list) => list,
        Err(e) => return failed(&req, &e),
    };
    let shell = Shell::new(&req, &actor, Section::Balance);
    let tx = shell.tx;
    let last = list.last().map(|w| (w.created_at, w.id.as_str()));
    let title = tx.get("cabinet-withdrawals-title");
    let body = html! {
        h1 { (title) }
        (withdrawal_table(tx, shell.zone(), &list))
        (shell.older_link("/cabinet/withdrawals", list.len(), WITHDRAWAL_PAGE, last))
        p { a href="/cabinet/balance" { (tx.get("cabinet-section-balance")) } }
    };
    shell.render(StatusCode::OK, &title, body)
}

/// `?requested=1` right after the request was made.
#[derive(Deserialize)]
pub struct Shown {
    requested: Option<String>,
}

/// One request: its status, details and every ledger step.
pub async fn withdrawal(
    req: HttpRequest,
    cabinet: Data<Cabinet>,
    SignedIn(actor): SignedIn,
    id: Path<String>,
    shown: Query<Shown>,
) -> HttpResponse {
    let shell = Shell::new(&req, &actor, Section::Balance);
    let tx = shell.tx;
    let missing = Missing {
        message: "cabinet-withdrawals-not-found",
        back: "/cabinet/balance",
        back_label: "cabinet-section-balance",
    };
    let found = match WithdrawalId::parse(&id) {
        Ok(id) => cabinet.own_withdrawal(&actor, &id).await,
        Err(_) => Err(AppError::NotFound("withdrawal")),
    };
    let view = match shell.found(found, missing) {
        Ok(view) => view,
        Err(page) => return page,
    };
    let w = &view.withdrawal;
    let title = tx.get("cabinet-withdrawals-one");
    let body = html! {
        h1 { (title) " " code { (w.id) } }
        @if shown.requested.as_deref() == Some("1") {
            p.ok role="status" { (tx.get("cabinet-withdrawals-made")) }
        }
        dl {
            dt { (tx.get("cabinet-withdrawals-amount")) } dd { (tx.money(w.amount)) }
            dt { (tx.get("cabinet-withdrawals-status")) } dd #status { (tx.get(status_key(w.status))) }
            dt { (tx.get("cabinet-withdrawals-details")) } dd.prewrap { (w.payout_details) }
            dt { (tx.get("cabinet-withdrawals-requested-by")) } dd { (w.requested_by) }
            dt { (tx.get("cabinet-withdrawals-requested")) } dd { (when(shell.zone(), w.created_at)) }
            dt { (tx.get("cabinet-withdrawals-last-step")) } dd { (when(shell.zone(), w.updated_at)) }
            @if let Some(note) = &w.note {
                dt { (tx.get("cabinet-withdrawals-note")) } dd { (note) }
            }
        }
        h2 { (tx.get("cabinet-withdrawals-ledger")) }
        (ledger_table(tx, shell.zone(), &view.ledger, "cabinet-withdrawals-request"))
        p { a href="/cabinet/balance" { (tx.get("cabinet-section-balance")) } }
    };
    shell.render(StatusCode::OK, &title, body)
}

/// The whole ledger as CSV, newest first: exact amounts with a dot and two decimals, UTC times.
pub async fn ledger_csv(req: HttpRequest, cabinet: Data<Cabinet>, SignedIn(actor): SignedIn) -> HttpResponse {
    let entries = match cabinet.ledger_export(&actor).await {
        Ok(entries) => entries,
        Err(e) => return failed(&req, &e),
    };
    HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header(("content-disposition", "attachment; filename=\"ledger.csv\""))
        .insert_header(("cache-control", "no-store"))
        .insert_header(("x-content-type-options", "nosniff"))
        .body(ledger_csv_text(&entries))
}

const CSV_HEADER: &str = vp_app::exports::ExportKind::Ledger.header();

fn ledger_csv_text(entries: &[LedgerEntry]) -> String {
    let mut out = String::with_capacity(CSV_HEADER.len() + entries.len() * 96);
    out.push_str(CSV_HEADER);
    for e in entries {
        vp_app::exports::ledger_row(&mut out, e);
    }
    out
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;
    use vp_domain::Money;

    use super::*;

    fn entry(id: &str, subject: LedgerSubject, kind: LedgerKind, amount: i64, held: i64) -> LedgerEntry {
        LedgerEntry {
            id: id.into(),
            account_id: vp_domain::AccountId::issued("acc".into()),
            subject,
            kind,
            amount: Money::from_kopecks(amount),
            held: Money::from_kopecks(held),
            created_at: datetime!(2026-11-23 10:05:00 UTC),
        }
    }

    #[test]
    fn the_csv_carries_exact_amounts_and_one_subject_per_row() {
        let rows = [
            entry("led_2", LedgerSubject::Withdrawal("wd_1".into()), LedgerKind::WithdrawalHold, -150_050, 150_050),
            entry("led_1", LedgerSubject::Invoice("pay_1".into()), LedgerKind::PartnerShareCredit, 5, 0),
        ];
        assert_eq!(
            ledger_csv_text(&rows),
            "entry_id,created_at,kind,invoice_id,withdrawal_id,amount,held\r\n\
             led_2,2026-11-23T10:05:00Z,withdrawal_hold,,wd_1,-1500.50,1500.50\r\n\
             led_1,2026-11-23T10:05:00Z,partner_share_credit,pay_1,,0.05,0.00\r\n"
        );
    }
}
