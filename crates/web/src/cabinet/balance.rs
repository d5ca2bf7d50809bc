//! The balance page: what may be withdrawn and what requests hold, the withdrawal request
//! form, the requests and the ledger (paged, and as CSV).

use actix_web::http::StatusCode;
use actix_web::web::{Data, Form, Path};
use actix_web::{HttpRequest, HttpResponse};
use vp_app::balance::LEDGER_PAGE;
use vp_app::cabinet::{Actor, WITHDRAWAL_PAGE};
use vp_app::{App, AppError, Declined, Lang};
use vp_domain::withdrawal::{PAYOUT_DETAILS_MAX_CHARS, WithdrawalRefused, WithdrawalStatus};
use vp_ports::{LedgerEntry, LedgerKind, LedgerSubject, WithdrawalRecord};

use super::session;
use super::{Section, Shell, cursor, failed, when};
use crate::pages::kit::escape;

pub fn status_name(status: WithdrawalStatus, lang: Lang) -> &'static str {
    match status {
        WithdrawalStatus::Requested => lang.pick_str("requested, amount held", "запрошен, сумма удержана"),
        WithdrawalStatus::Approved => lang.pick_str("approved, to be paid", "одобрен, ожидает выплаты"),
        WithdrawalStatus::Rejected => lang.pick_str("rejected, hold released", "отклонён, сумма возвращена"),
        WithdrawalStatus::Paid => lang.pick_str("paid", "выплачен"),
    }
}

fn kind_name(kind: LedgerKind, lang: Lang) -> &'static str {
    match kind {
        LedgerKind::PartnerShareCredit => lang.pick_str("markup of a paid invoice", "наценка оплаченного счёта"),
        LedgerKind::PartnerShareReversal => {
            lang.pick_str("markup reversed (payment recalled or refunded)", "наценка списана (возврат платежа)")
        }
        LedgerKind::WithdrawalHold => lang.pick_str("withdrawal requested: held", "запрос вывода: удержание"),
        LedgerKind::WithdrawalApproval => lang.pick_str("withdrawal approved", "вывод одобрен"),
        LedgerKind::WithdrawalRelease => lang.pick_str("withdrawal rejected: hold released", "вывод отклонён: возврат"),
        LedgerKind::WithdrawalPayout => lang.pick_str("withdrawal paid out", "вывод выплачен"),
    }
}

fn subject_cell(entry: &LedgerEntry) -> String {
    match &entry.subject {
        LedgerSubject::Invoice(id) => format!("<code>{}</code>", escape(id)),
        LedgerSubject::Withdrawal(id) => {
            format!("<a href=\"/cabinet/withdrawals/{id}\"><code>{id}</code></a>", id = escape(id))
        }
    }
}

fn ledger_rows(entries: &[LedgerEntry], lang: Lang) -> String {
    entries
        .iter()
        .map(|e| {
            format!(
                "<tr><td>{at}</td><td>{what}</td><td>{subject}</td><td class=\"num\">{amount}</td>\
                 <td class=\"num\">{held}</td></tr>",
                at = when(e.created_at),
                what = kind_name(e.kind, lang),
                subject = subject_cell(e),
                amount = escape(&vp_i18n::money(lang, e.amount)),
                held = escape(&vp_i18n::money(lang, e.held)),
            )
        })
        .collect()
}

fn withdrawal_rows(list: &[WithdrawalRecord], lang: Lang) -> String {
    list.iter()
        .map(|w| {
            format!(
                "<tr><td><a href=\"/cabinet/withdrawals/{id}\"><code>{id}</code></a></td><td>{at}</td>\
                 <td class=\"num\">{amount}</td><td>{status}</td></tr>",
                id = escape(&w.id),
                at = when(w.created_at),
                amount = escape(&vp_i18n::money(lang, w.amount)),
                status = status_name(w.status, lang),
            )
        })
        .collect()
}

