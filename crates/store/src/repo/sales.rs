//! A partner's sales figures per day: `SalesRepo` for the unit of work. Days are kept as
//! `YYYY-MM-DD` text, which sorts and compares as the days do. The facts beside a page of
//! invoices are read a table at a time for the whole page (`eq_any`), never per invoice.

use std::collections::{HashMap, HashSet};

use async_trait::async_trait;
use diesel::dsl::sql;
use diesel::sql_types::BigInt;
use diesel::{BoolExpressionMethods, ExpressionMethods, QueryDsl, SelectableHelper};
use diesel_async::RunQueryDsl;
use time::{Date, OffsetDateTime, PrimitiveDateTime};
use vp_domain::sales::{Channel, Figures, Renewal};
use vp_domain::time_zone::parse_day;
use vp_domain::{AccountId, ClientId, ClientRef, Money, PaymentId};
use vp_ports::store::StoreResult;
use vp_ports::{DailySales, EndedSubscription, SaleFacts, SalesRepo};

use crate::convert::{db_time, int, utc};
use crate::errors::{corrupt, db};
use crate::models::DailySalesRow;
use crate::pool::{db_run, insert_rows};
use crate::schema::{
    bot_customers, clients, daily_channel_sales, gifts, invoices, referrals, renewal_charges, stars_charges,
    subscriptions, trial_grants,
};
use crate::tx::StoreTx;

