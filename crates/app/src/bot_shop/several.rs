//! Several subscriptions per person (docs/decisions.md, "Several subscriptions per person"):
//! a bot's person may hold more than one subscription (a phone and a router, a family's), each
//! its own client of the account, so the partner API, the limits, the events and the panel see
//! them as any client. The first is the client the person is linked to; each further one is
//! numbered from 1 and named by the person ("Router"). A press names the one it acts on by that
//! number (the bot adapter carries it in the button), never by a selection kept in between, so
//! an older message's button cannot act on another subscription than the one it showed.

use time::Duration;
use vp_domain::{AccountId, ClientId};
use vp_ports::{BotCustomerRepo, ChatText, ClientRepo, PersonSubscription};

pub use vp_domain::several::{NAME_MAX_CHARS, SUBSCRIPTIONS_PER_PERSON, subscription_name};

use super::{BotShop, Shopper};
use crate::error::AppResult;
use crate::views::SubscriptionView;

/// After "New subscription", the next message within this time is read as its name.
pub const NAME_ANSWER_WINDOW: Duration = Duration::minutes(15);
/// One of the person's subscriptions, as the shop lists them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnSubscription {
    /// What presses name it by: 0 for the first, then the further ones' numbers.
    pub target: u32,
    /// The name the person gave; `None` for the first, which is shown numbered.
    pub name: Option<String>,
    /// `None` while its first invoice is unpaid.
    pub subscription: Option<SubscriptionView>,
}

/// What "New subscription" came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NewSubscription {
    /// The bot waits for its name.
    AskName,
    /// The person holds no subscription yet: the first is bought from the plans.
    FirstFirst,
    /// The person holds `SUBSCRIPTIONS_PER_PERSON` already.
    TooMany,
}

/// What a message read as a name came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Naming {
    /// Named: the plans for it follow.
    Named { target: u32 },
    /// Empty, too long, or with characters a name cannot have: the bot asks again.
    Refused,
}

/// The id a further subscription's client gets: the person's, then its place counted from
/// the first (`telegram:42:2` is the second).
fn further_client_id(user_id: i64, number: u32) -> Option<ClientId> {
    ClientId::parse(&format!("telegram:{user_id}:{number}")).ok()
}

impl BotShop {
    /// The person's subscriptions: the first (once its client exists), then each named further
    /// one, in their order.
    pub async fn own_subscriptions(&self, shopper: &Shopper) -> AppResult<Vec<OwnSubscription>> {
        let mut tx = self.store.read().await?;
        let customer = tx.bot_customers(&shopper.account.id, &[shopper.user_id]).await?.into_iter().next();
        let first = match customer.and_then(|c| c.client_ref) {
            Some(client_ref) => tx.client_by_ref(&client_ref).await?,
            None => None,
        };
        let Some(first) = first else {
            tx.commit().await?;
            return Ok(Vec::new());
        };
        let mut records = vec![(0, None, Some(first))];
        for further in tx.person_subscriptions(&shopper.account.id, shopper.user_id).await? {
            let Some(name) = further.name else { continue };
            let client = tx.client(&shopper.account.id, &further.client_id).await?;
            records.push((further.position, Some(name), client));
        }
        tx.commit().await?;
        let views = self.views.render(&shopper.account, None, |v| {
            records.iter().map(|(_, _, c)| c.as_ref().and_then(|c| v.client(c).subscription)).collect::<Vec<_>>()
        });
        Ok(records
            .into_iter()
            .zip(views)
            .map(|((target, name, _), subscription)| OwnSubscription { target, name, subscription })
            .collect())
    }

    /// Whether the person holds a named further subscription, and so several: one read, for
    /// the screens that say which subscription they are about.
    pub async fn holds_several(&self, shopper: &Shopper) -> AppResult<bool> {
        let further = read!(self.store, |tx| tx.person_subscriptions(&shopper.account.id, shopper.user_id));
        Ok(further.iter().any(|f| f.name.is_some()))
    }

