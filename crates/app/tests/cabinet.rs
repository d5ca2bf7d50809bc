//! The cabinet's sign-in rules on a real SQLite store with a hand-moved clock: invitations,
//! passwords, the lockout, session lifetimes, revocation and the activity log.

use crate::support;

use support::World;
use time::Duration;
use vp_app::AppError;
use vp_app::cabinet::{SignInRefusal, SignedIn};
use vp_ports::CabinetLinkPurpose;
use vp_ports::Cursor;

const PASSWORD: &str = "a long enough phrase";
const ADDRESS: &str = "203.0.113.7";

fn token_of(link: &str) -> &str {
    link.rsplit('/').next().unwrap()
}

/// An invited user who set `PASSWORD`; returns the first session.
async fn member(w: &World, email: &str) -> SignedIn {
    let invitation = w.app.cabinet_access.invite_user(&w.account.id, email, vp_domain::Lang::En).await.unwrap();
    // Entries of one instant have no order among them; the activity test reads the order.
    w.clock.advance(Duration::seconds(1));
    w.app.cabinet_access.set_password(token_of(&invitation.link), PASSWORD).await.unwrap()
}

async fn sign_in(w: &World, email: &str, password: &str, address: &str) -> Result<SignedIn, SignInRefusal> {
    w.app.cabinet_access.sign_in(email, password, address).await.unwrap()
}

#[tokio::test]
async fn an_invitation_link_sets_the_password_once_and_signs_the_person_in() {
    let w = World::new().await;
    let invitation =
        w.app.cabinet_access.invite_user(&w.account.id, "Partner@Example.com", vp_domain::Lang::En).await.unwrap();
    assert_eq!(invitation.purpose, CabinetLinkPurpose::Invite);
    assert_eq!(invitation.user.email, "partner@example.com", "emails are kept in lower case");
    assert!(invitation.link.starts_with("http://127.0.0.1:8080/cabinet/welcome/"));
    assert_eq!(invitation.expires_at, w.clock.now_for_test() + Duration::hours(72));
    let token = token_of(&invitation.link);

    let short = w.app.cabinet_access.set_password(token, "123456789").await.unwrap_err();
    assert!(matches!(short, AppError::Validation(ref f) if f.contains_key("password")), "{short:?}");
    assert!(w.app.cabinet_access.link(token).await.is_ok(), "a refused password does not spend the link");

    let signed_in = w.app.cabinet_access.set_password(token, PASSWORD).await.unwrap();
    let actor = w.app.cabinet_access.actor(&signed_in.token).await.unwrap().expect("signed in");
    assert_eq!(actor.account.id, w.account.id);
    assert_eq!(actor.csrf_token, signed_in.session.csrf_token);
    let again = w.app.cabinet_access.set_password(token, "another long phrase").await.unwrap_err();
    assert!(matches!(again, AppError::NotFound("link")), "a link works once: {again:?}");
    assert!(sign_in(&w, "partner@example.com", PASSWORD, ADDRESS).await.is_ok());
}

#[tokio::test]
async fn a_link_expires_after_72_hours_and_a_new_one_replaces_the_old() {
    let w = World::new().await;
    let first = w.app.cabinet_access.invite_user(&w.account.id, "a@example.com", vp_domain::Lang::En).await.unwrap();
    w.clock.advance(Duration::hours(72));
    assert!(matches!(w.app.cabinet_access.link(token_of(&first.link)).await, Err(AppError::NotFound(_))));
    let second = w.app.cabinet_access.invite_user(&w.account.id, "a@example.com", vp_domain::Lang::En).await.unwrap();
    assert_eq!(second.purpose, CabinetLinkPurpose::Invite, "no password yet: still an invitation");
    let third = w.app.cabinet_access.invite_user(&w.account.id, "a@example.com", vp_domain::Lang::En).await.unwrap();
    assert!(matches!(w.app.cabinet_access.link(token_of(&second.link)).await, Err(AppError::NotFound(_))));
    w.app.cabinet_access.set_password(token_of(&third.link), PASSWORD).await.unwrap();
    let reset = w.app.cabinet_access.invite_user(&w.account.id, "a@example.com", vp_domain::Lang::Ru).await.unwrap();
    assert_eq!(reset.purpose, CabinetLinkPurpose::Reset, "a user with a password gets a reset link");

    // Each link is mailed to the person in the language asked for, under the account's brand.
    w.app.mail.deliver_due(10).await.unwrap();
    let sent = w.mailer.sent.lock().unwrap().clone();
    assert_eq!(sent.len(), 4, "one message per link");
    let last = sent.iter().find(|m| m.id == reset.mail_id).expect("the reset link's message");
    assert_eq!((last.to.as_str(), last.from_name.as_str()), ("a@example.com", w.account.brand_name.as_str()));
    assert!(last.mail.text.contains(&reset.link), "{}", last.mail.text);
    assert!(last.mail.subject.contains("новый пароль"), "worded as a reset, in Russian: {}", last.mail.subject);
}

