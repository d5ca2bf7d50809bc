//! Ports: the traits the core needs from the outside world. Adapters implement them; the app
//! layer calls them. Only domain types and plain records cross these boundaries.

pub mod balance;
pub mod bots;
pub mod broadcast;
pub mod cabinet;
pub mod client_address;
pub mod clock;
pub mod gateway;
pub mod ids;
pub mod invoice_work;
pub mod lease;
pub mod local_panel;
pub mod mail;
pub mod metrics;
pub mod notice;
pub mod operator;
pub mod pages;
pub mod panel;
pub mod promo;
pub mod records;
pub mod referral;
pub mod renewals;
pub mod setting_key;
pub mod shop_bot;
pub mod standin;
pub mod stars;
pub mod store;
pub mod webhook;
pub mod windows;

pub use balance::*;
pub use bots::{
    BotApi, BotApiError, BotCommand, BotCreateCode, BotCustomer, BotDeviceList, BotIdentity, BotMessage, BotProfile,
    BotProfileLanguage, BotStats, BotUpdate, BotUpdates, Button, ButtonAction, ButtonPress, ChatText, ClientChat,
    ClientLinkCode, ManagedBotRequest, ManagedBotShared, PartnerBotRecord, PersonSubscription, PreCheckout,
    ReminderKind, ReminderRecipient, ReminderSend, StarsInvoiceLink, StarsPaid, StarsSubscriptionChange,
    StarsSubscriptionState, WebhookRegistration,
};
pub use broadcast::{BotAudienceMember, BroadcastChat, BroadcastCounts, BroadcastRecord};
pub use cabinet::*;
pub use client_address::TrustedProxies;
pub use clock::Clock;
pub use gateway::{
    GatewayError, GatewayEventError, GatewayEvents, GatewayInfo, GatewayPayment, GatewayPaymentRequest, PaymentGateway,
    RefundState, SavedMethod, SavedMethodCharge, SavedMethodPayment,
};
pub use ids::IdGenerator;
pub use invoice_work::{InvoiceOpening, InvoiceRecorded, InvoiceWrite, OpenedInvoice};
pub use lease::Lease;
pub use local_panel::{LocalPanelRepo, LocalPanelStore, LocalPanelTx};
pub use mail::{
    MailContent, MailError, MailRecord, MailRenderer, MailSigner, Mailer, OrderItem, OutgoingMail, RenderedMail,
};
pub use metrics::{AttemptOutcome, BotRole, External, Gauges, InvoiceCreation, Metrics, NoMetrics, PoolState};
pub use notice::*;
pub use operator::{OperatorAuditEntry, OperatorRecord};
pub use panel::{
    ExistingAccess, ExistingDeviceLimit, ExistingPanelUser, ExistingPanelUsers, PanelDevice, PanelDirectory,
    PanelDrift, PanelError, PanelEventError, PanelEvents, PanelInfo, PanelUser, PanelUserChange, PanelUserChecked,
    TrafficCount, TrafficLimit, TrafficNotice, TrafficReset, VpnPanel, to_millis,
};
pub use promo::{PromoCodeRecord, PromoUsage, PromoUse};
pub use records::*;
pub use referral::{InviterStats, ReferralCodeRecord, ReferralRecord, ReferralReward, ReferralTotals};
pub use renewals::{RenewalCharge, RenewalChargeState, RenewalConsent};
pub use setting_key::SettingKey;
pub use shop_bot::{ShopBotCustomer, ShopBotDatabase, ShopBotError, ShopBotPromoCode, ShopBotSubscription};
pub use stars::{StarsCharge, StarsInvoice, StarsSubscription};
pub use store::{
    AccountRepo, AdoptedClient, BalanceRepo, BotCustomerRepo, BotRepo, BroadcastRepo, CabinetRepo, Claim, ClientRepo,
    CustomerChatRepo, DailyLimit, DailyQuota, DailySales, DeliveryBacklog, EndedSubscription, EventRepo, GiftRecord,
    GiftRepo, ImportedBalance, InvoiceRepo, MailRepo, NoticeRepo, OfferRepo, OperatorRepo, PanelAdoption,
    PanelAdoptionRepo, PromoRepo, ReadAhead, ReferralRepo, ReminderRepo, RenewalRepo, SaleFacts, SalesRepo,
    SettingsRepo, ShopCustomer, ShopRepo, ShopSession, ShopSignIn, ShopSubscription, StarsRepo, Store, StoreError, Tx,
};
pub use webhook::*;
pub use windows::{RequestWindow, SharedWindows, WindowCheck, WindowsUnavailable};
