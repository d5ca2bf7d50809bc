//! Records <-> rows. Reading never trusts stored text: anything that does not decode into a
//! domain value is `StoreError::Corrupt`.

use std::str::FromStr;

use time::{OffsetDateTime, PrimitiveDateTime, UtcOffset};
use vp_domain::limits::LimitOverrides;
use vp_domain::subscription::TermReminders;
use vp_domain::traffic::{TrafficLimit, TrafficReset};
use vp_domain::{
    AccountId, ApiKeyId, BrandName, ClientId, ClientRef, DeviceLimit, DeviceSettings, GatewayName, GatewayRoute,
    InvoiceStatus, MarkupPercent, MethodCode, Money, PaymentId, PriceBreakdown, Purpose, Rail, Subscription,
    SubscriptionStatus, TimeZone,
};
use vp_ports::PanelDevice;
use vp_ports::records::*;
use vp_ports::store::StoreResult;

use crate::errors::corrupt;
use crate::models::*;

/// Stored as UTC with microsecond precision, the finest PostgreSQL keeps, so both backends
/// give back exactly the same instant.
pub(crate) fn db_time(t: OffsetDateTime) -> PrimitiveDateTime {
    let utc = t.to_offset(UtcOffset::UTC);
    let micros = utc.time().nanosecond() / 1_000 * 1_000;
    let time = utc.time().replace_nanosecond(micros).unwrap_or(utc.time());
    PrimitiveDateTime::new(utc.date(), time)
}

pub(crate) fn db_time_opt(t: Option<OffsetDateTime>) -> Option<PrimitiveDateTime> {
    t.map(db_time)
}

pub(crate) fn utc(t: PrimitiveDateTime) -> OffsetDateTime {
    t.assume_utc()
}

/// Counts are `u32` in the domain and INTEGER in the schema.
pub(crate) fn int(v: u32, what: &str) -> StoreResult<i32> {
    i32::try_from(v).map_err(|_| corrupt(format!("{what} {v} is too large to store")))
}

fn int_opt(v: Option<u32>, what: &str) -> StoreResult<Option<i32>> {
    v.map(|v| int(v, what)).transpose()
}

pub(crate) fn count(v: i32, what: &str) -> StoreResult<u32> {
    u32::try_from(v).map_err(|_| corrupt(format!("stored {what} {v} is negative")))
}

pub(crate) fn count_opt(v: Option<i32>, what: &str) -> StoreResult<Option<u32>> {
    v.map(|v| count(v, what)).transpose()
}

fn parse<T: FromStr>(text: &str, what: &str) -> StoreResult<T> {
    text.parse().map_err(|_| corrupt(format!("stored {what} {text:?} is not valid")))
}

/// A traffic limit as two columns: bytes and reset, both set or both NULL.
fn traffic_columns(limit: Option<TrafficLimit>) -> StoreResult<(Option<i64>, Option<String>)> {
    match limit {
        None => Ok((None, None)),
        Some(l) => {
            let bytes =
                i64::try_from(l.bytes).map_err(|_| corrupt(format!("traffic limit {} is too large", l.bytes)))?;
            Ok((Some(bytes), Some(l.reset.as_str().to_owned())))
        }
    }
}

fn traffic_limit(bytes: Option<i64>, reset: Option<&str>) -> StoreResult<Option<TrafficLimit>> {
    match (bytes, reset) {
        (None, None) => Ok(None),
        (Some(bytes), Some(reset)) => {
            let bytes = u64::try_from(bytes).map_err(|_| corrupt(format!("stored traffic limit {bytes}")))?;
            let reset = parse::<TrafficReset>(reset, "traffic reset")?;
            TrafficLimit::of_bytes(bytes, reset).map(Some).ok_or_else(|| corrupt("a stored traffic limit of 0 bytes"))
        }
        _ => Err(corrupt("a traffic limit without its reset, or a reset without its limit")),
    }
}

pub(crate) fn client_id(text: &str) -> StoreResult<ClientId> {
    ClientId::parse(text).map_err(|e| corrupt(format!("stored client_id {text:?}: {e}")))
}

