//! The overview's sales figures (docs/decisions.md, "Sales figures"): for a chosen range (the
//! last 7, 30 or 90 days, this month, last month, in the account's zone) what customers paid
//! and the partner's share, invoices paid and refunded, new clients, first purchases, trials
//! and their conversions, renewals by kind and subscriptions ended, each against the period
//! before; the revenue per day and per channel as charts with their tables; each payment
//! method's payments with their success rate; and what promo codes and referrals gave against
//! what they brought. Read from the daily rollups.

use maud::{Markup, html};
use vp_app::sales::SalesReport;
use vp_domain::sales::{Channel, Figures, SalesRange, change_percent};
use vp_i18n::Texts;

use crate::pages::kit::{self, Bar, Column};

/// The catalogue key naming a range on the page.
pub(crate) fn range_key(range: SalesRange) -> &'static str {
    match range {
        SalesRange::Days7 => "cabinet-sales-range-7d",
        SalesRange::Days30 => "cabinet-sales-range-30d",
        SalesRange::Days90 => "cabinet-sales-range-90d",
        SalesRange::ThisMonth => "cabinet-sales-range-this-month",
        SalesRange::LastMonth => "cabinet-sales-range-last-month",
    }
}

/// The catalogue key naming a channel.
fn channel_key(channel: Channel) -> &'static str {
    match channel {
        Channel::Api => "cabinet-sales-channel-api",
        Channel::Bot => "cabinet-sales-channel-bot",
        Channel::Web => "cabinet-sales-channel-web",
    }
}

/// `+12 %`, `−5 %`, or a dash with nothing before to compare with.
pub(crate) fn change(now: i64, before: i64) -> String {
    match change_percent(now, before) {
        Some(p) if p > 0 => format!("+{p} %"),
        Some(p) if p < 0 => format!("−{} %", p.unsigned_abs()),
        Some(_) => "0 %".to_owned(),
        None => "—".to_owned(),
    }
}

/// Where the figures are shown: the page the range links lead to (`/cabinet`, `/operator`),
/// what each link keeps of the page's query (`&by=growth`), and the note on whose days they are.
pub(crate) struct Shown<'a> {
    pub page: &'a str,
    pub keep: &'a str,
    pub help: &'static str,
    /// What the partner's share is called there (the partner's own, or the partners').
    pub share: &'static str,
}

