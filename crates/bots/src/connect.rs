//! How to connect, as a message: the subscription link, the connect page's button and the QR
//! code of the `qr_payload` the connect page draws, as a PNG photo. The shop's connect screen,
//! a new link and "payment received" all say it this way.

use vp_app::bots::wording::Connect;
use vp_domain::Lang;
use vp_i18n::{text, text_with};
use vp_ports::{BotMessage, Button};

use crate::qr_png::qr_png;

/// `before` (when not empty), the subscription link, the connect page's button and `next`.
pub(crate) fn connect_message(chat_id: i64, lang: Lang, connect: &Connect, before: String, next: Button) -> BotMessage {
    let mut body = before;
    if !body.is_empty() {
        body.push_str("\n\n");
    }
    let link = connect.subscription.subscription_url.as_str();
    body.push_str(&text_with(lang, "shop-connect", &[("link", link.into())]));
    let page = Button::link(text(lang, "shop-connect-page"), connect.page_url.clone());
    let mut message = BotMessage::text(chat_id, body).with_buttons(vec![page, next]);
    message.photo = qr_png(connect.qr_payload());
    message
}
