//! The payment gateways' settings (docs/decisions.md, "Payment rails"): each gateway is on when
//! its settings are given, the embedded sandbox always; `VP_GATEWAY` names the gateway of the
//! methods that name none, and needs that gateway's settings. `VP_SANDBOX_STANDS_IN=on` (for
//! development, logged loudly) lets the sandbox take the payments of gateways that are off.

use vp_domain::GatewayName;
use vp_payments::yookassa::NotifyPolicy;
use vp_payments::{CryptoPaySettings, PlategaSettings, YooKassaSettings};

use super::{ConfigError, http_url, ip_list, on_off, required, secret};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GatewaySettings {
    /// `VP_GATEWAY`: the gateway of methods that name none.
    pub default: GatewayName,
    /// YooKassa, when its shop is given.
    pub yookassa: Option<YooKassaOn>,
    /// Platega, when its merchant is given.
    pub platega: Option<PlategaSettings>,
    /// Crypto Pay, when its app's token is given.
    pub cryptopay: Option<CryptoPaySettings>,
    /// `VP_SANDBOX_STANDS_IN`: the sandbox takes the payments of gateways that are off.
    pub sandbox_stands_in: bool,
}

/// YooKassa's settings and who may post its notifications.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YooKassaOn {
    pub settings: YooKassaSettings,
    pub notify: NotifyPolicy,
}

impl GatewaySettings {
    /// The gateways' secrets, for the logs to scrub.
    pub fn secrets(&self) -> Vec<String> {
        let mut all = Vec::new();
        all.extend(self.yookassa.as_ref().map(|y| y.settings.secret_key.clone()));
        all.extend(self.platega.as_ref().map(|p| p.secret.clone()));
        all.extend(self.cryptopay.as_ref().map(|c| c.token.clone()));
        all
    }
}

pub(super) fn gateway_settings<'a>(
    get: &impl Fn(&str) -> Option<&'a str>,
    trusted_proxies: &vp_ports::TrustedProxies,
) -> Result<GatewaySettings, ConfigError> {
    let default = match get("VP_GATEWAY") {
        None => GatewayName::Sandbox,
        Some(text) => text.parse().map_err(|_| ConfigError::Invalid {
            key: "VP_GATEWAY",
            reason: format!("{text:?} is not one of {}", GatewayName::ALL.map(GatewayName::as_str).join(", ")),
        })?,
    };
    // The default gateway must be on: its settings are required.
    let when = |gateway: GatewayName, others: &'static str| {
        if default == gateway { format!("VP_GATEWAY={gateway}") } else { others.to_owned() }
    };
    let yookassa = yookassa(
        get,
        trusted_proxies,
        default == GatewayName::YooKassa,
        &when(GatewayName::YooKassa, "any VP_YOOKASSA_ setting is given"),
    )?;
    let platega =
        platega(get, default == GatewayName::Platega, &when(GatewayName::Platega, "any VP_PLATEGA_ setting is given"))?;
    let cryptopay = cryptopay(
        get,
        default == GatewayName::CryptoPay,
        &when(GatewayName::CryptoPay, "any VP_CRYPTOPAY_ setting is given"),
    )?;
    let settings = GatewaySettings {
        default,
        yookassa,
        platega,
        cryptopay,
        sandbox_stands_in: on_off("VP_SANDBOX_STANDS_IN", get("VP_SANDBOX_STANDS_IN"))?,
    };
    Ok(settings)
}

