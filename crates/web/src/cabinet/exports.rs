//! The cabinet's exports (docs/decisions.md, "Exports"): the form on the balance page and the
//! downloads (invoices, clients, ledger lines), streamed a page at a time as the application
//! layer reads them, so a year of a busy account's invoices takes the memory of one page.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use actix_web::web::{Bytes, Data, Path, Query};
use actix_web::{HttpRequest, HttpResponse};
use futures_core::Stream;
use maud::{Markup, html};
use serde::Deserialize;
use vp_app::actor::Actor;
use vp_app::cabinet::Cabinet;
use vp_app::exports::{ExportKind, ExportPage, ExportRange};
use vp_app::{AppError, AppResult};
use vp_domain::time_zone::parse_day;
use vp_i18n::Texts;
use vp_ports::Cursor;

use super::{SignedIn, failed, session};

#[derive(Deserialize)]
pub struct RangeQuery {
    #[serde(default)]
    from: String,
    #[serde(default)]
    to: String,
}

/// The form: a range of days (this month so far, to begin with) and the download button.
pub(super) fn form(tx: Texts, (first, today): (time::Date, time::Date)) -> Markup {
    html! {
        h2 { (tx.get("cabinet-exports-title")) }
        form method="get" action="/cabinet/exports/invoices.csv" {
            label for="export_from" { (tx.get("cabinet-exports-from")) }
            input #export_from name="from" type="date" required value=(first);
            label for="export_to" { (tx.get("cabinet-exports-to")) }
            input #export_to name="to" type="date" required value=(today);
            p.muted { (tx.get("cabinet-exports-help")) }
            p {
                @for kind in ExportKind::ALL {
                    button type="submit" formaction={ "/cabinet/exports/" (kind.name()) ".csv" } { (tx.get(label(kind))) }
                    " "
                }
            }
        }
    }
}

/// The button that downloads `kind`.
fn label(kind: ExportKind) -> &'static str {
    match kind {
        ExportKind::Invoices => "cabinet-exports-invoices",
        ExportKind::Clients => "cabinet-exports-clients",
        ExportKind::Ledger => "cabinet-exports-ledger",
    }
}

/// `GET /cabinet/exports/{invoices|clients|ledger}.csv?from=YYYY-MM-DD&to=YYYY-MM-DD`.
pub async fn download(
    req: HttpRequest,
    cabinet: Data<Cabinet>,
    SignedIn(actor): SignedIn,
    file: Path<String>,
    query: Query<RangeQuery>,
) -> HttpResponse {
    let kind = file.strip_suffix(".csv").and_then(ExportKind::parse);
    let Some(kind) = kind else { return crate::pages::kit::not_found(&req, session::lang(&req)) };
    let (from, to) = (parse_day(&query.from), parse_day(&query.to));
    let range = match (from, to) {
        (Some(from), Some(to)) => cabinet.export_range(&actor, from, to),
        _ => Err(AppError::field("from", "a date such as 2026-11-01")),
    };
    let range = match range {
        Ok(range) => range,
        Err(AppError::Validation(_)) => {
            let tx = Texts(session::lang(&req));
            return HttpResponse::BadRequest()
                .content_type("text/plain; charset=utf-8")
                .body(tx.with("cabinet-exports-bad-range", &[("days", vp_app::exports::RANGE_MAX_DAYS.into())]));
        }
        Err(e) => return failed(&req, &e),
    };
    let name = format!("{}-{}-{}.csv", kind.name(), query.from, query.to);
    HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header(("content-disposition", format!("attachment; filename=\"{name}\"")))
        .insert_header(("cache-control", "no-store"))
        .insert_header(("x-content-type-options", "nosniff"))
        .streaming(ExportCsv::new(cabinet, actor, kind, range))
}

type PageFuture = Pin<Box<dyn Future<Output = AppResult<ExportPage>>>>;

/// The header, then each page as it is read; the next page is asked for only once the client
/// took the last, so a slow download holds one page.
struct ExportCsv {
    cabinet: Data<Cabinet>,
    actor: Actor,
    kind: ExportKind,
    range: ExportRange,
    header_sent: bool,
    reading: Option<PageFuture>,
}

impl ExportCsv {
    fn new(cabinet: Data<Cabinet>, actor: Actor, kind: ExportKind, range: ExportRange) -> ExportCsv {
        let mut csv = ExportCsv { cabinet, actor, kind, range, header_sent: false, reading: None };
        csv.reading = Some(csv.page(None));
        csv
    }

    fn page(&self, after: Option<Cursor>) -> PageFuture {
        let (cabinet, actor, kind, range) = (self.cabinet.clone(), self.actor.clone(), self.kind, self.range);
        Box::pin(async move { cabinet.export_page(&actor, kind, range, after).await })
    }
}

impl Stream for ExportCsv {
    type Item = Result<Bytes, std::io::Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if !self.header_sent {
            self.header_sent = true;
            return Poll::Ready(Some(Ok(Bytes::from_static(self.kind.header().as_bytes()))));
        }
        let Some(reading) = self.reading.as_mut() else { return Poll::Ready(None) };
        match reading.as_mut().poll(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(Ok(page)) => {
                self.reading = page.next.map(|next| self.page(Some(next)));
                Poll::Ready(Some(Ok(Bytes::from(page.csv))))
            }
            // Headers are gone already: the download ends short, and the log says why.
            Poll::Ready(Err(e)) => {
                self.reading = None;
                tracing::error!(error = %e, export = self.kind.name(), "an export stopped");
                Poll::Ready(Some(Err(std::io::Error::other(e.to_string()))))
            }
        }
    }
}
