//! Gift subscriptions (`GiftRepo`): found by invoice and by code hash, redeemed or refunded
//! once.

use super::*;
use vp_domain::Lang;
use vp_ports::GiftRecord;

contract_tests!(
    a_gift_is_found_by_its_invoice_and_its_code_hash_and_listed_newest_first,
    a_gift_is_redeemed_once_and_a_refunded_one_is_not_redeemed,
);

fn gift(payment_id: &str, account_id: &str, code_hash: &str, t: i64) -> GiftRecord {
    GiftRecord {
        payment_id: PaymentId::issued(payment_id.into()),
        account_id: AccountId::issued(account_id.into()),
        code_hash: code_hash.into(),
        recipient_email: Some("mum@example.com".into()),
        lang: Lang::Ru,
        created_at: at(t),
        redeemed_at: None,
        redeemed_by: None,
        refunded_at: None,
    }
}

async fn seed_gifts(ctx: &Ctx) {
    seed(&ctx.store, "acc-1").await;
    seed(&ctx.store, "acc-2").await;
    let mut tx = begin(&ctx.store).await;
    for (id, account) in [("pay_1", "acc-1"), ("pay_2", "acc-1"), ("pay_3", "acc-2")] {
        let client = format!("{account}-c1");
        tx.insert_invoice(&invoice(id, account, &client, Purpose::Subscription { plan_id: 1 })).await.unwrap();
    }
    tx.insert_gift(&gift("pay_1", "acc-1", "h1", 1)).await.unwrap();
    tx.insert_gift(&gift("pay_2", "acc-1", "h2", 2)).await.unwrap();
    tx.insert_gift(&GiftRecord { recipient_email: None, ..gift("pay_3", "acc-2", "h3", 3) }).await.unwrap();
    tx.commit().await.unwrap();
}

async fn a_gift_is_found_by_its_invoice_and_its_code_hash_and_listed_newest_first(ctx: Ctx) {
    seed_gifts(&ctx).await;
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.gift("pay_1").await.unwrap(), Some(gift("pay_1", "acc-1", "h1", 1)));
    assert_eq!(tx.gift("pay_9").await.unwrap(), None, "an invoice that pays for no gift");
    let third = tx.gift_by_code_hash("h3").await.unwrap().unwrap();
    assert_eq!((third.payment_id.as_str(), third.recipient_email), ("pay_3", None));
    assert_eq!(tx.gift_by_code_hash("h4").await.unwrap(), None);
    let listed = tx.account_gifts("acc-1", 10).await.unwrap();
    assert_eq!(listed.iter().map(|g| g.payment_id.as_str()).collect::<Vec<_>>(), ["pay_2", "pay_1"]);
    assert_eq!(tx.account_gifts("acc-1", 1).await.unwrap().len(), 1);
    let second_code = GiftRecord { payment_id: PaymentId::issued("pay_2".into()), ..gift("pay_1", "acc-1", "h1", 5) };
    assert!(tx.insert_gift(&second_code).await.is_err(), "a code hash is one gift's");
}

async fn a_gift_is_redeemed_once_and_a_refunded_one_is_not_redeemed(ctx: Ctx) {
    seed_gifts(&ctx).await;
    let mut tx = begin(&ctx.store).await;
    assert!(tx.redeem_gift("pay_1", "acc-1-c1", at(10)).await.unwrap());
    assert!(!tx.redeem_gift("pay_1", "acc-1-c1", at(11)).await.unwrap(), "once");
    assert!(!tx.refund_gift("pay_1", at(12)).await.unwrap(), "a redeemed gift is not refunded");
    let redeemed = tx.gift("pay_1").await.unwrap().unwrap();
    assert_eq!(
        (redeemed.redeemed_at, redeemed.redeemed_by, redeemed.refunded_at),
        (Some(at(10)), Some(cref("acc-1-c1")), None)
    );

    assert!(tx.refund_gift("pay_2", at(20)).await.unwrap());
    assert!(!tx.refund_gift("pay_2", at(21)).await.unwrap(), "once");
    assert!(!tx.redeem_gift("pay_2", "acc-1-c1", at(22)).await.unwrap(), "a refunded gift is not redeemed");
    tx.unrefund_gift("pay_2").await.unwrap();
    assert!(tx.redeem_gift("pay_2", "acc-1-c1", at(23)).await.unwrap(), "a refund taken back");
    tx.commit().await.unwrap();
}
