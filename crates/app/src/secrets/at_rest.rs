//! The secrets the service stores sealed (`secrets::SecretKeys`): partners' webhook signing
//! secrets and bot tokens. At start every sealed value must name a configured key, and values
//! a database still holds in plain text (written before sealing existed) are sealed; after a
//! key rotation `reseal_secrets` moves them all under the current key.

use std::sync::Arc;

use vp_domain::{AccountId, EndpointId};
use vp_ports::{PartnerBotRecord, RenewalConsent, Store, WebhookEndpointRecord};

use super::{SecretKeys, SecretPurpose};
use crate::error::{AppError, AppResult};

/// The endpoint's stored secrets: the current one, and the previous one when there is one.
fn stored_secrets(endpoint: &WebhookEndpointRecord) -> impl Iterator<Item = &str> + Clone {
    std::iter::once(endpoint.secret_sealed.as_str()).chain(endpoint.previous_secret_sealed.as_deref())
}

impl SecretKeys {
    /// A connected bot's token, opened for a call to the messenger.
    pub fn bot_token(&self, bot: &PartnerBotRecord) -> AppResult<String> {
        self.open(SecretPurpose::PartnerBotToken { account_id: &bot.account_id }, &bot.token_sealed)
            .map_err(|e| AppError::External(format!("the token of bot {}: {e}", bot.bot_id)))
    }

    /// A bot's token sealed for its account, so a value copied into another account's row
    /// does not open (`bot_token` opens it).
    pub(crate) fn seal_bot_token(&self, account_id: &AccountId, token: &str) -> String {
        self.seal(SecretPurpose::PartnerBotToken { account_id }, token)
    }

    /// A new endpoint secret sealed for `endpoint_id`, so a value copied into another
    /// endpoint's row does not open.
    pub(crate) fn seal_endpoint_secret(&self, endpoint_id: &EndpointId, secret: &str) -> String {
        self.seal(SecretPurpose::WebhookSecret { endpoint_id }, secret)
    }

    /// The endpoint's current signing secret, in the clear (to show it to its owner).
    pub fn endpoint_secret(&self, endpoint: &WebhookEndpointRecord) -> AppResult<String> {
        self.open_endpoint_secret(endpoint, &endpoint.secret_sealed)
    }

    /// The endpoint's stored signing secrets in the clear: the current one, then the previous
    /// one when there is one (whether it still signs is the sender's to decide).
    pub(crate) fn endpoint_signing_secrets(&self, endpoint: &WebhookEndpointRecord) -> AppResult<Vec<String>> {
        stored_secrets(endpoint).map(|sealed| self.open_endpoint_secret(endpoint, sealed)).collect()
    }

    /// A consent's saved payment method, opened for a charge; `None` when none was saved.
    pub(crate) fn saved_method(&self, consent: &RenewalConsent) -> AppResult<Option<String>> {
        let Some(sealed) = &consent.saved_method_sealed else { return Ok(None) };
        self.open(SecretPurpose::SavedPaymentMethod { consent_id: &consent.id }, sealed)
            .map(Some)
            .map_err(|e| AppError::External(format!("the saved method of consent {}: {e}", consent.id)))
    }

    fn open_endpoint_secret(&self, endpoint: &WebhookEndpointRecord, sealed: &str) -> AppResult<String> {
        self.open(SecretPurpose::WebhookSecret { endpoint_id: &endpoint.id }, sealed)
            .map_err(|e| AppError::External(format!("the signing secret of endpoint {}: {e}", endpoint.id)))
    }
}

/// The secrets sealed in the database, checked at every start and moved to a new key.
pub struct Secrets {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) keys: Arc<SecretKeys>,
}

impl Secrets {
    /// The id of the key that seals now (`VP_SECRETS_KEY`), as `secrets rotate-key` reports it.
    pub fn current_key_id(&self) -> &str {
        self.keys.current_id()
    }

