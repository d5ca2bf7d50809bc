//! The Platega adapter behind the `PaymentGateway` port: SBP QR codes and Russian cards.
//! `POST /transaction/process` with `X-MerchantId` and `X-Secret`, our invoice id as the
//! `payload`, the answer's `redirect` as the payment page; `GET /transaction/{id}` for what
//! became of it, read back before anything is applied; the notification route. Platega takes no
//! idempotency key and gives no refunds through its API (docs/decisions.md, "Payment rails";
//! docs/platega.md lists the fields we rely on).

mod notifications;
mod wire;

use std::time::Duration;

use async_trait::async_trait;
use reqwest::Method;
use ring::hmac;
use vp_domain::{GatewayName, GatewayState};
use vp_ports::{GatewayError, GatewayInfo, GatewayPayment, GatewayPaymentRequest, PaymentGateway};

pub use notifications::{NOTIFICATIONS_PATH, routes};
pub use wire::METHODS;

use wire::{Created, Transaction, create_body, message, method_code, state};

/// Platega's production API.
pub const DEFAULT_API_URL: &str = "https://app.platega.io";
/// How long a call may take.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// What the operator configures (`VP_PLATEGA_*`).
#[derive(Clone, PartialEq, Eq)]
pub struct PlategaSettings {
    pub merchant_id: String,
    pub secret: String,
    /// `https://app.platega.io`, or an emulator in tests.
    pub api_url: String,
    pub timeout: Duration,
}

impl std::fmt::Debug for PlategaSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlategaSettings")
            .field("merchant_id", &self.merchant_id)
            .field("secret", &"<redacted>")
            .field("api_url", &self.api_url)
            .field("timeout", &self.timeout)
            .finish()
    }
}

pub struct PlategaGateway {
    http: reqwest::Client,
    settings: PlategaSettings,
    refused: vp_outbound::Refusals,
    credentials: Credentials,
}

/// The merchant's id and secret as a callback must bring them: each kept as an HMAC under a
/// key of this process, so a callback's headers are compared by `hmac::verify`, in constant
/// time.
struct Credentials {
    key: hmac::Key,
    merchant_id: hmac::Tag,
    secret: hmac::Tag,
}

impl Credentials {
    fn new(merchant_id: &str, secret: &str) -> Result<Credentials, String> {
        let key = hmac::Key::generate(hmac::HMAC_SHA256, &ring::rand::SystemRandom::new())
            .map_err(|_| "no randomness for the Platega callback check".to_owned())?;
        Ok(Credentials {
            merchant_id: hmac::sign(&key, merchant_id.as_bytes()),
            secret: hmac::sign(&key, secret.as_bytes()),
            key,
        })
    }

    fn admit(&self, merchant_id: &[u8], secret: &[u8]) -> bool {
        // Both checked, whatever the first gives, so the time says nothing of either.
        let merchant = hmac::verify(&self.key, merchant_id, self.merchant_id.as_ref()).is_ok();
        let secret = hmac::verify(&self.key, secret, self.secret.as_ref()).is_ok();
        merchant & secret
    }
}

/// An answer that is not an outage: a 2xx with its body, or a 4xx.
struct Answer {
    status: u16,
    body: Vec<u8>,
}

impl PlategaGateway {
    pub fn new(settings: &PlategaSettings) -> Result<PlategaGateway, String> {
        let http = vp_outbound::builder(settings.timeout)
            .build()
            .map_err(|e| format!("cannot build the Platega HTTP client: {e}"))?;
        let mut settings = settings.clone();
        settings.api_url = settings.api_url.trim_end_matches('/').to_owned();
        let credentials = Credentials::new(&settings.merchant_id, &settings.secret)?;
        Ok(PlategaGateway { http, settings, refused: vp_outbound::Refusals::new("platega"), credentials })
    }

    /// Whether a callback's headers are the merchant's own id and secret.
    pub(crate) fn is_merchant(&self, merchant_id: &[u8], secret: &[u8]) -> bool {
        self.credentials.admit(merchant_id, secret)
    }

    /// One call. A timeout, a lost connection or a 5xx is an outage (the outcome unknown); a
    /// 4xx is returned for the caller to word.
    async fn call(&self, method: Method, path: &str, body: Option<String>) -> Result<Answer, GatewayError> {
        let mut request = self
            .http
            .request(method.clone(), format!("{}{path}", self.settings.api_url))
            .header("x-merchantid", &self.settings.merchant_id)
            .header("x-secret", &self.settings.secret);
        if let Some(body) = body {
            request = request.header("content-type", "application/json").body(body);
        }
        let unknown =
            |e: &reqwest::Error| GatewayError::Unavailable(format!("{method} {path}: {}", vp_outbound::failure(e)));
        let response = request.send().await.map_err(|e| unknown(&e))?;
        let status = response.status().as_u16();
        let body = response.bytes().await.map_err(|e| unknown(&e))?.to_vec();
        if status >= 500 {
            return Err(GatewayError::Unavailable(format!("{method} {path}: Platega answered {status}")));
        }
        Ok(Answer { status, body })
    }

