//! The hot statements of invoice creation as types of their own with fixed SQL text, so each
//! connection prepares them once and reuses the plan. (diesel marks an `UPDATE`, an upsert's
//! `DO UPDATE`, an insert of optional columns and an SQL literal as not cacheable, so written
//! with its query builder each of these would be parsed and planned on every call, and on
//! PostgreSQL a prepare would stall the pipeline.) One text serves both backends: the query
//! builder writes the placeholders (`$1` or `?`).

use diesel::QueryResult;
use diesel::pg::Pg;
use diesel::query_builder::{AstPass, QueryFragment, QueryId};
use diesel::sql_types::{BigInt, Bool, Integer, Nullable, Text, Timestamp};

use crate::models::{ClientRow, IdempotencyRow, InvoiceRow};
use crate::repo::quotas::CounterRow;

/// Implements `QueryFragment` for PostgreSQL and SQLite with one body.
macro_rules! for_both_backends {
    ($ty:ty, |$this:ident, $out:ident| $body:block) => {
        impl diesel::query_builder::QueryFragment<diesel::pg::Pg> for $ty {
            fn walk_ast<'b>(
                &'b self,
                mut $out: diesel::query_builder::AstPass<'_, 'b, diesel::pg::Pg>,
            ) -> diesel::QueryResult<()> {
                let $this = self;
                $body
            }
        }
        impl diesel::query_builder::QueryFragment<diesel::sqlite::Sqlite> for $ty {
            fn walk_ast<'b>(
                &'b self,
                mut $out: diesel::query_builder::AstPass<'_, 'b, diesel::sqlite::Sqlite>,
            ) -> diesel::QueryResult<()> {
                let $this = self;
                $body
            }
        }
        impl<Conn> diesel::RunQueryDsl<Conn> for $ty {}
        impl<Conn> diesel::RunQueryDsl<Conn> for &$ty {}
    };
}
pub(crate) use for_both_backends;

/// Pushes each value as a bind parameter of its SQL type, separated by commas: a `VALUES` list.
macro_rules! push_binds {
    ($out:ident, $first_type:ty => $first:expr $(, $type:ty => $value:expr)* $(,)?) => {
        $out.push_bind_param::<$first_type, _>($first)?;
        $(
            $out.push_sql(", ");
            $out.push_bind_param::<$type, _>($value)?;
        )*
    };
}
pub(crate) use push_binds;

/// Records a new request's key, unless the account has it (then nothing happens).
#[derive(QueryId)]
pub(crate) struct InsertKey(pub IdempotencyRow);

for_both_backends!(InsertKey, |this, out| {
    let k = &this.0;
    out.push_sql(
        "INSERT INTO idempotency_keys (account_id, key, request_fingerprint, payment_id, recovery_point, \
         locked_until, created_at, gateway_request) VALUES (",
    );
    push_binds!(
        out,
        Text => &k.account_id,
        Text => &k.key,
        Text => &k.request_fingerprint,
        Text => &k.payment_id,
        Text => &k.recovery_point,
        Nullable<Timestamp> => &k.locked_until,
        Timestamp => &k.created_at,
        Nullable<Text> => &k.gateway_request,
    );
    out.push_sql(") ON CONFLICT DO NOTHING");
    Ok(())
});

/// Moves a key to `finished`, unlocked.
#[derive(QueryId)]
pub(crate) struct FinishKey {
    pub account_id: String,
    pub key: String,
}

for_both_backends!(FinishKey, |this, out| {
    out.push_sql("UPDATE idempotency_keys SET recovery_point = 'finished', locked_until = NULL WHERE account_id = ");
    out.push_bind_param::<Text, _>(&this.account_id)?;
    out.push_sql(" AND key = ");
    out.push_bind_param::<Text, _>(&this.key)?;
    Ok(())
});

#[derive(QueryId)]
pub(crate) struct InsertClient(pub ClientRow);

for_both_backends!(InsertClient, |this, out| {
    let c = &this.0;
    out.push_sql("INSERT INTO clients (id, account_id, client_id, created_at, blocked) VALUES (");
    out.push_bind_param::<Text, _>(&c.id)?;
    out.push_sql(", ");
    out.push_bind_param::<Text, _>(&c.account_id)?;
    out.push_sql(", ");
    out.push_bind_param::<Text, _>(&c.client_id)?;
    out.push_sql(", ");
    out.push_bind_param::<Timestamp, _>(&c.created_at)?;
    out.push_sql(", ");
    out.push_bind_param::<Bool, _>(&c.blocked)?;
    out.push_sql(")");
    Ok(())
});

