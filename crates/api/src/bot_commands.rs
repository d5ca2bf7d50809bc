//! Operator commands for partners' own bots and for the secrets key.

use serde_json::{Value, json};
use vp_app::Services;
use vp_app::audit::Who;
use vp_ports::PartnerBotRecord;

use crate::cli::{BotCommand, SecretsCommand};
use crate::commands::CommandError;
use crate::output::timestamp;

/// A bot as the operator sees it: never its token, sealed or not.
fn bot(b: &PartnerBotRecord) -> Value {
    json!({
        "account_id": b.account_id,
        "bot_id": b.bot_id,
        "username": b.username,
        "link": format!("https://t.me/{}", b.username),
        "status": if b.disconnected_at.is_some() { "disconnected" } else { "connected" },
        "connected_at": timestamp(b.connected_at),
        "disconnected_at": b.disconnected_at.map_or(Value::Null, timestamp),
        // Whether Telegram shows the brand's current name, descriptions and commands.
        "profile_in_sync": b.profile_in_sync(),
        "profile_error": b.profile_error,
        // Created through the platform's bot: `bot rotate-token` replaces its token.
        "managed": b.managed,
    })
}

pub async fn bot_command(services: &Services, cmd: BotCommand) -> Result<Value, CommandError> {
    Ok(match cmd {
        BotCommand::Connect { account_id, token_file } => {
            let token = std::fs::read_to_string(&token_file).map_err(|e| {
                CommandError::BadInput(format!("cannot read the token file {}: {e}", token_file.display()))
            })?;
            bot(&services.bots.connect_bot(&account_id, &token, Who::Operator).await?)
        }
        BotCommand::Show { account_id } => {
            services.bots.partner_bot(&account_id).await?.as_ref().map_or(Value::Null, bot)
        }
        BotCommand::Disconnect { account_id } => {
            let gone = services.bots.disconnect_bot(&account_id, Who::Operator).await?;
            json!({ "account_id": gone.account_id, "bot_id": gone.bot_id, "disconnected": true })
        }
        BotCommand::CreateLink { account_id, lang } => {
            let link = services.bots.bot_create_link(&account_id, Who::Operator, lang).await?;
            json!({ "account_id": account_id, "url": link.url, "expires_at": timestamp(link.expires_at) })
        }
        BotCommand::RotateToken { account_id } => bot(&services.bots.rotate_token(&account_id, Who::Operator).await?),
        BotCommand::Stats { account_id } => {
            let report = services.bots.bot_stats(&account_id).await?;
            json!({
                "account_id": account_id,
                "since": timestamp(report.since),
                "started": report.stats.started,
                "linked_clients": report.stats.linked,
                "purchases": report.stats.purchases,
                "started_and_paid": report.stats.started_and_paid,
                "conversion_percent": report.conversion_percent(),
            })
        }
    })
}

pub async fn secrets_command(services: &Services, cmd: SecretsCommand) -> Result<Value, CommandError> {
    Ok(match cmd {
        SecretsCommand::RotateKey => {
            let resealed = services.secrets.reseal_secrets().await?;
            json!({ "resealed": resealed, "key_id": services.secrets.current_key_id() })
        }
    })
}
