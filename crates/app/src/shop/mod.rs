//! The account's web shop (docs/decisions.md, "The web shop"): its address, `/shop/{slug}`,
//! made from the brand when the account is made and changeable by the operator, and what the
//! shop page shows: the plans and the device offer at the account's prices, the trial where
//! the account gives one, the legal documents, the support address and the partner's bot;
//! buying there (`buying`), the order's mail once it is paid (`orders`), the trial a
//! signed-in customer starts (`trial`), gifts (`gifts`), and a customer's several
//! subscriptions (`several`).

mod accounts;
mod buying;
mod gifts;
mod orders;
mod several;
mod trial;

use std::sync::Arc;

use vp_domain::AccountId;
use vp_domain::cabinet::Email;
use vp_domain::shop::ShopSlug;
use vp_domain::{ClientId, ClientRef, Lang};
use vp_ports::{AccountRecord, Clock, IdGenerator, PaymentMethodRecord, ShopCustomer, Store, StoreError, Tx};

pub use accounts::{CodeRefused, Customer, CustomerAccount, Entered};
pub use buying::{Purchase, ShopOrder, new_shop_client_id};
pub(crate) use orders::ShopOrders;
pub use several::BuyFor;

use crate::access::{Limiter, PartnerAccess};
use crate::accounts::load_account;
use crate::catalog::{Catalog, Offers};
use crate::clients::Clients;
use crate::error::{AppError, AppResult, Refusal};
use crate::mail::MailQueue;
use crate::payments::Payments;
use crate::tokens::Tokens;
use crate::views::{DocumentLink, PlansView};

pub use vp_ports::pages::SHOP_PATH;
pub(crate) use vp_ports::pages::shop_url;
/// Accounts given a slug per round at start (those made before shops existed).
const SLUG_BATCH: u32 = 500;

/// What the shop page shows.
pub struct ShopPage {
    pub account: AccountRecord,
    pub slug: ShopSlug,
    pub plans: PlansView,
    pub documents: Vec<DocumentLink>,
    /// `https://t.me/<bot>` while the partner's bot is connected.
    pub bot_url: Option<String>,
    /// The ways to pay on the web (the customer picks one where there are several).
    pub methods: Vec<PaymentMethodRecord>,
    /// A new one-time key for the buying form: sending the form twice makes one invoice.
    pub form: String,
}

pub struct Shop {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) ids: Arc<dyn IdGenerator>,
    pub(crate) tokens: Tokens,
    pub(crate) access: Arc<PartnerAccess>,
    /// The per-source limit on wrong codes, shared with API keys and the cabinet.
    pub(crate) limiter: Arc<Limiter>,
    pub(crate) failed_auth_per_minute: u32,
    pub(crate) catalog: Arc<Catalog>,
    pub(crate) offers: Arc<Offers>,
    pub(crate) clients: Arc<Clients>,
    pub(crate) payments: Arc<Payments>,
    pub(crate) mail: MailQueue,
    pub(crate) referrals: Arc<crate::referrals::Referrals>,
    pub(crate) gifts: Arc<crate::gifts::Gifts>,
    pub(crate) public_base_url: String,
}

impl Shop {
    /// The shop's address for a slug.
    pub fn url(&self, slug: &ShopSlug) -> String {
        shop_url(&self.public_base_url, slug.as_str())
    }

    /// The account's slug; made from its brand if it has none yet. Read without taking a
    /// write lock: every account is given one when it is made, or at start.
    pub async fn slug(&self, account_id: &AccountId) -> AppResult<ShopSlug> {
        let mut read = self.store.read().await?;
        let stored = read.shop_slug(account_id).await?;
        read.commit().await?;
        if let Some(slug) = stored {
            return stored_slug(slug);
        }
        let mut tx = self.store.begin().await?;
        let account = load_account(tx.as_mut(), account_id).await?;
        let slug = slug_of(tx.as_mut(), &account, self.clock.now()).await?;
        tx.commit().await?;
        Ok(slug)
    }

    /// Gives every account made before shops existed its slug; run at start.
    pub async fn assign_missing_slugs(&self) -> AppResult<usize> {
        let mut read = self.store.read().await?;
        let none_missing = read.accounts_without_shop(1).await?.is_empty();
        read.commit().await?;
        if none_missing {
            return Ok(0);
        }
        let mut assigned = 0;
        loop {
            let mut tx = self.store.begin().await?;
            let ids = tx.accounts_without_shop(SLUG_BATCH).await?;
            for id in &ids {
                let account = load_account(tx.as_mut(), id).await?;
                slug_of(tx.as_mut(), &account, self.clock.now()).await?;
            }
            tx.commit().await?;
            assigned += ids.len();
            if ids.len() < SLUG_BATCH as usize {
                return Ok(assigned);
            }
        }
    }

