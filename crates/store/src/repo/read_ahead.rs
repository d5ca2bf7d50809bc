//! `Tx::read_ahead`: on PostgreSQL the named reads go out pipelined, one round trip for all
//! (two when one of the reads that usually find nothing has something to find), and wait in
//! the unit of work (`Ahead`) for the repository call each answers, once. On SQLite,
//! in-process, a read costs no trip: nothing is read ahead.

use std::borrow::Borrow;

use diesel::dsl::exists;
use diesel::{ExpressionMethods, OptionalExtension, QueryDsl};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use vp_domain::DeviceSettings;
use vp_ports::records::{ClientRecord, PlanRecord};
use vp_ports::store::StoreResult;
use vp_ports::{
    BotCustomer, ClientChat, ReadAhead, ReferralRecord, RenewalConsent, ShopCustomer, WebhookEndpointRecord,
};

use crate::convert;
use crate::errors::db;
use crate::models::{BotCustomerRow, ClientChatRow, DeviceSettingsRow, PlanRow, ReferralRow};
use crate::models::{ClientRow, RenewalConsentRow, SubscriptionRow};
use crate::pool::DbConn;
use crate::repo::bot_customers::bot_customer_of_client;
use crate::repo::clients::client_by_ref;
use crate::repo::customer_chats::chat_of_client;
use crate::repo::events::{EndpointRow, endpoints_query};
use crate::repo::offer::{plan_by_id, the_device_settings};
use crate::repo::referrals::credits_of;
use crate::repo::renewals::consent_of_invoice;
use crate::repo::shop::{CustomerRow, shop_customer_of_client};
use crate::repo::{bot_customers, clients, customer_chats, events, referrals, renewals, shop};
use crate::tx::StoreTx;

/// One read made ahead: its argument and what it returned, until the call it answers.
pub(crate) struct Slot<K, V>(Option<(K, V)>);

impl<K, V> Default for Slot<K, V> {
    fn default() -> Self {
        Slot(None)
    }
}

impl<K, V> Slot<K, V> {
    fn fill(&mut self, key: Option<K>, value: Option<V>) {
        self.0 = key.zip(value);
    }

    /// What was read ahead for `key`, once; `None` sends the caller to the database.
    pub(crate) fn take<Q: PartialEq + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        match &self.0 {
            Some((k, _)) if k.borrow() == key => self.0.take().map(|(_, v)| v),
            _ => None,
        }
    }
}

/// The reads of `ReadAhead`, each waiting for its call.
#[derive(Default)]
pub(crate) struct Ahead {
    pub client: Slot<String, Option<ClientRecord>>,
    pub credits: Slot<String, Vec<ReferralRecord>>,
    pub bot_customer: Slot<String, Option<BotCustomer>>,
    pub chat: Slot<String, Option<ClientChat>>,
    pub shop_customer: Slot<String, Option<ShopCustomer>>,
    pub plan: Slot<i32, Option<PlanRecord>>,
    pub device_settings: Slot<(), Option<DeviceSettings>>,
    pub consent: Slot<String, Option<RenewalConsent>>,
    pub endpoints: Slot<String, Vec<WebhookEndpointRecord>>,
}

/// `query(key)`'s answer, or nothing without a key.
async fn when<K, F: Future>(key: Option<K>, query: impl FnOnce(K) -> F) -> Option<F::Output> {
    match key {
        Some(key) => Some(query(key).await),
        None => None,
    }
}

/// Which of the reads that usually find nothing would find something: the client's referral
/// credits, bot customer, chat and shop customer, and the invoice's consent.
#[derive(Clone, Copy, Default)]
struct Found {
    credits: bool,
    bot_customer: bool,
    chat: bool,
    shop_customer: bool,
    consent: bool,
}

