//! The queries, one module per area. Each module implements its area's `*Repo` port for the
//! unit of work (`StoreTx`), with the queries in the trait methods themselves: each takes the
//! unit of work's connection (`self.conn()`) and runs the same diesel query on whichever backend
//! it is (`db_run!`). Adding a query is a port method and its implementation here.
//!
//! A few queries are functions taking a connection instead, each saying why: those `tx.rs` runs
//! outside a port method (`Store`'s reads on a pooled connection, `Store::release_leases`,
//! `Tx::lock_account`), one shared by two port methods, and what `invoice_work/` shares (the
//! client query of `clients`, the daily limits' protocol of `quotas`, which is no port's).

pub(crate) mod accounts;
pub(crate) mod balance;
pub(crate) mod billing;
pub(crate) mod bot_customers;
pub(crate) mod bots;
pub(crate) mod broadcasts;
pub(crate) mod cabinet;
pub(crate) mod clients;
pub(crate) mod customer_chats;
pub(crate) mod events;
pub(crate) mod gifts;
pub(crate) mod local_panel;
pub(crate) mod mail;
pub(crate) mod notices;
pub(crate) mod offer;
pub(crate) mod operators;
pub(crate) mod panel_adoption;
pub(crate) mod promo;
pub(crate) mod quotas;
pub(crate) mod read_ahead;
pub(crate) mod referrals;
pub(crate) mod reminders;
pub(crate) mod renewals;
pub(crate) mod sales;
pub(crate) mod settings;
pub(crate) mod shop;
pub(crate) mod stars;
pub(crate) mod subscription_write;

/// A newest-first page's cursor as stored; without one, everything is before the
/// end of time.
pub(crate) fn page_cursor(before: Option<vp_ports::Cursor>) -> (time::PrimitiveDateTime, String) {
    before.map_or((time::macros::datetime!(9999-12-31 00:00), String::new()), |vp_ports::Cursor { at, id }| {
        (crate::convert::db_time(at), id)
    })
}

/// An oldest-first page's cursor as stored: the last row of the page before, or the range's
/// start, which every row at that moment is after (no id is before the empty one).
pub(crate) fn range_cursor(
    from: time::OffsetDateTime,
    after: Option<&vp_ports::Cursor>,
) -> (time::PrimitiveDateTime, String) {
    after.map_or((crate::convert::db_time(from), String::new()), |c| (crate::convert::db_time(c.at), c.id.clone()))
}

/// One page of an oldest-first range (an export's): `$query`'s rows after `$cursor` (from
/// `range_cursor`) by (`$at`, `$id`) and before `$to`, oldest first, at most `$limit`. The
/// `$at >=` bound lets an index on `$at` start the scan at the cursor.
macro_rules! page_after {
    ($query:expr, $at:expr, $id:expr, $cursor:expr, $to:expr, $limit:expr) => {{
        let (at, id) = &$cursor;
        $query
            .filter($at.ge(*at))
            .filter($at.lt($to))
            .filter($at.gt(*at).or($at.eq(*at).and($id.gt(id))))
            .order(($at, $id))
            .limit(i64::from($limit))
    }};
}
pub(crate) use page_after;

/// One page of a newest-first list: `$query`'s rows strictly older than `$cursor` (from
/// `page_cursor`) by (`$at`, `$id`), newest first, at most `$limit`. Ids are unique, so no row
/// is on two pages and none is skipped.
macro_rules! page_before {
    ($query:expr, $at:expr, $id:expr, $cursor:expr, $limit:expr) => {{
        let (at, id) = &$cursor;
        $query
            .filter($at.lt(*at).or($at.eq(*at).and($id.lt(id))))
            .order(($at.desc(), $id.desc()))
            .limit(i64::from($limit))
    }};
}
pub(crate) use page_before;
