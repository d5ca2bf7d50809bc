//! The parts the payment pages share: the order summary, the deadline with the time left, the
//! receipt line, and the next step after the outcome.

use maud::{Markup, html};
use vp_app::Lang;
use vp_app::payments::{OrderItem, PaymentPage};
use vp_app::renewals::RenewalOffer;
use vp_domain::InvoiceStatus;
use vp_i18n::Texts;

/// What is bought, the order number, the method and (while it matters) the deadline.
pub fn summary(lang: Lang, p: &PaymentPage) -> Markup {
    let tx = Texts(lang);
    html! {
        dl {
            dt { (tx.get("page-order-order")) } dd { (item(lang, p.order)) }
            dt { (tx.get("page-order-number")) } dd { code { (p.invoice.payment_id) } }
            dt { (tx.get("page-order-method")) } dd { (p.method_name) }
            @if p.invoice.status == InvoiceStatus::Pending {
                dt { (tx.get("page-order-pay-by")) } dd { (deadline(lang, p)) }
            }
        }
    }
}

pub fn item(lang: Lang, order: OrderItem) -> String {
    let tx = Texts(lang);
    match order {
        OrderItem::Subscription { months: 0 } => tx.get("page-order-lifetime"),
        OrderItem::Subscription { months } => tx.with("page-order-subscription", &[("count", months.into())]),
        OrderItem::Devices { count } => tx.with("page-order-devices", &[("count", count.into())]),
    }
}

/// `00:57 MSK, 24.11.2026 (29 min left)`: in the account's zone, named.
pub fn deadline(lang: Lang, p: &PaymentPage) -> String {
    let left = time_left(lang, p.seconds_left);
    format!("{} ({left})", Texts(lang).moment(&p.time_zone, p.invoice.expires_at))
}

/// Whole minutes, rounded up, so "0 min left" never shows while payment is still possible.
pub fn time_left(lang: Lang, seconds: i64) -> String {
    let minutes = (seconds.max(0) + 59) / 60;
    let (hours, minutes) = (minutes / 60, minutes % 60);
    let tx = Texts(lang);
    match hours {
        0 => tx.with("page-order-minutes-left", &[("minutes", minutes.into())]),
        _ => tx.with("page-order-hours-left", &[("hours", hours.into()), ("minutes", minutes.into())]),
    }
}

/// After payment: what was paid, when and how.
pub fn receipt(lang: Lang, p: &PaymentPage) -> Markup {
    let tx = Texts(lang);
    let paid = p.invoice.paid_at.map(|at| Texts(lang).moment(&p.time_zone, at));
    html! {
        @if let Some(paid) = paid {
            p.muted {
                (tx.with("page-order-receipt", &[
                    ("amount", p.invoice.amounts.customer.into()),
                    ("when", paid.as_str().into()),
                    ("method", p.method_name.as_str().into()),
                ]))
                " " code { (p.invoice.payment_id) }
            }
        }
    }
}

/// The way on once there is an outcome: connect after payment, back to the shop (for a new
/// invoice) after a decline or the deadline. `None` while the payment is still open.
pub fn next_step(lang: Lang, p: &PaymentPage) -> Option<Markup> {
    let tx = Texts(lang);
    let shop = p.invoice.return_url.as_deref();
    match p.invoice.status {
        InvoiceStatus::Pending => None,
        InvoiceStatus::Succeeded => Some(html! {
            @if p.connect_mailed { p { (tx.get("page-order-connect-mailed")) } }
            p {
                @if let Some(url) = &p.connect_url { a.button.primary href=(with_lang(url, lang)) { (tx.get("page-order-connect")) } }
                @if let Some(url) = shop { a.button href=(url) { (tx.get("page-order-back-to-shop")) } }
            }
        }),
        InvoiceStatus::Failed | InvoiceStatus::Expired => Some(html! {
            p {
                @if let Some(url) = shop {
                    a.button href=(url) { (tx.get("page-order-back-to-shop")) }
                } @else {
                    span.muted { (tx.get("page-order-new-invoice")) }
                }
            }
        }),
    }
}

/// `url` with `lang=` added to its query.
pub(crate) fn with_lang(url: &str, lang: Lang) -> String {
    format!("{url}{}lang={}", if url.contains('?') { '&' } else { '?' }, lang.code())
}

/// The consent sentence on the result page, after paying on the gateway's page: the same
/// facts, about the card just used.
pub fn renewal_after_sentence(lang: Lang, offer: &RenewalOffer) -> String {
    offer_sentence(lang, "page-renew-after", offer)
}

/// The consent sentence beside the "renew automatically" tick: the amount, the period, the date
/// of the next charge and how to turn it off. Stored word for word with the consent.
pub fn renewal_sentence(lang: Lang, offer: &RenewalOffer) -> String {
    offer_sentence(lang, "page-renew-tick", offer)
}