fn withdrawal_table(shell: &Shell<'_>, list: &[WithdrawalRecord]) -> String {
    let t = |en: &'static str, ru: &'static str| shell.t(en, ru);
    if list.is_empty() {
        return format!("<p>{}</p>", t("No requests yet.", "Запросов пока нет."));
    }
    format!(
        "<div class=\"scroll\"><table><thead><tr><th>{id}</th><th>{at}</th><th>{amount}</th><th>{status}</th>\
         </tr></thead><tbody>{rows}</tbody></table></div>",
        id = t("Request", "Запрос"),
        at = t("Requested", "Создан"),
        amount = t("Amount", "Сумма"),
        status = t("Status", "Статус"),
        rows = withdrawal_rows(list, shell.lang),
    )
}

pub async fn show(req: HttpRequest, app: Data<App>) -> HttpResponse {
    let actor = match session::actor_legacy(&req, &app).await {
        Ok(actor) => actor,
        Err(res) => return res,
    };
    render(&req, &app, &actor, StatusCode::OK, &RequestForm::default()).await
}

/// The request form as posted, with the reason it was refused.
#[derive(Default)]
struct RequestForm {
    amount: String,
    payout_details: String,
    problem: Option<(&'static str, String)>,
}

pub async fn request(req: HttpRequest, app: Data<App>, form: Form<Vec<(String, String)>>) -> HttpResponse {
    let (actor, fields) = match session::posted(&req, &app, form).await {
        Ok(found) => found,
        Err(res) => return res,
    };
    let (amount, details) = (fields.get("amount"), fields.get("payout_details"));
    match app.cabinet_request_withdrawal(&actor, amount, details).await {
        Ok(w) => session::see_other(&format!("/cabinet/withdrawals/{}?requested=1", w.id)),
        Err(AppError::Declined(Declined::Withdrawal(refused))) => {
            let problem = (refused_field(&refused), problem_text(&refused, session::lang(&req)));
            let form =
                RequestForm { amount: amount.to_owned(), payout_details: details.to_owned(), problem: Some(problem) };
            render(&req, &app, &actor, StatusCode::UNPROCESSABLE_ENTITY, &form).await
        }
        Err(e) => failed(&req, &e),
    }
}

/// The form field a refusal points at.
fn refused_field(refused: &WithdrawalRefused) -> &'static str {
    match refused {
        WithdrawalRefused::NoPayoutDetails | WithdrawalRefused::PayoutDetailsTooLong => "payout_details",
        _ => "amount",
    }
}

/// The domain's reason in the page's language.
fn problem_text(refused: &WithdrawalRefused, lang: Lang) -> String {
    match (refused, lang) {
        (WithdrawalRefused::NoPayoutDetails | WithdrawalRefused::PayoutDetailsTooLong, Lang::En) => {
            format!("Payout details: {refused}.")
        }
        (WithdrawalRefused::NoPayoutDetails | WithdrawalRefused::PayoutDetailsTooLong, Lang::Ru) => {
            format!("Реквизиты для выплаты: обязательны, не более {PAYOUT_DETAILS_MAX_CHARS} символов.")
        }
        (_, Lang::En) => format!("Amount: {refused}."),
        (WithdrawalRefused::MoreThanAvailable { .. }, Lang::Ru) => "Сумма больше доступного баланса.".to_owned(),
        (_, Lang::Ru) => {
            "Сумма: число больше нуля, не более двух знаков после точки (например, 1500 или 1500.50).".to_owned()
        }
    }
}