#[tokio::test]
async fn an_email_belongs_to_one_account() {
    let w = World::new().await;
    member(&w, "one@example.com").await;
    let (other, _) = w.app.operator.create_account(Some("Other"), "10", false).await.unwrap();
    let refused =
        w.app.cabinet_access.invite_user(&other.id, "ONE@example.com", vp_domain::Lang::En).await.unwrap_err();
    assert!(matches!(refused, AppError::Conflict(_)), "{refused:?}");
    let bad = w.app.cabinet_access.invite_user(&other.id, "not-an-email", vp_domain::Lang::En).await.unwrap_err();
    assert!(matches!(bad, AppError::Validation(ref f) if f.contains_key("email")));
}

#[tokio::test]
async fn a_wrong_password_and_an_unknown_email_are_the_same_refusal() {
    let w = World::new().await;
    member(&w, "p@example.com").await;
    assert_eq!(sign_in(&w, "p@example.com", "wrong password!", ADDRESS).await.unwrap_err(), SignInRefusal::Wrong);
    assert_eq!(sign_in(&w, "nobody@example.com", PASSWORD, ADDRESS).await.unwrap_err(), SignInRefusal::Wrong);
    assert!(sign_in(&w, " P@Example.com", PASSWORD, ADDRESS).await.is_ok(), "the email's case does not matter");
}

#[tokio::test]
async fn ten_failures_for_an_email_lock_it_for_fifteen_minutes_even_with_the_right_password() {
    let w = World::new().await;
    member(&w, "p@example.com").await;
    for i in 0..9 {
        let address = format!("198.51.100.{i}");
        assert_eq!(sign_in(&w, "p@example.com", "wrong password!", &address).await.unwrap_err(), SignInRefusal::Wrong);
        w.clock.advance(Duration::minutes(1));
    }
    let tenth = sign_in(&w, "p@example.com", "wrong password!", "198.51.100.9").await.unwrap_err();
    let until = w.clock.now_for_test() + Duration::minutes(15);
    assert_eq!(tenth, SignInRefusal::Locked { until }, "the tenth failure locks at once");
    assert_eq!(
        sign_in(&w, "p@example.com", PASSWORD, ADDRESS).await.unwrap_err(),
        SignInRefusal::Locked { until },
        "locked even for the right password, from another address"
    );
    w.clock.advance(Duration::minutes(15));
    assert!(sign_in(&w, "p@example.com", PASSWORD, ADDRESS).await.is_ok(), "the lock ends after 15 minutes");
}

#[tokio::test]
async fn ten_failures_from_one_address_lock_that_address_for_every_email() {
    let w = World::new().await;
    member(&w, "p@example.com").await;
    for i in 0..10 {
        let _ = sign_in(&w, &format!("guess{i}@example.com"), "whatever guess", ADDRESS).await;
    }
    assert!(matches!(sign_in(&w, "p@example.com", PASSWORD, ADDRESS).await, Err(SignInRefusal::Locked { .. })));
    assert!(sign_in(&w, "p@example.com", PASSWORD, "192.0.2.1").await.is_ok(), "other addresses still sign in");
}

#[tokio::test]
async fn past_20_sign_ins_a_minute_from_one_address_it_waits_out_the_minute() {
    let w = World::new().await;
    member(&w, "p@example.com").await;
    for n in 0..20 {
        assert!(sign_in(&w, "p@example.com", PASSWORD, ADDRESS).await.is_ok(), "attempt {n}");
    }
    let until = w.clock.now_for_test() + Duration::minutes(1);
    assert_eq!(
        sign_in(&w, "p@example.com", PASSWORD, ADDRESS).await.unwrap_err(),
        SignInRefusal::Locked { until },
        "the 21st attempt of the minute, even with the right password"
    );
    assert!(sign_in(&w, "p@example.com", PASSWORD, "192.0.2.1").await.is_ok(), "other addresses still sign in");
    w.clock.advance(Duration::minutes(1));
    assert!(sign_in(&w, "p@example.com", PASSWORD, ADDRESS).await.is_ok(), "and this one after the minute");
}

