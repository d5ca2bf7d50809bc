//! The OpenAPI 3.1 document, built from the same registration that routes requests
//! (`api::endpoints`), made strict by `strict` (every value's rules, every status), served at
//! `/api/partner/v1/openapi.json` and committed as `docs/openapi.json` (a test fails when the
//! two drift apart). Schemathesis checks the running service against it in CI.

mod strict;
pub mod values;
mod webhooks;

use actix_web::web::Data;
use actix_web::{App, HttpResponse};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};
use utoipa_actix_web::AppExt;

use crate::{api, dto, error};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Partner VPN Reselling API",
        version = "1.0.0",
        description = "Sell VPN subscriptions under your own brand. Every request carries `Authorization: Bearer <API_KEY>`."
    ),
    servers((url = "/api/partner/v1")),
    modifiers(&PartnerKey),
    components(schemas(error::Envelope, error::ErrorBody, error::ErrorCode, dto::Payment, dto::Client)),
    tags(
        (name = "account", description = "The partner account"),
        (name = "catalog", description = "Plans, payment methods, applications, documents"),
        (name = "payments", description = "Invoices"),
        (name = "clients", description = "Clients, trials, links, devices"),
    )
)]
struct BaseDoc;

struct PartnerKey;

impl Modify for PartnerKey {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        let components = doc.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "PartnerKey",
            SecurityScheme::Http(
                HttpBuilder::new().scheme(HttpAuthScheme::Bearer).description(Some("The partner's API key")).build(),
            ),
        );
    }
}

/// The document with paths relative to the server URL `/api/partner/v1`.
pub fn document() -> utoipa::openapi::OpenApi {
    let (_, paths) = App::new().into_utoipa_app().configure(api::endpoints).split_for_parts();
    let mut doc = BaseDoc::openapi();
    doc.merge(paths);
    doc
}

/// The document rendered once at start.
pub struct OpenApiJson(pub String);

impl OpenApiJson {
    pub fn build() -> OpenApiJson {
        let mut doc = serde_json::to_value(document()).unwrap_or_default();
        strict::apply(&mut doc);
        webhooks::add(&mut doc);
        OpenApiJson(serde_json::to_string_pretty(&doc).unwrap_or_default())
    }
}

