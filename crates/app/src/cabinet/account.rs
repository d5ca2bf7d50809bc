//! The cabinet's overview: the account as the platform set it up, and its brand name, the one
//! thing of it a partner edits (with the rules of `PATCH /account`).

use vp_domain::BrandName;
use vp_domain::limits::AccountLimits;
use vp_ports::AccountRecord;

use super::Actor;
use crate::App;
use crate::error::{AppError, AppResult};
use crate::operator::AccountOverview;

impl App {
    pub async fn cabinet_overview(&self, actor: &Actor) -> AppResult<(AccountOverview, AccountLimits)> {
        let overview = self.account_overview(actor.account_id()).await?;
        let limits = AccountLimits::with_overrides(&overview.account.limits);
        Ok((overview, limits))
    }

    pub async fn cabinet_rename_brand(&self, actor: &Actor, raw: &str) -> AppResult<AccountRecord> {
        let brand = BrandName::parse(raw).map_err(|e| AppError::field("brand_name", e))?;
        self.rename_brand_by(&actor.account, brand, Some(actor.into())).await
    }
}
