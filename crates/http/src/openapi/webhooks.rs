//! The events (spec: Events) as the document's OpenAPI 3.1 `webhooks`: one entry per event
//! type, each the `POST` the platform sends to a partner's address, with the signature headers
//! and the body's shape. The bodies' schemas join the components, so SDK generators and the
//! reference page show them beside the resources they carry.

use serde_json::{Map, Value, json};
use vp_app::events::types;

/// The event types and what the spec says of each: (type, schema name, summary, description,
/// `data` schema).
fn events() -> [(&'static str, &'static str, &'static str, &'static str, Value); 6] {
    let payment = json!({"$ref": "#/components/schemas/Payment"});
    let client = json!({"$ref": "#/components/schemas/Client"});
    [
        (
            types::PAYMENT_SUCCEEDED,
            "PaymentSucceededEvent",
            "An invoice was paid and access granted",
            "`data` is the invoice as `GET /payments/{payment_id}` returns it: `status` `succeeded`, \
             `payment_url` null, `client` filled with the subscription link. Also sent when an \
             expired invoice is paid late.",
            payment.clone(),
        ),
        (
            types::PAYMENT_EXPIRED,
            "PaymentExpiredEvent",
            "An invoice expired unpaid",
            "Sent when the payment service cancels an invoice left unpaid for 30 minutes, not later \
             than an hour after that. `data` is the invoice with `status` `expired` and `client` \
             null; a later payment still succeeds, and `payment.succeeded` follows.",
            payment,
        ),
        (
            types::SUBSCRIPTION_EXPIRING,
            "SubscriptionExpiringEvent",
            "A client's term ends in 72 or 24 hours",
            "Each threshold once per term; a client with under 24 hours left at the first check \
             gets only the 24; a trial has no 72. Checked every 5 minutes, never for blocked \
             clients. `client` is as `GET /clients/{client_id}` returns it.",
            json!({
                "type": "object",
                "required": ["threshold_hours", "client"],
                "properties": {
                    "threshold_hours": {"type": "integer", "enum": [72, 24]},
                    "client": client.clone(),
                },
            }),
        ),
        (
            types::SUBSCRIPTION_EXPIRED,
            "SubscriptionExpiredEvent",
            "A client's term ended",
            "The event's `timestamp` is the moment the term ended. Sent again after the next end \
             when the client renews. `client` is as `GET /clients/{client_id}` returns it.",
            json!({"type": "object", "required": ["client"], "properties": {"client": client.clone()}}),
        ),
        (
            types::SUBSCRIPTION_TRAFFIC_USED,
            "SubscriptionTrafficUsedEvent",
            "A client used 80 % or all of its traffic limit",
            "Added within v1. Sent once per threshold per count of a subscription with a traffic limit \
             (`client.subscription.traffic_limit`): at 80 % of the limit and when all of it is used, \
             when the VPN pauses until the count starts again (the period's turn, or for `no_reset` a \
             renewal). A count that passed both thresholds between two checks gets only the 100. \
             `counted_since` names the count: a new period's count may reach the thresholds again. \
             Checked with the term events, never for blocked clients. `client` is as \
             `GET /clients/{client_id}` returns it.",
            json!({
                "type": "object",
                "required": ["threshold_percent", "used_bytes", "counted_since", "client"],
                "properties": {
                    "threshold_percent": {"type": "integer", "enum": [80, 100]},
                    "used_bytes": {
                        "type": "integer",
                        "format": "int64",
                        "minimum": 0,
                        "description": "The traffic used in this count when the check saw it, in bytes.",
                    },
                    "counted_since": {"$ref": "#/components/schemas/Timestamp"},
                    "client": client,
                },
            }),
        ),
        (
            types::WEBHOOK_TEST,
            "WebhookTestEvent",
            "The test button of the cabinet",
            "Sent on demand from the address's page in the cabinet (at most 5 a minute per \
             address), which shows the response code and time. `data` is empty.",
            json!({"type": "object", "maxProperties": 0}),
        ),
    ]
}

fn header(name: &str, description: &str, schema: Value) -> Value {
    json!({"name": name, "in": "header", "required": true, "description": description, "schema": schema})
}

/// One webhook: the request the platform sends for `event_type`, and what it makes of answers.
fn webhook(event_type: &str, schema: &str, summary: &str, description: &str) -> Value {
    json!({"post": {
        "operationId": event_type.replace('.', "_"),
        "summary": summary,
        "description": format!(
            "{description}\n\nVerify the signature before acting, drop repeats by `webhook-id`, and re-read \
             the invoice or client with `GET` before acting: delivery is at least once, possibly late \
             or out of order."
        ),
        "tags": ["events"],
        "parameters": [
            header("webhook-id", "The event's id: the same in every repeat of one event; drop duplicates by it.",
                json!({"type": "string", "minLength": 1})),
            header("webhook-timestamp", "When this attempt was sent, Unix seconds; reject it when more than 5 minutes from now.",
                json!({"type": "string", "pattern": "^[0-9]+$"})),
            header("webhook-signature",
                "`v1,<base64>`: HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}` under the secret \
                 without `whsec_`, base64-decoded. During a secret rotation two, separated by a space (new, then \
                 previous); the event is genuine when one matches (compare in constant time).",
                json!({"type": "string", "pattern": "^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$"})),
        ],
        "requestBody": {
            "required": true,
            "description": "Byte-identical in every repeat.",
            "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{schema}")}}},
        },
        "responses": {
            "2XX": {"description": "Delivered: any 2xx within 15 seconds. The body is ignored."},
            "410": {"description": "Gone: the address is disabled at once; re-enable it in the cabinet."},
            "default": {"description":
                "Anything else (and a timeout, a dropped connection or a redirect) is a failure: 10 attempts in all, \
                 after 5 s, 5 min, 30 min, 2, 5, 10, 14, 20 and 24 h, each +-10 %; a `Retry-After` is honoured (at \
                 most 24 h). An address that accepted nothing for five days is disabled."},
        },
    }})
}

/// Adds the `webhooks` section, the event bodies' schemas and the `events` tag to `doc`.
pub fn add(doc: &mut Value) {
    let mut webhooks = Map::new();
    let mut schemas = Map::new();
    schemas.insert(
        "EventTimestamp".into(),
        json!({
            "type": "string",
            "format": "date-time",
            "description": "When the event happened: ISO 8601 in UTC with microseconds.",
            "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{6}Z$",
            "examples": ["2026-01-31T12:00:00.123456Z"],
        }),
    );
    for (event_type, schema, summary, description, data) in events() {
        schemas.insert(
            schema.into(),
            json!({
                "type": "object",
                "description": format!("The body of a `{event_type}` event."),
                "required": ["type", "timestamp", "data"],
                "properties": {
                    "type": {"type": "string", "const": event_type},
                    "timestamp": {"$ref": "#/components/schemas/EventTimestamp"},
                    "data": data,
                },
            }),
        );
        webhooks.insert(event_type.into(), webhook(event_type, schema, summary, description));
    }
    if let Some(components) = doc["components"]["schemas"].as_object_mut() {
        components.extend(schemas);
    }
    doc["webhooks"] = Value::Object(webhooks);
    if let Some(tags) = doc["tags"].as_array_mut() {
        tags.push(json!({
            "name": "events",
            "description": "What the platform sends to the partner's addresses (managed in the cabinet). \
                            Unknown event types will appear without a version change: answer them 2xx and skip them."
        }));
    }
}

/// The event types the document describes.
#[cfg(test)]
pub fn types() -> Vec<&'static str> {
    events().iter().map(|e| e.0).collect()
}
