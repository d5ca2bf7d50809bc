//! Runs one operator command against the use cases and renders its result.

use std::path::Path;

use serde_json::{Value, json};
use vp_app::actor::Acting;
use vp_app::clients::PanelImportFilter;
use vp_app::operator::{LimitChange, LimitChanges};
use vp_app::style::{StyleChange, StyleChanges};
use vp_app::{AppError, Services};
use vp_domain::referral::ReferralDays;
use vp_domain::stars::StarsRate;
use vp_domain::traffic::TrafficLimit;
use vp_domain::withdrawal::{WithdrawalStatus, WithdrawalStep};
use vp_domain::{AccountId, ClientId, GatewayName, GatewayRoute, MethodCode};
use vp_ports::WithdrawalFilter;

use crate::cli::{
    AccountCommand, AutoRenewState, CabinetCommand, ClientCommand, ContentCommand, DevicesCommand, ExportCommand,
    GatewayCommand, ImportCommand, InvoiceCommand, KeyCommand, LimitsArgs, MailCommand, MethodCommand, OperatorCommand,
    PanelCommand, PlanCommand, SalesCommand, SandboxCommand, SavedCardsOutcome, StarsArgs, StyleArgs,
    SubscriptionCommand, WithdrawalCommand,
};
use crate::output;

/// How a command failed: bad input (exit 2) or the system (exit 1).
#[derive(Debug)]
pub enum CommandError {
    BadInput(String),
    Failed(String),
}

impl From<AppError> for CommandError {
    fn from(e: AppError) -> Self {
        match e {
            AppError::Store(vp_ports::StoreError::Unsupported(what)) => CommandError::BadInput(what),
            AppError::Store(s) => CommandError::Failed(format!("storage failed: {s}")),
            AppError::External(reason) | AppError::Internal(reason) => CommandError::Failed(reason),
            other => CommandError::BadInput(other.to_string()),
        }
    }
}

type CommandResult = Result<Value, CommandError>;

fn read_file(path: &Path) -> Result<String, CommandError> {
    std::fs::read_to_string(path).map_err(|e| CommandError::BadInput(format!("cannot read {}: {e}", path.display())))
}

fn limit_change(field: &str, raw: Option<&str>) -> Result<LimitChange, CommandError> {
    match raw {
        None => Ok(LimitChange::Keep),
        Some("default") => Ok(LimitChange::Default),
        Some(v) => v.parse::<u32>().ok().filter(|n| *n >= 1).map(LimitChange::Set).ok_or_else(|| {
            CommandError::BadInput(format!("--{field} must be a whole number of at least 1 or `default`, not {v:?}"))
        }),
    }
}

fn style_change(raw: Option<String>) -> StyleChange {
    match raw.as_deref() {
        None => StyleChange::Keep,
        Some("none") => StyleChange::Clear,
        Some(_) => StyleChange::Set(raw.unwrap_or_default()),
    }
}

