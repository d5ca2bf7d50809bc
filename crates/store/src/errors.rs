//! Database and pool failures as the port's `StoreError`.

use std::fmt::Display;

use diesel::result::{DatabaseErrorKind, Error};
use vp_ports::StoreError;

/// Messages of "someone else holds the lock; try again" on either backend.
const BUSY_MARKERS: [&str; 6] = [
    "database is locked",
    "database table is locked",
    "database is busy",
    "deadlock detected",
    "could not obtain lock",
    "lock timeout",
];

pub(crate) fn db(err: Error) -> StoreError {
    match err {
        Error::DatabaseError(kind, info) => {
            let message = info.message().to_owned();
            let what = info.constraint_name().map_or_else(|| message.clone(), |c| format!("{c}: {message}"));
            match kind {
                DatabaseErrorKind::UniqueViolation => StoreError::Conflict(what),
                // Any other constraint refusing the write: the unit of work must roll back too.
                DatabaseErrorKind::ForeignKeyViolation
                | DatabaseErrorKind::CheckViolation
                | DatabaseErrorKind::NotNullViolation
                | DatabaseErrorKind::RestrictViolation
                | DatabaseErrorKind::ExclusionViolation => StoreError::Conflict(what),
                DatabaseErrorKind::SerializationFailure => StoreError::Busy(message),
                _ if is_busy(&message) => StoreError::Busy(message),
                _ => StoreError::Unavailable(message),
            }
        }
        Error::DeserializationError(e) => StoreError::Corrupt(e.to_string()),
        other => {
            let message = other.to_string();
            if is_busy(&message) { StoreError::Busy(message) } else { StoreError::Unavailable(message) }
        }
    }
}

fn is_busy(message: &str) -> bool {
    let lower = message.to_ascii_lowercase();
    BUSY_MARKERS.iter().any(|m| lower.contains(m))
}

pub(crate) fn pool(err: diesel_async::pooled_connection::deadpool::PoolError) -> StoreError {
    StoreError::Unavailable(format!("cannot get a database connection: {err}"))
}

pub(crate) fn connection(err: diesel::ConnectionError) -> StoreError {
    StoreError::Unavailable(format!("cannot connect to the database: {err}"))
}

pub(crate) fn corrupt(what: impl Display) -> StoreError {
    StoreError::Corrupt(what.to_string())
}
