//! Accounts and their API keys (`AccountRepo`).

use super::*;
use vp_domain::AccountId;

contract_tests!(accounts_and_api_keys_round_trip,);

async fn accounts_and_api_keys_round_trip(ctx: Ctx) {
    let s = &ctx.store;
    let mut tx = begin(s).await;
    let mut a = account("acc-a");
    let mut b = account("acc-b");
    b.created_at = at(-10);
    b.limits = LimitOverrides::default();
    tx.insert_account(&a).await.unwrap();
    tx.insert_account(&b).await.unwrap();
    tx.lock_account("acc-a").await.unwrap();
    tx.lock_account("missing").await.unwrap();
    assert_eq!(tx.account("acc-a").await.unwrap(), Some(a.clone()));
    assert_eq!(tx.account("missing").await.unwrap(), None);
    assert_eq!(tx.accounts().await.unwrap(), vec![b.clone(), a.clone()], "ordered by created_at");

    a.brand_name = BrandName::parse("Other Brand").unwrap();
    a.markup = MarkupPercent::from_basis_points(0).unwrap();
    a.trial_enabled = false;
    a.api_enabled = false;
    a.limits =
        LimitOverrides { payments_per_minute: Some(5), new_clients_per_day: Some(9), ..LimitOverrides::default() };
    a.style = vp_ports::AccountStyle {
        logo_url: None,
        accent_color: Some("#7a1fa2".into()),
        support_url: Some("https://t.me/brand_support".into()),
    };
    tx.update_account(&a).await.unwrap();
    assert_eq!(tx.account("acc-a").await.unwrap(), Some(a.clone()));

    let key = |id: &str, hash: &str, created: i64| ApiKeyRecord {
        id: vp_domain::ApiKeyId::issued(id.into()),
        account_id: AccountId::issued("acc-a".into()),
        key_hash: hash.into(),
        prefix: "vp_live_ab".into(),
        created_at: at(created),
        revoked_at: None,
    };
    tx.insert_api_key(&key("k2", "hash-2", 5)).await.unwrap();
    tx.insert_api_key(&key("k1", "hash-1", 1)).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    assert_eq!(tx.api_key("k1").await.unwrap(), Some(key("k1", "hash-1", 1)));
    assert_eq!(tx.api_keys("acc-a").await.unwrap(), vec![key("k1", "hash-1", 1), key("k2", "hash-2", 5)]);
    assert_eq!(tx.api_keys("acc-b").await.unwrap(), vec![]);
    assert!(tx.revoke_api_key("k1", at(100)).await.unwrap());
    assert!(!tx.revoke_api_key("k1", at(200)).await.unwrap(), "already revoked");
    assert!(!tx.revoke_api_key("missing", at(200)).await.unwrap());
    let revoked = tx.api_key("k1").await.unwrap().unwrap();
    assert_eq!(revoked.revoked_at, Some(at(100)), "the first revocation time stays");
    tx.commit().await.unwrap();

    // Lookup by hash (the only one authentication uses) outside a unit of work: key and
    // account in one statement.
    let (k, acc) = s.account_by_key_hash("hash-2").await.unwrap().expect("key found");
    assert_eq!((k, acc), (key("k2", "hash-2", 5), a.clone()));
    let (k, _) = s.account_by_key_hash("hash-1").await.unwrap().expect("revoked keys are still found");
    assert_eq!(k.revoked_at, Some(at(100)));
    assert_eq!(s.account_by_key_hash("nope").await.unwrap(), None);

    let mut tx = begin(s).await;
    let mut dup = key("k3", "hash-2", 9);
    dup.account_id = AccountId::issued("acc-b".into());
    assert!(is_conflict(&tx.insert_api_key(&dup).await), "key hashes are unique");
    tx.rollback().await.unwrap();
}
