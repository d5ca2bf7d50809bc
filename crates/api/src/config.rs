//! Configuration from the environment and an optional file, validated at start with errors
//! that name the setting. The file holds `KEY=VALUE` lines with the same keys as the
//! environment; the environment wins.

use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
use std::path::Path;

use thiserror::Error;
use vp_app::bots::PlatformBot;

mod gateways;

pub use gateways::GatewaySettings;

pub const DEFAULT_DATABASE_URL: &str = "sqlite://data/vpn-partner.sqlite";
const DEFAULT_BIND: &str = "127.0.0.1:8080";

/// Every key the service reads; a file naming any other key is refused (typos do not pass).
const KEYS: [&str; 47] = [
    "DATABASE_URL",
    "VP_PLATFORM_NAME",
    "VP_BIND",
    "VP_PUBLIC_BASE_URL",
    "VP_DB_MAX_CONNECTIONS",
    "VP_LOG",
    "VP_WEBHOOK_ALLOW_ADDRESSES",
    "VP_TERM_CHECK_SECONDS",
    "VP_DELIVERY_WORKERS",
    "VP_SHIFTED_CLOCK",
    "VP_SECRETS_KEY",
    "VP_SECRETS_KEY_PREVIOUS",
    "VP_TEST_CLOCK",
    "VP_PANEL",
    "VP_REMNAWAVE_URL",
    "VP_REMNAWAVE_TOKEN",
    "VP_REMNAWAVE_SUB_URL",
    "VP_REMNAWAVE_SQUADS",
    "VP_REMNAWAVE_WEBHOOK_SECRET",
    "VP_GATEWAY",
    "VP_YOOKASSA_SHOP_ID",
    "VP_YOOKASSA_SECRET_KEY",
    "VP_YOOKASSA_API_URL",
    "VP_YOOKASSA_NOTIFY_FROM",
    "VP_YOOKASSA_SAVE_METHODS",
    "VP_SANDBOX_STANDS_IN",
    "VP_PLATEGA_MERCHANT_ID",
    "VP_PLATEGA_SECRET",
    "VP_PLATEGA_API_URL",
    "VP_CRYPTOPAY_TOKEN",
    "VP_CRYPTOPAY_API_URL",
    "VP_CRYPTOPAY_ASSETS",
    "VP_TRUSTED_PROXIES",
    "VP_SHUTDOWN_SECONDS",
    "VP_DRAIN_SECONDS",
    "VP_FAILED_AUTH_PER_MINUTE",
    "VP_REDIS_URL",
    "VP_LOG_FORMAT",
    "VP_METRICS_BIND",
    "VP_METRICS_TOKEN",
    "VP_TELEGRAM_BOT_TOKEN",
    "VP_TELEGRAM_API_URL",
    "VP_SMTP_URL",
    "VP_MAIL_FROM",
    "VP_RECEIPTS",
    "VP_RECEIPTS_TAX_SYSTEM",
    "VP_RECEIPTS_VAT_CODE",
];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// `postgres://...` for PostgreSQL, `sqlite://path` (or a path) for SQLite.
    pub database_url: String,
    pub bind: SocketAddr,
    /// Public address of this service, used in links it hands out (no trailing slash).
    pub public_base_url: String,
    /// The brand of accounts created without one.
    pub platform_name: String,
    pub db_max_connections: usize,
    /// tracing filter, e.g. `info` or `vp_http=debug,info`.
    pub log: String,
    /// Plain lines for people, or one JSON object per line for log shippers.
    pub log_format: LogFormat,
    /// A listener of its own serving only `GET /metrics` (private network); off by default.
    pub metrics_bind: Option<SocketAddr>,
    /// Bearer token for `GET /metrics`; when set, the main listener serves it too. Never logged.
    pub metrics_token: Option<String>,
    /// Operator-only: addresses webhooks may reach although not public (tests, local
    /// receivers), over http on any port. Empty by default; logged loudly when set.
    pub webhook_allow_addresses: Vec<IpAddr>,
    /// How often term events and expiries are checked (spec: every 5 minutes).
    pub term_check_every: std::time::Duration,
    /// Delivery worker slots per process, each keeping up to 32 attempts in flight.
    pub delivery_workers: usize,
    /// The operator's shifted clock (`vp-api clock advance`); off by default, logged loudly.
    pub shifted_clock: bool,
    /// Which VPN panel grants access.
    pub panel: PanelChoice,
    /// The payment gateways that are on, and the default one.
    pub gateways: GatewaySettings,
    /// `VP_TRUSTED_PROXIES`: proxies whose `X-Forwarded-For` names the client (YooKassa's
    /// notification check, the cabinet's sign-in lockout per address).
    pub trusted_proxies: vp_ports::TrustedProxies,
    /// On SIGTERM: how long requests in flight, and then delivery attempts, may take to finish.
    pub shutdown_after: std::time::Duration,
    /// `VP_DRAIN_SECONDS`: on SIGTERM, how long the instance goes on serving with `/ready` at
    /// 503 before it stops taking requests, so a proxy's health checks take it out first.
    pub drain_after: std::time::Duration,
    /// `VP_FAILED_AUTH_PER_MINUTE`: failed authentications a source address gets a minute.
    pub failed_auth_per_minute: u32,
    /// Where the per-minute request windows of every instance live; `None`: in each process.
    /// May hold a password: never logged.
    pub redis_url: Option<String>,
    /// The Telegram bot that carries notices to partners' chats; `None`: notices stay in the
    /// cabinet.
    pub telegram_bot: Option<PlatformBot>,
    /// The Bot API's address for every bot (`VP_TELEGRAM_API_URL`): the platform's and
    /// partners' own.
    pub telegram_api_url: String,
    /// Where the key that seals secrets at rest comes from.
    pub secrets_key: SecretsKeySource,
    /// `VP_SMTP_URL` and `VP_MAIL_FROM`: the SMTP server, or `.eml` files under the data
    /// directory when none is set.
    pub mail: vp_mail::MailSettings,
    /// `VP_RECEIPTS=on` with `VP_RECEIPTS_TAX_SYSTEM` (and `VP_RECEIPTS_VAT_CODE`, default 1, no
    /// VAT): fiscal receipts to buyers with every gateway payment.
    pub receipts: Option<vp_domain::receipt::ReceiptSettings>,
}