pub(crate) fn account_row(a: &AccountRecord) -> StoreResult<AccountRow> {
    let markup = i32::try_from(a.markup.basis_points()).map_err(|_| corrupt("markup is too large to store"))?;
    Ok(AccountRow {
        id: a.id.to_string(),
        brand_name: a.brand_name.as_str().to_owned(),
        markup_bp: markup,
        trial_enabled: a.trial_enabled,
        api_enabled: a.api_enabled,
        limit_requests_per_minute: int_opt(a.limits.requests_per_minute, "requests_per_minute")?,
        limit_payments_per_minute: int_opt(a.limits.payments_per_minute, "payments_per_minute")?,
        limit_new_clients_per_day: int_opt(a.limits.new_clients_per_day, "new_clients_per_day")?,
        limit_trials_per_day: int_opt(a.limits.trials_per_day, "trials_per_day")?,
        created_at: db_time(a.created_at),
        logo_url: a.style.logo_url.clone(),
        accent_color: a.style.accent_color.clone(),
        support_url: a.style.support_url.clone(),
        time_zone: a.time_zone.name().to_owned(),
    })
}

pub(crate) fn account(r: AccountRow) -> StoreResult<AccountRecord> {
    let bp = count(r.markup_bp, "markup")?;
    Ok(AccountRecord {
        brand_name: BrandName::parse(&r.brand_name).map_err(|e| corrupt(format!("stored brand name: {e}")))?,
        markup: MarkupPercent::from_basis_points(bp).map_err(|e| corrupt(format!("stored markup {bp}: {e}")))?,
        trial_enabled: r.trial_enabled,
        api_enabled: r.api_enabled,
        limits: LimitOverrides {
            requests_per_minute: count_opt(r.limit_requests_per_minute, "requests_per_minute")?,
            payments_per_minute: count_opt(r.limit_payments_per_minute, "payments_per_minute")?,
            new_clients_per_day: count_opt(r.limit_new_clients_per_day, "new_clients_per_day")?,
            trials_per_day: count_opt(r.limit_trials_per_day, "trials_per_day")?,
        },
        created_at: utc(r.created_at),
        style: AccountStyle { logo_url: r.logo_url, accent_color: r.accent_color, support_url: r.support_url },
        time_zone: TimeZone::parse(&r.time_zone).map_err(|e| corrupt(format!("stored time zone: {e}")))?,
        id: AccountId::issued(r.id),
    })
}

pub(crate) fn api_key_row(k: &ApiKeyRecord) -> ApiKeyRow {
    ApiKeyRow {
        id: k.id.to_string(),
        account_id: k.account_id.to_string(),
        key_hash: k.key_hash.clone(),
        prefix: k.prefix.clone(),
        created_at: db_time(k.created_at),
        revoked_at: db_time_opt(k.revoked_at),
    }
}

pub(crate) fn api_key(r: ApiKeyRow) -> ApiKeyRecord {
    ApiKeyRecord {
        id: ApiKeyId::issued(r.id),
        account_id: AccountId::issued(r.account_id),
        key_hash: r.key_hash,
        prefix: r.prefix,
        created_at: utc(r.created_at),
        revoked_at: r.revoked_at.map(utc),
    }
}

pub(crate) fn new_plan_row(p: &NewPlan) -> StoreResult<NewPlanRow> {
    let (traffic_limit_bytes, traffic_reset) = traffic_columns(p.traffic)?;
    Ok(NewPlanRow {
        months: int(p.months, "months")?,
        lifetime: p.lifetime,
        device_limited: p.device_limited,
        platform_price: p.platform_price.kopecks(),
        created_at: db_time(p.created_at),
        traffic_limit_bytes,
        traffic_reset,
    })
}

pub(crate) fn plan(r: PlanRow) -> StoreResult<PlanRecord> {
    Ok(PlanRecord {
        plan_id: r.plan_id,
        months: count(r.months, "months")?,
        lifetime: r.lifetime,
        device_limited: r.device_limited,
        platform_price: Money::from_kopecks(r.platform_price),
        created_at: utc(r.created_at),
        retired_at: r.retired_at.map(utc),
        traffic: traffic_limit(r.traffic_limit_bytes, r.traffic_reset.as_deref())?,
    })
}