pub async fn account(services: &Services, cmd: AccountCommand) -> CommandResult {
    Ok(match cmd {
        AccountCommand::Create { brand, markup, trial } => {
            let (account, key) = services.operator.create_account(brand.as_deref(), &markup, trial).await?;
            json!({ "account": output::account(&account), "api_key": output::issued_key(&key) })
        }
        AccountCommand::Show { account_id } => {
            let mut out = output::account_overview(&services.operator.account_overview(&account_id).await?);
            out["shop_url"] = services.shop.url(&services.shop.slug(&account_id).await?).into();
            out
        }
        AccountCommand::SetSlug { account_id, slug } => {
            let slug = services.shop.set_slug(&account_id, &slug).await?;
            let mut out = output::account_overview(&services.operator.account_overview(&account_id).await?);
            out["shop_url"] = services.shop.url(&slug).into();
            out
        }
        AccountCommand::List => services.operator.list_accounts().await?.iter().map(output::account).collect(),
        AccountCommand::SetMarkup { account_id, markup } => {
            output::account(&services.operator.set_markup(&account_id, &markup).await?)
        }
        AccountCommand::SetBrand { account_id, brand } => {
            output::account(&services.operator.set_brand_name(&account_id, &brand).await?)
        }
        AccountCommand::SetTimeZone { account_id, time_zone } => {
            output::account(&services.operator.set_time_zone(&account_id, &time_zone).await?)
        }
        AccountCommand::Trial { account_id, switch } => {
            output::account(&services.operator.set_trial_enabled(&account_id, switch.is_on()).await?)
        }
        AccountCommand::ApiAccess { account_id, switch } => {
            output::account(&services.operator.set_api_access(&account_id, switch.is_on()).await?)
        }
        AccountCommand::SetStyle(StyleArgs { account_id, logo_url, accent, support_url }) => {
            let changes = StyleChanges {
                logo_url: style_change(logo_url),
                accent_color: style_change(accent),
                support_url: style_change(support_url),
            };
            output::account(&services.operator.set_style(&account_id, changes).await?)
        }
        AccountCommand::Limits(LimitsArgs {
            account_id,
            requests_per_minute,
            payments_per_minute,
            new_clients_per_day,
            trials_per_day,
        }) => {
            let changes = LimitChanges {
                requests_per_minute: limit_change("requests-per-minute", requests_per_minute.as_deref())?,
                payments_per_minute: limit_change("payments-per-minute", payments_per_minute.as_deref())?,
                new_clients_per_day: limit_change("new-clients-per-day", new_clients_per_day.as_deref())?,
                trials_per_day: limit_change("trials-per-day", trials_per_day.as_deref())?,
            };
            output::account(&services.operator.set_limits(&account_id, changes).await?)
        }
        AccountCommand::Referrals { account_id, days } => {
            let program = match days {
                Some(days) => {
                    let days =
                        ReferralDays::parse(&days).map_err(|e| CommandError::BadInput(format!("--days: {e}")))?;
                    services.referrals.set_days(Acting::Operator(&account_id), days).await?
                }
                None => services.referrals.program(Acting::Operator(&account_id)).await?,
            };
            output::referral_program(&account_id, &program)
        }
        AccountCommand::Stars(StarsArgs { account_id, rub_per_star, off: _ }) => {
            let rate = rub_per_star
                .map(|r| StarsRate::parse(&r).map_err(|e| CommandError::BadInput(format!("--rub-per-star: {e}"))))
                .transpose()?;
            services.stars.set_rate(&account_id, rate).await?;
            json!({ "account_id": account_id, "stars": rate.map(|r| json!({ "rub_per_star": r.rubles().to_string() })) })
        }
    })
}

pub async fn key(services: &Services, cmd: KeyCommand) -> CommandResult {
    Ok(match cmd {
        KeyCommand::Issue { account_id } => output::issued_key(&services.operator.issue_key(&account_id).await?),
        KeyCommand::Revoke { key_id } => output::api_key(&services.operator.revoke_key(&key_id).await?),
        KeyCommand::List { account_id } => {
            services.operator.account_overview(&account_id).await?.keys.iter().map(output::api_key).collect()
        }
    })
}

pub async fn plan(services: &Services, cmd: PlanCommand) -> CommandResult {
    Ok(match cmd {
        PlanCommand::Create { months, lifetime, price, unlimited_devices, traffic_gb, traffic_reset } => {
            let months = if lifetime { None } else { months };
            let traffic = traffic_gb.and_then(|gb| TrafficLimit::of_gb(gb, traffic_reset));
            output::plan(&services.operator.create_plan(months, &price, !unlimited_devices, traffic).await?)
        }
        PlanCommand::Retire { plan_id } => output::plan(&services.operator.retire_plan(plan_id).await?),
        PlanCommand::List { include_retired } => {
            services.operator.list_plans(include_retired).await?.iter().map(output::plan).collect()
        }
    })
}

pub async fn devices(services: &Services, cmd: DevicesCommand) -> CommandResult {
    let settings = match cmd {
        DevicesCommand::Set { included, max, price } => {
            Some(services.operator.set_device_offer(included, max, price.as_deref()).await?)
        }
        DevicesCommand::Off => Some(services.operator.switch_off_device_offer().await?),
        DevicesCommand::Show => services.operator.device_settings().await?,
    };
    Ok(output::device_settings(settings.as_ref()))
}

