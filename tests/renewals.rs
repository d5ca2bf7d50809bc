//! Automatic renewal, black-box on both backends with the service's shifted clock: the
//! customer ticks "renew automatically" on the sandbox page, and a day before the end of the
//! term the saved card is charged and the term moves on; a customer who did not tick is not
//! charged; `vp-api client auto-renew ... off` stops the next charge; a declined card leaves
//! the term to end.

use crate::support;

use support::partner::{jobs_at, post_payment, rand_suffix, subscription, term_end};
use support::server::{Backend, Server};
use time::Duration;

each_backend!(a_ticked_renewal_charges_the_saved_card_a_day_before_the_end_until_it_is_turned_off,);

/// Issues a one-month invoice for `client` and pays it on the sandbox page, with the tick when
/// `renew`; returns the invoice id.
fn pay_on_the_page(s: &Server, client: &str, renew: bool) -> String {
    let inv = post_payment(s, &format!("renew-{client}-{}", rand_suffix()), &subscription(client, 1));
    assert_eq!(inv.status, 201, "{}", inv.text());
    let id = inv.json()["payment_id"].as_str().unwrap().to_owned();
    let page = s.get_raw(&format!("/sandbox/pay/{id}?lang=en"), &[]).text().replace('\u{a0}', " ");
    assert!(page.contains(r#"<input type="checkbox" name="renew" value="on">"#), "an unticked box: {page}");
    assert!(page.contains("Renew automatically: RUB 238.80 for 1 month each time, next charge on"), "{page}");
    let form = if renew { "action=pay&renew=on" } else { "action=pay" };
    let r = s.request(
        "POST",
        &format!("/sandbox/pay/{id}?lang=en"),
        &[("content-type", "application/x-www-form-urlencoded")],
        Some(form),
    );
    assert_eq!(r.status, 303, "{}", r.text());
    let paid = s.get_raw(&format!("/sandbox/pay/{id}?lang=en"), &[]).text();
    assert_eq!(paid.contains("Automatic renewal is on"), renew, "{paid}");
    id
}

/// `subscription.auto_renew` of the client as the partner API shows it.
fn auto_renew(s: &Server, client: &str) -> Option<bool> {
    let shown = s.api("GET", &format!("/clients/{client}"), None, &[]);
    assert_eq!(shown.status, 200, "{}", shown.text());
    shown.json()["subscription"]["auto_renew"].as_bool()
}

fn a_ticked_renewal_charges_the_saved_card_a_day_before_the_end_until_it_is_turned_off(backend: Backend) {
    let Some(s) = Server::start_with(backend, "renewals", &[("VP_SHIFTED_CLOCK", "on")]) else { return };
    pay_on_the_page(&s, "ticked", true);
    pay_on_the_page(&s, "unticked", false);
    let end = term_end(&s, "ticked");
    let unticked_end = term_end(&s, "unticked");
    assert_eq!(auto_renew(&s, "ticked"), Some(true), "the partner sees it on");
    assert_eq!(auto_renew(&s, "unticked"), Some(false));

    jobs_at(&s, end - Duration::hours(25));
    assert_eq!(term_end(&s, "ticked"), end, "not charged before the day before the end");
    jobs_at(&s, end - Duration::hours(24));
    let renewed = term_end(&s, "ticked");
    assert_eq!(renewed, vp_domain::subscription::add_months(end, 1), "charged, and the term moved on a month");
    assert_eq!(term_end(&s, "unticked"), unticked_end, "no tick, no charge");
    s.cli(&["jobs"]);
    assert_eq!(term_end(&s, "ticked"), renewed, "once per term");

    // Turned off: the next term is not charged and ends.
    let off = s.cli(&["client", "auto-renew", &s.account_id, "ticked", "off"]);
    assert_eq!((off["was_on"].as_bool(), off["charge_under_way"].as_bool()), (Some(true), Some(false)), "{off}");
    assert_eq!(auto_renew(&s, "ticked"), Some(false), "and off at once");
    // The cabinet says who turned it off in words, not as the stored code.
    // The server takes the clock's move within its refresher's second: a session made before
    // that looks idle since the old time once it does, so a member signs in until a page shows.
    let mut tries = 0;
    let page = support::wait_for(std::time::Duration::from_secs(30), || {
        tries += 1;
        let email = format!("support{tries}@example.com");
        let mut cabinet = support::visitor::cabinet_member(&s, &s.account_id, &email);
        let page = cabinet.get("/cabinet/clients/ticked").text();
        (!page.is_empty()).then_some(page)
    })
    .expect("the cabinet's page of the client");
    assert!(page.contains("(the platform operator)") && !page.contains("(operator)"), "{page}");
    jobs_at(&s, renewed - Duration::hours(24));
    jobs_at(&s, renewed + Duration::minutes(1));
    let shown = s.cli(&["client", "show", &s.account_id, "ticked"]);
    assert_eq!(shown["subscription"]["status"], "expired", "{shown}");

    // The customer turns it off on the connect page of their link.
    pay_on_the_page(&s, "paged", true);
    let link = s.api("GET", "/clients/paged", None, &[]).json()["subscription"]["subscription_url"]
        .as_str()
        .unwrap()
        .to_owned();
    let token = link.rsplit('/').next().unwrap().to_owned();
    let page = s.get_raw(&format!("/connect/{token}?lang=en"), &[]).text();
    assert!(page.contains("Automatic renewal") && page.contains("Turn off automatic renewal"), "{page}");
    let r = s.request("POST", &format!("/renewal/{token}/off?lang=en"), &[], None);
    assert_eq!(r.status, 303, "{}", r.text());
    let back = r.header("location").unwrap().to_owned();
    assert_eq!(back, format!("/connect/{token}?lang=en&renewal=off"));
    let page = s.get_raw(&back, &[]).text();
    assert!(page.contains("Automatic renewal is off: nothing more will be charged."), "{page}");
    assert!(!page.contains("Turn off automatic renewal"), "the button is gone");
    assert_eq!(auto_renew(&s, "paged"), Some(false));
    assert_eq!(s.request("POST", "/renewal/no-such-token/off", &[], None).status, 404);

    // A declined saved card: tried three times in all, then the term ends.
    let (code, _) = s.db.cli_raw(&["client", "auto-renew", &s.account_id, "nobody", "off"]);
    assert_eq!(code, Some(2), "an unknown client is the caller's mistake");
    s.cli(&["sandbox", "saved-cards", "decline"]);
    pay_on_the_page(&s, "declined", true);
    let end = term_end(&s, "declined");
    for left in [24, 16, 8] {
        jobs_at(&s, end - Duration::hours(left));
        assert_eq!(term_end(&s, "declined"), end, "declined at {left} h before the end");
    }
    jobs_at(&s, end + Duration::minutes(1));
    let shown = s.cli(&["client", "show", &s.account_id, "declined"]);
    assert_eq!(shown["subscription"]["status"], "expired", "{shown}");
    assert_eq!(s.cli(&["sandbox", "show"])["saved_cards"], "decline");
}