/// Adds a record to its account's count for its hour and stripe.
#[derive(QueryId)]
pub(crate) struct CountRecord(pub CounterRow);

for_both_backends!(CountRecord, |this, out| {
    let r = &this.0;
    out.push_sql("INSERT INTO daily_counts (account_id, kind, hour, stripe, n) VALUES (");
    out.push_bind_param::<Text, _>(&r.account_id)?;
    out.push_sql(", ");
    out.push_bind_param::<Text, _>(&r.kind)?;
    out.push_sql(", ");
    out.push_bind_param::<BigInt, _>(&r.hour)?;
    out.push_sql(", ");
    out.push_bind_param::<Integer, _>(&r.stripe)?;
    out.push_sql(", 1) ON CONFLICT (account_id, kind, hour, stripe) DO UPDATE SET n = daily_counts.n + 1");
    Ok(())
});

/// The sum of an account's counts of one kind from an hour on.
#[derive(QueryId)]
pub(crate) struct CountsFrom {
    pub account_id: String,
    pub kind: String,
    pub hour: i64,
}

for_both_backends!(CountsFrom, |this, out| {
    out.push_sql("SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM daily_counts WHERE account_id = ");
    out.push_bind_param::<Text, _>(&this.account_id)?;
    out.push_sql(" AND kind = ");
    out.push_bind_param::<Text, _>(&this.kind)?;
    out.push_sql(" AND hour >= ");
    out.push_bind_param::<BigInt, _>(&this.hour)?;
    Ok(())
});

impl diesel::query_builder::Query for CountsFrom {
    type SqlType = BigInt;
}

#[derive(QueryId)]
pub(crate) struct InsertInvoice {
    pub row: InvoiceRow,
    pub gateway_check_at: Option<time::PrimitiveDateTime>,
}

for_both_backends!(InsertInvoice, |this, out| {
    let i = &this.row;
    out.push_sql(
        "INSERT INTO invoices (payment_id, account_id, client_ref, status, purpose, plan_id, devices, method, \
         amount, platform_amount, partner_share, return_url, payment_url, gateway_payment_id, created_at, \
         expires_at, paid_at, gateway_check_at, receipt, promo, rail) VALUES (",
    );
    push_binds!(
        out,
        Text => &i.payment_id,
        Text => &i.account_id,
        Text => &i.client_ref,
        Text => &i.status,
        Text => &i.purpose,
        Nullable<Integer> => &i.plan_id,
        Nullable<Integer> => &i.devices,
        Text => &i.method,
        BigInt => &i.amount,
        BigInt => &i.platform_amount,
        BigInt => &i.partner_share,
        Nullable<Text> => &i.return_url,
        Nullable<Text> => &i.payment_url,
        Nullable<Text> => &i.gateway_payment_id,
        Timestamp => &i.created_at,
        Timestamp => &i.expires_at,
        Nullable<Timestamp> => &i.paid_at,
        Nullable<Timestamp> => &this.gateway_check_at,
        Nullable<Text> => &i.receipt,
        Nullable<Text> => &i.promo,
        Nullable<Text> => &i.rail,
    );
    out.push_sql(")");
    Ok(())
});

/// An account quota's advisory lock until the transaction ends (PostgreSQL only), shared or
/// exclusive. The mode is a type parameter: the statement cache keys texts by type, and the two
/// modes are two texts.
#[derive(Debug, Clone, Copy, QueryId)]
struct Lock<const EXCLUSIVE: bool>(i64);

impl<const EXCLUSIVE: bool> QueryFragment<Pg> for Lock<EXCLUSIVE> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        out.push_sql(if EXCLUSIVE { "SELECT pg_advisory_xact_lock(" } else { "SELECT pg_advisory_xact_lock_shared(" });
        out.push_bind_param::<BigInt, _>(&self.0)?;
        out.push_sql(")");
        Ok(())
    }
}

/// Takes the quota lock `key` (`quotas::lock_key`) in the mode asked for, on `conn`: a
/// connection, or a shared one (`&AsyncPgConnection`) to pipeline it with other statements.
pub(crate) async fn quota_lock<Conn>(mut conn: Conn, key: i64, exclusive: bool) -> QueryResult<usize>
where
    Conn: diesel_async::AsyncConnectionCore<Backend = Pg>,
{
    use diesel_async::RunQueryDsl;
    if exclusive { Lock::<true>(key).execute(&mut conn).await } else { Lock::<false>(key).execute(&mut conn).await }
}