/// The offer's facts in the sentence `key`.
fn offer_sentence(lang: Lang, key: &str, offer: &RenewalOffer) -> String {
    let tx = Texts(lang);
    let date = tx.date(offer.time_zone.day(offer.next_charge_at));
    tx.with(key, &[("amount", offer.amount.into()), ("months", offer.months.into()), ("date", date.as_str().into())])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_left_is_rounded_up_to_whole_minutes() {
        assert_eq!(time_left(Lang::En, 1), "1 min left");
        assert_eq!(time_left(Lang::En, 60 * 29 + 1), "30 min left");
        assert_eq!(time_left(Lang::En, 3600 + 300), "1 h 5 min left");
        assert_eq!(time_left(Lang::En, -5), "0 min left");
    }

    #[test]
    fn russian_time_left_agrees_with_the_number() {
        let cases = [
            (1, "осталась 1 минута"),
            (60 * 2, "осталось 2 минуты"),
            (60 * 5, "осталось 5 минут"),
            (60 * 11, "осталось 11 минут"),
            (60 * 21, "осталась 21 минута"),
            (60 * 29 + 1, "осталось 30 минут"),
            (-5, "осталось 0 минут"),
            (3600 + 300, "остался 1 час 5 минут"),
            (2 * 3600 + 60, "осталось 2 часа 1 минута"),
            (5 * 3600 + 22 * 60, "осталось 5 часов 22 минуты"),
        ];
        for (seconds, shown) in cases {
            assert_eq!(time_left(Lang::Ru, seconds), shown, "{seconds} s");
        }
    }

    #[test]
    fn orders_are_named_in_each_language() {
        let months = |lang, months| item(lang, OrderItem::Subscription { months });
        let devices = |lang, count| item(lang, OrderItem::Devices { count });
        assert_eq!(
            [months(Lang::En, 1), months(Lang::En, 12)],
            ["Subscription for 1 month", "Subscription for 12 months"]
        );
        assert_eq!(
            [months(Lang::Ru, 1), months(Lang::Ru, 3), months(Lang::Ru, 12)],
            ["Подписка на 1 месяц", "Подписка на 3 месяца", "Подписка на 12 месяцев"]
        );
        assert_eq!([months(Lang::En, 0), months(Lang::Ru, 0)], ["Lifetime subscription", "Подписка навсегда"]);
        assert_eq!([devices(Lang::En, 1), devices(Lang::En, 3)], ["1 extra device", "3 extra devices"]);
        assert_eq!(
            [devices(Lang::Ru, 1), devices(Lang::Ru, 3), devices(Lang::Ru, 5)],
            ["1 дополнительное устройство", "3 дополнительных устройства", "5 дополнительных устройств"]
        );
    }

    /// A paid one-month subscription.
    fn paid_page() -> PaymentPage {
        let at = time::Date::from_calendar_date(2026, time::Month::November, 23)
            .and_then(|d| d.with_hms(21, 57, 0))
            .unwrap()
            .assume_utc();
        let money = |s: &str| s.parse::<vp_domain::Money>().unwrap();
        PaymentPage {
            invoice: vp_ports::InvoiceRecord {
                payment_id: vp_domain::PaymentId::issued("pay_1".into()),
                account_id: vp_domain::AccountId::issued("acc_1".into()),
                client_ref: vp_domain::ClientRef::issued("cli_1".into()),
                client_id: vp_domain::ClientId::parse("client-1").unwrap(),
                status: InvoiceStatus::Succeeded,
                purpose: vp_domain::Purpose::Subscription { plan_id: 1 },
                method: "card".into(),
                rail: vp_domain::Rail::Gateway(vp_domain::GatewayRoute::of(vp_domain::GatewayName::Sandbox)),
                amounts: vp_domain::PriceBreakdown {
                    customer: money("238.80"),
                    platform: money("199.00"),
                    partner_share: money("39.80"),
                },
                return_url: None,
                payment_url: None,
                gateway_payment_id: None,
                created_at: at,
                expires_at: at,
                paid_at: Some(at),
                receipt: None,
                promo: None,
            },
            brand_name: "Demo VPN".into(),
            style: vp_ports::AccountStyle::default(),
            time_zone: vp_domain::TimeZone::default(),
            method_name: "Card".into(),
            documents: Vec::new(),
            order: OrderItem::Subscription { months: 1 },
            seconds_left: 0,
            connect_url: None,
            reminders_token: None,
            renewal_offer: None,
            renews: false,
            connect_mailed: false,
            gift: false,
        }
    }

    #[test]
    fn the_consent_sentence_names_the_amount_the_period_the_next_charge_and_how_to_cancel() {
        let offer = |months| RenewalOffer {
            amount: "299.00".parse().unwrap(),
            months,
            // The evening of the 24th in UTC is the 25th in Moscow, the account's zone.
            next_charge_at: time::macros::datetime!(2026-12-24 22:00 UTC),
            time_zone: vp_domain::TimeZone::default(),
        };
        let said = |lang, months| renewal_sentence(lang, &offer(months)).replace('\u{a0}', " ");
        assert_eq!(
            said(Lang::En, 1),
            "Renew automatically: RUB 299.00 for 1 month each time, next charge on 2026-12-25 from the card you pay \
             with now. Turn it off any time on your subscription's page."
        );
        assert!(said(Lang::En, 3).contains("for 3 months each time"));
        let ru = said(Lang::Ru, 3);
        assert!(ru.starts_with("Продлевать автоматически: "), "{ru}");
        assert!(ru.contains("за 3 месяца каждый раз, следующее списание 25.12.2026"), "{ru}");
        assert!(said(Lang::Ru, 12).contains("за 12 месяцев"));
    }

    #[test]
    fn the_receipt_says_what_was_paid_when_and_how() {
        let page = |lang| receipt(lang, &paid_page()).into_string().replace('\u{a0}', " ");
        assert_eq!(
            page(Lang::En),
            "<p class=\"muted\">Receipt: RUB 238.80, 00:57 MSK, 2026-11-24, Card, order <code>pay_1</code></p>"
        );
        assert_eq!(
            page(Lang::Ru),
            "<p class=\"muted\">Чек: 238,80 ₽, 00:57 MSK, 24.11.2026, Card, заказ <code>pay_1</code></p>"
        );
    }
}
