//! Referral codes, invitations and rewards (`ReferralRepo`).

use super::*;
use vp_domain::AccountId;

contract_tests!(referrals_keep_one_code_per_client_one_invitation_per_person_and_count_rewards_not_taken_back,);

async fn referrals_keep_one_code_per_client_one_invitation_per_person_and_count_rewards_not_taken_back(ctx: Ctx) {
    use vp_domain::referral::{ReferralCode, ReferralDays, RewardState};
    use vp_ports::{ReferralCodeRecord, ReferralRecord, ReferralReward};
    seed(&ctx.store, "acc-1").await;
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.referral_days("acc-1").await.unwrap(), ReferralDays::OFF, "no program until set");
    tx.set_referral_days("acc-1", ReferralDays::new(7).unwrap(), at(0)).await.unwrap();
    tx.set_referral_days("acc-1", ReferralDays::new(5).unwrap(), at(1)).await.unwrap();
    assert_eq!(tx.referral_days("acc-1").await.unwrap().days(), 5, "the newer days stand");
    for (id, client_id) in [("c-1", "anna"), ("c-2", "boris"), ("c-3", "vera")] {
        tx.insert_client(&client(id, "acc-1", client_id, at(0))).await.unwrap();
    }
    let code = |text: &str, client_ref: &str| ReferralCodeRecord {
        code: ReferralCode::parse(text).unwrap(),
        account_id: AccountId::issued("acc-1".into()),
        client_ref: cref(client_ref),
        created_at: at(2),
    };
    tx.insert_referral_code(&code("AAAAAAAAAAAA", "c-1")).await.unwrap();
    tx.insert_referral_code(&code("BBBBBBBBBBBB", "c-2")).await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    assert!(
        matches!(tx.insert_referral_code(&code("CCCCCCCCCCCC", "c-1")).await, Err(StoreError::Conflict(_))),
        "one code per client"
    );
    drop(tx);
    let mut tx = begin(&ctx.store).await;
    let found = tx.referral_code(&ReferralCode::parse("AAAAAAAAAAAA").unwrap()).await.unwrap();
    assert_eq!(found.map(|c| c.client_ref), Some(cref("c-1")));
    assert_eq!(
        tx.referral_code_of("c-2").await.unwrap().map(|c| c.code.as_str().to_owned()),
        Some("BBBBBBBBBBBB".into())
    );
    let invited = |user: i64, inviter: &str| ReferralRecord {
        account_id: AccountId::issued("acc-1".into()),
        invited_user_id: user,
        inviter_ref: cref(inviter),
        invited_at: at(3),
        reward: None,
    };
    // Anna brings three, Boris one: Anna's two paid, one refunded since; Boris's one paid.
    for (user, inviter) in [(11, "c-1"), (12, "c-1"), (13, "c-1"), (21, "c-2")] {
        assert!(tx.insert_referral(&invited(user, inviter)).await.unwrap());
    }
    assert!(!tx.insert_referral(&invited(11, "c-2")).await.unwrap(), "one invitation per person");
    let reward = |payment: &str, state: RewardState| ReferralReward {
        payment_id: payment.into(),
        days: 5,
        state,
        rewarded_at: at(4),
        spent_payment_id: None,
        reversed_at: None,
    };
    for (user, inviter, payment, state) in [
        (11, "c-1", "pay_11", RewardState::Days),
        (12, "c-1", "pay_12", RewardState::Reversed),
        (21, "c-2", "pay_21", RewardState::Credit),
    ] {
        let mut r = invited(user, inviter);
        r.reward = Some(reward(payment, state));
        tx.update_referral(&r).await.unwrap();
    }
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    let rewarded = tx.referral_rewarded_by("pay_12").await.unwrap().unwrap();
    assert_eq!((rewarded.invited_user_id, rewarded.reward.unwrap().state), (12, RewardState::Reversed));
    assert_eq!(tx.referral_of_invited("acc-1", 13).await.unwrap().unwrap().reward, None);
    let credits = tx.referral_credits("c-2").await.unwrap();
    assert_eq!(credits.iter().map(|c| c.invited_user_id).collect::<Vec<_>>(), [21], "Boris's credit");
    assert!(tx.referral_credits("c-1").await.unwrap().is_empty(), "days given are no credit");
    let totals = tx.referral_totals("acc-1").await.unwrap();
    assert_eq!((totals.invited, totals.rewarded, totals.days_given), (4, 2, 10), "the refunded one not counted");
    let top = tx.top_inviters("acc-1", 10).await.unwrap();
    let shown: Vec<(&str, u64, u64, u64)> =
        top.iter().map(|i| (i.client_id.as_str(), i.invited, i.rewarded, i.days_given)).collect();
    assert_eq!(shown, [("anna", 3, 1, 5), ("boris", 1, 1, 5)], "rewards first, then invitations");
    assert_eq!(tx.top_inviters("acc-1", 1).await.unwrap().len(), 1, "at most the limit");
    tx.commit().await.unwrap();
}
