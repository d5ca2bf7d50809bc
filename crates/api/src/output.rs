//! JSON shapes printed by the operator commands. Money as two-decimal strings, times ISO 8601.

use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use vp_app::accounts::AccountOverview;
use vp_app::clients::{PanelImportReport, PanelReconciliation, ShopBotImportReport};
use vp_app::keys::IssuedKey;
use vp_app::referrals::ReferralProgram;
use vp_domain::{CURRENCY, DeviceSettings};
use vp_ports::{AccountRecord, ApiKeyRecord, ClientRecord, InvoiceRecord, PanelInfo, PaymentMethodRecord, PlanRecord};

pub fn timestamp(t: OffsetDateTime) -> Value {
    t.format(&Rfc3339).map(Value::String).unwrap_or(Value::Null)
}

fn opt_timestamp(t: Option<OffsetDateTime>) -> Value {
    t.map_or(Value::Null, timestamp)
}

pub fn account(a: &AccountRecord) -> Value {
    json!({
        "account_id": a.id,
        "brand_name": a.brand_name.as_str(),
        "markup_percent": a.markup.to_string(),
        "trial_enabled": a.trial_enabled,
        "api_enabled": a.api_enabled,
        "currency": CURRENCY,
        "limit_overrides": {
            "requests_per_minute": a.limits.requests_per_minute,
            "payments_per_minute": a.limits.payments_per_minute,
            "new_clients_per_day": a.limits.new_clients_per_day,
            "trials_per_day": a.limits.trials_per_day,
        },
        "style": {
            "logo_url": a.style.logo_url,
            "accent_color": a.style.accent_color,
            "support_url": a.style.support_url,
        },
        "time_zone": a.time_zone.name(),
        "created_at": timestamp(a.created_at),
    })
}

/// An account's referral program, its figures and its top inviters.
pub fn referral_program(account_id: &str, p: &ReferralProgram) -> Value {
    let inviters: Vec<Value> = p
        .top_inviters
        .iter()
        .map(|i| {
            json!({
                "client_id": i.client_id.as_str(),
                "invited": i.invited,
                "rewarded": i.rewarded,
                "days_given": i.days_given,
            })
        })
        .collect();
    json!({
        "account_id": account_id,
        "days": p.days.days(),
        "status": if p.days.is_on() { "on" } else { "off" },
        "invited": p.totals.invited,
        "rewarded": p.totals.rewarded,
        "days_given": p.totals.days_given,
        "top_inviters": inviters,
    })
}

pub fn account_overview(o: &AccountOverview) -> Value {
    let mut v = account(&o.account);
    v["partner_balance"] = json!(o.balance.available.to_string());
    v["partner_balance_held"] = json!(o.balance.held.to_string());
    v["api_keys"] = o.keys.iter().map(api_key).collect();
    v
}

pub fn api_key(k: &ApiKeyRecord) -> Value {
    json!({
        "key_id": k.id,
        "prefix": k.prefix,
        "created_at": timestamp(k.created_at),
        "revoked_at": opt_timestamp(k.revoked_at),
    })
}

/// The one time a key's secret is shown.
pub fn issued_key(k: &IssuedKey) -> Value {
    json!({
        "key_id": k.id,
        "api_key": k.secret,
        "prefix": k.prefix,
        "note": "the key is shown only now; it is stored as a hash and cannot be shown again",
    })
}

pub fn plan(p: &PlanRecord) -> Value {
    json!({
        "plan_id": p.plan_id,
        "months": p.months,
        "lifetime": p.lifetime,
        "unlimited_devices": !p.device_limited,
        "platform_price": p.platform_price.to_string(),
        "currency": CURRENCY,
        "created_at": timestamp(p.created_at),
        "retired_at": opt_timestamp(p.retired_at),
        "traffic_limit_bytes": p.traffic.map(|t| t.bytes),
        "traffic_reset": p.traffic.map(|t| t.reset.as_str()),
    })
}

pub fn device_settings(s: Option<&DeviceSettings>) -> Value {
    match s {
        None => json!({ "configured": false, "on_sale": false }),
        Some(s) => json!({
            "configured": true,
            "included": s.included,
            "max": s.max,
            "on_sale": s.platform_price.is_some(),
            "platform_price": s.platform_price.map(|p| p.to_string()),
            "currency": CURRENCY,
        }),
    }
}

pub fn payment_method(m: &PaymentMethodRecord) -> Value {
    json!({
        "code": m.code,
        "name_en": m.name_en,
        "name_ru": m.name_ru,
        "enabled": m.enabled,
        "position": m.position,
        // `null`: the default gateway (VP_GATEWAY).
        "gateway": m.gateway.map(|g| vp_domain::GatewayRoute { gateway: g, method: m.gateway_type.clone() }.to_string()),
        "yookassa_type": m.gateway_type,
    })
}

