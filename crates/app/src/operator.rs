//! Operator use cases: the platform side of accounts, keys, content, clients. Partners never
//! reach these; the CLI (and later a back office) does.

use vp_domain::limits::LimitOverrides;
use vp_domain::subscription::SubscriptionError;
use vp_domain::{BrandName, ClientId, DeviceSettings, MarkupPercent, MethodCode, Money};
use vp_ports::{
    AccountRecord, ApiKeyRecord, ClientRecord, NewPlan, PaymentMethodRecord, PlanRecord, SettingRecord, Tx,
};

use crate::App;
use crate::content::{APP_LIST_KEY, AppList, DOCUMENTS_KEY, Documents};
use crate::error::{AppError, AppResult};
use crate::keys::{self, IssuedKey};

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

/// An account with what an operator wants to see about it.
#[derive(Debug, Clone)]
pub struct AccountOverview {
    pub account: AccountRecord,
    pub keys: Vec<ApiKeyRecord>,
    pub balance: vp_domain::withdrawal::Balance,
}

fn parse_brand(raw: &str) -> AppResult<BrandName> {
    BrandName::parse(raw).map_err(|e| AppError::field("brand_name", e))
}

fn parse_markup(raw: &str) -> AppResult<MarkupPercent> {
    raw.parse::<MarkupPercent>().map_err(|e| AppError::field("markup_percent", e))
}

pub(crate) async fn load_account(tx: &mut dyn Tx, id: &str) -> AppResult<AccountRecord> {
    tx.account(id).await?.ok_or(AppError::NotFound("account"))
}

async fn load_client(tx: &mut dyn Tx, account_id: &str, client_id: &str) -> AppResult<ClientRecord> {
    let client_id = ClientId::parse(client_id).map_err(|e| AppError::field("client_id", e))?;
    load_account(tx, account_id).await?;
    tx.client(account_id, &client_id).await?.ok_or(AppError::NotFound("client"))
}

impl App {
    /// Creates a partner account with API access enabled and issues its first key.
    pub async fn create_account(
        &self,
        brand: Option<&str>,
        markup: &str,
        trial_enabled: bool,
    ) -> AppResult<(AccountRecord, IssuedKey)> {
        let brand = parse_brand(brand.unwrap_or(&self.settings.platform_name));
        let markup = parse_markup(markup);
        let (brand_name, markup) = match (brand, markup) {
            (Ok(b), Ok(m)) => (b, m),
            (b, m) => return Err(merge_validation([b.err(), m.err()])),
        };
        let account = AccountRecord {
            id: self.ids.new_id("acc"),
            brand_name,
            markup,
            trial_enabled,
            api_enabled: true,
            limits: LimitOverrides::default(),
            style: Default::default(),
            created_at: self.clock.now(),
        };
        let mut tx = self.store.begin().await?;
        tx.insert_account(&account).await?;
        let key = self.insert_new_key(tx.as_mut(), &account.id).await?;
        tx.commit().await?;
        Ok((account, key))
    }

    pub(crate) async fn insert_new_key(&self, tx: &mut dyn Tx, account_id: &str) -> AppResult<IssuedKey> {
        let key = keys::issue(self.ids.as_ref());
        tx.insert_api_key(&ApiKeyRecord {
            id: key.id.clone(),
            account_id: account_id.to_owned(),
            key_hash: key.hash.clone(),
            prefix: key.prefix.clone(),
            created_at: self.clock.now(),
            revoked_at: None,
        })
        .await?;
        Ok(key)
    }

    /// A consistent copy of the database, as of one moment, to the new file `path`, taken
    /// while the service runs (SQLite; PostgreSQL answers which tools do it).
    pub async fn back_up_database(&self, path: &str) -> AppResult<()> {
        Ok(self.store.backup_to(path).await?)
    }

    /// After restoring a backup, before any instance starts: frees the leases the lost
    /// deployment's processes held, so the deliveries they had claimed go out at once rather
    /// than when their leases end (a minute). Returns how many deliveries it freed.
    pub async fn release_leases(&self) -> AppResult<u64> {
        Ok(self.store.release_leases().await?)
    }

    /// Issues another key for an account; earlier keys stay valid until revoked.
    pub async fn issue_key(&self, account_id: &str) -> AppResult<IssuedKey> {
        let mut tx = self.store.begin().await?;
        load_account(tx.as_mut(), account_id).await?;
        let key = self.insert_new_key(tx.as_mut(), account_id).await?;
        tx.commit().await?;
        self.auth_cache.forget_account(account_id);
        Ok(key)
    }

