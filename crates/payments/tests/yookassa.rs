//! The YooKassa adapter over real HTTP against the emulator: what it sends, how it reads
//! statuses, and how it sorts failures into unknown outcomes and refusals.

use std::time::Duration;

use serde_json::{Value, json};
use time::OffsetDateTime;
use vp_domain::AccountId;
use vp_domain::{GatewayState, Money};
use vp_payments::{YooKassaGateway, YooKassaSettings};
use vp_ports::{GatewayError, GatewayPaymentRequest, PaymentGateway, RefundState};
use vp_testkit::yookassa::{Mode, Received, YooKassa};

fn settings(yk: &YooKassa) -> YooKassaSettings {
    YooKassaSettings {
        shop_id: "100500".into(),
        secret_key: "test_secret".into(),
        api_url: yk.api_url(),
        timeout: Duration::from_secs(10),
        save_methods: true,
    }
}

fn gateway(yk: &YooKassa) -> YooKassaGateway {
    YooKassaGateway::new(&settings(yk)).unwrap()
}

fn request(invoice: &str) -> GatewayPaymentRequest {
    GatewayPaymentRequest {
        idempotency_key: invoice.into(),
        account_id: AccountId::issued("acc_1".into()),
        amount: Money::from_kopecks(23_880),
        method: "card".into(),
        gateway_method: Some("bank_card".into()),
        description: "Fast VPN: 3 months".into(),
        return_url: "https://shop.example/back".into(),
        result_url: "https://vpn.example.com/payment-result/pay_1".into(),
        issued_at: OffsetDateTime::now_utc(),
        expires_at: OffsetDateTime::now_utc(),
        save_method: false,
        receipt: None,
    }
}

fn body(r: &Received) -> Value {
    serde_json::from_slice(&r.body).unwrap()
}

#[tokio::test]
async fn a_payment_is_created_once_per_key_with_a_confirmation_url() {
    let yk = YooKassa::start("100500", "test_secret");
    let gw = gateway(&yk);
    let first = gw.create_payment(&request("pay_one")).await.unwrap();
    let again = gw.create_payment(&request("pay_one")).await.unwrap();
    assert_eq!(first, again, "the same key and body give the same payment");
    assert_eq!(yk.payments().len(), 1);
    let held = yk.payment(&first.gateway_payment_id).unwrap();
    assert_eq!(held["confirmation"]["confirmation_url"], json!(first.payment_url));
    let sent: Vec<_> = yk.received().into_iter().filter(|r| r.method == "POST").collect();
    assert_eq!(sent.len(), 2);
    assert_eq!(sent[0].idempotence_key.as_deref(), Some("pay_one"));
    assert_eq!(sent[0].body, sent[1].body, "byte-identical on the retry");
    assert_eq!(body(&sent[0])["metadata"], json!({"payment_id": "pay_one", "account_id": "acc_1"}));
    assert_eq!(body(&sent[0])["amount"], json!({"value": "238.80", "currency": "RUB"}));

    let changed = GatewayPaymentRequest { amount: Money::from_kopecks(100), ..request("pay_one") };
    assert!(matches!(gw.create_payment(&changed).await, Err(GatewayError::Rejected(_))), "duplicated key");
}

#[tokio::test]
async fn a_method_the_shop_does_not_have_is_unavailable_and_other_refusals_are_rejections() {
    let yk = YooKassa::start("100500", "test_secret");
    let gw = gateway(&yk);
    let sbp = GatewayPaymentRequest { gateway_method: Some("sbp".into()), ..request("pay_sbp") };
    assert!(matches!(gw.create_payment(&sbp).await, Err(GatewayError::MethodUnavailable(_))));
    yk.set_methods(&["bank_card", "sbp"]);
    assert!(gw.create_payment(&GatewayPaymentRequest { idempotency_key: "pay_sbp2".into(), ..sbp }).await.is_ok());

    let wrong = YooKassaGateway::new(&YooKassaSettings { secret_key: "nope".into(), ..settings(&yk) }).unwrap();
    match wrong.create_payment(&request("pay_x")).await {
        Err(GatewayError::Rejected(why)) => {
            assert!(why.contains("VP_YOOKASSA_SECRET_KEY") && !why.contains("nope"), "{why}")
        }
        other => panic!("wrong credentials must be a rejection, got {other:?}"),
    }
}