pub async fn method(services: &Services, cmd: MethodCommand) -> CommandResult {
    Ok(match cmd {
        MethodCommand::Add { code, name_en, name_ru, gateway, yookassa_type } => {
            let (gateway, gateway_type) = match (gateway, yookassa_type) {
                (Some(text), _) => named_gateway(&text)?,
                (None, yookassa_type) => {
                    (None, yookassa_type.as_deref().map(yookassa_method_type).transpose()?.map(str::to_owned))
                }
            };
            let method = &services.operator;
            let added = method.add_payment_method(&code, &name_en, &name_ru, gateway, gateway_type.as_deref()).await?;
            output::payment_method(&added)
        }
        MethodCommand::SetGateway { code, gateway } => {
            let (gateway, gateway_type) = match gateway.as_str() {
                "default" => (None, None),
                text => named_gateway(text)?,
            };
            let set = services
                .operator
                .set_payment_method_gateway(&known_method(&code)?, gateway, gateway_type.as_deref())
                .await?;
            output::payment_method(&set)
        }
        MethodCommand::SetYookassaType { code, yookassa_type } => {
            let gateway_type = match yookassa_type.as_str() {
                "none" => None,
                other => Some(yookassa_method_type(other)?),
            };
            output::payment_method(
                &services.operator.set_payment_method_gateway(&known_method(&code)?, None, gateway_type).await?,
            )
        }
        MethodCommand::Enable { code } => {
            output::payment_method(&services.operator.set_payment_method_enabled(&known_method(&code)?, true).await?)
        }
        MethodCommand::Disable { code } => {
            output::payment_method(&services.operator.set_payment_method_enabled(&known_method(&code)?, false).await?)
        }
        MethodCommand::List => {
            services.operator.list_payment_methods().await?.iter().map(output::payment_method).collect()
        }
    })
}

/// A method code as given on the command line: one that cannot be a code names no method.
fn known_method(raw: &str) -> Result<MethodCode, AppError> {
    MethodCode::parse(raw).map_err(|_| AppError::NotFound("payment method"))
}

/// `GATEWAY[:METHOD]`: a gateway and one of its own methods, from the gateway's list.
fn named_gateway(text: &str) -> Result<(Option<GatewayName>, Option<String>), CommandError> {
    let route = GatewayRoute::parse(text).map_err(|_| {
        CommandError::BadInput(format!(
            "--gateway {text:?} is not GATEWAY[:METHOD] with GATEWAY one of {}",
            GatewayName::ALL.map(GatewayName::as_str).join(", ")
        ))
    })?;
    vp_payments::check_gateway_method(&route)
        .map_err(|e| CommandError::BadInput(format!("--gateway {text:?}: {e}")))?;
    Ok((Some(route.gateway), route.method))
}

/// A YooKassa `payment_method_data.type` from its documented list.
fn yookassa_method_type(text: &str) -> Result<&str, CommandError> {
    use vp_payments::yookassa::METHOD_TYPES;
    METHOD_TYPES.contains(&text).then_some(text).ok_or_else(|| {
        CommandError::BadInput(format!("--yookassa-type {text:?} is not one of {}", METHOD_TYPES.join(", ")))
    })
}

pub async fn client(services: &Services, cmd: ClientCommand) -> CommandResult {
    let client = match cmd {
        ClientCommand::Show { account_id, client_id } => services.operator.show_client(&account_id, &client_id).await?,
        ClientCommand::Block { account_id, client_id } => {
            services.operator.set_client_blocked(&account_id, &client_id, true).await?
        }
        ClientCommand::Unblock { account_id, client_id } => {
            services.operator.set_client_blocked(&account_id, &client_id, false).await?
        }
        ClientCommand::AutoRenew { account_id, client_id, state: AutoRenewState::Off } => {
            let off =
                services.renewals.turn_off(&account_id, &client_id, vp_app::renewals::TurnedOffBy::Operator).await?;
            return Ok(json!({
                "client_id": client_id.as_str(),
                "auto_renew": false,
                "was_on": off.was_on,
                // A charge sent to the gateway before this completes; the operator is told.
                "charge_under_way": off.charge_under_way,
            }));
        }
    };
    Ok(output::client(&client))
}

pub async fn subscription(services: &Services, cmd: SubscriptionCommand) -> CommandResult {
    let client = match cmd {
        SubscriptionCommand::Suspend { account_id, client_id } => {
            services.operator.set_subscription_suspended(&account_id, &client_id, true).await?
        }
        SubscriptionCommand::Resume { account_id, client_id } => {
            services.operator.set_subscription_suspended(&account_id, &client_id, false).await?
        }
    };
    Ok(output::client(&client))
}

fn to_json<T: serde::Serialize>(value: &T) -> CommandResult {
    serde_json::to_value(value).map_err(|e| CommandError::Failed(e.to_string()))
}

pub async fn app_list(services: &Services, cmd: ContentCommand) -> CommandResult {
    match cmd {
        ContentCommand::Set { file } => to_json(&services.operator.set_app_list(&read_file(&file)?).await?),
        ContentCommand::Show => to_json(&services.operator.app_list().await?),
    }
}