/// Rows written per statement: PostgreSQL binds at most 65,535 values (23 a row).
const ROWS_PER_INSERT: usize = 1000;

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
                daily_channel_sales::table
                    .filter(daily_channel_sales::account_id.eq(account_id))
                    .filter(daily_channel_sales::day.ge(first.to_string()))
                    .filter(daily_channel_sales::day.le(last.to_string())),
            )
            .execute(c)
            .await
        })
        .map_err(db)?;
        for chunk in rows.chunks(ROWS_PER_INSERT) {
            insert_rows!(conn, daily_channel_sales::table, chunk);
        }
        Ok(())
    }

    async fn daily_sales(&mut self, account_id: &str, first: Date, last: Date) -> StoreResult<Vec<DailySales>> {
        let conn = self.conn().await?;
        let rows: Vec<DailySalesRow> = db_run!(conn, c => {
            daily_channel_sales::table
                .filter(daily_channel_sales::account_id.eq(account_id))
                .filter(daily_channel_sales::day.ge(first.to_string()))
                .filter(daily_channel_sales::day.le(last.to_string()))
                .order((daily_channel_sales::day.asc(), daily_channel_sales::channel.asc(), daily_channel_sales::method.asc()))
                .select(DailySalesRow::as_select())
                .load(c)
                .await
        })
        .map_err(db)?;
        rows.into_iter().map(daily).collect()
    }

    async fn daily_sales_of_all(&mut self, first: Date, last: Date) -> StoreResult<Vec<DailySales>> {
        let conn = self.conn().await?;
        let rows: Vec<(String, String, String, Sums)> = db_run!(conn, c => {
            daily_channel_sales::table
                .filter(daily_channel_sales::day.ge(first.to_string()))
                .filter(daily_channel_sales::day.le(last.to_string()))
                .group_by((daily_channel_sales::day, daily_channel_sales::channel, daily_channel_sales::method))
                .order((daily_channel_sales::day.asc(), daily_channel_sales::channel.asc(), daily_channel_sales::method.asc()))
                .select((daily_channel_sales::day, daily_channel_sales::channel, daily_channel_sales::method, sql::<SumTypes>(SUMS)))
                .load(c)
                .await
        })
        .map_err(db)?;
        rows.into_iter().map(|(day, channel, method, sums)| daily_of(&day, &channel, method, sums)).collect()
    }

    async fn sales_by_account(&mut self, first: Date, last: Date) -> StoreResult<Vec<(AccountId, Figures)>> {
        let conn = self.conn().await?;
        let rows: Vec<(String, Sums)> = db_run!(conn, c => {
            daily_channel_sales::table
                .filter(daily_channel_sales::day.ge(first.to_string()))
                .filter(daily_channel_sales::day.le(last.to_string()))
                .group_by(daily_channel_sales::account_id)
                .order(daily_channel_sales::account_id.asc())
                .select((daily_channel_sales::account_id, sql::<SumTypes>(SUMS)))
                .load(c)
                .await
        })
        .map_err(db)?;
        rows.into_iter().map(|(account_id, sums)| Ok((AccountId::issued(account_id), figures(sums)?))).collect()
    }

    async fn trials_granted_between(
        &mut self,
        account_id: &str,
        from: OffsetDateTime,
        to: OffsetDateTime,
    ) -> StoreResult<Vec<(ClientId, OffsetDateTime)>> {
        let conn = self.conn().await?;
        let (from, to) = (db_time(from), db_time(to));
        let rows: Vec<(String, PrimitiveDateTime)> = db_run!(conn, c => {
            trial_grants::table
                .inner_join(clients::table)
                .filter(trial_grants::account_id.eq(account_id))
                .filter(trial_grants::granted_at.ge(from))
                .filter(trial_grants::granted_at.lt(to))
                .select((clients::client_id, trial_grants::granted_at))
                .load(c)
                .await
        })
        .map_err(db)?;
        rows.into_iter().map(|(client_id, at)| Ok((client_id_of(&client_id)?, utc(at)))).collect()
    }

    async fn first_purchases(&mut self, clients: &[ClientRef]) -> StoreResult<HashMap<ClientRef, PaymentId>> {
        let refs: Vec<&str> = clients.iter().map(ClientRef::as_str).collect();
        let conn = self.conn().await?;
        // Every paid subscription invoice of these clients, the earliest first: the first of
        // each that is not a gift is its first purchase.
        let bought: Vec<(String, String)> = db_run!(conn, c => {
            invoices::table
                .filter(invoices::client_ref.eq_any(&refs))
                .filter(invoices::purpose.eq("subscription"))
                .filter(invoices::paid_at.is_not_null())
                .order((invoices::paid_at.asc(), invoices::created_at.asc(), invoices::payment_id.asc()))
                .select((invoices::payment_id, invoices::client_ref))
                .load(c)
                .await
        })
        .map_err(db)?;
        let bought_ids: Vec<&str> = bought.iter().map(|(p, _)| p.as_str()).collect();
        let gifts_bought: HashSet<String> = db_run!(conn, c => {
            gifts::table.filter(gifts::payment_id.eq_any(&bought_ids)).select(gifts::payment_id).load(c).await
        })
        .map_err(db)?
        .into_iter()
        .collect();
        let mut first = HashMap::new();
        for (payment_id, client_ref) in bought {
            if !gifts_bought.contains(&payment_id) {
                first.entry(ClientRef::issued(client_ref)).or_insert_with(|| PaymentId::issued(payment_id));
            }
        }
        Ok(first)
    }

    async fn sale_facts(&mut self, account_id: &str, invoices: &[(PaymentId, ClientRef)]) -> StoreResult<SaleFacts> {
        let mut refs: Vec<&str> = invoices.iter().map(|(_, client)| client.as_str()).collect();
        refs.sort_unstable();
        refs.dedup();
        let ids: Vec<&str> = invoices.iter().map(|(p, _)| p.as_str()).collect();
        let conn = self.conn().await?;
        let trials: Vec<String> = db_run!(conn, c => {
            trial_grants::table
                .filter(trial_grants::client_ref.eq_any(&refs))
                .select(trial_grants::client_ref)
                .load(c)
                .await
        })
        .map_err(db)?;
        let people: Vec<(i64, Option<String>)> = db_run!(conn, c => {
            bot_customers::table
                .filter(bot_customers::account_id.eq(account_id))
                .filter(bot_customers::client_ref.eq_any(&refs))
                .select((bot_customers::user_id, bot_customers::client_ref))
                .load(c)
                .await
        })
        .map_err(db)?;
        let user_ids: Vec<i64> = people.iter().map(|(user, _)| *user).collect();
        let invited_users: HashSet<i64> = db_run!(conn, c => {
            referrals::table
                .filter(referrals::account_id.eq(account_id))
                .filter(referrals::invited_user_id.eq_any(&user_ids))
                .select(referrals::invited_user_id)
                .load(c)
                .await
        })
        .map_err(db)?
        .into_iter()
        .collect();
        let cards: Vec<String> = db_run!(conn, c => {
            renewal_charges::table
                .filter(renewal_charges::payment_id.eq_any(&ids))
                .select(renewal_charges::payment_id)
                .load(c)
                .await
        })
        .map_err(db)?;
        let stars: Vec<String> = db_run!(conn, c => {
            stars_charges::table
                .filter(stars_charges::payment_id.eq_any(&ids))
                .filter(stars_charges::renewal.eq(true))
                .select(stars_charges::payment_id)
                .load(c)
                .await
        })
        .map_err(db)?;
        let gifts: Vec<String> = db_run!(conn, c => {
            gifts::table.filter(gifts::payment_id.eq_any(&ids)).select(gifts::payment_id).load(c).await
        })
        .map_err(db)?;
        let rewarding: Vec<Option<String>> = db_run!(conn, c => {
            referrals::table
                .filter(referrals::account_id.eq(account_id))
                .filter(referrals::payment_id.eq_any(&ids))
                .filter(referrals::reversed_at.is_null())
                .select(referrals::payment_id)
                .load(c)
                .await
        })
        .map_err(db)?;
        let payment = |ids: Vec<String>| ids.into_iter().map(PaymentId::issued);
        let automatic =
            payment(cards).map(|p| (p, Renewal::Card)).chain(payment(stars).map(|p| (p, Renewal::Stars))).collect();
        Ok(SaleFacts {
            had_trial: trials.into_iter().map(ClientRef::issued).collect(),
            invited: people
                .into_iter()
                .filter(|(user, _)| invited_users.contains(user))
                .filter_map(|(_, client_ref)| client_ref.map(ClientRef::issued))
                .collect(),
            automatic,
            gifts: payment(gifts).collect(),
            rewarding: payment(rewarding.into_iter().flatten().collect()).collect(),
        })
    }

    async fn subscriptions_ended_between(
        &mut self,
        account_id: &str,
        from: OffsetDateTime,
        to: OffsetDateTime,
    ) -> StoreResult<Vec<EndedSubscription>> {
        let conn = self.conn().await?;
        let (from, to) = (db_time(from), db_time(to));
        let rows: Vec<(String, PrimitiveDateTime)> = db_run!(conn, c => {
            subscriptions::table
                .inner_join(clients::table)
                .filter(clients::account_id.eq(account_id))
                .filter(subscriptions::is_trial.eq(false).and(subscriptions::lifetime.eq(false)))
                .filter(subscriptions::expires_at.ge(from))
                .filter(subscriptions::expires_at.lt(to))
                .select((clients::client_id, subscriptions::expires_at))
                .load(c)
                .await
        })
        .map_err(db)?;
        rows.into_iter()
            .map(|(client_id, ended_at)| {
                Ok(EndedSubscription { client_id: client_id_of(&client_id)?, ended_at: utc(ended_at) })
            })
            .collect()
    }
}

