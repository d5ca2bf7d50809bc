//! The web shop: slugs, customers' emails, sign-in codes and sessions (`ShopRepo`).

use super::*;
use vp_domain::AccountId;

contract_tests!(
    a_shop_slug_is_one_accounts_and_accounts_without_one_are_found,
    a_shop_customer_links_one_email_to_one_client_and_the_first_link_stands,
    a_shop_customer_linked_by_a_trial_has_no_first_payment_and_the_trial_is_known,
    a_newer_shop_sign_in_code_spends_the_older_and_sessions_are_kept_until_pruned,
    a_shop_customers_further_subscriptions_are_kept_by_position_renamed_in_place_and_found_by_client,
);

async fn a_shop_customers_further_subscriptions_are_kept_by_position_renamed_in_place_and_found_by_client(ctx: Ctx) {
    seed(&ctx.store, "acc-1").await;
    seed(&ctx.store, "acc-2").await;
    let further =
        |account: &str, email: &str, position: u32, client: &str, name: &str, t: i64| vp_ports::ShopSubscription {
            account_id: AccountId::issued(account.into()),
            email: email.into(),
            position,
            client_id: cid(client),
            name: name.into(),
            created_at: at(t),
        };
    let mut tx = begin(&ctx.store).await;
    tx.put_shop_subscription(&further("acc-1", "a@example.com", 2, "email:aa:3", "Mum", 2)).await.unwrap();
    tx.put_shop_subscription(&further("acc-1", "a@example.com", 1, "email:aa:2", "Phone", 1)).await.unwrap();
    tx.put_shop_subscription(&further("acc-1", "b@example.com", 1, "email:bb:2", "Phone", 1)).await.unwrap();
    tx.put_shop_subscription(&further("acc-2", "a@example.com", 1, "email:aa:2", "Phone", 1)).await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    let router = further("acc-1", "a@example.com", 1, "email:aa:2", "Router", 5);
    tx.put_shop_subscription(&router).await.unwrap();
    let mum = further("acc-1", "a@example.com", 2, "email:aa:3", "Mum", 2);
    let listed = tx.shop_subscriptions("acc-1", "a@example.com").await.unwrap();
    assert_eq!(listed, [router.clone(), mum.clone()], "by position, renamed in place");
    assert_eq!(tx.shop_subscriptions("acc-1", "c@example.com").await.unwrap(), []);
    assert_eq!(tx.shop_subscription_of_client("acc-1", "email:aa:3").await.unwrap(), Some(mum));
    assert_eq!(tx.shop_subscription_of_client("acc-1", "email:aa").await.unwrap(), None, "the first has no row");
    let taken = further("acc-1", "b@example.com", 2, "email:aa:2", "Twice", 6);
    assert!(tx.put_shop_subscription(&taken).await.is_err(), "a client is one subscription's");
}

async fn a_shop_slug_is_one_accounts_and_accounts_without_one_are_found(ctx: Ctx) {
    seed(&ctx.store, "acc-1").await;
    seed(&ctx.store, "acc-2").await;
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.accounts_without_shop(10).await.unwrap(), ["acc-1", "acc-2"]);
    tx.put_shop_slug("acc-1", "fast-vpn", at(1)).await.unwrap();
    assert_eq!(tx.accounts_without_shop(10).await.unwrap(), ["acc-2"]);
    assert_eq!(tx.shop_slug("acc-1").await.unwrap().as_deref(), Some("fast-vpn"));
    assert_eq!(tx.shop_account("fast-vpn").await.unwrap().as_deref(), Some("acc-1"));
    tx.put_shop_slug("acc-1", "swift-vpn", at(2)).await.unwrap();
    assert_eq!(tx.shop_account("fast-vpn").await.unwrap(), None, "the old slug is free again");
    assert_eq!(tx.shop_slug("acc-2").await.unwrap(), None);
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    let taken = tx.put_shop_slug("acc-2", "swift-vpn", at(3)).await.unwrap_err();
    assert!(matches!(taken, StoreError::Conflict(_)), "{taken:?}");
}

async fn a_shop_customer_links_one_email_to_one_client_and_the_first_link_stands(ctx: Ctx) {
    seed(&ctx.store, "acc-1").await;
    seed(&ctx.store, "acc-2").await;
    let mut tx = begin(&ctx.store).await;
    for (id, account) in [("c-1", "acc-1"), ("c-2", "acc-1"), ("c-3", "acc-2")] {
        tx.insert_client(&client(id, account, id, at(0))).await.unwrap();
    }
    let customer = |account: &str, email: &str, client_ref: &str, payment: &str| vp_ports::ShopCustomer {
        account_id: AccountId::issued(account.into()),
        email: email.into(),
        client_ref: cref(client_ref),
        lang: vp_domain::Lang::Ru,
        first_payment_id: Some(payment.into()),
        created_at: at(1),
    };
    let anna = customer("acc-1", "anna@example.com", "c-1", "pay_1");
    assert!(tx.add_shop_customer(&anna).await.unwrap());
    assert!(
        !tx.add_shop_customer(&customer("acc-1", "anna@example.com", "c-2", "pay_2")).await.unwrap(),
        "one client per email"
    );
    assert!(
        !tx.add_shop_customer(&customer("acc-1", "boris@example.com", "c-1", "pay_3")).await.unwrap(),
        "one email per client"
    );
    assert!(tx.add_shop_customer(&customer("acc-2", "anna@example.com", "c-3", "pay_4")).await.unwrap(), "per account");
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.shop_customer("acc-1", "anna@example.com").await.unwrap(), Some(anna.clone()));
    assert_eq!(tx.shop_customer_of_client("c-1").await.unwrap(), Some(anna));
    assert_eq!(tx.shop_customer("acc-1", "boris@example.com").await.unwrap(), None);
    assert_eq!(tx.shop_customer_of_client("c-2").await.unwrap(), None);
    tx.commit().await.unwrap();
}

