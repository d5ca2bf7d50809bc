//! Partners' bots, their updates, customers and chats (`BotRepo`, `BotCustomerRepo`,
//! `CustomerChatRepo`).

use super::*;
use vp_domain::AccountId;

contract_tests!(
    a_bot_update_is_claimed_once_and_forgotten_when_old,
    customers_link_a_chat_once_per_client_and_a_chat_holds_a_family,
    bot_customers_are_counted_from_their_start_and_device_lists_replace_each_other,
    a_bot_create_code_is_its_first_openers_until_it_expires_or_is_deleted,
    partner_bots_are_one_per_account_with_unique_bots_and_tokens,
    a_persons_further_subscriptions_are_kept_by_position_renamed_in_place_and_found_by_client,
);

async fn a_persons_further_subscriptions_are_kept_by_position_renamed_in_place_and_found_by_client(ctx: Ctx) {
    seed(&ctx.store, "acc-1").await;
    seed(&ctx.store, "acc-2").await;
    let further =
        |account: &str, position: u32, client: &str, name: Option<&str>, t: i64| vp_ports::PersonSubscription {
            account_id: vp_domain::AccountId::issued(account.into()),
            user_id: 42,
            position,
            client_id: cid(client),
            name: name.map(str::to_owned),
            asked_at: at(t),
        };
    let mut tx = begin(&ctx.store).await;
    tx.put_person_subscription(&further("acc-1", 2, "telegram:42:3", Some("Mum"), 2)).await.unwrap();
    tx.put_person_subscription(&further("acc-1", 1, "telegram:42:2", None, 1)).await.unwrap();
    tx.put_person_subscription(&further("acc-2", 1, "telegram:42:2", Some("Phone"), 1)).await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    let router = further("acc-1", 1, "telegram:42:2", Some("Router"), 5);
    tx.put_person_subscription(&router).await.unwrap();
    let mum = further("acc-1", 2, "telegram:42:3", Some("Mum"), 2);
    assert_eq!(tx.person_subscriptions("acc-1", 42).await.unwrap(), [router.clone(), mum.clone()], "by position");
    assert_eq!(tx.person_subscriptions("acc-1", 43).await.unwrap(), []);
    assert_eq!(tx.person_subscription_of_client("acc-1", "telegram:42:3").await.unwrap(), Some(mum));
    assert_eq!(tx.person_subscription_of_client("acc-1", "telegram:42").await.unwrap(), None, "the first has no row");
    let asked_again = further("acc-1", 1, "telegram:42:2", None, 9);
    tx.put_person_subscription(&asked_again).await.unwrap();
    assert_eq!(tx.person_subscription_of_client("acc-1", "telegram:42:2").await.unwrap(), Some(asked_again));
    tx.commit().await.unwrap();
}

async fn a_bot_update_is_claimed_once_and_forgotten_when_old(ctx: Ctx) {
    let mut tx = begin(&ctx.store).await;
    assert!(tx.claim_bot_update(111, 7, at(10)).await.unwrap());
    assert!(!tx.claim_bot_update(111, 7, at(11)).await.unwrap(), "a redelivery");
    assert!(tx.claim_bot_update(222, 7, at(11)).await.unwrap(), "numbered per bot");
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    assert!(tx.claim_bot_update(111, 8, at(12)).await.unwrap());
    tx.rollback().await.unwrap();
    // Two instances receive the same update at once: one handles it (the rolled-back claim
    // above did not count).
    let claim = |store: Arc<dyn Store>| async move {
        let mut tx = store.begin().await.unwrap();
        let claimed = tx.claim_bot_update(111, 8, at(13)).await.unwrap();
        tx.commit().await.unwrap();
        claimed
    };
    let (first, second) = tokio::join!(claim(ctx.store.clone()), claim(ctx.store.clone()));
    assert!(first ^ second, "exactly one: {first} / {second}");
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.prune_bot_updates(at(12)).await.unwrap(), 2);
    assert!(!tx.claim_bot_update(111, 8, at(20)).await.unwrap(), "the newer one is kept");
    tx.commit().await.unwrap();
}

