//! Operator commands for events: webhook endpoints and the shifted clock.

use serde_json::{Value, json};
use time::Duration;
use vp_app::Services;
use vp_app::audit::Who;
use vp_app::events::TestOutcome;
use vp_domain::limits::WEBHOOK_TESTS_PER_MINUTE;
use vp_ports::{AttemptFilter, AttemptLogEntry, AttemptRecord, WebhookEndpointRecord};

use crate::cli::{ClockCommand, EndpointCommand};
use crate::commands::CommandError;
use crate::config::Config;
use crate::output::timestamp;

type CommandResult = Result<Value, CommandError>;

/// The endpoint without its secret (shown only by `endpoint secret`).
fn endpoint(e: &WebhookEndpointRecord) -> Value {
    json!({
        "endpoint_id": e.id,
        "account_id": e.account_id,
        "url": e.url,
        "event_types": e.event_types,
        "enabled": e.enabled,
        "disabled_reason": e.disabled_reason,
        "disabled_at": e.disabled_at.map_or(Value::Null, timestamp),
        "failing_since": e.failing_since.map_or(Value::Null, timestamp),
        "secret_rotated_at": e.secret_rotated_at.map_or(Value::Null, timestamp),
        "created_at": timestamp(e.created_at),
    })
}

fn attempt(a: &AttemptRecord) -> Value {
    json!({
        "attempt": a.attempt,
        "attempted_at": timestamp(a.attempted_at),
        "status_code": a.status_code,
        "duration_ms": a.duration_ms,
        "error": a.error,
    })
}

fn logged(entry: &AttemptLogEntry) -> Value {
    let mut v = attempt(&entry.attempt);
    v["event_id"] = json!(entry.event_id);
    v["event_type"] = json!(entry.event_type);
    v
}

pub async fn endpoint_command(services: &Services, cmd: EndpointCommand) -> CommandResult {
    Ok(match cmd {
        EndpointCommand::Add { account_id, url, types } => {
            let e = services.events.add_endpoint(&account_id, &url, &types, Who::Operator).await?;
            let mut shown = endpoint(&e);
            shown["secret"] = json!(services.events.endpoint_secret(&e.id).await?.1);
            shown
        }
        EndpointCommand::List { account_id } => {
            json!({ "endpoints": services.events.endpoints(&account_id).await?.iter().map(endpoint).collect::<Vec<_>>() })
        }
        EndpointCommand::Types { endpoint_id, types } => {
            endpoint(&services.events.set_endpoint_types(&endpoint_id, &types, Who::Operator).await?)
        }
        EndpointCommand::Enable { endpoint_id } => {
            endpoint(&services.events.set_endpoint_enabled(&endpoint_id, true, Who::Operator).await?)
        }
        EndpointCommand::Disable { endpoint_id } => {
            endpoint(&services.events.set_endpoint_enabled(&endpoint_id, false, Who::Operator).await?)
        }
        EndpointCommand::Secret { endpoint_id } => {
            let (e, secret) = services.events.endpoint_secret(&endpoint_id).await?;
            json!({ "endpoint_id": e.id, "secret": secret })
        }
        EndpointCommand::RotateSecret { endpoint_id } => {
            let e = services.events.rotate_endpoint_secret(&endpoint_id, Who::Operator).await?;
            json!({
                "endpoint_id": e.id,
                "secret": services.events.endpoint_secret(&e.id).await?.1,
                "previous_secret_valid_until": e.previous_secret_valid_until().map(timestamp),
            })
        }
        EndpointCommand::Test { endpoint_id } => {
            match services.events.send_test_event(&endpoint_id, Who::Operator).await? {
                TestOutcome::Sent(a) => attempt(&a),
                TestOutcome::TooSoon { retry_after } => {
                    return Err(CommandError::BadInput(format!(
                        "at most {WEBHOOK_TESTS_PER_MINUTE} test events per minute per endpoint; try again in {} s",
                        retry_after.whole_seconds()
                    )));
                }
            }
        }
        EndpointCommand::Deliveries { endpoint_id, limit } => {
            let filter = AttemptFilter { limit, ..AttemptFilter::default() };
            json!({ "attempts": services.events.endpoint_attempts(&endpoint_id, &filter).await?.iter().map(logged).collect::<Vec<_>>() })
        }
        EndpointCommand::Replay { endpoint_id, days } => {
            let days: i64 = days.parse().map_err(|_| CommandError::BadInput("--days: one of 1, 3, 7, 30".into()))?;
            json!({ "queued": services.events.replay_undelivered(&endpoint_id, days, Who::Operator).await? })
        }
    })
}

/// `90m`, `72h`, `30d`, `45s`.
fn parse_span(text: &str) -> Result<Duration, CommandError> {
    let bad = || CommandError::BadInput(format!("{text:?} is not a span like 45s, 90m, 72h or 30d"));
    let (number, unit) = text.split_at(text.len().saturating_sub(1));
    let n: i64 = number.parse().map_err(|_| bad())?;
    if n <= 0 {
        return Err(bad());
    }
    match unit {
        "s" => Ok(Duration::seconds(n)),
        "m" => Ok(Duration::minutes(n)),
        "h" => Ok(Duration::hours(n)),
        "d" => Ok(Duration::days(n)),
        _ => Err(bad()),
    }
}

pub async fn clock_command(services: &Services, config: &Config, cmd: ClockCommand) -> CommandResult {
    if !config.shifted_clock {
        return Err(CommandError::BadInput(
            "the shifted clock is off; it works only when every process runs with VP_SHIFTED_CLOCK=on".into(),
        ));
    }
    let offset = match cmd {
        ClockCommand::Show => services.operator.shifted_clock_offset().await?,
        ClockCommand::Advance { by } => services.operator.advance_shifted_clock(parse_span(&by)?).await?,
    };
    let now = time::OffsetDateTime::now_utc() + Duration::seconds(offset);
    Ok(json!({ "offset_seconds": offset, "now": timestamp(now) }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_are_a_positive_number_and_a_unit() {
        assert_eq!(parse_span("45s").unwrap(), Duration::seconds(45));
        assert_eq!(parse_span("90m").unwrap(), Duration::minutes(90));
        assert_eq!(parse_span("72h").unwrap(), Duration::hours(72));
        assert_eq!(parse_span("30d").unwrap(), Duration::days(30));
        for bad in ["", "h", "0h", "-1h", "3w", "1.5h", "ten"] {
            assert!(parse_span(bad).is_err(), "{bad}");
        }
    }
}