#[tokio::test]
async fn sessions_end_after_twelve_idle_hours_or_thirty_days_or_at_sign_out() {
    let w = World::new().await;
    let first = member(&w, "p@example.com").await;
    w.clock.advance(Duration::hours(12));
    assert!(w.app.cabinet_access.actor(&first.token).await.unwrap().is_none(), "12 idle hours end a session");

    let busy = sign_in(&w, "p@example.com", PASSWORD, ADDRESS).await.unwrap();
    assert_ne!(busy.token, first.token, "a new session id at every sign-in");
    for _ in 0..59 {
        w.clock.advance(Duration::hours(12) - Duration::minutes(1));
        assert!(w.app.cabinet_access.actor(&busy.token).await.unwrap().is_some());
    }
    w.clock.advance(Duration::hours(12));
    assert!(w.app.cabinet_access.actor(&busy.token).await.unwrap().is_none(), "30 days after sign-in, used or not");

    let last = sign_in(&w, "p@example.com", PASSWORD, ADDRESS).await.unwrap();
    let actor = w.app.cabinet_access.actor(&last.token).await.unwrap().unwrap();
    w.app.cabinet_access.sign_out(&actor).await.unwrap();
    assert!(w.app.cabinet_access.actor(&last.token).await.unwrap().is_none());
}

#[tokio::test]
async fn revoking_a_user_ends_their_sessions_and_their_sign_in() {
    let w = World::new().await;
    let session = member(&w, "p@example.com").await;
    let other = member(&w, "colleague@example.com").await;
    let user = w.app.cabinet_access.actor(&session.token).await.unwrap().unwrap().user;
    let (revoked, ended) = w.app.cabinet_access.revoke_user(&user.id).await.unwrap();
    assert!(revoked.revoked_at.is_some());
    assert_eq!(ended, 1);
    assert!(w.app.cabinet_access.actor(&session.token).await.unwrap().is_none());
    assert_eq!(sign_in(&w, "p@example.com", PASSWORD, ADDRESS).await.unwrap_err(), SignInRefusal::Wrong);
    assert!(w.app.cabinet_access.actor(&other.token).await.unwrap().is_some(), "other users of the account stay in");
    let users = w.app.cabinet_access.users(&w.account.id).await.unwrap();
    assert_eq!(users.len(), 2);
}

#[tokio::test]
async fn the_activity_log_says_who_did_what_newest_first() {
    let w = World::new().await;
    let session = member(&w, "p@example.com").await;
    let actor = w.app.cabinet_access.actor(&session.token).await.unwrap().unwrap();
    w.clock.advance(Duration::seconds(1));
    w.app.cabinet.rename_brand(&actor, "New Brand").await.unwrap();
    let refused = w.app.cabinet.rename_brand(&actor, "").await.unwrap_err();
    assert!(matches!(refused, AppError::Validation(ref f) if f.contains_key("brand_name")));
    assert_eq!(w.account().await.brand_name.as_str(), "New Brand");
    let log = w.app.cabinet.activity(&actor, None).await.unwrap();
    let seen: Vec<(&str, &str)> = log.iter().map(|e| (e.actor.as_str(), e.action.as_str())).collect();
    assert_eq!(
        seen,
        [
            ("p@example.com", "account.brand_renamed"),
            ("p@example.com", "user.password_set"),
            ("operator", "user.invited")
        ]
    );
    assert!(log[0].detail.ends_with("-> New Brand"), "{}", log[0].detail);
    let older = w.app.cabinet.activity(&actor, Some(Cursor { at: log[0].at, id: log[0].id.clone() })).await.unwrap();
    assert_eq!(older.len(), 2, "the cursor pages past the newest");
}

#[tokio::test]
async fn a_partners_promo_codes_are_its_own_another_accounts_person_neither_sees_nor_turns_them_off() {
    let w = World::new().await;
    let ours = w.actor(&w.account.id, "a@example.com").await;
    let (other, _) = w.app.operator.create_account(Some("Other"), "10", false).await.unwrap();
    let theirs = w.actor(&other.id, "b@example.com").await;
    let new = vp_app::promotions::NewPromo {
        code: "SPRING".into(),
        benefit: vp_domain::promo::Benefit::ExtraDays(7),
        max_uses: None,
        per_customer: 1,
        first_purchase_only: false,
        plans: None,
        last_day: None,
    };
    w.app.promotions.create((&ours).into(), new).await.unwrap();

    assert!(w.app.promotions.list((&theirs).into()).await.unwrap().is_empty());
    let refused = w
        .app
        .promotions
        .disable((&theirs).into(), &vp_domain::promo::PromoCode::parse("SPRING").unwrap())
        .await
        .unwrap_err();
    assert!(matches!(refused, AppError::NotFound("promo code")), "{refused:?}");
    let codes = w.app.promotions.list((&ours).into()).await.unwrap();
    assert_eq!(codes.len(), 1);
    assert!(!codes[0].promo.terms.disabled, "still on");
    let log = w.app.cabinet.activity(&ours, None).await.unwrap();
    let created = log.iter().find(|e| e.action == vp_domain::audit::AuditAction::PromoCreated).expect("in the log");
    assert_eq!(created.actor, "a@example.com", "recorded as the signed-in person's");
}
