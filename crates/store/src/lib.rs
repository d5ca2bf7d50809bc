//! Storage adapter: implements the `Store`/`Tx` ports on PostgreSQL or SQLite, chosen at run
//! time by `DATABASE_URL`, with one schema and one set of diesel queries for both.

use std::sync::Arc;

use vp_domain::GatewayName;
use vp_ports::{Store, StoreError};

pub mod bedolaga;
mod cached;
mod convert;
mod deferred;
mod errors;
mod invoice_work;
mod migrations;
mod models;
mod pool;
mod repo;
mod schema;
mod signal;
mod sqlite_writer;
mod tx;
mod url;

pub use migrations::{migrate, revert_all};
pub use tx::PoolStore;
pub use url::{Backend, backend_of};

#[derive(Debug, Clone)]
pub struct StoreOptions {
    /// Size of the connection pool.
    pub max_connections: usize,
    /// The gateway invoices issued before rails were kept went through: the one `VP_GATEWAY`
    /// named then (docs/decisions.md, "Payment rails").
    pub legacy_gateway: GatewayName,
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions { max_connections: 8, legacy_gateway: GatewayName::Sandbox }
    }
}

/// Opens a pool on the database `database_url` names and checks that it answers. The schema
/// must already be migrated (`migrate`).
pub async fn connect(database_url: &str, opts: &StoreOptions) -> Result<Arc<PoolStore>, StoreError> {
    let target = url::parse(database_url)?;
    let (postgres_url, sqlite_path) = match &target {
        url::Target::Postgres(url) => (Some(url.clone()), None),
        url::Target::Sqlite(path) => (None, Some(path.to_string_lossy().into_owned())),
    };
    let signal = signal::DeliverySignal::new(postgres_url);
    let pool = pool::DbPool::build(&target, opts.max_connections)?;
    let open_transactions = pool.max_open_transactions().await?;
    let store = tx::PoolStore::new(pool, signal, open_transactions, sqlite_path, opts.legacy_gateway)?;
    store.ping().await?;
    Ok(Arc::new(store))
}
