//! The settings the service keeps (the `settings` table's named text values), each named once,
//! in one scheme: `<area>.<name>`.

/// A setting of the `settings` table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SettingKey {
    /// The operator's application list (JSON).
    AppList,
    /// The operator's legal documents (JSON).
    Documents,
    /// The shared shifted clock's offset in seconds (rehearsals only).
    ShiftedClock,
    /// The sandbox gateway's mode (`up`, `down`, `slow:<ms>`).
    GatewayMode,
    /// Whether the sandbox gateway's saved cards pay (`approve`) or are declined (`decline`)
    /// when a renewal charges them.
    SandboxSavedCards,
    /// The local panel's mode (`up`, `down`, `slow:<ms>`).
    PanelMode,
    /// The local panel's servers (JSON).
    LocalPanelServers,
    /// The next update number of a polled bot (the notice bot or a partner's).
    UpdateOffset { bot_id: i64 },
    /// What Telegram was last told about the notice bot's updates (`WebhookRegistration`);
    /// partners' bots keep theirs with the bot.
    PlatformBotWebhook,
    /// What the last check that paid invoices have their access found (`PaidAccessChecked`).
    PaidAccessCheck,
    /// When the jobs last rebuilt the sales figures, the recent days and the nightly ones.
    SalesRebuilt,
}

impl SettingKey {
    /// The key as stored.
    pub fn name(&self) -> String {
        match self {
            SettingKey::AppList => "content.app_list".into(),
            SettingKey::Documents => "content.documents".into(),
            SettingKey::ShiftedClock => "clock.offset_seconds".into(),
            SettingKey::GatewayMode => "standin.gateway_mode".into(),
            SettingKey::SandboxSavedCards => "standin.saved_cards".into(),
            SettingKey::PanelMode => "standin.panel_mode".into(),
            SettingKey::LocalPanelServers => "standin.panel_servers".into(),
            SettingKey::UpdateOffset { bot_id } => format!("telegram.update_offset.{bot_id}"),
            SettingKey::PlatformBotWebhook => "telegram.platform_bot_webhook".into(),
            SettingKey::PaidAccessCheck => "payments.paid_access_check".into(),
            SettingKey::SalesRebuilt => "sales.rebuilt".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::SettingKey;

    #[test]
    fn every_key_is_named_area_dot_name_and_no_two_alike() {
        let keys = [
            SettingKey::AppList,
            SettingKey::Documents,
            SettingKey::ShiftedClock,
            SettingKey::GatewayMode,
            SettingKey::SandboxSavedCards,
            SettingKey::PanelMode,
            SettingKey::LocalPanelServers,
            SettingKey::UpdateOffset { bot_id: 42 },
            SettingKey::PlatformBotWebhook,
            SettingKey::PaidAccessCheck,
            SettingKey::SalesRebuilt,
        ];
        let names: Vec<String> = keys.iter().map(SettingKey::name).collect();
        for name in &names {
            let (area, rest) = name.split_once('.').unwrap();
            assert!(!area.is_empty() && !rest.is_empty(), "{name}");
            assert!(name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'_'));
        }
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len());
        assert_eq!(SettingKey::UpdateOffset { bot_id: 42 }.name(), "telegram.update_offset.42");
    }
}
