//! The partner notification port's default: the messenger bot lives outside this service, so
//! the message goes to the log, where ops and the bot's log shipper pick it up.

use vp_ports::{PartnerNotifier, WebhookEndpointRecord};

#[derive(Debug, Default, Clone, Copy)]
pub struct LogNotifier;

impl PartnerNotifier for LogNotifier {
    fn endpoint_disabled(&self, endpoint: &WebhookEndpointRecord, reason: &str) {
        tracing::warn!(
            target: "partner_notice",
            account_id = %endpoint.account_id,
            endpoint_id = %endpoint.id,
            url = %endpoint.url,
            reason,
            "webhook endpoint disabled; the partner re-enables it after repair"
        );
    }
}
