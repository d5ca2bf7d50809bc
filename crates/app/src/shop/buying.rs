//! Buying in the web shop: an invoice made by `create_invoice`, exactly as `POST /payments`
//! makes it (prices with markup, the purpose rules, the limits, the gateway, the partner's
//! events), for the client the email stands for. The form carries a one-time key made with
//! the page, so a double submit makes one invoice.

use vp_domain::AccountId;
use vp_domain::cabinet::Email;
use vp_domain::promo::PromoCode;
use vp_domain::{ClientId, IdempotencyKey, InvoiceRequest, Lang, MethodCode, Purpose};
use vp_ports::{AccountRecord, ShopCustomer};

use super::{Shop, ShopPage, linked_client};
use crate::error::{AppError, AppResult, Refusal};
use crate::keys::hash;

/// The shop's form as sent: the raw fields, checked here.
#[derive(Debug, Clone, Default)]
pub struct ShopOrder {
    pub email: String,
    pub plan: String,
    /// `None` when the page offered one method only.
    pub method: Option<String>,
    /// The one-time key the page put in the form.
    pub form: String,
    /// A promo code, or empty.
    pub promo: String,
    /// "This is a gift": the plan is bought for someone else, who redeems its link.
    pub gift: bool,
    /// Whom to mail the gift to, or empty.
    pub recipient: String,
}

/// Where a purchase goes next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Purchase {
    /// The gateway's payment page of the invoice.
    Pay(String),
    /// The invoice is paid already (the form sent again after paying): its result page.
    Paid(String),
}

/// A form key: what `Tokens::random` makes (43 URL-safe characters).
/// A gift's key is its own, so one form sent as a purchase and again as a gift makes two
/// invoices, never a purchase marked a gift afterwards.
fn form_key(raw: &str, gift: bool) -> AppResult<IdempotencyKey> {
    let well_formed = raw.len() == 43 && raw.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    let kind = if gift { "shop-gift" } else { "shop" };
    let key = well_formed.then(|| IdempotencyKey::parse(Some(&format!("{kind}:{raw}"))).ok()).flatten();
    key.ok_or_else(|| AppError::field("form", "the form is not one this shop made; reload the page"))
}

/// The `client_id` the shop gives a person who has no client yet: `email:` and 24 hex digits
/// of a digest of the account and the address (docs/decisions.md, "The web shop"), so the
/// partner never reads the address in an id, and two first purchases with one email at once
/// make one client.
pub fn new_shop_client_id(account_id: &AccountId, email: &Email) -> ClientId {
    let digest = hash(&format!("{account_id}\n{email}"));
    ClientId::parse(&format!("email:{}", &digest[..24])).expect("hex digits make a valid client_id")
}

impl Shop {
    /// Buys the chosen plan for the email's client, in the account's windows like the API
    /// request it stands for. Bad fields are named (`Validation`); the rules' refusals are the
    /// API's.
    pub async fn buy(&self, page: &ShopPage, order: &ShopOrder, lang: Lang) -> AppResult<Purchase> {
        self.buy_as(page, order, None, lang).await
    }

    /// `buy` for the address's first subscription (`further`: `None`; linked to the address by
    /// its first invoice), or for the signed-in customer's further one whose client is `further`.
    pub(super) async fn buy_as(
        &self,
        page: &ShopPage,
        order: &ShopOrder,
        further: Option<ClientId>,
        lang: Lang,
    ) -> AppResult<Purchase> {
        let account = &page.account;
        let checked = check_order(page, order);
        let (email, plan_id, method, promo_code, recipient) = checked?;
        let key = form_key(&order.form, order.gift)?;
        self.access
            .admit_request(account, true)
            .await
            .map_err(|wait| AppError::from(Refusal::RateLimited { retry_after_secs: wait.0.max(1) }))?;
        let client_id = match &further {
            Some(id) => id.clone(),
            None => self.client_id(account, &email).await?,
        };
        let request = InvoiceRequest {
            client_id: client_id.clone(),
            purpose: Purpose::Subscription { plan_id },
            method,
            return_url: None,
            customer_email: Some(email.clone()),
            promo_code,
        };
        let view = self.payments.create_invoice(account, key, request).await?;
        if order.gift {
            let recipient = recipient.as_ref().map(Email::as_str);
            self.gifts.mark(account, &view.invoice.payment_id, recipient, lang).await?;
        }
        if further.is_none() {
            self.link_customer(account, &email, &client_id, lang, &view.invoice.payment_id).await?;
        }
        Ok(match view.invoice.payment_url {
            Some(url) => Purchase::Pay(url),
            None => Purchase::Paid(self.payments.payment_result_url(&view.invoice.payment_id)),
        })
    }