#[tokio::test]
async fn unknown_outcomes_are_outages_and_a_retry_finds_the_same_payment() {
    let yk = YooKassa::start("100500", "test_secret");
    let gw = gateway(&yk);
    for mode in [Mode::Processing, Mode::Accepted, Mode::Down] {
        yk.set_mode(mode);
        assert!(matches!(gw.create_payment(&request("pay_u")).await, Err(GatewayError::Unavailable(_))), "{mode:?}");
    }
    yk.set_mode(Mode::Up);
    yk.lose_next_answer("POST", "/payments");
    assert!(matches!(gw.create_payment(&request("pay_u")).await, Err(GatewayError::Unavailable(_))), "no answer");
    let found = gw.create_payment(&request("pay_u")).await.unwrap();
    assert_eq!(yk.payments().len(), 1, "the lost answer's payment is the one the retry gets");
    assert_eq!(found.gateway_payment_id, yk.payments()[0]["id"].as_str().unwrap());

    let slow =
        YooKassaGateway::new(&YooKassaSettings { timeout: Duration::from_millis(300), ..settings(&yk) }).unwrap();
    yk.delay_next("GET", "/me", Duration::from_millis(1500));
    assert!(matches!(slow.check().await, Err(GatewayError::Unavailable(_))), "a timeout");

    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let nowhere =
        YooKassaGateway::new(&YooKassaSettings { api_url: format!("http://127.0.0.1:{port}/v3"), ..settings(&yk) })
            .unwrap();
    assert!(matches!(nowhere.create_payment(&request("pay_n")).await, Err(GatewayError::Unavailable(_))), "refused");
}

#[tokio::test]
async fn statuses_are_read_back_and_a_held_payment_is_captured() {
    let yk = YooKassa::start("100500", "test_secret");
    let gw = gateway(&yk);
    let mut ids = vec![];
    for n in 0..5 {
        ids.push(gw.create_payment(&request(&format!("pay_s{n}"))).await.unwrap().gateway_payment_id);
    }
    assert_eq!(gw.payment_state(&ids[0]).await.unwrap(), GatewayState::Pending);
    yk.pay(&ids[0]);
    assert_eq!(gw.payment_state(&ids[0]).await.unwrap(), GatewayState::Succeeded);
    yk.cancel(&ids[1], "expired_on_confirmation");
    assert_eq!(gw.payment_state(&ids[1]).await.unwrap(), GatewayState::Expired);
    yk.cancel(&ids[2], "insufficient_funds");
    assert_eq!(gw.payment_state(&ids[2]).await.unwrap(), GatewayState::Declined);
    yk.hold(&ids[3]);
    assert_eq!(gw.payment_state(&ids[3]).await.unwrap(), GatewayState::Succeeded, "captured, then succeeded");
    let capture = yk.received().into_iter().find(|r| r.path.ends_with("/capture")).expect("a capture");
    assert_eq!(body(&capture)["amount"], json!({"value": "238.80", "currency": "RUB"}));
    assert_eq!(capture.idempotence_key, Some(format!("capture-{}", ids[3])));
    yk.pay(&ids[4]);
    yk.refund_in_cabinet(&ids[4]);
    assert_eq!(gw.payment_state(&ids[4]).await.unwrap(), GatewayState::Refunded);
    let unknown = gw.payment_state("00000000-000f-5000-8000-000000000000").await;
    assert!(matches!(unknown, Err(GatewayError::Rejected(_))), "{unknown:?}");
}

