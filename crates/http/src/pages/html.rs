//! A tiny HTML layout with escaping; the pages are simple enough not to need templates.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse};
use vp_app::Lang;

use crate::localize::request_lang;

/// The page's language: `?lang=ru|en`, else `Accept-Language`.
pub fn page_lang(req: &HttpRequest) -> Lang {
    match req.query_string().split('&').find_map(|p| p.strip_prefix("lang=")) {
        Some("ru") => Lang::Ru,
        Some(_) => Lang::En,
        None => request_lang(req),
    }
}

pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `body` must already be escaped HTML.
pub fn page(status: StatusCode, lang: &str, title: &str, body: &str) -> HttpResponse {
    let html = format!(
        "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>{title}</title>\
         <style>body{{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.5}}\
         .amount{{font-size:2rem;font-weight:600}}button,.button{{font-size:1.1rem;padding:.6rem 1.2rem;margin:.3rem;\
         border-radius:.4rem;border:1px solid #888;background:#f4f4f4;cursor:pointer;text-decoration:none;color:#000;display:inline-block}}\
         .primary{{background:#1a7f37;color:#fff;border-color:#1a7f37}}</style></head><body>{body}</body></html>",
        title = escape(title),
    );
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .insert_header(("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'"))
        .insert_header(("x-frame-options", "DENY"))
        .body(html)
}

pub fn not_found(lang: &str) -> HttpResponse {
    let text = if lang == "ru" { "Страница не найдена." } else { "Page not found." };
    page(StatusCode::NOT_FOUND, lang, text, &format!("<p>{text}</p>"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_characters_are_escaped() {
        assert_eq!(escape("<b>\"A&B\"</b>'"), "&lt;b&gt;&quot;A&amp;B&quot;&lt;/b&gt;&#39;");
    }
}