fn client_id_of(client_id: &str) -> StoreResult<ClientId> {
    ClientId::parse(client_id).map_err(|_| corrupt(format!("client_id {client_id}")))
}

fn row(account_id: &str, r: &DailySales) -> StoreResult<DailySalesRow> {
    let f = &r.figures;
    Ok(DailySalesRow {
        account_id: account_id.to_owned(),
        day: r.day.to_string(),
        channel: r.channel.code().to_owned(),
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
        first_purchases: int(f.first_purchases, "first purchases")?,
        converted: int(f.converted, "trials converted")?,
        renewals_manual: int(f.renewals_manual, "manual renewals")?,
        renewals_card: int(f.renewals_card, "card renewals")?,
        renewals_stars: int(f.renewals_stars, "Stars renewals")?,
        ended: int(f.ended, "subscriptions ended")?,
        promo_discount: f.promo_discount.kopecks(),
        promo_gross: f.promo_gross.kopecks(),
        referral_rewards: int(f.referral_rewards, "referral rewards")?,
        referred_gross: f.referred_gross.kopecks(),
    })
}

/// The figures' columns in the order of `Figures`, summed: one literal of the select, its
/// sums cast so both backends give 64-bit integers (SUM of a BIGINT is NUMERIC on PostgreSQL).
const SUMS: &str = "CAST(SUM(issued) AS BIGINT), CAST(SUM(paid) AS BIGINT), CAST(SUM(refunded) AS BIGINT), \
    CAST(SUM(failed) AS BIGINT), CAST(SUM(expired) AS BIGINT), CAST(SUM(gross) AS BIGINT), \
    CAST(SUM(partner_share) AS BIGINT), CAST(SUM(new_clients) AS BIGINT), CAST(SUM(trials) AS BIGINT), \
    CAST(SUM(first_purchases) AS BIGINT), CAST(SUM(converted) AS BIGINT), CAST(SUM(renewals_manual) AS BIGINT), \
    CAST(SUM(renewals_card) AS BIGINT), CAST(SUM(renewals_stars) AS BIGINT), CAST(SUM(ended) AS BIGINT), \
    CAST(SUM(promo_discount) AS BIGINT), CAST(SUM(promo_gross) AS BIGINT), CAST(SUM(referral_rewards) AS BIGINT), \
    CAST(SUM(referred_gross) AS BIGINT)";

