//! Operator use cases: the platform side of accounts, keys, plans and prices, content,
//! clients, the stand-ins, backups and the shifted clock. Partners never reach these; the CLI
//! (and later a back office) does.

mod accounts;
mod clients;
mod content;
pub mod demo;
mod offer;
pub mod shifted_clock;
mod system;

use std::sync::Arc;

use vp_domain::AccountId;
use vp_domain::{BrandName, ClientId, MarkupPercent};
use vp_ports::{AccountRepo, ClientRecord, ClientRepo, Clock, IdGenerator, Store};

use crate::access::AuthCache;
use crate::accounts::load_account;
use crate::catalog::Offers;
use crate::clients::PanelSync;
use crate::error::{AppError, AppResult};

/// Longest plan term an operator may create, in months.
pub const PLAN_MONTHS_MAX: u32 = 120;

/// A change to one per-account limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitChange {
    Keep,
    Default,
    Set(u32),
}

impl LimitChange {
    fn apply(self, current: Option<u32>) -> Option<u32> {
        match self {
            LimitChange::Keep => current,
            LimitChange::Default => None,
            LimitChange::Set(n) => Some(n),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LimitChanges {
    pub requests_per_minute: LimitChange,
    pub payments_per_minute: LimitChange,
    pub new_clients_per_day: LimitChange,
    pub trials_per_day: LimitChange,
}

fn parse_brand(raw: &str) -> AppResult<BrandName> {
    BrandName::parse(raw).map_err(|e| AppError::field("brand_name", e))
}

fn parse_markup(raw: &str) -> AppResult<MarkupPercent> {
    raw.parse::<MarkupPercent>().map_err(|e| AppError::field("markup_percent", e))
}

async fn load_client(
    tx: &mut (impl AccountRepo + ClientRepo + ?Sized),
    account_id: &AccountId,
    client_id: &ClientId,
) -> AppResult<ClientRecord> {
    load_account(tx, account_id).await?;
    tx.client(account_id, client_id).await?.ok_or(AppError::NotFound("client"))
}

/// What the platform's operator does.
pub struct Operator {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) ids: Arc<dyn IdGenerator>,
    pub(crate) auth_cache: Arc<AuthCache>,
    pub(crate) offers: Arc<Offers>,
    pub(crate) panel_sync: Arc<PanelSync>,
    /// The brand of an account created without one (`VP_PLATFORM_NAME`).
    pub(crate) platform_name: String,
}

/// Joins the field errors of several validations into one `Validation` error.
pub(crate) fn merge_validation<const N: usize>(errors: [Option<AppError>; N]) -> AppError {
    let mut fields = crate::FieldErrors::new();
    for e in errors.into_iter().flatten() {
        match e {
            AppError::Validation(f) => fields.extend(f),
            other => return other,
        }
    }
    AppError::Validation(fields)
}

/// A gateway method type is a short lower-case identifier (`bank_card`, `sbp`, ...).
fn check_gateway_type(gateway_type: Option<&str>) -> Result<(), String> {
    match gateway_type {
        Some(t)
            if t.is_empty()
                || t.len() > 32
                || !t.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_') =>
        {
            Err("must be 1 to 32 of a-z, 0-9 and _".into())
        }
        _ => Ok(()),
    }
}
