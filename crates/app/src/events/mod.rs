//! Events and endpoints (spec: Events): events are recorded in the unit of work of the change
//! that causes them (`outbox`), the term events by the term check (`schedule`), the traffic
//! events by the traffic check (`traffic`), then delivered
//! by the dispatcher on the spec's retry schedule (`dispatch`). The operator and the cabinet
//! manage the endpoints (`endpoints`).

mod dispatch;
mod endpoints;
mod outbox;
mod schedule;
mod traffic;

use std::sync::Arc;

use serde_json::Value;
use vp_ports::{Clock, IdGenerator, Metrics, Store, VpnPanel, WebhookSender};

use crate::audit::Audit;
use crate::notifier::Notifier;
use crate::reminders::ReminderQueue;
use crate::secrets::SecretKeys;
use crate::views::{ClientView, InvoiceView, Views};

pub use dispatch::DELIVERY_LEASE;
pub use endpoints::TestOutcome;
pub(crate) use outbox::EventOutbox;
pub use outbox::event_body;
pub use schedule::TermCheck;
pub use traffic::TrafficChecked;

/// Event types of the spec, as sent in `type` (the domain's, here for the drivers).
pub use vp_domain::event_types as types;

/// Renders event data in exactly the shapes the partner API returns (the HTTP adapter owns
/// those shapes), so `payment.succeeded` carries what `GET /payments/{id}` would.
pub trait EventRenderer: Send + Sync {
    fn payment(&self, view: InvoiceView) -> Value;
    fn client(&self, view: ClientView) -> Value;
}

/// The partner's events: endpoints, the term check and delivery.
pub struct Events {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) ids: Arc<dyn IdGenerator>,
    pub(crate) webhooks: Arc<dyn WebhookSender>,
    pub(crate) metrics: Arc<dyn Metrics>,
    pub(crate) keys: Arc<SecretKeys>,
    pub(crate) renderer: Arc<dyn EventRenderer>,
    pub(crate) views: Views,
    pub(crate) audit: Audit,
    pub(crate) outbox: EventOutbox,
    pub(crate) notifier: Notifier,
    pub(crate) reminders: ReminderQueue,
    /// For the traffic counts: the panel alone sees the VPN traffic.
    pub(crate) panel: Arc<dyn VpnPanel>,
}