/// The single row of `device_settings` has id 1 (a CHECK keeps it single).
pub(crate) fn device_settings_row(s: &DeviceSettings) -> StoreResult<DeviceSettingsRow> {
    Ok(DeviceSettingsRow {
        id: 1,
        included: int(s.included, "included devices")?,
        max_devices: int(s.max, "max devices")?,
        platform_price: s.platform_price.map(Money::kopecks),
    })
}

pub(crate) fn device_settings(r: DeviceSettingsRow) -> StoreResult<DeviceSettings> {
    let price = r.platform_price.map(Money::from_kopecks);
    DeviceSettings::new(count(r.included, "included devices")?, count(r.max_devices, "max devices")?, price)
        .map_err(|e| corrupt(format!("stored device settings: {e}")))
}

pub(crate) fn payment_method_row(m: &PaymentMethodRecord) -> PaymentMethodRow {
    PaymentMethodRow {
        code: m.code.clone(),
        name_en: m.name_en.clone(),
        name_ru: m.name_ru.clone(),
        enabled: m.enabled,
        position: m.position,
        gateway_type: m.gateway_type.clone(),
        gateway: m.gateway.map(|g| g.as_str().to_owned()),
    }
}

pub(crate) fn payment_method(r: PaymentMethodRow) -> StoreResult<PaymentMethodRecord> {
    Ok(PaymentMethodRecord {
        gateway: r.gateway.as_deref().map(|g| parse(g, "payment method gateway")).transpose()?,
        code: r.code,
        name_en: r.name_en,
        name_ru: r.name_ru,
        enabled: r.enabled,
        position: r.position,
        gateway_type: r.gateway_type,
    })
}

pub(crate) fn setting_row(s: &SettingRecord) -> SettingRow {
    SettingRow { key: s.key.name(), value: s.value.clone(), updated_at: db_time(s.updated_at) }
}

/// A language as stored (`en`, `ru`).
pub(crate) fn lang(code: &str) -> StoreResult<vp_domain::Lang> {
    vp_domain::Lang::from_code(code).ok_or_else(|| crate::errors::corrupt(format!("language {code:?}")))
}

/// The row of the setting `key` (read by that name).
pub(crate) fn setting(key: vp_ports::SettingKey, r: SettingRow) -> SettingRecord {
    SettingRecord { key, value: r.value, updated_at: utc(r.updated_at) }
}

pub(crate) fn client_row(c: &ClientRecord) -> ClientRow {
    ClientRow {
        id: c.id.to_string(),
        account_id: c.account_id.to_string(),
        client_id: c.client_id.as_str().to_owned(),
        created_at: db_time(c.created_at),
        blocked: c.blocked,
    }
}

pub(crate) fn client(r: ClientRow, sub: Option<SubscriptionRow>) -> StoreResult<ClientRecord> {
    Ok(ClientRecord {
        client_id: client_id(&r.client_id)?,
        id: ClientRef::issued(r.id),
        account_id: AccountId::issued(r.account_id),
        created_at: utc(r.created_at),
        blocked: r.blocked,
        subscription: sub.map(subscription).transpose()?,
    })
}

/// The row to write; its `change_seq` is left at 0, for the writing statement decides it
/// (`repo::subscription_write`).
pub(crate) fn subscription_row(client_ref: &str, s: &SubscriptionRecord) -> StoreResult<SubscriptionRow> {
    let sub = &s.subscription;
    let (traffic_limit_bytes, traffic_reset) = traffic_columns(sub.traffic)?;
    let (unlimited, included, purchased) = match sub.devices {
        DeviceLimit::Unlimited => (true, 0, 0),
        DeviceLimit::Limited { included, purchased } => {
            (false, int(included, "included devices")?, int(purchased, "purchased devices")?)
        }
    };
    Ok(SubscriptionRow {
        client_ref: client_ref.to_owned(),
        status: sub.status.as_str().to_owned(),
        is_trial: sub.is_trial,
        lifetime: sub.lifetime,
        expires_at: db_time(sub.expires_at),
        term_started_at: db_time(sub.term_started_at),
        devices_unlimited: unlimited,
        devices_included: included,
        devices_purchased: purchased,
        reminder_72_sent: sub.reminders.sent_72,
        reminder_24_sent: sub.reminders.sent_24,
        link_rotated_at: db_time_opt(sub.link_rotated_at),
        link_token: s.link_token.clone(),
        revision: s.revision,
        panel_revision: s.panel_revision,
        change_seq: 0,
        next_check_at: db_time_opt(vp_domain::term_events::next_check_at(sub)),
        auto_renew: s.auto_renew,
        panel_name: s.panel_name.clone(),
        panel_id: None,
        traffic_limit_bytes,
        traffic_reset,
    })
}