pub async fn serve(doc: Data<OpenApiJson>) -> HttpResponse {
    HttpResponse::Ok().content_type("application/json").body(doc.0.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::API_PREFIX;

    const COMMITTED: &str = include_str!("../../../../docs/openapi.json");

    #[test]
    fn the_committed_document_matches_the_handlers() {
        let current = OpenApiJson::build().0;
        if std::env::var_os("UPDATE_OPENAPI").is_some() {
            std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/openapi.json"), format!("{current}\n"))
                .expect("write docs/openapi.json");
            return;
        }
        assert_eq!(
            COMMITTED.trim_end(),
            current,
            "docs/openapi.json is stale: run `UPDATE_OPENAPI=1 cargo test -p vp-http openapi` and commit it"
        );
    }

    #[test]
    fn every_route_is_in_the_document_with_its_method() {
        let doc: serde_json::Value = serde_json::from_str(&OpenApiJson::build().0).unwrap();
        assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"));
        for (method, path) in api::ROUTES {
            let op = &doc["paths"][path][method.to_ascii_lowercase()];
            assert!(op.is_object(), "{method} {path} missing from the OpenAPI document");
            assert_eq!(op["security"][0]["PartnerKey"], serde_json::json!([]), "{method} {path} needs the key");
        }
        let documented: usize = doc["paths"].as_object().unwrap().values().map(|p| p.as_object().unwrap().len()).sum();
        assert_eq!(documented, api::ROUTES.len(), "no undocumented extras, nothing missing");
        assert_eq!(API_PREFIX, doc["servers"][0]["url"]);
    }

    fn doc() -> serde_json::Value {
        serde_json::from_str(&OpenApiJson::build().0).unwrap()
    }

    /// Every `$ref` in `value`.
    fn refs(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::Object(map) => {
                if let Some(r) = map.get("$ref").and_then(|r| r.as_str()) {
                    out.push(r.to_owned());
                }
                map.values().for_each(|v| refs(v, out));
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
            _ => {}
        }
    }

    #[test]
    fn every_reference_resolves_to_a_real_definition() {
        let doc = doc();
        let mut all = Vec::new();
        refs(&doc, &mut all);
        assert!(!all.is_empty());
        for r in all {
            let name = r.strip_prefix("#/components/schemas/").unwrap_or_else(|| panic!("unexpected {r}"));
            let schema = &doc["components"]["schemas"][name];
            assert!(schema.is_object() && schema.as_object().is_some_and(|o| !o.is_empty()), "{r} has no definition");
        }
    }

    #[test]
    fn the_document_carries_the_specs_constraints() {
        use vp_domain::identifiers::patterns;
        let doc = doc();
        let schemas = &doc["components"]["schemas"];
        let client_id = &schemas["ClientId"];
        assert_eq!(
            client_id["pattern"], "^[A-Za-z0-9._:@+-]*[A-Za-z0-9_:@+-][A-Za-z0-9._:@+-]*$",
            "the spec's pattern"
        );
        assert_eq!((client_id["minLength"].as_u64(), client_id["maxLength"].as_u64()), (Some(1), Some(128)));
        assert_eq!(schemas["BrandName"]["maxLength"], 64);
        assert_eq!(schemas["BrandName"]["pattern"], patterns::BRAND_NAME);
        assert_eq!(schemas["PaymentMethodCode"]["maxLength"], 32);
        assert_eq!(schemas["ReturnUrl"]["maxLength"], 500);
        assert_eq!(
            (schemas["PageLimit"]["minimum"].as_u64(), schemas["PageLimit"]["maximum"].as_u64()),
            (Some(1), Some(100))
        );
        assert_eq!(schemas["PlanId"]["maximum"], 2_147_483_647);
        assert_eq!(schemas["Money"]["pattern"], r"^(0|[1-9][0-9]*)\.[0-9]{2}$");
        assert_eq!(schemas["Payment"]["properties"]["amount"]["$ref"], "#/components/schemas/Money");
        assert_eq!(schemas["PaymentStatus"]["enum"], serde_json::json!(["pending", "succeeded", "failed", "expired"]));
        assert_eq!(schemas["SubscriptionStatus"]["enum"], serde_json::json!(["active", "expired", "suspended"]));
        assert_eq!(
            schemas["PaymentCreateSubscription"]["properties"]["purpose"]["enum"],
            serde_json::json!(["subscription"])
        );
        assert_eq!(
            schemas["PaymentCreateDevices"]["required"],
            serde_json::json!(["client_id", "purpose", "method", "devices"])
        );
        assert_eq!(schemas["PaymentCreateDevices"]["additionalProperties"], false, "unknown fields are refused");
        let post = &doc["paths"]["/payments"]["post"];
        let key = post["parameters"].as_array().unwrap().iter().find(|p| p["name"] == "Idempotency-Key").unwrap();
        assert_eq!((key["in"].as_str(), key["required"].as_bool()), (Some("header"), Some(true)));
        assert_eq!(schemas["IdempotencyKey"]["maxLength"], 200);
    }

    #[test]
    fn the_event_types_are_described_as_webhooks_with_their_bodies() {
        let doc = doc();
        let described: Vec<&str> = doc["webhooks"].as_object().unwrap().keys().map(String::as_str).collect();
        let mut expected = webhooks::types();
        expected.sort_unstable();
        assert_eq!(described, expected);
        assert_eq!(
            expected,
            [
                "payment.expired",
                "payment.succeeded",
                "subscription.expired",
                "subscription.expiring",
                "subscription.traffic_used",
                "webhook.test"
            ]
        );
        for event_type in expected {
            let post = &doc["webhooks"][event_type]["post"];
            let names: Vec<&str> =
                post["parameters"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
            assert_eq!(names, ["webhook-id", "webhook-timestamp", "webhook-signature"], "{event_type}");
            let schema = post["requestBody"]["content"]["application/json"]["schema"]["$ref"].as_str().unwrap();
            let body = &doc["components"]["schemas"][schema.trim_start_matches("#/components/schemas/")];
            assert_eq!(body["properties"]["type"]["const"], event_type);
            assert_eq!(body["required"], serde_json::json!(["type", "timestamp", "data"]));
        }
        let expiring = &doc["components"]["schemas"]["SubscriptionExpiringEvent"]["properties"]["data"];
        assert_eq!(expiring["properties"]["threshold_hours"]["enum"], serde_json::json!([72, 24]));
        let traffic = &doc["components"]["schemas"]["SubscriptionTrafficUsedEvent"]["properties"]["data"];
        assert_eq!(traffic["properties"]["threshold_percent"]["enum"], serde_json::json!([80, 100]));
        assert_eq!(
            doc["components"]["schemas"]["PaymentSucceededEvent"]["properties"]["data"]["$ref"],
            "#/components/schemas/Payment"
        );
    }

    #[test]
    fn every_operation_lists_the_shared_statuses_and_headers() {
        let doc = doc();
        for (method, path) in api::ROUTES {
            let op = &doc["paths"][path][method.to_ascii_lowercase()];
            let responses = op["responses"].as_object().unwrap();
            for status in ["401", "429", "500"] {
                assert!(responses.contains_key(status), "{method} {path} lacks {status}");
            }
            let with_input = op.get("requestBody").is_some() || path.contains("{client_id}") || path == "/clients";
            assert_eq!(responses.contains_key("422"), with_input, "{method} {path}: 422 exactly where input has rules");
            assert_eq!(responses.contains_key("415"), op.get("requestBody").is_some(), "{method} {path}: 415");
            for (status, response) in responses {
                let id = &response["headers"]["X-Request-Id"];
                assert_eq!(id["required"], true, "{method} {path} {status}: X-Request-Id");
            }
            let retry_after = &responses["429"]["headers"]["Retry-After"]["required"];
            let daily = matches!(path, "/payments" | "/clients/{client_id}/trial");
            assert_eq!(retry_after, &serde_json::json!(!daily), "{method} {path}: Retry-After on 429");
        }
    }
}