    /// The shopper acting on their subscription `target` (0: the first, else a named further
    /// one); `None` when they have no such subscription.
    pub async fn at(&self, shopper: Shopper, target: u32) -> AppResult<Option<Shopper>> {
        if target == 0 {
            return Ok(Some(Shopper { target: Some(0), name: None, ..shopper }));
        }
        let further = read!(self.store, |tx| tx.person_subscriptions(&shopper.account.id, shopper.user_id));
        let found = further.into_iter().find(|f| f.position == target && f.name.is_some());
        Ok(found.map(|f| Shopper { client_id: f.client_id, target: Some(target), name: f.name, ..shopper }))
    }

    /// "New subscription": keeps a place for it and waits for its name. A further subscription
    /// named before and never paid is named again rather than another kept.
    pub async fn new_subscription(&self, shopper: &Shopper) -> AppResult<NewSubscription> {
        let account_id = &shopper.account.id;
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let customer = tx.bot_customers(account_id, &[shopper.user_id]).await?.into_iter().next();
        let first = match customer.and_then(|c| c.client_ref) {
            Some(client_ref) => tx.client_by_ref(&client_ref).await?,
            None => None,
        };
        if first.is_none_or(|c| c.subscription.is_none()) {
            tx.commit().await?;
            return Ok(NewSubscription::FirstFirst);
        }
        let further = tx.person_subscriptions(account_id, shopper.user_id).await?;
        let unpaid = match further.last() {
            Some(last) => tx.client(account_id, &last.client_id).await?.is_none_or(|c| c.subscription.is_none()),
            None => false,
        };
        let place = match (further.last(), unpaid) {
            (Some(last), true) => Some(PersonSubscription { name: None, asked_at: now, ..last.clone() }),
            _ => self.free_place(tx.as_mut(), account_id, shopper.user_id, further.last(), now).await?,
        };
        let Some(place) = place else {
            tx.commit().await?;
            return Ok(NewSubscription::TooMany);
        };
        tx.put_person_subscription(&place).await?;
        tx.commit().await?;
        Ok(NewSubscription::AskName)
    }

    /// The next number after `last` whose client id no client of the account has (the partner
    /// may have made one by that id); `None` past the most a person holds.
    async fn free_place(
        &self,
        tx: &mut (impl ClientRepo + ?Sized),
        account_id: &AccountId,
        user_id: i64,
        last: Option<&PersonSubscription>,
        now: time::OffsetDateTime,
    ) -> AppResult<Option<PersonSubscription>> {
        let position = last.map_or(1, |l| l.position + 1);
        // The first subscription is number 1 of the person's, the first further one number 2.
        let mut number = last.map_or(2, |l| {
            l.client_id.as_str().rsplit(':').next().and_then(|n| n.parse::<u32>().ok()).unwrap_or(position) + 1
        });
        if position >= SUBSCRIPTIONS_PER_PERSON {
            return Ok(None);
        }
        loop {
            let Some(client_id) = further_client_id(user_id, number) else { return Ok(None) };
            if tx.client(account_id, &client_id).await?.is_none() {
                let place = PersonSubscription {
                    account_id: account_id.clone(),
                    user_id,
                    position,
                    client_id,
                    name: None,
                    asked_at: now,
                };
                return Ok(Some(place));
            }
            number += 1;
        }
    }

    /// A message while the bot waits for a subscription's name (within `NAME_ANSWER_WINDOW`)
    /// is read as the name; `None` when the bot waits for none.
    pub(crate) async fn name_said(
        &self,
        tx: &mut (impl BotCustomerRepo + ?Sized),
        account_id: &AccountId,
        said: &ChatText,
    ) -> AppResult<Option<Naming>> {
        let further = tx.person_subscriptions(account_id, said.user_id).await?;
        let now = self.clock.now();
        let waiting = further.into_iter().find(|f| f.name.is_none() && now - f.asked_at <= NAME_ANSWER_WINDOW);
        let Some(waiting) = waiting else { return Ok(None) };
        let Some(name) = subscription_name(&said.text) else { return Ok(Some(Naming::Refused)) };
        let target = waiting.position;
        tx.put_person_subscription(&PersonSubscription { name: Some(name), ..waiting }).await?;
        Ok(Some(Naming::Named { target }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_further_subscriptions_client_is_the_persons_id_and_its_number() {
        assert_eq!(further_client_id(42, 2).unwrap().as_str(), "telegram:42:2");
    }
}