    pub async fn revoke_key(&self, key_id: &str) -> AppResult<ApiKeyRecord> {
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

    pub async fn account_overview(&self, account_id: &str) -> AppResult<AccountOverview> {
        let mut tx = self.store.read().await?;
        let account = load_account(tx.as_mut(), account_id).await?;
        let keys = tx.api_keys(account_id).await?;
        let balance = tx.partner_balance(account_id).await?;
        tx.commit().await?;
        Ok(AccountOverview { account, keys, balance })
    }

    pub async fn list_accounts(&self) -> AppResult<Vec<AccountRecord>> {
        let mut tx = self.store.read().await?;
        let all = tx.accounts().await?;
        tx.commit().await?;
        Ok(all)
    }

    async fn change_account(
        &self,
        account_id: &str,
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

    pub async fn set_api_access(&self, account_id: &str, enabled: bool) -> AppResult<AccountRecord> {
        self.change_account(account_id, |a| {
            a.api_enabled = enabled;
            Ok(())
        })
        .await
    }

    pub async fn set_trial_enabled(&self, account_id: &str, enabled: bool) -> AppResult<AccountRecord> {
        self.change_account(account_id, |a| {
            a.trial_enabled = enabled;
            Ok(())
        })
        .await
    }

    pub async fn set_markup(&self, account_id: &str, markup: &str) -> AppResult<AccountRecord> {
        let markup = parse_markup(markup)?;
        self.change_account(account_id, |a| {
            a.markup = markup;
            Ok(())
        })
        .await
    }

    pub async fn set_brand_name(&self, account_id: &str, brand: &str) -> AppResult<AccountRecord> {
        let brand = parse_brand(brand)?;
        self.change_account(account_id, |a| {
            a.brand_name = brand;
            Ok(())
        })
        .await
    }

    /// How the customer pages show the account (`account set-style`); nothing changes unless
    /// every value passes its check.
    pub async fn set_style(&self, account_id: &str, changes: crate::style::StyleChanges) -> AppResult<AccountRecord> {
        self.change_account(account_id, |a| {
            a.style = crate::style::apply(&a.style, changes)?;
            Ok(())
        })
        .await
    }

    /// Per-account limit overrides; every set value must be at least 1.
    pub async fn set_limits(&self, account_id: &str, changes: LimitChanges) -> AppResult<AccountRecord> {
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

    /// A plan of `months` calendar months, or a lifetime plan when `months` is `None`.
    pub async fn create_plan(
        &self,
        months: Option<u32>,
        platform_price: &str,
        device_limited: bool,
    ) -> AppResult<PlanRecord> {
        let price = Money::parse_positive(platform_price).map_err(|e| AppError::field("platform_price", e));
        let months_ok = match months {
            Some(m) if m == 0 || m > PLAN_MONTHS_MAX => {
                Err(AppError::field("months", format!("must be between 1 and {PLAN_MONTHS_MAX}")))
            }
            _ => Ok(()),
        };
        let price = match (price, months_ok) {
            (Ok(p), Ok(())) => p,
            (p, m) => return Err(merge_validation([p.err(), m.err()])),
        };
        let plan = NewPlan {
            months: months.unwrap_or(0),
            lifetime: months.is_none(),
            device_limited,
            platform_price: price,
            created_at: self.clock.now(),
        };
        let mut tx = self.store.begin().await?;
        let created = tx.insert_plan(&plan).await?;
        tx.commit().await?;
        self.offer_cache.forget();
        Ok(created)
    }

    /// Withdraws a plan: it leaves `GET /plans` and new invoices for it get `PLAN_NOT_FOUND`;
    /// subscriptions already bought keep their term.
    pub async fn retire_plan(&self, plan_id: i32) -> AppResult<PlanRecord> {
        let mut tx = self.store.begin().await?;
        tx.plan(plan_id).await?.ok_or(AppError::NotFound("plan"))?;
        if !tx.retire_plan(plan_id, self.clock.now()).await? {
            return Err(AppError::Conflict(format!("plan {plan_id} is already retired")));
        }
        let plan = tx.plan(plan_id).await?.ok_or(AppError::NotFound("plan"))?;
        tx.commit().await?;
        self.offer_cache.forget();
        Ok(plan)
    }

    pub async fn list_plans(&self, include_retired: bool) -> AppResult<Vec<PlanRecord>> {
        let mut tx = self.store.read().await?;
        let plans = tx.plans(include_retired).await?;
        tx.commit().await?;
        Ok(plans)
    }

    /// Sets the device settings; `platform_price` `None` keeps extra devices off sale.
    pub async fn set_device_offer(
        &self,
        included: u32,
        max: u32,
        platform_price: Option<&str>,
    ) -> AppResult<DeviceSettings> {
        let price = platform_price
            .map(|p| Money::parse_positive(p).map_err(|e| AppError::field("platform_price", e)))
            .transpose()?;
        let settings = DeviceSettings::new(included, max, price).map_err(|e| AppError::field("included", e))?;
        let mut tx = self.store.begin().await?;
        tx.set_device_settings(&settings).await?;
        tx.commit().await?;
        self.offer_cache.forget();
        Ok(settings)
    }

    /// Stops selling extra devices; `included` and `max` stay in force.
    pub async fn switch_off_device_offer(&self) -> AppResult<DeviceSettings> {
        let mut tx = self.store.begin().await?;
        let current = tx
            .device_settings()
            .await?
            .ok_or_else(|| AppError::Conflict("device settings were never set; use `devices set` first".into()))?;
        let off = DeviceSettings { platform_price: None, ..current };
        tx.set_device_settings(&off).await?;
        tx.commit().await?;
        self.offer_cache.forget();
        Ok(off)
    }

    pub async fn device_settings(&self) -> AppResult<Option<DeviceSettings>> {
        let mut tx = self.store.read().await?;
        let s = tx.device_settings().await?;
        tx.commit().await?;
        Ok(s)
    }

    /// Adds a payment method, enabled, after the existing ones. `gateway_type` is the
    /// gateway's own method type it maps to (checked against the gateway's list by the caller).
    pub async fn add_payment_method(
        &self,
        code: &str,
        name_en: &str,
        name_ru: &str,
        gateway_type: Option<&str>,
    ) -> AppResult<PaymentMethodRecord> {
        let mut errors = crate::FieldErrors::new();
        if let Err(e) = check_gateway_type(gateway_type) {
            errors.insert("gateway_type".into(), e);
        }
        let plain = code.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if let Err(e) = MethodCode::parse(code) {
            errors.insert("code".into(), e.to_string());
        } else if !plain {
            errors.insert("code".into(), "may contain only Latin letters, digits, - and _".into());
        }
        for (field, name) in [("name_en", name_en), ("name_ru", name_ru)] {
            if name.trim().is_empty() || name.chars().count() > 64 {
                errors.insert(field.into(), "must be 1 to 64 characters".into());
            }
        }
        if !errors.is_empty() {
            return Err(AppError::Validation(errors));
        }
        let mut tx = self.store.begin().await?;
        if tx.payment_method(code).await?.is_some() {
            return Err(AppError::Conflict(format!("payment method {code} already exists")));
        }
        let position = tx.payment_methods().await?.iter().map(|m| m.position).max().map_or(0, |p| p + 1);
        let method = PaymentMethodRecord {
            code: code.to_owned(),
            name_en: name_en.trim().to_owned(),
            name_ru: name_ru.trim().to_owned(),
            enabled: true,
            position,
            gateway_type: gateway_type.map(str::to_owned),
        };
        tx.upsert_payment_method(&method).await?;
        tx.commit().await?;
        self.offer_cache.forget();
        Ok(method)
    }

    pub async fn set_payment_method_enabled(&self, code: &str, enabled: bool) -> AppResult<PaymentMethodRecord> {
        let mut tx = self.store.begin().await?;
        let mut method = tx.payment_method(code).await?.ok_or(AppError::NotFound("payment method"))?;
        method.enabled = enabled;
        tx.upsert_payment_method(&method).await?;
        tx.commit().await?;
        self.offer_cache.forget();
        Ok(method)
    }

    /// Maps a method to the gateway's own method type, or (`None`) lets the customer choose on
    /// the gateway's page.
    pub async fn set_payment_method_gateway_type(
        &self,
        code: &str,
        gateway_type: Option<&str>,
    ) -> AppResult<PaymentMethodRecord> {
        check_gateway_type(gateway_type).map_err(|e| AppError::field("gateway_type", e))?;
        let mut tx = self.store.begin().await?;
        let mut method = tx.payment_method(code).await?.ok_or(AppError::NotFound("payment method"))?;
        method.gateway_type = gateway_type.map(str::to_owned);
        tx.upsert_payment_method(&method).await?;
        tx.commit().await?;
        self.offer_cache.forget();
        Ok(method)
    }

    pub async fn list_payment_methods(&self) -> AppResult<Vec<PaymentMethodRecord>> {
        let mut tx = self.store.read().await?;
        let all = tx.payment_methods().await?;
        tx.commit().await?;
        Ok(all)
    }

    pub async fn show_client(&self, account_id: &str, client_id: &str) -> AppResult<ClientRecord> {
        let mut tx = self.store.read().await?;
        let client = load_client(tx.as_mut(), account_id, client_id).await?;
        tx.commit().await?;
        Ok(client)
    }

    /// Blocks or unblocks a client: a blocked client answers `API_CLIENT_BLOCKED` everywhere
    /// and gets no term events.
    pub async fn set_client_blocked(
        &self,
        account_id: &str,
        client_id: &str,
        blocked: bool,
    ) -> AppResult<ClientRecord> {
        let mut tx = self.store.begin().await?;
        let mut client = load_client(tx.as_mut(), account_id, client_id).await?;
        tx.set_client_blocked(&client.id, blocked).await?;
        client.blocked = blocked;
        if let Some(record) = client.subscription.as_mut() {
            // The panel must switch access off (or on again).
            record.revision += 1;
            tx.save_subscription(&client.id, record).await?;
        }
        tx.commit().await?;
        self.sync_panel_for(&client.id).await;
        Ok(client)
    }

    /// Pauses (`suspend = true`) or resumes a client's access; the term keeps running.
    pub async fn set_subscription_suspended(
        &self,
        account_id: &str,
        client_id: &str,
        suspend: bool,
    ) -> AppResult<ClientRecord> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let mut client = load_client(tx.as_mut(), account_id, client_id).await?;
        let record = client.subscription.as_mut().ok_or(AppError::NotFound("subscription"))?;
        let result = if suspend { record.subscription.suspend(now) } else { record.subscription.resume(now) };
        result.map_err(|e| match e {
            SubscriptionError::NotActive => AppError::Conflict("only an active subscription can be suspended".into()),
            SubscriptionError::NotSuspended => AppError::Conflict("the subscription is not suspended".into()),
            other => AppError::Conflict(other.to_string()),
        })?;
        record.revision += 1;
        tx.save_subscription(&client.id, record).await?;
        tx.commit().await?;
        self.sync_panel_for(&client.id).await;
        Ok(client)
    }

    pub async fn set_app_list(&self, json: &str) -> AppResult<AppList> {
        let app_list = AppList::parse(json)?;
        self.put_setting(APP_LIST_KEY, &app_list).await?;
        Ok(app_list)
    }

    pub async fn app_list(&self) -> AppResult<Option<AppList>> {
        self.setting(APP_LIST_KEY).await
    }

    pub async fn set_documents(&self, json: &str) -> AppResult<Documents> {
        let documents = Documents::parse(json)?;
        self.put_setting(DOCUMENTS_KEY, &documents).await?;
        Ok(documents)
    }

    pub async fn documents(&self) -> AppResult<Option<Documents>> {
        self.setting(DOCUMENTS_KEY).await
    }

    /// Stores a setting's text (an operator setting an adapter validated, such as stand-in
    /// modes and panel servers, or the service's own bookkeeping).
    pub async fn set_raw_setting(&self, key: &str, value: &str) -> AppResult<()> {
        let mut tx = self.store.begin().await?;
        tx.put_setting(&SettingRecord { key: key.to_owned(), value: value.to_owned(), updated_at: self.clock.now() })
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Any invoice by id, for the operator.
    pub async fn operator_invoice(&self, payment_id: &str) -> AppResult<vp_ports::InvoiceRecord> {
        let mut tx = self.store.read().await?;
        let invoice = tx.invoice_by_id(payment_id).await?.ok_or(AppError::NotFound("invoice"))?;
        tx.commit().await?;
        Ok(invoice)
    }

    /// A setting's stored text.
    pub(crate) async fn raw_setting(&self, key: &str) -> AppResult<Option<String>> {
        let mut tx = self.store.read().await?;
        let value = tx.setting(key).await?.map(|s| s.value);
        tx.commit().await?;
        Ok(value)
    }

    async fn put_setting<T: serde::Serialize>(&self, key: &str, value: &T) -> AppResult<()> {
        let value = serde_json::to_string(value).map_err(|e| AppError::Conflict(e.to_string()))?;
        self.set_raw_setting(key, &value).await
    }

    async fn setting<T: serde::de::DeserializeOwned>(&self, key: &str) -> AppResult<Option<T>> {
        self.raw_setting(key)
            .await?
            .map(|value| {
                serde_json::from_str(&value)
                    .map_err(|e| AppError::Store(vp_ports::StoreError::Corrupt(format!("setting {key}: {e}"))))
            })
            .transpose()
    }
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