pub fn client(c: &ClientRecord) -> Value {
    let subscription = c.subscription.as_ref().map(|r| {
        let s = &r.subscription;
        json!({
            "status": s.status.as_str(),
            "is_trial": s.is_trial,
            "lifetime": s.lifetime,
            "expires_at": timestamp(s.expires_at),
            "devices_limit": s.devices.limit(),
            "auto_renew": r.auto_renew,
        })
    });
    json!({
        "account_id": c.account_id,
        "client_id": c.client_id.as_str(),
        "blocked": c.blocked,
        "created_at": timestamp(c.created_at),
        "subscription": subscription,
    })
}

pub fn invoice(i: &InvoiceRecord) -> Value {
    json!({
        "payment_id": i.payment_id,
        "account_id": i.account_id,
        "client_id": i.client_id.as_str(),
        "status": i.status.as_str(),
        "purpose": i.purpose.as_str(),
        "plan_id": i.purpose.plan_id(),
        "devices": i.purpose.devices(),
        "method": i.method,
        "amount": i.amounts.customer.to_string(),
        "platform_amount": i.amounts.platform.to_string(),
        "partner_share": i.amounts.partner_share.to_string(),
        "currency": CURRENCY,
        "gateway_payment_id": i.gateway_payment_id,
        "created_at": timestamp(i.created_at),
        "expires_at": timestamp(i.expires_at),
        "paid_at": opt_timestamp(i.paid_at),
        "promo": i.promo.as_ref().map(|p| json!({
            "code": p.code.as_str(),
            "discount": p.discount.to_string(),
            "extra_days": p.extra_days,
        })),
    })
}

pub fn panel_info(i: &PanelInfo) -> Value {
    json!({ "panel": i.kind, "address": i.address, "version": i.version })
}

/// `import remnawave`: the counts by outcome, then the users left alone and the Telegram ids
/// not linked, each with its panel name.
pub fn panel_import(r: &PanelImportReport) -> Value {
    let refused: Vec<Value> = r
        .refused
        .iter()
        .map(|u| json!({ "panel_id": u.panel_id, "username": u.username, "reason": u.reason.as_str() }))
        .collect();
    let not_linked: Vec<Value> =
        r.telegram_not_linked.iter().map(|t| json!({ "username": t.username, "telegram_id": t.telegram_id })).collect();
    json!({
        "dry_run": r.dry_run,
        "read": r.read,
        "outside_squad": r.outside_squad,
        "platform_users": r.platform_users,
        "already_imported": r.already_imported,
        "imported": r.imported,
        "bot_customers": r.bot_customers,
        "refused": refused.len(),
        "telegram_not_linked": not_linked.len(),
        "refused_users": refused,
        "telegram_not_linked_users": not_linked,
    })
}

pub fn shop_bot_import(r: &ShopBotImportReport) -> Value {
    let not_mapped: Vec<Value> = r
        .not_mapped
        .iter()
        .map(|n| {
            json!({
                "customer_id": n.customer_id,
                "telegram_id": n.telegram_id,
                "subscription_id": n.subscription_id,
                "promo_code": n.promo_code,
                "reason": n.reason.as_str(),
                "detail": n.reason.detail(),
            })
        })
        .collect();
    json!({
        "source": r.source,
        "dry_run": r.dry_run,
        "customers": r.customers,
        "subscriptions": r.subscriptions,
        "panel": panel_import(&r.panel),
        "bot_customers_without_subscription": r.bot_customers_without_subscription,
        "languages_set": r.languages_set,
        "balances_recorded": r.balances_recorded,
        "balances_total": vp_domain::Money::from_kopecks(r.balances_total).to_string(),
        "referrals_carried": r.referrals_carried,
        "referral_links_not_carried": r.referral_links_not_carried,
        "promo_codes": r.promo_codes,
        "promo_codes_imported": r.promo_codes_imported,
        "promo_codes_already": r.promo_codes_already,
        "not_mapped": not_mapped.len(),
        "not_mapped_items": not_mapped,
    })
}

pub fn panel_reconciliation(r: &PanelReconciliation) -> Value {
    let drifted: Vec<Value> = r
        .drifted
        .iter()
        .map(|d| {
            let drift: Vec<Value> = d
                .drift
                .iter()
                .map(|f| json!({ "field": f.field, "expected": f.expected, "actual": f.actual }))
                .collect();
            let mut entry = json!({
                "account_id": d.account_id,
                "client_id": d.client_id,
                "client_ref": d.client_ref,
                "drift": drift,
            });
            if let Some(fixed) = &d.fixed {
                entry["fixed"] = json!(fixed.is_ok());
                if let Err(reason) = fixed {
                    entry["error"] = json!(reason);
                }
            }
            entry
        })
        .collect();
    json!({ "checked": r.checked, "drifted": drifted.len(), "clients": drifted })
}

/// What a gateway answered `gateway check` (only an answer: failures stop the command).
pub fn gateway_checked(c: &vp_app::payments::GatewayChecked) -> Value {
    let mut shown = json!({ "gateway": c.gateway.as_str(), "default": c.default });
    if let Ok(i) = &c.answer {
        shown["address"] = json!(i.address);
        shown["shop_id"] = json!(i.account);
        shown["test"] = json!(i.test);
        shown["enabled"] = json!(i.enabled);
        shown["methods"] = json!(i.methods);
    }
    shown
}

