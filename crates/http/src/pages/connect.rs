//! The https page behind `connect_url`: opens the application with the subscription (messenger
//! buttons refuse custom schemes, so they link here), and offers the install links and the
//! link for manual import when the app is not installed yet.

use actix_web::http::StatusCode;
use actix_web::web::{Data, Path};
use actix_web::{HttpRequest, HttpResponse};
use vp_app::{App, AppError};

use super::kit::{Page, escape, not_found, page_lang, unavailable};

pub async fn show(req: HttpRequest, app: Data<App>, path: Path<(String, String)>) -> HttpResponse {
    let lang = page_lang(&req);
    let (token, app_id) = path.into_inner();
    let p = match app.connect_page(&token, &app_id, lang).await {
        Ok(p) => p,
        Err(AppError::NotFound(_)) => return not_found(&req, lang, None),
        Err(e) => {
            tracing::error!(error = %e, "connect page failed");
            return unavailable(&req, lang, None);
        }
    };
    let t = |en: &'static str, ru: &'static str| lang.pick_str(en, ru);
    let installs: String = p
        .install_links
        .iter()
        .map(|l| format!("<li><a href=\"{}\">{}</a></li>", escape(&l.url), escape(&l.label)))
        .collect();
    let body = format!(
        "<h1>{open} {app}</h1><p><a class=\"button primary\" href=\"{deep}\">{open} {app}</a></p>\
         <p>{missing}</p><ul>{installs}</ul><p>{manual}</p><p><code>{url}</code></p>",
        deep = escape(&p.deep_link),
        open = t("Open in", "Открыть в"),
        app = escape(&p.app_name),
        missing = t("No application yet? Install it first:", "Нет приложения? Сначала установите его:"),
        manual = t("Or add this subscription link by hand:", "Или добавьте ссылку на подписку вручную:"),
        url = escape(&p.subscription_url),
    );
    // The page also sends the browser to the app at once; the button stays for browsers that
    // block automatic opening of custom schemes.
    let mut res = Page::new(&req, lang, &p.brand_name).brand(&p.brand_name).render(StatusCode::OK, &body);
    if let Ok(v) = actix_web::http::header::HeaderValue::from_str(&format!("0; url={}", p.deep_link)) {
        res.headers_mut().insert(actix_web::http::header::HeaderName::from_static("refresh"), v);
    }
    res
}
