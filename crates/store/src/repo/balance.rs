//! The partner balance ledger and withdrawal requests: `BalanceRepo` for the unit of work.

use async_trait::async_trait;
use time::OffsetDateTime;
use vp_domain::{AccountId, WithdrawalId};
use vp_ports::{BalanceRepo, Cursor};

use crate::tx::StoreTx;
use diesel::dsl::sql;
use diesel::sql_types::{BigInt, Nullable};
use diesel::{BoolExpressionMethods, ExpressionMethods, OptionalExtension, QueryDsl, SelectableHelper};
use diesel_async::RunQueryDsl;
use vp_domain::Money;
use vp_domain::withdrawal::{Balance, WithdrawalStatus};
use vp_ports::balance::*;
use vp_ports::store::StoreResult;

use crate::cached::by_sql;
use crate::convert::{db_time, utc};
use crate::deferred::write_with_next;
use crate::errors::{corrupt, db};
use crate::models::{LedgerRow, WithdrawalRow};
use crate::pool::db_run;
use crate::repo::{page_after, page_before, page_cursor, range_cursor};
use crate::schema::{ledger_entries, withdrawals};

fn ledger_row(e: &LedgerEntry) -> LedgerRow {
    let (payment_id, withdrawal_id) = match &e.subject {
        LedgerSubject::Invoice(id) => (Some(id.clone()), None),
        LedgerSubject::Withdrawal(id) => (None, Some(id.clone())),
    };
    LedgerRow {
        id: e.id.clone(),
        account_id: e.account_id.to_string(),
        payment_id,
        withdrawal_id,
        kind: e.kind.as_str().to_owned(),
        amount: e.amount.kopecks(),
        held: e.held.kopecks(),
        created_at: db_time(e.created_at),
    }
}

fn ledger(r: LedgerRow) -> StoreResult<LedgerEntry> {
    let kind =
        LedgerKind::parse(&r.kind).ok_or_else(|| corrupt(format!("stored ledger kind {:?} is not valid", r.kind)))?;
    let subject = match (r.payment_id, r.withdrawal_id) {
        (Some(id), None) => LedgerSubject::Invoice(id),
        (None, Some(id)) => LedgerSubject::Withdrawal(id),
        _ => return Err(corrupt(format!("ledger entry {} is about neither one invoice nor one withdrawal", r.id))),
    };
    Ok(LedgerEntry {
        id: r.id,
        account_id: AccountId::issued(r.account_id),
        subject,
        kind,
        amount: Money::from_kopecks(r.amount),
        held: Money::from_kopecks(r.held),
        created_at: utc(r.created_at),
    })
}

fn withdrawal_row(w: &WithdrawalRecord) -> WithdrawalRow {
    WithdrawalRow {
        id: w.id.to_string(),
        account_id: w.account_id.to_string(),
        amount: w.amount.kopecks(),
        payout_details: w.payout_details.clone(),
        status: w.status.as_str().to_owned(),
        note: w.note.clone(),
        requested_by: w.requested_by.clone(),
        created_at: db_time(w.created_at),
        updated_at: db_time(w.updated_at),
    }
}

fn withdrawal(r: WithdrawalRow) -> StoreResult<WithdrawalRecord> {
    let status = WithdrawalStatus::parse(&r.status)
        .ok_or_else(|| corrupt(format!("stored withdrawal status {:?} is not valid", r.status)))?;
    Ok(WithdrawalRecord {
        id: WithdrawalId::issued(r.id),
        account_id: AccountId::issued(r.account_id),
        amount: Money::from_kopecks(r.amount),
        payout_details: r.payout_details,
        status,
        note: r.note,
        requested_by: r.requested_by,
        created_at: utc(r.created_at),
        updated_at: utc(r.updated_at),
    })
}

#[async_trait]
impl BalanceRepo for StoreTx {
    async fn insert_ledger_entry(&mut self, entry: &LedgerEntry) -> StoreResult<()> {
        let row = ledger_row(entry);
        write_with_next!(self, by_sql(diesel::insert_into(ledger_entries::table).values(&row)))
    }

    async fn ledger_entries(
        &mut self,
        account_id: &str,
        before: Option<Cursor>,
        limit: u32,
    ) -> StoreResult<Vec<LedgerEntry>> {
        use ledger_entries::dsl as l;
        let conn = self.conn().await?;
        let cursor = page_cursor(before);
        let rows: Vec<LedgerRow> = db_run!(conn, c => {
            let entries = l::ledger_entries.filter(l::account_id.eq(account_id)).select(LedgerRow::as_select());
            page_before!(entries, l::created_at, l::id, cursor, limit).load(c).await
        })
        .map_err(db)?;
        rows.into_iter().map(ledger).collect()
    }

