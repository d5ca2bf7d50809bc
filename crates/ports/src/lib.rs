//! Ports: the traits the core needs from the outside world. Adapters implement them; the app
//! layer calls them. Only domain types and plain records cross these boundaries.

pub mod balance;
pub mod cabinet;
pub mod clock;
pub mod gateway;
pub mod ids;
pub mod invoice_work;
pub mod metrics;
pub mod notice;
pub mod panel;
pub mod records;
pub mod sandbox;
pub mod store;
pub mod webhook;
pub mod windows;

pub use balance::*;
pub use cabinet::*;
pub use clock::Clock;
pub use gateway::{
    GatewayError, GatewayEventError, GatewayEvents, GatewayInfo, GatewayPayment, GatewayPaymentRequest, PaymentGateway,
    RefundState,
};
pub use ids::IdGenerator;
pub use invoice_work::{InvoiceOpening, InvoiceRecorded, InvoiceWrite, OpenedInvoice};
pub use metrics::{AttemptOutcome, External, Gauges, InvoiceCreation, Metrics, NoMetrics, PoolState};
pub use notice::*;
pub use panel::{PanelDevice, PanelDrift, PanelError, PanelInfo, PanelUser, VpnPanel, to_millis};
pub use records::*;
pub use store::{DailyLimit, DailyQuota, DeliveryBacklog, Store, StoreError, Tx};
pub use webhook::*;
pub use windows::{RequestWindow, SharedWindows, WindowCheck, WindowsUnavailable};
