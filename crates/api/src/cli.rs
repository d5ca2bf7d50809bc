//! The command line: `serve`, `migrate` and the operator commands.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use vp_domain::traffic::{TRAFFIC_GB_MAX, TrafficReset};
use vp_domain::{
    AccountId, ApiKeyId, BroadcastId, CabinetUserId, ClientId, EndpointId, GatewayName, MailId, PaymentId, WithdrawalId,
};

#[derive(Debug, Parser)]
#[command(name = "vp-api", version, about = "VPN partner platform: partner API server and operator commands")]
pub struct Cli {
    /// A KEY=VALUE file with settings (the environment overrides it).
    #[arg(long, global = true, env = "VP_CONFIG_FILE", value_name = "FILE")]
    pub config: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Apply pending database migrations.
    Migrate,
    /// Run the HTTP server (migrates first).
    Serve {
        /// Seed the demo app list and partner when the database is empty, and print the key.
        #[arg(long)]
        demo: bool,
    },
    /// Seed an empty database with the demo app list and a demo partner; prints its API key.
    Demo,
    /// Partners' messages to the customers of their bots.
    #[command(subcommand)]
    Broadcast(BroadcastCommand),
    /// Partner accounts.
    #[command(subcommand)]
    Account(AccountCommand),
    /// API keys of partner accounts.
    #[command(subcommand)]
    Key(KeyCommand),
    /// Plans sold to customers.
    #[command(subcommand)]
    Plan(PlanCommand),
    /// The extra-device offer.
    #[command(subcommand)]
    Devices(DevicesCommand),
    /// Payment methods.
    #[command(subcommand)]
    Method(MethodCommand),
    /// Clients of a partner.
    #[command(subcommand)]
    Client(ClientCommand),
    /// Subscriptions of a partner's clients.
    #[command(subcommand)]
    Subscription(SubscriptionCommand),
    /// The application list (platforms, apps, install and deep links).
    /// (`catalogue` is its former name, kept for existing scripts.)
    #[command(subcommand, alias = "catalogue")]
    Apps(ContentCommand),
    /// The legal documents (terms of service, privacy policy) in ru and en.
    #[command(subcommand)]
    Documents(ContentCommand),
    /// The embedded stand-ins: switch the sandbox gateway or the local panel up, down or slow;
    /// set the server list the local panel's subscription links return.
    #[command(subcommand)]
    Sandbox(SandboxCommand),
    /// Invoices: show one, or record a bank recall of a paid one.
    #[command(subcommand)]
    Invoice(InvoiceCommand),
    /// Run the background jobs once (invoice expiry, crash completion, payment reconciliation,
    /// panel sync, term events, due mail).
    Jobs,
    /// Run the background work without the HTTP server: event delivery, term events, jobs.
    Worker,
    /// Webhook endpoints of a partner (the partner's cabinet, for the operator).
    #[command(subcommand)]
    Endpoint(EndpointCommand),
    /// The shifted clock (only with VP_SHIFTED_CLOCK=on): show it or move it forward.
    #[command(subcommand)]
    Clock(ClockCommand),
    /// The VPN panel (VP_PANEL): check the connection, compare it with the stored subscriptions.
    #[command(subcommand)]
    Panel(PanelCommand),
    /// Bring existing customers over: adopt the users of the configured Remnawave panel.
    #[command(subcommand)]
    Import(ImportCommand),
    /// The payment gateway (VP_GATEWAY).
    #[command(subcommand)]
    Gateway(GatewayCommand),
    /// People who sign in to a partner's web cabinet (/cabinet).
    #[command(subcommand)]
    Cabinet(CabinetCommand),
    /// The platform's operators, who sign in to the operator's view (/operator): every
    /// account's sales, the accounts ranked, what the platform owes partners.
    #[command(subcommand)]
    Operator(OperatorCommand),
    /// Mail to people: check that it leaves (VP_SMTP_URL), look at one message of the outbox.
    #[command(subcommand)]
    Mail(MailCommand),
    /// Partners' withdrawal requests: list them and take each through approve, reject or paid.
    #[command(subcommand)]
    Withdrawal(WithdrawalCommand),
    /// A partner's own Telegram bot, run by the platform under the partner's brand.
    #[command(subcommand)]
    Bot(BotCommand),
    /// A partner's promo codes: a discount out of the partner's markup, or extra days.
    #[command(subcommand)]
    Promo(PromoCommand),
    /// A partner's books as CSV on standard output (RFC 4180, UTF-8, times in UTC), for a range
    /// of days in the account's time zone: `vp-api export invoices ACCOUNT_ID --from 2026-11-01
    /// --to 2026-11-30 > invoices.csv`.
    #[command(subcommand)]
    Export(ExportCommand),
    /// A partner's sales figures per day (the cabinet's charts read them), rebuilt from the
    /// invoices, clients and trials; the jobs rebuild the last two days every few minutes and the
    /// last 92 each night.
    #[command(subcommand)]
    Sales(SalesCommand),
    /// The key that seals secrets at rest (VP_SECRETS_KEY).
    #[command(subcommand)]
    Secrets(SecretsCommand),
    /// Write a consistent copy of the SQLite database to FILE, a new file, while the service
    /// runs. (PostgreSQL: pg_dump or base backups, docs/operations.md.) The copy holds the
    /// secrets sealed: keep VP_SECRETS_KEY, or the key file beside the database, apart from it.
    Backup { file: PathBuf },
    /// After restoring a backup, before any instance starts on it: free the leases the lost
    /// deployment's processes held, so the deliveries they had claimed go out at once.
    ReleaseLeases,
}

