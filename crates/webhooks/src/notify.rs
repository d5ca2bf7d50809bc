//! The notifier without a messenger: notices stay in the cabinet, and a message that would
//! have gone to a chat goes to the log instead.

use std::time::Duration;

use async_trait::async_trait;
use vp_ports::{ChatStartBatch, MessengerError, PartnerNotifier};

#[derive(Debug, Default, Clone, Copy)]
pub struct LogNotifier;

#[async_trait]
impl PartnerNotifier for LogNotifier {
    fn channel(&self) -> Option<&'static str> {
        None
    }

    async fn chat_link(&self, _code: &str) -> Result<String, MessengerError> {
        Err(MessengerError::Refused("no messenger is configured".into()))
    }

    async fn send(&self, chat_id: i64, text: &str) -> Result<(), MessengerError> {
        tracing::info!(target: "partner_notice", chat_id, text, "partner notice");
        Ok(())
    }

    async fn chat_starts(&self, offset: i64, _wait: Duration) -> Result<ChatStartBatch, MessengerError> {
        Ok(ChatStartBatch { starts: vec![], next_offset: offset })
    }
}