fn subscription(r: SubscriptionRow) -> StoreResult<SubscriptionRecord> {
    let devices = if r.devices_unlimited {
        DeviceLimit::Unlimited
    } else {
        DeviceLimit::Limited {
            included: count(r.devices_included, "included devices")?,
            purchased: count(r.devices_purchased, "purchased devices")?,
        }
    };
    Ok(SubscriptionRecord {
        subscription: Subscription {
            status: parse::<SubscriptionStatus>(&r.status, "subscription status")?,
            is_trial: r.is_trial,
            lifetime: r.lifetime,
            expires_at: utc(r.expires_at),
            term_started_at: utc(r.term_started_at),
            devices,
            reminders: TermReminders { sent_72: r.reminder_72_sent, sent_24: r.reminder_24_sent },
            link_rotated_at: r.link_rotated_at.map(utc),
            traffic: traffic_limit(r.traffic_limit_bytes, r.traffic_reset.as_deref())?,
        },
        link_token: r.link_token,
        revision: r.revision,
        panel_revision: r.panel_revision,
        auto_renew: r.auto_renew,
        panel_name: r.panel_name,
    })
}

pub(crate) fn invoice_row(i: &InvoiceRecord) -> StoreResult<InvoiceRow> {
    let devices = i.purpose.devices().map(|d| int(d, "devices")).transpose()?;
    Ok(InvoiceRow {
        payment_id: i.payment_id.to_string(),
        account_id: i.account_id.to_string(),
        client_ref: i.client_ref.to_string(),
        status: i.status.as_str().to_owned(),
        purpose: i.purpose.as_str().to_owned(),
        plan_id: i.purpose.plan_id(),
        devices,
        method: i.method.clone(),
        amount: i.amounts.customer.kopecks(),
        platform_amount: i.amounts.platform.kopecks(),
        partner_share: i.amounts.partner_share.kopecks(),
        return_url: i.return_url.clone(),
        payment_url: i.payment_url.clone(),
        gateway_payment_id: i.gateway_payment_id.clone(),
        created_at: db_time(i.created_at),
        expires_at: db_time(i.expires_at),
        paid_at: db_time_opt(i.paid_at),
        receipt: i
            .receipt
            .as_ref()
            .map(|r| serde_json::to_string(r).map_err(|e| corrupt(format!("receipt: {e}"))))
            .transpose()?,
        promo: i.promo.as_ref().map(PromoJson::text),
        rail: Some(i.rail.to_string()),
    })
}

/// The discount kept in an invoice's `promo` column.
pub(crate) fn promo_discount(text: &str) -> StoreResult<Money> {
    let json: PromoJson = serde_json::from_str(text).map_err(|e| corrupt(format!("invoice promo: {e}")))?;
    Ok(Money::from_kopecks(json.discount))
}

/// What a promo code did to an invoice, as the `promo` column keeps it.
#[derive(serde::Serialize, serde::Deserialize)]
struct PromoJson {
    code: String,
    /// Kopecks.
    discount: i64,
    extra_days: u32,
}

impl PromoJson {
    fn text(applied: &vp_domain::promo::Applied) -> String {
        let json = PromoJson {
            code: applied.code.as_str().to_owned(),
            discount: applied.discount.kopecks(),
            extra_days: applied.extra_days,
        };
        serde_json::to_string(&json).unwrap_or_default()
    }

