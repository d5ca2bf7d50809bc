//! The page kit every customer page is built with: one layout (the partner's brand, a system
//! font stack, a width that fits a 360 px phone and a desktop, visible focus, colours that pass
//! WCAG AA), the language (`?lang`, then `Accept-Language`) with a switch, and the not-found
//! and error pages. Pages are `maud` markup, which escapes every value; no page writes markup
//! unescaped (a test below holds every file of this crate to it), the QR code's SVG included.

use actix_web::http::StatusCode;
use actix_web::web::Query;
use actix_web::{HttpRequest, HttpResponse};
use maud::{DOCTYPE, Markup, html};
use serde::Deserialize;
use vp_app::Lang;
use vp_i18n::Texts;
use vp_ports::AccountStyle;

/// The page's language: `?lang=ru|en`, else `Accept-Language`.
pub fn page_lang(req: &HttpRequest) -> Lang {
    query_lang(req).unwrap_or_else(|| {
        Lang::from_accept_language(req.headers().get("accept-language").and_then(|v| v.to_str().ok()))
    })
}

/// `?lang=`, read by every page (the kit's, not a handler's, so not an extractor).
#[derive(Deserialize)]
struct LangQuery {
    lang: Option<String>,
}

/// The language `?lang=ru|en` asks for; `None` without it, for another value, or for a query
/// that does not read.
pub fn query_lang(req: &HttpRequest) -> Option<Lang> {
    let query = Query::<LangQuery>::from_query(req.query_string()).ok()?.into_inner();
    query.lang.as_deref().and_then(Lang::from_code)
}

/// Colours: text #1b1f24 and links #0b57d0 on white, white on the #1a7f37 button: each at
/// least 4.5:1. Long links and codes wrap anywhere, so nothing runs off a phone's screen.
const STYLE: &str = "*{box-sizing:border-box}\
html{-webkit-text-size-adjust:100%}\
body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;\
font-size:1rem;line-height:1.5;color:#1b1f24;background:#f6f7f9}\
.top{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between;\
max-width:42rem;margin:0 auto;padding:1rem}\
.brand{font-weight:700;font-size:1.15rem;overflow-wrap:anywhere;display:flex;align-items:center;gap:.5rem}\
.logo{width:2rem;height:2rem;object-fit:contain;border-radius:.25rem}\
main{max-width:42rem;margin:0 auto 1rem;padding:1.25rem 1rem;background:#fff;border-radius:.75rem}\
footer{max-width:42rem;margin:0 auto;padding:0 1rem 2rem;font-size:.875rem;color:#4a5260}\
h1{font-size:1.5rem;line-height:1.25;margin:.25rem 0 1rem;overflow-wrap:anywhere}\
p,li{overflow-wrap:anywhere}\
a{color:#0b57d0}\
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,summary:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}\
code{font-size:.9rem;overflow-wrap:anywhere;word-break:break-all;background:#f0f2f5;padding:.1rem .25rem;border-radius:.25rem}\
.amount{font-size:2rem;font-weight:650;margin:.25rem 0}\
.muted{color:#4a5260}\
.lang{display:flex;gap:.75rem}.lang [aria-current]{font-weight:700;color:#1b1f24;text-decoration:none}\
button,.button{font:inherit;font-size:1.05rem;padding:.65rem 1.2rem;margin:.25rem .5rem .25rem 0;border-radius:.5rem;\
border:1px solid #5b6472;background:#fff;color:#1b1f24;cursor:pointer;text-decoration:none;display:inline-block;\
min-height:2.75rem}\
.primary{background:var(--accent,#1a7f37);color:#fff;border-color:var(--accent,#1a7f37)}\
dl{display:grid;grid-template-columns:fit-content(45%) minmax(0,1fr);gap:.25rem 1rem;margin:0 0 1rem}dt{color:#4a5260}dd{margin:0;min-width:0;overflow-wrap:anywhere}h2{font-size:1.15rem;margin:1.5rem 0 .5rem}h3{font-size:1rem;margin:0 0 .25rem}.choices{display:flex;flex-wrap:wrap;gap:.25rem .9rem;margin:0 0 .75rem}.choices [aria-current]{font-weight:700;color:#1b1f24;text-decoration:none}.app{border:1px solid #d5d9e0;border-radius:.6rem;padding:.75rem;margin:.5rem 0}.app p{margin:.25rem 0 0}.badge{display:inline-flex;flex-direction:column;justify-content:center;min-height:2.75rem;padding:.2rem .8rem;margin:.25rem .5rem .25rem 0;border-radius:.5rem;background:#1b1f24;color:#fff;text-decoration:none;font-weight:600;line-height:1.2;vertical-align:top}.badge small{font-weight:400;font-size:.7rem}details{margin:.5rem 0}summary{cursor:pointer;color:#0b57d0;padding:.25rem 0}.copy{display:flex;gap:.5rem;flex-wrap:wrap}.copy input{flex:1 1 12rem;min-width:0;font:inherit;font-size:.9rem;padding:.55rem;border:1px solid #5b6472;border-radius:.4rem}.copy button{margin:0}.qr-box{margin:0}.qr{width:min(15rem,100%);height:auto;display:block}\
.sections{max-width:42rem;margin:0 auto .75rem;padding:0 1rem;display:flex;flex-wrap:wrap;align-items:center;gap:.25rem 1rem}\
.sections [aria-current]{font-weight:700;color:#1b1f24;text-decoration:none}.sections form{margin:0}.sections button{font-size:.9rem;padding:.3rem .7rem;min-height:2.25rem;margin:0}\
fieldset.plain{border:0;padding:0;margin:0 0 .75rem}fieldset.plain legend{padding:0;font-weight:600}\
label{display:block;font-weight:600;margin:.75rem 0 .25rem}label.check{font-weight:400;margin:.25rem 0}\
input[type=email],input[type=password],input[type=text],input[type=url],input[type=number],select,textarea{font:inherit;width:100%;padding:.55rem;border:1px solid #5b6472;border-radius:.4rem;background:#fff}\
textarea:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}\
.error{color:#b3261e;font-weight:600}.ok{color:#1a7f37;font-weight:600}form.inline{display:inline}\
.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%;font-size:.9rem}th,td{text-align:left;padding:.4rem .6rem .4rem 0;border-bottom:1px solid #e3e6eb;vertical-align:top}\
td.num,th.num{text-align:right;white-space:nowrap}\
@media (max-width:40rem){table.cards thead{display:none}table.cards tr{display:block;border:1px solid #d5d9e0;\
border-radius:.6rem;padding:.4rem .75rem;margin:0 0 .6rem}table.cards td{display:grid;\
grid-template-columns:minmax(6rem,35%) 1fr;gap:.75rem;padding:.25rem 0;border:0;text-align:left;white-space:normal;\
overflow-wrap:anywhere}table.cards td::before{content:attr(data-label);color:#4a5260}}.prewrap{white-space:pre-wrap;overflow-wrap:anywhere}\
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f0f2f5;padding:.5rem;border-radius:.4rem;font-size:.85rem}\
.card{border:1px solid #d5d9e0;border-radius:.6rem;padding:.75rem;margin:.5rem 0}.card h2{margin-top:0}\
.bubble{background:#eef3fb;border-radius:.9rem .9rem .9rem .2rem;padding:.6rem .8rem;margin:.5rem 0;max-width:28rem}\
.bubble-text{white-space:pre-wrap;overflow-wrap:anywhere;margin:0}.bubble .button{display:block;text-align:center;margin:.5rem 0 0}\
.chart{display:block;width:100%;height:10rem;margin:.5rem 0}#sales h3{margin-top:1.25rem}.chart .bar{fill:#0b57d0}.chart .axis{stroke:#d5d9e0}";