async fn render(req: &HttpRequest, app: &App, actor: &Actor, status: StatusCode, form: &RequestForm) -> HttpResponse {
    let before = cursor(req.query_string());
    let loaded = async {
        Ok::<_, AppError>((
            app.balance(actor.account_id()).await?,
            app.cabinet_withdrawals(actor, None).await?,
            app.ledger(actor.account_id(), before, LEDGER_PAGE).await?,
        ))
    };
    let (balance, requests, ledger) = match loaded.await {
        Ok(found) => found,
        Err(e) => return failed(req, &e),
    };
    let shell = Shell::new(req, app, actor, Section::Balance);
    let t = |en: &'static str, ru: &'static str| shell.t(en, ru);
    let lang = shell.lang;
    let problem_for = |field: &str| match &form.problem {
        Some((f, p)) if *f == field => (
            format!("<p class=\"error\" id=\"{field}_problem\" role=\"alert\">{}</p>", escape(p)),
            format!(" aria-invalid=\"true\" aria-describedby=\"{field}_problem\""),
        ),
        _ => (String::new(), String::new()),
    };
    let (amount_problem, amount_aria) = problem_for("amount");
    let (details_problem, details_aria) = problem_for("payout_details");
    let all_requests = if requests.len() == WITHDRAWAL_PAGE as usize {
        format!("<p><a href=\"/cabinet/withdrawals\">{}</a></p>", t("All requests", "Все запросы"))
    } else {
        String::new()
    };
    let last = ledger.last().map(|e| (e.created_at, e.id.as_str()));
    let older = shell.older_legacy("/cabinet/balance", ledger.len(), LEDGER_PAGE, last);
    let ledger_table = if ledger.is_empty() {
        format!("<p>{}</p>", t("No entries yet.", "Записей пока нет."))
    } else {
        format!(
            "<div class=\"scroll\"><table><thead><tr><th>{at}</th><th>{what}</th><th>{about}</th><th>{amount}</th>\
             <th>{held}</th></tr></thead><tbody>{rows}</tbody></table></div>{older}",
            at = t("When", "Когда"),
            what = t("Entry", "Запись"),
            about = t("Invoice or request", "Счёт или запрос"),
            amount = t("Available", "Доступно"),
            held = t("Held", "Удержано"),
            rows = ledger_rows(&ledger, lang),
        )
    };
    let title = t("Balance", "Баланс");
    let body = format!(
        "<h1>{title}</h1><dl>\
         <dt>{available_label}</dt><dd id=\"available\"><strong>{available}</strong></dd>\
         <dt>{held_label}</dt><dd id=\"held\">{held}</dd>\
         <dt>{total_label}</dt><dd>{total}</dd></dl>\
         <h2>{request_heading}</h2>\
         <form method=\"post\" action=\"/cabinet/withdrawals\">{csrf}\
         <label for=\"amount\">{amount_label}</label>{amount_problem}\
         <input id=\"amount\" name=\"amount\" type=\"text\" inputmode=\"decimal\" required autocomplete=\"off\" \
         placeholder=\"1500.00\" value=\"{amount}\"{amount_aria}>\
         <label for=\"payout_details\">{details_label}</label>{details_problem}\
         <textarea id=\"payout_details\" name=\"payout_details\" rows=\"4\" required maxlength=\"{max}\"{details_aria}>\
         {details}</textarea>\
         <p class=\"muted\">{request_help}</p><p><button type=\"submit\">{request}</button></p></form>\
         <h2>{requests_heading}</h2>{requests}{all_requests}\
         <h2>{ledger_heading}</h2><p><a href=\"/cabinet/balance/ledger.csv\" download>{csv}</a></p>{ledger_table}",
        available_label = t("Available to withdraw", "Доступно к выводу"),
        available = escape(&vp_i18n::money(lang, balance.available)),
        held_label = t("Held by open requests", "Удержано открытыми запросами"),
        held = escape(&vp_i18n::money(lang, balance.held)),
        total_label = t("Total owed to you", "Всего причитается"),
        total = escape(&vp_i18n::money(lang, balance.total())),
        request_heading = t("Request a withdrawal", "Запросить вывод"),
        csrf = shell.csrf_legacy(),
        amount_label = t("Amount, RUB", "Сумма, руб."),
        amount = escape(&form.amount),
        details_label = t("Payout details", "Реквизиты для выплаты"),
        max = PAYOUT_DETAILS_MAX_CHARS,
        details = escape(&form.payout_details),
        request_help = t(
            "Up to the available balance. The amount is held at once; the platform pays it out to these details.",
            "Не больше доступного баланса. Сумма удерживается сразу; платформа выплатит её по этим реквизитам."
        ),
        request = t("Request the withdrawal", "Запросить вывод"),
        requests_heading = t("Withdrawal requests", "Запросы на вывод"),
        requests = withdrawal_table(&shell, &requests),
        ledger_heading = t("Ledger", "Движение средств"),
        csv = t("Download the whole ledger (CSV)", "Скачать всё движение средств (CSV)"),
    );
    shell.render_legacy(status, title, &body)
}

