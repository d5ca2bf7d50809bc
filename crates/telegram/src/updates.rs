//! Telegram's `Update` object reduced to `BotUpdate` (the same for a poll and a webhook post):
//! `update_id`; of a `message` its `chat.id`, `from.id`, `from.language_code` and `text`; of a
//! `callback_query` its `id`, `from.id`, `from.language_code`, `data`, and the `chat.id` and
//! `message_id` of the message the button was under; of a `pre_checkout_query` its `id`,
//! `from`, `currency`, `total_amount` and `invoice_payload`; of a message's `successful_payment`
//! its `currency`, `total_amount`, `invoice_payload`, `telegram_payment_charge_id`,
//! `is_recurring`, `is_first_recurring` and `subscription_expiration_date`; of a `managed_bot`
//! its `user.id`, `user.language_code`, `bot.id` and `bot.username`; of a `subscription` its
//! `user.id`, `user.language_code`, `invoice_payload` and `state`. The `managed_bot_created`
//! message Telegram sends beside a `managed_bot` update says the same again, so it is not read
//! (one answer to the person, not two).

use serde_json::Value;
use vp_ports::{
    BotUpdate, ButtonPress, ChatText, ManagedBotShared, PreCheckout, StarsPaid, StarsSubscriptionChange,
    StarsSubscriptionState,
};

/// `None` when `update` has no `update_id` (not an update at all).
pub(crate) fn read_update(update: &Value) -> Option<BotUpdate> {
    Some(BotUpdate {
        update_id: update["update_id"].as_i64()?,
        message: read_text(&update["message"]),
        press: read_press(&update["callback_query"]),
        pre_checkout: read_pre_checkout(&update["pre_checkout_query"]),
        payment: read_payment(&update["message"]),
        managed_bot: read_managed_bot(&update["managed_bot"]),
        subscription: read_subscription(&update["subscription"]),
    })
}

/// A Stars subscription's change (`BotSubscriptionUpdated`); a state Telegram may add later is
/// not acted on.
fn read_subscription(changed: &Value) -> Option<StarsSubscriptionChange> {
    let state = match changed["state"].as_str()? {
        "canceled" => StarsSubscriptionState::Canceled,
        "active" => StarsSubscriptionState::Active,
        "failed" => StarsSubscriptionState::Failed,
        _ => return None,
    };
    Some(StarsSubscriptionChange {
        user_id: changed["user"]["id"].as_i64()?,
        language: language(&changed["user"]),
        payload: changed["invoice_payload"].as_str()?.to_owned(),
        state,
    })
}

/// The person who created a managed bot, and the bot (`ManagedBotUpdated`).
fn read_managed_bot(updated: &Value) -> Option<ManagedBotShared> {
    let (user, bot) = (&updated["user"], &updated["bot"]);
    Some(ManagedBotShared {
        user_id: user["id"].as_i64()?,
        language: language(user),
        bot_id: bot["id"].as_i64()?,
        bot_username: bot["username"].as_str()?.to_owned(),
    })
}

fn read_pre_checkout(query: &Value) -> Option<PreCheckout> {
    Some(PreCheckout {
        id: query["id"].as_str()?.to_owned(),
        user_id: query["from"]["id"].as_i64()?,
        language: language(&query["from"]),
        currency: query["currency"].as_str()?.to_owned(),
        total_amount: query["total_amount"].as_i64()?,
        payload: query["invoice_payload"].as_str()?.to_owned(),
    })
}

/// A message's `successful_payment`, when it carries one.
fn read_payment(message: &Value) -> Option<StarsPaid> {
    let paid = &message["successful_payment"];
    let chat_id = message["chat"]["id"].as_i64()?;
    Some(StarsPaid {
        chat_id,
        user_id: message["from"]["id"].as_i64().unwrap_or(chat_id),
        currency: paid["currency"].as_str()?.to_owned(),
        total_amount: paid["total_amount"].as_i64()?,
        payload: paid["invoice_payload"].as_str()?.to_owned(),
        charge_id: paid["telegram_payment_charge_id"].as_str()?.to_owned(),
        recurring: paid["is_recurring"].as_bool().unwrap_or(false),
        first_recurring: paid["is_first_recurring"].as_bool().unwrap_or(false),
        paid_until: paid["subscription_expiration_date"].as_i64(),
    })
}

