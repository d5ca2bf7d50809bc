//! The app layer's one error type. Adapters map it once: the CLI to a message and exit code,
//! the HTTP adapter to a status and the error envelope.

use std::collections::BTreeMap;

use thiserror::Error;
use vp_ports::StoreError;

/// Field name to reason, as in the envelope's `fields`.
pub type FieldErrors = BTreeMap<String, String>;

#[derive(Debug, Error)]
pub enum AppError {
    /// Input of the wrong shape; every bad field is named.
    #[error("invalid input: {}", describe(.0))]
    Validation(FieldErrors),
    /// The named thing does not exist (in this account).
    #[error("{0} not found")]
    NotFound(&'static str),
    /// The request conflicts with the current state.
    #[error("{0}")]
    Conflict(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

fn describe(fields: &FieldErrors) -> String {
    fields.iter().map(|(k, v)| format!("{k}: {v}")).collect::<Vec<_>>().join("; ")
}

impl AppError {
    pub fn field(name: &str, reason: impl ToString) -> AppError {
        AppError::Validation(BTreeMap::from([(name.to_owned(), reason.to_string())]))
    }
}

pub type AppResult<T> = Result<T, AppError>;