    async fn ledger_entries_between(
        &mut self,
        account_id: &str,
        from: OffsetDateTime,
        to: OffsetDateTime,
        after: Option<&Cursor>,
        limit: u32,
    ) -> StoreResult<Vec<LedgerEntry>> {
        use ledger_entries::dsl as l;
        let conn = self.conn().await?;
        let (cursor, to) = (range_cursor(from, after), db_time(to));
        let rows: Vec<LedgerRow> = db_run!(conn, c => {
            let entries = l::ledger_entries.filter(l::account_id.eq(account_id)).select(LedgerRow::as_select());
            page_after!(entries, l::created_at, l::id, cursor, to, limit).load(c).await
        })
        .map_err(db)?;
        rows.into_iter().map(ledger).collect()
    }

    async fn withdrawal_ledger(&mut self, withdrawal_id: &str) -> StoreResult<Vec<LedgerEntry>> {
        use ledger_entries::dsl as l;
        let conn = self.conn().await?;
        let rows: Vec<LedgerRow> = db_run!(conn, c => {
            l::ledger_entries
                .filter(l::withdrawal_id.eq(withdrawal_id))
                .select(LedgerRow::as_select())
                .order((l::created_at, l::id))
                .load(c)
                .await
        })
        .map_err(db)?;
        rows.into_iter().map(ledger).collect()
    }

    async fn partner_balance(&mut self, account_id: &str) -> StoreResult<Balance> {
        let conn = self.conn().await?;
        // SUM(bigint) is NUMERIC on PostgreSQL; the casts keep one integer type on both backends.
        let (available, held): (Option<i64>, Option<i64>) = db_run!(conn, c => {
            ledger_entries::table
                .filter(ledger_entries::account_id.eq(account_id))
                .select((
                    sql::<Nullable<BigInt>>("CAST(SUM(amount) AS BIGINT)"),
                    sql::<Nullable<BigInt>>("CAST(SUM(held) AS BIGINT)"),
                ))
                .get_result(c)
                .await
        })
        .map_err(db)?;
        Ok(Balance {
            available: Money::from_kopecks(available.unwrap_or(0)),
            held: Money::from_kopecks(held.unwrap_or(0)),
        })
    }

    async fn partner_balances(&mut self) -> StoreResult<Vec<(AccountId, Balance)>> {
        let conn = self.conn().await?;
        let rows: Vec<(String, Option<i64>, Option<i64>)> = db_run!(conn, c => {
            ledger_entries::table
                .group_by(ledger_entries::account_id)
                .select((
                    ledger_entries::account_id,
                    sql::<Nullable<BigInt>>("CAST(SUM(amount) AS BIGINT)"),
                    sql::<Nullable<BigInt>>("CAST(SUM(held) AS BIGINT)"),
                ))
                .order(ledger_entries::account_id)
                .load(c)
                .await
        })
        .map_err(db)?;
        Ok(rows
            .into_iter()
            .map(|(account_id, available, held)| {
                let balance = Balance {
                    available: Money::from_kopecks(available.unwrap_or(0)),
                    held: Money::from_kopecks(held.unwrap_or(0)),
                };
                (AccountId::issued(account_id), balance)
            })
            .collect())
    }

    async fn insert_withdrawal(&mut self, w: &WithdrawalRecord) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = withdrawal_row(w);
        db_run!(conn, c => diesel::insert_into(withdrawals::table).values(&row).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn update_withdrawal(&mut self, w: &WithdrawalRecord) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = withdrawal_row(w);
        db_run!(conn, c => diesel::update(withdrawals::table.find(w.id.as_str())).set(&row).execute(c).await)
            .map_err(db)?;
        Ok(())
    }

    async fn withdrawal(&mut self, id: &str) -> StoreResult<Option<WithdrawalRecord>> {
        let conn = self.conn().await?;
        let row: Option<WithdrawalRow> = db_run!(conn, c => {
            withdrawals::table.find(id).select(WithdrawalRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        row.map(withdrawal).transpose()
    }

    async fn withdrawals(&mut self, f: &WithdrawalFilter) -> StoreResult<Vec<WithdrawalRecord>> {
        use withdrawals::dsl as w;
        let conn = self.conn().await?;
        let cursor = page_cursor(f.before.clone());
        let rows: Vec<WithdrawalRow> = db_run!(conn, c => {
            let all = w::withdrawals.select(WithdrawalRow::as_select());
            let mut q = page_before!(all, w::created_at, w::id, cursor, f.limit).into_boxed();
            if let Some(account_id) = &f.account_id {
                q = q.filter(w::account_id.eq(account_id.to_string()));
            }
            if let Some(status) = f.status {
                q = q.filter(w::status.eq(status.as_str()));
            }
            q.load(c).await
        })
        .map_err(db)?;
        rows.into_iter().map(withdrawal).collect()
    }
}