/// Every request, newest first, with paging.
pub async fn list(req: HttpRequest, app: Data<App>) -> HttpResponse {
    let actor = match session::actor_legacy(&req, &app).await {
        Ok(actor) => actor,
        Err(res) => return res,
    };
    let list = match app.cabinet_withdrawals(&actor, cursor(req.query_string())).await {
        Ok(list) => list,
        Err(e) => return failed(&req, &e),
    };
    let shell = Shell::new(&req, &app, &actor, Section::Balance);
    let last = list.last().map(|w| (w.created_at, w.id.as_str()));
    let title = shell.t("Withdrawal requests", "Запросы на вывод");
    let body = format!(
        "<h1>{title}</h1>{table}{older}<p><a href=\"/cabinet/balance\">{back}</a></p>",
        table = withdrawal_table(&shell, &list),
        older = shell.older_legacy("/cabinet/withdrawals", list.len(), WITHDRAWAL_PAGE, last),
        back = shell.t("Balance", "Баланс"),
    );
    shell.render_legacy(StatusCode::OK, title, &body)
}

/// One request: its status, details and every ledger step.
pub async fn withdrawal(req: HttpRequest, app: Data<App>, id: Path<String>) -> HttpResponse {
    let actor = match session::actor_legacy(&req, &app).await {
        Ok(actor) => actor,
        Err(res) => return res,
    };
    let shell = Shell::new(&req, &app, &actor, Section::Balance);
    let t = |en: &'static str, ru: &'static str| shell.t(en, ru);
    let view = match app.own_withdrawal(&actor, &id).await {
        Ok(view) => view,
        Err(AppError::NotFound(_)) => {
            return shell.not_found(
                t("There is no such withdrawal request in your account.", "В вашем аккаунте нет такого запроса."),
                "/cabinet/balance",
                t("Balance", "Баланс"),
            );
        }
        Err(e) => return failed(&req, &e),
    };
    let w = &view.withdrawal;
    let lang = shell.lang;
    let requested = if req.query_string().split('&').any(|p| p == "requested=1") {
        format!(
            "<p class=\"ok\" role=\"status\">{}</p>",
            t(
                "The request is made and its amount is held. You will see here when it is paid.",
                "Запрос создан, сумма удержана. Здесь будет видно, когда её выплатят."
            )
        )
    } else {
        String::new()
    };
    let note = match &w.note {
        Some(n) => format!("<dt>{}</dt><dd>{}</dd>", t("Platform's note", "Комментарий платформы"), escape(n)),
        None => String::new(),
    };
    let title = t("Withdrawal request", "Запрос на вывод");
    let body = format!(
        "<h1>{title} <code>{id}</code></h1>{requested}<dl>\
         <dt>{amount_l}</dt><dd>{amount}</dd><dt>{status_l}</dt><dd id=\"status\">{status}</dd>\
         <dt>{details_l}</dt><dd class=\"prewrap\">{details}</dd><dt>{by_l}</dt><dd>{by}</dd>\
         <dt>{at_l}</dt><dd>{at}</dd><dt>{updated_l}</dt><dd>{updated}</dd>{note}</dl>\
         <h2>{steps}</h2><div class=\"scroll\"><table><thead><tr><th>{when_h}</th><th>{what_h}</th><th>{about_h}</th>\
         <th>{available_h}</th><th>{held_h}</th></tr></thead><tbody>{rows}</tbody></table></div>\
         <p><a href=\"/cabinet/balance\">{back}</a></p>",
        id = escape(&w.id),
        amount_l = t("Amount", "Сумма"),
        amount = escape(&vp_i18n::money(lang, w.amount)),
        status_l = t("Status", "Статус"),
        status = status_name(w.status, lang),
        details_l = t("Payout details", "Реквизиты"),
        details = escape(&w.payout_details),
        by_l = t("Requested by", "Кто запросил"),
        by = escape(&w.requested_by),
        at_l = t("Requested", "Создан"),
        at = when(w.created_at),
        updated_l = t("Last step", "Последний шаг"),
        updated = when(w.updated_at),
        steps = t("Ledger entries", "Записи движения средств"),
        when_h = t("When", "Когда"),
        what_h = t("Entry", "Запись"),
        about_h = t("Request", "Запрос"),
        available_h = t("Available", "Доступно"),
        held_h = t("Held", "Удержано"),
        rows = ledger_rows(&view.ledger, lang),
        back = t("Balance", "Баланс"),
    );
    shell.render_legacy(StatusCode::OK, title, &body)
}

