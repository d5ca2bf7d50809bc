//! Automatic renewal: `RenewalRepo` for the unit of work (consents and renewal charges).

use async_trait::async_trait;
use diesel::{
    BoolExpressionMethods, EscapeExpressionMethods, ExpressionMethods, OptionalExtension, QueryDsl, SelectableHelper,
    TextExpressionMethods,
};
use diesel_async::RunQueryDsl;
use vp_domain::{AccountId, ClientRef};
use vp_domain::{Money, PriceBreakdown};
use vp_ports::store::StoreResult;
use vp_ports::{Claim, RenewalCharge, RenewalChargeState, RenewalConsent, RenewalRepo};

use crate::convert::{db_time, db_time_opt, lang, utc};
use crate::errors::{corrupt, db};
use crate::models::{RenewalChargeRow, RenewalConsentRow};
use crate::pool::{db_run, load_for_claim};
use crate::schema::{renewal_charges, renewal_consents};
use crate::tx::StoreTx;

/// `text` matched literally by `LIKE ... ESCAPE '\'`.
fn escape_like(text: &str) -> String {
    text.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
}

fn consent_row(c: &RenewalConsent) -> RenewalConsentRow {
    RenewalConsentRow {
        id: c.id.clone(),
        account_id: c.account_id.to_string(),
        client_ref: c.client_ref.to_string(),
        payment_id: c.payment_id.clone(),
        plan_id: c.plan_id,
        method: c.method.clone(),
        consented_at: db_time(c.consented_at),
        text: c.text.clone(),
        lang: c.lang.code().to_owned(),
        amount: c.price.customer.kopecks(),
        platform_amount: c.price.platform.kopecks(),
        partner_share: c.price.partner_share.kopecks(),
        price_told_at: db_time(c.price_told_at),
        saved_method_sealed: c.saved_method_sealed.clone(),
        saved_method_title: c.saved_method_title.clone(),
        turned_off_at: db_time_opt(c.turned_off_at),
        turned_off_by: c.turned_off_by.as_ref().map(ToString::to_string),
    }
}

/// `consent_of_invoice`'s query (`read_ahead` makes it too).
macro_rules! consent_of_invoice {
    ($payment_id:expr) => {
        $crate::schema::renewal_consents::table
            .filter($crate::schema::renewal_consents::payment_id.eq($payment_id))
            .select(<$crate::models::RenewalConsentRow as diesel::SelectableHelper<_>>::as_select())
    };
}
pub(crate) use consent_of_invoice;

pub(crate) fn consent(r: RenewalConsentRow) -> StoreResult<RenewalConsent> {
    Ok(RenewalConsent {
        lang: lang(&r.lang)?,
        id: r.id,
        account_id: AccountId::issued(r.account_id),
        client_ref: ClientRef::issued(r.client_ref),
        payment_id: r.payment_id,
        plan_id: r.plan_id,
        method: r.method,
        consented_at: utc(r.consented_at),
        text: r.text,
        price: PriceBreakdown {
            customer: Money::from_kopecks(r.amount),
            platform: Money::from_kopecks(r.platform_amount),
            partner_share: Money::from_kopecks(r.partner_share),
        },
        price_told_at: utc(r.price_told_at),
        saved_method_sealed: r.saved_method_sealed,
        saved_method_title: r.saved_method_title,
        turned_off_at: r.turned_off_at.map(utc),
        turned_off_by: r
            .turned_off_by
            .map(|by| by.parse().map_err(|_| corrupt(format!("renewal consent turned off by {by:?}"))))
            .transpose()?,
    })
}

fn charge_row(c: &RenewalCharge) -> RenewalChargeRow {
    RenewalChargeRow {
        client_ref: c.client_ref.to_string(),
        term_ends_at: db_time(c.term_ends_at),
        account_id: c.account_id.to_string(),
        consent_id: c.consent_id.clone(),
        attempt: i32::try_from(c.attempt).unwrap_or(i32::MAX),
        payment_id: c.payment_id.clone(),
        state: c.state.code().to_owned(),
        next_try_at: db_time_opt(c.next_try_at),
        last_error: c.last_error.clone(),
        created_at: db_time(c.created_at),
    }
}

fn charge(r: RenewalChargeRow) -> StoreResult<RenewalCharge> {
    let state = RenewalChargeState::from_code(&r.state).ok_or_else(|| corrupt(format!("renewal state {}", r.state)))?;
    Ok(RenewalCharge {
        client_ref: ClientRef::issued(r.client_ref),
        term_ends_at: utc(r.term_ends_at),
        account_id: AccountId::issued(r.account_id),
        consent_id: r.consent_id,
        attempt: u32::try_from(r.attempt).unwrap_or(0),
        payment_id: r.payment_id,
        state,
        next_try_at: r.next_try_at.map(utc),
        last_error: r.last_error,
        created_at: utc(r.created_at),
    })
}