/// `VP_SECRETS_KEY` (and `VP_SECRETS_KEY_PREVIOUS` while rotating), required with PostgreSQL;
/// with SQLite, when it is not set, a key file generated beside the database on first start.
#[derive(Clone, PartialEq, Eq)]
pub enum SecretsKeySource {
    /// Both values are checked to be 32 bytes in base64; never logged.
    Configured {
        current: String,
        previous: Option<String>,
    },
    KeyFile(std::path::PathBuf),
}

impl std::fmt::Debug for SecretsKeySource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SecretsKeySource::Configured { previous, .. } => {
                write!(f, "Configured {{ previous: {} }}", if previous.is_some() { "<redacted>" } else { "none" })
            }
            SecretsKeySource::KeyFile(path) => write!(f, "KeyFile({})", path.display()),
        }
    }
}

/// The secrets key's source: the settings, checked here (a malformed key stops the start), or,
/// for the embedded SQLite default only, the key file beside its database.
fn secrets_key_source<'a>(
    get: &impl Fn(&str) -> Option<&'a str>,
    database_url: &str,
    backend: vp_store::Backend,
) -> Result<SecretsKeySource, ConfigError> {
    let check = |key: &'static str, value: &str| {
        vp_app::secrets::SecretKeys::from_base64(value, None)
            .map(|_| value.trim().to_owned())
            .map_err(|e| ConfigError::Invalid { key, reason: e.to_string() })
    };
    match (get("VP_SECRETS_KEY"), get("VP_SECRETS_KEY_PREVIOUS")) {
        (Some(current), previous) => Ok(SecretsKeySource::Configured {
            current: check("VP_SECRETS_KEY", current)?,
            previous: previous.map(|p| check("VP_SECRETS_KEY_PREVIOUS", p)).transpose()?,
        }),
        (None, Some(_)) => Err(ConfigError::Invalid {
            key: "VP_SECRETS_KEY_PREVIOUS",
            reason: "is set but VP_SECRETS_KEY is not (while rotating, the new key goes in VP_SECRETS_KEY)".into(),
        }),
        // Instances on several machines would each make a key of their own, and a command run
        // elsewhere would leave one in its working directory: PostgreSQL takes the setting only.
        (None, None) if backend == vp_store::Backend::Postgres => Err(ConfigError::Invalid {
            key: "VP_SECRETS_KEY",
            reason: "is required with PostgreSQL: every instance seals and opens secrets with the same key; make one \
                     with `openssl rand -base64 32` and keep it with the database's backups (docs/operations.md)"
                .into(),
        }),
        (None, None) => Ok(SecretsKeySource::KeyFile(data_dir(database_url).join(SECRETS_KEY_FILE))),
    }
}

/// The embedded default's data directory: the SQLite database's, else `data`.
fn data_dir(database_url: &str) -> std::path::PathBuf {
    database_url
        .strip_prefix("sqlite://")
        .and_then(|path| std::path::Path::new(path).parent())
        .filter(|dir| !dir.as_os_str().is_empty())
        .map_or_else(|| std::path::PathBuf::from("data"), std::path::Path::to_path_buf)
}

/// The key file's name in the data directory.
pub const SECRETS_KEY_FILE: &str = "secrets.key";

pub const DEFAULT_TELEGRAM_API_URL: &str = "https://api.telegram.org";

/// `VP_TELEGRAM_BOT_TOKEN`, the platform's notice bot: a bot token as BotFather issues it.
fn platform_bot<'a>(get: &impl Fn(&str) -> Option<&'a str>) -> Result<Option<PlatformBot>, ConfigError> {
    let Some(token) = get("VP_TELEGRAM_BOT_TOKEN") else {
        return Ok(None);
    };
    match PlatformBot::new(token) {
        Some(bot) => Ok(Some(bot)),
        None => Err(ConfigError::Invalid {
            key: "VP_TELEGRAM_BOT_TOKEN",
            reason:
                "is not a bot token as BotFather issues it: digits, a colon, then 30 to 100 letters, digits, _ or -"
                    .into(),
        }),
    }
}

/// `VP_LOG_FORMAT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormat {
    Text,
    Json,
}

/// Shortest `VP_METRICS_TOKEN` accepted: a guessable token would publish the service's traffic.
pub const METRICS_TOKEN_MIN_CHARS: usize = 16;

/// `VP_PANEL`: the embedded local panel (default) or Remnawave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PanelChoice {
    Local,
    Remnawave(vp_panel::RemnawaveSettings),
}

#[derive(Debug, Error, PartialEq, Eq)]
pub enum ConfigError {
    #[error("cannot read config file {path}: {reason}")]
    File { path: String, reason: String },
    #[error("config file {path}, line {line}: {reason}")]
    FileLine { path: String, line: usize, reason: String },
    #[error("{key}: {reason}")]
    Invalid { key: &'static str, reason: String },
}

/// Reads `KEY=VALUE` lines; `#` starts a comment line; values may be wrapped in double quotes.
pub fn parse_file(path: &str, text: &str) -> Result<BTreeMap<String, String>, ConfigError> {
    let mut values = BTreeMap::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |reason: String| ConfigError::FileLine { path: path.to_owned(), line: i + 1, reason };
        let (key, value) = line.split_once('=').ok_or_else(|| err("expected KEY=VALUE".into()))?;
        let key = key.trim();
        if !KEYS.contains(&key) {
            return Err(err(format!("unknown key {key:?}; known keys: {}", KEYS.join(", "))));
        }
        let value = value.trim();
        let value = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')).unwrap_or(value);
        values.insert(key.to_owned(), value.to_owned());
    }
    Ok(values)
}