    /// The client the email stands for in the account: the linked one, else a new id.
    async fn client_id(&self, account: &AccountRecord, email: &Email) -> AppResult<ClientId> {
        let mut tx = self.store.read().await?;
        let linked = linked_client(tx.as_mut(), &account.id, email.as_str()).await?;
        tx.commit().await?;
        Ok(linked.unwrap_or_else(|| new_shop_client_id(&account.id, email)))
    }

    /// Links the email to the client its first invoice made (a link made already stands).
    async fn link_customer(
        &self,
        account: &AccountRecord,
        email: &Email,
        client_id: &ClientId,
        lang: Lang,
        payment_id: &str,
    ) -> AppResult<()> {
        let mut tx = self.store.begin().await?;
        let client = tx.client(&account.id, client_id).await?.ok_or(AppError::NotFound("client"))?;
        tx.add_shop_customer(&ShopCustomer {
            account_id: account.id.clone(),
            email: email.as_str().to_owned(),
            client_ref: client.id,
            lang,
            first_payment_id: Some(payment_id.to_owned()),
            created_at: self.clock.now(),
        })
        .await?;
        tx.commit().await?;
        Ok(())
    }
}

/// The form's fields against what the page offered; every bad field is named.
type CheckedOrder = (Email, i32, MethodCode, Option<PromoCode>, Option<Email>);

fn check_order(page: &ShopPage, order: &ShopOrder) -> AppResult<CheckedOrder> {
    let mut fields = crate::error::FieldErrors::new();
    let email = Email::parse(&order.email).map_err(|_| "enter an email address such as name@example.com");
    let plan = order
        .plan
        .trim()
        .parse::<i32>()
        .ok()
        .filter(|id| page.plans.plans.iter().any(|p| p.plan.plan_id == *id))
        .ok_or("choose one of the plans");
    let method = match (order.method.as_deref().map(str::trim).filter(|m| !m.is_empty()), page.methods.as_slice()) {
        (Some(code), methods) => {
            methods.iter().find(|m| m.code == code).map(|m| m.code.as_str()).ok_or("choose how to pay")
        }
        (None, [only]) => Ok(only.code.as_str()),
        (None, _) => Err("choose how to pay"),
    };
    let method = method.and_then(|m| MethodCode::parse(m).map_err(|_| "choose how to pay"));
    // Typed by a person: spaces around it and small letters are fine.
    let promo = match order.promo.trim() {
        "" => Ok(None),
        typed => PromoCode::parse(typed).map(Some).map_err(|_| "a promo code is 4 to 32 letters, digits and dashes"),
    };
    // Only a gift has a recipient; an address typed before unticking the gift is not used.
    let recipient = match order.recipient.trim() {
        typed if !typed.is_empty() && order.gift => {
            Email::parse(typed).map(Some).map_err(|_| "enter the recipient's email address, or leave it empty")
        }
        _ => Ok(None),
    };
    for (name, e) in [
        ("recipient", recipient.as_ref().err()),
        ("email", email.as_ref().err()),
        ("plan", plan.as_ref().err()),
        ("method", method.as_ref().err()),
        ("promo", promo.as_ref().err()),
    ] {
        if let Some(reason) = e {
            fields.insert(name.to_owned(), (*reason).to_owned());
        }
    }
    match (email, plan, method, promo, recipient) {
        (Ok(email), Ok(plan), Ok(method), Ok(promo), Ok(recipient)) => Ok((email, plan, method, promo, recipient)),
        _ => Err(AppError::Validation(fields)),
    }
}
