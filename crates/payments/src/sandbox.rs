use std::sync::Arc;

use async_trait::async_trait;
use vp_domain::{GatewayState, InvoiceStatus, Money};
use vp_ports::SettingKey;
use vp_ports::{GatewayError, GatewayInfo, GatewayPayment, GatewayPaymentRequest, PaymentGateway, RefundState, Store};
use vp_standin::{ModeCache, behave};

/// Path of the hosted payment page, followed by the invoice id.
pub const SANDBOX_PAGE_PREFIX: &str = "/sandbox/pay/";
/// The sandbox's payment ids are the invoice ids with this prefix.
const ID_PREFIX: &str = "sbx_";

/// The sandbox gateway. Idempotent like a real one: the same idempotency key always gives the
/// same payment. Its page applies outcomes in-process, so none can be lost and nothing needs
/// reconciling. The operator can switch it `down` (no answer) or `slow:<ms>`.
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
            mode: ModeCache::new(SettingKey::GatewayMode),
        }
    }

    async fn answer(&self) -> Result<(), GatewayError> {
        behave(self.mode.mode(self.store.as_ref()).await)
            .await
            .map_err(|()| GatewayError::Unavailable("the sandbox gateway is switched to down".into()))
    }
}

#[async_trait]
impl PaymentGateway for SandboxGateway {
    async fn create_payment(&self, request: &GatewayPaymentRequest) -> Result<GatewayPayment, GatewayError> {
        self.answer().await?;
        // Invoice ids are URL-safe (prefix + base64url), so they go into the path as they are.
        Ok(GatewayPayment {
            gateway_payment_id: format!("{ID_PREFIX}{}", request.idempotency_key),
            payment_url: format!("{}{SANDBOX_PAGE_PREFIX}{}", self.public_base_url, request.idempotency_key),
        })
    }

    /// The sandbox's payment is its page's record of the invoice.
    async fn payment_state(&self, gateway_payment_id: &str) -> Result<GatewayState, GatewayError> {
        self.answer().await?;
        let payment_id = gateway_payment_id.strip_prefix(ID_PREFIX).unwrap_or(gateway_payment_id);
        let unavailable = |e: vp_ports::StoreError| GatewayError::Unavailable(e.to_string());
        let mut tx = self.store.read().await.map_err(unavailable)?;
        let invoice = tx.invoice_by_id(payment_id).await.map_err(unavailable)?;
        tx.commit().await.map_err(unavailable)?;
        let invoice =
            invoice.ok_or_else(|| GatewayError::Rejected(format!("no sandbox payment {gateway_payment_id}")))?;
        Ok(match invoice.status {
            // The page still takes a late payment.
            InvoiceStatus::Pending | InvoiceStatus::Expired => GatewayState::Pending,
            InvoiceStatus::Succeeded => GatewayState::Succeeded,
            InvoiceStatus::Failed => GatewayState::Declined,
        })
    }

    /// A sandbox refund goes through at once.
    async fn refund(&self, _payment: &str, _amount: Money, _key: &str) -> Result<RefundState, GatewayError> {
        self.answer().await?;
        Ok(RefundState::Succeeded)
    }

    fn reconciles(&self) -> bool {
        false
    }

    async fn check(&self) -> Result<GatewayInfo, GatewayError> {
        self.answer().await?;
        Ok(GatewayInfo {
            kind: "sandbox",
            address: format!("{}{SANDBOX_PAGE_PREFIX}", self.public_base_url),
            account: None,
            test: Some(true),
            enabled: Some(true),
            methods: vec![],
        })
    }
}
