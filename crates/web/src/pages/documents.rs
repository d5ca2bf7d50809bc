//! Legal document pages under the partner's brand name, in ru or en (`?lang`, then
//! `Accept-Language`): the document's sections, then who runs the service, how to reach them
//! and since when the text applies.

use actix_web::http::StatusCode;
use actix_web::web::{Data, Path};
use actix_web::{HttpRequest, HttpResponse};
use vp_app::catalog::{Catalog, DocumentPage};
use vp_app::{AppError, Lang};
use vp_domain::AccountId;

use maud::{Markup, html};
use vp_i18n::Texts;

use super::kit::{Page, not_found, page_lang, unavailable};

pub async fn show(req: HttpRequest, catalog: Data<Catalog>, path: Path<(String, String)>) -> HttpResponse {
    let lang = page_lang(&req);
    let (account_id, doc_type) = path.into_inner();
    // A path that names no account is a page that does not exist.
    let Ok(account_id) = AccountId::parse(&account_id) else {
        return not_found(&req, lang);
    };
    match catalog.document_page(&account_id, &doc_type, lang).await {
        Ok(doc) => Page::new(&req, lang, &doc.title)
            .brand(&doc.brand_name)
            .style(&doc.style)
            .render(StatusCode::OK, render(lang, &doc)),
        Err(AppError::NotFound(_)) => not_found(&req, lang),
        Err(e) => {
            tracing::error!(error = %e, "document page failed");
            unavailable(&req, lang)
        }
    }
}

/// Paragraphs split at blank lines, lines kept within them.
fn paragraphs(text: &str) -> Markup {
    html! {
        @for paragraph in text.split("\n\n") {
            p { @for (i, line) in paragraph.split('\n').enumerate() { @if i > 0 { br; } (line) } }
        }
    }
}

fn render(lang: Lang, doc: &DocumentPage) -> Markup {
    let tx = Texts(lang);
    html! {
        h1 { (doc.title) }
        @for s in &doc.sections {
            section {
                // The document's own section has the page's title already.
                @if s.title != doc.title { h2 { (s.title) } }
                (paragraphs(&s.body))
            }
        }
        @if let Some(op) = &doc.operator {
            h2 { (tx.get("page-document-operator")) }
            dl {
                dt { (tx.get("page-document-operator-name")) } dd { (op.name) }
                dt { (tx.get("page-document-contact")) } dd { (op.contact) }
                dt { (tx.get("page-document-since")) }
                dd { time datetime=(op.effective_date) { (tx.date(op.effective_date)) } }
            }
        }
    }
}
