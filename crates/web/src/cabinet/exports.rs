//! The cabinet's exports (docs/decisions.md, "Exports"): the form on the balance page and the
//! download, streamed a page at a time as the application layer reads it, so a year of a busy
//! account's invoices takes the memory of one page.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use actix_web::web::{Bytes, Data, Query};
use actix_web::{HttpRequest, HttpResponse};
use futures_core::Stream;
use maud::{Markup, html};
use serde::Deserialize;
use vp_app::actor::Actor;
use vp_app::cabinet::Cabinet;
use vp_app::exports::{ExportPage, ExportRange, INVOICES_HEADER};
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
            p { button type="submit" { (tx.get("cabinet-exports-invoices")) } }
        }
    }
}

/// `GET /cabinet/exports/invoices.csv?from=YYYY-MM-DD&to=YYYY-MM-DD`.
pub async fn invoices_csv(
    req: HttpRequest,
    cabinet: Data<Cabinet>,
    SignedIn(actor): SignedIn,
    query: Query<RangeQuery>,
) -> HttpResponse {
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
    let name = format!("invoices-{}-{}.csv", query.from, query.to);
    HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header(("content-disposition", format!("attachment; filename=\"{name}\"")))
        .insert_header(("cache-control", "no-store"))
        .insert_header(("x-content-type-options", "nosniff"))
        .streaming(InvoicesCsv::new(cabinet, actor, range))
}

type PageFuture = Pin<Box<dyn Future<Output = AppResult<ExportPage>>>>;

/// The header, then each page as it is read; the next page is asked for only once the client
/// took the last, so a slow download holds one page.
struct InvoicesCsv {
    cabinet: Data<Cabinet>,
    actor: Actor,
    range: ExportRange,
    header_sent: bool,
    reading: Option<PageFuture>,
}

impl InvoicesCsv {
    fn new(cabinet: Data<Cabinet>, actor: Actor, range: ExportRange) -> InvoicesCsv {
        let mut csv = InvoicesCsv { cabinet, actor, range, header_sent: false, reading: None };
        csv.reading = Some(csv.page(None));
        csv
    }

    fn page(&self, after: Option<Cursor>) -> PageFuture {
        let (cabinet, actor, range) = (self.cabinet.clone(), self.actor.clone(), self.range);
        Box::pin(async move { cabinet.invoices_export_page(&actor, range, after).await })
    }
}

impl Stream for InvoicesCsv {
    type Item = Result<Bytes, std::io::Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if !self.header_sent {
            self.header_sent = true;
            return Poll::Ready(Some(Ok(Bytes::from_static(INVOICES_HEADER.as_bytes()))));
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
                tracing::error!(error = %e, "an invoices export stopped");
                Poll::Ready(Some(Err(std::io::Error::other(e.to_string()))))
            }
        }
    }
}
