//! Customer accounts of the web shop (docs/decisions.md, "Customer accounts"): signing in by
//! email with a one-time code or the link in the same message, the session, and what the
//! account page shows and does, through the use cases the partner API has (`client_view`,
//! `client_devices`, `delete_client_device`, `rotate_link`), for the client the email stands for.

use time::OffsetDateTime;
use vp_domain::cabinet::{Email, SESSION_ABSOLUTE, SESSION_IDLE, session_alive};
use vp_domain::shop_sign_in::{
    CODE_TRIES, CODE_VALID_FOR, CODES_WINDOW, CodeState, code_from, code_state, may_send_code, typed_code,
};
use vp_domain::{ClientId, InvoiceStatus, Lang};
use vp_ports::pages::connect_page_url;
use vp_ports::{InvoiceRecord, MailContent, ShopSession, ShopSignIn, Tx};

use super::{Shop, ShopPage, linked_client, shop_url};
use crate::error::{AppError, AppResult};
use crate::keys::hash;
use crate::views::{DevicesView, SubscriptionView};

/// A session's last use is written at most this often.
const TOUCH_EVERY: time::Duration = time::Duration::minutes(1);
/// Receipts the account page lists, newest first.
const RECEIPTS_SHOWN: u32 = 50;

/// Why a code, a link or a request for one was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeRefused {
    /// Too many codes for the address or from the source lately, or too many wrong codes from
    /// the source: try again in this many seconds.
    TooMany { retry_after_secs: i64 },
    /// Not the code; this many tries are left.
    Wrong { tries_left: u32 },
    /// Used, run out of tries, replaced by a newer one, or past its ten minutes.
    Spent,
}

/// A new session: the token goes into the cookie and is never stored.
#[derive(Debug, Clone)]
pub struct Entered {
    pub token: String,
}

/// The signed-in customer of a shop.
#[derive(Debug, Clone)]
pub struct Customer {
    pub email: String,
    pub csrf_token: String,
    pub(super) session_hash: String,
    /// The client of the subscription acted on (`target`): the address's first once it
    /// bought or had a trial, or a further one's.
    pub client_id: Option<ClientId>,
    /// The subscription acted on: 0 for the first, else a further one's position.
    pub target: u32,
    /// The customer's further subscriptions, by position.
    pub further: Vec<vp_ports::ShopSubscription>,
    /// The address's first client, once it bought or had a trial.
    pub(super) first: Option<ClientId>,
}

/// What the account page shows.
#[derive(Debug, Clone)]
pub struct CustomerAccount {
    pub subscription: Option<SubscriptionView>,
    /// The connect page of the subscription.
    pub connect_url: Option<String>,
    /// The panel's devices; `None` when it does not answer or there is no subscription.
    pub devices: Option<DevicesView>,
    /// The traffic used of the subscription's limit; `None` without a limit or an answer.
    pub traffic_used: Option<u64>,
    /// Paid invoices, newest first: each links to its receipt.
    pub receipts: Vec<InvoiceRecord>,
    /// The customer's link to invite friends, while the account has a referral program and a
    /// connected bot.
    pub invite: Option<crate::referrals::PersonalLink>,
    /// The free trial can be started here: the account gives one and the address's client
    /// never had a subscription.
    pub trial_offered: bool,
}

impl Shop {
    /// Whether the shop is served over https, so its cookies are `Secure`.
    pub fn secure_cookies(&self) -> bool {
        self.public_base_url.starts_with("https://")
    }

    /// A new form token for the sign-in forms (32 random bytes, URL-safe).
    pub fn form_token(&self) -> String {
        self.tokens.random()
    }