#[tokio::test]
async fn a_refund_is_made_once_per_key_and_read_back() {
    let yk = YooKassa::start("100500", "test_secret");
    let gw = gateway(&yk);
    let id = gw.create_payment(&request("pay_r")).await.unwrap().gateway_payment_id;
    yk.pay(&id);
    yk.hold_refunds();
    let amount = Money::from_kopecks(23_880);
    assert_eq!(gw.refund(&id, amount, "refund-pay_r", None).await.unwrap(), RefundState::Pending);
    assert_eq!(gw.refund(&id, amount, "refund-pay_r", None).await.unwrap(), RefundState::Pending, "the same refund");
    let refunds = yk.confirm_refunds();
    assert_eq!(refunds.len(), 1, "one refund for one key");
    assert_eq!(gw.refund_payment_id(&refunds[0]).await.unwrap(), id);
    assert_eq!(gw.payment_state(&id).await.unwrap(), GatewayState::Refunded);
}

#[tokio::test]
async fn the_check_reads_the_shop() {
    let yk = YooKassa::start("100500", "test_secret");
    let info = gateway(&yk).check().await.unwrap();
    assert_eq!(
        (info.gateway, info.account.as_deref(), info.test, info.enabled),
        (vp_domain::GatewayName::YooKassa, Some("100500"), Some(true), Some(true))
    );
    assert_eq!(info.methods, ["bank_card", "yoo_money"]);
}

#[tokio::test]
async fn a_periodic_payment_saves_the_card_and_a_renewal_charges_it_once_per_key_without_the_customer() {
    let yk = YooKassa::start("100500", "test_secret");
    let gw = gateway(&yk);
    assert!(gw.saves_methods());
    let first = gw.create_payment(&GatewayPaymentRequest { save_method: true, ..request("pay_first") }).await.unwrap();
    assert_eq!(body(&yk.received()[0])["save_payment_method"], json!(true));
    assert_eq!(gw.saved_method(&first.gateway_payment_id).await.unwrap(), None, "nothing saved before paying");
    yk.pay(&first.gateway_payment_id);
    let saved = gw.saved_method(&first.gateway_payment_id).await.unwrap().expect("the card is saved");
    assert_eq!(saved.title, "Bank card *4444");

    let renewal = |key: &str| vp_ports::SavedMethodCharge {
        idempotency_key: key.into(),
        account_id: AccountId::issued("acc_1".into()),
        amount: Money::from_kopecks(23_880),
        description: "Fast VPN: renewal".into(),
        saved_method_id: saved.id.clone(),
        receipt: None,
    };
    let paid = gw.charge_saved_method(&renewal("pay_renew_1")).await.unwrap();
    assert_eq!(paid.state, GatewayState::Succeeded);
    let again = gw.charge_saved_method(&renewal("pay_renew_1")).await.unwrap();
    assert_eq!(again, paid, "the same key gives the same payment");
    let charges: Vec<Value> =
        yk.received().iter().filter(|r| r.path == "/payments" && r.method == "POST").map(body).collect();
    assert_eq!(charges.len(), 3);
    assert_eq!(charges[1]["payment_method_id"], json!(saved.id));
    assert!(charges[1].get("confirmation").is_none(), "no customer to confirm: {}", charges[1]);
    assert_eq!(yk.payments().len(), 2, "one payment for the renewal's key");

    yk.decline_saved_methods(true);
    let declined = gw.charge_saved_method(&renewal("pay_renew_2")).await.unwrap();
    assert_eq!(declined.state, GatewayState::Declined);
    let unknown = vp_ports::SavedMethodCharge { saved_method_id: "no-such-method".into(), ..renewal("pay_renew_3") };
    assert!(matches!(gw.charge_saved_method(&unknown).await, Err(GatewayError::Rejected(_))));

    let unsaved = gw.create_payment(&request("pay_once")).await.unwrap();
    assert!(
        body(&yk.received().into_iter().rev().find(|r| r.method == "POST").unwrap())
            .get("save_payment_method")
            .is_none()
    );
    yk.pay(&unsaved.gateway_payment_id);
    assert_eq!(gw.saved_method(&unsaved.gateway_payment_id).await.unwrap(), None, "a card not asked to be saved");
}

