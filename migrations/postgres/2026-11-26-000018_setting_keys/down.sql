-- The notice bot's offset under its bot id stays; the release before reads its old key from 0.
UPDATE settings SET key = CASE key
    WHEN 'content.app_list' THEN 'app_catalogue'
    WHEN 'content.documents' THEN 'legal_documents'
    WHEN 'clock.offset_seconds' THEN 'test_clock.offset_seconds'
    WHEN 'standin.gateway_mode' THEN 'sandbox_gateway_mode'
    WHEN 'standin.panel_mode' THEN 'local_panel_mode'
    WHEN 'standin.panel_servers' THEN 'local_panel_servers'
    WHEN 'telegram.platform_bot_webhook' THEN 'messenger.webhook'
    ELSE key
END;
