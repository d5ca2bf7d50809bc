//! The platform's bot creating a partner's bot (docs/telegram.md "Managed bots"): the offer
//! with its button, and what came of it, worded in the partner's language (the one their link
//! was made in) or, when nobody's link is known, the person's.

use vp_app::bots::managed::{BotCreateStart, BotCreated};
use vp_domain::Lang;
use vp_i18n::{text, text_with};
use vp_ports::{BotMessage, Button, ButtonAction};

/// The answer to `/start` with a "Create my bot" code.
pub(crate) fn started(chat_id: i64, lang: Lang, answer: BotCreateStart) -> BotMessage {
    match answer {
        BotCreateStart::Offer { brand, request } => {
            let button =
                Button { text: text(lang, "bot-create-button"), action: ButtonAction::RequestManagedBot(request) };
            BotMessage::text(chat_id, text_with(lang, "bot-create-offer", &[("brand", (&brand).into())]))
                .with_buttons(vec![button])
        }
        BotCreateStart::CodeUnknown => BotMessage::text(chat_id, text(lang, "bot-create-link-expired")),
        BotCreateStart::CodeTaken => BotMessage::text(chat_id, text(lang, "bot-create-link-taken")),
        BotCreateStart::AlreadyConnected { brand, username } => already(chat_id, lang, &brand, &username),
    }
}

/// What came of the bot the person created.
pub(crate) fn created(chat_id: i64, lang: Lang, outcome: BotCreated) -> BotMessage {
    match outcome {
        BotCreated::Connected { brand, username } => BotMessage::text(
            chat_id,
            text_with(lang, "bot-create-connected", &[("brand", (&brand).into()), ("bot", (&username).into())]),
        )
        .with_buttons(vec![Button::link(
            text_with(lang, "bot-create-open", &[("bot", (&username).into())]),
            format!("https://t.me/{username}"),
        )]),
        BotCreated::NoLink => BotMessage::text(chat_id, text(lang, "bot-create-no-link")),
        BotCreated::AlreadyConnected { brand, username } => already(chat_id, lang, &brand, &username),
        BotCreated::Taken => BotMessage::text(chat_id, text(lang, "bot-create-taken")),
    }
}

fn already(chat_id: i64, lang: Lang, brand: &str, username: &str) -> BotMessage {
    let said = text_with(lang, "bot-create-already", &[("brand", brand.into()), ("bot", username.into())]);
    BotMessage::text(chat_id, said)
}