    /// Run at every start, before anything uses a secret: refuses when a stored secret was
    /// sealed under a key that is not configured (naming `VP_SECRETS_KEY`), then seals what is
    /// still stored in plain text and scrubs the old values from the database's free space.
    /// Returns how many values it sealed.
    pub async fn prepare_secrets(&self) -> AppResult<usize> {
        let keys = &self.keys;
        let mut tx = self.store.read().await?;
        let bots = tx.partner_bots().await?;
        let endpoints = tx.all_webhook_endpoints().await?;
        tx.commit().await?;
        // Saved payment methods can be many: the store finds those no configured key opens.
        let mut tx = self.store.read().await?;
        let unopenable = tx.consents_sealed_outside(&keys.known_prefixes(), 1).await?;
        tx.commit().await?;
        let methods = unopenable.iter().filter_map(|c| c.saved_method_sealed.as_deref());
        let stored = bots.iter().map(|b| b.token_sealed.as_str()).chain(endpoints.iter().flat_map(stored_secrets));
        if let Some(id) = stored.clone().chain(methods).filter_map(SecretKeys::key_id_of).find(|id| !keys.knows(id)) {
            return Err(AppError::External(format!(
                "stored secrets are sealed under key {id}, which is not configured: set VP_SECRETS_KEY to the key \
                 they were sealed with (or, while rotating, VP_SECRETS_KEY_PREVIOUS)"
            )));
        }
        if stored.clone().all(|value| SecretKeys::key_id_of(value).is_some()) {
            return Ok(0);
        }
        // Written by a release before sealing: seal them in one unit of work (read again inside
        // it, so two processes starting at once seal each value once).
        let mut tx = self.store.begin().await?;
        let mut sealed = 0;
        for mut endpoint in tx.all_webhook_endpoints().await? {
            let mut changed = false;
            let id = endpoint.id.clone();
            for value in std::iter::once(&mut endpoint.secret_sealed).chain(endpoint.previous_secret_sealed.as_mut()) {
                if SecretKeys::key_id_of(value).is_none() {
                    *value = keys.seal_endpoint_secret(&id, value);
                    changed = true;
                    sealed += 1;
                }
            }
            if changed {
                tx.update_webhook_endpoint(&endpoint).await?;
            }
        }
        tx.commit().await?;
        if sealed > 0 {
            self.store.scrub_overwritten().await?;
            tracing::warn!(sealed, "sealed webhook signing secrets that were stored in plain text");
        }
        Ok(sealed)
    }

    /// Seals every stored secret again under the current key (after a rotation: the new key in
    /// `VP_SECRETS_KEY`, the old one in `VP_SECRETS_KEY_PREVIOUS`); returns how many changed.
    /// Afterwards the previous key can be removed.
    pub async fn reseal_secrets(&self) -> AppResult<usize> {
        let keys = &self.keys;
        let stale = |sealed: &str| SecretKeys::key_id_of(sealed) != Some(keys.current_id());
        let mut tx = self.store.begin().await?;
        let mut changed = 0;
        for mut bot in tx.partner_bots().await? {
            if stale(&bot.token_sealed) {
                let token = keys.bot_token(&bot)?;
                bot.token_sealed = keys.seal_bot_token(&bot.account_id, &token);
                tx.update_partner_bot(&bot).await?;
                changed += 1;
            }
        }
        for mut endpoint in tx.all_webhook_endpoints().await? {
            let mut moved = 0;
            if stale(&endpoint.secret_sealed) {
                endpoint.secret_sealed = keys.seal_endpoint_secret(&endpoint.id, &keys.endpoint_secret(&endpoint)?);
                moved += 1;
            }
            if let Some(previous) = endpoint.previous_secret_sealed.clone().filter(|p| stale(p)) {
                let open = keys.open_endpoint_secret(&endpoint, &previous)?;
                endpoint.previous_secret_sealed = Some(keys.seal_endpoint_secret(&endpoint.id, &open));
                moved += 1;
            }
            if moved > 0 {
                tx.update_webhook_endpoint(&endpoint).await?;
                changed += moved;
            }
        }
        tx.commit().await?;
        changed += self.reseal_saved_methods().await?;
        Ok(changed)
    }

    /// Saved payment methods sealed under an older key, sealed again in batches (there can be
    /// one per customer).
    async fn reseal_saved_methods(&self) -> AppResult<usize> {
        const BATCH: u32 = 500;
        let keys = &self.keys;
        let current = [keys.current_prefix()];
        let mut changed = 0;
        loop {
            let mut tx = self.store.begin().await?;
            let batch = tx.consents_sealed_outside(&current, BATCH).await?;
            for mut consent in batch.iter().cloned() {
                let Some(method) = keys.saved_method(&consent)? else { continue };
                consent.saved_method_sealed =
                    Some(keys.seal(SecretPurpose::SavedPaymentMethod { consent_id: &consent.id }, &method));
                tx.update_consent(&consent).await?;
            }
            tx.commit().await?;
            changed += batch.len();
            if batch.len() < BATCH as usize {
                return Ok(changed);
            }
        }
    }
}