async fn a_shop_customer_linked_by_a_trial_has_no_first_payment_and_the_trial_is_known(ctx: Ctx) {
    seed(&ctx.store, "acc-1").await;
    let mut tx = begin(&ctx.store).await;
    tx.insert_client(&client("c-1", "acc-1", "c-1", at(0))).await.unwrap();
    assert!(!tx.had_trial("c-1").await.unwrap());
    tx.insert_trial_grant("acc-1", "c-1", at(1)).await.unwrap();
    let vera = vp_ports::ShopCustomer {
        account_id: AccountId::issued("acc-1".into()),
        email: "vera@example.com".into(),
        client_ref: cref("c-1"),
        lang: vp_domain::Lang::En,
        first_payment_id: None,
        created_at: at(1),
    };
    assert!(tx.add_shop_customer(&vera).await.unwrap());
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.shop_customer_of_client("c-1").await.unwrap(), Some(vera));
    assert!(tx.had_trial("c-1").await.unwrap());
    assert!(!tx.had_trial("c-2").await.unwrap(), "a client never seen had none");
    tx.commit().await.unwrap();
}

async fn a_newer_shop_sign_in_code_spends_the_older_and_sessions_are_kept_until_pruned(ctx: Ctx) {
    seed(&ctx.store, "acc-1").await;
    let code = |id: &str, t: i64, source: &str| vp_ports::ShopSignIn {
        id: id.into(),
        account_id: AccountId::issued("acc-1".into()),
        email: "anna@example.com".into(),
        code_hash: format!("code-{id}"),
        link_hash: format!("link-{id}"),
        source: source.into(),
        tries_left: 5,
        created_at: at(t),
        expires_at: at(t + 600),
        used_at: None,
    };
    let mut tx = begin(&ctx.store).await;
    tx.insert_shop_sign_in(&code("ssi_1", 1, "10.0.0.1")).await.unwrap();
    tx.insert_shop_sign_in(&code("ssi_2", 2, "10.0.0.2")).await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    let latest = tx.latest_shop_sign_in("acc-1", "anna@example.com").await.unwrap().unwrap();
    assert_eq!(latest, code("ssi_2", 2, "10.0.0.2"));
    let first = tx.shop_sign_in_by_link("link-ssi_1").await.unwrap().unwrap();
    assert_eq!(first.tries_left, 0, "a newer code spends the older");
    assert_eq!(tx.shop_sign_ins_since("acc-1", "anna@example.com", "10.0.0.1", at(0)).await.unwrap(), (2, 1));
    assert_eq!(tx.shop_sign_ins_since("acc-1", "anna@example.com", "10.0.0.1", at(2)).await.unwrap(), (1, 0));
    let used = vp_ports::ShopSignIn { tries_left: 3, used_at: Some(at(3)), ..latest };
    tx.update_shop_sign_in(&used).await.unwrap();
    assert_eq!(tx.shop_sign_in_by_link("link-ssi_2").await.unwrap(), Some(used));
    assert_eq!(tx.latest_shop_sign_in("acc-1", "boris@example.com").await.unwrap(), None);

    let session = vp_ports::ShopSession {
        token_hash: "th-1".into(),
        account_id: AccountId::issued("acc-1".into()),
        email: "anna@example.com".into(),
        csrf_token: "csrf".into(),
        created_at: at(3),
        last_seen_at: at(3),
    };
    tx.insert_shop_session(&session).await.unwrap();
    tx.touch_shop_session("th-1", at(4)).await.unwrap();
    assert_eq!(tx.shop_session("th-1").await.unwrap().unwrap().last_seen_at, at(4));
    assert_eq!(tx.prune_shop_sign_ins(at(2), at(4), at(0)).await.unwrap(), 1, "the code made before 2");
    assert!(tx.shop_session("th-1").await.unwrap().is_some(), "a session seen at 4 stays");
    assert_eq!(tx.prune_shop_sign_ins(at(0), at(5), at(0)).await.unwrap(), 1, "idle since before 5");
    assert_eq!(tx.shop_session("th-1").await.unwrap(), None);
    tx.insert_shop_session(&session).await.unwrap();
    tx.delete_shop_session("th-1").await.unwrap();
    assert_eq!(tx.shop_session("th-1").await.unwrap(), None);
    tx.commit().await.unwrap();
}
