//! The two units of work of `POST /payments` (`Store::open_invoice`, `Store::record_invoice`),
//! in as few trips to the database as they allow: on SQLite one blocking call for the whole unit
//! of work, in the group writer's transaction; on PostgreSQL in groups too (`postgres_group`),
//! one transaction of pipelined statements for every unit queued at once. The statements are
//! written once (the macros below) and run by `sqlite`, `postgres` and `postgres_group`.
//!
//! No account-wide lock is taken: the idempotency key's primary key serialises one key, and a
//! new client's daily limit is kept exact by the quota protocol of `repo::quotas` (on PostgreSQL
//! the shared advisory lock while the bound stays below the limit by the margin of `Margin`, the
//! exclusive one near it).

mod group_statements;
mod postgres;
mod postgres_group;
mod sqlite;
pub(crate) mod statements;

use time::PrimitiveDateTime;
use vp_ports::store::StoreResult;
use vp_ports::{DailyLimit, DailyQuota, InvoiceOpening, InvoiceRecorded, InvoiceWrite};

use crate::convert::{self, db_time, db_time_opt};
use crate::repo::quotas::{CounterRow, lock_key, window_counts};
use statements::{CountRecord, CountsFrom, FinishKey, InsertClient, InsertInvoice, InsertKey};

pub(crate) use postgres::{AsyncCommit, Begin, Commit, Margin, NotifyDeliveries};
pub(crate) use postgres_group::PgGroups;
pub(crate) use sqlite::{open as open_sqlite, record as record_sqlite};

/// `Store::open_invoice`, as statements.
pub(crate) struct Opening {
    pub insert_key: InsertKey,
    pub client_id: String,
    pub new_clients: CountsFrom,
}

impl Opening {
    pub(crate) fn new(o: InvoiceOpening<'_>) -> Opening {
        Opening {
            insert_key: InsertKey(convert::idempotency_row(o.key)),
            client_id: o.client_id.as_str().to_owned(),
            new_clients: window_counts(&o.key.account_id, o.new_clients),
        }
    }

    pub(crate) fn account_id(&self) -> &str {
        &self.insert_key.0.account_id
    }
}

/// A new client with its count and limit.
pub(crate) struct NewClient {
    pub insert: InsertClient,
    pub count: CountRecord,
    pub window: CountsFrom,
    pub limit: DailyLimit,
    pub lock_key: i64,
}

/// `Store::record_invoice`, as statements.
pub(crate) struct Recording {
    pub client: Option<NewClient>,
    pub insert_invoice: InsertInvoice,
    pub finish_key: FinishKey,
}

impl Recording {
    pub(crate) fn new(w: &InvoiceWrite) -> StoreResult<Recording> {
        let client = w.new_client.as_ref().map(|(client, limit)| NewClient {
            insert: InsertClient(convert::client_row(client)),
            count: CountRecord(CounterRow::new(
                &client.account_id,
                DailyQuota::NewClients,
                client.created_at,
                &client.id,
            )),
            window: window_counts(&client.account_id, limit),
            limit: *limit,
            lock_key: lock_key(&client.account_id, DailyQuota::NewClients),
        });
        Ok(Recording {
            client,
            insert_invoice: InsertInvoice {
                row: convert::invoice_row(&w.invoice)?,
                gateway_check_at: db_time_opt(w.gateway_check_at),
            },
            finish_key: FinishKey { account_id: w.key.account_id.to_string(), key: w.key.key.clone() },
        })
    }
}

pub(crate) fn since(limit: &DailyLimit) -> PrimitiveDateTime {
    db_time(limit.since)
}

/// What a refused write of the recording means: a client or invoice that exists already.
pub(crate) fn conflict_outcome(e: &diesel::result::Error) -> Option<InvoiceRecorded> {
    let diesel::result::Error::DatabaseError(diesel::result::DatabaseErrorKind::UniqueViolation, info) = e else {
        return None;
    };
    // PostgreSQL names the table; SQLite says "UNIQUE constraint failed: clients.client_id".
    let table = info.table_name().map(str::to_owned).unwrap_or_else(|| {
        let message = info.message();
        message.rsplit(": ").next().and_then(|cols| cols.split('.').next()).unwrap_or("").to_owned()
    });
    match table.as_str() {
        "clients" => Some(InvoiceRecorded::ClientExists),
        "invoices" => Some(InvoiceRecorded::AlreadyRecorded),
        _ => None,
    }
}

/// The statements the builder writes cacheably, written once for both backends.
macro_rules! existing_key {
    ($row:expr) => {
        $crate::schema::idempotency_keys::table
            .find((&$row.account_id, &$row.key))
            .select(<$crate::models::IdempotencyRow as diesel::SelectableHelper<_>>::as_select())
    };
}

macro_rules! the_client {
    ($account:expr, $client_id:expr) => {
        $crate::repo::clients::client_query!()
            .filter($crate::schema::clients::account_id.eq($account))
            .filter($crate::schema::clients::client_id.eq($client_id))
            .limit(1)
    };
}

/// At most `limit` clients of the window (their creation times), to count exactly.
macro_rules! clients_in_window {
    ($account:expr, $limit:expr) => {
        $crate::schema::clients::table
            .filter($crate::schema::clients::account_id.eq($account))
            .filter($crate::schema::clients::created_at.gt($crate::invoice_work::since($limit)))
            .select($crate::schema::clients::created_at)
            .limit(i64::from($limit.limit))
    };
}

pub(crate) use {clients_in_window, existing_key, the_client};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_messages_name_the_table_of_the_conflict() {
        struct Info(&'static str);
        impl diesel::result::DatabaseErrorInformation for Info {
            fn message(&self) -> &str {
                self.0
            }
            fn details(&self) -> Option<&str> {
                None
            }
            fn hint(&self) -> Option<&str> {
                None
            }
            fn table_name(&self) -> Option<&str> {
                None
            }
            fn column_name(&self) -> Option<&str> {
                None
            }
            fn constraint_name(&self) -> Option<&str> {
                None
            }
            fn statement_position(&self) -> Option<i32> {
                None
            }
        }
        let unique = |m: &'static str| {
            diesel::result::Error::DatabaseError(diesel::result::DatabaseErrorKind::UniqueViolation, Box::new(Info(m)))
        };
        let client = unique("UNIQUE constraint failed: clients.account_id, clients.client_id");
        assert_eq!(conflict_outcome(&client), Some(InvoiceRecorded::ClientExists));
        let invoice = unique("UNIQUE constraint failed: invoices.payment_id");
        assert_eq!(conflict_outcome(&invoice), Some(InvoiceRecorded::AlreadyRecorded));
        assert_eq!(conflict_outcome(&unique("UNIQUE constraint failed: api_keys.key_hash")), None);
    }
}