pub(crate) async fn read(tx: &mut StoreTx, want: ReadAhead<'_>) -> StoreResult<()> {
    let DbConn::Postgres(object) = tx.conn().await? else { return Ok(()) };
    let c: &AsyncPgConnection = object;
    let settings = want.device_settings.then_some(());
    // The five reads that find nothing for most customers are asked first whether they would
    // find anything, in one statement: a statement costs the server an execution and a reply
    // of its own, and only what exists is read after. Polled in this order, so sent in it:
    // one round trip for all.
    let asked = want.client.is_some() || want.consent_of_invoice.is_some();
    let (client, plan, device_settings, endpoints, found) = tokio::join!(
        when(want.client, |r| client_by_ref!(r).load::<(ClientRow, Option<SubscriptionRow>)>(&mut &*c)),
        when(want.plan, |id| plan_by_id!(id).first::<PlanRow>(&mut &*c)),
        when(settings, |()| the_device_settings!().first::<DeviceSettingsRow>(&mut &*c)),
        when(want.webhook_endpoints, |a| {
            endpoints_query!().filter(crate::schema::webhook_endpoints::account_id.eq(a)).load::<EndpointRow>(&mut &*c)
        }),
        when(asked.then_some(()), |()| {
            // A missing key stands for nothing: no client or payment id is empty.
            let (r, p) = (want.client.unwrap_or_default(), want.consent_of_invoice.unwrap_or_default());
            diesel::select((
                exists(credits_of!(r)),
                exists(bot_customer_of_client!(r)),
                exists(chat_of_client!(r)),
                exists(shop_customer_of_client!(r)),
                exists(consent_of_invoice!(p)),
            ))
            .get_result::<(bool, bool, bool, bool, bool)>(&mut &*c)
        }),
    );
    let found = match found.transpose().map_err(db)? {
        Some((credits, bot_customer, chat, shop_customer, consent)) => {
            Found { credits, bot_customer, chat, shop_customer, consent }
        }
        None => Found::default(),
    };
    let of_client = |found: bool| want.client.filter(|_| found);
    let (credits, bot_customer, chat, shop_customer, consent) = tokio::join!(
        when(of_client(found.credits), |r| credits_of!(r).load::<ReferralRow>(&mut &*c)),
        when(of_client(found.bot_customer), |r| bot_customer_of_client!(r).first::<BotCustomerRow>(&mut &*c)),
        when(of_client(found.chat), |r| chat_of_client!(r).first::<ClientChatRow>(&mut &*c)),
        when(of_client(found.shop_customer), |r| shop_customer_of_client!(r).first::<CustomerRow>(&mut &*c)),
        when(want.consent_of_invoice.filter(|_| found.consent), |p| {
            consent_of_invoice!(p).first::<RenewalConsentRow>(&mut &*c)
        }),
    );
    let ahead = &mut tx.ahead;
    let key = want.client.map(str::to_owned);
    ahead.client.fill(key.clone(), client.map(|r| clients::first(r.map_err(db)?)).transpose()?);
    let credits = credits.map(|r| r.map_err(db)?.into_iter().map(referrals::record).collect()).transpose()?;
    ahead.credits.fill(key.clone(), Some(credits.unwrap_or_default()));
    let bot_customer = bot_customer.map(|r| r.optional().map(|row| row.map(bot_customers::customer))).transpose();
    ahead.bot_customer.fill(key.clone(), Some(bot_customer.map_err(db)?.flatten()));
    let chat = chat.map(|r| r.optional().map(|row| row.map(customer_chats::chat))).transpose().map_err(db)?;
    ahead.chat.fill(key.clone(), Some(chat.flatten()));
    let shop_customer = shop_customer.map(|r| shop::customer(r.optional().map_err(db)?)).transpose()?;
    ahead.shop_customer.fill(key, Some(shop_customer.flatten()));
    ahead.plan.fill(want.plan, plan.map(|r| r.optional().map_err(db)?.map(convert::plan).transpose()).transpose()?);
    ahead.device_settings.fill(
        settings,
        device_settings.map(|r| r.optional().map_err(db)?.map(convert::device_settings).transpose()).transpose()?,
    );
    let consent = consent.map(|r| r.optional().map_err(db)?.map(renewals::consent).transpose()).transpose()?;
    ahead.consent.fill(want.consent_of_invoice.map(str::to_owned), Some(consent.flatten()));
    ahead.endpoints.fill(
        want.webhook_endpoints.map(str::to_owned),
        endpoints.map(|r| r.map(|rows| rows.into_iter().map(events::endpoint).collect())).transpose().map_err(db)?,
    );
    Ok(())
}
