//! Plans, device settings and payment methods (`OfferRepo`).

use super::*;
use vp_domain::traffic::{TrafficLimit, TrafficReset};

contract_tests!(
    plans_get_increasing_ids_and_can_be_retired,
    device_settings_are_set_replaced_and_read,
    payment_methods_are_upserted_and_ordered,
);

async fn plans_get_increasing_ids_and_can_be_retired(ctx: Ctx) {
    let s = &ctx.store;
    let new = |months: u32, lifetime: bool, limited: bool, price: i64| NewPlan {
        months,
        lifetime,
        device_limited: limited,
        platform_price: Money::from_kopecks(price),
        created_at: at(i64::from(months)),
        traffic: (months == 12).then(|| TrafficLimit::of_gb(100, TrafficReset::Month).unwrap()),
    };
    let mut tx = begin(s).await;
    let p1 = tx.insert_plan(&new(1, false, true, 29_900)).await.unwrap();
    let p2 = tx.insert_plan(&new(0, true, false, 999_900)).await.unwrap();
    let p3 = tx.insert_plan(&new(12, false, true, 249_900)).await.unwrap();
    assert!(p1.plan_id < p2.plan_id && p2.plan_id < p3.plan_id, "{p1:?} {p2:?} {p3:?}");
    assert_eq!(
        p2,
        PlanRecord {
            plan_id: p2.plan_id,
            months: 0,
            lifetime: true,
            device_limited: false,
            platform_price: Money::from_kopecks(999_900),
            created_at: at(0),
            retired_at: None,
            traffic: None,
        }
    );
    assert_eq!(p3.traffic.map(|t| (t.bytes, t.reset)), Some((100 << 30, TrafficReset::Month)), "kept as given");
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    assert_eq!(tx.plan(p1.plan_id).await.unwrap(), Some(p1.clone()));
    assert_eq!(tx.plan(p3.plan_id + 100).await.unwrap(), None);
    assert!(tx.retire_plan(p2.plan_id, at(500)).await.unwrap());
    assert!(!tx.retire_plan(p2.plan_id, at(600)).await.unwrap(), "already retired");
    assert!(!tx.retire_plan(p3.plan_id + 100, at(600)).await.unwrap(), "missing");
    let ids = |plans: Vec<PlanRecord>| plans.into_iter().map(|p| p.plan_id).collect::<Vec<_>>();
    assert_eq!(ids(tx.plans(false).await.unwrap()), [p1.plan_id, p3.plan_id]);
    let with = tx.plans(true).await.unwrap();
    assert_eq!(ids(with.clone()), [p1.plan_id, p2.plan_id, p3.plan_id]);
    assert_eq!(with[1].retired_at, Some(at(500)));
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    let p4 = tx.insert_plan(&new(3, false, true, 79_900)).await.unwrap();
    assert!(p4.plan_id > p3.plan_id);
    tx.commit().await.unwrap();
}

async fn device_settings_are_set_replaced_and_read(ctx: Ctx) {
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.device_settings().await.unwrap(), None);
    let first = DeviceSettings::new(2, 5, Some(Money::from_kopecks(9_900))).unwrap();
    tx.set_device_settings(&first).await.unwrap();
    assert_eq!(tx.device_settings().await.unwrap(), Some(first));
    let second = DeviceSettings::new(1, 10, None).unwrap();
    tx.set_device_settings(&second).await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.device_settings().await.unwrap(), Some(second));
    tx.commit().await.unwrap();
}

async fn payment_methods_are_upserted_and_ordered(ctx: Ctx) {
    let method = |code: &str, position: i32, enabled: bool| PaymentMethodRecord {
        code: code.into(),
        name_en: format!("{code} en"),
        name_ru: format!("{code} ru"),
        enabled,
        position,
        gateway: (code == "sbp").then_some(GatewayName::Platega),
        gateway_type: (code == "sbp").then(|| "sbp".to_owned()),
    };
    let mut tx = begin(&ctx.store).await;
    tx.upsert_payment_method(&method("sbp", 2, true)).await.unwrap();
    tx.upsert_payment_method(&method("card", 1, true)).await.unwrap();
    tx.upsert_payment_method(&method("bank", 1, false)).await.unwrap();
    let codes = |list: Vec<PaymentMethodRecord>| list.into_iter().map(|m| m.code).collect::<Vec<_>>();
    assert_eq!(codes(tx.payment_methods().await.unwrap()), ["bank", "card", "sbp"]);
    let mut changed = method("sbp", 0, false);
    changed.name_en = "Fast payments".into();
    changed.gateway_type = None; // unmapped: the customer chooses on the gateway's page
    tx.upsert_payment_method(&changed).await.unwrap();
    tx.upsert_payment_method(&method("bank", 1, true)).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(&ctx.store).await;
    assert_eq!(
        tx.payment_methods().await.unwrap(),
        vec![changed.clone(), method("bank", 1, true), method("card", 1, true)]
    );
    assert_eq!(tx.payment_method("sbp").await.unwrap(), Some(changed));
    assert_eq!(tx.payment_method("cash").await.unwrap(), None);
    tx.commit().await.unwrap();
}