    fn applied(text: &str, payment_id: &str) -> StoreResult<vp_domain::promo::Applied> {
        let bad = |e: String| corrupt(format!("invoice {payment_id} promo: {e}"));
        let json: PromoJson = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        Ok(vp_domain::promo::Applied {
            code: vp_domain::promo::PromoCode::parse(&json.code).map_err(|e| bad(e.to_string()))?,
            discount: Money::from_kopecks(json.discount),
            extra_days: json.extra_days,
        })
    }
}

/// The rail of an invoice row. One issued before rails were kept went through the one gateway
/// of its time (`legacy`, `VP_GATEWAY`), or, carrying Stars' method code, through Stars.
fn rail(r: &InvoiceRow, legacy: GatewayName) -> StoreResult<Rail> {
    match &r.rail {
        Some(text) => parse(text, "invoice rail"),
        None => Ok(match MethodCode::parse(&r.method) {
            Ok(code) if Rail::is_stars_code(&code) => Rail::Stars,
            _ => Rail::Gateway(GatewayRoute::of(legacy)),
        }),
    }
}

pub(crate) fn invoice(r: InvoiceRow, client_id_text: &str, legacy: GatewayName) -> StoreResult<InvoiceRecord> {
    let purpose = match (r.purpose.as_str(), r.plan_id, r.devices) {
        ("subscription", Some(plan_id), None) => Purpose::Subscription { plan_id },
        ("devices", None, Some(n)) => Purpose::Devices { count: count(n, "devices")? },
        (p, plan, devices) => {
            return Err(corrupt(format!("invoice purpose {p:?} with plan {plan:?} and devices {devices:?}")));
        }
    };
    let receipt = r
        .receipt
        .as_deref()
        .map(|text| serde_json::from_str(text).map_err(|e| corrupt(format!("invoice {} receipt: {e}", r.payment_id))))
        .transpose()?;
    let promo = r.promo.as_deref().map(|text| PromoJson::applied(text, &r.payment_id)).transpose()?;
    Ok(InvoiceRecord {
        rail: rail(&r, legacy)?,
        receipt,
        promo,
        client_id: client_id(client_id_text)?,
        status: parse::<InvoiceStatus>(&r.status, "invoice status")?,
        purpose,
        amounts: PriceBreakdown {
            customer: Money::from_kopecks(r.amount),
            platform: Money::from_kopecks(r.platform_amount),
            partner_share: Money::from_kopecks(r.partner_share),
        },
        payment_id: PaymentId::issued(r.payment_id),
        account_id: AccountId::issued(r.account_id),
        client_ref: ClientRef::issued(r.client_ref),
        method: r.method,
        return_url: r.return_url,
        payment_url: r.payment_url,
        gateway_payment_id: r.gateway_payment_id,
        created_at: utc(r.created_at),
        expires_at: utc(r.expires_at),
        paid_at: r.paid_at.map(utc),
    })
}

const STARTED: &str = "started";
const FINISHED: &str = "finished";

pub(crate) const fn recovery_point_text(p: RecoveryPoint) -> &'static str {
    match p {
        RecoveryPoint::Started => STARTED,
        RecoveryPoint::Finished => FINISHED,
    }
}

pub(crate) fn idempotency_row(r: &IdempotencyRecord) -> IdempotencyRow {
    IdempotencyRow {
        account_id: r.account_id.to_string(),
        key: r.key.clone(),
        request_fingerprint: r.request_fingerprint.clone(),
        payment_id: r.payment_id.to_string(),
        recovery_point: recovery_point_text(r.recovery_point).to_owned(),
        locked_until: db_time_opt(r.locked_until),
        created_at: db_time(r.created_at),
        gateway_request: r.gateway_request.clone(),
    }
}

pub(crate) fn idempotency(r: IdempotencyRow) -> StoreResult<IdempotencyRecord> {
    let recovery_point = match r.recovery_point.as_str() {
        STARTED => RecoveryPoint::Started,
        FINISHED => RecoveryPoint::Finished,
        other => return Err(corrupt(format!("stored recovery point {other:?} is not valid"))),
    };
    Ok(IdempotencyRecord {
        account_id: AccountId::issued(r.account_id),
        key: r.key,
        request_fingerprint: r.request_fingerprint,
        payment_id: PaymentId::issued(r.payment_id),
        recovery_point,
        locked_until: r.locked_until.map(utc),
        created_at: utc(r.created_at),
        gateway_request: r.gateway_request,
    })
}

