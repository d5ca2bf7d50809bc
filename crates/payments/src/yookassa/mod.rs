//! The YooKassa API v3 adapter behind the `PaymentGateway` port: redirect payments with
//! `Idempotence-Key` = our invoice id, payments read back (never a notification's body), capture
//! of two-stage payments, full refunds, the shop check, and the notification route.
//! docs/yookassa.md lists the fields we rely on.

mod client;
mod notifications;
mod wire;

use std::time::Duration;

use async_trait::async_trait;
use reqwest::Method;
use vp_domain::receipt::Receipt;
use vp_domain::{GatewayName, GatewayState, Money};
use vp_ports::{
    GatewayError, GatewayInfo, GatewayPayment, GatewayPaymentRequest, PaymentGateway, RefundState, SavedMethod,
    SavedMethodCharge, SavedMethodPayment,
};

pub use client::REQUEST_TIMEOUT;
pub use notifications::{DEFAULT_NOTIFY_FROM, NOTIFICATIONS_PATH, NotifyPolicy, routes};
pub use wire::METHOD_TYPES;

use client::{Client, YooKassaAnswer};
use wire::{Me, Payment, Refund, capture_body, create_body, refund_body, saved_method_body, state};

/// YooKassa's production API.
pub const DEFAULT_API_URL: &str = "https://api.yookassa.ru/v3";

/// What the operator configures (`VP_YOOKASSA_*`).
#[derive(Clone, PartialEq, Eq)]
pub struct YooKassaSettings {
    pub shop_id: String,
    pub secret_key: String,
    /// `https://api.yookassa.ru/v3`, or an emulator in tests.
    pub api_url: String,
    pub timeout: Duration,
    /// YooKassa has switched on saved payment methods (recurring payments) for the shop
    /// (`VP_YOOKASSA_SAVE_METHODS`): periodic plans' payments ask to save the method, and
    /// automatic renewal is offered.
    pub save_methods: bool,
}

impl std::fmt::Debug for YooKassaSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("YooKassaSettings")
            .field("shop_id", &self.shop_id)
            .field("secret_key", &"<redacted>")
            .field("api_url", &self.api_url)
            .field("timeout", &self.timeout)
            .field("save_methods", &self.save_methods)
            .finish()
    }
}

pub struct YooKassaGateway {
    client: Client,
    save_methods: bool,
}

impl YooKassaGateway {
    pub fn new(settings: &YooKassaSettings) -> Result<YooKassaGateway, String> {
        let client = Client::new(&settings.api_url, &settings.shop_id, &settings.secret_key, settings.timeout)?;
        Ok(YooKassaGateway { client, save_methods: settings.save_methods })
    }

    async fn get_payment(&self, id: &str) -> Result<Payment, GatewayError> {
        let path = format!("/payments/{id}");
        let answer = self.client.call(Method::GET, &path, None, None).await?;
        if !answer.ok() {
            return Err(self.client.refused(&Method::GET, &path, None, &answer));
        }
        answer.object("payment")
    }

    /// The payment a refund belongs to, read from YooKassa (a notification names the refund).
    pub async fn refund_payment_id(&self, refund_id: &str) -> Result<String, GatewayError> {
        let path = format!("/refunds/{refund_id}");
        let answer = self.client.call(Method::GET, &path, None, None).await?;
        if !answer.ok() {
            return Err(self.client.refused(&Method::GET, &path, None, &answer));
        }
        answer.object::<Refund>("refund").map(|r| r.payment_id)
    }

    /// Captures a two-stage payment in full (shops that are not auto-capture); the key makes a
    /// repeated capture the same one.
    async fn capture(&self, payment: &Payment) -> Result<Payment, GatewayError> {
        let path = format!("/payments/{}/capture", payment.id);
        let body = capture_body(payment);
        let key = format!("capture-{}", payment.id);
        let answer = self.client.call(Method::POST, &path, Some(&key), Some(&body)).await?;
        if !answer.ok() {
            return Err(self.client.refused(&Method::POST, &path, Some(&body), &answer));
        }
        answer.object("captured payment")
    }
}

fn unknown_status(payment: &Payment) -> GatewayError {
    tracing::error!(payment = %payment.id, status = %payment.status, "YooKassa reported a payment status we do not know");
    GatewayError::Rejected(format!("payment {}: unknown status {:?}", payment.id, payment.status))
}

#[async_trait]
impl PaymentGateway for YooKassaGateway {
    fn name(&self) -> GatewayName {
        GatewayName::YooKassa
    }

