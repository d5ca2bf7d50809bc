//! The Crypto Pay (Crypto Bot) adapter behind the `PaymentGateway` port: invoices priced in
//! rubles and paid in the assets the operator accepts, our invoice id as the `payload`, the
//! invoice's `bot_invoice_url` as the payment page; `getInvoices` by id for what became of one,
//! read back before anything is applied; the signed updates' route. Crypto Pay takes no
//! idempotency key and gives no refunds (docs/decisions.md, "Payment rails"; docs/cryptopay.md
//! lists the fields we rely on).

mod notifications;
mod wire;

use std::time::Duration;

use async_trait::async_trait;
use reqwest::Method;
use ring::hmac;
use vp_domain::{GatewayName, GatewayState};
use vp_ports::{GatewayError, GatewayInfo, GatewayPayment, GatewayPaymentRequest, PaymentGateway};

pub use notifications::{NOTIFICATIONS_PATH, routes};

use wire::{Envelope, Invoice, Page, create_params, signing_key, state};

/// Crypto Pay's main network; its test network is `https://testnet-pay.crypt.bot`.
pub const DEFAULT_API_URL: &str = "https://pay.crypt.bot";
/// The assets an invoice may be paid in unless the operator says otherwise.
pub const DEFAULT_ASSETS: &str = "USDT,TON";
/// The assets the API takes in `accepted_assets`.
pub const ASSETS: [&str; 8] = ["USDT", "TON", "BTC", "ETH", "LTC", "BNB", "TRX", "USDC"];
/// How long a call may take.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// What the operator configures (`VP_CRYPTOPAY_*`).
#[derive(Clone, PartialEq, Eq)]
pub struct CryptoPaySettings {
    pub token: String,
    /// `https://pay.crypt.bot`, the test network, or an emulator in tests.
    pub api_url: String,
    /// `accepted_assets`: comma-separated, from `ASSETS`.
    pub assets: String,
    pub timeout: Duration,
}

impl std::fmt::Debug for CryptoPaySettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CryptoPaySettings")
            .field("token", &"<redacted>")
            .field("api_url", &self.api_url)
            .field("assets", &self.assets)
            .field("timeout", &self.timeout)
            .finish()
    }
}

pub struct CryptoPayGateway {
    http: reqwest::Client,
    settings: CryptoPaySettings,
    refused: vp_outbound::Refusals,
    /// What updates are signed with.
    signing: hmac::Key,
}

impl CryptoPayGateway {
    pub fn new(settings: &CryptoPaySettings) -> Result<CryptoPayGateway, String> {
        let http = vp_outbound::builder(settings.timeout)
            .build()
            .map_err(|e| format!("cannot build the Crypto Pay HTTP client: {e}"))?;
        let mut settings = settings.clone();
        settings.api_url = settings.api_url.trim_end_matches('/').to_owned();
        let signing = signing_key(&settings.token);
        Ok(CryptoPayGateway { http, settings, refused: vp_outbound::Refusals::new("cryptopay"), signing })
    }

    /// Whether an update's body is signed with the app's token.
    pub(crate) fn is_signed(&self, body: &[u8], signature: &str) -> bool {
        wire::signed(&self.signing, body, signature)
    }

