//! Notices to partners, their sends and linked chats (`NoticeRepo`).

use super::*;
use vp_domain::AccountId;
use vp_domain::EndpointId;

contract_tests!(notices_their_sends_and_linked_chats,);

async fn notices_their_sends_and_linked_chats(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    let mut tx = begin(s).await;
    let disabled = NoticeRecord {
        id: "ntc-1".into(),
        account_id: AccountId::issued("acc-a".into()),
        kind: NoticeKind::EndpointDisabled {
            endpoint_id: EndpointId::issued("we-1".into()),
            url: "https://a.example/h".into(),
            reason: "gone".into(),
        },
        created_at: at(1),
    };
    let paid = NoticeRecord {
        id: "ntc-2".into(),
        account_id: AccountId::issued("acc-a".into()),
        kind: NoticeKind::WithdrawalPaid { withdrawal_id: "wd-1".into(), amount: Money::from_kopecks(99) },
        created_at: at(2),
    };
    tx.insert_notice(&disabled).await.unwrap();
    tx.insert_notice(&paid).await.unwrap();
    assert_eq!(tx.notices("acc-a", None, 10).await.unwrap(), vec![paid.clone(), disabled.clone()]);
    assert_eq!(
        tx.notices("acc-a", Some(Cursor { at: paid.created_at, id: paid.id.clone() }), 10).await.unwrap(),
        vec![disabled.clone()]
    );
    assert_eq!(tx.notice("ntc-2").await.unwrap(), Some(paid));
    let bot = NoticeRecord {
        id: "ntc-3".into(),
        account_id: AccountId::issued("acc-a".into()),
        kind: NoticeKind::BotDisconnected { bot_id: 5550001, username: "fast_vpn_bot".into() },
        created_at: at(3),
    };
    tx.insert_notice(&bot).await.unwrap();
    assert_eq!(tx.notice("ntc-3").await.unwrap(), Some(bot));

    let chat = PartnerChat {
        account_id: AccountId::issued("acc-a".into()),
        chat_id: -100_123_456_789,
        linked_by: "a@example.com".into(),
        lang: vp_domain::Lang::Ru,
        linked_at: at(0),
    };
    tx.insert_partner_chat(&chat).await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(s).await;
    assert!(is_conflict(&tx.insert_partner_chat(&chat).await), "a chat is linked once per account");
    tx.rollback().await.unwrap();

    let mut tx = begin(s).await;
    assert_eq!(tx.partner_chats("acc-a").await.unwrap(), vec![chat.clone()]);
    let send = NoticeSend {
        notice_id: "ntc-1".into(),
        chat_id: chat.chat_id,
        attempts: 0,
        next_attempt_at: Some(at(1)),
        sent_at: None,
        last_error: None,
    };
    tx.insert_notice_sends(std::slice::from_ref(&send)).await.unwrap();
    assert!(tx.notice_sends_due(at(0), 10).await.unwrap().is_empty(), "not due yet");
    assert_eq!(tx.notice_sends_due(at(1), 10).await.unwrap(), vec![send.clone()]);
    assert!(tx.claim_notice_send(&send, at(120)).await.unwrap(), "the first claim takes it");
    assert!(!tx.claim_notice_send(&send, at(120)).await.unwrap(), "a second claim with the old time does not");
    assert!(tx.notice_sends_due(at(60), 10).await.unwrap().is_empty(), "claimed for the lease");
    let done = NoticeSend { attempts: 1, next_attempt_at: None, sent_at: Some(at(5)), ..send };
    tx.update_notice_send(&done).await.unwrap();
    assert!(tx.notice_sends_due(at(10_000), 10).await.unwrap().is_empty(), "a sent one is never due");

    let user = CabinetUser {
        id: vp_domain::CabinetUserId::issued("cu-1".into()),
        account_id: AccountId::issued("acc-a".into()),
        email: "a@example.com".into(),
        password_hash: None,
        created_at: at(0),
        revoked_at: None,
    };
    tx.insert_cabinet_user(&user).await.unwrap();
    let code = ChatLinkCode {
        code_hash: "h1".into(),
        account_id: AccountId::issued("acc-a".into()),
        user_id: "cu-1".into(),
        linked_by: "a@example.com".into(),
        lang: vp_domain::Lang::En,
        expires_at: at(3600),
    };
    tx.insert_chat_link_code(&code).await.unwrap();
    assert_eq!(tx.take_chat_link_code("h1").await.unwrap(), Some(code.clone()));
    assert_eq!(tx.take_chat_link_code("h1").await.unwrap(), None, "a code works once");
    tx.insert_chat_link_code(&code).await.unwrap();
    assert_eq!(tx.prune_chat_link_codes(at(3600)).await.unwrap(), 0, "not expired before its time");
    assert_eq!(tx.prune_chat_link_codes(at(3601)).await.unwrap(), 1);
    assert!(tx.delete_partner_chat("acc-a", chat.chat_id).await.unwrap());
    assert!(!tx.delete_partner_chat("acc-a", chat.chat_id).await.unwrap());
    tx.commit().await.unwrap();
}
