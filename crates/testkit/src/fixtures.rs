//! Records the adapters' own tests start from.

use time::macros::datetime;
use vp_domain::AccountId;
use vp_domain::Money;
use vp_ports::GatewayPaymentRequest;

/// What a gateway is asked for an invoice of 3 months at 238.80 ₽, issued at 12:00 and due at
/// 12:30 on 2026-11-23, paid with the partner's return address.
pub fn payment_request() -> GatewayPaymentRequest {
    GatewayPaymentRequest {
        idempotency_key: "pay_AbCdEfGhIjKlMnOpQrStUv".into(),
        account_id: AccountId::issued("acc_1".into()),
        amount: Money::from_kopecks(23_880),
        method: "sbp".into(),
        gateway_method: None,
        description: "Fast VPN: 3 months".into(),
        return_url: "https://shop.example/back".into(),
        result_url: "https://vpn.example.com/payment-result/pay_AbCdEfGhIjKlMnOpQrStUv".into(),
        issued_at: datetime!(2026-11-23 12:00 UTC),
        expires_at: datetime!(2026-11-23 12:30 UTC),
        save_method: false,
        receipt: None,
    }
}
