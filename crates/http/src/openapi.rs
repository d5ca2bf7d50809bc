//! The OpenAPI 3.1 document, built from the same registration that routes requests
//! (`api::endpoints`), served at `/api/partner/v1/openapi.json` and committed as
//! `docs/openapi.json` (a test fails when the two drift apart).

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
        OpenApiJson(document().to_pretty_json().unwrap_or_default())
    }
}

pub async fn serve(doc: Data<OpenApiJson>) -> HttpResponse {
    HttpResponse::Ok().content_type("application/json").body(doc.0.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::API_PREFIX;

    const COMMITTED: &str = include_str!("../../../docs/openapi.json");

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
}