fn receipt(purpose: vp_domain::Purpose, total: i64) -> vp_domain::receipt::Receipt {
    let settings = vp_domain::receipt::ReceiptSettings { tax_system_code: 2, vat_code: 1 };
    vp_domain::receipt::Receipt::of_purchase(
        settings,
        "buyer@example.com",
        "Fast VPN: 3 months",
        purpose,
        Money::from_kopecks(total),
    )
}

#[tokio::test]
async fn a_payment_and_its_refund_carry_the_buyers_receipt_as_the_sdk_models_it() {
    let yk = YooKassa::start("100500", "test_secret");
    let gw = gateway(&yk);
    let plan = receipt(vp_domain::Purpose::Subscription { plan_id: 3 }, 23_880);
    let paid =
        gw.create_payment(&GatewayPaymentRequest { receipt: Some(plan.clone()), ..request("pay_rc") }).await.unwrap();
    let sent = body(&yk.received()[0]);
    assert_eq!(
        sent["receipt"],
        json!({
            "customer": {"email": "buyer@example.com"},
            "items": [{
                "description": "Fast VPN: 3 months",
                "quantity": "1.00",
                "amount": {"value": "238.80", "currency": "RUB"},
                "vat_code": 1,
                "payment_subject": "service",
                "payment_mode": "full_payment",
            }],
            "tax_system_code": 2,
        })
    );
    let devices = receipt(vp_domain::Purpose::Devices { count: 3 }, 3 * 5_880);
    let three =
        GatewayPaymentRequest { amount: Money::from_kopecks(3 * 5_880), receipt: Some(devices), ..request("pay_rd") };
    gw.create_payment(&three).await.unwrap();
    let sent = body(&yk.received()[1]);
    assert_eq!(
        (sent["receipt"]["items"][0]["quantity"].as_str(), sent["receipt"]["items"][0]["amount"]["value"].as_str()),
        (Some("3.00"), Some("58.80"))
    );

    yk.pay(&paid.gateway_payment_id);
    let amount = Money::from_kopecks(23_880);
    assert_eq!(
        gw.refund(&paid.gateway_payment_id, amount, "refund-pay_rc", Some(&plan)).await.unwrap(),
        RefundState::Succeeded
    );
    let refund = yk.received().iter().find(|r| r.path == "/refunds").map(body).unwrap();
    assert_eq!(refund["receipt"], sent_receipt(&yk), "the refund's receipt has the payment's lines");
}

fn sent_receipt(yk: &YooKassa) -> Value {
    body(&yk.received()[0])["receipt"].clone()
}

#[tokio::test]
async fn a_receipt_the_sdk_would_refuse_is_refused_by_the_emulator_and_issues_nothing() {
    let yk = YooKassa::start("100500", "test_secret");
    let gw = gateway(&yk);
    let mut no_email = receipt(vp_domain::Purpose::Subscription { plan_id: 3 }, 23_880);
    no_email.email = "not-an-address".into();
    let refused = gw.create_payment(&GatewayPaymentRequest { receipt: Some(no_email), ..request("pay_bad1") }).await;
    assert!(matches!(refused, Err(GatewayError::Rejected(_))), "{refused:?}");
    let short = receipt(vp_domain::Purpose::Subscription { plan_id: 3 }, 100);
    let refused = gw.create_payment(&GatewayPaymentRequest { receipt: Some(short), ..request("pay_bad2") }).await;
    assert!(matches!(refused, Err(GatewayError::Rejected(_))), "lines that do not add up: {refused:?}");
    assert!(yk.payments().is_empty());
}