    /// One method call, its parameters in the query string (as the SDK sends them). A timeout,
    /// a lost connection or a 5xx is an outage; a refusal is logged, counted and returned.
    async fn call<T: serde::de::DeserializeOwned>(
        &self,
        method: &str,
        params: &[(&str, String)],
    ) -> Result<T, GatewayError> {
        let mut url = url::Url::parse(&format!("{}/api/{method}", self.settings.api_url))
            .map_err(|e| GatewayError::Rejected(format!("the Crypto Pay address: {e}")))?;
        url.query_pairs_mut().extend_pairs(params.iter().map(|(k, v)| (*k, v.as_str())));
        let request = self.http.request(Method::GET, url).header("crypto-pay-api-token", &self.settings.token);
        let unknown = |e: &reqwest::Error| GatewayError::Unavailable(format!("{method}: {}", vp_outbound::failure(e)));
        let response = request.send().await.map_err(|e| unknown(&e))?;
        let status = response.status().as_u16();
        let bytes = response.bytes().await.map_err(|e| unknown(&e))?;
        if status >= 500 {
            return Err(GatewayError::Unavailable(format!("{method}: Crypto Pay answered {status}")));
        }
        let answer: Result<Envelope<T>, _> = serde_json::from_slice(&bytes);
        match answer {
            Ok(Envelope { ok: true, result: Some(result), .. }) => Ok(result),
            Ok(Envelope { error, .. }) => {
                let body: Option<serde_json::Value> = serde_json::from_slice(&bytes).ok();
                let request = serde_json::json!(
                    params.iter().map(|(k, v)| (*k, v)).collect::<std::collections::BTreeMap<_, _>>()
                );
                self.refused.record("GET", &format!("/api/{method}"), Some(&request), status, body.as_ref());
                let error = error.unwrap_or_default();
                let name = error.name.unwrap_or_default();
                Err(match (status, error.code) {
                    (401, _) | (_, Some(401)) => GatewayError::Rejected(format!(
                        "{method}: the token is wrong (check VP_CRYPTOPAY_TOKEN and VP_CRYPTOPAY_API_URL's network)"
                    )),
                    _ if name.contains("ASSET") || name.contains("FIAT") => GatewayError::MethodUnavailable(name),
                    _ => GatewayError::Rejected(format!("{method}: {status} {name}")),
                })
            }
            Err(e) => {
                tracing::error!(method, error = %e, "a Crypto Pay answer does not have the shape its SDK models");
                Err(GatewayError::Rejected(format!("{method}: Crypto Pay's answer does not have the documented shape")))
            }
        }
    }

    async fn invoice(&self, id: &str) -> Result<Invoice, GatewayError> {
        if id.is_empty() || id.len() > 20 || !id.bytes().all(|b| b.is_ascii_digit()) {
            return Err(GatewayError::Rejected(format!("{id:?} is not a Crypto Pay invoice id")));
        }
        let page: Page = self.call("getInvoices", &[("invoice_ids", id.to_owned())]).await?;
        page.items
            .into_iter()
            .find(|i| i.invoice_id.to_string() == id)
            .ok_or_else(|| GatewayError::Rejected(format!("Crypto Pay has no invoice {id}")))
    }
}

#[async_trait]
impl PaymentGateway for CryptoPayGateway {
    fn name(&self) -> GatewayName {
        GatewayName::CryptoPay
    }

    async fn create_payment(&self, request: &GatewayPaymentRequest) -> Result<GatewayPayment, GatewayError> {
        let params = create_params(request, &self.settings.assets);
        let invoice: Invoice = self.call("createInvoice", &params).await?;
        match state(&invoice.status) {
            Some(GatewayState::Pending) if !invoice.bot_invoice_url.is_empty() => Ok(GatewayPayment {
                gateway_payment_id: invoice.invoice_id.to_string(),
                payment_url: invoice.bot_invoice_url,
            }),
            _ => Err(GatewayError::Rejected(format!(
                "Crypto Pay created invoice {} as {}",
                invoice.invoice_id, invoice.status
            ))),
        }
    }

    async fn payment_state(&self, gateway_payment_id: &str) -> Result<GatewayState, GatewayError> {
        let invoice = self.invoice(gateway_payment_id).await?;
        state(&invoice.status).ok_or_else(|| {
            tracing::error!(invoice = %gateway_payment_id, status = %invoice.status, "Crypto Pay reported a status we do not know");
            GatewayError::Rejected(format!("invoice {gateway_payment_id}: unknown status {:?}", invoice.status))
        })
    }

    async fn invoice_of_payment(&self, gateway_payment_id: &str) -> Result<Option<String>, GatewayError> {
        Ok(self.invoice(gateway_payment_id).await?.payload)
    }

    /// An update can be lost: active invoices are read again.
    fn reconciles(&self) -> bool {
        true
    }

    async fn check(&self) -> Result<GatewayInfo, GatewayError> {
        #[derive(serde::Deserialize)]
        struct Profile {
            app_id: i64,
            name: String,
        }
        let me: Profile = self.call("getMe", &[]).await?;
        Ok(GatewayInfo {
            gateway: GatewayName::CryptoPay,
            address: self.settings.api_url.clone(),
            account: Some(format!("{} ({})", me.name, me.app_id)),
            test: Some(self.settings.api_url.contains("testnet")),
            enabled: Some(true),
            methods: self.settings.assets.split(',').map(str::to_owned).collect(),
        })
    }
}
