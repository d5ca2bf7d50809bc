//! Telegram Stars: `StarsRepo` for the unit of work (rates, Stars invoices, charges and
//! subscriptions).

use async_trait::async_trait;
use diesel::{ExpressionMethods, OptionalExtension, QueryDsl, SelectableHelper};
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use vp_domain::Money;
use vp_domain::stars::StarsRate;
use vp_domain::{AccountId, ClientRef};
use vp_ports::store::StoreResult;
use vp_ports::{StarsCharge, StarsInvoice, StarsRepo, StarsSubscription};

use crate::convert::{db_time, db_time_opt, utc};
use crate::errors::{corrupt, db};
use crate::models::{StarsChargeRow, StarsInvoiceRow, StarsRateRow, StarsSubscriptionRow};
use crate::pool::{db_run, upsert};
use crate::schema::{stars_charges, stars_invoices, stars_rates, stars_subscriptions};
use crate::tx::StoreTx;

fn charge_row(c: &StarsCharge) -> StarsChargeRow {
    StarsChargeRow {
        charge_id: c.charge_id.clone(),
        account_id: c.account_id.to_string(),
        payment_id: c.payment_id.clone(),
        user_id: c.user_id,
        stars: c.stars,
        renewal: c.renewal,
        paid_at: db_time(c.paid_at),
        refunded_at: db_time_opt(c.refunded_at),
    }
}

fn charge(r: StarsChargeRow) -> StarsCharge {
    StarsCharge {
        charge_id: r.charge_id,
        account_id: AccountId::issued(r.account_id),
        payment_id: r.payment_id,
        user_id: r.user_id,
        stars: r.stars,
        renewal: r.renewal,
        paid_at: utc(r.paid_at),
        refunded_at: r.refunded_at.map(utc),
    }
}

fn subscription_row(s: &StarsSubscription) -> StarsSubscriptionRow {
    StarsSubscriptionRow {
        charge_id: s.charge_id.clone(),
        account_id: s.account_id.to_string(),
        client_ref: s.client_ref.to_string(),
        payment_id: s.payment_id.clone(),
        user_id: s.user_id,
        stars: s.stars,
        paid_until: db_time(s.paid_until),
        canceled_at: db_time_opt(s.canceled_at),
    }
}

fn subscription(r: StarsSubscriptionRow) -> StarsSubscription {
    StarsSubscription {
        charge_id: r.charge_id,
        account_id: AccountId::issued(r.account_id),
        client_ref: ClientRef::issued(r.client_ref),
        payment_id: r.payment_id,
        user_id: r.user_id,
        stars: r.stars,
        paid_until: utc(r.paid_until),
        canceled_at: r.canceled_at.map(utc),
    }
}

#[async_trait]
impl StarsRepo for StoreTx {
    async fn stars_rate(&mut self, account_id: &str) -> StoreResult<Option<StarsRate>> {
        let conn = self.conn().await?;
        let row: Option<StarsRateRow> = db_run!(conn, c => {
            stars_rates::table.find(account_id).select(StarsRateRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        row.map(|r| {
            StarsRate::from_rubles(Money::from_kopecks(r.kopecks_per_star))
                .map_err(|e| corrupt(format!("stars rate of {account_id}: {e}")))
        })
        .transpose()
    }

    async fn set_stars_rate(
        &mut self,
        account_id: &str,
        rate: Option<StarsRate>,
        now: OffsetDateTime,
    ) -> StoreResult<()> {
        let conn = self.conn().await?;
        let Some(rate) = rate else {
            db_run!(conn, c => diesel::delete(stars_rates::table.find(account_id)).execute(c).await).map_err(db)?;
            return Ok(());
        };
        let row = StarsRateRow {
            account_id: account_id.to_owned(),
            kopecks_per_star: rate.rubles().kopecks(),
            updated_at: db_time(now),
        };
        upsert!(conn, stars_rates::table, stars_rates::account_id, &row)
    }

    async fn insert_stars_invoice(&mut self, i: &StarsInvoice) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = StarsInvoiceRow {
            payment_id: i.payment_id.clone(),
            account_id: i.account_id.to_string(),
            stars: i.stars,
            subscription: i.subscription,
            created_at: db_time(i.created_at),
        };
        db_run!(conn, c => {
            diesel::insert_into(stars_invoices::table).values(&row).on_conflict_do_nothing().execute(c).await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn stars_invoice(&mut self, payment_id: &str) -> StoreResult<Option<StarsInvoice>> {
        let conn = self.conn().await?;
        let row: Option<StarsInvoiceRow> = db_run!(conn, c => {
            stars_invoices::table.find(payment_id).select(StarsInvoiceRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        Ok(row.map(|r| StarsInvoice {
            payment_id: r.payment_id,
            account_id: AccountId::issued(r.account_id),
            stars: r.stars,
            subscription: r.subscription,
            created_at: utc(r.created_at),
        }))
    }

    async fn insert_stars_charge(&mut self, c: &StarsCharge) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = charge_row(c);
        db_run!(conn, conn => diesel::insert_into(stars_charges::table).values(&row).execute(conn).await)
            .map_err(db)?;
        Ok(())
    }

    async fn update_stars_charge(&mut self, c: &StarsCharge) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = charge_row(c);
        db_run!(conn, conn => diesel::update(stars_charges::table.find(&c.charge_id)).set(&row).execute(conn).await)
            .map_err(db)?;
        Ok(())
    }

    async fn stars_charge(&mut self, charge_id: &str) -> StoreResult<Option<StarsCharge>> {
        let conn = self.conn().await?;
        let row: Option<StarsChargeRow> = db_run!(conn, c => {
            stars_charges::table.find(charge_id).select(StarsChargeRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        Ok(row.map(charge))
    }

    async fn stars_charge_of_invoice(&mut self, payment_id: &str) -> StoreResult<Option<StarsCharge>> {
        use stars_charges::dsl as s;
        let conn = self.conn().await?;
        let row: Option<StarsChargeRow> = db_run!(conn, c => {
            s::stars_charges.filter(s::payment_id.eq(payment_id)).select(StarsChargeRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        Ok(row.map(charge))
    }

    async fn insert_stars_subscription(&mut self, s: &StarsSubscription) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = subscription_row(s);
        db_run!(conn, c => diesel::insert_into(stars_subscriptions::table).values(&row).execute(c).await)
            .map_err(db)?;
        Ok(())
    }

    async fn update_stars_subscription(&mut self, s: &StarsSubscription) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = subscription_row(s);
        db_run!(conn, c => {
            diesel::update(stars_subscriptions::table.find(&s.charge_id)).set(&row).execute(c).await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn stars_subscription(&mut self, charge_id: &str) -> StoreResult<Option<StarsSubscription>> {
        let conn = self.conn().await?;
        let row: Option<StarsSubscriptionRow> = db_run!(conn, c => {
            stars_subscriptions::table.find(charge_id).select(StarsSubscriptionRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        Ok(row.map(subscription))
    }

    async fn stars_subscription_of_client(&mut self, client_ref: &str) -> StoreResult<Option<StarsSubscription>> {
        use stars_subscriptions::dsl as s;
        let conn = self.conn().await?;
        let row: Option<StarsSubscriptionRow> = db_run!(conn, c => {
            s::stars_subscriptions
                .filter(s::client_ref.eq(client_ref))
                .order((s::paid_until.desc(), s::charge_id.desc()))
                .select(StarsSubscriptionRow::as_select())
                .first(c)
                .await
                .optional()
        })
        .map_err(db)?;
        Ok(row.map(subscription))
    }
}