    /// Mails a code and a link to sign in with to `email`, unless the address or the source had
    /// enough codes this hour. Whether the address ever bought is not told: any address may
    /// have an account.
    pub async fn send_code(
        &self,
        page: &ShopPage,
        email: &str,
        source: &str,
        lang: Lang,
    ) -> AppResult<Result<Email, CodeRefused>> {
        let email = Email::parse(email).map_err(|_| AppError::field("email", "enter an email address"))?;
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let (to_address, from_source) =
            tx.shop_sign_ins_since(&page.account.id, email.as_str(), source, now - CODES_WINDOW).await?;
        if !may_send_code(to_address, from_source) {
            tx.commit().await?;
            return Ok(Err(CodeRefused::TooMany { retry_after_secs: CODES_WINDOW.whole_seconds() }));
        }
        let id = self.ids.new_id("ssi");
        let random: [u8; 8] = self.ids.random_bytes(8).try_into().unwrap_or_default();
        let code = code_from(random);
        let link_token = self.tokens.random();
        let sign_in = ShopSignIn {
            code_hash: hash(&format!("{id}:{code}")),
            id,
            account_id: page.account.id.clone(),
            email: email.as_str().to_owned(),
            link_hash: hash(&link_token),
            source: source.to_owned(),
            tries_left: CODE_TRIES,
            created_at: now,
            expires_at: now + CODE_VALID_FOR,
            used_at: None,
        };
        tx.insert_shop_sign_in(&sign_in).await?;
        let shop = shop_url(&self.public_base_url, page.slug.as_str());
        let link = format!("{shop}/sign-in/{link_token}?lang={}", lang.code());
        let content = MailContent::ShopSignIn { code, link, expires_at: sign_in.expires_at };
        self.mail.queue(tx.as_mut(), Some(&page.account.id), &email, lang, content).await?;
        tx.commit().await?;
        Ok(Ok(email))
    }

    /// The code typed for `email`: a session when it is the newest code's, still open.
    /// Every wrong code counts against the source's limit on unknown credentials.
    pub async fn enter_code(
        &self,
        page: &ShopPage,
        email: &str,
        code: &str,
        source: &str,
    ) -> AppResult<Result<Entered, CodeRefused>> {
        let now = self.clock.now();
        let Ok(email) = Email::parse(email) else { return Ok(Err(CodeRefused::Spent)) };
        let mut tx = self.store.begin().await?;
        let Some(mut sign_in) = tx.latest_shop_sign_in(&page.account.id, email.as_str()).await? else {
            tx.commit().await?;
            return Ok(Err(CodeRefused::Spent));
        };
        let CodeState::Open { tries_left } =
            code_state(sign_in.tries_left, sign_in.used_at.is_some(), sign_in.expires_at, now)
        else {
            tx.commit().await?;
            return Ok(Err(CodeRefused::Spent));
        };
        let typed = typed_code(code).map(|c| hash(&format!("{}:{c}", sign_in.id)));
        if typed.as_deref() != Some(sign_in.code_hash.as_str()) {
            sign_in.tries_left = tries_left - 1;
            tx.update_shop_sign_in(&sign_in).await?;
            tx.commit().await?;
            if let Err(wait) = self.limiter.count_unknown_credentials(source, self.failed_auth_per_minute, now).await {
                return Ok(Err(CodeRefused::TooMany { retry_after_secs: wait.duration().whole_seconds().max(1) }));
            }
            return Ok(Err(match sign_in.tries_left {
                0 => CodeRefused::Spent,
                left => CodeRefused::Wrong { tries_left: left },
            }));
        }
        let entered = self.enter(tx.as_mut(), &mut sign_in, now).await?;
        tx.commit().await?;
        Ok(Ok(entered))
    }

