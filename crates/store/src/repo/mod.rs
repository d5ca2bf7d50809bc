//! Query functions, one module per area, each with its area's `*Repo` port implemented for the
//! unit of work at its end. Each function takes the unit of work's connection and runs the
//! same diesel query on whichever backend it is (`db_run!`).

pub(crate) mod accounts;
pub(crate) mod balance;
pub(crate) mod billing;
pub(crate) mod bots;
pub(crate) mod cabinet;
pub(crate) mod clients;
pub(crate) mod customer_chats;
pub(crate) mod events;
pub(crate) mod local_panel;
pub(crate) mod notices;
pub(crate) mod offer;
pub(crate) mod quotas;
pub(crate) mod reminders;
pub(crate) mod settings;

/// A newest-first page's cursor `(at, id)` as stored; without one, everything is before the
/// end of time.
pub(crate) fn page_cursor(before: Option<(time::OffsetDateTime, String)>) -> (time::PrimitiveDateTime, String) {
    before.map_or((time::macros::datetime!(9999-12-31 00:00), String::new()), |(at, id)| {
        (crate::convert::db_time(at), id)
    })
}
