//! Reading an account: the one every use case starts from, and the overview the operator and
//! the cabinet show.

use vp_domain::AccountId;
use vp_ports::{AccountRecord, AccountRepo, ApiKeyRecord, BalanceRepo};

use crate::error::{AppError, AppResult};

/// An account with its keys and balance, as the operator and the cabinet see it.
#[derive(Debug, Clone)]
pub struct AccountOverview {
    pub account: AccountRecord,
    pub keys: Vec<ApiKeyRecord>,
    pub balance: vp_domain::withdrawal::Balance,
}

/// The account `id`, or not found.
pub(crate) async fn load_account(tx: &mut (impl AccountRepo + ?Sized), id: &str) -> AppResult<AccountRecord> {
    tx.account(id).await?.ok_or(AppError::NotFound("account"))
}

/// An account with its keys and balance, read in `tx` (the operator's and the cabinet's
/// overview).
pub(crate) async fn account_overview(
    tx: &mut (impl AccountRepo + BalanceRepo + ?Sized),
    account_id: &AccountId,
) -> AppResult<AccountOverview> {
    let account = load_account(tx, account_id).await?;
    let keys = tx.api_keys(account_id).await?;
    let balance = tx.partner_balance(account_id).await?;
    Ok(AccountOverview { account, keys, balance })
}
