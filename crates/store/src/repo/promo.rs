//! Promo codes and their uses: `PromoRepo` for the unit of work. Whether a use counts is the
//! domain's rule (`vp_domain::promo::UseState`, by the status of the invoice holding it), so
//! settling or expiring an invoice needs no write here.

use async_trait::async_trait;
use diesel::{
    BoolExpressionMethods, ExpressionMethods, JoinOnDsl, NullableExpressionMethods, OptionalExtension, QueryDsl,
    SelectableHelper,
};
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use vp_domain::AccountId;
use vp_domain::promo::{Benefit, PromoCode, Terms, UseState};
use vp_domain::{InvoiceStatus, Money};
use vp_ports::store::StoreResult;
use vp_ports::{PromoCodeRecord, PromoRepo, PromoUsage, PromoUse};

use crate::convert::{count, db_time, db_time_opt, int, utc};
use crate::errors::{corrupt, db};
use crate::models::{PromoCodeRow, PromoUseRow};
use crate::pool::db_run;
use crate::schema::{invoices, promo_codes, promo_uses};
use crate::tx::StoreTx;

const PERCENT_OFF: &str = "percent_off";
const AMOUNT_OFF: &str = "amount_off";
const EXTRA_DAYS: &str = "extra_days";

fn code_row(r: &PromoCodeRecord) -> StoreResult<PromoCodeRow> {
    let (benefit, amount) = match r.benefit {
        Benefit::PercentOff(percent) => (PERCENT_OFF, i64::from(percent)),
        Benefit::AmountOff(money) => (AMOUNT_OFF, money.kopecks()),
        Benefit::ExtraDays(days) => (EXTRA_DAYS, i64::from(days)),
    };
    let t = &r.terms;
    Ok(PromoCodeRow {
        id: r.id.clone(),
        account_id: r.account_id.to_string(),
        code: r.code.as_str().to_owned(),
        benefit: benefit.to_owned(),
        amount,
        max_uses: t.max_uses.map(|m| int(m, "max_uses")).transpose()?,
        per_customer: int(t.per_customer, "per_customer")?,
        first_purchase_only: t.first_purchase_only,
        plans: t.plans.as_ref().map(|p| p.iter().map(i32::to_string).collect::<Vec<_>>().join(",")),
        expires_at: db_time_opt(t.expires_at),
        disabled_at: None,
        created_at: db_time(r.created_at),
    })
}

fn code(r: PromoCodeRow) -> StoreResult<PromoCodeRecord> {
    let bad = |what: &str| corrupt(format!("promo code {}: {what}", r.id));
    let small = |v: i64| u32::try_from(v).map_err(|_| bad("amount out of range"));
    let benefit = match r.benefit.as_str() {
        PERCENT_OFF => Benefit::percent_off(small(r.amount)?),
        AMOUNT_OFF => Benefit::amount_off(Money::from_kopecks(r.amount)),
        EXTRA_DAYS => Benefit::extra_days(small(r.amount)?),
        other => return Err(bad(&format!("benefit {other:?}"))),
    }
    .map_err(|e| bad(&e.to_string()))?;
    let plans = match &r.plans {
        None => None,
        Some(text) => Some(
            text.split(',').map(|id| id.parse::<i32>().map_err(|_| bad("plans"))).collect::<StoreResult<Vec<_>>>()?,
        ),
    };
    Ok(PromoCodeRecord {
        code: PromoCode::parse(&r.code).map_err(|e| bad(&e.to_string()))?,
        benefit,
        terms: Terms {
            max_uses: r.max_uses.map(|m| count(m, "max_uses")).transpose()?,
            per_customer: count(r.per_customer, "per_customer")?,
            first_purchase_only: r.first_purchase_only,
            plans,
            expires_at: r.expires_at.map(utc),
            disabled: r.disabled_at.is_some(),
        },
        created_at: utc(r.created_at),
        id: r.id,
        account_id: AccountId::issued(r.account_id),
    })
}

/// Invoice statuses whose use counts (`UseState::counts`; an invoice not recorded yet counts too).
fn counting() -> Vec<&'static str> {
    InvoiceStatus::ALL.into_iter().filter(|s| UseState::of(Some(*s)).counts()).map(InvoiceStatus::as_str).collect()
}