#[async_trait]
impl RenewalRepo for StoreTx {
    async fn insert_consent(&mut self, c: &RenewalConsent) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = consent_row(c);
        db_run!(conn, conn => diesel::insert_into(renewal_consents::table).values(&row).execute(conn).await)
            .map_err(db)?;
        Ok(())
    }

    async fn update_consent(&mut self, c: &RenewalConsent) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = consent_row(c);
        db_run!(conn, conn => diesel::update(renewal_consents::table.find(&c.id)).set(&row).execute(conn).await)
            .map_err(db)?;
        Ok(())
    }

    async fn current_consent(&mut self, client_ref: &str) -> StoreResult<Option<RenewalConsent>> {
        use renewal_consents::dsl as r;
        let conn = self.conn().await?;
        let row: Option<RenewalConsentRow> = db_run!(conn, c => {
            r::renewal_consents
                .filter(r::client_ref.eq(client_ref))
                .filter(r::saved_method_sealed.is_not_null().or(r::turned_off_at.is_not_null()))
                .order((r::consented_at.desc(), r::id.desc()))
                .select(RenewalConsentRow::as_select())
                .first(c)
                .await
                .optional()
        })
        .map_err(db)?;
        row.map(consent).transpose()
    }

    async fn consent(&mut self, id: &str) -> StoreResult<Option<RenewalConsent>> {
        let conn = self.conn().await?;
        let row: Option<RenewalConsentRow> = db_run!(conn, c => {
            renewal_consents::table.find(id).select(RenewalConsentRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        row.map(consent).transpose()
    }

    async fn consent_of_invoice(&mut self, payment_id: &str) -> StoreResult<Option<RenewalConsent>> {
        if let Some(ahead) = self.ahead.consent.take(payment_id) {
            return Ok(ahead);
        }
        let conn = self.conn().await?;
        let row: Option<RenewalConsentRow> =
            db_run!(conn, c => consent_of_invoice!(payment_id).first(c).await.optional()).map_err(db)?;
        row.map(consent).transpose()
    }

    async fn insert_renewal_charge(&mut self, c: &RenewalCharge) -> StoreResult<bool> {
        let conn = self.conn().await?;
        let row = charge_row(c);
        let inserted = db_run!(conn, conn => {
            diesel::insert_into(renewal_charges::table).values(&row).on_conflict_do_nothing().execute(conn).await
        })
        .map_err(db)?;
        Ok(inserted > 0)
    }

    async fn update_renewal_charge(&mut self, c: &RenewalCharge) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = charge_row(c);
        let (client_ref, term) = (c.client_ref.as_str(), db_time(c.term_ends_at));
        db_run!(conn, conn => diesel::update(renewal_charges::table.find((client_ref, term))).set(&row).execute(conn).await)
            .map_err(db)?;
        Ok(())
    }

    async fn claim_renewal_charges(&mut self, claim: Claim) -> StoreResult<Vec<RenewalCharge>> {
        let Claim { now, lease_until, limit } = claim;
        use renewal_charges::dsl as r;
        let conn = self.conn().await?;
        let now = db_time(now);
        let rows: Vec<RenewalChargeRow> = load_for_claim!(
            conn,
            r::renewal_charges
                .filter(r::next_try_at.le(now))
                .order((r::next_try_at, r::client_ref))
                .limit(i64::from(limit))
                .select(RenewalChargeRow::as_select())
        )
        .map_err(db)?;
        let lease = db_time(lease_until);
        for row in &rows {
            let key = (row.client_ref.as_str(), row.term_ends_at);
            db_run!(conn, c => {
                diesel::update(r::renewal_charges.find(key)).set(r::next_try_at.eq(Some(lease))).execute(c).await
            })
            .map_err(db)?;
        }
        rows.into_iter()
            .map(|mut row| {
                row.next_try_at = Some(lease);
                charge(row)
            })
            .collect()
    }

    async fn consents_sealed_outside(&mut self, prefixes: &[String], limit: u32) -> StoreResult<Vec<RenewalConsent>> {
        use renewal_consents::dsl as r;
        let conn = self.conn().await?;
        let patterns: Vec<String> = prefixes.iter().map(|p| format!("{}%", escape_like(p))).collect();
        let rows: Vec<RenewalConsentRow> = db_run!(conn, c => {
            let mut query = r::renewal_consents.filter(r::saved_method_sealed.is_not_null()).into_boxed();
            for pattern in &patterns {
                query = query.filter(r::saved_method_sealed.not_like(pattern).escape('\\'));
            }
            query.order(r::id).limit(i64::from(limit)).select(RenewalConsentRow::as_select()).load(c).await
        })
        .map_err(db)?;
        rows.into_iter().map(consent).collect()
    }

    async fn renewal_charges_of_client(&mut self, client_ref: &str) -> StoreResult<Vec<RenewalCharge>> {
        use renewal_charges::dsl as r;
        let conn = self.conn().await?;
        let rows: Vec<RenewalChargeRow> = db_run!(conn, c => {
            r::renewal_charges
                .filter(r::client_ref.eq(client_ref))
                .order(r::term_ends_at.desc())
                .select(RenewalChargeRow::as_select())
                .load(c)
                .await
        })
        .map_err(db)?;
        rows.into_iter().map(charge).collect()
    }
}
