//! Rows exactly as stored. Conversions to and from the port's records live in `convert`.

use diesel::{AsChangeset, Insertable, Queryable, Selectable};
use time::PrimitiveDateTime;

use crate::schema::*;

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = accounts, treat_none_as_null = true)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct AccountRow {
    pub id: String,
    pub brand_name: String,
    pub markup_bp: i32,
    pub trial_enabled: bool,
    pub api_enabled: bool,
    pub limit_requests_per_minute: Option<i32>,
    pub limit_payments_per_minute: Option<i32>,
    pub limit_new_clients_per_day: Option<i32>,
    pub limit_trials_per_day: Option<i32>,
    pub created_at: PrimitiveDateTime,
    pub logo_url: Option<String>,
    pub accent_color: Option<String>,
    pub support_url: Option<String>,
    pub time_zone: String,
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = api_keys)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct ApiKeyRow {
    pub id: String,
    pub account_id: String,
    pub key_hash: String,
    pub prefix: String,
    pub created_at: PrimitiveDateTime,
    pub revoked_at: Option<PrimitiveDateTime>,
}

#[derive(Debug, Queryable, Selectable)]
#[diesel(table_name = plans)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct PlanRow {
    pub plan_id: i32,
    pub months: i32,
    pub lifetime: bool,
    pub device_limited: bool,
    pub platform_price: i64,
    pub created_at: PrimitiveDateTime,
    pub retired_at: Option<PrimitiveDateTime>,
    pub traffic_limit_bytes: Option<i64>,
    pub traffic_reset: Option<String>,
}

