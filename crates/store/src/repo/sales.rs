//! A partner's sales figures per day: `SalesRepo` for the unit of work. Days are kept as
//! `YYYY-MM-DD` text, which sorts and compares as the days do.

use async_trait::async_trait;
use diesel::{ExpressionMethods, QueryDsl, SelectableHelper};
use diesel_async::RunQueryDsl;
use time::{Date, OffsetDateTime};
use vp_domain::Money;
use vp_domain::sales::Figures;
use vp_domain::time_zone::parse_day;
use vp_ports::store::StoreResult;
use vp_ports::{DailySales, SalesRepo};

use crate::convert::{db_time, int, utc};
use crate::errors::{corrupt, db};
use crate::models::DailySalesRow;
use crate::pool::{db_run, insert_rows};
use crate::schema::{daily_sales, trial_grants};
use crate::tx::StoreTx;

#[async_trait]
impl SalesRepo for StoreTx {
    async fn replace_daily_sales(
        &mut self,
        account_id: &str,
        first: Date,
        last: Date,
        rows: &[DailySales],
    ) -> StoreResult<()> {
        let rows = rows.iter().map(|r| row(account_id, r)).collect::<StoreResult<Vec<_>>>()?;
        let conn = self.conn().await?;
        db_run!(conn, c => {
            diesel::delete(
                daily_sales::table
                    .filter(daily_sales::account_id.eq(account_id))
                    .filter(daily_sales::day.ge(first.to_string()))
                    .filter(daily_sales::day.le(last.to_string())),
            )
            .execute(c)
            .await
        })
        .map_err(db)?;
        if !rows.is_empty() {
            insert_rows!(conn, daily_sales::table, &rows);
        }
        Ok(())
    }

    async fn daily_sales(&mut self, account_id: &str, first: Date, last: Date) -> StoreResult<Vec<DailySales>> {
        let conn = self.conn().await?;
        let rows: Vec<DailySalesRow> = db_run!(conn, c => {
            daily_sales::table
                .filter(daily_sales::account_id.eq(account_id))
                .filter(daily_sales::day.ge(first.to_string()))
                .filter(daily_sales::day.le(last.to_string()))
                .order((daily_sales::day.asc(), daily_sales::method.asc()))
                .select(DailySalesRow::as_select())
                .load(c)
                .await
        })
        .map_err(db)?;
        rows.into_iter().map(daily).collect()
    }

    async fn trials_granted_between(
        &mut self,
        account_id: &str,
        from: OffsetDateTime,
        to: OffsetDateTime,
    ) -> StoreResult<Vec<OffsetDateTime>> {
        let conn = self.conn().await?;
        let (from, to) = (db_time(from), db_time(to));
        let at: Vec<time::PrimitiveDateTime> = db_run!(conn, c => {
            trial_grants::table
                .filter(trial_grants::account_id.eq(account_id))
                .filter(trial_grants::granted_at.ge(from))
                .filter(trial_grants::granted_at.lt(to))
                .select(trial_grants::granted_at)
                .load(c)
                .await
        })
        .map_err(db)?;
        Ok(at.into_iter().map(utc).collect())
    }
}

fn row(account_id: &str, r: &DailySales) -> StoreResult<DailySalesRow> {
    let f = &r.figures;
    Ok(DailySalesRow {
        account_id: account_id.to_owned(),
        day: r.day.to_string(),
        method: r.method.clone(),
        issued: int(f.issued, "invoices issued")?,
        paid: int(f.paid, "invoices paid")?,
        refunded: int(f.refunded, "invoices refunded")?,
        failed: int(f.failed, "invoices failed")?,
        expired: int(f.expired, "invoices expired")?,
        gross: f.gross.kopecks(),
        partner_share: f.partner_share.kopecks(),
        new_clients: int(f.new_clients, "clients made")?,
        trials: int(f.trials, "trials started")?,
    })
}

fn daily(r: DailySalesRow) -> StoreResult<DailySales> {
    let count = |v: i32, what: &str| u32::try_from(v).map_err(|_| corrupt(format!("{what} {v}")));
    Ok(DailySales {
        day: parse_day(&r.day).ok_or_else(|| corrupt(format!("sales day {}", r.day)))?,
        figures: Figures {
            issued: count(r.issued, "invoices issued")?,
            paid: count(r.paid, "invoices paid")?,
            refunded: count(r.refunded, "invoices refunded")?,
            failed: count(r.failed, "invoices failed")?,
            expired: count(r.expired, "invoices expired")?,
            gross: Money::from_kopecks(r.gross),
            partner_share: Money::from_kopecks(r.partner_share),
            new_clients: count(r.new_clients, "clients made")?,
            trials: count(r.trials, "trials started")?,
        },
        method: r.method,
    })
}
