//! The customer pages over real HTTP against the real binary: the page kit (language by `?lang`
//! then `Accept-Language`, the brand, amounts written per language, the security headers), the
//! start page and favicon, and the branded not-found page of every path outside the partner API.
//! The pages read through the same store code on both backends; SQLite keeps these quick.

mod support;

use support::partner::{pay, post_payment, subscription};
use support::server::{Backend, Response, Server};

const NBSP: char = '\u{a0}';

fn server(name: &str) -> Option<Server> {
    Server::start(Backend::Sqlite, name)
}

fn html(r: &Response) -> String {
    assert_eq!(r.header("content-type"), Some("text/html; charset=utf-8"), "{}", r.text());
    r.text()
}

#[test]
fn the_start_page_names_the_service_and_links_its_health_and_api_document() {
    let Some(s) = server("start_page") else { return };
    let r = s.get_raw("/", &[]);
    assert_eq!(r.status, 200);
    let page = html(&r);
    assert!(page.contains("<h1>VPN partner platform</h1>"), "{page}");
    assert!(page.contains("href=\"/api/partner/v1/openapi.json\"") && page.contains("href=\"/health\""));
    assert!(page.contains("<link rel=\"icon\" href=\"/favicon.ico\">"));
    let ru = html(&s.get_raw("/", &[("accept-language", "ru-RU,ru;q=0.9")]));
    assert!(ru.contains("<html lang=\"ru\"") && ru.contains("Партнёрская VPN-платформа"));

    let icon = s.get_raw("/favicon.ico", &[]);
    assert_eq!((icon.status, icon.header("content-type")), (200, Some("image/x-icon")));
    assert_eq!(&icon.body[..6], &[0, 0, 1, 0, 1, 0], "an ICO file with one image");
    assert_eq!(&icon.body[22..30], b"\x89PNG\r\n\x1a\n", "the image is a PNG where the directory says");
}

#[test]
fn unknown_customer_paths_get_a_branded_page_with_a_way_on_and_api_paths_keep_the_envelope() {
    let Some(s) = server("not_found_pages") else { return };
    for path in ["/connect/no-such-token", "/sandbox/pay/pay_unknown", "/payment-result/pay_unknown", "/nothing"] {
        let r = s.get_raw(path, &[]);
        assert_eq!(r.status, 404, "{path}");
        let page = html(&r);
        assert!(page.contains("<h1>Page not found</h1>") && page.contains("href=\"/?lang=en\""), "{path}: {page}");
    }
    let documents = format!("/documents/{}/no_such_document", s.account_id);
    let ru = s.get_raw(&documents, &[("accept-language", "ru")]);
    assert_eq!(ru.status, 404);
    assert!(html(&ru).contains("Страница не найдена"), "Accept-Language chooses Russian");
    let en = s.get_raw(&format!("{documents}?lang=en"), &[("accept-language", "ru")]);
    assert!(html(&en).contains("Page not found"), "?lang comes before Accept-Language");

    let api = s.get_raw("/api/partner/v1/no-such-route", &[]);
    assert_eq!((api.status, api.code().as_str()), (404, "NOT_FOUND"), "the partner API answers machines");
}

#[test]
fn payment_pages_write_the_amount_the_way_each_language_does_under_the_brand() {
    let Some(s) = server("payment_amounts") else { return };
    let inv = post_payment(&s, "amounts-1", &subscription("amounts", 1)).json();
    let id = inv["payment_id"].as_str().unwrap();
    assert_eq!(inv["amount"], "238.80");
    let sandbox = format!("/sandbox/pay/{id}");

    let ru = html(&s.get_raw(&format!("{sandbox}?lang=ru"), &[]));
    assert!(ru.contains(&format!("238,80{NBSP}₽")), "{ru}");
    assert!(ru.contains("<span class=\"brand\">Demo VPN</span>"));
    let en = html(&s.get_raw(&sandbox, &[("accept-language", "en-GB")]));
    assert!(en.contains(&format!("RUB{NBSP}238.80")), "{en}");
    assert!(
        en.contains(&format!("href=\"{sandbox}?lang=ru\" hreflang=\"ru\" lang=\"ru\">Русский</a>")),
        "a switch to the other language: {en}"
    );
    let by_header = html(&s.get_raw(&sandbox, &[("accept-language", "ru")]));
    assert!(by_header.contains(&format!("238,80{NBSP}₽")), "Accept-Language without ?lang");

    pay(&s, id);
    let result = html(&s.get_raw(&format!("/payment-result/{id}"), &[("accept-language", "ru")]));
    assert!(result.contains("Оплачено") && result.contains(&format!("238,80{NBSP}₽")), "{result}");
}

#[test]
fn documents_follow_accept_language_and_show_the_brand() {
    let Some(s) = server("document_language") else { return };
    let path = format!("/documents/{}/terms_of_service", s.account_id);
    let ru = s.get_raw(&path, &[("accept-language", "ru")]);
    assert_eq!(ru.status, 200);
    let ru = html(&ru);
    assert!(ru.contains("Пользовательское соглашение") && ru.contains("<span class=\"brand\">Demo VPN</span>"), "{ru}");
    let en = html(&s.get_raw(&format!("{path}?lang=en"), &[("accept-language", "ru")]));
    assert!(en.contains("Terms of service"), "{en}");
}

#[test]
fn every_customer_page_sends_the_kit_headers() {
    let Some(s) = server("page_headers") else { return };
    let inv = post_payment(&s, "headers-1", &subscription("headers", 1)).json();
    let id = inv["payment_id"].as_str().unwrap();
    let documents = format!("/documents/{}/privacy_policy", s.account_id);
    for path in ["/", "/nothing", &format!("/sandbox/pay/{id}"), &format!("/payment-result/{id}"), &documents] {
        let r = s.get_raw(path, &[("accept-language", "ru")]);
        let csp = r.header("content-security-policy").unwrap_or_default();
        assert!(csp.starts_with("default-src 'none'") && csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert_eq!(r.header("x-frame-options"), Some("DENY"), "{path}");
        assert_eq!(r.header("referrer-policy"), Some("no-referrer"), "{path}: links carry tokens");
        assert_eq!(r.header("content-language"), Some("ru"), "{path}");
        assert!(r.text().contains("name=\"viewport\" content=\"width=device-width,initial-scale=1\""), "{path}");
    }
}