/// YooKassa is on when its shop id or secret key is given (or it is the default gateway).
fn yookassa<'a>(
    get: &impl Fn(&str) -> Option<&'a str>,
    trusted_proxies: &vp_ports::TrustedProxies,
    is_default: bool,
    when: &str,
) -> Result<Option<YooKassaOn>, ConfigError> {
    use vp_payments::yookassa::{DEFAULT_API_URL, DEFAULT_NOTIFY_FROM, REQUEST_TIMEOUT};
    if !is_default && get("VP_YOOKASSA_SHOP_ID").is_none() && get("VP_YOOKASSA_SECRET_KEY").is_none() {
        return Ok(None);
    }
    let shop_id = required(get, "VP_YOOKASSA_SHOP_ID", when)?;
    if shop_id.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(ConfigError::Invalid {
            key: "VP_YOOKASSA_SHOP_ID",
            reason: format!("{shop_id:?} is not a shop id (the number in the YooKassa cabinet)"),
        });
    }
    let secret_key = secret("VP_YOOKASSA_SECRET_KEY", required(get, "VP_YOOKASSA_SECRET_KEY", when)?)?;
    let api_url =
        http_url("VP_YOOKASSA_API_URL", get("VP_YOOKASSA_API_URL").unwrap_or(DEFAULT_API_URL), DEFAULT_API_URL)?;
    let allowed = ip_list(get, "VP_YOOKASSA_NOTIFY_FROM", DEFAULT_NOTIFY_FROM)?;
    Ok(Some(YooKassaOn {
        settings: YooKassaSettings {
            shop_id: shop_id.to_owned(),
            secret_key,
            api_url,
            timeout: REQUEST_TIMEOUT,
            save_methods: on_off("VP_YOOKASSA_SAVE_METHODS", get("VP_YOOKASSA_SAVE_METHODS"))?,
        },
        notify: NotifyPolicy { allowed, trusted_proxies: trusted_proxies.clone() },
    }))
}

/// Whether any of these settings is given.
fn any_given<'a>(get: &impl Fn(&str) -> Option<&'a str>, keys: &[&str]) -> bool {
    keys.iter().any(|k| get(k).is_some())
}

/// Platega is on when its merchant id or secret is given (or it is the default gateway).
fn platega<'a>(
    get: &impl Fn(&str) -> Option<&'a str>,
    is_default: bool,
    when: &str,
) -> Result<Option<PlategaSettings>, ConfigError> {
    use vp_payments::platega::{DEFAULT_API_URL, REQUEST_TIMEOUT};
    if !is_default && !any_given(get, &["VP_PLATEGA_MERCHANT_ID", "VP_PLATEGA_SECRET", "VP_PLATEGA_API_URL"]) {
        return Ok(None);
    }
    let merchant_id = secret("VP_PLATEGA_MERCHANT_ID", required(get, "VP_PLATEGA_MERCHANT_ID", when)?)?;
    let secret = secret("VP_PLATEGA_SECRET", required(get, "VP_PLATEGA_SECRET", when)?)?;
    let api_url =
        http_url("VP_PLATEGA_API_URL", get("VP_PLATEGA_API_URL").unwrap_or(DEFAULT_API_URL), DEFAULT_API_URL)?;
    Ok(Some(PlategaSettings { merchant_id, secret, api_url, timeout: REQUEST_TIMEOUT }))
}

/// Crypto Pay is on when its app's token is given (or it is the default gateway).
fn cryptopay<'a>(
    get: &impl Fn(&str) -> Option<&'a str>,
    is_default: bool,
    when: &str,
) -> Result<Option<CryptoPaySettings>, ConfigError> {
    use vp_payments::cryptopay::{ASSETS, DEFAULT_API_URL, DEFAULT_ASSETS, REQUEST_TIMEOUT};
    if !is_default && !any_given(get, &["VP_CRYPTOPAY_TOKEN", "VP_CRYPTOPAY_API_URL", "VP_CRYPTOPAY_ASSETS"]) {
        return Ok(None);
    }
    let token = secret("VP_CRYPTOPAY_TOKEN", required(get, "VP_CRYPTOPAY_TOKEN", when)?)?;
    let api_url =
        http_url("VP_CRYPTOPAY_API_URL", get("VP_CRYPTOPAY_API_URL").unwrap_or(DEFAULT_API_URL), DEFAULT_API_URL)?;
    let assets: Vec<&str> = get("VP_CRYPTOPAY_ASSETS").unwrap_or(DEFAULT_ASSETS).split(',').map(str::trim).collect();
    if let Some(bad) = assets.iter().find(|a| !ASSETS.contains(a)) {
        return Err(ConfigError::Invalid {
            key: "VP_CRYPTOPAY_ASSETS",
            reason: format!("{bad:?} is not one of {}", ASSETS.join(", ")),
        });
    }
    Ok(Some(CryptoPaySettings { token, api_url, assets: assets.join(","), timeout: REQUEST_TIMEOUT }))
}
