//! The account's web shop over real HTTP against the real binary: its address made from the
//! brand and changed by the operator, the page in both languages under the brand with the plans
//! at the account's prices, the trial and the documents, and the branded not-found page for a
//! slug no account has.

mod support;

use support::Scratch;
use support::server::{Backend, Server};

#[test]
fn every_account_has_a_shop_address_made_from_its_brand_and_the_operator_may_change_it() {
    let s = Scratch::new("shop-slugs");
    let first = s.ok(&["account", "create", "--brand", "Быстрый VPN"]);
    let first_id = first["account"]["account_id"].as_str().unwrap().to_owned();
    let second = s.ok(&["account", "create", "--brand", "БЫСТРЫЙ vpn!"]);
    let second_id = second["account"]["account_id"].as_str().unwrap().to_owned();
    let shop = |id: &str| s.ok(&["account", "show", id])["shop_url"].as_str().unwrap().to_owned();
    assert_eq!(shop(&first_id), "http://127.0.0.1:8080/shop/bystryy-vpn");
    assert_eq!(shop(&second_id), "http://127.0.0.1:8080/shop/bystryy-vpn-2", "a taken slug is numbered");

    let set = s.ok(&["account", "set-slug", &second_id, "Swift-VPN"]);
    assert_eq!(set["shop_url"], "http://127.0.0.1:8080/shop/swift-vpn");
    assert!(s.refused(&["account", "set-slug", &second_id, "bystryy-vpn"]).contains("another account"));
    for bad in ["ab", "swift_vpn", "-swift", "cabinet", "быстрый"] {
        assert!(s.refused(&["account", "set-slug", &second_id, bad]).contains("slug"), "{bad}");
    }
    s.refused(&["account", "set-slug", "acc_missing", "some-shop"]);
    assert_eq!(shop(&second_id), "http://127.0.0.1:8080/shop/swift-vpn", "refusals change nothing");
    assert_eq!(s.ok(&["account", "set-slug", &first_id, "bystryy-vpn"])["shop_url"], shop(&first_id), "its own again");
}

#[test]
fn the_shop_page_lists_the_plans_at_the_accounts_prices_in_both_languages() {
    let Some(s) = Server::start(Backend::Sqlite, "web_shop") else { return };
    let url = s.cli(&["account", "show", &s.account_id])["shop_url"].as_str().unwrap().to_owned();
    let path = url.split_once("/shop/").map(|(_, slug)| format!("/shop/{slug}")).unwrap();
    assert_eq!(path, "/shop/demo-vpn");

    let en = s.get_raw(&format!("{path}?lang=en"), &[]);
    assert_eq!(en.status, 200);
    let page = en.text().replace('\u{a0}', " ");
    assert!(page.contains("<h1>Demo VPN: VPN subscription</h1>"), "{page}");
    assert!(page.contains("1 month: RUB 238.80"), "the demo plan with the demo markup: {page}");
    assert!(page.contains("Try it free for 72 hours"), "the demo account gives a trial: {page}");
    assert!(page.contains(">Terms of service</a>"), "the legal documents: {page}");

    let ru = s.get_raw(&path, &[("accept-language", "ru-RU")]).text().replace('\u{a0}', " ");
    assert!(ru.contains("<html lang=\"ru\"") && ru.contains("Тарифы"), "{ru}");
    assert!(ru.contains("1 месяц: 238,80 ₽"), "{ru}");
    assert!(ru.contains("бесплатно 72 часа"), "{ru}");

    s.cli(&["account", "set-style", &s.account_id, "--support-url", "https://help.demo.example/"]);
    let styled = s.get_raw(&format!("{path}?lang=en"), &[]).text();
    assert!(styled.contains("href=\"https://help.demo.example/\""), "the support address: {styled}");
    s.cli(&["account", "trial", &s.account_id, "off"]);
    let no_trial = s.get_raw(&format!("{path}?lang=en"), &[]).text();
    assert!(!no_trial.contains("Try it free"), "no trial offered when the account gives none");

    for missing in ["/shop/no-such-shop", "/shop/x", "/shop/Demo_VPN"] {
        let r = s.get_raw(missing, &[("accept-language", "ru")]);
        assert_eq!(r.status, 404, "{missing}");
        assert!(r.text().contains("Страница не найдена"), "the branded not-found page: {missing}");
    }
}
