//! The parts the payment pages share: the order summary, the deadline with the time left, the
//! receipt line, and the next step after the outcome.

use time::OffsetDateTime;
use vp_app::Lang;
use vp_app::partner::{OrderItem, PaymentPage};
use vp_domain::InvoiceStatus;

use super::kit::escape;

/// What is bought, the order number, the method and (while it matters) the deadline.
pub fn summary(lang: Lang, p: &PaymentPage) -> String {
    let t = |en: &'static str, ru: &'static str| lang.pick_str(en, ru);
    let deadline = match p.invoice.status {
        InvoiceStatus::Pending => format!("<dt>{}</dt><dd>{}</dd>", t("Pay by", "Оплатить до"), deadline(lang, p)),
        _ => String::new(),
    };
    format!(
        "<dl><dt>{order}</dt><dd>{item}</dd><dt>{number}</dt><dd><code>{id}</code></dd>\
         <dt>{method}</dt><dd>{method_name}</dd>{deadline}</dl>",
        order = t("Order", "Заказ"),
        item = item(lang, p.order),
        number = t("Order number", "Номер заказа"),
        id = escape(&p.invoice.payment_id),
        method = t("Payment method", "Способ оплаты"),
        method_name = escape(&p.method_name),
    )
}

pub fn item(lang: Lang, order: OrderItem) -> String {
    match (order, lang) {
        (OrderItem::Subscription { months: 0 }, _) => {
            lang.pick_str("Lifetime subscription", "Подписка навсегда").into()
        }
        (OrderItem::Subscription { months }, Lang::En) => {
            format!("Subscription for {months} {}", if months == 1 { "month" } else { "months" })
        }
        (OrderItem::Subscription { months }, Lang::Ru) => format!("Подписка на {months} мес."),
        (OrderItem::Devices { count }, Lang::En) => {
            format!("{count} extra {}", if count == 1 { "device" } else { "devices" })
        }
        (OrderItem::Devices { count }, Lang::Ru) => format!("Дополнительные устройства: {count}"),
    }
}

/// `21:57 UTC, 23.11.2026 (29 min left)`: the zone is named, the customer's is not known.
pub fn deadline(lang: Lang, p: &PaymentPage) -> String {
    let left = time_left(lang, p.seconds_left);
    format!("{} ({left})", moment(lang, p.invoice.expires_at))
}

fn moment(lang: Lang, at: OffsetDateTime) -> String {
    format!("{:02}:{:02} UTC, {}", at.hour(), at.minute(), vp_i18n::date(lang, at.date()))
}

/// Whole minutes, rounded up, so "0 min left" never shows while payment is still possible.
pub fn time_left(lang: Lang, seconds: i64) -> String {
    let minutes = (seconds.max(0) + 59) / 60;
    let (h, m) = (minutes / 60, minutes % 60);
    match (lang, h) {
        (Lang::En, 0) => format!("{m} min left"),
        (Lang::En, _) => format!("{h} h {m} min left"),
        (Lang::Ru, 0) => format!("осталось {m} мин"),
        (Lang::Ru, _) => format!("осталось {h} ч {m} мин"),
    }
}

/// After payment: what was paid, when and how.
pub fn receipt(lang: Lang, p: &PaymentPage) -> String {
    let Some(paid_at) = p.invoice.paid_at else { return String::new() };
    format!(
        "<p class=\"muted\">{label}: {amount}, {when}, {method}, {number} <code>{id}</code></p>",
        label = lang.pick_str("Receipt", "Чек"),
        amount = vp_i18n::money(lang, p.invoice.amounts.customer),
        when = moment(lang, paid_at),
        method = escape(&p.method_name),
        number = lang.pick_str("order", "заказ"),
        id = escape(&p.invoice.payment_id),
    )
}

/// The way on once there is an outcome: connect after payment, back to the shop (for a new
/// invoice) after a decline or the deadline. `None` while the payment is still open.
pub fn next_step(lang: Lang, p: &PaymentPage) -> Option<String> {
    let t = |en: &'static str, ru: &'static str| lang.pick_str(en, ru);
    let shop = p.invoice.return_url.as_deref().map(|url| {
        format!("<a class=\"button\" href=\"{}\">{}</a>", escape(url), t("Back to the shop", "Вернуться в магазин"))
    });
    let steps = match p.invoice.status {
        InvoiceStatus::Pending => return None,
        InvoiceStatus::Succeeded => {
            let connect = p.connect_url.as_deref().map(|url| {
                format!(
                    "<a class=\"button primary\" href=\"{}\">{}</a>",
                    escape(&with_lang(url, lang)),
                    t("Connect now", "Подключиться")
                )
            });
            [connect, shop].into_iter().flatten().collect::<String>()
        }
        InvoiceStatus::Failed | InvoiceStatus::Expired => shop.unwrap_or_else(|| {
            format!(
                "<span class=\"muted\">{}</span>",
                t("Return to the shop or the bot for a new invoice.", "Вернитесь в магазин или бот за новым счётом.")
            )
        }),
    };
    Some(format!("<p>{steps}</p>"))
}

fn with_lang(url: &str, lang: Lang) -> String {
    format!("{url}{}lang={}", if url.contains('?') { '&' } else { '?' }, lang.code())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_left_is_rounded_up_to_whole_minutes() {
        assert_eq!(time_left(Lang::En, 1), "1 min left");
        assert_eq!(time_left(Lang::En, 60 * 29 + 1), "30 min left");
        assert_eq!(time_left(Lang::Ru, 3600 + 300), "осталось 1 ч 5 мин");
        assert_eq!(time_left(Lang::En, -5), "0 min left");
    }

    #[test]
    fn orders_are_named_in_each_language() {
        assert_eq!(item(Lang::En, OrderItem::Subscription { months: 12 }), "Subscription for 12 months");
        assert_eq!(item(Lang::Ru, OrderItem::Subscription { months: 1 }), "Подписка на 1 мес.");
        assert_eq!(item(Lang::En, OrderItem::Subscription { months: 0 }), "Lifetime subscription");
        assert_eq!(item(Lang::En, OrderItem::Devices { count: 1 }), "1 extra device");
        assert_eq!(item(Lang::Ru, OrderItem::Devices { count: 3 }), "Дополнительные устройства: 3");
    }
}
