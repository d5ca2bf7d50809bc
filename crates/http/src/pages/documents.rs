//! Legal document pages under the partner's brand name, in ru or en (`?lang=`).

use actix_web::http::StatusCode;
use actix_web::web::{Data, Path};
use actix_web::{HttpRequest, HttpResponse};
use vp_app::{App, AppError, Lang};

use super::html::{escape, not_found, page};

pub async fn show(req: HttpRequest, app: Data<App>, path: Path<(String, String)>) -> HttpResponse {
    let lang = match req.query_string().split('&').find_map(|p| p.strip_prefix("lang=")) {
        Some("ru") => Lang::Ru,
        _ => Lang::En,
    };
    let (account_id, doc_type) = path.into_inner();
    match app.document_page(&account_id, &doc_type, lang).await {
        Ok((title, body)) => {
            let paragraphs: String =
                body.split("\n\n").map(|p| format!("<p>{}</p>", escape(p).replace('\n', "<br>"))).collect();
            page(StatusCode::OK, lang.code(), &title, &format!("<h1>{}</h1>{paragraphs}", escape(&title)))
        }
        Err(AppError::NotFound(_)) => not_found(lang.code()),
        Err(e) => {
            tracing::error!(error = %e, "document page failed");
            page(StatusCode::SERVICE_UNAVAILABLE, lang.code(), "Error", "<p>Temporarily unavailable.</p>")
        }
    }
}
