//! `GET /sub/{token}`: what a VPN app fetches. The body is the base64 of the server share
//! links, one per line (the format V2Ray-family apps read), with the headers those apps read:
//! `profile-title` (the brand, as `base64:...` so any script survives the header),
//! `subscription-userinfo`, `profile-update-interval` (hours), `profile-web-page-url` and
//! `support-url`. Devices register from the `x-hwid` family of headers. A browser opening the
//! link gets the connect page instead (content negotiation, in the HTTP adapter).

use std::sync::Arc;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use crate::local::{DeviceHeaders, FetchRefused, LocalPanel};

/// How often apps refresh the server list.
const PROFILE_UPDATE_HOURS: &str = "12";

pub fn routes(panel: Arc<LocalPanel>) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.app_data(web::Data::from(panel)).route("/sub/{token}", web::get().to(fetch));
    }
}

fn header(req: &HttpRequest, name: &str) -> Option<String> {
    req.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned)
}

async fn fetch(req: HttpRequest, token: web::Path<String>, panel: web::Data<LocalPanel>) -> HttpResponse {
    let headers = DeviceHeaders {
        hwid: header(&req, "x-hwid"),
        platform: header(&req, "x-device-os"),
        os_version: header(&req, "x-ver-os"),
        model: header(&req, "x-device-model"),
        user_agent: header(&req, "user-agent"),
    };
    match panel.fetch(&token, headers).await {
        Ok(content) => {
            let mut response = HttpResponse::Ok();
            response
                .content_type("text/plain; charset=utf-8")
                .insert_header((
                    "subscription-userinfo",
                    // What apps show of the traffic: used as downloaded, the limit as the total.
                    format!(
                        "upload=0; download={}; total={}; expire={}",
                        content.traffic.map_or(0, |(used, _)| used),
                        content.traffic.map_or(0, |(_, total)| total),
                        content.expires_at.unix_timestamp()
                    ),
                ))
                .insert_header(("profile-update-interval", PROFILE_UPDATE_HOURS))
                .insert_header(("profile-web-page-url", content.web_page_url));
            if let Some(brand) = &content.brand_name {
                response.insert_header(("profile-title", format!("base64:{}", STANDARD.encode(brand))));
            }
            if let Some(url) = content.support_url {
                response.insert_header(("support-url", url));
            }
            response.body(STANDARD.encode(content.servers.join("\n")))
        }
        Err(refused) => {
            let (status, text) = match refused {
                FetchRefused::NotFound => (StatusCode::NOT_FOUND, "subscription not found"),
                FetchRefused::HwidRequired => {
                    (StatusCode::BAD_REQUEST, "this subscription needs an app that sends x-hwid")
                }
                FetchRefused::DeviceLimitReached => (StatusCode::FORBIDDEN, "device limit reached"),
                FetchRefused::TrafficUsedUp => (StatusCode::FORBIDDEN, "traffic limit reached for this period"),
                FetchRefused::Unavailable => (StatusCode::SERVICE_UNAVAILABLE, "temporarily unavailable"),
            };
            HttpResponse::build(status).content_type("text/plain; charset=utf-8").body(text)
        }
    }
}