#[derive(Debug, Subcommand)]
pub enum ExportCommand {
    /// The account's invoices created in the range, oldest first: id, times, client, purpose,
    /// method, status, the customer's amount, the platform's and the partner's share, the code.
    Invoices(ExportArgs),
    /// The account's clients created in the range, oldest first, each with its subscription as
    /// it is now: status, trial, lifetime, until when, device limit, automatic renewal.
    Clients(ExportArgs),
    /// The account's ledger entries written in the range, oldest first: kind, invoice or
    /// withdrawal, amount and held amount (signed).
    Ledger(ExportArgs),
}

#[derive(Debug, Subcommand)]
pub enum SalesCommand {
    /// Rebuild the account's figures of the days FROM to TO (its time zone, both included, at
    /// most 366 days): after an upgrade that brought the figures, or to check them.
    Rebuild(ExportArgs),
    /// The account's figures of a range as the cabinet reads them: the total, the period just
    /// before, and per payment method.
    Show {
        account_id: AccountId,
        /// 7d, 30d, 90d, this-month or last-month.
        #[arg(long, default_value = "30d")]
        range: String,
    },
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    pub account_id: AccountId,
    /// The first day, YYYY-MM-DD, in the account's time zone.
    #[arg(long)]
    pub from: String,
    /// The last day, included.
    #[arg(long)]
    pub to: String,
}

