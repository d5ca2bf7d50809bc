//! Consents and renewal charges (`RenewalRepo`).

use super::*;
use vp_domain::AccountId;

contract_tests!(a_consent_is_kept_as_given_and_a_terms_renewal_charge_is_recorded_and_claimed_once,);

async fn a_consent_is_kept_as_given_and_a_terms_renewal_charge_is_recorded_and_claimed_once(ctx: Ctx) {
    use vp_ports::{RenewalCharge, RenewalChargeState, RenewalConsent};
    let mut tx = begin(&ctx.store).await;
    tx.insert_account(&account("acc-1")).await.unwrap();
    tx.insert_client(&client("c-1", "acc-1", "one", at(0))).await.unwrap();
    let bought = invoice("pay_1", "acc-1", "c-1", Purpose::Subscription { plan_id: 1 });
    tx.insert_invoice(&bought).await.unwrap();
    let consent = RenewalConsent {
        id: "ren-1".into(),
        account_id: AccountId::issued("acc-1".into()),
        client_ref: cref("c-1"),
        payment_id: "pay_1".into(),
        plan_id: 1,
        method: "card".into(),
        consented_at: at(5),
        text: "Продлевать автоматически: 299,00 ₽".into(),
        lang: vp_domain::Lang::Ru,
        price: bought.amounts,
        price_told_at: at(5),
        saved_method_sealed: None,
        saved_method_title: None,
        turned_off_at: None,
        turned_off_by: None,
    };
    tx.insert_consent(&consent).await.unwrap();
    assert_eq!(tx.current_consent("c-1").await.unwrap(), None, "not in effect before its method is saved");
    assert_eq!(tx.consent_of_invoice("pay_1").await.unwrap(), Some(consent.clone()));
    assert_eq!(tx.consent("ren-1").await.unwrap(), Some(consent.clone()));
    assert_eq!(tx.consent("ren-2").await.unwrap(), None);
    assert!(!consent.chargeable(), "nothing to charge before a method is saved");
    let saved = RenewalConsent {
        saved_method_sealed: Some("v1.0a1b2c3d.sealed".into()),
        saved_method_title: Some("Bank card *4444".into()),
        ..consent.clone()
    };
    tx.update_consent(&saved).await.unwrap();
    assert_eq!(tx.current_consent("c-1").await.unwrap(), Some(saved.clone()));
    assert!(saved.chargeable());
    let outside = |prefixes: &[&str]| prefixes.iter().map(|p| (*p).to_owned()).collect::<Vec<String>>();
    assert!(tx.consents_sealed_outside(&outside(&["v1.0a1b2c3d."]), 10).await.unwrap().is_empty());
    assert!(tx.consents_sealed_outside(&outside(&["v1.ffffffff.", "v1.0a1b2c3d."]), 10).await.unwrap().is_empty());
    assert_eq!(tx.consents_sealed_outside(&outside(&["v1.ffffffff."]), 10).await.unwrap(), vec![saved.clone()]);
    assert_eq!(tx.consents_sealed_outside(&outside(&["v1.%"]), 10).await.unwrap().len(), 1, "a prefix is literal");

    let charge = RenewalCharge {
        client_ref: cref("c-1"),
        term_ends_at: at(1000),
        account_id: AccountId::issued("acc-1".into()),
        consent_id: "ren-1".into(),
        attempt: 1,
        payment_id: "pay_r1".into(),
        state: RenewalChargeState::Due,
        next_try_at: Some(at(10)),
        last_error: None,
        created_at: at(10),
    };
    assert!(tx.insert_renewal_charge(&charge).await.unwrap());
    let again = RenewalCharge { payment_id: "pay_r2".into(), ..charge.clone() };
    assert!(!tx.insert_renewal_charge(&again).await.unwrap(), "one charge per client and term");
    let next_term = RenewalCharge { term_ends_at: at(2000), next_try_at: Some(at(500)), ..charge.clone() };
    assert!(tx.insert_renewal_charge(&next_term).await.unwrap(), "a new term has its own");
    tx.commit().await.unwrap();

    let claim = |store: Arc<dyn Store>| async move {
        let mut tx = store.begin().await.unwrap();
        let got = tx.claim_renewal_charges(Claim { now: at(30), lease_until: at(150), limit: 10 }).await.unwrap();
        tx.commit().await.unwrap();
        got
    };
    let (a, b) = tokio::join!(claim(ctx.store.clone()), claim(ctx.store.clone()));
    let claimed = [a, b].concat();
    assert_eq!(claimed.len(), 1, "claimed by exactly one: {claimed:?}");
    assert_eq!(claimed[0], RenewalCharge { next_try_at: Some(at(150)), ..charge.clone() }, "held for the lease");
    let mut tx = begin(&ctx.store).await;
    assert!(
        tx.claim_renewal_charges(Claim { now: at(149), lease_until: at(300), limit: 10 }).await.unwrap().is_empty()
    );
    let done = RenewalCharge { state: RenewalChargeState::Succeeded, next_try_at: None, ..charge.clone() };
    tx.update_renewal_charge(&done).await.unwrap();
    assert_eq!(tx.renewal_charges_of_client("c-1").await.unwrap(), vec![next_term, done], "newest term first");
    let off = RenewalConsent {
        turned_off_at: Some(at(40)),
        turned_off_by: Some(vp_domain::renewal::TurnedOffBy::Customer),
        ..saved
    };
    tx.update_consent(&off).await.unwrap();
    assert!(!tx.current_consent("c-1").await.unwrap().unwrap().chargeable());
    tx.commit().await.unwrap();
}