impl Config {
    /// Loads from an optional file, then the environment on top.
    pub fn load(file: Option<&Path>, env: impl Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
        let mut values = match file {
            Some(path) => {
                let shown = path.display().to_string();
                let text = std::fs::read_to_string(path)
                    .map_err(|e| ConfigError::File { path: shown.clone(), reason: e.to_string() })?;
                parse_file(&shown, &text)?
            }
            None => BTreeMap::new(),
        };
        for key in KEYS {
            if let Some(v) = env(key) {
                values.insert(key.to_owned(), v);
            }
        }
        Config::from_values(&values)
    }

    pub fn from_values(values: &BTreeMap<String, String>) -> Result<Config, ConfigError> {
        let get = |k: &str| values.get(k).map(String::as_str).filter(|v| !v.is_empty());
        let database_url = get("DATABASE_URL").unwrap_or(DEFAULT_DATABASE_URL).to_owned();
        let backend = vp_store::backend_of(&database_url)
            .map_err(|e| ConfigError::Invalid { key: "DATABASE_URL", reason: e.to_string() })?;
        let bind_text = get("VP_BIND").unwrap_or(DEFAULT_BIND);
        let bind: SocketAddr = bind_text.parse().map_err(|_| ConfigError::Invalid {
            key: "VP_BIND",
            reason: format!("{bind_text:?} is not an address like 127.0.0.1:8080"),
        })?;
        let public_base_url = match get("VP_PUBLIC_BASE_URL") {
            Some(url) => http_url("VP_PUBLIC_BASE_URL", url, "https://vpn.example.com")?,
            None => format!("http://{bind}"),
        };
        let platform_name = get("VP_PLATFORM_NAME").unwrap_or(vp_app::DEFAULT_PLATFORM_NAME);
        let platform_name = vp_domain::BrandName::parse(platform_name)
            .map_err(|e| ConfigError::Invalid { key: "VP_PLATFORM_NAME", reason: format!("{platform_name:?}: {e}") })?
            .as_str()
            .to_owned();
        let db_max_connections =
            usize::try_from(number(get("VP_DB_MAX_CONNECTIONS"), "VP_DB_MAX_CONNECTIONS", 8, 1..=200)?).unwrap_or(8);
        let log = get("VP_LOG").unwrap_or("info").to_owned();
        if let Err(e) = tracing_subscriber::EnvFilter::try_new(&log) {
            return Err(ConfigError::Invalid {
                key: "VP_LOG",
                reason: format!("{log:?} is not a log filter like info or vp_http=debug,info ({e})"),
            });
        }
        let log_format = match get("VP_LOG_FORMAT") {
            None | Some("text") => LogFormat::Text,
            Some("json") => LogFormat::Json,
            Some(other) => {
                return Err(ConfigError::Invalid {
                    key: "VP_LOG_FORMAT",
                    reason: format!("{other:?} is not text or json"),
                });
            }
        };
        let metrics_bind = get("VP_METRICS_BIND")
            .map(|text| {
                text.parse::<SocketAddr>().map_err(|_| ConfigError::Invalid {
                    key: "VP_METRICS_BIND",
                    reason: format!("{text:?} is not an address like 127.0.0.1:9100"),
                })
            })
            .transpose()?;
        if metrics_bind.is_some_and(|m| m == bind) {
            return Err(ConfigError::Invalid {
                key: "VP_METRICS_BIND",
                reason: "must differ from VP_BIND (set VP_METRICS_TOKEN to serve /metrics on the main listener)".into(),
            });
        }
        let metrics_token = get("VP_METRICS_TOKEN")
            .map(|t| {
                let t = secret("VP_METRICS_TOKEN", t)?;
                if t.chars().count() < METRICS_TOKEN_MIN_CHARS {
                    return Err(ConfigError::Invalid {
                        key: "VP_METRICS_TOKEN",
                        reason: format!("must be at least {METRICS_TOKEN_MIN_CHARS} characters"),
                    });
                }
                Ok(t)
            })
            .transpose()?;
        let webhook_allow_addresses = get("VP_WEBHOOK_ALLOW_ADDRESSES")
            .map(|list| {
                list.split(',')
                    .map(str::trim)
                    .filter(|a| !a.is_empty())
                    .map(|a| {
                        a.parse::<IpAddr>().map_err(|_| ConfigError::Invalid {
                            key: "VP_WEBHOOK_ALLOW_ADDRESSES",
                            reason: format!("{a:?} is not an IP address (a comma-separated list like 127.0.0.1,::1)"),
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()
            })
            .transpose()?
            .unwrap_or_default();
        let term_check_every = std::time::Duration::from_secs(number(
            get("VP_TERM_CHECK_SECONDS"),
            "VP_TERM_CHECK_SECONDS",
            vp_domain::limits::TERM_EVENT_CHECK_INTERVAL.whole_seconds().unsigned_abs(),
            1..=3600,
        )?);
        let delivery_workers =
            usize::try_from(number(get("VP_DELIVERY_WORKERS"), "VP_DELIVERY_WORKERS", 2, 1..=32)?).unwrap_or(2);
        // `VP_TEST_CLOCK` is the setting's former name, still read when the new one is absent.
        let (clock_key, clock) = match get("VP_SHIFTED_CLOCK") {
            Some(value) => ("VP_SHIFTED_CLOCK", Some(value)),
            None => ("VP_TEST_CLOCK", get("VP_TEST_CLOCK")),
        };
        let shifted_clock = on_off(clock_key, clock)?;
        let panel = panel_choice(&get)?;
        let trusted_proxies = vp_ports::TrustedProxies(ip_list(&get, "VP_TRUSTED_PROXIES", "")?);
        let gateways = gateways::gateway_settings(&get, &trusted_proxies)?;
        let shutdown_after =
            std::time::Duration::from_secs(number(get("VP_SHUTDOWN_SECONDS"), "VP_SHUTDOWN_SECONDS", 30, 0..=600)?);
        let drain_after =
            std::time::Duration::from_secs(number(get("VP_DRAIN_SECONDS"), "VP_DRAIN_SECONDS", 0, 0..=60)?);
        let failed_auth_per_minute = u32::try_from(number(
            get("VP_FAILED_AUTH_PER_MINUTE"),
            "VP_FAILED_AUTH_PER_MINUTE",
            u64::from(vp_domain::limits::UNKNOWN_CREDENTIALS_PER_MINUTE),
            1..=1_000_000,
        )?)
        .unwrap_or(vp_domain::limits::UNKNOWN_CREDENTIALS_PER_MINUTE);
        let redis_url = get("VP_REDIS_URL")
            .map(|url| {
                vp_limits::check_url(url)
                    .map(|()| url.to_owned())
                    .map_err(|reason| ConfigError::Invalid { key: "VP_REDIS_URL", reason })
            })
            .transpose()?;
        let telegram_bot = platform_bot(&get)?;
        let telegram_api_url = http_url(
            "VP_TELEGRAM_API_URL",
            get("VP_TELEGRAM_API_URL").unwrap_or(DEFAULT_TELEGRAM_API_URL),
            DEFAULT_TELEGRAM_API_URL,
        )?;
        let secrets_key = secrets_key_source(&get, &database_url, backend)?;
        let public_host = url::Url::parse(&public_base_url).ok().and_then(|u| u.host_str().map(str::to_owned));
        let mail = vp_mail::MailSettings::parse(
            get("VP_SMTP_URL"),
            get("VP_MAIL_FROM"),
            public_host.as_deref().unwrap_or("localhost"),
            data_dir(&database_url),
        )
        .map_err(|e| ConfigError::Invalid { key: e.key, reason: e.reason })?;
        let receipts = receipt_settings(&get)?;
        Ok(Config {
            database_url,
            bind,
            public_base_url,
            platform_name,
            db_max_connections,
            log,
            log_format,
            metrics_bind,
            metrics_token,
            webhook_allow_addresses,
            term_check_every,
            delivery_workers,
            shifted_clock,
            panel,
            gateways,
            trusted_proxies,
            shutdown_after,
            drain_after,
            failed_auth_per_minute,
            redis_url,
            telegram_bot,
            telegram_api_url,
            secrets_key,
            mail,
            receipts,
        })
    }

    /// Every secret value in the settings, which the logs scrub should anything log one.
    pub fn secrets(&self) -> Vec<String> {
        let mut all = Vec::new();
        all.extend(self.gateways.secrets());
        if let vp_mail::MailSettings::Smtp { server, .. } = &self.mail {
            all.extend(server.credentials.as_ref().map(|(_, password)| password.clone()));
        }
        if let PanelChoice::Remnawave(settings) = &self.panel {
            all.push(settings.token.clone());
            all.extend(settings.webhook_secret.clone());
        }
        all.extend(self.metrics_token.clone());
        all.extend(self.telegram_bot.as_ref().map(|t| t.token().to_owned()));
        all.extend(self.redis_url.as_deref().and_then(url_password));
        all.extend(url_password(&self.database_url));
        if let SecretsKeySource::Configured { current, previous } = &self.secrets_key {
            all.push(current.clone());
            all.extend(previous.clone());
        }
        all
    }
}

/// The password of a `scheme://user:password@host/...` URL.
fn url_password(url: &str) -> Option<String> {
    let authority = url.split_once("://")?.1.split('/').next()?;
    let userinfo = authority.rsplit_once('@')?.0;
    let password = userinfo.split_once(':')?.1;
    (!password.is_empty()).then(|| password.to_owned())
}

/// An http(s) URL with a host, without its trailing slash.
fn http_url(key: &'static str, url: &str, example: &str) -> Result<String, ConfigError> {
    let lower = url.to_ascii_lowercase();
    let rest = lower.strip_prefix("https://").or_else(|| lower.strip_prefix("http://"));
    if rest.is_none_or(|r| r.trim_end_matches('/').is_empty() || r.contains(char::is_whitespace)) {
        return Err(ConfigError::Invalid { key, reason: format!("{url:?} is not an http(s) URL like {example}") });
    }
    Ok(url.trim_end_matches('/').to_owned())
}

/// An RFC 9562 UUID in its text form (what Remnawave takes as a squad id).
fn is_uuid(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    groups.iter().map(|g| g.len()).eq([8, 4, 4, 4, 12])
        && groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// A secret's value is never repeated in a message.
fn secret(key: &'static str, value: &str) -> Result<String, ConfigError> {
    if value.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(ConfigError::Invalid { key, reason: "must be the value as issued, without spaces".into() });
    }
    Ok(value.to_owned())
}

fn required<'a>(get: &impl Fn(&str) -> Option<&'a str>, key: &'static str, when: &str) -> Result<&'a str, ConfigError> {
    get(key).ok_or_else(|| ConfigError::Invalid { key, reason: format!("is required when {when}") })
}

fn ip_list<'a>(
    get: &impl Fn(&str) -> Option<&'a str>,
    key: &'static str,
    default: &str,
) -> Result<Vec<ipnet::IpNet>, ConfigError> {
    vp_ports::client_address::parse_ip_list(get(key).unwrap_or(default))
        .map_err(|reason| ConfigError::Invalid { key, reason })
}

/// `VP_RECEIPTS=on` needs the shop's tax system; the VAT code of the lines is 1 (no VAT) unless
/// given. The settings are refused when receipts are off, so a typo is never silently ignored.
fn receipt_settings<'a>(
    get: &impl Fn(&str) -> Option<&'a str>,
) -> Result<Option<vp_domain::receipt::ReceiptSettings>, ConfigError> {
    use vp_domain::receipt::ReceiptSettings;
    let on = on_off("VP_RECEIPTS", get("VP_RECEIPTS"))?;
    let (tax, vat) = (get("VP_RECEIPTS_TAX_SYSTEM"), get("VP_RECEIPTS_VAT_CODE"));
    if !on {
        return match (tax, vat) {
            (None, None) => Ok(None),
            (Some(_), _) => {
                Err(ConfigError::Invalid { key: "VP_RECEIPTS_TAX_SYSTEM", reason: "set VP_RECEIPTS=on too".into() })
            }
            (None, Some(_)) => {
                Err(ConfigError::Invalid { key: "VP_RECEIPTS_VAT_CODE", reason: "set VP_RECEIPTS=on too".into() })
            }
        };
    }
    let tax = tax.ok_or_else(|| ConfigError::Invalid {
        key: "VP_RECEIPTS_TAX_SYSTEM",
        reason: "is required with VP_RECEIPTS=on: the shop's tax system code, 1 to 6, as agreed with YooKassa".into(),
    })?;
    let tax_system_code = ReceiptSettings::parse_tax_system(tax)
        .map_err(|e| ConfigError::Invalid { key: "VP_RECEIPTS_TAX_SYSTEM", reason: format!("{tax:?} {e}") })?;
    let vat_code = match vat {
        None => 1,
        Some(raw) => ReceiptSettings::parse_vat_code(raw)
            .map_err(|e| ConfigError::Invalid { key: "VP_RECEIPTS_VAT_CODE", reason: format!("{raw:?} {e}") })?,
    };
    Ok(Some(ReceiptSettings { tax_system_code, vat_code }))
}

/// A switch: `on`, or `off` (the default).
fn on_off(key: &'static str, value: Option<&str>) -> Result<bool, ConfigError> {
    match value {
        None | Some("off") => Ok(false),
        Some("on") => Ok(true),
        Some(other) => Err(ConfigError::Invalid { key, reason: format!("{other:?} is not on or off") }),
    }
}

fn panel_choice<'a>(get: &impl Fn(&str) -> Option<&'a str>) -> Result<PanelChoice, ConfigError> {
    match get("VP_PANEL") {
        None | Some("local") => Ok(PanelChoice::Local),
        Some("remnawave") => {
            let when = "VP_PANEL=remnawave";
            let url =
                http_url("VP_REMNAWAVE_URL", required(get, "VP_REMNAWAVE_URL", when)?, "https://panel.example.com")?;
            let token = secret("VP_REMNAWAVE_TOKEN", required(get, "VP_REMNAWAVE_TOKEN", when)?)?;
            let sub_url = http_url(
                "VP_REMNAWAVE_SUB_URL",
                required(get, "VP_REMNAWAVE_SUB_URL", when)?,
                "https://sub.example.com",
            )?;
            let squads = get("VP_REMNAWAVE_SQUADS")
                .unwrap_or_default()
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| {
                    is_uuid(s).then(|| s.to_ascii_lowercase()).ok_or_else(|| ConfigError::Invalid {
                        key: "VP_REMNAWAVE_SQUADS",
                        reason: format!("{s:?} is not a squad UUID (comma-separated, as the panel shows them)"),
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            let webhook_secret = get("VP_REMNAWAVE_WEBHOOK_SECRET").map(panel_webhook_secret).transpose()?;
            Ok(PanelChoice::Remnawave(vp_panel::RemnawaveSettings {
                url,
                token,
                sub_url,
                squads,
                timeout: vp_panel::remnawave::REQUEST_TIMEOUT,
                webhook_secret,
            }))
        }
        Some(other) => {
            Err(ConfigError::Invalid { key: "VP_PANEL", reason: format!("{other:?} is not local or remnawave") })
        }
    }
}

/// The panel's `WEBHOOK_SECRET_HEADER`: it takes only letters and digits; a short one could be
/// guessed.
fn panel_webhook_secret(value: &str) -> Result<String, ConfigError> {
    let value = value.trim();
    let fits = (32..=256).contains(&value.len()) && value.bytes().all(|b| b.is_ascii_alphanumeric());
    fits.then(|| value.to_owned()).ok_or_else(|| ConfigError::Invalid {
        key: "VP_REMNAWAVE_WEBHOOK_SECRET",
        reason: "must be 32 to 256 Latin letters and digits, as the panel's WEBHOOK_SECRET_HEADER".into(),
    })
}

fn number(
    value: Option<&str>,
    key: &'static str,
    default: u64,
    range: std::ops::RangeInclusive<u64>,
) -> Result<u64, ConfigError> {
    match value {
        None => Ok(default),
        Some(v) => v.parse::<u64>().ok().filter(|n| range.contains(n)).ok_or_else(|| ConfigError::Invalid {
            key,
            reason: format!("{v:?} is not a number from {} to {}", range.start(), range.end()),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::gateways::YooKassaOn;
    use super::*;
    use vp_domain::GatewayName;

    fn values(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    #[test]
    fn secrets_are_listed_for_the_log_scrub() {
        let mut pairs = vec![
            ("VP_REDIS_URL", "redis://:redis-pass-1@cache.internal:6379/0"),
            ("DATABASE_URL", "postgres://vpn:db-pass-2@db.internal/vpn"),
            ("VP_METRICS_TOKEN", "metrics-token-0123456789"),
        ];
        pairs.extend([("VP_PANEL", "remnawave"), ("VP_REMNAWAVE_URL", "https://panel.example.com")]);
        pairs.extend([("VP_REMNAWAVE_TOKEN", "panel-token-3"), ("VP_REMNAWAVE_SUB_URL", "https://sub.example.com")]);
        pairs.extend([("VP_GATEWAY", "yookassa"), ("VP_YOOKASSA_SHOP_ID", "1")]);
        pairs.push(("VP_YOOKASSA_SECRET_KEY", "live_secret-4"));
        let key = vp_app::secrets::SecretKeys::generate_base64();
        pairs.push(("VP_SECRETS_KEY", &key));
        let mut secrets = Config::from_values(&values(&pairs)).unwrap().secrets();
        assert!(secrets.contains(&key), "the secrets key too");
        secrets.retain(|s| s != &key);
        secrets.sort();
        assert_eq!(
            secrets,
            ["db-pass-2", "live_secret-4", "metrics-token-0123456789", "panel-token-3", "redis-pass-1"]
        );
        assert!(Config::from_values(&BTreeMap::new()).unwrap().secrets().is_empty());
    }

    #[test]
    fn defaults_run_on_an_sqlite_file_under_data() {
        let c = Config::from_values(&BTreeMap::new()).unwrap();
        assert_eq!(c.database_url, DEFAULT_DATABASE_URL);
        assert_eq!(c.bind, "127.0.0.1:8080".parse().unwrap());
        assert_eq!(c.public_base_url, "http://127.0.0.1:8080");
        assert_eq!(c.platform_name, "VPN");
        assert_eq!(c.db_max_connections, 8);
        assert!(c.webhook_allow_addresses.is_empty(), "no allow-list unless the operator sets one");
        assert_eq!(c.term_check_every, std::time::Duration::from_secs(300), "the spec's 5 minutes");
        assert!(!c.shifted_clock, "the shifted clock is off by default");
        let former = Config::from_values(&values(&[("VP_TEST_CLOCK", "on")])).unwrap();
        assert!(former.shifted_clock, "VP_TEST_CLOCK, the former name, still switches it on");
        assert_eq!(c.redis_url, None, "request windows are per process unless Redis is configured");
        assert_eq!((c.log_format, c.metrics_bind, c.metrics_token.as_deref()), (LogFormat::Text, None, None));
    }

    #[test]
    fn receipts_need_the_shops_tax_system_and_take_the_vat_code_of_their_lines() {
        use vp_domain::receipt::ReceiptSettings;
        assert_eq!(Config::from_values(&BTreeMap::new()).unwrap().receipts, None, "off by default");
        let on = |more: &[(&str, &str)]| {
            let mut pairs = vec![("VP_RECEIPTS", "on")];
            pairs.extend_from_slice(more);
            Config::from_values(&values(&pairs))
        };
        assert_eq!(
            on(&[("VP_RECEIPTS_TAX_SYSTEM", "2")]).unwrap().receipts,
            Some(ReceiptSettings { tax_system_code: 2, vat_code: 1 }),
            "no VAT unless given"
        );
        let vat = on(&[("VP_RECEIPTS_TAX_SYSTEM", "1"), ("VP_RECEIPTS_VAT_CODE", "4")]).unwrap();
        assert_eq!(vat.receipts, Some(ReceiptSettings { tax_system_code: 1, vat_code: 4 }));
        let refused = |r: Result<Config, ConfigError>, key: &str| {
            let e = r.unwrap_err().to_string();
            assert!(e.starts_with(key), "{e}");
        };
        refused(on(&[]), "VP_RECEIPTS_TAX_SYSTEM");
        refused(on(&[("VP_RECEIPTS_TAX_SYSTEM", "7")]), "VP_RECEIPTS_TAX_SYSTEM");
        refused(on(&[("VP_RECEIPTS_TAX_SYSTEM", "2"), ("VP_RECEIPTS_VAT_CODE", "13")]), "VP_RECEIPTS_VAT_CODE");
        refused(Config::from_values(&values(&[("VP_RECEIPTS_TAX_SYSTEM", "2")])), "VP_RECEIPTS_TAX_SYSTEM");
        refused(Config::from_values(&values(&[("VP_RECEIPTS", "yes")])), "VP_RECEIPTS");
    }

    #[test]
    fn bad_values_are_refused_naming_the_setting() {
        let bad = [
            ("VP_BIND", "localhost"),
            ("VP_PUBLIC_BASE_URL", "ftp://x"),
            ("VP_DB_MAX_CONNECTIONS", "0"),
            ("VP_DB_MAX_CONNECTIONS", "many"),
            ("DATABASE_URL", "mysql://x"),
            ("VP_WEBHOOK_ALLOW_ADDRESSES", "127.0.0.1,localhost"),
            ("VP_TERM_CHECK_SECONDS", "0"),
            ("VP_DELIVERY_WORKERS", "100"),
            ("VP_SHIFTED_CLOCK", "yes"),
            ("VP_PANEL", "marzban"),
            ("VP_GATEWAY", "stripe"),
            ("VP_SHUTDOWN_SECONDS", "forever"),
            ("VP_DRAIN_SECONDS", "61"),
            ("VP_FAILED_AUTH_PER_MINUTE", "0"),
            ("VP_TRUSTED_PROXIES", "10.0.0.0/8,proxy.internal"),
            ("VP_REDIS_URL", "127.0.0.1:6379"),
            ("VP_LOG", "info,=bogus=="),
            ("VP_LOG_FORMAT", "xml"),
            ("VP_METRICS_BIND", "9100"),
            ("VP_METRICS_BIND", "127.0.0.1:8080"),
            ("VP_METRICS_TOKEN", "short"),
            ("VP_REDIS_URL", "rediss://:pw@cache.internal"),
        ];
        for (key, value) in bad {
            match Config::from_values(&values(&[(key, value)])) {
                Err(ConfigError::Invalid { key: k, .. }) => assert_eq!(k, key),
                other => panic!("{key}={value} gave {other:?}"),
            }
        }
    }

    fn remnawave(extra: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let mut all = vec![
            ("VP_PANEL", "remnawave"),
            ("VP_REMNAWAVE_URL", "https://panel.example.com/"),
            ("VP_REMNAWAVE_TOKEN", "eyJhbGciOi.secret-token"),
            ("VP_REMNAWAVE_SUB_URL", "https://sub.example.com"),
        ];
        all.extend_from_slice(extra);
        Config::from_values(&values(&all))
    }

    #[test]
    fn the_local_panel_is_the_default_and_remnawave_takes_its_settings() {
        assert_eq!(Config::from_values(&BTreeMap::new()).unwrap().panel, PanelChoice::Local);
        let squads =
            ("VP_REMNAWAVE_SQUADS", " 0B6A6C2E-7F1D-4E43-9D5B-1A2B3C4D5E6F, ,9a8b7c6d-1111-4222-8333-444455556666 ");
        let PanelChoice::Remnawave(rw) = remnawave(&[squads]).unwrap().panel else { panic!("remnawave expected") };
        assert_eq!(rw.url, "https://panel.example.com");
        assert_eq!(rw.sub_url, "https://sub.example.com");
        assert_eq!(rw.squads, ["0b6a6c2e-7f1d-4e43-9d5b-1a2b3c4d5e6f", "9a8b7c6d-1111-4222-8333-444455556666"]);
        let PanelChoice::Remnawave(no_squads) = remnawave(&[]).unwrap().panel else { panic!("remnawave expected") };
        assert!(no_squads.squads.is_empty(), "squads may be empty");
        assert_eq!(no_squads.webhook_secret, None, "the panel's webhooks are not received unless a secret is set");
        let secret = ("VP_REMNAWAVE_WEBHOOK_SECRET", " Wh0oks5ecretWh0oks5ecretWh0oks5ecret ");
        let PanelChoice::Remnawave(hooked) = remnawave(&[secret]).unwrap().panel else { panic!("remnawave expected") };
        assert_eq!(hooked.webhook_secret.as_deref(), Some("Wh0oks5ecretWh0oks5ecretWh0oks5ecret"));
    }

    #[test]
    fn bad_remnawave_settings_name_the_setting_and_never_show_the_token() {
        let cases = [
            ("VP_REMNAWAVE_URL", "panel.example.com"),
            ("VP_REMNAWAVE_SUB_URL", "ftp://sub"),
            ("VP_REMNAWAVE_SQUADS", "germany"),
            ("VP_REMNAWAVE_TOKEN", "secret with spaces"),
            ("VP_REMNAWAVE_TOKEN", ""),
            ("VP_REMNAWAVE_WEBHOOK_SECRET", "short1"),
            ("VP_REMNAWAVE_WEBHOOK_SECRET", "with-a-dash-with-a-dash-with-a-dash-x"),
        ];
        refused_by_name_without_the_secret(remnawave, &cases, "secret-token");
    }

    /// Builds a configuration from base settings plus the given ones.
    type ConfigWith = fn(&[(&str, &str)]) -> Result<Config, ConfigError>;

    /// Each case is refused naming its setting; no message or `Debug` output shows `secret`.
    fn refused_by_name_without_the_secret(build: ConfigWith, cases: &[(&'static str, &str)], secret: &str) {
        for (key, value) in cases {
            match build(&[(key, value)]) {
                Err(e @ ConfigError::Invalid { key: k, .. }) => {
                    assert_eq!(k, *key, "{value}");
                    assert!(!e.to_string().contains("secret"), "the secret leaked: {e}");
                }
                other => panic!("{key}={value} gave {other:?}"),
            }
        }
        let debug = format!("{:?}", build(&[]).unwrap());
        assert!(!debug.contains(secret) && debug.contains("<redacted>"), "{debug}");
    }

    const BOT_TOKEN: &str = "123456789:AAHsecret_0123456789abcdefghijklmnop";

    fn telegram(extra: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let mut all = vec![("VP_TELEGRAM_BOT_TOKEN", BOT_TOKEN)];
        all.extend_from_slice(extra);
        Config::from_values(&values(&all))
    }

    #[test]
    fn telegram_needs_a_bot_token_and_defaults_to_the_official_api() {
        assert!(
            Config::from_values(&BTreeMap::new()).unwrap().telegram_bot.is_none(),
            "without a token, no notice bot"
        );
        let on = telegram(&[]).unwrap();
        let bot = on.telegram_bot.as_ref().unwrap();
        assert_eq!(
            (bot.token(), bot.bot_id(), on.telegram_api_url.as_str()),
            (BOT_TOKEN, 123_456_789, "https://api.telegram.org")
        );
        let local = telegram(&[("VP_TELEGRAM_API_URL", "http://127.0.0.1:8081/")]).unwrap();
        assert_eq!(local.telegram_api_url, "http://127.0.0.1:8081");
        assert!(telegram(&[]).unwrap().secrets().contains(&BOT_TOKEN.to_owned()));
        let url_alone = Config::from_values(&values(&[("VP_TELEGRAM_API_URL", "http://127.0.0.1:8081")])).unwrap();
        assert!(url_alone.telegram_bot.is_none());
        assert_eq!(url_alone.telegram_api_url, "http://127.0.0.1:8081");
        assert_eq!(Config::from_values(&BTreeMap::new()).unwrap().telegram_api_url, "https://api.telegram.org");
    }

    #[test]
    fn the_secrets_key_is_32_bytes_of_base64_required_with_postgresql_or_a_key_file_beside_the_sqlite_database() {
        let key = vp_app::secrets::SecretKeys::generate_base64();
        let set = Config::from_values(&values(&[("VP_SECRETS_KEY", &key)])).unwrap();
        assert_eq!(set.secrets_key, SecretsKeySource::Configured { current: key.clone(), previous: None });
        assert!(set.secrets().contains(&key), "the key is scrubbed from logs");
        let default = Config::from_values(&BTreeMap::new()).unwrap();
        assert_eq!(default.secrets_key, SecretsKeySource::KeyFile("data/secrets.key".into()));
        let sqlite = Config::from_values(&values(&[("DATABASE_URL", "sqlite:///var/lib/vp/db.sqlite")])).unwrap();
        assert_eq!(sqlite.secrets_key, SecretsKeySource::KeyFile("/var/lib/vp/secrets.key".into()));
        for postgres in ["postgres://vp@db/vp", "postgresql://vp@db/vp"] {
            match Config::from_values(&values(&[("DATABASE_URL", postgres)])) {
                Err(e @ ConfigError::Invalid { key: "VP_SECRETS_KEY", .. }) => {
                    assert!(e.to_string().contains("required with PostgreSQL"), "{e}")
                }
                other => panic!("PostgreSQL without a key gave {other:?}"),
            }
        }
        let postgres =
            Config::from_values(&values(&[("DATABASE_URL", "postgres://vp@db/vp"), ("VP_SECRETS_KEY", &key)]));
        assert!(matches!(postgres.unwrap().secrets_key, SecretsKeySource::Configured { .. }));
        let short = "c2hvcnQ=";
        for bad in [short, "not base64 at all!"] {
            match Config::from_values(&values(&[("VP_SECRETS_KEY", bad)])) {
                Err(e @ ConfigError::Invalid { key: "VP_SECRETS_KEY", .. }) => assert!(!e.to_string().contains(bad)),
                other => panic!("{bad} gave {other:?}"),
            }
        }
        assert!(!format!("{set:?}").contains(&key), "the key never shows in the settings' debug form");
        let previous_alone = Config::from_values(&values(&[("VP_SECRETS_KEY_PREVIOUS", &key)]));
        assert!(matches!(previous_alone, Err(ConfigError::Invalid { key: "VP_SECRETS_KEY_PREVIOUS", .. })));
        let rotating = Config::from_values(&values(&[("VP_SECRETS_KEY", &key), ("VP_SECRETS_KEY_PREVIOUS", short)]));
        assert!(matches!(rotating, Err(ConfigError::Invalid { key: "VP_SECRETS_KEY_PREVIOUS", .. })));
    }

    #[test]
    fn bad_telegram_settings_name_the_setting_and_never_show_the_token() {
        let cases = [
            ("VP_TELEGRAM_BOT_TOKEN", "secret"),
            ("VP_TELEGRAM_BOT_TOKEN", "12345:short_secret"),
            ("VP_TELEGRAM_BOT_TOKEN", "bot:AAHsecret_0123456789abcdefghijklmnop"),
            ("VP_TELEGRAM_API_URL", "api.telegram.org"),
        ];
        refused_by_name_without_the_secret(telegram, &cases, "AAHsecret_0123456789abcdefghijklmnop");
    }

    fn yookassa(extra: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let mut all = vec![
            ("VP_GATEWAY", "yookassa"),
            ("VP_YOOKASSA_SHOP_ID", "100500"),
            ("VP_YOOKASSA_SECRET_KEY", "live_secret-key"),
        ];
        all.extend_from_slice(extra);
        Config::from_values(&values(&all))
    }

    #[test]
    fn the_sandbox_is_the_default_gateway_and_yookassa_takes_its_settings() {
        let none = Config::from_values(&BTreeMap::new()).unwrap().gateways;
        assert_eq!((none.default, none.yookassa, none.sandbox_stands_in), (GatewayName::Sandbox, None, false));
        let Some(YooKassaOn { settings, notify }) = yookassa(&[]).unwrap().gateways.yookassa else {
            panic!("yookassa")
        };
        assert_eq!(settings.api_url, "https://api.yookassa.ru/v3");
        assert_eq!((settings.shop_id.as_str(), settings.secret_key.as_str()), ("100500", "live_secret-key"));
        assert!(notify.admits("185.71.76.1".parse().unwrap()) && !notify.admits("127.0.0.1".parse().unwrap()));
        assert!(notify.trusted_proxies.0.is_empty(), "no proxy is trusted unless configured");
        let custom = yookassa(&[
            ("VP_YOOKASSA_API_URL", "http://127.0.0.1:9/v3/"),
            ("VP_YOOKASSA_NOTIFY_FROM", "127.0.0.1/32"),
            ("VP_TRUSTED_PROXIES", "10.0.0.0/8"),
        ]);
        let Some(YooKassaOn { settings, notify }) = custom.unwrap().gateways.yookassa else { panic!("yookassa") };
        assert_eq!(settings.api_url, "http://127.0.0.1:9/v3");
        assert!(notify.admits("127.0.0.1".parse().unwrap()) && !notify.admits("185.71.76.1".parse().unwrap()));
        assert_eq!(
            notify.trusted_proxies.client_ip("10.0.0.2".parse().unwrap(), Some("127.0.0.1")),
            "127.0.0.1".parse::<IpAddr>().unwrap()
        );
    }

    #[test]
    fn bad_yookassa_settings_name_the_setting_and_never_show_the_secret() {
        let cases = [
            ("VP_YOOKASSA_SHOP_ID", ""),
            ("VP_YOOKASSA_SHOP_ID", "100 500"),
            ("VP_YOOKASSA_SECRET_KEY", ""),
            ("VP_YOOKASSA_SECRET_KEY", "live secret"),
            ("VP_YOOKASSA_API_URL", "api.yookassa.ru"),
            ("VP_YOOKASSA_NOTIFY_FROM", "yookassa.ru"),
        ];
        refused_by_name_without_the_secret(yookassa, &cases, "live_secret");
    }

    #[test]
    fn the_deployment_example_names_every_setting_and_is_valid() {
        let example = include_str!("../../../deploy/vp-api.env.example");
        for key in KEYS {
            assert!(example.contains(&format!("{key}=")), "deploy/vp-api.env.example lacks {key}");
        }
        let values = parse_file("vp-api.env.example", example).expect("the example parses");
        let config = Config::from_values(&values).expect("the example is a valid configuration");
        assert_eq!(config.gateways.default, GatewayName::YooKassa);
        assert!(config.gateways.yookassa.is_some());
        assert!(matches!(config.panel, PanelChoice::Remnawave(_)));
    }

    #[test]
    fn public_base_url_loses_its_trailing_slash() {
        let c = Config::from_values(&values(&[("VP_PUBLIC_BASE_URL", "https://vpn.example.com/")])).unwrap();
        assert_eq!(c.public_base_url, "https://vpn.example.com");
    }

    #[test]
    fn the_file_takes_key_value_lines_and_refuses_unknown_keys() {
        let parsed = parse_file("f", "# comment\n\nDATABASE_URL=\"postgres://db/x\"\nVP_BIND = 0.0.0.0:80\n").unwrap();
        assert_eq!(parsed["DATABASE_URL"], "postgres://db/x");
        assert_eq!(parsed["VP_BIND"], "0.0.0.0:80");
        assert_eq!(
            parse_file("f", "DATABSE_URL=x"),
            Err(ConfigError::FileLine {
                path: "f".into(),
                line: 1,
                reason: format!("unknown key \"DATABSE_URL\"; known keys: {}", KEYS.join(", "))
            })
        );
        assert!(matches!(parse_file("f", "just words"), Err(ConfigError::FileLine { line: 1, .. })));
    }

    #[test]
    fn the_environment_wins_over_the_file() {
        let dir = std::env::temp_dir().join(format!("vp-config-{}", std::process::id()));
        std::fs::write(&dir, "VP_BIND=127.0.0.1:1\nVP_LOG=debug\n").unwrap();
        let c = Config::load(Some(&dir), |k| (k == "VP_BIND").then(|| "127.0.0.1:2".to_owned())).unwrap();
        std::fs::remove_file(&dir).unwrap();
        assert_eq!(c.bind, "127.0.0.1:2".parse().unwrap());
        assert_eq!(c.log, "debug");
        assert!(matches!(Config::load(Some(Path::new("/nonexistent/x.env")), |_| None), Err(ConfigError::File { .. })));
    }
}
