//! Operator commands for partners' broadcasts.

use serde_json::{Value, json};
use vp_app::Services;
use vp_app::actor::Acting;
use vp_app::broadcasts::{BroadcastSummary, NewBroadcast};
use vp_domain::BroadcastId;
use vp_domain::broadcast::{Audience, BroadcastAction};

use crate::cli::{BroadcastCommand, BroadcastSendArgs};
use crate::commands::CommandError;
use crate::output::timestamp;

/// How many broadcasts `list` prints.
const LISTED: u32 = 50;

/// A broadcast as the operator sees it, with its counts.
fn broadcast(s: &BroadcastSummary) -> Value {
    let b = &s.broadcast;
    json!({
        "id": b.id,
        "account_id": b.account_id,
        "audience": b.audience.as_str(),
        "state": b.state.as_str(),
        "text": b.text.as_str(),
        "text_ru": b.text_ru.as_ref().map(|t| t.as_str()),
        "button": b.button.as_ref().map(|x| json!({ "text": x.text, "url": x.url })),
        "created_at": timestamp(b.created_at),
        "finished_at": b.finished_at.map_or(Value::Null, timestamp),
        "sent": s.counts.sent,
        "blocked": s.counts.blocked,
        "failed": s.counts.failed,
        "left": s.counts.left,
    })
}

fn read_text(path: &std::path::Path) -> Result<String, CommandError> {
    std::fs::read_to_string(path).map_err(|e| CommandError::BadInput(format!("cannot read {}: {e}", path.display())))
}

fn new_broadcast(args: &BroadcastSendArgs) -> Result<NewBroadcast, CommandError> {
    let audience: Audience = args.audience.parse().map_err(|e| CommandError::BadInput(format!("--audience: {e}")))?;
    Ok(NewBroadcast {
        text: read_text(&args.text_file)?,
        text_ru: args.text_file_ru.as_deref().map(read_text).transpose()?,
        button_text: args.button_text.clone(),
        button_url: args.button_url.clone(),
        audience,
    })
}

pub async fn broadcast_command(services: &Services, cmd: BroadcastCommand) -> Result<Value, CommandError> {
    let broadcasts = &services.broadcasts;
    // The operator names only the broadcast: it acts on the account the broadcast is of.
    let act = |id: BroadcastId, action| async move {
        let of = broadcasts.show(&id, None).await?.broadcast.account_id;
        broadcasts.act(Acting::Operator(&of), &id, action).await
    };
    Ok(match cmd {
        BroadcastCommand::Send(args) => {
            let new = new_broadcast(&args)?;
            broadcast(&broadcasts.send(Acting::Operator(&args.account_id), new).await?)
        }
        BroadcastCommand::Show { broadcast_id } => broadcast(&broadcasts.show(&broadcast_id, None).await?),
        BroadcastCommand::Pause { broadcast_id } => broadcast(&act(broadcast_id, BroadcastAction::Pause).await?),
        BroadcastCommand::Resume { broadcast_id } => broadcast(&act(broadcast_id, BroadcastAction::Resume).await?),
        BroadcastCommand::Cancel { broadcast_id } => broadcast(&act(broadcast_id, BroadcastAction::Cancel).await?),
        BroadcastCommand::List { account_id } => {
            broadcasts.list(Acting::Operator(&account_id), LISTED).await?.iter().map(broadcast).collect()
        }
    })
}