/// A plan without its id: the database assigns it.
#[derive(Debug, Insertable)]
#[diesel(table_name = plans)]
pub(crate) struct NewPlanRow {
    pub months: i32,
    pub lifetime: bool,
    pub device_limited: bool,
    pub platform_price: i64,
    pub created_at: PrimitiveDateTime,
    pub traffic_limit_bytes: Option<i64>,
    pub traffic_reset: Option<String>,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = device_settings, treat_none_as_null = true)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct DeviceSettingsRow {
    pub id: i32,
    pub included: i32,
    pub max_devices: i32,
    pub platform_price: Option<i64>,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = payment_methods, primary_key(code), treat_none_as_null = true)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct PaymentMethodRow {
    pub code: String,
    pub name_en: String,
    pub name_ru: String,
    pub enabled: bool,
    pub position: i32,
    pub gateway_type: Option<String>,
    pub gateway: Option<String>,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = settings, primary_key(key))]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct SettingRow {
    pub key: String,
    pub value: String,
    pub updated_at: PrimitiveDateTime,
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = clients)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct ClientRow {
    pub id: String,
    pub account_id: String,
    pub client_id: String,
    pub created_at: PrimitiveDateTime,
    pub blocked: bool,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = subscriptions, primary_key(client_ref), treat_none_as_null = true)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct SubscriptionRow {
    pub client_ref: String,
    pub status: String,
    pub is_trial: bool,
    pub lifetime: bool,
    pub expires_at: PrimitiveDateTime,
    pub term_started_at: PrimitiveDateTime,
    pub devices_unlimited: bool,
    pub devices_included: i32,
    pub devices_purchased: i32,
    pub reminder_72_sent: bool,
    pub reminder_24_sent: bool,
    pub link_rotated_at: Option<PrimitiveDateTime>,
    pub link_token: String,
    pub revision: i64,
    pub panel_revision: i64,
    pub change_seq: i64,
    /// `term_events::next_check_at`, written with every change: the term check's index.
    pub next_check_at: Option<PrimitiveDateTime>,
    /// Written on insert and by `set_auto_renew` only, so a term's writes never undo it.
    #[diesel(skip_update)]
    pub auto_renew: bool,
    /// An adopted panel user's own name and id there; written by the import alone.
    #[diesel(skip_update)]
    pub panel_name: Option<String>,
    #[diesel(skip_update)]
    pub panel_id: Option<String>,
    pub traffic_limit_bytes: Option<i64>,
    pub traffic_reset: Option<String>,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = invoices, primary_key(payment_id), treat_none_as_null = true)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct InvoiceRow {
    pub payment_id: String,
    pub account_id: String,
    pub client_ref: String,
    pub status: String,
    pub purpose: String,
    pub plan_id: Option<i32>,
    pub devices: Option<i32>,
    pub method: String,
    pub amount: i64,
    pub platform_amount: i64,
    pub partner_share: i64,
    pub return_url: Option<String>,
    pub payment_url: Option<String>,
    pub gateway_payment_id: Option<String>,
    pub created_at: PrimitiveDateTime,
    pub expires_at: PrimitiveDateTime,
    pub paid_at: Option<PrimitiveDateTime>,
    /// The fiscal receipt as JSON.
    pub receipt: Option<String>,
    /// What a promo code did (`convert::PromoJson`).
    pub promo: Option<String>,
    /// `vp_domain::Rail` as text; NULL for invoices issued before rails were kept.
    pub rail: Option<String>,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = idempotency_keys, primary_key(account_id, key), treat_none_as_null = true)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct IdempotencyRow {
    pub account_id: String,
    pub key: String,
    pub request_fingerprint: String,
    pub payment_id: String,
    pub recovery_point: String,
    pub locked_until: Option<PrimitiveDateTime>,
    pub created_at: PrimitiveDateTime,
    pub gateway_request: Option<String>,
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = ledger_entries)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct LedgerRow {
    pub id: String,
    pub account_id: String,
    pub payment_id: Option<String>,
    pub withdrawal_id: Option<String>,
    pub kind: String,
    pub amount: i64,
    pub held: i64,
    pub created_at: PrimitiveDateTime,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = withdrawals, treat_none_as_null = true)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct WithdrawalRow {
    pub id: String,
    pub account_id: String,
    pub amount: i64,
    pub payout_details: String,
    pub status: String,
    pub note: Option<String>,
    pub requested_by: String,
    pub created_at: PrimitiveDateTime,
    pub updated_at: PrimitiveDateTime,
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = partner_notices)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct NoticeRow {
    pub id: String,
    pub account_id: String,
    pub kind: String,
    pub subject_id: String,
    pub url: Option<String>,
    pub reason: Option<String>,
    pub amount: Option<i64>,
    pub created_at: PrimitiveDateTime,
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = partner_chats)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct PartnerChatRow {
    pub account_id: String,
    pub chat_id: i64,
    pub linked_by: String,
    pub lang: String,
    pub linked_at: PrimitiveDateTime,
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = chat_link_codes)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct ChatLinkCodeRow {
    pub code_hash: String,
    pub account_id: String,
    pub user_id: String,
    pub linked_by: String,
    pub lang: String,
    pub expires_at: PrimitiveDateTime,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = notice_sends, primary_key(notice_id, chat_id), treat_none_as_null = true)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct NoticeSendRow {
    pub notice_id: String,
    pub chat_id: i64,
    pub attempts: i32,
    pub next_attempt_at: Option<PrimitiveDateTime>,
    pub sent_at: Option<PrimitiveDateTime>,
    pub last_error: Option<String>,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = local_panel_users, primary_key(user_ref), treat_none_as_null = true)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct LocalPanelUserRow {
    pub user_ref: String,
    pub link_token: String,
    pub expires_at: PrimitiveDateTime,
    pub device_limit: Option<i32>,
    pub enabled: bool,
    pub traffic_limit_bytes: Option<i64>,
    pub traffic_reset: Option<String>,
    pub traffic_counted_from: Option<PrimitiveDateTime>,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = local_panel_traffic)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct LocalPanelTrafficRow {
    pub user_ref: String,
    pub used_bytes: i64,
    pub counted_since: PrimitiveDateTime,
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = local_panel_devices)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct LocalPanelDeviceRow {
    pub user_ref: String,
    pub hwid: String,
    pub platform: Option<String>,
    pub os_version: Option<String>,
    pub model: Option<String>,
    pub user_agent: Option<String>,
    pub created_at: PrimitiveDateTime,
    pub last_seen_at: PrimitiveDateTime,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = cabinet_users, treat_none_as_null = true)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct CabinetUserRow {
    pub id: String,
    pub account_id: String,
    pub email: String,
    pub password_hash: Option<String>,
    pub created_at: PrimitiveDateTime,
    pub revoked_at: Option<PrimitiveDateTime>,
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = cabinet_links, primary_key(token_hash))]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct CabinetLinkRow {
    pub token_hash: String,
    pub user_id: String,
    pub purpose: String,
    pub created_at: PrimitiveDateTime,
    pub expires_at: PrimitiveDateTime,
    pub used_at: Option<PrimitiveDateTime>,
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = cabinet_sessions, primary_key(token_hash))]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct CabinetSessionRow {
    pub token_hash: String,
    pub user_id: String,
    pub csrf_token: String,
    pub created_at: PrimitiveDateTime,
    pub last_seen_at: PrimitiveDateTime,
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = cabinet_audit)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct AuditRow {
    pub id: String,
    pub account_id: String,
    pub user_id: Option<String>,
    pub actor: String,
    pub action: String,
    pub detail: String,
    pub at: PrimitiveDateTime,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = partner_bots)]
