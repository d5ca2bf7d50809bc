//! What the operator writes for every account (the app list and the legal documents) and the
//! settings adapters read (the stand-ins' modes, the local panel's servers).

use vp_ports::SettingKey;

use super::Operator;
use crate::content::{AppList, Documents, load_app_list, load_documents};
use crate::error::{AppError, AppResult};
use crate::setting;

impl Operator {
    pub async fn set_app_list(&self, json: &str) -> AppResult<AppList> {
        let app_list = AppList::parse(json)?;
        self.put_json(SettingKey::AppList, &app_list).await?;
        Ok(app_list)
    }

    pub async fn app_list(&self) -> AppResult<Option<AppList>> {
        Ok(read!(self.store, |tx| load_app_list(tx.as_mut())))
    }

    pub async fn set_documents(&self, json: &str) -> AppResult<Documents> {
        let documents = Documents::parse(json)?;
        self.put_json(SettingKey::Documents, &documents).await?;
        Ok(documents)
    }

    pub async fn documents(&self) -> AppResult<Option<Documents>> {
        Ok(read!(self.store, |tx| load_documents(tx.as_mut())))
    }

    /// Stores a setting an adapter validated and reads (the stand-ins' modes, the local
    /// panel's servers).
    pub async fn set_adapter_setting(&self, key: SettingKey, value: &str) -> AppResult<()> {
        setting::write(self.store.as_ref(), key, value, self.clock.now()).await
    }

    /// An adapter's setting as stored.
    pub async fn adapter_setting(&self, key: SettingKey) -> AppResult<Option<String>> {
        setting::read(self.store.as_ref(), key).await
    }

    async fn put_json<T: serde::Serialize>(&self, key: SettingKey, value: &T) -> AppResult<()> {
        let value = serde_json::to_string(value).map_err(|e| AppError::Internal(e.to_string()))?;
        setting::write(self.store.as_ref(), key, &value, self.clock.now()).await
    }
}