pub async fn documents(services: &Services, cmd: ContentCommand) -> CommandResult {
    match cmd {
        ContentCommand::Set { file } => to_json(&services.operator.set_documents(&read_file(&file)?).await?),
        ContentCommand::Show => to_json(&services.operator.documents().await?),
    }
}

pub async fn demo(services: &Services) -> CommandResult {
    let (account, key) = services.operator.seed_demo().await?;
    Ok(json!({ "account": output::account(&account), "api_key": output::issued_key(&key) }))
}

/// `sandbox traffic`: the local panel counts `mb` more of the client's traffic.
pub async fn local_traffic(
    services: &Services,
    panel: &vp_panel::LocalPanel,
    account_id: &AccountId,
    client_id: &ClientId,
    mb: u32,
) -> CommandResult {
    let client = services.operator.show_client(account_id, client_id).await?;
    let record =
        client.subscription.as_ref().ok_or_else(|| CommandError::BadInput("the client has no subscription".into()))?;
    let counted = panel
        .count_traffic(&record.link_token, u64::from(mb) << 20)
        .await
        .map_err(|e| CommandError::Failed(e.to_string()))?;
    Ok(match counted {
        Some(count) => json!({ "traffic_used_bytes": count.used, "counted_since": output::timestamp(count.since) }),
        None => {
            json!({ "traffic_used_bytes": null, "note": "the subscription has no traffic limit: nothing is counted" })
        }
    })
}

pub async fn sandbox(services: &Services, cmd: SandboxCommand) -> CommandResult {
    use vp_ports::SettingKey;
    use vp_ports::standin::StandInMode;
    let operator = &services.operator;
    let parse = |m: &str| m.parse::<StandInMode>().map_err(CommandError::BadInput);
    match cmd {
        SandboxCommand::Gateway { mode } => {
            let mode = parse(&mode)?;
            operator.set_adapter_setting(SettingKey::GatewayMode, &mode.to_string()).await?;
        }
        SandboxCommand::Panel { mode } => {
            let mode = parse(&mode)?;
            operator.set_adapter_setting(SettingKey::PanelMode, &mode.to_string()).await?;
        }
        SandboxCommand::Servers { file } => {
            let list = vp_panel::ServerList::parse(&read_file(&file)?).map_err(CommandError::BadInput)?;
            let value = serde_json::to_string(&list).map_err(|e| CommandError::Failed(e.to_string()))?;
            operator.set_adapter_setting(SettingKey::LocalPanelServers, &value).await?;
        }
        SandboxCommand::SavedCards { outcome } => {
            let value = match outcome {
                SavedCardsOutcome::Approve => "approve",
                SavedCardsOutcome::Decline => vp_payments::SAVED_CARDS_DECLINE,
            };
            operator.set_adapter_setting(SettingKey::SandboxSavedCards, value).await?;
        }
        SandboxCommand::Show => {}
        SandboxCommand::Traffic { .. } => {
            return Err(CommandError::BadInput("the local panel counts traffic; VP_PANEL is not local".into()));
        }
    }
    // A missing or unreadable mode means `up`, as the stand-ins read it.
    let mode = |stored: Option<String>| stored.and_then(|v| v.parse::<StandInMode>().ok()).unwrap_or_default();
    let gateway = mode(operator.adapter_setting(SettingKey::GatewayMode).await?);
    let panel = mode(operator.adapter_setting(SettingKey::PanelMode).await?);
    let cards = operator.adapter_setting(SettingKey::SandboxSavedCards).await?.unwrap_or_else(|| "approve".into());
    Ok(json!({ "gateway": gateway.to_string(), "panel": panel.to_string(), "saved_cards": cards }))
}

pub async fn invoice(services: &Services, cmd: InvoiceCommand) -> CommandResult {
    let invoice = match cmd {
        InvoiceCommand::Show { payment_id } => services.operator.invoice(&payment_id).await?,
        InvoiceCommand::Recall { payment_id } => {
            services.payments.apply_payment_outcome(&payment_id, vp_domain::PaymentOutcome::BankRecall).await?
        }
        InvoiceCommand::Refund { payment_id, by_hand } => {
            let (invoice, refund) = services.payments.refund_invoice(&payment_id, by_hand).await?;
            let mut shown = output::invoice(&invoice);
            shown["refund"] = json!(match refund {
                vp_ports::RefundState::Succeeded => "succeeded",
                vp_ports::RefundState::Pending => "pending: applied when the gateway confirms it",
                vp_ports::RefundState::Canceled(_) => "canceled",
            });
            return Ok(shown);
        }
    };
    Ok(output::invoice(&invoice))
}