    /// Operator: a slug of their choosing (`vp-api account set-slug`); the old address stops
    /// working at once.
    pub async fn set_slug(&self, account_id: &AccountId, raw: &str) -> AppResult<ShopSlug> {
        let slug = ShopSlug::parse(raw).map_err(|e| AppError::field("slug", e))?;
        let mut tx = self.store.begin().await?;
        load_account(tx.as_mut(), account_id).await?;
        match tx.shop_account(slug.as_str()).await? {
            Some(owner) if owner != account_id => {
                return Err(AppError::Conflict(format!("the shop address {slug} is another account's")));
            }
            _ => {}
        }
        tx.put_shop_slug(account_id, slug.as_str(), self.clock.now()).await.map_err(|e| match e {
            StoreError::Conflict(_) => AppError::Conflict(format!("the shop address {slug} is another account's")),
            other => other.into(),
        })?;
        tx.commit().await?;
        Ok(slug)
    }

    /// The shop page of `slug` in `lang`; `NotFound("shop")` for a slug no account has.
    pub async fn page(&self, slug: &str, lang: Lang) -> AppResult<ShopPage> {
        let slug = ShopSlug::parse(slug).map_err(|_| AppError::NotFound("shop"))?;
        let mut tx = self.store.read().await?;
        let account_id = tx.shop_account(slug.as_str()).await?.ok_or(AppError::NotFound("shop"))?;
        let account = load_account(tx.as_mut(), &account_id).await?;
        let bot = tx.partner_bot(&account_id).await?.filter(|b| b.disconnected_at.is_none());
        tx.commit().await?;
        // The offer invoices are priced from (kept a moment in memory), so the page costs
        // what buying costs.
        let offer = self.offers.current().await?;
        let plans = crate::views::price_list(offer.plans_on_sale(), offer.device_settings, account.markup)
            .map_err(|e| AppError::Internal(e.to_string()))?;
        let documents = self.catalog.document_links(&account, lang).await?;
        let bot_url = bot.map(|b| format!("https://t.me/{}", b.username));
        let methods = offer.enabled_methods();
        Ok(ShopPage { account, slug, plans, documents, bot_url, methods, form: self.tokens.random() })
    }
}

impl Shop {
    /// The signed-in customer's address and the client it stands for (the linked one, else the
    /// one a first trial or gift makes), once the action counts in the account's window as the
    /// API request it stands for.
    pub(super) async fn signed_in_client(&self, page: &ShopPage, customer: &Customer) -> AppResult<(Email, ClientId)> {
        let account = &page.account;
        self.access
            .admit_request(account, false)
            .await
            .map_err(|wait| AppError::from(Refusal::RateLimited { retry_after_secs: wait.0.max(1) }))?;
        let email = Email::parse(&customer.email)
            .map_err(|_| StoreError::Corrupt(format!("the email of a shop session: {}", customer.email)))?;
        let client_id = customer.client_id.clone().unwrap_or_else(|| new_shop_client_id(&account.id, &email));
        Ok((email, client_id))
    }
}

/// Links the address to the client a trial or a gift made for it on the account page (no
/// purchase made the link; a link made already stands).
pub(crate) async fn link_address(
    tx: &mut dyn Tx,
    account: &AccountRecord,
    email: &Email,
    client_ref: ClientRef,
    lang: Lang,
    now: time::OffsetDateTime,
) -> AppResult<()> {
    let customer = ShopCustomer {
        account_id: account.id.clone(),
        email: email.as_str().to_owned(),
        client_ref,
        lang,
        first_payment_id: None,
        created_at: now,
    };
    tx.add_shop_customer(&customer).await?;
    Ok(())
}

/// The client an email stands for in the account's shop, once a purchase linked it.
pub(crate) async fn linked_client(tx: &mut dyn Tx, account_id: &AccountId, email: &str) -> AppResult<Option<ClientId>> {
    let Some(customer) = tx.shop_customer(account_id, email).await? else { return Ok(None) };
    Ok(tx.client_by_ref(&customer.client_ref).await?.map(|c| c.client_id))
}

/// The account's slug, made from its brand (numbered past the ones taken) if it has none.
pub(crate) async fn slug_of(
    tx: &mut dyn Tx,
    account: &AccountRecord,
    now: time::OffsetDateTime,
) -> AppResult<ShopSlug> {
    if let Some(slug) = tx.shop_slug(&account.id).await? {
        return stored_slug(slug);
    }
    let base = ShopSlug::from_brand(account.brand_name.as_str());
    let mut candidate = base.clone();
    let mut n = 1;
    while tx.shop_account(candidate.as_str()).await?.is_some() {
        n += 1;
        candidate = base.with_number(n);
    }
    tx.put_shop_slug(&account.id, candidate.as_str(), now).await?;
    Ok(candidate)
}

/// A slug as stored: written only after its check, so one that does not read is corrupt.
fn stored_slug(slug: String) -> AppResult<ShopSlug> {
    ShopSlug::parse(&slug).map_err(|e| AppError::Store(StoreError::Corrupt(format!("shop slug {slug}: {e}"))))
}