    /// The link of a sign-in message: a session when its code is the newest and still open.
    pub async fn enter_link(&self, page: &ShopPage, token: &str) -> AppResult<Result<Entered, CodeRefused>> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let found = tx.shop_sign_in_by_link(&hash(token)).await?.filter(|s| s.account_id == page.account.id);
        let Some(mut sign_in) = found else {
            tx.commit().await?;
            return Ok(Err(CodeRefused::Spent));
        };
        if code_state(sign_in.tries_left, sign_in.used_at.is_some(), sign_in.expires_at, now) == CodeState::Spent {
            tx.commit().await?;
            return Ok(Err(CodeRefused::Spent));
        }
        let entered = self.enter(tx.as_mut(), &mut sign_in, now).await?;
        tx.commit().await?;
        Ok(Ok(entered))
    }

    /// Spends the code and opens a session for its address.
    async fn enter(&self, tx: &mut dyn Tx, sign_in: &mut ShopSignIn, now: OffsetDateTime) -> AppResult<Entered> {
        sign_in.used_at = Some(now);
        tx.update_shop_sign_in(sign_in).await?;
        let token = self.tokens.random();
        tx.insert_shop_session(&ShopSession {
            token_hash: hash(&token),
            account_id: sign_in.account_id.clone(),
            email: sign_in.email.clone(),
            csrf_token: self.tokens.random(),
            created_at: now,
            last_seen_at: now,
        })
        .await?;
        Ok(Entered { token })
    }

    /// The customer behind a session cookie of this shop; `None` when the session is unknown,
    /// another shop's, ended or expired (idle 12 hours, or 30 days after sign-in).
    pub async fn customer(&self, page: &ShopPage, token: &str) -> AppResult<Option<Customer>> {
        let now = self.clock.now();
        let token_hash = hash(token);
        let mut tx = self.store.read().await?;
        let session = tx.shop_session(&token_hash).await?.filter(|s| s.account_id == page.account.id);
        let client_id = match &session {
            Some(s) => linked_client(tx.as_mut(), &s.account_id, &s.email).await?,
            None => None,
        };
        let further = match &session {
            Some(s) => tx.shop_subscriptions(&s.account_id, &s.email).await?,
            None => Vec::new(),
        };
        tx.commit().await?;
        let Some(session) = session else { return Ok(None) };
        if !session_alive(session.created_at, session.last_seen_at, now) {
            let mut tx = self.store.begin().await?;
            tx.delete_shop_session(&token_hash).await?;
            tx.commit().await?;
            return Ok(None);
        }
        if now - session.last_seen_at >= TOUCH_EVERY {
            let mut tx = self.store.begin().await?;
            tx.touch_shop_session(&token_hash, now).await?;
            tx.commit().await?;
        }
        Ok(Some(Customer {
            email: session.email,
            csrf_token: session.csrf_token,
            session_hash: token_hash,
            first: client_id.clone(),
            client_id,
            target: 0,
            further,
        }))
    }

    pub async fn sign_out(&self, customer: &Customer) -> AppResult<()> {
        let mut tx = self.store.begin().await?;
        tx.delete_shop_session(&customer.session_hash).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The customer's subscription, devices and receipts.
    pub async fn account(&self, page: &ShopPage, customer: &Customer) -> AppResult<CustomerAccount> {
        // A further subscription's client is made by its first invoice.
        let exists = match &customer.client_id {
            Some(id) => read!(self.store, |tx| tx.client(&page.account.id, id)).is_some(),
            None => false,
        };
        let Some(client_id) = customer.client_id.as_ref().filter(|_| exists) else {
            let empty = CustomerAccount {
                subscription: None,
                connect_url: None,
                devices: None,
                traffic_used: None,
                receipts: Vec::new(),
                invite: None,
                // The trial is the first subscription's.
                trial_offered: page.account.trial_enabled && customer.target == 0,
            };
            return Ok(empty);
        };
        let view = self.clients.client_view(&page.account, client_id).await?;
        let mut tx = self.store.read().await?;
        let client = tx.client(&page.account.id, client_id).await?.ok_or(AppError::NotFound("client"))?;
        let invoices = tx.client_invoices(&client.id, RECEIPTS_SHOWN).await?;
        tx.commit().await?;
        let receipts = invoices.into_iter().filter(|i| i.status == InvoiceStatus::Succeeded).collect();
        // The panel is asked for the devices and the traffic at once.
        let devices = async {
            match view.subscription {
                Some(_) => self.clients.client_devices(&page.account, client_id).await.ok(),
                None => None,
            }
        };
        let (devices, traffic_used) = tokio::join!(devices, self.clients.views.traffic_used(&client));
        let connect_url = client.subscription.map(|s| connect_page_url(&self.public_base_url, &s.link_token, None));
        let invite = self.referrals.personal_link(&page.account.id, &client.id).await?;
        Ok(CustomerAccount {
            trial_offered: view.trial_available && customer.target == 0,
            subscription: view.subscription,
            connect_url,
            devices,
            traffic_used,
            receipts,
            invite,
        })
    }

    /// Disconnects one of the customer's devices (`DeviceNotFound` for one they do not have).
    pub async fn remove_device(&self, page: &ShopPage, customer: &Customer, device_id: &str) -> AppResult<()> {
        let client_id = customer.client_id.as_ref().ok_or(crate::error::Refusal::DeviceNotFound)?;
        self.clients.delete_client_device(&page.account, client_id, device_id).await
    }

    /// A new subscription link, with the spec's rotation rules; the old one stops working.
    pub async fn new_link(&self, page: &ShopPage, customer: &Customer) -> AppResult<()> {
        let client_id = customer.client_id.as_ref().ok_or(crate::error::Refusal::NoActiveSubscription)?;
        self.clients.rotate_link(&page.account, client_id).await.map(|_| ())
    }

    /// Forgets codes past the window their limits count and sessions that can no longer be used.
    pub async fn prune_sign_ins(&self) -> AppResult<u64> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let pruned = tx.prune_shop_sign_ins(now - CODES_WINDOW, now - SESSION_IDLE, now - SESSION_ABSOLUTE).await?;
        tx.commit().await?;
        Ok(pruned)
    }
}