async fn customers_link_a_chat_once_per_client_and_a_chat_holds_a_family(ctx: Ctx) {
    let mut tx = begin(&ctx.store).await;
    tx.insert_account(&account("acc-1")).await.unwrap();
    for id in ["c-mum", "c-dad"] {
        tx.insert_client(&client(id, "acc-1", &id[2..], at(0))).await.unwrap();
    }
    let code = ClientLinkCode { code_hash: "h-1".into(), client_ref: cref("c-mum"), expires_at: at(100) };
    tx.insert_client_link_code(&code).await.unwrap();
    tx.insert_client_link_code(&ClientLinkCode { code_hash: "h-old".into(), expires_at: at(5), ..code.clone() })
        .await
        .unwrap();
    assert_eq!(tx.take_client_link_code("h-1").await.unwrap(), Some(code));
    assert_eq!(tx.take_client_link_code("h-1").await.unwrap(), None, "a code works once");
    assert_eq!(tx.prune_client_link_codes(at(10)).await.unwrap(), 1);
    assert_eq!(tx.take_client_link_code("h-old").await.unwrap(), None);

    let linked = |client_ref: &str, chat_id: i64, s: i64| ClientChat {
        client_ref: cref(client_ref),
        account_id: AccountId::issued("acc-1".into()),
        chat_id,
        linked_at: at(s),
    };
    tx.link_client_chat(&linked("c-mum", 77, 1)).await.unwrap();
    tx.link_client_chat(&linked("c-dad", 77, 2)).await.unwrap();
    let family: Vec<ClientRef> =
        tx.chat_clients("acc-1", 77).await.unwrap().into_iter().map(|c| c.client_ref).collect();
    assert_eq!(family, ["c-mum", "c-dad"], "oldest link first");
    tx.link_client_chat(&linked("c-dad", 78, 3)).await.unwrap();
    assert_eq!(tx.client_chat("c-dad").await.unwrap(), Some(linked("c-dad", 78, 3)), "a client is in one chat");
    let mut chats = tx.client_chats(&[cref("c-dad"), cref("c-mum"), cref("c-none")]).await.unwrap();
    chats.sort_by(|a, b| a.client_ref.cmp(&b.client_ref));
    assert_eq!(chats, [linked("c-dad", 78, 3), linked("c-mum", 77, 1)], "the chats of several clients at once");
    assert_eq!(tx.chat_clients("acc-1", 77).await.unwrap().len(), 1);
    assert_eq!(tx.unlink_chat("acc-1", 77).await.unwrap(), 1);
    assert_eq!(tx.client_chat("c-mum").await.unwrap(), None);

    assert_eq!(tx.chat_language("acc-1", 77).await.unwrap(), None);
    tx.set_chat_language("acc-1", 77, vp_domain::Lang::Ru).await.unwrap();
    tx.set_chat_language("acc-1", 77, vp_domain::Lang::En).await.unwrap();
    assert_eq!(tx.chat_language("acc-1", 77).await.unwrap(), Some(vp_domain::Lang::En));
    tx.commit().await.unwrap();
}

