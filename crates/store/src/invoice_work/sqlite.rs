//! On SQLite each unit of work is one closure run by the group writer (`sqlite_writer`), in
//! its own savepoint: one writer at a time, so the new-client limit is exact without locks.

use diesel::{Connection, ExpressionMethods, OptionalExtension, QueryDsl, RunQueryDsl, SqliteConnection};
use vp_ports::store::StoreResult;
use vp_ports::{InvoiceRecorded, OpenedInvoice};

use super::{Opening, Recording, clients_in_window, conflict_outcome, existing_key, the_client};
use crate::convert;
use crate::errors::corrupt;
use crate::models::IdempotencyRow;
use crate::repo::clients::{ClientRows, first};
use crate::sqlite_writer::GroupWriter;

pub(crate) async fn open(writer: &GroupWriter, o: Opening) -> StoreResult<OpenedInvoice> {
    let (existing, rows, bound) = writer
        .run(move |c: &mut SqliteConnection| {
            let inserted = (&o.insert_key).execute(c)?;
            let existing: Option<IdempotencyRow> =
                if inserted == 0 { existing_key!(o.insert_key.0).first(c).optional()? } else { None };
            let rows: ClientRows = the_client!(o.account_id(), &o.client_id).load(c)?;
            let bound: i64 = (&o.new_clients).get_result(c)?;
            Ok((existing, rows, bound))
        })
        .await?;
    Ok(OpenedInvoice {
        existing_key: existing.map(convert::idempotency).transpose()?,
        client: first(rows)?,
        new_clients_bound: u64::try_from(bound).map_err(|_| corrupt("negative daily count"))?,
    })
}

/// Ends the transaction without writing, with an outcome other than `Recorded`.
enum Abort {
    Outcome(InvoiceRecorded),
    Db(diesel::result::Error),
}

impl From<diesel::result::Error> for Abort {
    fn from(e: diesel::result::Error) -> Self {
        match conflict_outcome(&e) {
            Some(outcome) => Abort::Outcome(outcome),
            None => Abort::Db(e),
        }
    }
}

pub(crate) async fn record(writer: &GroupWriter, r: Recording) -> StoreResult<InvoiceRecorded> {
    writer
        .run(move |c: &mut SqliteConnection| {
            // A savepoint of its own: an outcome other than `Recorded` undoes what it wrote.
            let result = c.transaction(|c| {
                if let Some(new) = &r.client {
                    let bound: i64 = (&new.window).get_result(c)?;
                    if bound >= i64::from(new.limit.limit) {
                        let in_window: Vec<time::PrimitiveDateTime> =
                            clients_in_window!(&new.insert.0.account_id, &new.limit).load(c)?;
                        if in_window.len() >= usize::try_from(new.limit.limit).unwrap_or(usize::MAX) {
                            return Err(Abort::Outcome(InvoiceRecorded::DailyLimitReached));
                        }
                    }
                    (&new.insert).execute(c)?;
                    (&new.count).execute(c)?;
                }
                (&r.insert_invoice).execute(c)?;
                (&r.finish_key).execute(c)?;
                Ok(InvoiceRecorded::Recorded)
            });
            match result {
                Ok(outcome) | Err(Abort::Outcome(outcome)) => Ok(outcome),
                Err(Abort::Db(e)) => Err(e),
            }
        })
        .await
}