pub async fn panel(services: &Services, cmd: PanelCommand) -> CommandResult {
    Ok(match cmd {
        PanelCommand::Check => output::panel_info(&services.panel_sync.panel_check().await?),
        PanelCommand::Reconcile { fix } => {
            output::panel_reconciliation(&services.panel_sync.reconcile_panel(fix).await?)
        }
    })
}

pub async fn import(services: &Services, cmd: ImportCommand) -> CommandResult {
    let import = &services.panel_import;
    Ok(match cmd {
        ImportCommand::Remnawave { account_id, squad, tag, dry_run } => {
            let filter = PanelImportFilter { squad, tag };
            output::panel_import(&import.import_panel_users(&account_id, &filter, dry_run).await?)
        }
        ImportCommand::Bedolaga { account_id, database, dry_run } => {
            let bot = vp_store::bedolaga::BedolagaDatabase::open(&database).await.map_err(|e| match e {
                vp_ports::ShopBotError::Unsupported(_) => CommandError::BadInput(e.to_string()),
                vp_ports::ShopBotError::Unreadable(_) => CommandError::Failed(e.to_string()),
            })?;
            output::shop_bot_import(&import.import_shop_bot(&account_id, &bot, dry_run).await?)
        }
    })
}

pub async fn gateway(services: &Services, cmd: GatewayCommand) -> CommandResult {
    Ok(match cmd {
        GatewayCommand::Check { gateway } => {
            let checked = services.payments.gateway_check(gateway).await?;
            let failed: Vec<String> =
                checked.iter().filter_map(|c| c.answer.as_ref().err().map(|e| format!("{}: {e}", c.gateway))).collect();
            if !failed.is_empty() {
                return Err(CommandError::Failed(failed.join("; ")));
            }
            match (gateway, checked.as_slice()) {
                (Some(_), [one]) => output::gateway_checked(one),
                _ => json!({ "gateways": checked.iter().map(output::gateway_checked).collect::<Vec<_>>() }),
            }
        }
    })
}

pub async fn cabinet(services: &Services, cmd: CabinetCommand) -> CommandResult {
    Ok(match cmd {
        CabinetCommand::Invite { account_id, email, lang } => {
            output::cabinet_invitation(&services.cabinet_access.invite_user(&account_id, &email, lang).await?)
        }
        CabinetCommand::Users { account_id } => {
            services.cabinet_access.users(&account_id).await?.iter().map(output::cabinet_user).collect()
        }
        CabinetCommand::Revoke { user_id } => {
            let (user, sessions_ended) = services.cabinet_access.revoke_user(&user_id).await?;
            let mut out = output::cabinet_user(&user);
            out["sessions_ended"] = sessions_ended.into();
            out
        }
    })
}

pub async fn operator(services: &Services, cmd: OperatorCommand) -> CommandResult {
    let access = &services.operator_access;
    Ok(match cmd {
        OperatorCommand::Invite { email, lang } => output::operator_invitation(&access.invite(&email, lang).await?),
        OperatorCommand::List => access.operators().await?.iter().map(output::operator).collect(),
        OperatorCommand::Revoke { email } => {
            let (operator, sessions_ended) = access.revoke(&email).await?;
            let mut out = output::operator(&operator);
            out["sessions_ended"] = sessions_ended.into();
            out
        }
    })
}

pub async fn mail(services: &Services, cmd: MailCommand) -> CommandResult {
    match cmd {
        MailCommand::Test { address, lang } => {
            let mail = services.mail.send_test(&address, lang).await?;
            match (&mail.sent_at, &mail.last_error) {
                (Some(_), _) => Ok(output::mail(&mail)),
                (None, error) => Err(CommandError::Failed(format!(
                    "the test message {} did not leave: {}; the workers try it again",
                    mail.id,
                    error.as_deref().unwrap_or("no answer")
                ))),
            }
        }
        MailCommand::Show { mail_id } => Ok(output::mail(&services.mail.message(&mail_id).await?)),
    }
}