async fn bot_customers_are_counted_from_their_start_and_device_lists_replace_each_other(ctx: Ctx) {
    let mut tx = begin(&ctx.store).await;
    tx.insert_account(&account("acc-1")).await.unwrap();
    tx.insert_account(&account("acc-2")).await.unwrap();
    assert!(tx.touch_bot_customer("acc-1", 501, 501, at(10)).await.unwrap(), "the first touch is the start");
    assert!(!tx.touch_bot_customer("acc-1", 501, 501, at(20)).await.unwrap());
    assert!(tx.touch_bot_customer("acc-1", 502, 502, at(30)).await.unwrap());
    assert!(tx.touch_bot_customer("acc-2", 501, 501, at(30)).await.unwrap(), "by account");
    let seen = tx.bot_customers("acc-1", &[501, 999]).await.unwrap();
    let started = BotCustomer {
        account_id: AccountId::issued("acc-1".into()),
        user_id: 501,
        chat_id: 501,
        started_at: at(10),
        last_seen_at: at(20),
        client_ref: None,
        receipt_email: None,
        promo_code: None,
        promo_asked_at: None,
    };
    assert_eq!(seen, std::slice::from_ref(&started));
    tx.set_bot_customer_promo("acc-1", 501, Some("SPRING"), Some(at(21))).await.unwrap();
    let with_promo = tx.bot_customers("acc-1", &[501]).await.unwrap();
    assert_eq!((with_promo[0].promo_code.as_deref(), with_promo[0].promo_asked_at), (Some("SPRING"), Some(at(21))));
    tx.set_bot_customer_promo("acc-1", 501, None, None).await.unwrap();
    assert_eq!(tx.bot_customers("acc-1", &[501]).await.unwrap(), std::slice::from_ref(&started), "cleared");
    // 501 paid twice since its start, 502 never; a partner's own clients do not count, even one
    // whose id looks like a bot customer's: only the link makes one.
    tx.insert_client(&client("c-501", "acc-1", "telegram:501", at(11))).await.unwrap();
    tx.insert_client(&client("c-own", "acc-1", "alice", at(11))).await.unwrap();
    tx.insert_client(&client("c-lookalike", "acc-1", "telegram:502", at(11))).await.unwrap();
    tx.link_bot_customer("acc-1", 501, "c-501").await.unwrap();
    tx.link_bot_customer("acc-1", 501, "c-own").await.unwrap();
    let linked = BotCustomer { client_ref: Some(cref("c-501")), ..started };
    assert_eq!(tx.bot_customers("acc-1", &[501]).await.unwrap(), std::slice::from_ref(&linked), "the first link stays");
    assert_eq!(tx.bot_customer_of_client("c-501").await.unwrap(), Some(linked));
    assert_eq!(tx.bot_customer_of_client("c-lookalike").await.unwrap(), None);
    tx.set_bot_customer_email("acc-1", 501, "buyer@example.com").await.unwrap();
    let with_email = tx.bot_customers("acc-1", &[501]).await.unwrap().remove(0);
    assert_eq!(with_email.receipt_email.as_deref(), Some("buyer@example.com"));
    assert_eq!(tx.bot_customers("acc-2", &[501]).await.unwrap()[0].receipt_email, None, "by account");
    // A named further subscription of the person is a bot customer's too; one still unnamed is not.
    for (position, client_id, name) in [(1, "telegram:501:2", Some("Router")), (2, "telegram:501:3", None)] {
        let further = vp_ports::PersonSubscription {
            account_id: vp_domain::AccountId::issued("acc-1".into()),
            user_id: 501,
            position,
            client_id: cid(client_id),
            name: name.map(str::to_owned),
            asked_at: at(12),
        };
        tx.put_person_subscription(&further).await.unwrap();
    }
    let among = ["telegram:501".to_owned(), "telegram:502".to_owned(), "alice".to_owned(), "telegram:501:2".to_owned()];
    let mut found = tx.bot_customers_among("acc-1", &among).await.unwrap();
    found.sort();
    assert_eq!(found, ["telegram:501", "telegram:501:2"]);
    let unnamed = ["telegram:501:3".to_owned()];
    assert!(tx.bot_customers_among("acc-1", &unnamed).await.unwrap().is_empty());
    assert!(tx.bot_customers_among("acc-2", &among).await.unwrap().is_empty(), "by account");
    // The router's client (a further subscription of 501) paid once too.
    tx.insert_client(&client("c-501-router", "acc-1", "telegram:501:2", at(13))).await.unwrap();
    let paid_by = [
        ("pay_1", "c-501"),
        ("pay_2", "c-501"),
        ("pay_3", "c-own"),
        ("pay_4", "c-lookalike"),
        ("pay_5", "c-501-router"),
    ];
    for (id, client_ref) in paid_by {
        let mut paid = invoice(id, "acc-1", client_ref, Purpose::Subscription { plan_id: 1 });
        paid.status = InvoiceStatus::Succeeded;
        paid.paid_at = Some(at(40));
        tx.insert_invoice(&paid).await.unwrap();
    }
    tx.link_client_chat(&ClientChat {
        client_ref: cref("c-501"),
        account_id: AccountId::issued("acc-1".into()),
        chat_id: 501,
        linked_at: at(12),
    })
    .await
    .unwrap();
    let stats = tx.bot_stats("acc-1", at(0)).await.unwrap();
    assert_eq!(stats, BotStats { started: 2, linked: 1, purchases: 3, started_and_paid: 1 });
    let later = tx.bot_stats("acc-1", at(25)).await.unwrap();
    assert_eq!((later.started, later.purchases, later.started_and_paid), (1, 3, 0), "only what happened since");

    assert_eq!(tx.device_list("acc-1", 501).await.unwrap(), None);
    let list = BotDeviceList {
        account_id: AccountId::issued("acc-1".into()),
        chat_id: 501,
        nonce: "n1".into(),
        device_ids: vec!["hw-1".into(), "hw:2".into()],
        listed_at: at(50),
    };
    tx.save_device_list(&list).await.unwrap();
    let newer = BotDeviceList { nonce: "n2".into(), device_ids: vec![], listed_at: at(60), ..list.clone() };
    tx.save_device_list(&newer).await.unwrap();
    assert_eq!(tx.device_list("acc-1", 501).await.unwrap(), Some(newer), "a chat has one current list");
    tx.commit().await.unwrap();
}

