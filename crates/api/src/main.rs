//! `vp-api`: the binary ops deploy. Reads configuration, wires the adapters to the use cases
//! and runs a subcommand. Operator commands print JSON on stdout; errors go to stderr with
//! exit code 2 for bad input and 1 for failures.

mod bot_commands;
mod broadcast_commands;
mod cli;
mod commands;
mod config;
mod event_commands;
mod logging;
mod output;
mod promo_commands;
mod secrets_key;
mod serve;
mod stopping;
mod wiring;
mod workers;

use std::process::ExitCode;

use clap::Parser;

use crate::cli::{Cli, Command, SandboxCommand};
use crate::commands::CommandError;
use crate::config::Config;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let config = match Config::load(cli.config.as_deref(), |k| std::env::var(k).ok()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: configuration: {e}");
            return ExitCode::from(2);
        }
    };
    logging::init(&config.log, config.log_format, config.secrets());
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli.command, config)) {
        Ok(None) => ExitCode::SUCCESS,
        Ok(Some(value)) => {
            println!("{}", serde_json::to_string_pretty(&value).unwrap_or_else(|_| value.to_string()));
            ExitCode::SUCCESS
        }
        Err(CommandError::BadInput(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
        Err(CommandError::Failed(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}

async fn run(command: Command, config: Config) -> Result<Option<serde_json::Value>, CommandError> {
    if let Command::Migrate = command {
        let applied = vp_store::migrate(&config.database_url)
            .await
            .map_err(|e| CommandError::Failed(format!("migration failed: {e}")))?;
        return Ok(Some(serde_json::json!({ "applied": applied })));
    }
    let wiring::Wired { services, local_panel, gateway_routes, shifted_clock } = wiring::wire(&config).await?;
    let value = match command {
        Command::Migrate => return Ok(None),
        Command::Serve { demo } => {
            let adapters = serve::Served { local_panel, gateway_routes };
            return serve::serve(services, adapters, &config, demo, shifted_clock).await.map(|()| None);
        }
        Command::Worker => {
            workers::run_worker(services, &config, shifted_clock).await;
            return Ok(None);
        }
        Command::Jobs => {
            workers::run_jobs_once(&services).await;
            serde_json::json!({
                "ran": [
                    "expire_overdue_invoices",
                    "complete_unfinished_invoices",
                    "reconcile_pending_payments",
                    "sync_panel",
                    "sync_bot_profiles",
                    "check_terms",
                    "send_mail"
                ]
            })
        }
        Command::Export(c) => return commands::export(&services, c).await.map(|()| None),
        Command::Sales(c) => commands::sales(&services, c).await?,
        Command::Endpoint(c) => event_commands::endpoint_command(&services, c).await?,
        Command::Cabinet(c) => commands::cabinet(&services, c).await?,
        Command::Operator(c) => commands::operator(&services, c).await?,
        Command::Mail(c) => commands::mail(&services, c).await?,
        Command::Withdrawal(c) => commands::withdrawal(&services, c).await?,
        Command::Bot(c) => bot_commands::bot_command(&services, c).await?,
        Command::Promo(c) => promo_commands::promo_command(&services, c).await?,
        Command::Broadcast(c) => broadcast_commands::broadcast_command(&services, c).await?,
        Command::Secrets(c) => bot_commands::secrets_command(&services, c).await?,
        Command::Backup { file } => commands::backup(&services, &file).await?,
        Command::ReleaseLeases => serde_json::json!({ "deliveries_freed": services.operator.release_leases().await? }),
        Command::Clock(c) => event_commands::clock_command(&services, &config, c).await?,
        Command::Sandbox(SandboxCommand::Traffic { account_id, client_id, mb }) => match local_panel {
            Some(panel) => commands::local_traffic(&services, &panel, &account_id, &client_id, mb).await?,
            None => commands::sandbox(&services, SandboxCommand::Traffic { account_id, client_id, mb }).await?,
        },
        Command::Sandbox(c) => commands::sandbox(&services, c).await?,
        Command::Panel(c) => commands::panel(&services, c).await?,
        Command::Import(c) => commands::import(&services, c).await?,
        Command::Gateway(c) => commands::gateway(&services, c).await?,
        Command::Invoice(c) => commands::invoice(&services, c).await?,
        Command::Demo => commands::demo(&services).await?,
        Command::Account(c) => commands::account(&services, c).await?,
        Command::Key(c) => commands::key(&services, c).await?,
        Command::Plan(c) => commands::plan(&services, c).await?,
        Command::Devices(c) => commands::devices(&services, c).await?,
        Command::Method(c) => commands::method(&services, c).await?,
        Command::Client(c) => commands::client(&services, c).await?,
        Command::Subscription(c) => commands::subscription(&services, c).await?,
        Command::Apps(c) => commands::app_list(&services, c).await?,
        Command::Documents(c) => commands::documents(&services, c).await?,
    };
    Ok(Some(value))
}
