//! Partner accounts as the operator keeps them: creating one with its first key, keys issued
//! and revoked, and what the platform sets per account (brand, markup, trial, API access,
//! style, limits).

use vp_domain::limits::LimitOverrides;
use vp_domain::{AccountId, ApiKeyId};
use vp_ports::{AccountRecord, ApiKeyRecord};

use super::{LimitChange, LimitChanges, Operator, merge_validation, parse_brand, parse_markup};
use crate::accounts::{AccountOverview, account_overview, load_account};
use crate::error::{AppError, AppResult};
use crate::keys::{IssuedKey, insert_new_key};

impl Operator {
    /// Creates a partner account with API access enabled and issues its first key.
    pub async fn create_account(
        &self,
        brand: Option<&str>,
        markup: &str,
        trial_enabled: bool,
    ) -> AppResult<(AccountRecord, IssuedKey)> {
        let brand = parse_brand(brand.unwrap_or(&self.platform_name));
        let markup = parse_markup(markup);
        let (brand_name, markup) = match (brand, markup) {
            (Ok(b), Ok(m)) => (b, m),
            (b, m) => return Err(merge_validation([b.err(), m.err()])),
        };
        let account = AccountRecord {
            id: AccountId::issued(self.ids.new_id(AccountId::PREFIX)),
            brand_name,
            markup,
            trial_enabled,
            api_enabled: true,
            limits: LimitOverrides::default(),
            style: Default::default(),
            time_zone: Default::default(),
            created_at: self.clock.now(),
        };
        let mut tx = self.store.begin().await?;
        tx.insert_account(&account).await?;
        crate::shop::slug_of(tx.as_mut(), &account, self.clock.now()).await?;
        let key = insert_new_key(tx.as_mut(), self.ids.as_ref(), self.clock.now(), &account.id).await?;
        tx.commit().await?;
        Ok((account, key))
    }

    /// Issues another key for an account; earlier keys stay valid until revoked.
    pub async fn issue_key(&self, account_id: &AccountId) -> AppResult<IssuedKey> {
        let mut tx = self.store.begin().await?;
        load_account(tx.as_mut(), account_id).await?;
        let key = insert_new_key(tx.as_mut(), self.ids.as_ref(), self.clock.now(), account_id).await?;
        tx.commit().await?;
        self.auth_cache.forget_account(account_id);
        Ok(key)
    }

    pub async fn revoke_key(&self, key_id: &ApiKeyId) -> AppResult<ApiKeyRecord> {
        let mut tx = self.store.begin().await?;
        let key = tx.api_key(key_id).await?.ok_or(AppError::NotFound("api key"))?;
        if !tx.revoke_api_key(key_id, self.clock.now()).await? {
            return Err(AppError::Conflict(format!("api key {key_id} is already revoked")));
        }
        let revoked = tx.api_key(key_id).await?.unwrap_or(key);
        tx.commit().await?;
        self.auth_cache.forget_account(&revoked.account_id);
        Ok(revoked)
    }

    pub async fn account_overview(&self, account_id: &AccountId) -> AppResult<AccountOverview> {
        Ok(read!(self.store, |tx| account_overview(tx.as_mut(), account_id)))
    }

    pub async fn list_accounts(&self) -> AppResult<Vec<AccountRecord>> {
        Ok(read!(self.store, |tx| tx.accounts()))
    }

    async fn change_account(
        &self,
        account_id: &AccountId,
        change: impl FnOnce(&mut AccountRecord) -> AppResult<()>,
    ) -> AppResult<AccountRecord> {
        let mut tx = self.store.begin().await?;
        let mut account = load_account(tx.as_mut(), account_id).await?;
        let shown = |a: &AccountRecord| (a.brand_name.clone(), a.style.support_url.clone());
        let shown_before = shown(&account);
        change(&mut account)?;
        tx.update_account(&account).await?;
        // The bot's profile names the brand and the support address.
        if shown(&account) != shown_before {
            tx.bump_bot_profile(account_id).await?;
        }
        tx.commit().await?;
        self.auth_cache.forget_account(account_id);
        Ok(account)
    }

    pub async fn set_api_access(&self, account_id: &AccountId, enabled: bool) -> AppResult<AccountRecord> {
        self.change_account(account_id, |a| {
            a.api_enabled = enabled;
            Ok(())
        })
        .await
    }

    pub async fn set_trial_enabled(&self, account_id: &AccountId, enabled: bool) -> AppResult<AccountRecord> {
        self.change_account(account_id, |a| {
            a.trial_enabled = enabled;
            Ok(())
        })
        .await
    }

    pub async fn set_markup(&self, account_id: &AccountId, markup: &str) -> AppResult<AccountRecord> {
        let markup = parse_markup(markup)?;
        self.change_account(account_id, |a| {
            a.markup = markup;
            Ok(())
        })
        .await
    }

    pub async fn set_brand_name(&self, account_id: &AccountId, brand: &str) -> AppResult<AccountRecord> {
        let brand = parse_brand(brand)?;
        self.change_account(account_id, |a| {
            a.brand_name = brand;
            Ok(())
        })
        .await
    }

    /// The zone the account's customers read times in (`account set-time-zone`).
    pub async fn set_time_zone(&self, account_id: &AccountId, zone: &str) -> AppResult<AccountRecord> {
        let zone = vp_domain::TimeZone::parse(zone).map_err(|e| AppError::field("time_zone", e))?;
        self.change_account(account_id, |a| {
            a.time_zone = zone;
            Ok(())
        })
        .await
    }

    /// How the customer pages show the account (`account set-style`); nothing changes unless
    /// every value passes its check.
    pub async fn set_style(
        &self,
        account_id: &AccountId,
        changes: crate::style::StyleChanges,
    ) -> AppResult<AccountRecord> {
        self.change_account(account_id, |a| {
            a.style = crate::style::apply(&a.style, changes)?;
            Ok(())
        })
        .await
    }

    /// Per-account limit overrides; every set value must be at least 1.
    pub async fn set_limits(&self, account_id: &AccountId, changes: LimitChanges) -> AppResult<AccountRecord> {
        let named = [
            ("requests_per_minute", changes.requests_per_minute),
            ("payments_per_minute", changes.payments_per_minute),
            ("new_clients_per_day", changes.new_clients_per_day),
            ("trials_per_day", changes.trials_per_day),
        ];
        let errors: crate::FieldErrors = named
            .iter()
            .filter(|(_, c)| *c == LimitChange::Set(0))
            .map(|(n, _)| ((*n).to_owned(), "must be at least 1".to_owned()))
            .collect();
        if !errors.is_empty() {
            return Err(AppError::Validation(errors));
        }
        self.change_account(account_id, |a| {
            let l = a.limits;
            a.limits = LimitOverrides {
                requests_per_minute: changes.requests_per_minute.apply(l.requests_per_minute),
                payments_per_minute: changes.payments_per_minute.apply(l.payments_per_minute),
                new_clients_per_day: changes.new_clients_per_day.apply(l.new_clients_per_day),
                trials_per_day: changes.trials_per_day.apply(l.trials_per_day),
            };
            Ok(())
        })
        .await
    }
}
