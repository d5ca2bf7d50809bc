use std::sync::Arc;

use async_trait::async_trait;
use vp_domain::{GatewayName, GatewayState, InvoiceStatus, Money};
use vp_ports::SettingKey;
use vp_ports::{
    GatewayError, GatewayInfo, GatewayPayment, GatewayPaymentRequest, PaymentGateway, RefundState, SavedMethod,
    SavedMethodCharge, SavedMethodPayment, Store,
};
use vp_standin::{ModeCache, behave};

/// Path of the hosted payment page, followed by the invoice id.
pub const SANDBOX_PAGE_PREFIX: &str = "/sandbox/pay/";
/// The sandbox's payment ids are the invoice ids with this prefix.
const ID_PREFIX: &str = "sbx_";
/// A saved card's id: the invoice it was saved with, after this prefix.
const SAVED_CARD_PREFIX: &str = "sbxcard_";
/// A charge of a saved card carries its outcome in its id, as a real gateway keeps it with the
/// payment: these prefixes, then the invoice id.
const CHARGED_PREFIX: &str = "sbxpaid_";
const DECLINED_PREFIX: &str = "sbxdeclined_";
/// How the sandbox names a saved card.
const SAVED_CARD_TITLE: &str = "Sandbox card *4242";
/// `SettingKey::SandboxSavedCards` value that declines renewals.
pub const SAVED_CARDS_DECLINE: &str = "decline";

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
    fn name(&self) -> GatewayName {
        GatewayName::Sandbox
    }

    /// It stands for any gateway in development, the receipts of those that send them included.
    fn sends_receipts(&self) -> bool {
        true
    }

    async fn create_payment(&self, request: &GatewayPaymentRequest) -> Result<GatewayPayment, GatewayError> {
        self.answer().await?;
        // Invoice ids are URL-safe (prefix + base64url), so they go into the path as they are.
        Ok(GatewayPayment {
            gateway_payment_id: format!("{ID_PREFIX}{}", request.idempotency_key),
            payment_url: format!("{}{SANDBOX_PAGE_PREFIX}{}", self.public_base_url, request.idempotency_key),
        })
    }

    /// The sandbox's payment is its page's record of the invoice; a saved card's charge says
    /// its outcome in its id.
    async fn payment_state(&self, gateway_payment_id: &str) -> Result<GatewayState, GatewayError> {
        self.answer().await?;
        if gateway_payment_id.starts_with(CHARGED_PREFIX) {
            return Ok(GatewayState::Succeeded);
        }
        if gateway_payment_id.starts_with(DECLINED_PREFIX) {
            return Ok(GatewayState::Declined);
        }
        let payment_id = gateway_payment_id.strip_prefix(ID_PREFIX).unwrap_or(gateway_payment_id);
        let unavailable = |e: vp_ports::StoreError| GatewayError::Unavailable(e.to_string());
        let mut tx = self.store.read().await.map_err(unavailable)?;
        let invoice = tx.invoice_by_id(payment_id).await.map_err(unavailable)?;
        tx.commit().await.map_err(unavailable)?;
        let invoice =
            invoice.ok_or_else(|| GatewayError::Rejected(format!("no sandbox payment {gateway_payment_id}")))?;
        Ok(match invoice.status {
            // The page still takes a late payment.
            status if status.may_be_paid() => GatewayState::Pending,
            InvoiceStatus::Succeeded => GatewayState::Succeeded,
            _ => GatewayState::Declined,
        })
    }

    /// A sandbox refund goes through at once.
    async fn refund(
        &self,
        _payment: &str,
        _amount: Money,
        _key: &str,
        _receipt: Option<&vp_domain::receipt::Receipt>,
    ) -> Result<RefundState, GatewayError> {
        self.answer().await?;
        Ok(RefundState::Succeeded)
    }

    fn refunds(&self) -> bool {
        true
    }

    fn reconciles(&self) -> bool {
        false
    }

    fn saves_methods(&self) -> bool {
        true
    }

    /// Every card paid on the sandbox page can be saved: its id names the invoice.
    async fn saved_method(&self, gateway_payment_id: &str) -> Result<Option<SavedMethod>, GatewayError> {
        let paid = self.payment_state(gateway_payment_id).await? == GatewayState::Succeeded;
        let invoice = gateway_payment_id.strip_prefix(ID_PREFIX).filter(|_| paid);
        Ok(invoice.map(|id| SavedMethod { id: format!("{SAVED_CARD_PREFIX}{id}"), title: SAVED_CARD_TITLE.into() }))
    }

    /// Pays at once, or declines while the operator has switched saved cards to decline
    /// (`vp-api sandbox saved-cards decline`), so the embedded default shows both paths.
    async fn charge_saved_method(&self, charge: &SavedMethodCharge) -> Result<SavedMethodPayment, GatewayError> {
        self.answer().await?;
        if !charge.saved_method_id.starts_with(SAVED_CARD_PREFIX) {
            return Err(GatewayError::Rejected(format!("no sandbox card {}", charge.saved_method_id)));
        }
        let unavailable = |e: vp_ports::StoreError| GatewayError::Unavailable(e.to_string());
        let mut tx = self.store.read().await.map_err(unavailable)?;
        let cards = tx.setting(SettingKey::SandboxSavedCards).await.map_err(unavailable)?;
        tx.commit().await.map_err(unavailable)?;
        let declines = cards.is_some_and(|s| s.value == SAVED_CARDS_DECLINE);
        let (prefix, state) = if declines {
            (DECLINED_PREFIX, GatewayState::Declined)
        } else {
            (CHARGED_PREFIX, GatewayState::Succeeded)
        };
        Ok(SavedMethodPayment { gateway_payment_id: format!("{prefix}{}", charge.idempotency_key), state })
    }

    async fn check(&self) -> Result<GatewayInfo, GatewayError> {
        self.answer().await?;
        Ok(GatewayInfo {
            gateway: GatewayName::Sandbox,
            address: format!("{}{SANDBOX_PAGE_PREFIX}", self.public_base_url),
            account: None,
            test: Some(true),
            enabled: Some(true),
            methods: vec![],
        })
    }
}