pub async fn withdrawal(services: &Services, cmd: WithdrawalCommand) -> CommandResult {
    let (id, step, note) = match cmd {
        WithdrawalCommand::List { status, limit } => {
            let status = match status.as_deref() {
                None => None,
                Some(s) => Some(WithdrawalStatus::parse(s).ok_or_else(|| {
                    CommandError::BadInput(format!(
                        "--status must be one of requested, approved, rejected, paid, not {s:?}"
                    ))
                })?),
            };
            if !(1..=1000).contains(&limit) {
                return Err(CommandError::BadInput("--limit must be between 1 and 1000".into()));
            }
            let filter = WithdrawalFilter { account_id: None, status, before: None, limit };
            return Ok(services.ledger.withdrawals(&filter).await?.iter().map(output::withdrawal).collect());
        }
        WithdrawalCommand::Approve { withdrawal_id, note } => (withdrawal_id, WithdrawalStep::Approve, note),
        WithdrawalCommand::Reject { withdrawal_id, note } => (withdrawal_id, WithdrawalStep::Reject, note),
        WithdrawalCommand::Paid { withdrawal_id, note } => (withdrawal_id, WithdrawalStep::MarkPaid, note),
    };
    let record = services.ledger.step_withdrawal(&id, step, note.as_deref()).await?;
    let mut out = output::withdrawal(&record);
    out["balance"] = output::balance(services.ledger.balance(&record.account_id).await?);
    Ok(out)
}

/// `backup FILE`: a consistent copy of the running SQLite database into a new file.
pub async fn backup(services: &Services, file: &Path) -> CommandResult {
    if file.exists() {
        return Err(CommandError::BadInput(format!("{} exists; a backup never overwrites a file", file.display())));
    }
    let path = file.to_str().ok_or_else(|| CommandError::BadInput("the backup path must be UTF-8".into()))?;
    services.operator.back_up_database(path).await?;
    let bytes = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
    Ok(serde_json::json!({ "backup": path, "bytes": bytes }))
}

/// `YYYY-MM-DD` of `--flag`.
fn day_arg(text: &str, flag: &str) -> Result<time::Date, CommandError> {
    vp_domain::time_zone::parse_day(text)
        .ok_or_else(|| CommandError::BadInput(format!("--{flag} is a date such as 2026-11-30")))
}

/// `vp-api sales rebuild ACCOUNT --from --to`: the rows of daily figures written; `vp-api sales
/// show ACCOUNT --range`: a range's figures.
pub async fn sales(services: &Services, command: SalesCommand) -> Result<Value, CommandError> {
    match command {
        SalesCommand::Rebuild(args) => {
            let (first, last) = (day_arg(&args.from, "from")?, day_arg(&args.to, "to")?);
            let rows = services.sales.rebuild(args.account_id.as_str(), first, last).await?;
            let id = args.account_id.as_str();
            Ok(serde_json::json!({ "account_id": id, "from": args.from, "to": args.to, "rows": rows }))
        }
        SalesCommand::Show { account_id, range } => {
            let range = vp_domain::sales::SalesRange::parse(&range).ok_or_else(|| {
                CommandError::BadInput("--range is one of 7d, 30d, 90d, this-month, last-month".into())
            })?;
            let account = services.operator.account_overview(&account_id).await?.account;
            let report = services.sales.report(&account, range).await?;
            Ok(crate::output::sales_report(&report))
        }
    }
}

/// `vp-api export ...`: the CSV on standard output, a page at a time (constant memory).
pub async fn export(services: &Services, command: ExportCommand) -> Result<(), CommandError> {
    use std::io::Write;
    use vp_app::exports::ExportKind;
    let (kind, args) = match command {
        ExportCommand::Invoices(args) => (ExportKind::Invoices, args),
        ExportCommand::Clients(args) => (ExportKind::Clients, args),
        ExportCommand::Ledger(args) => (ExportKind::Ledger, args),
    };
    let (first, last) = (day_arg(&args.from, "from")?, day_arg(&args.to, "to")?);
    let exports = &services.exports;
    let account_id = args.account_id.as_str();
    let range = exports.range(account_id, first, last).await?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = |e: std::io::Error| CommandError::Failed(format!("cannot write the export: {e}"));
    out.write_all(kind.header().as_bytes()).map_err(written)?;
    let mut after = None;
    loop {
        let page = exports.page(account_id, kind, range, after).await?;
        out.write_all(page.csv.as_bytes()).map_err(written)?;
        match page.next {
            Some(next) => after = Some(next),
            None => break,
        }
    }
    out.flush().map_err(written)
}
