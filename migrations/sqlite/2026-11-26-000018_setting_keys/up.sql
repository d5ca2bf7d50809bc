-- One naming scheme for settings, `<area>.<name>` (vp_ports::SettingKey). The notice bot's
-- update offset is now kept under its bot id like every bot's; Telegram hands a poll starting
-- from 0 only what was never confirmed, and handled updates are recorded, so nothing repeats.
UPDATE settings SET key = 'content.app_list' WHERE key = 'app_catalogue';
UPDATE settings SET key = 'content.documents' WHERE key = 'legal_documents';
UPDATE settings SET key = 'clock.offset_seconds' WHERE key = 'test_clock.offset_seconds';
UPDATE settings SET key = 'standin.gateway_mode' WHERE key = 'sandbox_gateway_mode';
UPDATE settings SET key = 'standin.panel_mode' WHERE key = 'local_panel_mode';
UPDATE settings SET key = 'standin.panel_servers' WHERE key = 'local_panel_servers';
UPDATE settings SET key = 'telegram.platform_bot_webhook' WHERE key = 'messenger.webhook';
DELETE FROM settings WHERE key = 'messenger.update_offset';
