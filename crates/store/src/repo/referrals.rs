//! Referral programs, personal codes and invitations: `ReferralRepo` for the unit of work. The
//! figures are counted in the database: a partner's customers may bring many.

use std::sync::LazyLock;

use async_trait::async_trait;
use diesel::dsl::sql;
use diesel::sql_types::{BigInt, Nullable};
use diesel::{ExpressionMethods, JoinOnDsl, OptionalExtension, QueryDsl, SelectableHelper};
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use vp_domain::referral::{ReferralCode, ReferralDays, RewardState};
use vp_domain::{AccountId, ClientRef};
use vp_ports::store::StoreResult;
use vp_ports::{
    InviterStats, ReferralCodeRecord, ReferralRecord, ReferralRepo, ReferralReward, ReferralTotals, StoreError,
};

use crate::convert::{client_id, count, db_time, db_time_opt, int, utc};
use crate::errors::{corrupt, db};
use crate::models::{ReferralCodeRow, ReferralProgramRow, ReferralRow};
use crate::pool::{db_run, upsert};
use crate::schema::{clients, referral_codes, referral_programs, referrals};
use crate::tx::StoreTx;

/// Invited customers whose payment gave days not taken back (`RewardState::is_given`), and
/// those days (both backends sum integers to a 64-bit integer; the casts keep one type). The
/// states are the domain's fixed codes, never input.
static REWARDED: LazyLock<String> = LazyLock::new(|| given_sum("1"));
static DAYS_GIVEN: LazyLock<String> = LazyLock::new(|| given_sum("referrals.days"));

fn given_sum(value: &str) -> String {
    let given: Vec<String> =
        RewardState::ALL.into_iter().filter(|s| s.is_given()).map(|s| format!("'{}'", s.as_str())).collect();
    format!(
        "CAST(COALESCE(SUM(CASE WHEN referrals.state IN ({}) THEN {value} ELSE 0 END), 0) AS BIGINT)",
        given.join(", ")
    )
}

fn code_record(r: ReferralCodeRow) -> StoreResult<ReferralCodeRecord> {
    let code = ReferralCode::parse(&r.code).ok_or_else(|| corrupt(format!("referral code {:?}", r.code)))?;
    Ok(ReferralCodeRecord {
        code,
        account_id: AccountId::issued(r.account_id),
        client_ref: ClientRef::issued(r.client_ref),
        created_at: utc(r.created_at),
    })
}

fn row(r: &ReferralRecord) -> StoreResult<ReferralRow> {
    let reward = r.reward.as_ref();
    Ok(ReferralRow {
        account_id: r.account_id.to_string(),
        invited_user_id: r.invited_user_id,
        inviter_ref: r.inviter_ref.to_string(),
        invited_at: db_time(r.invited_at),
        payment_id: reward.map(|w| w.payment_id.clone()),
        days: reward.map(|w| int(w.days, "referral days")).transpose()?,
        state: reward.map(|w| w.state.as_str().to_owned()),
        rewarded_at: reward.map(|w| db_time(w.rewarded_at)),
        spent_payment_id: reward.and_then(|w| w.spent_payment_id.clone()),
        reversed_at: db_time_opt(reward.and_then(|w| w.reversed_at)),
    })
}

/// `referral_credits`' query (`read_ahead` makes it too).
macro_rules! credits_of {
    ($inviter_ref:expr) => {
        $crate::schema::referrals::table
            .filter($crate::schema::referrals::inviter_ref.eq($inviter_ref))
            .filter($crate::schema::referrals::state.eq(vp_domain::referral::RewardState::Credit.as_str()))
            .order(($crate::schema::referrals::rewarded_at, $crate::schema::referrals::invited_user_id))
            .select(<$crate::models::ReferralRow as diesel::SelectableHelper<_>>::as_select())
    };
}
pub(crate) use credits_of;

pub(crate) fn record(r: ReferralRow) -> StoreResult<ReferralRecord> {
    let bad = |what: &str| corrupt(format!("referral of {} in {}: {what}", r.invited_user_id, r.account_id));
    let reward = match (&r.payment_id, r.days, &r.state, r.rewarded_at) {
        (None, None, None, None) => None,
        (Some(payment_id), Some(days), Some(state), Some(rewarded_at)) => Some(ReferralReward {
            payment_id: payment_id.clone(),
            days: count(days, "referral days")?,
            state: RewardState::from_code(state).ok_or_else(|| bad(&format!("state {state:?}")))?,
            rewarded_at: utc(rewarded_at),
            spent_payment_id: r.spent_payment_id.clone(),
            reversed_at: r.reversed_at.map(utc),
        }),
        _ => return Err(bad("a reward stored in part")),
    };
    Ok(ReferralRecord {
        account_id: AccountId::issued(r.account_id),
        invited_user_id: r.invited_user_id,
        inviter_ref: ClientRef::issued(r.inviter_ref),
        invited_at: utc(r.invited_at),
        reward,
    })
}

