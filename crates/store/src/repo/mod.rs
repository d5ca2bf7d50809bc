//! Query functions, one module per area. Each takes the unit of work's connection and runs
//! the same diesel query on whichever backend it is (`db_run!`).

pub(crate) mod accounts;
pub(crate) mod billing;
pub(crate) mod cabinet;
pub(crate) mod catalogue;
pub(crate) mod clients;
pub(crate) mod events;
pub(crate) mod local_panel;
pub(crate) mod quotas;
