//! The inserts of an invoice group on PostgreSQL (`postgres_group`): one statement for each
//! table and every unit of the group, its rows passed as arrays (`unnest`), so the text is fixed
//! whatever the group's size and is prepared once per connection. A statement per row costs the
//! server an executor start, the table's CHECK constraints parsed anew, and its own protocol
//! messages; for a group that is paid once. Rows go in the order given: callers sort them, so
//! two groups lock rows in the same order.
//!
//! Reads and updates stay one statement per row (`statements`): matched on a unique key, their
//! cached plan is the index's whatever the table's statistics. A lookup of many keys (`= ANY`, a
//! join with `unnest`) prepared while a new table is still empty keeps a plan that scans the
//! whole table, and gets slower with every row.

use diesel::QueryResult;
use diesel::pg::Pg;
use diesel::query_builder::{AstPass, QueryFragment, QueryId};
use diesel::sql_types::{Array, BigInt, Bool, Integer, Nullable, Text, Timestamp};
use time::PrimitiveDateTime;

use crate::models::{ClientRow, IdempotencyRow, InvoiceRow};

/// `unnest($1, $2, ...)` of the given arrays, each bound as `Array<type>`.
macro_rules! unnest {
    ($out:ident, $first_ty:ty => $first:expr $(, $ty:ty => $values:expr)* $(,)?) => {{
        $out.push_sql("SELECT * FROM unnest(");
        $out.push_bind_param::<Array<$first_ty>, _>($first)?;
        $(
            $out.push_sql(", ");
            $out.push_bind_param::<Array<$ty>, _>($values)?;
        )*
        $out.push_sql(")");
    }};
}

macro_rules! statement {
    ($ty:ty, |$this:ident, $out:ident| $body:block) => {
        impl QueryFragment<Pg> for $ty {
            fn walk_ast<'b>(&'b self, mut $out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
                let $this = self;
                $body
                Ok(())
            }
        }
    };
}

/// Records the keys the account does not have yet; returns (account, key) of those recorded.
#[derive(QueryId, Default)]
pub(crate) struct InsertKeys {
    account_id: Vec<String>,
    key: Vec<String>,
    request_fingerprint: Vec<String>,
    payment_id: Vec<String>,
    recovery_point: Vec<String>,
    locked_until: Vec<Option<PrimitiveDateTime>>,
    created_at: Vec<PrimitiveDateTime>,
    gateway_request: Vec<Option<String>>,
}

impl InsertKeys {
    pub(crate) fn new<'a>(rows: impl IntoIterator<Item = &'a IdempotencyRow>) -> InsertKeys {
        let mut s = InsertKeys::default();
        for k in rows {
            s.account_id.push(k.account_id.clone());
            s.key.push(k.key.clone());
            s.request_fingerprint.push(k.request_fingerprint.clone());
            s.payment_id.push(k.payment_id.clone());
            s.recovery_point.push(k.recovery_point.clone());
            s.locked_until.push(k.locked_until);
            s.created_at.push(k.created_at);
            s.gateway_request.push(k.gateway_request.clone());
        }
        s
    }
}

statement!(InsertKeys, |this, out| {
    out.push_sql(
        "INSERT INTO idempotency_keys (account_id, key, request_fingerprint, payment_id, recovery_point, \
         locked_until, created_at, gateway_request) ",
    );
    unnest!(out,
        Text => &this.account_id,
        Text => &this.key,
        Text => &this.request_fingerprint,
        Text => &this.payment_id,
        Text => &this.recovery_point,
        Nullable<Timestamp> => &this.locked_until,
        Timestamp => &this.created_at,
        Nullable<Text> => &this.gateway_request,
    );
    out.push_sql(" ON CONFLICT DO NOTHING RETURNING account_id, key");
});

impl diesel::query_builder::Query for InsertKeys {
    type SqlType = (Text, Text);
}

#[derive(QueryId, Default)]
pub(crate) struct InsertClients {
    id: Vec<String>,
    account_id: Vec<String>,
    client_id: Vec<String>,
    created_at: Vec<PrimitiveDateTime>,
    blocked: Vec<bool>,
}

impl InsertClients {
    pub(crate) fn new<'a>(rows: impl IntoIterator<Item = &'a ClientRow>) -> InsertClients {
        let mut s = InsertClients::default();
        for c in rows {
            s.id.push(c.id.clone());
            s.account_id.push(c.account_id.clone());
            s.client_id.push(c.client_id.clone());
            s.created_at.push(c.created_at);
            s.blocked.push(c.blocked);
        }
        s
    }
}

statement!(InsertClients, |this, out| {
    out.push_sql("INSERT INTO clients (id, account_id, client_id, created_at, blocked) ");
    unnest!(out,
        Text => &this.id,
        Text => &this.account_id,
        Text => &this.client_id,
        Timestamp => &this.created_at,
        Bool => &this.blocked,
    );
});

