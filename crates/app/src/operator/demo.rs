//! The demo bootstrap: a sensible app list and one demo partner on an empty database, so
//! `cargo xtask run` gives a working service on a fresh machine.

use vp_domain::limits::LimitOverrides;
use vp_domain::{AccountId, BrandName, DeviceSettings, MarkupPercent, Money};
use vp_ports::{AccountRecord, NewPlan, PaymentMethodRecord, SettingKey, SettingRecord};

use super::Operator;
use crate::content::{AppList, Documents};
use crate::error::{AppError, AppResult};
use crate::keys::{IssuedKey, insert_new_key};

pub const APP_LIST_JSON: &str = include_str!("../../seed/apps.json");
pub const DOCUMENTS_JSON: &str = include_str!("../../seed/documents.json");

/// Demo plans: (months, platform price in kopecks); `None` months is the lifetime plan.
const PLANS: [(Option<u32>, i64); 5] =
    [(Some(1), 19_900), (Some(3), 54_900), (Some(6), 99_900), (Some(12), 179_900), (None, 499_000)];

impl Operator {
    /// Seeds an empty database; refuses to touch one that already has accounts or plans.
    pub async fn seed_demo(&self) -> AppResult<(AccountRecord, IssuedKey)> {
        let app_list = AppList::parse(APP_LIST_JSON)?;
        let documents = Documents::parse(DOCUMENTS_JSON)?;
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        if !tx.accounts().await?.is_empty() || !tx.plans(true).await?.is_empty() {
            return Err(AppError::Conflict("the database is not empty; the demo seeds only an empty database".into()));
        }
        for (months, kopecks) in PLANS {
            tx.insert_plan(&NewPlan {
                months: months.unwrap_or(0),
                lifetime: months.is_none(),
                // The lifetime plan is the unlimited one, so every device rule is reachable.
                device_limited: months.is_some(),
                platform_price: Money::from_kopecks(kopecks),
                created_at: now,
                traffic: None,
            })
            .await?;
        }
        let devices = DeviceSettings::new(3, 10, Some(Money::from_kopecks(4_900)))
            .map_err(|e| AppError::Internal(e.to_string()))?;
        tx.set_device_settings(&devices).await?;
        let methods =
            [("card", "Bank card", "Банковская карта", "bank_card"), ("sbp", "SBP (Faster Payments)", "СБП", "sbp")];
        for (position, (code, en, ru, gateway_type)) in methods.into_iter().enumerate() {
            tx.upsert_payment_method(&PaymentMethodRecord {
                code: code.into(),
                name_en: en.into(),
                name_ru: ru.into(),
                enabled: true,
                position: i32::try_from(position).unwrap_or(i32::MAX),
                gateway: None,
                gateway_type: Some(gateway_type.into()),
            })
            .await?;
        }
        for (key, value) in [
            (SettingKey::AppList, serde_json::to_string(&app_list)),
            (SettingKey::Documents, serde_json::to_string(&documents)),
        ] {
            let value = value.map_err(|e| AppError::Internal(e.to_string()))?;
            tx.put_setting(&SettingRecord { key, value, updated_at: now }).await?;
        }
        let account = AccountRecord {
            id: AccountId::issued(self.ids.new_id(AccountId::PREFIX)),
            brand_name: BrandName::parse("Demo VPN").map_err(|e| AppError::Internal(e.to_string()))?,
            markup: MarkupPercent::from_basis_points(2_000).map_err(|e| AppError::Internal(e.to_string()))?,
            trial_enabled: true,
            api_enabled: true,
            limits: LimitOverrides::default(),
            style: Default::default(),
            time_zone: Default::default(),
            created_at: now,
        };
        tx.insert_account(&account).await?;
        crate::shop::slug_of(tx.as_mut(), &account, now).await?;
        let key = insert_new_key(tx.as_mut(), self.ids.as_ref(), now, &account.id).await?;
        tx.commit().await?;
        self.offers.forget();
        Ok((account, key))
    }
}
