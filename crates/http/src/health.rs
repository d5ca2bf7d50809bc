//! Liveness and readiness probes for ops: `/health` answers while the process runs, `/ready`
//! only while the database answers too and the instance is not stopping.

use actix_web::{HttpResponse, get, web};
use serde_json::json;
use vp_app::observability::{Observability, Readiness};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(health).service(ready);
}

#[get("/health")]
async fn health() -> HttpResponse {
    HttpResponse::Ok().json(json!({ "status": "ok" }))
}

#[get("/ready")]
async fn ready(observability: web::Data<Observability>) -> HttpResponse {
    match observability.ready().await {
        Ok(Readiness::Ready) => HttpResponse::Ok().json(json!({ "status": "ready" })),
        Ok(Readiness::Draining) => HttpResponse::ServiceUnavailable().json(json!({ "status": "draining" })),
        Err(e) => {
            tracing::warn!(error = %e, "readiness check failed");
            HttpResponse::ServiceUnavailable().json(json!({ "status": "unavailable" }))
        }
    }
}