/// Adds to the accounts' counts: one row per (account, kind, hour, stripe), each at most once
/// (an upsert may not touch a row twice).
#[derive(QueryId, Default)]
pub(crate) struct AddCounts {
    account_id: Vec<String>,
    kind: Vec<String>,
    hour: Vec<i64>,
    stripe: Vec<i32>,
    n: Vec<i64>,
}

impl AddCounts {
    pub(crate) fn new<'a>(rows: impl IntoIterator<Item = ((&'a str, &'a str, i64, i32), i64)>) -> AddCounts {
        let mut s = AddCounts::default();
        for ((account_id, kind, hour, stripe), n) in rows {
            s.account_id.push(account_id.to_owned());
            s.kind.push(kind.to_owned());
            s.hour.push(hour);
            s.stripe.push(stripe);
            s.n.push(n);
        }
        s
    }
}

statement!(AddCounts, |this, out| {
    out.push_sql("INSERT INTO daily_counts (account_id, kind, hour, stripe, n) ");
    unnest!(out,
        Text => &this.account_id,
        Text => &this.kind,
        BigInt => &this.hour,
        Integer => &this.stripe,
        BigInt => &this.n,
    );
    out.push_sql(" ON CONFLICT (account_id, kind, hour, stripe) DO UPDATE SET n = daily_counts.n + EXCLUDED.n");
});

#[derive(QueryId, Default)]
pub(crate) struct InsertInvoices {
    payment_id: Vec<String>,
    account_id: Vec<String>,
    client_ref: Vec<String>,
    status: Vec<String>,
    purpose: Vec<String>,
    plan_id: Vec<Option<i32>>,
    devices: Vec<Option<i32>>,
    method: Vec<String>,
    amount: Vec<i64>,
    platform_amount: Vec<i64>,
    partner_share: Vec<i64>,
    return_url: Vec<Option<String>>,
    payment_url: Vec<Option<String>>,
    gateway_payment_id: Vec<Option<String>>,
    created_at: Vec<PrimitiveDateTime>,
    expires_at: Vec<PrimitiveDateTime>,
    paid_at: Vec<Option<PrimitiveDateTime>>,
    gateway_check_at: Vec<Option<PrimitiveDateTime>>,
    receipt: Vec<Option<String>>,
    promo: Vec<Option<String>>,
    rail: Vec<Option<String>>,
}

impl InsertInvoices {
    pub(crate) fn new<'a>(
        rows: impl IntoIterator<Item = (&'a InvoiceRow, Option<PrimitiveDateTime>)>,
    ) -> InsertInvoices {
        let mut s = InsertInvoices::default();
        for (i, check_at) in rows {
            s.payment_id.push(i.payment_id.clone());
            s.account_id.push(i.account_id.clone());
            s.client_ref.push(i.client_ref.clone());
            s.status.push(i.status.clone());
            s.purpose.push(i.purpose.clone());
            s.plan_id.push(i.plan_id);
            s.devices.push(i.devices);
            s.method.push(i.method.clone());
            s.amount.push(i.amount);
            s.platform_amount.push(i.platform_amount);
            s.partner_share.push(i.partner_share);
            s.return_url.push(i.return_url.clone());
            s.payment_url.push(i.payment_url.clone());
            s.gateway_payment_id.push(i.gateway_payment_id.clone());
            s.created_at.push(i.created_at);
            s.expires_at.push(i.expires_at);
            s.paid_at.push(i.paid_at);
            s.gateway_check_at.push(check_at);
            s.receipt.push(i.receipt.clone());
            s.promo.push(i.promo.clone());
            s.rail.push(i.rail.clone());
        }
        s
    }
}

statement!(InsertInvoices, |this, out| {
    out.push_sql(
        "INSERT INTO invoices (payment_id, account_id, client_ref, status, purpose, plan_id, devices, method, \
         amount, platform_amount, partner_share, return_url, payment_url, gateway_payment_id, created_at, \
         expires_at, paid_at, gateway_check_at, receipt, promo, rail) ",
    );
    unnest!(out,
        Text => &this.payment_id,
        Text => &this.account_id,
        Text => &this.client_ref,
        Text => &this.status,
        Text => &this.purpose,
        Nullable<Integer> => &this.plan_id,
        Nullable<Integer> => &this.devices,
        Text => &this.method,
        BigInt => &this.amount,
        BigInt => &this.platform_amount,
        BigInt => &this.partner_share,
        Nullable<Text> => &this.return_url,
        Nullable<Text> => &this.payment_url,
        Nullable<Text> => &this.gateway_payment_id,
        Timestamp => &this.created_at,
        Timestamp => &this.expires_at,
        Nullable<Timestamp> => &this.paid_at,
        Nullable<Timestamp> => &this.gateway_check_at,
        Nullable<Text> => &this.receipt,
        Nullable<Text> => &this.promo,
        Nullable<Text> => &this.rail,
    );
});
