//! The two units of work of `POST /payments` (`Store::open_invoice`, `Store::record_invoice`),
//! each in as few trips to the database as it allows: on SQLite one blocking call for the whole
//! unit of work; on PostgreSQL its statements pipelined, so a unit of work is one or two round
//! trips. The statements are written once (the macros below) and run by `sqlite` and `postgres`.
//!
//! No account-wide lock is taken: the idempotency key's primary key serialises one key, and a
//! new client's daily limit is kept exact by the quota protocol of `repo::quotas` (on PostgreSQL
//! the shared advisory lock while the bound stays below the limit by `max_connections`, the
//! exclusive one near it).

mod postgres;
mod sqlite;

use time::PrimitiveDateTime;
use vp_ports::store::StoreResult;
use vp_ports::{DailyLimit, DailyQuota, InvoiceOpening, InvoiceRecorded, InvoiceWrite};

use crate::convert::{self, db_time, db_time_opt};
use crate::models::{ClientRow, IdempotencyRow, InvoiceRow};
use crate::repo::quotas::{CounterRow, hour_of, lock_key};

pub(crate) use postgres::{open as open_postgres, record as record_postgres};
pub(crate) use sqlite::{open as open_sqlite, record as record_sqlite};

/// `Store::open_invoice`, as rows.
pub(crate) struct Opening {
    pub key: IdempotencyRow,
    pub client_id: String,
    pub new_clients: DailyLimit,
}

impl Opening {
    pub(crate) fn new(o: InvoiceOpening<'_>) -> Opening {
        Opening {
            key: convert::idempotency_row(o.key),
            client_id: o.client_id.as_str().to_owned(),
            new_clients: *o.new_clients,
        }
    }
}

/// A new client with its count and limit.
pub(crate) struct NewClient {
    pub row: ClientRow,
    pub counter: CounterRow,
    pub limit: DailyLimit,
    pub lock_key: i64,
}

/// `Store::record_invoice`, as rows.
pub(crate) struct Recording {
    pub client: Option<NewClient>,
    pub invoice: InvoiceRow,
    pub gateway_check_at: Option<PrimitiveDateTime>,
    pub key: IdempotencyRow,
}

impl Recording {
    pub(crate) fn new(w: &InvoiceWrite) -> StoreResult<Recording> {
        let client = w.new_client.as_ref().map(|(client, limit)| NewClient {
            row: convert::client_row(client),
            counter: CounterRow::new(&client.account_id, DailyQuota::NewClients, client.created_at, &client.id),
            limit: *limit,
            lock_key: lock_key(&client.account_id, DailyQuota::NewClients),
        });
        Ok(Recording {
            client,
            invoice: convert::invoice_row(&w.invoice)?,
            gateway_check_at: db_time_opt(w.gateway_check_at),
            key: convert::idempotency_row(&w.key),
        })
    }
}

/// The first hour of a limit's window, as the counts store it.
pub(crate) fn first_hour(limit: &DailyLimit) -> i64 {
    hour_of(limit.since)
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

/// The statements, written once for both backends.
macro_rules! insert_key {
    ($row:expr) => {
        diesel::insert_into($crate::schema::idempotency_keys::table).values($row).on_conflict_do_nothing()
    };
}

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

macro_rules! new_clients_bound {
    ($account:expr, $limit:expr) => {
        $crate::schema::daily_counts::table
            .filter($crate::schema::daily_counts::account_id.eq($account))
            .filter($crate::schema::daily_counts::kind.eq(vp_ports::DailyQuota::NewClients.as_str()))
            .filter($crate::schema::daily_counts::hour.ge($crate::invoice_work::first_hour($limit)))
            .select(diesel::dsl::sql::<diesel::sql_types::BigInt>("CAST(COALESCE(SUM(n), 0) AS BIGINT)"))
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

macro_rules! insert_client {
    ($row:expr) => {
        diesel::insert_into($crate::schema::clients::table).values($row)
    };
}

macro_rules! count_record {
    ($counter:expr) => {
        diesel::insert_into($crate::schema::daily_counts::table)
            .values($counter)
            .on_conflict((
                $crate::schema::daily_counts::account_id,
                $crate::schema::daily_counts::kind,
                $crate::schema::daily_counts::hour,
                $crate::schema::daily_counts::stripe,
            ))
            .do_update()
            .set($crate::schema::daily_counts::n.eq($crate::schema::daily_counts::n + 1))
    };
}

macro_rules! insert_invoice {
    ($row:expr, $check_at:expr) => {
        diesel::insert_into($crate::schema::invoices::table)
            .values(($row, $crate::schema::invoices::gateway_check_at.eq($check_at)))
    };
}

macro_rules! finish_key {
    ($row:expr) => {
        diesel::update($crate::schema::idempotency_keys::table.find((&$row.account_id, &$row.key))).set($row)
    };
}

pub(crate) use {
    clients_in_window, count_record, existing_key, finish_key, insert_client, insert_invoice, insert_key,
    new_clients_bound, the_client,
};

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