type SumTypes = (
    BigInt,
    BigInt,
    BigInt,
    BigInt,
    BigInt,
    BigInt,
    BigInt,
    BigInt,
    BigInt,
    BigInt,
    BigInt,
    BigInt,
    BigInt,
    BigInt,
    BigInt,
    BigInt,
    BigInt,
    BigInt,
    BigInt,
);

/// The figures' columns as read, in the order of `Figures`.
type Sums = (i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64);

fn figures(s: Sums) -> StoreResult<Figures> {
    let count = |v: i64, what: &str| u32::try_from(v).map_err(|_| corrupt(format!("{what} {v}")));
    Ok(Figures {
        issued: count(s.0, "invoices issued")?,
        paid: count(s.1, "invoices paid")?,
        refunded: count(s.2, "invoices refunded")?,
        failed: count(s.3, "invoices failed")?,
        expired: count(s.4, "invoices expired")?,
        gross: Money::from_kopecks(s.5),
        partner_share: Money::from_kopecks(s.6),
        new_clients: count(s.7, "clients made")?,
        trials: count(s.8, "trials started")?,
        first_purchases: count(s.9, "first purchases")?,
        converted: count(s.10, "trials converted")?,
        renewals_manual: count(s.11, "manual renewals")?,
        renewals_card: count(s.12, "card renewals")?,
        renewals_stars: count(s.13, "Stars renewals")?,
        ended: count(s.14, "subscriptions ended")?,
        promo_discount: Money::from_kopecks(s.15),
        promo_gross: Money::from_kopecks(s.16),
        referral_rewards: count(s.17, "referral rewards")?,
        referred_gross: Money::from_kopecks(s.18),
    })
}

fn daily_of(day: &str, channel: &str, method: String, sums: Sums) -> StoreResult<DailySales> {
    Ok(DailySales {
        day: parse_day(day).ok_or_else(|| corrupt(format!("sales day {day}")))?,
        channel: Channel::parse(channel).ok_or_else(|| corrupt(format!("sales channel {channel}")))?,
        method,
        figures: figures(sums)?,
    })
}

fn daily(r: DailySalesRow) -> StoreResult<DailySales> {
    let sums = (
        i64::from(r.issued),
        i64::from(r.paid),
        i64::from(r.refunded),
        i64::from(r.failed),
        i64::from(r.expired),
        r.gross,
        r.partner_share,
        i64::from(r.new_clients),
        i64::from(r.trials),
        i64::from(r.first_purchases),
        i64::from(r.converted),
        i64::from(r.renewals_manual),
        i64::from(r.renewals_card),
        i64::from(r.renewals_stars),
        i64::from(r.ended),
        r.promo_discount,
        r.promo_gross,
        i64::from(r.referral_rewards),
        r.referred_gross,
    );
    daily_of(&r.day, &r.channel, r.method, sums)
}
