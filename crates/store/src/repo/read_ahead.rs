//! `Tx::read_ahead`: on PostgreSQL the named reads go out pipelined, one round trip for all,
//! and wait in the unit of work (`Ahead`) for the repository call each answers, once. On
//! SQLite, in-process, a read costs no trip: nothing is read ahead.

use std::borrow::Borrow;

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

pub(crate) async fn read(tx: &mut StoreTx, want: ReadAhead<'_>) -> StoreResult<()> {
    let DbConn::Postgres(object) = tx.conn().await? else { return Ok(()) };
    let c: &AsyncPgConnection = object;
    let settings = want.device_settings.then_some(());
    // Polled in this order, so sent in it: one round trip for all.
    let (client, credits, bot_customer, chat, shop_customer, plan, device_settings, consent, endpoints) = tokio::join!(
        when(want.client, |r| client_by_ref!(r).load::<(ClientRow, Option<SubscriptionRow>)>(&mut &*c)),
        when(want.client, |r| credits_of!(r).load::<ReferralRow>(&mut &*c)),
        when(want.client, |r| bot_customer_of_client!(r).first::<BotCustomerRow>(&mut &*c)),
        when(want.client, |r| chat_of_client!(r).first::<ClientChatRow>(&mut &*c)),
        when(want.client, |r| shop_customer_of_client!(r).first::<CustomerRow>(&mut &*c)),
        when(want.plan, |id| plan_by_id!(id).first::<PlanRow>(&mut &*c)),
        when(settings, |()| the_device_settings!().first::<DeviceSettingsRow>(&mut &*c)),
        when(want.consent_of_invoice, |p| consent_of_invoice!(p).first::<RenewalConsentRow>(&mut &*c)),
        when(want.webhook_endpoints, |a| {
            endpoints_query!().filter(crate::schema::webhook_endpoints::account_id.eq(a)).load::<EndpointRow>(&mut &*c)
        }),
    );
    let ahead = &mut tx.ahead;
    let key = want.client.map(str::to_owned);
    ahead.client.fill(key.clone(), client.map(|r| clients::first(r.map_err(db)?)).transpose()?);
    ahead
        .credits
        .fill(key.clone(), credits.map(|r| r.map_err(db)?.into_iter().map(referrals::record).collect()).transpose()?);
    ahead.bot_customer.fill(
        key.clone(),
        bot_customer.map(|r| r.optional().map(|row| row.map(bot_customers::customer))).transpose().map_err(db)?,
    );
    ahead.chat.fill(
        key.clone(),
        chat.map(|r| r.optional().map(|row| row.map(customer_chats::chat))).transpose().map_err(db)?,
    );
    ahead.shop_customer.fill(key, shop_customer.map(|r| shop::customer(r.optional().map_err(db)?)).transpose()?);
    ahead.plan.fill(want.plan, plan.map(|r| r.optional().map_err(db)?.map(convert::plan).transpose()).transpose()?);
    ahead.device_settings.fill(
        settings,
        device_settings.map(|r| r.optional().map_err(db)?.map(convert::device_settings).transpose()).transpose()?,
    );
    ahead.consent.fill(
        want.consent_of_invoice.map(str::to_owned),
        consent.map(|r| r.optional().map_err(db)?.map(renewals::consent).transpose()).transpose()?,
    );
    ahead.endpoints.fill(
        want.webhook_endpoints.map(str::to_owned),
        endpoints.map(|r| r.map(|rows| rows.into_iter().map(events::endpoint).collect())).transpose().map_err(db)?,
    );
    Ok(())
}