/// A page of the kit: its language, the brand it is shown under, and its title.
pub struct Page<'a> {
    req: &'a HttpRequest,
    lang: Lang,
    brand: Option<&'a str>,
    style: Option<&'a AccountStyle>,
    title: &'a str,
    script: Option<&'static str>,
    /// Links under the header, for the cabinet's sections.
    nav: Option<Markup>,
    /// A signed-in page, or one with a one-time form: never stored by a browser or a proxy.
    private: bool,
    /// Its forms may lead to the payment gateway's page (a redirect after the post counts).
    forms_to_gateway: bool,
}

impl<'a> Page<'a> {
    pub fn new(req: &'a HttpRequest, lang: Lang, title: &'a str) -> Page<'a> {
        Page {
            req,
            lang,
            brand: None,
            style: None,
            title,
            script: None,
            nav: None,
            private: false,
            forms_to_gateway: false,
        }
    }

    /// The partner's brand name in the header (without it, the platform's pages).
    pub fn brand(self, brand: &'a str) -> Page<'a> {
        Page { brand: Some(brand), ..self }
    }

    /// The partner's logo, accent colour and support address (checked when they were set).
    pub fn style(self, style: &'a AccountStyle) -> Page<'a> {
        Page { style: Some(style), ..self }
    }

    /// A script of this site (`/assets/...`) the page loads at its end; pages work without it.
    pub fn with_script(self, src: &'static str) -> Page<'a> {
        Page { script: Some(src), ..self }
    }

    /// Section links under the header, on a page that is never cached.
    pub fn private_with_nav(self, nav: Markup) -> Page<'a> {
        Page { nav: Some(nav), private: true, ..self }
    }

    /// A page whose form leads on to the payment gateway (any `https:` page) and carries a
    /// one-time key, so it is never stored either.
    pub fn buying_form(self) -> Page<'a> {
        Page { private: true, forms_to_gateway: true, ..self }
    }

    pub fn render(&self, status: StatusCode, body: Markup) -> HttpResponse {
        let tx = Texts(self.lang);
        let platform = tx.get("page-platform-name");
        let no_style = AccountStyle::default();
        let style = self.style.unwrap_or(&no_style);
        let html = html! {
            (DOCTYPE)
            html lang=(self.lang.code()) {
                head {
                    meta charset="utf-8";
                    meta name="viewport" content="width=device-width,initial-scale=1";
                    title { (self.title) }
                    link rel="icon" href="/favicon.ico";
                    // STYLE and the checked accent colour hold no character markup escapes
                    // (a test holds STYLE to it), so they reach the browser as written.
                    style { (STYLE) @if let Some(c) = &style.accent_color { ":root{--accent:" (c) "}" } }
                }
                body {
                    header.top {
                        span.brand {
                            @if let Some(url) = &style.logo_url { img.logo src=(url) alt="" width="32" height="32"; }
                            (self.brand.unwrap_or(&platform))
                        }
                        (self.language_switch())
                    }
                    @if let Some(nav) = &self.nav { (nav) }
                    main { (body) }
                    @if let Some(url) = &style.support_url { footer { a href=(url) { (tx.get("page-support")) } } }
                    @if let Some(src) = self.script { script src=(src) {} }
                }
            }
        };
        let mut response = HttpResponse::build(status);
        if self.private {
            response.insert_header(("cache-control", "no-store"));
        }
        let form_action = if self.forms_to_gateway { "'self' https:" } else { "'self'" };
        response
            .content_type("text/html; charset=utf-8")
            .insert_header((
                "content-security-policy",
                format!(
                    "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data: https:; \
                     form-action {form_action}; base-uri 'none'; frame-ancestors 'none'"
                ),
            ))
            .insert_header(("x-frame-options", "DENY"))
            .insert_header(("x-content-type-options", "nosniff"))
            // Links carry tokens (connect and subscription pages): never hand them to other sites.
            .insert_header(("referrer-policy", "no-referrer"))
            .insert_header(("content-language", self.lang.code()))
            .body(html.into_string())
    }

    /// Links to this page in each language, keeping the rest of the query.
    fn language_switch(&self) -> Markup {
        let rest: Vec<&str> =
            self.req.query_string().split('&').filter(|p| !p.is_empty() && !p.starts_with("lang=")).collect();
        html! {
            nav.lang aria-label=(Texts(self.lang).get("page-language")) {
                @for lang in Lang::ALL {
                    @let choice = format!("lang={}", lang.code());
                    @let query = rest.iter().copied().chain([choice.as_str()]).collect::<Vec<_>>().join("&");
                    a href={ (self.req.path()) "?" (query) } hreflang=(lang.code()) lang=(lang.code())
                        aria-current=[(lang == self.lang).then_some("true")] { (endonym(lang)) }
                }
            }
        }
    }
}

