//! What the platform sends through bots on its own, worded from the catalogues: a bot's profile
//! under the partner's brand, a notice to a partner's chat, and the reminders and "payment
//! received" to a customer's chat.

use vp_app::bots::wording::{AutoRenewal, BotWording, ReminderContent, ReminderMessage, Renew};
use vp_app::views::traffic_text;
use vp_domain::Lang;
use vp_domain::traffic::TrafficNotice;
use vp_i18n::{notice_text, text, text_with};
use vp_ports::{AccountRecord, BotCommand, BotMessage, BotProfile, BotProfileLanguage, Button, NoticeKind};

use crate::choice::{Choice, press_data};
use crate::connect::connect_message;

/// The bots' words for what the platform sends on its own.
#[derive(Debug, Default, Clone, Copy)]
pub struct Wording;

impl BotWording for Wording {
    /// The brand as the bot's name, and in each language a short description and a
    /// description naming the brand (and the support address, when set) and the command list.
    /// English first: it is the default for other languages.
    fn profile(&self, account: &AccountRecord) -> BotProfile {
        let brand = account.brand_name.as_str();
        let languages = [(Lang::En, "en"), (Lang::Ru, "ru")]
            .into_iter()
            .map(|(lang, code)| {
                let description = match &account.style.support_url {
                    Some(support) => text_with(
                        lang,
                        "bot-profile-description-support",
                        &[("brand", brand.into()), ("support", support.as_str().into())],
                    ),
                    None => text_with(lang, "bot-profile-description", &[("brand", brand.into())]),
                };
                BotProfileLanguage {
                    code,
                    short_description: at_most(text_with(lang, "bot-profile-short", &[("brand", brand.into())]), 120),
                    description: at_most(description, 512),
                    commands: BotCommand::ALL
                        .iter()
                        .map(|c| (c.name().to_owned(), text(lang, command_description(*c))))
                        .collect(),
                }
            })
            .collect();
        BotProfile { name: at_most(brand.to_owned(), 64), languages }
    }

    fn notice(&self, chat_id: i64, notice: &NoticeKind, brand: &str, lang: Lang) -> BotMessage {
        BotMessage::text(chat_id, notice_text(notice, brand, lang))
    }

    fn reminder(&self, reminder: &ReminderMessage) -> BotMessage {
        let mut message = reminder_message(reminder);
        // A further subscription of the person says which it is about, first.
        if let Some(name) = &reminder.subscription {
            let heading = crate::shop::subscription_heading(reminder.lang, Some(name));
            message.text = format!("{heading}\n{}", message.text);
        }
        message
    }
}

/// A reminder worded, before it says which of the person's subscriptions it is about.
fn reminder_message(reminder: &ReminderMessage) -> BotMessage {
    let ReminderMessage { chat_id, lang, brand, subscription: _, content } = reminder;
    let (lang, brand) = (*lang, brand.as_str());
    let (body, renew) = match content {
        ReminderContent::Paid(connect) => {
            let Some(connect) = connect else {
                return BotMessage::text(*chat_id, text_with(lang, "shop-paid-lifetime", &[("brand", brand.into())]));
            };
            let sub = &connect.subscription;
            let paid = if sub.lifetime {
                text_with(lang, "shop-paid-lifetime", &[("brand", brand.into())])
            } else {
                text_with(
                    lang,
                    "shop-paid",
                    &[("brand", brand.into()), ("day", sub.time_zone.day(sub.expires_at).into())],
                )
            };
            let mine = Button::press(text(lang, "shop-menu-subscription"), Choice::Subscription.data());
            return connect_message(*chat_id, lang, connect, paid, mine);
        }
        ReminderContent::GiftPaid { months, bot_url, web_url, until } => {
            return crate::shop::gift_links_message(
                *chat_id,
                lang,
                brand,
                *months,
                bot_url.as_deref(),
                web_url,
                *until,
            );
        }
        ReminderContent::Referral { days, ends_on } => {
            let body = match ends_on {
                Some(day) => text_with(
                    lang,
                    "bot-referral-days",
                    &[("brand", brand.into()), ("days", (*days).into()), ("day", (*day).into())],
                ),
                None => text_with(lang, "bot-referral-credit", &[("brand", brand.into()), ("days", (*days).into())]),
            };
            return BotMessage::text(*chat_id, body);
        }
        ReminderContent::Traffic { notice, limit, resets_on, renew } => {
            let key = match notice {
                TrafficNotice::MostUsed => "bot-traffic-most-used",
                TrafficNotice::UsedUp => "bot-traffic-used-up",
            };
            let limit = traffic_text(lang, *limit);
            let args = [
                ("brand", brand.into()),
                ("percent", u64::from(TrafficNotice::MOST_USED_PERCENT).into()),
                ("limit", limit.as_str().into()),
            ];
            let then = match resets_on {
                Some(day) => text_with(lang, "bot-traffic-resets", &[("day", (*day).into())]),
                None => text(lang, "bot-traffic-renew"),
            };
            (format!("{}\n\n{then}", text_with(lang, key, &args)), renew)
        }
        ReminderContent::Expired { renew } => {
            (text_with(lang, "bot-reminder-expired", &[("brand", brand.into())]), renew)
        }
        ReminderContent::Expiring { threshold, ends_on, renew, auto_renewal } => {
            let mut body = text_with(
                lang,
                "bot-reminder-expiring",
                &[("brand", brand.into()), ("day", (*ends_on).into()), ("days", threshold.days().into())],
            );
            if let Some(AutoRenewal { amount, on }) = auto_renewal {
                let charge = text_with(
                    lang,
                    "bot-reminder-auto-renewal",
                    &[("amount", (*amount).into()), ("day", (*on).into())],
                );
                body = format!("{body}\n\n{charge}");
            }
            (body, renew)
        }
        ReminderContent::RenewalDeclined { amount, retry_on, ends_on, renew } => {
            let (key, day) = match retry_on {
                Some(on) => ("bot-renewal-declined-retry", on),
                None => ("bot-renewal-declined-last", ends_on),
            };
            let args = [("brand", brand.into()), ("amount", (*amount).into()), ("day", (*day).into())];
            (text_with(lang, key, &args), renew)
        }
    };
    BotMessage::text(*chat_id, body).with_buttons(renew_button(lang, renew).into_iter().collect())
}

/// Where a reminder's button leads to renew.
fn renew_button(lang: Lang, renew: &Renew) -> Option<Button> {
    let label = text(lang, "bot-reminder-renew");
    match renew {
        Renew::InShop { target } => Some(Button::press(label, press_data(&Choice::Plans, Some(*target)))),
        Renew::Link(url) => Some(Button::link(label, url.clone())),
        Renew::Support(url) => Some(Button::link(text(lang, "bot-reminder-support"), url.clone())),
        Renew::Nowhere => None,
    }
}

/// How a command is described in the bot's menu.
fn command_description(command: BotCommand) -> &'static str {
    match command {
        BotCommand::Start => "bot-command-start",
        BotCommand::Status => "bot-command-status",
        BotCommand::Connect => "bot-command-connect",
        BotCommand::Help => "bot-command-help",
        BotCommand::Language => "bot-command-language",
        BotCommand::Stop => "bot-command-stop",
    }
}

/// At most `max` characters of `text` (Telegram's limits count characters).
fn at_most(text: String, max: usize) -> String {
    if text.chars().count() <= max { text } else { text.chars().take(max).collect() }
}
