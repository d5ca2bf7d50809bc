//! Clients made from the users of an existing panel (`import remnawave`): which panel users are
//! adopted already and by whom, the adoption itself, and the client a panel name stands for.

use async_trait::async_trait;
use time::OffsetDateTime;
use vp_domain::{AccountId, ClientId, ClientRef};

use super::StoreResult;
use crate::records::ClientRecord;

/// A panel user an import adopted, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PanelAdoption {
    /// The panel's own id of the user.
    pub panel_id: String,
    pub account_id: AccountId,
    pub client_id: ClientId,
}

/// A client made from a panel user, to be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdoptedClient {
    /// The client with its subscription (whose `panel_name` is the user's name in the panel).
    pub client: ClientRecord,
    pub panel_id: String,
    /// The Telegram user who becomes the account's bot customer with this client (and whose
    /// private chat gets its reminders); `None` when there is none or they are one already.
    pub telegram_id: Option<i64>,
}

/// What a shop bot held for one of its customers when an import brought them over: the
/// partner's record of what they owe the customer, not money the platform holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedBalance {
    pub account_id: AccountId,
    /// The bot it came from (`bedolaga`).
    pub source: String,
    /// The bot's own id of the customer.
    pub source_customer_id: i64,
    pub telegram_id: Option<i64>,
    /// The client the customer became, if one.
    pub client_ref: Option<ClientRef>,
    /// Minor units of `currency`.
    pub amount: i64,
    pub currency: String,
    pub imported_at: OffsetDateTime,
}

#[async_trait]
pub trait PanelAdoptionRepo: Send {
    /// Those of these panel users that are adopted, by any account, in no particular order.
    async fn panel_adoptions(&mut self, panel_ids: &[String]) -> StoreResult<Vec<PanelAdoption>>;
    /// Of these subscription link tokens, those a client holds, in no particular order.
    async fn link_tokens_in_use(&mut self, tokens: &[String]) -> StoreResult<Vec<String>>;
    /// Of these `client_id`s, those the account has, in no particular order.
    async fn existing_client_ids(&mut self, account_id: &str, client_ids: &[ClientId]) -> StoreResult<Vec<ClientId>>;
    /// Writes the clients of the account with their subscriptions, which owe the panel nothing
    /// (it holds them already); each `telegram_id` becomes a bot customer started `at`, linked
    /// to its client and chat. Fails with `Conflict` when a `client_id`, panel user or bot
    /// customer is taken meanwhile; the unit of work must then be rolled back.
    async fn adopt_panel_users(&mut self, adopted: &[AdoptedClient], at: OffsetDateTime) -> StoreResult<()>;
    /// Keeps the balances not kept before (by account, source and the source's customer id);
    /// returns how many were new.
    async fn record_imported_balances(&mut self, balances: &[ImportedBalance]) -> StoreResult<u64>;
    /// The balances kept for the client.
    async fn imported_balances_of_client(&mut self, client_ref: &str) -> StoreResult<Vec<ImportedBalance>>;
    /// The client whose adopted panel user has this name in the panel.
    async fn client_by_panel_name(&mut self, panel_name: &str) -> StoreResult<Option<ClientRecord>>;
}
