use std::sync::Arc;

use async_trait::async_trait;
use vp_ports::sandbox::{GATEWAY_MODE_KEY, ModeCache, behave};
use vp_ports::{GatewayError, GatewayPayment, GatewayPaymentRequest, PaymentGateway, Store};

/// Path of the hosted payment page, followed by the invoice id.
pub const SANDBOX_PAGE_PREFIX: &str = "/sandbox/pay/";

/// The sandbox gateway. Idempotent like a real one: the same idempotency key always gives the
/// same payment. The operator can switch it `down` (no answer) or `slow:<ms>`.
pub struct SandboxGateway {
    store: Arc<dyn Store>,
    public_base_url: String,
    mode: ModeCache,
}

impl SandboxGateway {
    pub fn new(store: Arc<dyn Store>, public_base_url: &str) -> SandboxGateway {
        SandboxGateway {
            store,
            public_base_url: public_base_url.trim_end_matches('/').to_owned(),
            mode: ModeCache::new(GATEWAY_MODE_KEY),
        }
    }
}

#[async_trait]
impl PaymentGateway for SandboxGateway {
    async fn create_payment(&self, request: &GatewayPaymentRequest) -> Result<GatewayPayment, GatewayError> {
        behave(self.mode.mode(self.store.as_ref()).await)
            .await
            .map_err(|()| GatewayError::Unavailable("the sandbox gateway is switched to down".into()))?;
        // Invoice ids are URL-safe (prefix + base64url), so they go into the path as they are.
        Ok(GatewayPayment {
            gateway_payment_id: format!("sbx_{}", request.idempotency_key),
            payment_url: format!("{}{SANDBOX_PAGE_PREFIX}{}", self.public_base_url, request.idempotency_key),
        })
    }
}