/// A column of a `table`: its name, and whether it holds amounts (right-aligned).
pub struct Column {
    name: String,
    numeric: bool,
}

impl Column {
    pub fn text(name: String) -> Column {
        Column { name, numeric: false }
    }

    pub fn amount(name: String) -> Column {
        Column { name, numeric: true }
    }
}

/// A table that reads as columns on a wide screen and as one card per row on a phone, where
/// each cell is shown under its column's name (`data-label`).
pub fn table(columns: &[Column], rows: impl IntoIterator<Item = Vec<Markup>>) -> Markup {
    html! {
        table.cards {
            thead { tr { @for c in columns { th.num[c.numeric] { (c.name) } } } }
            tbody {
                @for row in rows {
                    tr { @for (c, cell) in columns.iter().zip(row) { td.num[c.numeric] data-label=(c.name) { (cell) } } }
                }
            }
        }
    }
}

/// Bars a `bar_chart` draws: each one's label (a day), its value and the value as read.
pub struct Bar {
    pub label: String,
    pub value: i64,
    pub shown: String,
}

/// A bar chart drawn on the server as SVG (no script needed to see it), as wide as the page at
/// any size; each bar names its label and value (`title`), and the whole is one image named
/// `caption` for screen readers, who read the table the page gives beside it.
pub fn bar_chart(caption: &str, bars: &[Bar]) -> Markup {
    const HEIGHT: i64 = 100;
    const STEP: i64 = 10;
    let width = (bars.len().max(1) as i64) * STEP;
    let top = bars.iter().map(|b| b.value).max().unwrap_or(0).max(1);
    html! {
        svg.chart viewBox=(format!("0 0 {width} {HEIGHT}")) preserveAspectRatio="none" role="img" aria-label=(caption)
            xmlns="http://www.w3.org/2000/svg" {
            title { (caption) }
            line.axis x1="0" y1=(HEIGHT) x2=(width) y2=(HEIGHT) stroke-width="1" {}
            @for (i, bar) in bars.iter().enumerate() {
                @let height = (bar.value.max(0) * (HEIGHT - 5) / top).max(i64::from(bar.value > 0));
                rect.bar x=(i as i64 * STEP + 1) y=(HEIGHT - height) width=(STEP - 2) height=(height) {
                    title { (bar.label) ": " (bar.shown) }
                }
            }
        }
    }
}

