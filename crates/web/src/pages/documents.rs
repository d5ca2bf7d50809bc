//! Legal document pages under the partner's brand name, in ru or en (`?lang`, then
//! `Accept-Language`): the document's sections, then who runs the service, how to reach them
//! and since when the text applies.

use actix_web::http::StatusCode;
use actix_web::web::{Data, Path};
use actix_web::{HttpRequest, HttpResponse};
use vp_app::partner::DocumentPage;
use vp_app::{App, AppError, Lang};

use super::kit::{Page, escape, not_found, page_lang, unavailable};

pub async fn show(req: HttpRequest, app: Data<App>, path: Path<(String, String)>) -> HttpResponse {
    let lang = page_lang(&req);
    let (account_id, doc_type) = path.into_inner();
    match app.document_page(&account_id, &doc_type, lang).await {
        Ok(doc) => Page::new(&req, lang, &doc.title)
            .brand(&doc.brand_name)
            .style(&doc.style)
            .render(StatusCode::OK, &render(lang, &doc)),
        Err(AppError::NotFound(_)) => not_found(&req, lang),
        Err(e) => {
            tracing::error!(error = %e, "document page failed");
            unavailable(&req, lang)
        }
    }
}

fn paragraphs(text: &str) -> String {
    text.split("\n\n").map(|p| format!("<p>{}</p>", escape(p).replace('\n', "<br>"))).collect()
}

fn render(lang: Lang, doc: &DocumentPage) -> String {
    let t = |en: &'static str, ru: &'static str| lang.pick_str(en, ru);
    let sections: String = doc
        .sections
        .iter()
        .map(|s| {
            // The document's own section has the page's title already.
            let heading = if s.title == doc.title { String::new() } else { format!("<h2>{}</h2>", escape(&s.title)) };
            format!("<section>{heading}{}</section>", paragraphs(&s.body))
        })
        .collect();
    let operator = doc
        .operator
        .as_ref()
        .map(|op| {
            format!(
                "<h2>{about}</h2><dl><dt>{who}</dt><dd>{name}</dd><dt>{reach}</dt><dd>{contact}</dd>\
                 <dt>{since}</dt><dd><time datetime=\"{date}\">{shown}</time></dd></dl>",
                about = t("Operator", "Оператор"),
                who = t("Name", "Наименование"),
                name = escape(&op.name),
                reach = t("Contact", "Контакты"),
                contact = escape(&op.contact),
                since = t("In effect since", "Действует с"),
                date = op.effective_date,
                shown = vp_i18n::date(lang, op.effective_date),
            )
        })
        .unwrap_or_default();
    format!("<h1>{}</h1>{sections}{operator}", escape(&doc.title))
}