/// The whole ledger as CSV, newest first: exact amounts with a dot and two decimals, UTC times.
pub async fn ledger_csv(req: HttpRequest, app: Data<App>) -> HttpResponse {
    let actor = match session::actor_legacy(&req, &app).await {
        Ok(actor) => actor,
        Err(res) => return res,
    };
    let entries = match app.ledger_export(&actor).await {
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

const CSV_HEADER: &str = "entry_id,created_at,kind,invoice_id,withdrawal_id,amount,held\r\n";

fn ledger_csv_text(entries: &[LedgerEntry]) -> String {
    let mut out = String::with_capacity(CSV_HEADER.len() + entries.len() * 96);
    out.push_str(CSV_HEADER);
    for e in entries {
        let (invoice, withdrawal) = match &e.subject {
            LedgerSubject::Invoice(id) => (id.as_str(), ""),
            LedgerSubject::Withdrawal(id) => ("", id.as_str()),
        };
        let at = e.created_at.format(&time::format_description::well_known::Rfc3339).unwrap_or_default();
        let row =
            [e.id.as_str(), &at, e.kind.as_str(), invoice, withdrawal, &e.amount.to_string(), &e.held.to_string()];
        out.push_str(&row.iter().map(|c| csv_cell(c)).collect::<Vec<_>>().join(","));
        out.push_str("\r\n");
    }
    out
}

/// RFC 4180 quoting where needed; a cell a spreadsheet would run as a formula is quoted with a
/// leading apostrophe (our ids and amounts never start so, but the rule costs nothing).
fn csv_cell(cell: &str) -> String {
    let cell = if cell.starts_with(['=', '+', '@']) { format!("'{cell}") } else { cell.to_owned() };
    if cell.contains([',', '"', '\r', '\n']) { format!("\"{}\"", cell.replace('"', "\"\"")) } else { cell }
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;
    use vp_domain::Money;

    use super::*;

    fn entry(id: &str, subject: LedgerSubject, kind: LedgerKind, amount: i64, held: i64) -> LedgerEntry {
        LedgerEntry {
            id: id.into(),
            account_id: "acc".into(),
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

    #[test]
    fn csv_cells_are_quoted_where_a_reader_would_misread_them() {
        assert_eq!(csv_cell("a,b"), "\"a,b\"");
        assert_eq!(csv_cell("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_cell("=1+1"), "'=1+1");
        assert_eq!(csv_cell("-1.00"), "-1.00", "negative amounts stay numbers");
    }
}