#[diesel(treat_none_as_null = true)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct PartnerBotRow {
    pub account_id: String,
    pub bot_id: i64,
    pub username: String,
    pub token_hash: String,
    pub token_sealed: String,
    pub connected_at: PrimitiveDateTime,
    pub disconnected_at: Option<PrimitiveDateTime>,
    pub profile_revision: i64,
    pub profile_synced: i64,
    pub profile_attempts: i32,
    pub profile_retry_at: Option<PrimitiveDateTime>,
    pub profile_error: Option<String>,
    pub webhook: Option<String>,
    pub managed: bool,
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = bot_create_codes)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct BotCreateCodeRow {
    pub code_hash: String,
    pub account_id: String,
    pub request_id: i32,
    pub requested_by_user: Option<String>,
    pub requested_by: String,
    pub lang: String,
    pub expires_at: PrimitiveDateTime,
    pub opened_by: Option<i64>,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = client_chats)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct ClientChatRow {
    pub client_ref: String,
    pub account_id: String,
    pub chat_id: i64,
    pub linked_at: PrimitiveDateTime,
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = client_link_codes)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct ClientLinkCodeRow {
    pub code_hash: String,
    pub client_ref: String,
    pub expires_at: PrimitiveDateTime,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = reminder_sends, treat_none_as_null = true)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct ReminderSendRow {
    pub id: String,
    pub account_id: String,
    pub client_ref: String,
    pub chat_id: i64,
    pub kind: String,
    pub term_ends_at: PrimitiveDateTime,
    pub created_at: PrimitiveDateTime,
    pub attempts: i32,
    pub next_attempt_at: Option<PrimitiveDateTime>,
    pub sent_at: Option<PrimitiveDateTime>,
    pub last_error: Option<String>,
    pub payment_id: String,
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = bot_customers)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct BotCustomerRow {
    pub account_id: String,
    pub user_id: i64,
    pub chat_id: i64,
    pub started_at: PrimitiveDateTime,
    pub last_seen_at: PrimitiveDateTime,
    pub client_ref: Option<String>,
    pub receipt_email: Option<String>,
    pub promo_code: Option<String>,
    pub promo_asked_at: Option<PrimitiveDateTime>,
    pub refused_at: Option<PrimitiveDateTime>,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = person_subscriptions)]
