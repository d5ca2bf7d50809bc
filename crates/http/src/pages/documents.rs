//! Legal document pages under the partner's brand name, in ru or en (`?lang`, then
//! `Accept-Language`).

use actix_web::http::StatusCode;
use actix_web::web::{Data, Path};
use actix_web::{HttpRequest, HttpResponse};
use vp_app::{App, AppError};

use super::kit::{Page, escape, not_found, page_lang, unavailable};

pub async fn show(req: HttpRequest, app: Data<App>, path: Path<(String, String)>) -> HttpResponse {
    let lang = page_lang(&req);
    let (account_id, doc_type) = path.into_inner();
    match app.document_page(&account_id, &doc_type, lang).await {
        Ok(doc) => {
            let paragraphs: String =
                doc.body.split("\n\n").map(|p| format!("<p>{}</p>", escape(p).replace('\n', "<br>"))).collect();
            Page::new(&req, lang, &doc.title)
                .brand(&doc.brand_name)
                .style(&doc.style)
                .render(StatusCode::OK, &format!("<h1>{}</h1>{paragraphs}", escape(&doc.title)))
        }
        Err(AppError::NotFound(_)) => not_found(&req, lang, None),
        Err(e) => {
            tracing::error!(error = %e, "document page failed");
            unavailable(&req, lang, None)
        }
    }
}
