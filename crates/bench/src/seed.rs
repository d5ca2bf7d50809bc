//! Grows the demo account to 100,000 clients through the storage port (as the service would
//! write them, counters included), so a phase can show that an invoice does not cost more in a
//! big account.

use time::OffsetDateTime;
use vp_domain::ClientId;
use vp_ports::{ClientRecord, Store};

/// Clients written in one unit of work.
const BATCH: usize = 1_000;

pub async fn clients(database_url: &str, account_id: &str, count: usize) -> Result<(), String> {
    let options = vp_store::StoreOptions { max_connections: 2, ..Default::default() };
    let store = vp_store::connect(database_url, &options).await.map_err(|e| e.to_string())?;
    let now = OffsetDateTime::now_utc();
    for batch in 0..count.div_ceil(BATCH) {
        let mut tx = store.begin().await.map_err(|e| e.to_string())?;
        for i in batch * BATCH..((batch + 1) * BATCH).min(count) {
            let client = ClientRecord {
                id: vp_domain::ClientRef::issued(format!("cli_seed{i:07}")),
                account_id: vp_domain::AccountId::issued(account_id.to_owned()),
                client_id: ClientId::parse(&format!("seed-{i}")).map_err(|e| e.to_string())?,
                created_at: now,
                blocked: false,
                subscription: None,
            };
            tx.insert_client(&client).await.map_err(|e| e.to_string())?;
        }
        tx.commit().await.map_err(|e| e.to_string())?;
    }
    Ok(())
}