async fn a_bot_create_code_is_its_first_openers_until_it_expires_or_is_deleted(ctx: Ctx) {
    let code = |hash: &str, expires: i64| BotCreateCode {
        code_hash: hash.into(),
        account_id: AccountId::issued("acc-1".into()),
        request_id: 7,
        requested_by_user: None,
        requested_by: "operator".into(),
        lang: vp_domain::Lang::Ru,
        expires_at: at(expires),
        opened_by: None,
    };
    let mut tx = begin(&ctx.store).await;
    tx.insert_account(&account("acc-1")).await.unwrap();
    tx.insert_bot_create_code(&code("older", 50)).await.unwrap();
    tx.insert_bot_create_code(&code("newer", 60)).await.unwrap();
    assert_eq!(tx.bot_create_code("newer").await.unwrap(), Some(code("newer", 60)));
    assert_eq!(tx.bot_create_code_opened_by(42, at(10)).await.unwrap(), None, "opened by nobody yet");
    tx.open_bot_create_code("older", 42).await.unwrap();
    tx.open_bot_create_code("newer", 42).await.unwrap();
    tx.open_bot_create_code("newer", 43).await.unwrap();
    assert_eq!(tx.bot_create_code("newer").await.unwrap().unwrap().opened_by, Some(42), "the first opener's");
    assert_eq!(tx.bot_create_code_opened_by(43, at(10)).await.unwrap(), None);
    let newest = tx.bot_create_code_opened_by(42, at(10)).await.unwrap().unwrap();
    assert_eq!((newest.code_hash.as_str(), newest.lang, newest.request_id), ("newer", vp_domain::Lang::Ru, 7));
    assert_eq!(tx.bot_create_code_opened_by(42, at(55)).await.unwrap().unwrap().code_hash, "newer");
    assert_eq!(tx.bot_create_code_opened_by(42, at(60)).await.unwrap(), None, "expired");
    assert!(tx.delete_bot_create_code("newer").await.unwrap());
    assert!(!tx.delete_bot_create_code("newer").await.unwrap(), "used once");
    assert_eq!(tx.bot_create_code_opened_by(42, at(10)).await.unwrap().unwrap().code_hash, "older");
    assert_eq!(tx.prune_bot_create_codes(at(51)).await.unwrap(), 1);
    assert_eq!(tx.bot_create_code("older").await.unwrap(), None);
    tx.commit().await.unwrap();
}