fn language(from: &Value) -> Option<String> {
    from["language_code"].as_str().map(str::to_owned)
}

fn read_text(message: &Value) -> Option<ChatText> {
    let chat_id = message["chat"]["id"].as_i64()?;
    Some(ChatText {
        chat_id,
        // A message on behalf of a channel or an anonymous admin has no `from`.
        user_id: message["from"]["id"].as_i64().unwrap_or(chat_id),
        language: language(&message["from"]),
        text: message["text"].as_str()?.to_owned(),
    })
}

/// A press on a button of an inline message (no `message`) or of a game (no `data`) is none
/// of the bot's buttons.
fn read_press(query: &Value) -> Option<ButtonPress> {
    let message = &query["message"];
    Some(ButtonPress {
        id: query["id"].as_str()?.to_owned(),
        chat_id: message["chat"]["id"].as_i64()?,
        user_id: query["from"]["id"].as_i64()?,
        message_id: message["message_id"].as_i64()?,
        language: language(&query["from"]),
        data: query["data"].as_str()?.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use vp_ports::{ButtonPress, StarsSubscriptionChange, StarsSubscriptionState};

    use super::read_update;

    #[test]
    fn a_text_message_keeps_its_chat_sender_language_and_text() {
        let update = json!({"update_id": 7, "message": {"message_id": 1, "date": 0,
            "chat": {"id": -5, "type": "private"}, "from": {"id": 5, "is_bot": false, "first_name": "A",
            "language_code": "ru"}, "text": "/status"}});
        let read = read_update(&update).unwrap();
        assert_eq!((read.update_id, &read.press), (7, &None));
        let message = read.message.unwrap();
        assert_eq!(
            (message.chat_id, message.user_id, message.language.as_deref(), message.text.as_str()),
            (-5, 5, Some("ru"), "/status")
        );
    }

    #[test]
    fn a_managed_bot_update_names_its_creator_and_the_bot_and_the_service_message_is_not_read_again() {
        let bot = json!({"id": 8100, "is_bot": true, "first_name": "Demo VPN", "username": "demovpn_0042_bot"});
        let person = json!({"id": 42, "is_bot": false, "first_name": "P", "language_code": "ru"});
        let update = json!({"update_id": 3, "managed_bot": {"user": person, "bot": bot}});
        let shared = read_update(&update).unwrap().managed_bot.unwrap();
        assert_eq!(
            (shared.user_id, shared.language.as_deref(), shared.bot_id, shared.bot_username.as_str()),
            (42, Some("ru"), 8100, "demovpn_0042_bot")
        );
        let message = json!({"update_id": 4, "message": {"message_id": 9, "date": 0,
            "chat": {"id": 42, "type": "private"}, "from": person, "managed_bot_created": {"bot": bot}}});
        let read = read_update(&message).unwrap();
        assert_eq!((read.managed_bot, read.message), (None, None), "confirmed and skipped");
    }

    #[test]
    fn a_message_without_a_sender_is_from_its_chat() {
        let update = json!({"update_id": 7, "message": {"message_id": 1, "date": 0,
            "chat": {"id": -100, "type": "channel"}, "text": "hi"}});
        let message = read_update(&update).unwrap().message.unwrap();
        assert_eq!((message.chat_id, message.user_id, message.language), (-100, -100, None));
    }

    #[test]
    fn a_button_press_names_its_query_person_message_and_data() {
        let update = json!({"update_id": 10, "callback_query": {"id": "4382", "chat_instance": "-77",
            "from": {"id": 5, "is_bot": false, "first_name": "A", "language_code": "pt-br"},
            "message": {"message_id": 31, "date": 1, "chat": {"id": 6, "type": "private"}, "text": "Pick"},
            "data": "lang:ru"}});
        let read = read_update(&update).unwrap();
        assert_eq!(read.message, None);
        assert_eq!(
            read.press,
            Some(ButtonPress {
                id: "4382".into(),
                chat_id: 6,
                user_id: 5,
                message_id: 31,
                language: Some("pt-br".into()),
                data: "lang:ru".into(),
            })
        );
    }

    #[test]
    fn a_press_without_data_or_message_is_none_of_the_bots_buttons() {
        let from = json!({"id": 5, "is_bot": false, "first_name": "A"});
        let message = json!({"message_id": 31, "date": 1, "chat": {"id": 6, "type": "private"}});
        let game = json!({"update_id": 11, "callback_query": {"id": "1", "chat_instance": "c", "from": from,
            "message": message, "game_short_name": "g"}});
        let inline = json!({"update_id": 12, "callback_query": {"id": "2", "chat_instance": "c", "from": from,
            "inline_message_id": "AAA", "data": "x"}});
        for update in [game, inline] {
            let read = read_update(&update).unwrap();
            assert_eq!((read.message, read.press), (None, None));
        }
    }

    #[test]
    fn other_updates_keep_only_their_number() {
        let sticker = json!({"update_id": 8, "message": {"message_id": 2, "date": 0, "chat": {"id": 5, "type": "private"},
            "sticker": {}}});
        assert_eq!(read_update(&sticker).unwrap().message, None);
        let other = read_update(&json!({"update_id": 9, "my_chat_member": {}})).unwrap();
        assert_eq!((other.message, other.press), (None, None));
        assert_eq!(read_update(&json!({"message": {}})), None);
    }

    #[test]
    fn a_subscription_update_names_the_person_our_invoice_and_what_changed() {
        let update = json!({"update_id": 11, "subscription": {"user": {"id": 5, "is_bot": false, "first_name": "A",
            "language_code": "ru"}, "invoice_payload": "pay_1", "state": "canceled"}});
        let read = read_update(&update).unwrap().subscription.unwrap();
        assert_eq!(
            read,
            StarsSubscriptionChange {
                user_id: 5,
                language: Some("ru".into()),
                payload: "pay_1".into(),
                state: StarsSubscriptionState::Canceled
            }
        );
        for (state, read) in [("active", StarsSubscriptionState::Active), ("failed", StarsSubscriptionState::Failed)] {
            let mut other = update.clone();
            other["subscription"]["state"] = json!(state);
            assert_eq!(read_update(&other).unwrap().subscription.unwrap().state, read);
        }
        let mut unknown = update;
        unknown["subscription"]["state"] = json!("paused");
        assert_eq!(read_update(&unknown).unwrap().subscription, None, "a state we do not know is not acted on");
    }

    #[test]
    fn a_pre_checkout_query_names_the_person_the_amount_and_our_invoice() {
        let update = json!({"update_id": 9, "pre_checkout_query": {"id": "pcq1", "from": {"id": 5, "is_bot": false,
            "first_name": "A", "language_code": "ru"}, "currency": "XTR", "total_amount": 200,
            "invoice_payload": "pay_1"}});
        let query = read_update(&update).unwrap().pre_checkout.unwrap();
        assert_eq!(
            (query.id.as_str(), query.user_id, query.language.as_deref(), query.currency.as_str()),
            ("pcq1", 5, Some("ru"), "XTR")
        );
        assert_eq!((query.total_amount, query.payload.as_str()), (200, "pay_1"));
    }

    #[test]
    fn a_successful_payment_keeps_its_charge_and_whether_it_renews_a_subscription() {
        let update = json!({"update_id": 10, "message": {"message_id": 3, "date": 0,
            "chat": {"id": 5, "type": "private"}, "from": {"id": 5, "is_bot": false, "first_name": "A"},
            "successful_payment": {"currency": "XTR", "total_amount": 200, "invoice_payload": "pay_1",
            "telegram_payment_charge_id": "stx1", "provider_payment_charge_id": "",
            "is_recurring": true, "subscription_expiration_date": 1_800_000_000}}});
        let read = read_update(&update).unwrap();
        assert_eq!(read.message, None, "a payment is no text");
        let paid = read.payment.unwrap();
        assert_eq!(
            (paid.chat_id, paid.user_id, paid.charge_id.as_str(), paid.payload.as_str()),
            (5, 5, "stx1", "pay_1")
        );
        assert_eq!((paid.recurring, paid.first_recurring, paid.paid_until), (true, false, Some(1_800_000_000)));
    }
}
