//! Telegram's `Update` object reduced to `BotUpdate` (the same for a poll and a webhook post):
//! `update_id`, and of a `message` its `chat.id`, `from.language_code` and `text`.

use serde_json::Value;
use vp_ports::{BotUpdate, ChatText};

/// `None` when `update` has no `update_id` (not an update at all).
pub(crate) fn read_update(update: &Value) -> Option<BotUpdate> {
    let update_id = update["update_id"].as_i64()?;
    let message = &update["message"];
    let text = match (message["chat"]["id"].as_i64(), message["text"].as_str()) {
        (Some(chat_id), Some(text)) => Some(ChatText {
            chat_id,
            language: message["from"]["language_code"].as_str().map(str::to_owned),
            text: text.to_owned(),
        }),
        _ => None,
    };
    Some(BotUpdate { update_id, message: text })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::read_update;

    #[test]
    fn a_text_message_keeps_its_chat_language_and_text() {
        let update = json!({"update_id": 7, "message": {"message_id": 1, "date": 0,
            "chat": {"id": -5, "type": "private"}, "from": {"id": 5, "is_bot": false, "first_name": "A",
            "language_code": "ru"}, "text": "/status"}});
        let read = read_update(&update).unwrap();
        assert_eq!(read.update_id, 7);
        let message = read.message.unwrap();
        assert_eq!((message.chat_id, message.language.as_deref(), message.text.as_str()), (-5, Some("ru"), "/status"));
    }

    #[test]
    fn other_updates_keep_only_their_number() {
        let sticker = json!({"update_id": 8, "message": {"message_id": 2, "date": 0, "chat": {"id": 5, "type": "private"},
            "sticker": {}}});
        assert_eq!(read_update(&sticker).unwrap().message, None);
        assert_eq!(read_update(&json!({"update_id": 9, "my_chat_member": {}})).unwrap().message, None);
        assert_eq!(read_update(&json!({"message": {}})), None);
    }
}