#[diesel(treat_none_as_null = true)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct PersonSubscriptionRow {
    pub account_id: String,
    pub user_id: i64,
    pub position: i32,
    pub client_id: String,
    pub name: Option<String>,
    pub asked_at: PrimitiveDateTime,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = shop_subscriptions)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct ShopSubscriptionRow {
    pub account_id: String,
    pub email: String,
    pub position: i32,
    pub client_id: String,
    pub name: String,
    pub created_at: PrimitiveDateTime,
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = daily_channel_sales)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct DailySalesRow {
    pub account_id: String,
    pub day: String,
    pub channel: String,
    pub method: String,
    pub issued: i32,
    pub paid: i32,
    pub refunded: i32,
    pub failed: i32,
    pub expired: i32,
    pub gross: i64,
    pub partner_share: i64,
    pub new_clients: i32,
    pub trials: i32,
    pub first_purchases: i32,
    pub converted: i32,
    pub renewals_manual: i32,
    pub renewals_card: i32,
    pub renewals_stars: i32,
    pub ended: i32,
    pub promo_discount: i64,
    pub promo_gross: i64,
    pub referral_rewards: i32,
    pub referred_gross: i64,
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = gifts)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct GiftRow {
    pub payment_id: String,
    pub account_id: String,
    pub code_hash: String,
    pub recipient_email: Option<String>,
    pub lang: String,
    pub created_at: PrimitiveDateTime,
    pub redeemed_at: Option<PrimitiveDateTime>,
    pub redeemed_by: Option<String>,
    pub refunded_at: Option<PrimitiveDateTime>,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = bot_device_lists)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct BotDeviceListRow {
    pub account_id: String,
    pub chat_id: i64,
    pub nonce: String,
    pub device_ids: String,
    pub listed_at: PrimitiveDateTime,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = renewal_consents, treat_none_as_null = true)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct RenewalConsentRow {
    pub id: String,
    pub account_id: String,
    pub client_ref: String,
    pub payment_id: String,
    pub plan_id: i32,
    pub method: String,
    pub consented_at: PrimitiveDateTime,
    pub text: String,
    pub lang: String,
    pub amount: i64,
    pub platform_amount: i64,
    pub partner_share: i64,
    pub price_told_at: PrimitiveDateTime,
    pub saved_method_sealed: Option<String>,
    pub saved_method_title: Option<String>,
    pub turned_off_at: Option<PrimitiveDateTime>,
    pub turned_off_by: Option<String>,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = renewal_charges, treat_none_as_null = true)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct RenewalChargeRow {
    pub client_ref: String,
    pub term_ends_at: PrimitiveDateTime,
    pub account_id: String,
    pub consent_id: String,
    pub attempt: i32,
    pub payment_id: String,
    pub state: String,
    pub next_try_at: Option<PrimitiveDateTime>,
    pub last_error: Option<String>,
    pub created_at: PrimitiveDateTime,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = stars_rates)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct StarsRateRow {
    pub account_id: String,
    pub kopecks_per_star: i64,
    pub updated_at: PrimitiveDateTime,
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = stars_invoices)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct StarsInvoiceRow {
    pub payment_id: String,
    pub account_id: String,
    pub stars: i64,
    pub subscription: bool,
    pub created_at: PrimitiveDateTime,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = stars_charges, treat_none_as_null = true)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct StarsChargeRow {
    pub charge_id: String,
    pub account_id: String,
    pub payment_id: String,
    pub user_id: i64,
    pub stars: i64,
    pub renewal: bool,
    pub paid_at: PrimitiveDateTime,
    pub refunded_at: Option<PrimitiveDateTime>,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = stars_subscriptions, treat_none_as_null = true)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct StarsSubscriptionRow {
    pub charge_id: String,
    pub account_id: String,
    pub client_ref: String,
    pub payment_id: String,
    pub user_id: i64,
    pub stars: i64,
    pub paid_until: PrimitiveDateTime,
    pub canceled_at: Option<PrimitiveDateTime>,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = mail_outbox, treat_none_as_null = true)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct MailRow {
    pub id: String,
    pub account_id: Option<String>,
    pub to_address: String,
    pub lang: String,
    pub content: String,
    pub created_at: PrimitiveDateTime,
    pub attempts: i32,
    pub next_attempt_at: Option<PrimitiveDateTime>,
    pub sent_at: Option<PrimitiveDateTime>,
    pub given_up_at: Option<PrimitiveDateTime>,
    pub last_error: Option<String>,
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = promo_codes)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct PromoCodeRow {
    pub id: String,
    pub account_id: String,
    pub code: String,
    pub benefit: String,
    pub amount: i64,
    pub max_uses: Option<i32>,
    pub per_customer: i32,
    pub first_purchase_only: bool,
    /// Plan ids, comma-separated; `None`: every plan.
    pub plans: Option<String>,
    pub expires_at: Option<PrimitiveDateTime>,
    pub disabled_at: Option<PrimitiveDateTime>,
    pub created_at: PrimitiveDateTime,
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = promo_uses)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct PromoUseRow {
    pub payment_id: String,
    pub promo_id: String,
    pub account_id: String,
    pub client_id: String,
    pub created_at: PrimitiveDateTime,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = referral_programs)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct ReferralProgramRow {
    pub account_id: String,
    pub days: i32,
    pub updated_at: PrimitiveDateTime,
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = referral_codes)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct ReferralCodeRow {
    pub code: String,
    pub account_id: String,
    pub client_ref: String,
    pub created_at: PrimitiveDateTime,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = referrals, treat_none_as_null = true)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct ReferralRow {
    pub account_id: String,
    pub invited_user_id: i64,
    pub inviter_ref: String,
    pub invited_at: PrimitiveDateTime,
    pub payment_id: Option<String>,
    pub days: Option<i32>,
    pub state: Option<String>,
    pub rewarded_at: Option<PrimitiveDateTime>,
    pub spent_payment_id: Option<String>,
    pub reversed_at: Option<PrimitiveDateTime>,
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = broadcasts)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct BroadcastRow {
    pub id: String,
    pub account_id: String,
    pub text: String,
    pub text_ru: Option<String>,
    pub button_text: Option<String>,
    pub button_url: Option<String>,
    pub audience: String,
    pub state: String,
    pub created_at: PrimitiveDateTime,
    pub finished_at: Option<PrimitiveDateTime>,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = broadcast_chats, treat_none_as_null = true)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct BroadcastChatRow {
    pub broadcast_id: String,
    pub chat_id: i64,
    pub lang: String,
    pub state: String,
    pub attempts: i32,
    pub next_attempt_at: Option<PrimitiveDateTime>,
    pub sent_at: Option<PrimitiveDateTime>,
    pub last_error: Option<String>,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = operators, treat_none_as_null = true)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct OperatorRow {
    pub id: String,
    pub email: String,
    pub password_hash: Option<String>,
    pub created_at: PrimitiveDateTime,
    pub revoked_at: Option<PrimitiveDateTime>,
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = operator_audit)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct OperatorAuditRow {
    pub id: String,
    pub operator_id: Option<String>,
    pub actor: String,
    pub action: String,
    pub detail: String,
    pub at: PrimitiveDateTime,
}