#[derive(Debug, Subcommand)]
pub enum PromoCommand {
    /// Create a code (case-insensitive, 4-32 of A-Z, 0-9 and '-'). Give exactly one of
    /// --percent-off, --amount-off or --extra-days. A discount that would take a plan it applies
    /// to below the platform's price is refused, with the plan and by how much.
    Create(PromoCreateArgs),
    /// The account's codes, newest first, with their uses.
    List { account_id: AccountId },
    /// One code with its uses: held by payable invoices, spent by paid ones, the discount given.
    Show { account_id: AccountId, code: String },
    /// Turn a code off: it is refused from now on; invoices already issued with it stay payable.
    Disable { account_id: AccountId, code: String },
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("benefit").required(true).args(["percent_off", "amount_off", "extra_days"])))]
pub struct PromoCreateArgs {
    pub account_id: AccountId,
    pub code: String,
    /// Whole percent off the customer price, 1 to 99.
    #[arg(long)]
    pub percent_off: Option<u32>,
    /// Roubles off the customer price, for example 50 or 49.90.
    #[arg(long, value_name = "RUB")]
    pub amount_off: Option<String>,
    /// Days added to the term bought.
    #[arg(long)]
    pub extra_days: Option<u32>,
    /// Uses across all customers (no limit without it).
    #[arg(long)]
    pub max_uses: Option<u32>,
    /// Uses by one customer.
    #[arg(long, default_value_t = 1)]
    pub per_customer: u32,
    /// Only for customers who never paid.
    #[arg(long)]
    pub first_purchase_only: bool,
    /// The plans it applies to, comma-separated ids (every plan without it).
    #[arg(long, value_delimiter = ',', num_args = 1..)]
    pub plans: Option<Vec<i32>>,
    /// The last day it works (YYYY-MM-DD, in the account's time zone).
    #[arg(long, value_name = "DATE")]
    pub expires: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum BotCommand {
    /// Connect the account's bot with its BotFather token, read from a file (never from the
    /// command line, which other users of the machine can see). The token is checked with
    /// Telegram and kept sealed; it is never shown again.
    Connect {
        account_id: AccountId,
        #[arg(long)]
        token_file: PathBuf,
    },
    /// The account's bot (without its token).
    Show { account_id: AccountId },
    /// Disconnect the account's bot: the platform forgets its token.
    Disconnect { account_id: AccountId },
    /// The bot's last 30 days: people who started it, clients linked to a chat, purchases of
    /// bot customers, and the conversion from start to payment.
    Stats { account_id: AccountId },
    /// Print a one-time "Create my bot" link (valid 24 h): the platform's bot (VP_TELEGRAM_BOT_TOKEN)
    /// offers whoever opens it first the button that creates a bot it manages, then connects
    /// that bot to the account with no token to copy. Exits 2 when the platform's bot may not
    /// create bots (Bot Management Mode off in BotFather) or the account has a bot.
    CreateLink {
        account_id: AccountId,
        /// The language the platform's bot speaks to the person: en or ru.
        #[arg(long, default_value = "en", value_parser = lang)]
        lang: vp_domain::Lang,
    },
    /// Replace the token of the account's bot created with "Create my bot": Telegram refuses
    /// the old token from now on and the platform uses the new one. For a bot connected with a
    /// pasted token it exits 2 and explains BotFather's /revoke.
    RotateToken { account_id: AccountId },
}

#[derive(Debug, Subcommand)]
pub enum SecretsCommand {
    /// Seal every stored secret again under VP_SECRETS_KEY, after a rotation (the old key in
    /// VP_SECRETS_KEY_PREVIOUS until this has run).
    RotateKey,
}

#[derive(Debug, Subcommand)]
pub enum WithdrawalCommand {
    /// Requests of every account, newest first.
    List {
        /// Only requests in this status: requested, approved, rejected or paid.
        #[arg(long)]
        status: Option<String>,
        /// At most this many (1 to 1000).
        #[arg(long, default_value_t = 100)]
        limit: u32,
    },
    /// Approve a requested withdrawal (the amount stays held until it is paid).
    Approve {
        withdrawal_id: WithdrawalId,
        #[arg(long)]
        note: Option<String>,
    },
    /// Reject a requested or approved withdrawal: its hold goes back to the available balance.
    Reject {
        withdrawal_id: WithdrawalId,
        #[arg(long)]
        note: Option<String>,
    },
    /// Record that an approved withdrawal was paid out; the partner is notified.
    Paid {
        withdrawal_id: WithdrawalId,
        #[arg(long)]
        note: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum CabinetCommand {
    /// Print a one-time link (valid 72 h) where the person sets a password, and mail it to
    /// them; for an existing user of the account it is a password reset link.
    Invite {
        account_id: AccountId,
        #[arg(long)]
        email: String,
        /// The language of the message carrying the link: en or ru.
        #[arg(long, default_value = "en", value_parser = lang)]
        lang: vp_domain::Lang,
    },
    /// Users of an account.
    Users { account_id: AccountId },
    /// End a user's access: their sessions end now and their links stop working.
    Revoke { user_id: CabinetUserId },
}

#[derive(Debug, Subcommand)]
pub enum OperatorCommand {
    /// Print a one-time link (valid 72 h) where the person sets a password for the operator's
    /// view, and mail it to them; for an operator with a password it is a reset link, and a
    /// revoked operator is let in again once they set a new one.
    Invite {
        email: String,
        /// The language of the message carrying the link: en or ru.
        #[arg(long, default_value = "en", value_parser = lang)]
        lang: vp_domain::Lang,
    },
    /// Every operator, oldest first.
    List,
    /// End an operator's access: their sessions end now and their links stop working.
    Revoke { email: String },
}

#[derive(Debug, Subcommand)]
pub enum MailCommand {
    /// Send a test message to ADDRESS now, through the outbox; exits 1 when it did not leave
    /// (the reason is printed; the workers try it again as any message).
    Test {
        address: String,
        /// The message's language: en or ru.
        #[arg(long, default_value = "en", value_parser = lang)]
        lang: vp_domain::Lang,
    },
    /// One message of the outbox: sent, waiting for its next attempt, or given up, and why.
    Show { mail_id: MailId },
}

#[derive(Debug, Subcommand)]
pub enum GatewayCommand {
    /// Reach each gateway that is on (or only GATEWAY) with the configured credentials; print
    /// the shop, its test or live status and enabled methods.
    Check {
        /// sandbox, yookassa, platega or cryptopay.
        #[arg(value_parser = gateway_name)]
        gateway: Option<GatewayName>,
    },
}

fn gateway_name(text: &str) -> Result<GatewayName, String> {
    text.parse().map_err(|_| format!("one of {}", GatewayName::ALL.map(GatewayName::as_str).join(", ")))
}

#[derive(Debug, Subcommand)]
pub enum PanelCommand {
    /// Reach the panel with the configured URL and token; print its kind and version.
    Check,
    /// Compare every client's stored subscription with its panel user (exists, expiry, status,
    /// device limit, link) and print the drift as JSON.
    Reconcile {
        /// Push the stored state to the panel where it differs.
        #[arg(long)]
        fix: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum ImportCommand {
    /// Make each user of the configured Remnawave panel (VP_PANEL=remnawave) a client of the
    /// account whose subscription keeps the panel user as it is: the same user, name and link,
    /// so installed VPN apps keep working. A user with a Telegram id becomes a bot customer.
    /// Running it again adopts nothing twice. Prints the counts by outcome and the users left
    /// alone, with why.
    Remnawave {
        account_id: AccountId,
        /// Only users in this internal squad (its UUID).
        #[arg(long, value_parser = squad_uuid)]
        squad: Option<String>,
        /// Only users with this tag (the panel's: A-Z, 0-9 and _, at most 16).
        #[arg(long, value_parser = panel_tag)]
        tag: Option<String>,
        /// Say what would happen; change nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Bring a Bedolaga shop bot's customers over (docs/bedolaga.md): the panel users their
    /// subscriptions hold are adopted as `import remnawave` adopts them, each customer's
    /// Telegram id with their current subscription; customers without one become bot
    /// customers; languages carry over; balances are kept as the partner's record. Reads the
    /// bot's database only (revision 0104 or later). Lists whatever it could not map.
    Bedolaga {
        account_id: AccountId,
        /// The bot's database: postgres://... or the SQLite file (sqlite://path or a path).
        #[arg(long)]
        database: String,
        /// Say what would happen; change nothing.
        #[arg(long)]
        dry_run: bool,
    },
}

fn traffic_reset(text: &str) -> Result<TrafficReset, String> {
    text.parse().map_err(|_| format!("one of {}", TrafficReset::ALL.map(TrafficReset::as_str).join(", ")))
}

/// A squad's UUID, as the panel writes them (lowercase or uppercase hex, 8-4-4-4-12).
fn squad_uuid(text: &str) -> Result<String, String> {
    let groups: Vec<&str> = text.split('-').collect();
    let shape = groups.iter().map(|g| g.len()).collect::<Vec<_>>() == [8, 4, 4, 4, 12];
    if shape && groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_hexdigit())) {
        Ok(text.to_ascii_lowercase())
    } else {
        Err("a squad's UUID, e.g. 0b6a6c2e-7f1d-4e43-9d5b-1a2b3c4d5e6f".into())
    }
}

/// A tag as the panel takes them (`^[A-Z0-9_]+$`, at most 16 characters).
fn panel_tag(text: &str) -> Result<String, String> {
    if (1..=16).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
    {
        Ok(text.to_owned())
    } else {
        Err("1 to 16 of A-Z, 0-9 and _, as the panel's tags are".into())
    }
}

#[derive(Debug, Subcommand)]
pub enum EndpointCommand {
    /// Register an https address (port 443, publicly reachable) for some event types.
    Add {
        account_id: AccountId,
        url: String,
        /// Event types, e.g. payment.succeeded (repeat or comma-separate).
        #[arg(long = "type", value_delimiter = ',', required = true)]
        types: Vec<String>,
    },
    /// Endpoints of an account.
    List {
        account_id: AccountId,
    },
    /// Replace the event types of an endpoint (from the next event on).
    Types {
        endpoint_id: EndpointId,
        #[arg(long = "type", value_delimiter = ',', required = true)]
        types: Vec<String>,
    },
    Enable {
        endpoint_id: EndpointId,
    },
    /// Disable: pending deliveries become undelivered (replayable after re-enabling).
    Disable {
        endpoint_id: EndpointId,
    },
    /// Show the signing secret.
    Secret {
        endpoint_id: EndpointId,
    },
    /// Issue a new secret; the previous one keeps signing for 24 hours.
    RotateSecret {
        endpoint_id: EndpointId,
    },
    /// Send `webhook.test` now and show the response code and time (5 per minute).
    Test {
        endpoint_id: EndpointId,
    },
    /// Recent delivery attempts with status code, time and attempt number.
    Deliveries {
        endpoint_id: EndpointId,
        #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=1000))]
        limit: u32,
    },
    /// Resend undelivered events of the last 1, 3, 7 or 30 days.
    Replay {
        endpoint_id: EndpointId,
        #[arg(long, value_parser = ["1", "3", "7", "30"])]
        days: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum ClockCommand {
    /// The shifted clock's time and offset.
    Show,
    /// Move the shifted clock forward, e.g. `90m`, `72h`, `30d`, `45s`.
    Advance { by: String },
}

#[derive(Debug, Subcommand)]
pub enum SandboxCommand {
    /// `up`, `down` (does not answer: 503 paths) or `slow:<ms>`.
    Gateway { mode: String },
    /// `up`, `down` (does not answer: 503 paths) or `slow:<ms>`.
    Panel { mode: String },
    /// Whether renewals charging the sandbox's saved cards pay (`approve`) or are declined
    /// (`decline`).
    SavedCards { outcome: SavedCardsOutcome },
    /// Set the server share links the local panel returns, from a JSON file `{"servers": [...]}`.
    Servers { file: PathBuf },
    /// The client's VPN apps moved MB megabytes (2^20 bytes) through the local panel, which
    /// carries no VPN traffic of its own: counted against the subscription's traffic limit.
    Traffic {
        account_id: AccountId,
        client_id: ClientId,
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
        mb: u32,
    },
    /// Show both modes.
    Show,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum SavedCardsOutcome {
    Approve,
    Decline,
}

#[derive(Debug, Subcommand)]
pub enum InvoiceCommand {
    Show {
        payment_id: PaymentId,
    },
    /// The bank recalled the payment: succeeded becomes failed, the partner share is reversed.
    Recall {
        payment_id: PaymentId,
    },
    /// Refund a succeeded invoice in full through its payment gateway (or Telegram); applied
    /// (as a recall) when the gateway confirms it.
    Refund {
        payment_id: PaymentId,
        /// For a gateway with no refunds (Crypto Pay): the money was given back by hand;
        /// record the refund (the partner's share reversed).
        #[arg(long)]
        by_hand: bool,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Switch {
    On,
    Off,
}

impl Switch {
    pub fn is_on(self) -> bool {
        self == Switch::On
    }
}

#[derive(Debug, Subcommand)]
pub enum AccountCommand {
    /// Create an account with API access on and issue its first key (shown once).
    Create {
        /// The brand customers see; without it, the platform's name (VP_PLATFORM_NAME).
        #[arg(long)]
        brand: Option<String>,
        /// Percent over the platform price, at most two decimals, e.g. 15 or 12.50.
        #[arg(long, default_value = "0")]
        markup: String,
        #[arg(long)]
        trial: bool,
    },
    /// Show an account with its keys and partner balance.
    Show { account_id: AccountId },
    /// List all accounts.
    List,
    /// Set the markup percent.
    SetMarkup { account_id: AccountId, markup: String },
    /// Set the brand name.
    SetBrand { account_id: AccountId, brand: String },
    /// Set the address of the account's web shop, {VP_PUBLIC_BASE_URL}/shop/SLUG: 3 to 40
    /// lowercase Latin letters, digits and single hyphens; the old address stops working.
    SetSlug { account_id: AccountId, slug: String },
    /// Set the time zone customers read times in: an IANA name such as Europe/Moscow (the default).
    SetTimeZone { account_id: AccountId, time_zone: String },
    /// Turn trials on or off for the account.
    Trial { account_id: AccountId, switch: Switch },
    /// Turn API access on or off (off: every key answers 401).
    ApiAccess { account_id: AccountId, switch: Switch },
    /// Per-account limit overrides; each takes a number or `default`.
    Limits(LimitsArgs),
    /// How the customer pages show the account; each takes a value or `none`.
    SetStyle(StyleArgs),
    /// Let the account's bot take Telegram Stars at a rate of rubles per Star, or no more.
    Stars(StarsArgs),
    /// The referral program: with --days, set the days a customer gets when someone they
    /// invited pays for the first time (0 turns it off); then show it with its top inviters.
    Referrals {
        account_id: AccountId,
        /// Days per invited customer's first payment, 0 to 365.
        #[arg(long)]
        days: Option<String>,
    },
}

#[derive(Debug, Args)]
pub struct StarsArgs {
    pub account_id: AccountId,
    /// Rubles one Star is worth, at most two decimals, e.g. 1.79: plans are priced in whole
    /// Stars, rounded up.
    #[arg(long, required_unless_present = "off", conflicts_with = "off")]
    pub rub_per_star: Option<String>,
    /// The bot takes no more Stars (invoices already issued can still be paid).
    #[arg(long)]
    pub off: bool,
}

#[derive(Debug, Args)]
pub struct StyleArgs {
    pub account_id: AccountId,
    /// https address of a logo shown beside the brand name.
    #[arg(long)]
    pub logo_url: Option<String>,
    /// Button colour as #rrggbb; white text on it must reach 4.5:1 contrast.
    #[arg(long)]
    pub accent: Option<String>,
    /// https address of the partner's support, shown on pages and given to VPN apps.
    #[arg(long)]
    pub support_url: Option<String>,
}

#[derive(Debug, Args)]
pub struct LimitsArgs {
    pub account_id: AccountId,
    #[arg(long)]
    pub requests_per_minute: Option<String>,
    #[arg(long)]
    pub payments_per_minute: Option<String>,
    #[arg(long)]
    pub new_clients_per_day: Option<String>,
    #[arg(long)]
    pub trials_per_day: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum KeyCommand {
    /// Issue another key (shown once).
    Issue { account_id: AccountId },
    /// Revoke a key by its id.
    Revoke { key_id: ApiKeyId },
    /// List an account's keys (ids and prefixes, never the keys).
    List { account_id: AccountId },
}

#[derive(Debug, Subcommand)]
pub enum PlanCommand {
    /// Create a plan of N months, or a lifetime plan.
    Create {
        #[arg(long, conflicts_with = "lifetime", required_unless_present = "lifetime")]
        months: Option<u32>,
        #[arg(long)]
        lifetime: bool,
        /// Platform price in rubles, e.g. 199.00.
        #[arg(long)]
        price: String,
        /// Subscriptions of this plan have no device limit.
        #[arg(long)]
        unlimited_devices: bool,
        /// Traffic each term allows, in GB (2^30 bytes, as the panels count), 1 to 1000000;
        /// without it, no limit.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(TRAFFIC_GB_MAX)))]
        traffic_gb: Option<u32>,
        /// When the traffic used starts again: no_reset (only a renewal), day, week, month
        /// (the first of each month) or month_rolling (a month after the last reset).
        #[arg(long, requires = "traffic_gb", default_value = "month", value_parser = traffic_reset)]
        traffic_reset: TrafficReset,
    },
    /// Retire a plan: take it off sale (`withdraw` is its former name).
    #[command(alias = "withdraw")]
    Retire { plan_id: i32 },
    /// List plans.
    List {
        #[arg(long, alias = "include-withdrawn")]
        include_retired: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum DevicesCommand {
    /// Set devices included in a subscription, the per-client ceiling and the price per device.
    Set {
        #[arg(long)]
        included: u32,
        #[arg(long)]
        max: u32,
        /// Platform price per added device; omit to keep extra devices off sale.
        #[arg(long)]
        price: Option<String>,
    },
    /// Stop selling extra devices (included and max stay).
    Off,
    /// Show the device settings.
    Show,
}

#[derive(Debug, Subcommand)]
pub enum MethodCommand {
    /// Add a payment method, enabled.
    Add {
        code: String,
        #[arg(long)]
        name_en: String,
        #[arg(long)]
        name_ru: String,
        /// The gateway its payments go through, with that gateway's own method:
        /// yookassa[:TYPE] | platega:sbp | platega:card | cryptopay | sandbox; without it, the
        /// default gateway (VP_GATEWAY).
        #[arg(long, value_name = "GATEWAY[:METHOD]", conflicts_with = "yookassa_type")]
        gateway: Option<String>,
        /// For a method of the default gateway: the YooKassa `payment_method_data.type` it maps
        /// to (bank_card, sbp, yoo_money, ...); without it the customer chooses on YooKassa's page.
        #[arg(long)]
        yookassa_type: Option<String>,
    },
    /// Route a method's payments through GATEWAY[:METHOD] (as `add --gateway` takes it), or
    /// `default` for the default gateway (VP_GATEWAY). Invoices issued before keep theirs.
    SetGateway {
        code: String,
        #[arg(value_name = "GATEWAY[:METHOD]|default")]
        gateway: String,
    },
    /// For a method of the default gateway: map it to a YooKassa `payment_method_data.type`,
    /// or `none` to let the customer choose on YooKassa's page.
    SetYookassaType {
        code: String,
        #[arg(value_name = "TYPE|none")]
        yookassa_type: String,
    },
    Enable {
        code: String,
    },
    Disable {
        code: String,
    },
    List,
}

#[derive(Debug, Subcommand)]
pub enum ClientCommand {
    Show {
        account_id: AccountId,
        client_id: ClientId,
    },
    Block {
        account_id: AccountId,
        client_id: ClientId,
    },
    Unblock {
        account_id: AccountId,
        client_id: ClientId,
    },
    /// Turn the client's automatic renewal off (`off`): no renewal charge is started from now.
    AutoRenew {
        account_id: AccountId,
        client_id: ClientId,
        state: AutoRenewState,
    },
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum AutoRenewState {
    /// Only the customer turns it on, by ticking it when paying.
    Off,
}

#[derive(Debug, Subcommand)]
pub enum SubscriptionCommand {
    /// Pause access; the term keeps running.
    Suspend { account_id: AccountId, client_id: ClientId },
    /// Lift the pause.
    Resume { account_id: AccountId, client_id: ClientId },
}

#[derive(Debug, Subcommand)]
pub enum ContentCommand {
    /// Replace it with the JSON file's content (validated first).
    Set { file: PathBuf },
    /// Print the current content.
    Show,
}

/// A `--lang` value: `en` or `ru`, the languages of the catalogues.
fn lang(code: &str) -> Result<vp_domain::Lang, String> {
    vp_domain::Lang::from_code(code).ok_or_else(|| format!("{code:?} is not a language of the service: en or ru"))
}

#[derive(Debug, Subcommand)]
pub enum BroadcastCommand {
    /// Send a message to an audience of the account's bot customers, each in their language;
    /// prints the broadcast with its counts (the worker sends it at the bot's pace).
    Send(BroadcastSendArgs),
    /// A broadcast with its counts: sent, blocked, failed, left.
    Show {
        broadcast_id: BroadcastId,
    },
    /// Stop sending until resumed.
    Pause {
        broadcast_id: BroadcastId,
    },
    Resume {
        broadcast_id: BroadcastId,
    },
    /// Stop for good; the chats left get nothing.
    Cancel {
        broadcast_id: BroadcastId,
    },
    /// The account's broadcasts, newest first.
    List {
        account_id: AccountId,
    },
}

#[derive(Debug, Args)]
pub struct BroadcastSendArgs {
    pub account_id: AccountId,
    /// The text (plain, up to 4096 characters), for English chats and for Russian ones without
    /// --text-file-ru.
    #[arg(long)]
    pub text_file: std::path::PathBuf,
    #[arg(long)]
    pub text_file_ru: Option<std::path::PathBuf>,
    /// A link button under the text: its label and https address, both or neither.
    #[arg(long)]
    pub button_text: Option<String>,
    #[arg(long)]
    pub button_url: Option<String>,
    /// all, active, expired, trial or never-paid.
    #[arg(long)]
    pub audience: String,
}