    /// A 4xx, logged with our request (which carries no secret) and counted.
    fn refused(&self, method: &Method, path: &str, request: Option<&str>, answer: &Answer) -> GatewayError {
        let request: Option<serde_json::Value> = request.and_then(|r| serde_json::from_str(r).ok());
        let body: Option<serde_json::Value> = serde_json::from_slice(&answer.body).ok();
        self.refused.record(method.as_str(), path, request.as_ref(), answer.status, body.as_ref());
        let why = match answer.status {
            401 | 403 => {
                "the merchant id or secret is wrong (check VP_PLATEGA_MERCHANT_ID and VP_PLATEGA_SECRET)".into()
            }
            _ => message(&answer.body),
        };
        GatewayError::Rejected(format!("{method} {path}: {} {why}", answer.status))
    }

    fn parsed<T: serde::de::DeserializeOwned>(&self, what: &str, answer: &Answer) -> Result<T, GatewayError> {
        serde_json::from_slice(&answer.body).map_err(|e| {
            tracing::error!(what, error = %e, "a Platega answer does not have the shape its SDK models");
            GatewayError::Rejected(format!("{what}: Platega's answer does not have the documented shape: {e}"))
        })
    }

    async fn transaction(&self, id: &str) -> Result<Transaction, GatewayError> {
        // Platega's ids are UUIDs: anything else never goes into the path.
        if id.is_empty() || id.len() > 64 || !id.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-') {
            return Err(GatewayError::Rejected(format!("{id:?} is not a Platega transaction id")));
        }
        let path = format!("/transaction/{id}");
        let answer = self.call(Method::GET, &path, None).await?;
        if answer.status != 200 {
            return Err(self.refused(&Method::GET, &path, None, &answer));
        }
        self.parsed("transaction", &answer)
    }
}

#[async_trait]
impl PaymentGateway for PlategaGateway {
    fn name(&self) -> GatewayName {
        GatewayName::Platega
    }

    async fn create_payment(&self, request: &GatewayPaymentRequest) -> Result<GatewayPayment, GatewayError> {
        let code = method_code(request.gateway_method.as_deref()).map_err(GatewayError::MethodUnavailable)?;
        let body = create_body(request, code);
        let path = "/transaction/process";
        let answer = self.call(Method::POST, path, Some(body.clone())).await?;
        if answer.status != 200 {
            if answer.status == 400 && message(&answer.body).to_lowercase().contains("method") {
                return Err(GatewayError::MethodUnavailable(message(&answer.body)));
            }
            return Err(self.refused(&Method::POST, path, Some(&body), &answer));
        }
        let created: Created = self.parsed("created transaction", &answer)?;
        match (state(&created.status), created.redirect) {
            (Some(GatewayState::Pending), Some(page)) if !page.is_empty() => {
                Ok(GatewayPayment { gateway_payment_id: created.transaction_id, payment_url: page })
            }
            (Some(GatewayState::Declined), _) => Err(GatewayError::Declined(format!(
                "Platega created transaction {} already {}",
                created.transaction_id, created.status
            ))),
            (_, page) => Err(GatewayError::Rejected(format!(
                "Platega created transaction {} as {} with {} payment page",
                created.transaction_id,
                created.status,
                if page.is_some() { "a" } else { "no" }
            ))),
        }
    }

    async fn payment_state(&self, gateway_payment_id: &str) -> Result<GatewayState, GatewayError> {
        let transaction = self.transaction(gateway_payment_id).await?;
        let status = transaction.status.unwrap_or_default();
        state(&status).ok_or_else(|| {
            tracing::error!(transaction = %gateway_payment_id, %status, "Platega reported a status we do not know");
            GatewayError::Rejected(format!("transaction {gateway_payment_id}: unknown status {status:?}"))
        })
    }

    async fn invoice_of_payment(&self, gateway_payment_id: &str) -> Result<Option<String>, GatewayError> {
        let transaction = self.transaction(gateway_payment_id).await?;
        Ok(transaction.payload.filter(|_| transaction.id.as_deref().is_none_or(|id| id == gateway_payment_id)))
    }

    /// A notification can be lost: pending transactions are read again.
    fn reconciles(&self) -> bool {
        true
    }

    /// Platega has no account endpoint: one page of the merchant's balance operations shows
    /// that the credentials work.
    async fn check(&self) -> Result<GatewayInfo, GatewayError> {
        let path = "/transaction/balance-unlock-operations?page=0&size=1";
        let answer = self.call(Method::GET, path, None).await?;
        if answer.status != 200 {
            return Err(self.refused(&Method::GET, path, None, &answer));
        }
        Ok(GatewayInfo {
            gateway: GatewayName::Platega,
            address: self.settings.api_url.clone(),
            account: Some(self.settings.merchant_id.clone()),
            test: None,
            enabled: Some(true),
            methods: METHODS.iter().map(|m| (*m).to_owned()).collect(),
        })
    }
}
