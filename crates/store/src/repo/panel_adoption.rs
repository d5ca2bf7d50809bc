//! `PanelAdoptionRepo`: clients made from an existing panel's users. The clients, their
//! subscriptions and their bot customers go in as many rows per statement as PostgreSQL takes
//! (SQLite, whose one writer makes rows cheap, one by one), so a page of an import is a few
//! round trips.

use async_trait::async_trait;
use diesel::{ExpressionMethods, QueryDsl};
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use vp_domain::{AccountId, ClientId, ClientRef};
use vp_ports::records::ClientRecord;
use vp_ports::store::StoreResult;
use vp_ports::{AdoptedClient, ImportedBalance, PanelAdoption, PanelAdoptionRepo};

use crate::convert::{self, db_time};
use crate::errors::{corrupt, db};
use crate::models::{BotCustomerRow, ClientChatRow, SubscriptionRow};
use crate::pool::{db_run, insert_rows};
use crate::repo::clients::{ClientRows, client_query, first};
use crate::schema::{bot_customers, client_chats, clients, imported_balances, subscriptions};
use crate::tx::StoreTx;

#[async_trait]
impl PanelAdoptionRepo for StoreTx {
    async fn panel_adoptions(&mut self, panel_ids: &[String]) -> StoreResult<Vec<PanelAdoption>> {
        let conn = self.conn().await?;
        let rows: Vec<(Option<String>, String, String)> = db_run!(conn, c => {
            subscriptions::table
                .inner_join(clients::table)
                .filter(subscriptions::panel_id.eq_any(panel_ids))
                .select((subscriptions::panel_id, clients::account_id, clients::client_id))
                .load(c)
                .await
        })
        .map_err(db)?;
        rows.into_iter()
            .map(|(panel_id, account_id, client_id)| {
                Ok(PanelAdoption {
                    panel_id: panel_id.ok_or_else(|| corrupt("an adopted subscription without its panel id"))?,
                    account_id: AccountId::issued(account_id),
                    client_id: ClientId::parse(&client_id)
                        .map_err(|e| corrupt(format!("client_id {client_id}: {e}")))?,
                })
            })
            .collect()
    }

    async fn link_tokens_in_use(&mut self, tokens: &[String]) -> StoreResult<Vec<String>> {
        let conn = self.conn().await?;
        db_run!(conn, c => {
            subscriptions::table
                .filter(subscriptions::link_token.eq_any(tokens))
                .select(subscriptions::link_token)
                .load(c)
                .await
        })
        .map_err(db)
    }

    async fn existing_client_ids(&mut self, account_id: &str, client_ids: &[ClientId]) -> StoreResult<Vec<ClientId>> {
        let ids: Vec<&str> = client_ids.iter().map(ClientId::as_str).collect();
        let conn = self.conn().await?;
        let found: Vec<String> = db_run!(conn, c => {
            clients::table
                .filter(clients::account_id.eq(account_id))
                .filter(clients::client_id.eq_any(ids))
                .select(clients::client_id)
                .load(c)
                .await
        })
        .map_err(db)?;
        found.iter().map(|id| ClientId::parse(id).map_err(|e| corrupt(format!("client_id {id}: {e}")))).collect()
    }

    async fn adopt_panel_users(&mut self, adopted: &[AdoptedClient], at: OffsetDateTime) -> StoreResult<()> {
        if adopted.is_empty() {
            return Ok(());
        }
        let clients: Vec<_> = adopted.iter().map(|a| convert::client_row(&a.client)).collect();
        let mut subscriptions = Vec::with_capacity(adopted.len());
        for a in adopted {
            let Some(record) = &a.client.subscription else { continue };
            let row = convert::subscription_row(&a.client.id, record)?;
            // The panel holds the user already: nothing is owed to it.
            subscriptions.push(SubscriptionRow { panel_id: Some(a.panel_id.clone()), ..row });
        }
        let at = db_time(at);
        let customers: Vec<BotCustomerRow> = adopted
            .iter()
            .filter_map(|a| {
                let user_id = a.telegram_id?;
                Some(BotCustomerRow {
                    account_id: a.client.account_id.to_string(),
                    user_id,
                    // A private chat's id is the user's own.
                    chat_id: user_id,
                    started_at: at,
                    last_seen_at: at,
                    client_ref: Some(a.client.id.to_string()),
                    receipt_email: None,
                    promo_code: None,
                    promo_asked_at: None,
                    refused_at: None,
                })
            })
            .collect();
        let chats: Vec<ClientChatRow> = customers
            .iter()
            .map(|c| ClientChatRow {
                client_ref: c.client_ref.clone().unwrap_or_default(),
                account_id: c.account_id.clone(),
                chat_id: c.chat_id,
                linked_at: at,
            })
            .collect();
        let conn = self.conn().await?;
        insert_rows!(conn, clients::table, &clients);
        insert_rows!(conn, subscriptions::table, &subscriptions);
        insert_rows!(conn, bot_customers::table, &customers);
        insert_rows!(conn, client_chats::table, &chats);
        Ok(())
    }

    async fn record_imported_balances(&mut self, balances: &[ImportedBalance]) -> StoreResult<u64> {
        use imported_balances::dsl as b;
        let conn = self.conn().await?;
        let mut recorded = 0;
        for balance in balances {
            let row = (
                b::account_id.eq(balance.account_id.as_str()),
                b::source.eq(&balance.source),
                b::source_customer_id.eq(balance.source_customer_id),
                b::telegram_id.eq(balance.telegram_id),
                b::client_ref.eq(balance.client_ref.as_ref().map(ClientRef::as_str)),
                b::amount.eq(balance.amount),
                b::currency.eq(&balance.currency),
                b::imported_at.eq(db_time(balance.imported_at)),
            );
            recorded += db_run!(conn, c => {
                diesel::insert_into(b::imported_balances).values(row).on_conflict_do_nothing().execute(c).await
            })
            .map_err(db)?;
        }
        Ok(u64::try_from(recorded).unwrap_or(0))
    }

    async fn imported_balances_of_client(&mut self, client_ref: &str) -> StoreResult<Vec<ImportedBalance>> {
        use imported_balances::dsl as b;
        type Row = (String, String, i64, Option<i64>, Option<String>, i64, String, time::PrimitiveDateTime);
        let conn = self.conn().await?;
        let rows: Vec<Row> = db_run!(conn, c => {
            b::imported_balances
                .filter(b::client_ref.eq(client_ref))
                .order((b::source, b::source_customer_id))
                .select((
                    b::account_id,
                    b::source,
                    b::source_customer_id,
                    b::telegram_id,
                    b::client_ref,
                    b::amount,
                    b::currency,
                    b::imported_at,
                ))
                .load(c)
                .await
        })
        .map_err(db)?;
        Ok(rows
            .into_iter()
            .map(|(account_id, source, source_customer_id, telegram_id, client_ref, amount, currency, at)| {
                ImportedBalance {
                    account_id: AccountId::issued(account_id),
                    source,
                    source_customer_id,
                    telegram_id,
                    client_ref: client_ref.map(ClientRef::issued),
                    amount,
                    currency,
                    imported_at: crate::convert::utc(at),
                }
            })
            .collect())
    }

    async fn client_by_panel_name(&mut self, panel_name: &str) -> StoreResult<Option<ClientRecord>> {
        let conn = self.conn().await?;
        let rows: ClientRows = db_run!(conn, c => {
            client_query!().filter(subscriptions::panel_name.eq(panel_name)).limit(1).load(c).await
        })
        .map_err(db)?;
        first(rows)
    }
}