pub(crate) fn local_user_row(u: &LocalPanelUser) -> StoreResult<LocalPanelUserRow> {
    let (traffic_limit_bytes, traffic_reset) = traffic_columns(u.traffic)?;
    Ok(LocalPanelUserRow {
        user_ref: u.user_ref.clone(),
        link_token: u.link_token.clone(),
        expires_at: db_time(u.expires_at),
        device_limit: int_opt(u.device_limit, "device limit")?,
        enabled: u.enabled,
        traffic_limit_bytes,
        traffic_reset,
        traffic_counted_from: db_time_opt(u.traffic_counted_from),
    })
}

pub(crate) fn local_user(r: LocalPanelUserRow) -> StoreResult<LocalPanelUser> {
    Ok(LocalPanelUser {
        device_limit: count_opt(r.device_limit, "device limit")?,
        user_ref: r.user_ref,
        link_token: r.link_token,
        expires_at: utc(r.expires_at),
        enabled: r.enabled,
        traffic: traffic_limit(r.traffic_limit_bytes, r.traffic_reset.as_deref())?,
        traffic_counted_from: r.traffic_counted_from.map(utc),
    })
}

pub(crate) fn local_device_row(d: &LocalPanelDevice) -> LocalPanelDeviceRow {
    let device = &d.device;
    LocalPanelDeviceRow {
        user_ref: d.user_ref.clone(),
        hwid: device.hwid.clone(),
        platform: device.platform.clone(),
        os_version: device.os_version.clone(),
        model: device.model.clone(),
        user_agent: device.user_agent.clone(),
        created_at: db_time(device.created_at),
        last_seen_at: db_time(d.last_seen_at),
    }
}

pub(crate) fn local_device(r: LocalPanelDeviceRow) -> LocalPanelDevice {
    LocalPanelDevice {
        user_ref: r.user_ref,
        device: PanelDevice {
            hwid: r.hwid,
            platform: r.platform,
            os_version: r.os_version,
            model: r.model,
            user_agent: r.user_agent,
            created_at: utc(r.created_at),
        },
        last_seen_at: utc(r.last_seen_at),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(method: &str, rail: Option<&str>) -> InvoiceRow {
        let at = PrimitiveDateTime::new(time::macros::date!(2026 - 11 - 29), time::macros::time!(12:00));
        InvoiceRow {
            payment_id: "pay_1".into(),
            account_id: "acc_1".into(),
            client_ref: "cli_1".into(),
            status: "pending".into(),
            purpose: "subscription".into(),
            plan_id: Some(1),
            devices: None,
            method: method.into(),
            amount: 100,
            platform_amount: 90,
            partner_share: 10,
            return_url: None,
            payment_url: None,
            gateway_payment_id: None,
            created_at: at,
            expires_at: at,
            paid_at: None,
            receipt: None,
            promo: None,
            rail: rail.map(str::to_owned),
        }
    }

    #[test]
    fn an_invoice_keeps_its_rail_and_one_from_before_rails_went_through_the_gateway_of_its_time() {
        let platega = invoice(row("sbp", Some("platega:sbp")), "alice", GatewayName::YooKassa).unwrap();
        assert_eq!(platega.rail, Rail::parse("platega:sbp").unwrap());
        let legacy = invoice(row("card", None), "alice", GatewayName::YooKassa).unwrap();
        assert_eq!(legacy.rail, Rail::Gateway(GatewayRoute::of(GatewayName::YooKassa)));
        let stars = invoice(row(vp_domain::stars::STARS_METHOD, None), "alice", GatewayName::YooKassa).unwrap();
        assert_eq!(stars.rail, Rail::Stars);
        assert!(
            invoice(row("card", Some("paypal")), "alice", GatewayName::Sandbox).is_err(),
            "an unknown rail is refused"
        );
    }
}
