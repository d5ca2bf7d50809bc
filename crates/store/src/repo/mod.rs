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
pub(crate) mod local_panel;
pub(crate) mod mail;
pub(crate) mod notices;
pub(crate) mod offer;
pub(crate) mod panel_adoption;
pub(crate) mod promo;
pub(crate) mod quotas;
pub(crate) mod read_ahead;
pub(crate) mod referrals;
pub(crate) mod reminders;
pub(crate) mod renewals;
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
