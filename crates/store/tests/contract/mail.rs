//! The mail outbox (`MailRepo`).

use super::*;

contract_tests!(mail_is_queued_claimed_by_one_worker_and_kept_as_sent,);

async fn mail_is_queued_claimed_by_one_worker_and_kept_as_sent(ctx: Ctx) {
    seed(&ctx.store, "acc-1").await;
    let mail = |id: &str, due: i64| vp_ports::MailRecord {
        id: vp_domain::MailId::issued(id.into()),
        account_id: Some("acc-1".into()),
        to: "buyer@example.com".into(),
        lang: vp_domain::Lang::Ru,
        content: vp_ports::MailContent::CabinetInvitation {
            link: "https://vpn.example/cabinet/invitation/t".into(),
            expires_at: at(3600),
            reset: true,
        },
        created_at: at(0),
        attempts: 0,
        next_attempt_at: Some(at(due)),
        sent_at: None,
        given_up_at: None,
        last_error: None,
    };
    let mut tx = begin(&ctx.store).await;
    tx.insert_mail(&mail("mail_b", 5)).await.unwrap();
    tx.insert_mail(&mail("mail_a", 5)).await.unwrap();
    tx.insert_mail(&mail("mail_later", 60)).await.unwrap();
    tx.commit().await.unwrap();
    let claim = |now: i64| Claim { now: at(now), lease_until: at(now + 120), limit: 10 };
    let mut tx = begin(&ctx.store).await;
    let taken = tx.claim_mail(claim(10)).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(taken.iter().map(|m| m.id.as_str()).collect::<Vec<_>>(), ["mail_a", "mail_b"], "due ones, in order");
    assert_eq!(taken[0], mail("mail_a", 5), "every field round-trips");
    let mut tx = begin(&ctx.store).await;
    assert!(tx.claim_mail(claim(11)).await.unwrap().is_empty(), "held by the first worker");
    let mut sent = taken[0].clone();
    (sent.attempts, sent.sent_at, sent.next_attempt_at) = (1, Some(at(12)), None);
    tx.update_mail(&sent).await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    let again = tx.claim_mail(claim(200)).await.unwrap();
    assert_eq!(again.iter().map(|m| m.id.as_str()).collect::<Vec<_>>(), ["mail_later", "mail_b"], "a lease runs out");
    assert_eq!(tx.mail("mail_a").await.unwrap(), Some(sent));
    assert_eq!(tx.mail("mail_none").await.unwrap(), None);
    tx.commit().await.unwrap();
}