pub fn cabinet_user(u: &vp_ports::CabinetUser) -> Value {
    json!({
        "user_id": u.id,
        "account_id": u.account_id,
        "email": u.email,
        "password_set": u.password_hash.is_some(),
        "created_at": timestamp(u.created_at),
        "revoked_at": opt_timestamp(u.revoked_at),
    })
}

/// The one time a set-password link is shown.
pub fn cabinet_invitation(i: &vp_app::cabinet::Invitation) -> Value {
    json!({
        "user_id": i.user.id,
        "account_id": i.user.account_id,
        "email": i.user.email,
        "purpose": i.purpose.as_str(),
        "link": i.link,
        "expires_at": timestamp(i.expires_at),
        "mail_id": i.mail_id,
        "note": "the link is mailed to the address too; give it to the person only: it works once and is stored as a hash",
    })
}

pub fn operator_invitation(i: &vp_app::operator_view::OperatorInvitation) -> Value {
    json!({
        "operator_id": i.operator.id,
        "email": i.operator.email,
        "purpose": i.purpose.as_str(),
        "link": i.link,
        "expires_at": timestamp(i.expires_at),
        "mail_id": i.mail_id,
        "note": "the link is mailed to the address too; give it to the person only: it works once and is stored as a hash",
    })
}

pub fn operator(o: &vp_ports::OperatorRecord) -> Value {
    json!({
        "operator_id": o.id,
        "email": o.email,
        "password_set": o.password_hash.is_some(),
        "created_at": timestamp(o.created_at),
        "revoked_at": opt_timestamp(o.revoked_at),
    })
}

/// A partner balance: what may be withdrawn and what open requests hold.
pub fn balance(b: vp_domain::withdrawal::Balance) -> Value {
    json!({ "available": b.available.to_string(), "held": b.held.to_string() })
}

pub fn withdrawal(w: &vp_ports::WithdrawalRecord) -> Value {
    json!({
        "withdrawal_id": w.id,
        "account_id": w.account_id,
        "amount": w.amount.to_string(),
        "status": w.status.as_str(),
        "payout_details": w.payout_details,
        "note": w.note,
        "requested_by": w.requested_by,
        "created_at": timestamp(w.created_at),
        "updated_at": timestamp(w.updated_at),
    })
}

/// One message of the mail outbox; the address is shown, the content only by its kind.
pub fn mail(m: &vp_ports::MailRecord) -> Value {
    let status = match (m.sent_at, m.given_up_at) {
        (Some(_), _) => "sent",
        (None, Some(_)) => "given_up",
        (None, None) => "queued",
    };
    json!({
        "mail_id": m.id,
        "kind": m.content.kind(),
        "to": m.to,
        "lang": m.lang.code(),
        "status": status,
        "attempts": m.attempts,
        "created_at": timestamp(m.created_at),
        "sent_at": m.sent_at.map(timestamp),
        "next_attempt_at": m.next_attempt_at.map(timestamp),
        "given_up_at": m.given_up_at.map(timestamp),
        "last_error": m.last_error,
    })
}

/// A range's sales figures: money as exact decimals, counts as numbers.
pub fn sales_report(report: &vp_app::sales::SalesReport) -> Value {
    let figures = |f: &vp_domain::sales::Figures| {
        json!({
            "issued": f.issued,
            "paid": f.paid,
            "refunded": f.refunded,
            "failed": f.failed,
            "expired": f.expired,
            "gross": f.gross.to_string(),
            "partner_share": f.partner_share.to_string(),
            "new_clients": f.new_clients,
            "trials": f.trials,
            "first_purchases": f.first_purchases,
            "converted": f.converted,
            "renewals_manual": f.renewals_manual,
            "renewals_card": f.renewals_card,
            "renewals_stars": f.renewals_stars,
            "ended": f.ended,
            "promo_discount": f.promo_discount.to_string(),
            "promo_gross": f.promo_gross.to_string(),
            "referral_rewards": f.referral_rewards,
            "referred_gross": f.referred_gross.to_string(),
            "success_percent": f.success_percent(),
            "conversion_percent": f.conversion_percent(),
        })
    };
    let by_channel = |by: &[(vp_domain::sales::Channel, vp_domain::sales::Figures)]| {
        by.iter().map(|(c, f)| json!({ "channel": c.code(), "figures": figures(f) })).collect::<Vec<_>>()
    };
    json!({
        "range": report.range.code(),
        "from": report.first.to_string(),
        "to": report.last.to_string(),
        "total": figures(&report.total),
        "previous": figures(&report.previous),
        "by_method": report.by_method.iter().map(|(m, f)| json!({ "method": m, "figures": figures(f) })).collect::<Vec<_>>(),
        "by_channel": by_channel(&report.by_channel),
        "previous_by_channel": by_channel(&report.previous_by_channel),
    })
}
