//! `POST /telegram/{bot_id}/updates`: where Telegram posts a bot's updates once the platform
//! set the webhook (`setWebhook` with a `secret_token`). A post without the bot's secret in
//! `X-Telegram-Bot-Api-Secret-Token` is refused with 401 before its body is read; an update is
//! acknowledged with 200 once handled (or known as handled), and anything else makes Telegram
//! post it again. The bot adapter (`BotUpdates`) handles it.

use std::sync::Arc;

use actix_web::http::StatusCode;
use actix_web::web::{self, Data, Path, Payload};
use actix_web::{HttpRequest, HttpResponse};
use vp_ports::BotUpdates;

use crate::updates::read_update;

pub const UPDATES_PATH: &str = "/telegram/{bot_id}/updates";
/// Updates are small; Telegram's largest (a message with a long caption) is far below this.
const BODY_LIMIT: usize = 1 << 20;
const SECRET_HEADER: &str = "x-telegram-bot-api-secret-token";

pub fn routes(updates: Arc<dyn BotUpdates>) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.service(web::resource(UPDATES_PATH).app_data(Data::new(updates)).route(web::post().to(receive)));
    }
}

fn answer(status: StatusCode, text: &str) -> HttpResponse {
    HttpResponse::build(status).content_type("text/plain; charset=utf-8").body(text.to_owned())
}

async fn receive(
    req: HttpRequest,
    bot_id: Path<String>,
    body: Payload,
    updates: Data<Arc<dyn BotUpdates>>,
) -> HttpResponse {
    let Ok(bot_id) = bot_id.parse::<i64>() else { return answer(StatusCode::NOT_FOUND, "no such bot") };
    let secret = req.headers().get(SECRET_HEADER).and_then(|v| v.to_str().ok()).unwrap_or_default();
    if !updates.webhook_secret_ok(bot_id, secret) {
        tracing::warn!(bot_id, "a bot update without the bot's webhook secret");
        return answer(StatusCode::UNAUTHORIZED, "unauthorized");
    }
    let body = match body.to_bytes_limited(BODY_LIMIT).await {
        Ok(Ok(body)) => body,
        Ok(Err(e)) => {
            tracing::warn!(bot_id, error = %e, "a bot update's body could not be read");
            return answer(StatusCode::BAD_REQUEST, "not an update");
        }
        Err(_) => return answer(StatusCode::PAYLOAD_TOO_LARGE, "too large"),
    };
    let Some(update) = serde_json::from_slice(&body).ok().as_ref().and_then(read_update) else {
        tracing::warn!(bot_id, "a malformed bot update");
        return answer(StatusCode::BAD_REQUEST, "not an update");
    };
    match updates.receive(bot_id, update).await {
        Ok(_) => answer(StatusCode::OK, "ok"),
        Err(e) => {
            tracing::warn!(bot_id, error = %e, "a bot update could not be handled; Telegram posts it again");
            answer(StatusCode::INTERNAL_SERVER_ERROR, "try again")
        }
    }
}
