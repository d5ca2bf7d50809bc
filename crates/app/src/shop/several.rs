//! Several subscriptions per web shop customer (docs/decisions.md, "Several subscriptions per
//! person"): a signed-in customer may hold more than one subscription, each its own client of
//! the account (`email:<digest>:<n>`), named by them ("Router"). The account page acts on the
//! one its address names (`?sub=<n>`, looked up among the customer's own), and buys for any of
//! them or for a new one. A purchase by email alone, without signing in, extends the first.

use vp_domain::ClientId;
use vp_domain::several::{SUBSCRIPTIONS_PER_PERSON, subscription_name};
use vp_ports::ShopSubscription;

use super::{Customer, Purchase, Shop, ShopOrder, ShopPage, new_shop_client_id};
use crate::error::{AppError, AppResult};

/// What an account page purchase is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuyFor {
    /// One the customer holds: 0 for the first, else a further one's position.
    Existing(u32),
    /// A new subscription under this name (as typed; checked here).
    New(String),
}

impl Customer {
    /// The customer acting on their subscription `target` (0: the first); `None` for a number
    /// that is none of theirs.
    pub fn at(&self, target: u32) -> Option<Customer> {
        let client_id = match target {
            0 => self.first.clone(),
            n => Some(self.further.iter().find(|s| s.position == n)?.client_id.clone()),
        };
        Some(Customer { client_id, target, ..self.clone() })
    }

    /// The name of the subscription acted on: `None` for the first.
    pub fn subscription_name(&self) -> Option<&str> {
        self.further.iter().find(|s| s.position == self.target).map(|s| s.name.as_str())
    }
}

impl Shop {
    /// Buys `order`'s plan for the signed-in customer's subscription `target`, or for a new one
    /// they name (recorded before its invoice, so its number is theirs; a name given whose
    /// invoice was never paid is renamed by the next new one instead of a place kept).
    pub async fn buy_for(
        &self,
        page: &ShopPage,
        customer: &Customer,
        order: &ShopOrder,
        target: BuyFor,
        lang: vp_domain::Lang,
    ) -> AppResult<Purchase> {
        let order = ShopOrder { email: customer.email.clone(), gift: false, recipient: String::new(), ..order.clone() };
        let further = match target {
            // The first as a purchase by the address makes or extends it.
            BuyFor::Existing(0) => None,
            BuyFor::Existing(n) => {
                let at = customer.at(n).ok_or(AppError::NotFound("subscription"))?;
                Some(at.client_id.ok_or(AppError::NotFound("subscription"))?)
            }
            BuyFor::New(name) => Some(self.new_subscription(page, customer, &name).await?),
        };
        self.buy_as(page, &order, further, lang).await
    }

    /// Records the customer's new subscription named `name`; returns its client's id.
    async fn new_subscription(&self, page: &ShopPage, customer: &Customer, name: &str) -> AppResult<ClientId> {
        let name = subscription_name(name).ok_or_else(|| {
            AppError::field("name", format!("a name is 1 to {} characters", vp_domain::several::NAME_MAX_CHARS))
        })?;
        let account = &page.account;
        let email = vp_domain::cabinet::Email::parse(&customer.email)
            .map_err(|_| AppError::Internal(format!("the email of a shop session: {}", customer.email)))?;
        let base = new_shop_client_id(&account.id, &email);
        let mut tx = self.store.begin().await?;
        let further = tx.shop_subscriptions(&account.id, email.as_str()).await?;
        // The last one named but never paid is named again rather than a place kept.
        let unpaid = match further.last() {
            Some(last) => tx.client(&account.id, &last.client_id).await?.is_none().then(|| last.clone()),
            None => None,
        };
        let subscription = match unpaid {
            Some(last) => ShopSubscription { name, created_at: self.clock.now(), ..last },
            None => {
                if further.len() as u32 + 1 >= SUBSCRIPTIONS_PER_PERSON {
                    return Err(AppError::field(
                        "name",
                        format!("a customer holds at most {SUBSCRIPTIONS_PER_PERSON} subscriptions"),
                    ));
                }
                let position = further.last().map_or(1, |s| s.position + 1);
                // Its number counts from the first (`:2` is the second); a number some client
                // of the account already has (the partner may have made it) is skipped.
                let mut number = position + 1;
                let client_id = loop {
                    let candidate = ClientId::parse(&format!("{base}:{number}"))
                        .map_err(|_| AppError::Internal(format!("client id {base}:{number}")))?;
                    let taken = further.iter().any(|s| s.client_id == candidate)
                        || tx.client(&account.id, &candidate).await?.is_some();
                    if !taken {
                        break candidate;
                    }
                    number += 1;
                };
                ShopSubscription {
                    account_id: account.id.clone(),
                    email: email.as_str().to_owned(),
                    position,
                    client_id,
                    name,
                    created_at: self.clock.now(),
                }
            }
        };
        tx.put_shop_subscription(&subscription).await?;
        tx.commit().await?;
        Ok(subscription.client_id)
    }
}