/// The figures of `report`.
pub(crate) fn section(tx: Texts, report: &SalesReport, shown: &Shown<'_>) -> Markup {
    let Shown { page, keep, help, share } = shown;
    let (now, before) = (&report.total, &report.previous);
    let money_row = |key: &str, now: vp_domain::Money, before: vp_domain::Money| {
        vec![
            html! { (tx.get(key)) },
            html! { (tx.money(now)) },
            html! { (tx.money(before)) },
            html! { (change(now.kopecks(), before.kopecks())) },
        ]
    };
    let count_row = |key: &str, now: u32, before: u32| {
        vec![
            html! { (tx.get(key)) },
            html! { (now) },
            html! { (before) },
            html! { (change(i64::from(now), i64::from(before))) },
        ]
    };
    let rows = vec![
        money_row("cabinet-sales-gross", now.gross, before.gross),
        money_row(share, now.partner_share, before.partner_share),
        count_row("cabinet-sales-paid", now.paid, before.paid),
        count_row("cabinet-sales-refunded", now.refunded, before.refunded),
        count_row("cabinet-sales-new-clients", now.new_clients, before.new_clients),
        count_row("cabinet-sales-first-purchases", now.first_purchases, before.first_purchases),
        count_row("cabinet-sales-trials", now.trials, before.trials),
        count_row("cabinet-sales-converted", now.converted, before.converted),
        count_row("cabinet-sales-renewals-manual", now.renewals_manual, before.renewals_manual),
        count_row("cabinet-sales-renewals-card", now.renewals_card, before.renewals_card),
        count_row("cabinet-sales-renewals-stars", now.renewals_stars, before.renewals_stars),
        count_row("cabinet-sales-ended", now.ended, before.ended),
    ];
    let promotions = vec![
        money_row("cabinet-sales-promo-discount", now.promo_discount, before.promo_discount),
        money_row("cabinet-sales-promo-gross", now.promo_gross, before.promo_gross),
        count_row("cabinet-sales-referral-rewards", now.referral_rewards, before.referral_rewards),
        money_row("cabinet-sales-referred-gross", now.referred_gross, before.referred_gross),
    ];
    let compared = || {
        [
            Column::text(tx.get("cabinet-sales-figure")),
            Column::amount(tx.get("cabinet-sales-this-period")),
            Column::amount(tx.get("cabinet-sales-before")),
            Column::amount(tx.get("cabinet-sales-change")),
        ]
    };
    let channel_bars: Vec<Bar> = report
        .by_channel
        .iter()
        .map(|(c, f)| Bar { label: tx.get(channel_key(*c)), value: f.gross.kopecks(), shown: tx.money(f.gross) })
        .collect();
    let channels_caption =
        tx.with("cabinet-sales-channels-chart", &[("from", report.first.into()), ("to", report.last.into())]);
    let bars: Vec<Bar> = report
        .days
        .iter()
        .map(|(day, f)| Bar { label: tx.date(*day), value: f.gross.kopecks(), shown: tx.money(f.gross) })
        .collect();
    let period = tx.with("cabinet-sales-period", &[("from", report.first.into()), ("to", report.last.into())]);
    let chart_caption = tx.with("cabinet-sales-chart", &[("from", report.first.into()), ("to", report.last.into())]);
    html! {
        section #sales {
            h2 { (tx.get("cabinet-sales")) }
            nav.choices aria-label=(tx.get("cabinet-sales-ranges")) {
                @for range in SalesRange::ALL {
                    a href={ (page) "?range=" (range.code()) (keep) "#sales" } aria-current=[(range == report.range).then_some("page")] {
                        (tx.get(range_key(range)))
                    }
                }
            }
            p.muted { (period) }
            (kit::table(&compared(), rows))
            h3 { (chart_caption) }
            (kit::bar_chart(&chart_caption, &bars))
            details {
                summary { (tx.get("cabinet-sales-as-table")) }
                (kit::table(
                    &[Column::text(tx.get("cabinet-sales-day")), Column::amount(tx.get("cabinet-sales-gross")), Column::amount(tx.get("cabinet-sales-paid"))],
                    report.days.iter().map(|(day, f)| vec![html! { (tx.date(*day)) }, html! { (tx.money(f.gross)) }, html! { (f.paid) }]),
                ))
            }
            h3 { (tx.get("cabinet-sales-methods")) }
            @if report.by_method.is_empty() {
                p { (tx.get("cabinet-sales-none")) }
            } @else {
                (kit::table(
                    &[
                        Column::text(tx.get("cabinet-sales-method")),
                        Column::amount(tx.get("cabinet-sales-paid")),
                        Column::amount(tx.get("cabinet-sales-declined")),
                        Column::amount(tx.get("cabinet-sales-success")),
                        Column::amount(tx.get("cabinet-sales-gross")),
                    ],
                    report.by_method.iter().map(|(method, f)| method_row(tx, method, f)),
                ))
            }
            h3 #channels { (tx.get("cabinet-sales-channels")) }
            (kit::bar_chart(&channels_caption, &channel_bars))
            (kit::table(
                &[
                    Column::text(tx.get("cabinet-sales-channel")),
                    Column::amount(tx.get("cabinet-sales-new-clients")),
                    Column::amount(tx.get("cabinet-sales-first-purchases")),
                    Column::amount(tx.get("cabinet-sales-renewals-manual")),
                    Column::amount(tx.get("cabinet-sales-renewals-card")),
                    Column::amount(tx.get("cabinet-sales-renewals-stars")),
                    Column::amount(tx.get("cabinet-sales-gross")),
                    Column::amount(tx.get("cabinet-sales-gross-before")),
                    Column::amount(tx.get("cabinet-sales-change")),
                ],
                report.by_channel.iter().zip(&report.previous_by_channel).map(|((c, f), (_, b))| channel_row(tx, *c, f, b)),
            ))
            h3 #promotions { (tx.get("cabinet-sales-promotions")) }
            (kit::table(&compared(), promotions))
            p.muted { (tx.get(help)) }
            p.muted { (tx.get("cabinet-sales-channels-help")) }
        }
    }
}

fn channel_row(tx: Texts, channel: Channel, f: &Figures, before: &Figures) -> Vec<Markup> {
    vec![
        html! { (tx.get(channel_key(channel))) },
        html! { (f.new_clients) },
        html! { (f.first_purchases) },
        html! { (f.renewals_manual) },
        html! { (f.renewals_card) },
        html! { (f.renewals_stars) },
        html! { (tx.money(f.gross)) },
        html! { (tx.money(before.gross)) },
        html! { (change(f.gross.kopecks(), before.gross.kopecks())) },
    ]
}

fn method_row(tx: Texts, method: &str, f: &Figures) -> Vec<Markup> {
    let success = f.success_percent().map_or_else(|| "—".to_owned(), |p| format!("{p} %"));
    vec![
        html! { code { (method) } },
        html! { (f.paid) },
        html! { (f.failed) },
        html! { (success) },
        html! { (tx.money(f.gross)) },
    ]
}