    /// Payments carry the buyer's receipt while the service sends them (`VP_RECEIPTS`).
    fn sends_receipts(&self) -> bool {
        true
    }

    async fn create_payment(&self, request: &GatewayPaymentRequest) -> Result<GatewayPayment, GatewayError> {
        let body = create_body(request, self.save_methods);
        let key = request.idempotency_key.as_str();
        let answer = self.client.call(Method::POST, "/payments", Some(key), Some(&body)).await?;
        if !answer.ok() {
            let e = answer.error();
            if e.is_about_the_method() {
                tracing::warn!(payment_id = key, parameter = ?e.parameter, description = ?e.description, "YooKassa refused the payment method");
                return Err(GatewayError::MethodUnavailable(e.description.unwrap_or_default()));
            }
            return Err(self.client.refused(&Method::POST, "/payments", Some(&body), &answer));
        }
        let payment: Payment = answer.object("payment")?;
        if payment.status == "canceled" {
            let reason = payment.cancellation_details.map(|d| d.reason).unwrap_or_default();
            return Err(if reason == "payment_method_restricted" {
                GatewayError::MethodUnavailable(reason)
            } else {
                GatewayError::Declined(reason)
            });
        }
        let url = payment.confirmation.and_then(|c| c.confirmation_url).ok_or_else(|| {
            tracing::error!(payment = %payment.id, "a YooKassa payment came without confirmation_url");
            GatewayError::Rejected(format!("payment {}: no confirmation_url in the answer", payment.id))
        })?;
        Ok(GatewayPayment { gateway_payment_id: payment.id, payment_url: url })
    }

    async fn payment_state(&self, gateway_payment_id: &str) -> Result<GatewayState, GatewayError> {
        let mut payment = self.get_payment(gateway_payment_id).await?;
        if payment.status == "waiting_for_capture" {
            payment = self.capture(&payment).await?;
        }
        state(&payment).ok_or_else(|| unknown_status(&payment))
    }

    async fn refund(
        &self,
        gateway_payment_id: &str,
        amount: Money,
        idempotency_key: &str,
        receipt: Option<&Receipt>,
    ) -> Result<RefundState, GatewayError> {
        let body = refund_body(gateway_payment_id, amount, receipt);
        let answer = self.client.call(Method::POST, "/refunds", Some(idempotency_key), Some(&body)).await?;
        if !answer.ok() {
            return Err(self.client.refused(&Method::POST, "/refunds", Some(&body), &answer));
        }
        let refund: Refund = answer.object("refund")?;
        Ok(match refund.status.as_str() {
            "succeeded" => RefundState::Succeeded,
            "canceled" => RefundState::Canceled(refund.cancellation_details.map(|d| d.reason).unwrap_or_default()),
            _ => RefundState::Pending,
        })
    }

    fn refunds(&self) -> bool {
        true
    }

    fn reconciles(&self) -> bool {
        true
    }

    /// Once YooKassa has switched saved methods on for the shop and the operator says so.
    fn saves_methods(&self) -> bool {
        self.save_methods
    }

    async fn saved_method(&self, gateway_payment_id: &str) -> Result<Option<SavedMethod>, GatewayError> {
        Ok(self.get_payment(gateway_payment_id).await?.saved_method())
    }

    async fn charge_saved_method(&self, charge: &SavedMethodCharge) -> Result<SavedMethodPayment, GatewayError> {
        let body = saved_method_body(charge);
        let key = charge.idempotency_key.as_str();
        let answer = self.client.call(Method::POST, "/payments", Some(key), Some(&body)).await?;
        if !answer.ok() {
            return Err(self.client.refused(&Method::POST, "/payments", Some(&body), &answer));
        }
        let mut payment: Payment = answer.object("payment")?;
        if payment.status == "waiting_for_capture" {
            payment = self.capture(&payment).await?;
        }
        let state = state(&payment).ok_or_else(|| unknown_status(&payment))?;
        Ok(SavedMethodPayment { gateway_payment_id: payment.id, state })
    }

    async fn check(&self) -> Result<GatewayInfo, GatewayError> {
        let answer = self.client.call(Method::GET, "/me", None, None).await?;
        if !answer.ok() {
            return Err(self.client.refused(&Method::GET, "/me", None, &answer));
        }
        let me: Me = answer.object("shop")?;
        Ok(GatewayInfo {
            gateway: GatewayName::YooKassa,
            address: self.client.api_url().to_owned(),
            account: Some(me.account_id),
            test: Some(me.test),
            enabled: me.status.map(|s| s == "enabled"),
            methods: me.payment_methods,
        })
    }
}