#[async_trait]
impl PromoRepo for StoreTx {
    async fn insert_promo_code(&mut self, record: &PromoCodeRecord) -> StoreResult<()> {
        let row = code_row(record)?;
        let conn = self.conn().await?;
        db_run!(conn, c => diesel::insert_into(promo_codes::table).values(&row).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn promo_code(&mut self, account_id: &str, code_text: &PromoCode) -> StoreResult<Option<PromoCodeRecord>> {
        let conn = self.conn().await?;
        let row: Option<PromoCodeRow> = db_run!(conn, c => {
            promo_codes::table
                .filter(promo_codes::account_id.eq(account_id))
                .filter(promo_codes::code.eq(code_text.as_str()))
                .select(PromoCodeRow::as_select())
                .first(c)
                .await
                .optional()
        })
        .map_err(db)?;
        row.map(code).transpose()
    }

    async fn promo_codes(&mut self, account_id: &str) -> StoreResult<Vec<PromoCodeRecord>> {
        let conn = self.conn().await?;
        let rows: Vec<PromoCodeRow> = db_run!(conn, c => {
            promo_codes::table
                .filter(promo_codes::account_id.eq(account_id))
                .order((promo_codes::created_at.desc(), promo_codes::id.desc()))
                .select(PromoCodeRow::as_select())
                .load(c)
                .await
        })
        .map_err(db)?;
        rows.into_iter().map(code).collect()
    }

    async fn disable_promo_code(
        &mut self,
        account_id: &str,
        code_text: &PromoCode,
        now: OffsetDateTime,
    ) -> StoreResult<bool> {
        let conn = self.conn().await?;
        let mine = promo_codes::account_id.eq(account_id).and(promo_codes::code.eq(code_text.as_str()));
        let found: Option<Option<time::PrimitiveDateTime>> = db_run!(conn, c => {
            promo_codes::table.filter(mine).select(promo_codes::disabled_at).first(c).await.optional()
        })
        .map_err(db)?;
        match found {
            None => Ok(false),
            Some(Some(_)) => Ok(true),
            Some(None) => {
                db_run!(conn, c => {
                    diesel::update(promo_codes::table.filter(mine))
                        .set(promo_codes::disabled_at.eq(Some(db_time(now))))
                        .execute(c)
                        .await
                })
                .map_err(db)?;
                Ok(true)
            }
        }
    }

    async fn lock_promo_code(&mut self, promo_id: &str) -> StoreResult<()> {
        crate::pool::lock_row!(self.conn().await?, promo_codes::table, promo_codes::id, promo_id)
    }

    async fn promo_uses_taken(&mut self, promo_id: &str, client_id: &str) -> StoreResult<(u64, u64)> {
        let conn = self.conn().await?;
        let statuses = counting();
        // Counted in the database: a popular code has many uses.
        macro_rules! taken {
            () => {
                promo_uses::table
                    .left_join(invoices::table.on(invoices::payment_id.eq(promo_uses::payment_id)))
                    .filter(promo_uses::promo_id.eq(promo_id))
                    .filter(invoices::status.nullable().is_null().or(invoices::status.nullable().eq_any(&statuses)))
            };
        }
        let all: i64 = db_run!(conn, c => taken!().count().get_result(c).await).map_err(db)?;
        let mine: i64 = db_run!(conn, c => {
            taken!().filter(promo_uses::client_id.eq(client_id)).count().get_result(c).await
        })
        .map_err(db)?;
        let uses = |n: i64| u64::try_from(n).unwrap_or(0);
        Ok((uses(all), uses(mine)))
    }

    async fn insert_promo_use(&mut self, u: &PromoUse) -> StoreResult<bool> {
        let row = PromoUseRow {
            payment_id: u.payment_id.clone(),
            promo_id: u.promo_id.clone(),
            account_id: u.account_id.to_string(),
            client_id: u.client_id.as_str().to_owned(),
            created_at: db_time(u.created_at),
        };
        let conn = self.conn().await?;
        let inserted = db_run!(conn, c => {
            diesel::insert_into(promo_uses::table).values(&row).on_conflict_do_nothing().execute(c).await
        })
        .map_err(db)?;
        Ok(inserted == 1)
    }

    async fn release_promo_use(&mut self, payment_id: &str) -> StoreResult<()> {
        let conn = self.conn().await?;
        db_run!(conn, c => diesel::delete(promo_uses::table.find(payment_id)).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn promo_usage(&mut self, promo_id: &str) -> StoreResult<PromoUsage> {
        let conn = self.conn().await?;
        let rows: Vec<(Option<String>, Option<String>)> = db_run!(conn, c => {
            promo_uses::table
                .left_join(invoices::table.on(invoices::payment_id.eq(promo_uses::payment_id)))
                .filter(promo_uses::promo_id.eq(promo_id))
                .select((invoices::status.nullable(), invoices::promo.nullable()))
                .load(c)
                .await
        })
        .map_err(db)?;
        let mut usage = PromoUsage::default();
        for (status, promo) in rows {
            let status = status.map(|s| s.parse::<InvoiceStatus>().map_err(|e| corrupt(e.to_string()))).transpose()?;
            match UseState::of(status) {
                UseState::Held => usage.held += 1,
                UseState::Spent => {
                    usage.spent += 1;
                    let discount =
                        promo.as_deref().map(crate::convert::promo_discount).transpose()?.unwrap_or(Money::ZERO);
                    usage.discount_given = usage.discount_given.checked_add(discount).unwrap_or(usage.discount_given);
                }
                UseState::Released => {}
            }
        }
        Ok(usage)
    }

    async fn client_paid_before(&mut self, account_id: &str, client_id: &str) -> StoreResult<bool> {
        let conn = self.conn().await?;
        let paid = InvoiceStatus::Succeeded.as_str();
        let found: Option<String> = db_run!(conn, c => {
            invoices::table
                .inner_join(crate::schema::clients::table)
                .filter(crate::schema::clients::account_id.eq(account_id))
                .filter(crate::schema::clients::client_id.eq(client_id))
                .filter(invoices::status.eq(paid))
                .select(invoices::payment_id)
                .first(c)
                .await
                .optional()
        })
        .map_err(db)?;
        Ok(found.is_some())
    }
}