async fn partner_bots_are_one_per_account_with_unique_bots_and_tokens(ctx: Ctx) {
    let bot = |account: &str, bot_id: i64, hash: &str| PartnerBotRecord {
        managed: bot_id == 111,
        ..PartnerBotRecord::connected(
            AccountId::issued(account.into()),
            bot_id,
            format!("bot{bot_id}"),
            (hash.into(), format!("v1.00000000.sealed-{hash}")),
            at(10),
        )
    };
    let mut tx = begin(&ctx.store).await;
    tx.insert_account(&account("acc-1")).await.unwrap();
    tx.insert_account(&account("acc-2")).await.unwrap();
    tx.insert_partner_bot(&bot("acc-1", 111, "hash-a")).await.unwrap();
    assert!(tx.partner_bot("acc-1").await.unwrap().unwrap().managed, "kept as the platform's bot created it");
    tx.commit().await.unwrap();

    for (clash, what) in
        [(bot("acc-2", 111, "hash-b"), "the same bot"), (bot("acc-2", 222, "hash-a"), "the same token")]
    {
        let mut tx = begin(&ctx.store).await;
        assert!(is_conflict(&tx.insert_partner_bot(&clash).await), "{what} on another account");
        tx.rollback().await.unwrap();
    }
    let mut tx = begin(&ctx.store).await;
    assert!(is_conflict(&tx.insert_partner_bot(&bot("acc-1", 333, "hash-c")).await), "one bot per account");
    tx.rollback().await.unwrap();

    let mut tx = begin(&ctx.store).await;
    assert_eq!(
        tx.partner_bot_by_token("hash-a", 0).await.unwrap().map(|b| b.account_id),
        Some(AccountId::issued("acc-1".into()))
    );
    assert_eq!(tx.partner_bot_by_token("other", 111).await.unwrap().map(|b| b.bot_id), Some(111));
    assert_eq!(tx.partner_bot_by_token("other", 0).await.unwrap(), None);
    tx.commit().await.unwrap();
    // A profile sync owed: claimed by one of two claimers at once (held for the lease),
    // deferred, then marked synced.
    let claim = |store: Arc<dyn Store>| async move {
        let mut tx = store.begin().await.unwrap();
        let got = tx.claim_bot_profiles(at(10), at(70), 10).await.unwrap();
        tx.commit().await.unwrap();
        got.into_iter().map(|b| b.account_id).collect::<Vec<_>>()
    };
    let (a, b) = tokio::join!(claim(ctx.store.clone()), claim(ctx.store.clone()));
    assert_eq!([a.clone(), b.clone()].concat(), ["acc-1"], "claimed by exactly one: {a:?} / {b:?}");
    let mut tx = begin(&ctx.store).await;
    assert!(tx.claim_bot_profiles(at(11), at(71), 10).await.unwrap().is_empty(), "held until the lease ends");
    tx.defer_bot_profile("acc-1", at(100), "Telegram did not answer").await.unwrap();
    let deferred = tx.partner_bot("acc-1").await.unwrap().unwrap();
    assert_eq!((deferred.profile_attempts, deferred.profile_retry_at), (1, Some(at(100))));
    assert!(tx.claim_bot_profiles(at(99), at(159), 10).await.unwrap().is_empty());
    assert_eq!(tx.claim_bot_profiles(at(100), at(160), 10).await.unwrap().len(), 1);
    assert!(tx.bump_bot_profile("acc-1").await.unwrap(), "the brand changed meanwhile");
    tx.mark_bot_profile_synced("acc-1", 1).await.unwrap();
    let behind = tx.partner_bot("acc-1").await.unwrap().unwrap();
    assert_eq!((behind.profile_revision, behind.profile_synced, behind.profile_in_sync()), (2, 1, false));
    assert_eq!((behind.profile_attempts, behind.profile_error), (0, None));
    tx.mark_bot_profile_synced("acc-1", 2).await.unwrap();
    tx.mark_bot_profile_synced("acc-1", 1).await.unwrap();
    assert!(tx.partner_bot("acc-1").await.unwrap().unwrap().profile_in_sync(), "never lowered");
    assert!(!tx.bump_bot_profile("acc-2").await.unwrap(), "no bot, nothing to show");

    let hook = vp_ports::WebhookRegistration::Webhook {
        url: "https://vpn.example/telegram/111/updates".into(),
        key_id: "0a1b2c3d".into(),
        kinds: vp_ports::bots::UPDATE_KINDS,
    };
    tx.set_partner_bot_webhook("acc-1", Some(&hook)).await.unwrap();
    let hooked = tx.partner_bot_by_id(111).await.unwrap().unwrap();
    assert_eq!((hooked.account_id.as_str(), hooked.webhook.as_ref()), ("acc-1", Some(&hook)));
    assert_eq!(tx.partner_bot_by_id(222).await.unwrap(), None);
    let mut revoked = tx.partner_bot("acc-1").await.unwrap().unwrap();
    revoked.disconnected_at = Some(at(20));
    tx.update_partner_bot(&revoked).await.unwrap();
    assert_eq!(tx.partner_bot("acc-1").await.unwrap(), Some(revoked.clone()));
    assert_eq!(tx.partner_bots().await.unwrap(), vec![revoked]);
    assert!(tx.delete_partner_bot("acc-1").await.unwrap());
    assert!(!tx.delete_partner_bot("acc-1").await.unwrap());
    assert_eq!(tx.partner_bot("acc-1").await.unwrap(), None);
    tx.commit().await.unwrap();
}
