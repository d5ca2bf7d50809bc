//! Decorators that time every call to the payment gateway and the VPN panel and count its
//! outcome, whichever adapter is behind the port (wired by the binary).

use std::future::Future;
use std::sync::Arc;
use std::time::Instant;

use async_trait::async_trait;
use vp_domain::{GatewayName, GatewayState, Money};
use vp_ports::{
    External, GatewayError, GatewayInfo, GatewayPayment, GatewayPaymentRequest, Metrics, PanelDevice, PanelDrift,
    PanelError, PanelInfo, PanelUser, PaymentGateway, RefundState, SavedMethod, SavedMethodCharge, SavedMethodPayment,
    VpnPanel,
};

/// The label of an outcome: `ok`, or the port's error kind.
trait OutcomeLabel {
    fn label(&self) -> &'static str;
}

impl OutcomeLabel for GatewayError {
    fn label(&self) -> &'static str {
        match self {
            GatewayError::Unavailable(_) => "unavailable",
            GatewayError::MethodUnavailable(_) => "method_unavailable",
            GatewayError::Declined(_) => "declined",
            GatewayError::Rejected(_) => "rejected",
        }
    }
}

impl OutcomeLabel for PanelError {
    fn label(&self) -> &'static str {
        match self {
            PanelError::Unavailable(_) => "unavailable",
            PanelError::Rejected(_) => "rejected",
        }
    }
}

async fn timed<T, E: OutcomeLabel>(
    metrics: &dyn Metrics,
    system: External,
    operation: &'static str,
    call: impl Future<Output = Result<T, E>>,
) -> Result<T, E> {
    let started = Instant::now();
    let result = call.await;
    let outcome = result.as_ref().map_or_else(OutcomeLabel::label, |_| "ok");
    metrics.external_call(system, operation, outcome, started.elapsed().as_secs_f64());
    result
}

pub struct GatewayWithMetrics {
    pub inner: Arc<dyn PaymentGateway>,
    pub metrics: Arc<dyn Metrics>,
}

impl GatewayWithMetrics {
    fn system(&self) -> External {
        External::Gateway(self.inner.name())
    }
}

#[async_trait]
impl PaymentGateway for GatewayWithMetrics {
    fn name(&self) -> GatewayName {
        self.inner.name()
    }

    async fn create_payment(&self, request: &GatewayPaymentRequest) -> Result<GatewayPayment, GatewayError> {
        timed(self.metrics.as_ref(), self.system(), "create_payment", self.inner.create_payment(request)).await
    }

    async fn payment_state(&self, gateway_payment_id: &str) -> Result<GatewayState, GatewayError> {
        let call = self.inner.payment_state(gateway_payment_id);
        timed(self.metrics.as_ref(), self.system(), "payment_state", call).await
    }

    async fn refund(
        &self,
        gateway_payment_id: &str,
        amount: Money,
        idempotency_key: &str,
        receipt: Option<&vp_domain::receipt::Receipt>,
    ) -> Result<RefundState, GatewayError> {
        let call = self.inner.refund(gateway_payment_id, amount, idempotency_key, receipt);
        timed(self.metrics.as_ref(), self.system(), "refund", call).await
    }

    async fn invoice_of_payment(&self, gateway_payment_id: &str) -> Result<Option<String>, GatewayError> {
        let call = self.inner.invoice_of_payment(gateway_payment_id);
        timed(self.metrics.as_ref(), self.system(), "invoice_of_payment", call).await
    }

    fn refunds(&self) -> bool {
        self.inner.refunds()
    }

    fn sends_receipts(&self) -> bool {
        self.inner.sends_receipts()
    }

    fn reconciles(&self) -> bool {
        self.inner.reconciles()
    }

    fn saves_methods(&self) -> bool {
        self.inner.saves_methods()
    }

    async fn saved_method(&self, gateway_payment_id: &str) -> Result<Option<SavedMethod>, GatewayError> {
        let call = self.inner.saved_method(gateway_payment_id);
        timed(self.metrics.as_ref(), self.system(), "saved_method", call).await
    }

    async fn charge_saved_method(&self, charge: &SavedMethodCharge) -> Result<SavedMethodPayment, GatewayError> {
        let call = self.inner.charge_saved_method(charge);
        timed(self.metrics.as_ref(), self.system(), "charge_saved_method", call).await
    }

    async fn check(&self) -> Result<GatewayInfo, GatewayError> {
        timed(self.metrics.as_ref(), self.system(), "check", self.inner.check()).await
    }
}

pub struct PanelWithMetrics {
    pub inner: Arc<dyn VpnPanel>,
    pub metrics: Arc<dyn Metrics>,
}

#[async_trait]
impl VpnPanel for PanelWithMetrics {
    async fn put_user(&self, user: &PanelUser) -> Result<(), PanelError> {
        timed(self.metrics.as_ref(), External::Panel, "put_user", self.inner.put_user(user)).await
    }

    /// Counted as one `put_user` call a user, each taking the time the batch took.
    async fn put_users(&self, users: &[PanelUser]) -> Vec<Result<(), PanelError>> {
        let started = Instant::now();
        let results = self.inner.put_users(users).await;
        let seconds = started.elapsed().as_secs_f64();
        for result in &results {
            let outcome = result.as_ref().map_or_else(OutcomeLabel::label, |_| "ok");
            self.metrics.external_call(External::Panel, "put_user", outcome, seconds);
        }
        results
    }

    async fn drift(&self, user: &PanelUser) -> Result<Vec<PanelDrift>, PanelError> {
        timed(self.metrics.as_ref(), External::Panel, "drift", self.inner.drift(user)).await
    }

    async fn devices(&self, user_ref: &str) -> Result<Vec<PanelDevice>, PanelError> {
        timed(self.metrics.as_ref(), External::Panel, "devices", self.inner.devices(user_ref)).await
    }

    async fn delete_device(&self, user_ref: &str, hwid: &str) -> Result<bool, PanelError> {
        let call = self.inner.delete_device(user_ref, hwid);
        timed(self.metrics.as_ref(), External::Panel, "delete_device", call).await
    }

    async fn traffic_used(&self, user_ref: &str) -> Result<Option<vp_ports::TrafficCount>, PanelError> {
        timed(self.metrics.as_ref(), External::Panel, "traffic_used", self.inner.traffic_used(user_ref)).await
    }

    fn subscription_url(&self, link_token: &str) -> String {
        self.inner.subscription_url(link_token)
    }

    async fn check(&self) -> Result<PanelInfo, PanelError> {
        timed(self.metrics.as_ref(), External::Panel, "check", self.inner.check()).await
    }
}