fn figure(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

#[async_trait]
impl ReferralRepo for StoreTx {
    async fn referral_days(&mut self, account_id: &str) -> StoreResult<ReferralDays> {
        let conn = self.conn().await?;
        let days: Option<i32> = db_run!(conn, c => {
            referral_programs::table.find(account_id).select(referral_programs::days).first(c).await.optional()
        })
        .map_err(db)?;
        match days {
            None => Ok(ReferralDays::OFF),
            Some(d) => ReferralDays::new(count(d, "referral days")?)
                .map_err(|e| corrupt(format!("referral days of {account_id}: {e}"))),
        }
    }

    async fn set_referral_days(
        &mut self,
        account_id: &str,
        days: ReferralDays,
        now: OffsetDateTime,
    ) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = ReferralProgramRow {
            account_id: account_id.to_owned(),
            days: int(days.days(), "referral days")?,
            updated_at: db_time(now),
        };
        upsert!(conn, referral_programs::table, referral_programs::account_id, &row)
    }

    async fn referral_code_of(&mut self, client_ref: &str) -> StoreResult<Option<ReferralCodeRecord>> {
        let conn = self.conn().await?;
        let row: Option<ReferralCodeRow> = db_run!(conn, c => {
            referral_codes::table
                .filter(referral_codes::client_ref.eq(client_ref))
                .select(ReferralCodeRow::as_select())
                .first(c)
                .await
                .optional()
        })
        .map_err(db)?;
        row.map(code_record).transpose()
    }

    async fn insert_referral_code(&mut self, code: &ReferralCodeRecord) -> StoreResult<()> {
        let row = ReferralCodeRow {
            code: code.code.as_str().to_owned(),
            account_id: code.account_id.to_string(),
            client_ref: code.client_ref.to_string(),
            created_at: db_time(code.created_at),
        };
        let conn = self.conn().await?;
        db_run!(conn, c => diesel::insert_into(referral_codes::table).values(&row).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn referral_code(&mut self, code: &ReferralCode) -> StoreResult<Option<ReferralCodeRecord>> {
        let conn = self.conn().await?;
        let row: Option<ReferralCodeRow> = db_run!(conn, c => {
            referral_codes::table.find(code.as_str()).select(ReferralCodeRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        row.map(code_record).transpose()
    }

    async fn insert_referral(&mut self, referral: &ReferralRecord) -> StoreResult<bool> {
        let row = row(referral)?;
        let conn = self.conn().await?;
        let inserted = db_run!(conn, c => {
            diesel::insert_into(referrals::table).values(&row).on_conflict_do_nothing().execute(c).await
        })
        .map_err(db)?;
        Ok(inserted == 1)
    }

    async fn referral_of_invited(&mut self, account_id: &str, user_id: i64) -> StoreResult<Option<ReferralRecord>> {
        let conn = self.conn().await?;
        let row: Option<ReferralRow> = db_run!(conn, c => {
            referrals::table.find((account_id, user_id)).select(ReferralRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        row.map(record).transpose()
    }

    async fn referral_rewarded_by(&mut self, payment_id: &str) -> StoreResult<Option<ReferralRecord>> {
        let conn = self.conn().await?;
        let row: Option<ReferralRow> = db_run!(conn, c => {
            referrals::table
                .filter(referrals::payment_id.eq(payment_id))
                .select(ReferralRow::as_select())
                .first(c)
                .await
                .optional()
        })
        .map_err(db)?;
        row.map(record).transpose()
    }

    async fn referral_credits(&mut self, inviter_ref: &str) -> StoreResult<Vec<ReferralRecord>> {
        if let Some(ahead) = self.ahead.credits.take(inviter_ref) {
            return Ok(ahead);
        }
        let conn = self.conn().await?;
        let rows: Vec<ReferralRow> = db_run!(conn, c => credits_of!(inviter_ref).load(c).await).map_err(db)?;
        rows.into_iter().map(record).collect()
    }

    async fn update_referral(&mut self, referral: &ReferralRecord) -> StoreResult<()> {
        let row = row(referral)?;
        let conn = self.conn().await?;
        let key = (referral.account_id.as_str(), referral.invited_user_id);
        let updated =
            db_run!(conn, c => diesel::update(referrals::table.find(key)).set(&row).execute(c).await).map_err(db)?;
        if updated == 0 {
            return Err(StoreError::Corrupt(format!("no referral of {} to update", referral.invited_user_id)));
        }
        Ok(())
    }

    async fn top_inviters(&mut self, account_id: &str, limit: u32) -> StoreResult<Vec<InviterStats>> {
        let conn = self.conn().await?;
        let rows: Vec<(String, i64, i64, i64)> = db_run!(conn, c => {
            referrals::table
                .inner_join(clients::table.on(clients::id.eq(referrals::inviter_ref)))
                .filter(referrals::account_id.eq(account_id))
                .group_by(clients::client_id)
                .select((clients::client_id, sql::<BigInt>("COUNT(*)"), sql::<BigInt>(&REWARDED), sql::<BigInt>(&DAYS_GIVEN)))
                .order((
                    sql::<Nullable<BigInt>>(&format!("{} DESC", *REWARDED)),
                    sql::<Nullable<BigInt>>("COUNT(*) DESC"),
                    clients::client_id,
                ))
                .limit(i64::from(limit))
                .load(c)
                .await
        })
        .map_err(db)?;
        rows.into_iter()
            .map(|(id, invited, rewarded, days)| {
                Ok(InviterStats {
                    client_id: client_id(&id)?,
                    invited: figure(invited),
                    rewarded: figure(rewarded),
                    days_given: figure(days),
                })
            })
            .collect()
    }

    async fn referral_totals(&mut self, account_id: &str) -> StoreResult<ReferralTotals> {
        let conn = self.conn().await?;
        let (invited, rewarded, days): (i64, i64, i64) = db_run!(conn, c => {
            referrals::table
                .filter(referrals::account_id.eq(account_id))
                .select((sql::<BigInt>("COUNT(*)"), sql::<BigInt>(&REWARDED), sql::<BigInt>(&DAYS_GIVEN)))
                .get_result(c)
                .await
        })
        .map_err(db)?;
        Ok(ReferralTotals { invited: figure(invited), rewarded: figure(rewarded), days_given: figure(days) })
    }
}
