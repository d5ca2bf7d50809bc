//! The cabinet's overview: the account as the platform set it up, and its brand name, the one
//! thing of it a partner edits (with the rules of `PATCH /account`).

use vp_domain::BrandName;
use vp_domain::limits::AccountLimits;
use vp_ports::{AccountRecord, AuditEntry, Cursor};

use super::{Actor, Cabinet};
use crate::accounts::{AccountOverview, account_overview};
use crate::audit::ACTIVITY_PAGE;
use crate::error::{AppError, AppResult};

impl Cabinet {
    pub async fn overview(&self, actor: &Actor) -> AppResult<(AccountOverview, AccountLimits)> {
        let overview = read!(self.store, |tx| account_overview(tx.as_mut(), actor.account_id()));
        let limits = AccountLimits::with_overrides(&overview.account.limits);
        Ok((overview, limits))
    }

    pub async fn rename_brand(&self, actor: &Actor, raw: &str) -> AppResult<AccountRecord> {
        let brand = BrandName::parse(raw).map_err(|e| AppError::field("brand_name", e))?;
        self.services.catalog.rename_brand_by(&actor.account, brand, Some(actor.into())).await
    }

    /// A page of the account's activity, newest first, before the cursor `(at, id)`.
    pub async fn activity(&self, actor: &Actor, before: Option<Cursor>) -> AppResult<Vec<AuditEntry>> {
        Ok(read!(self.store, |tx| tx.audit_entries(actor.account_id(), before, ACTIVITY_PAGE)))
    }
}