/// A language's name in itself, as a switch shows it.
fn endonym(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "English",
        Lang::Ru => "Русский",
    }
}

/// The not-found page, under the platform's name (the partner is not known when the object is
/// not), with a way on.
pub fn not_found(req: &HttpRequest, lang: Lang) -> HttpResponse {
    let tx = Texts(lang);
    let home = html! { a.button href={ "/?lang=" (lang.code()) } { (tx.get("page-not-found-home")) } };
    let why = tx.get("page-not-found-why");
    message_page(req, lang, StatusCode::NOT_FOUND, &tx.get("page-not-found-title"), &why, home)
}

/// The not-found page of a path no route took, in the page's language.
pub fn not_found_page(req: &HttpRequest) -> HttpResponse {
    not_found(req, page_lang(req))
}

/// The page for a failure on our side: the customer is told to try again.
pub fn unavailable(req: &HttpRequest, lang: Lang) -> HttpResponse {
    let tx = Texts(lang);
    let again = html! { a.button.primary href=(req.uri().to_string()) { (tx.get("page-try-again")) } };
    let why = tx.get("page-unavailable-why");
    message_page(req, lang, StatusCode::SERVICE_UNAVAILABLE, &tx.get("page-unavailable-title"), &why, again)
}

/// A page that says what happened and offers one way on.
fn message_page(
    req: &HttpRequest,
    lang: Lang,
    status: StatusCode,
    title: &str,
    why: &str,
    way_on: Markup,
) -> HttpResponse {
    Page::new(req, lang, title).render(status, html! { h1 { (title) } p { (why) } p { (way_on) } })
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    #[test]
    fn the_style_sheet_needs_no_escaping() {
        assert!(!STYLE.contains(['&', '<', '>', '"']), "maud would change these inside <style>");
    }

    #[test]
    fn no_page_writes_unescaped_markup() {
        // Built here so this file does not name it either.
        let bypass = ["Pre", "Escaped"].concat();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut stack = vec![root];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else {
                    let code = std::fs::read_to_string(&path).unwrap();
                    assert!(!code.contains(&bypass), "{} bypasses escaping", path.display());
                }
            }
        }
    }

    #[test]
    fn the_query_chooses_the_language_before_accept_language() {
        let req = |uri: &str| TestRequest::get().uri(uri).insert_header(("accept-language", "ru")).to_http_request();
        assert_eq!(page_lang(&req("/x?lang=en")), Lang::En);
        assert_eq!(page_lang(&req("/x")), Lang::Ru, "Accept-Language without ?lang");
        assert_eq!(page_lang(&req("/x?lang=de")), Lang::Ru, "an unknown ?lang falls back to the header");
        assert_eq!(page_lang(&TestRequest::get().uri("/x?a=1&lang=ru").to_http_request()), Lang::Ru);
    }

    #[actix_web::test]
    async fn a_failure_on_our_side_is_a_branded_503_page_that_offers_to_try_again() {
        let req = TestRequest::get().uri("/connect/t0k3n?lang=ru").to_http_request();
        let res = unavailable(&req, Lang::Ru);
        assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
        let body = actix_web::body::to_bytes(res.into_body()).await.unwrap();
        let html = String::from_utf8(body.to_vec()).unwrap();
        assert!(html.contains("<span class=\"brand\">Партнёрская VPN-платформа</span>"), "{html}");
        assert!(html.contains("href=\"/connect/t0k3n?lang=ru\">Попробовать снова</a>"), "{html}");
    }

    #[test]
    fn the_language_switch_keeps_the_rest_of_the_query() {
        let req = TestRequest::get().uri("/sandbox/pay/p1?x=1&lang=ru").to_http_request();
        let html = Page::new(&req, Lang::Ru, "t").language_switch().into_string();
        assert!(html.contains("href=\"/sandbox/pay/p1?x=1&amp;lang=en\""), "{html}");
        assert!(html.contains("lang=\"ru\" aria-current=\"true\">Русский"), "{html}");
    }
}
