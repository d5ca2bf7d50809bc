//! Operator commands for partners' promo codes.

use serde_json::{Value, json};
use vp_app::AppError;
use vp_app::Services;
use vp_app::actor::Acting;
use vp_app::promotions::{NewPromo, PromoSummary, describe_benefit};
use vp_domain::AccountId;
use vp_domain::Money;
use vp_domain::promo::{Benefit, PromoCode};
use vp_domain::time_zone::parse_day;

use crate::cli::{PromoCommand, PromoCreateArgs};
use crate::commands::CommandError;
use crate::output::timestamp;

/// A code as the operator sees it.
fn promo(s: &PromoSummary) -> Value {
    let p = &s.promo;
    let (kind, value) = match p.benefit {
        Benefit::PercentOff(percent) => ("percent_off", json!(percent)),
        Benefit::AmountOff(amount) => ("amount_off", json!(amount.to_string())),
        Benefit::ExtraDays(days) => ("extra_days", json!(days)),
    };
    json!({
        "account_id": p.account_id,
        "code": p.code.as_str(),
        "benefit": describe_benefit(p.benefit),
        kind: value,
        "max_uses": p.terms.max_uses,
        "per_customer": p.terms.per_customer,
        "first_purchase_only": p.terms.first_purchase_only,
        "plans": p.terms.plans,
        "expires_at": p.terms.expires_at.map_or(Value::Null, timestamp),
        "status": if p.terms.disabled { "disabled" } else { "active" },
        "created_at": timestamp(p.created_at),
        "uses_held": s.usage.held,
        "uses_spent": s.usage.spent,
        "discount_given": s.usage.discount_given.to_string(),
    })
}

fn bad(flag: &str, e: impl std::fmt::Display) -> CommandError {
    CommandError::BadInput(format!("{flag}: {e}"))
}

fn new_promo(args: PromoCreateArgs) -> Result<(AccountId, NewPromo), CommandError> {
    let benefit = match (args.percent_off, args.amount_off, args.extra_days) {
        (Some(percent), None, None) => Benefit::percent_off(percent).map_err(|e| bad("--percent-off", e))?,
        (None, Some(amount), None) => {
            let amount = Money::parse_positive(&amount).map_err(|e| bad("--amount-off", e))?;
            Benefit::amount_off(amount).map_err(|e| bad("--amount-off", e))?
        }
        (None, None, Some(days)) => Benefit::extra_days(days).map_err(|e| bad("--extra-days", e))?,
        _ => {
            return Err(CommandError::BadInput(
                "give exactly one of --percent-off, --amount-off or --extra-days".into(),
            ));
        }
    };
    let last_day = args
        .expires
        .map(|text| {
            parse_day(&text).ok_or_else(|| CommandError::BadInput("--expires is a date such as 2026-12-31".into()))
        })
        .transpose()?;
    let new = NewPromo {
        code: args.code,
        benefit,
        max_uses: args.max_uses,
        per_customer: args.per_customer,
        first_purchase_only: args.first_purchase_only,
        plans: args.plans,
        last_day,
    };
    Ok((args.account_id, new))
}

/// A code as given on the command line: one that cannot be a code is no code of the account.
fn known_code(raw: &str) -> Result<PromoCode, AppError> {
    PromoCode::parse(raw).map_err(|_| AppError::NotFound("promo code"))
}

pub async fn promo_command(services: &Services, cmd: PromoCommand) -> Result<Value, CommandError> {
    let promotions = &services.promotions;
    Ok(match cmd {
        PromoCommand::Create(args) => {
            let (account_id, new) = new_promo(args)?;
            let created = promotions.create(Acting::Operator(&account_id), new).await?;
            promo(&promotions.show(&account_id, &created.code).await?)
        }
        PromoCommand::List { account_id } => {
            promotions.list(Acting::Operator(&account_id)).await?.iter().map(promo).collect()
        }
        PromoCommand::Show { account_id, code } => promo(&promotions.show(&account_id, &known_code(&code)?).await?),
        PromoCommand::Disable { account_id, code } => {
            let code = known_code(&code)?;
            promotions.disable(Acting::Operator(&account_id), &code).await?;
            promo(&promotions.show(&account_id, &code).await?)
        }
    })
}
