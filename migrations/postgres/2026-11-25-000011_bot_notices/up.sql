-- Notices gain a kind: a partner's bot whose token Telegram stopped accepting.
ALTER TABLE partner_notices DROP CONSTRAINT partner_notices_kind_check;
ALTER TABLE partner_notices ADD CONSTRAINT partner_notices_kind_check
    CHECK (kind IN ('endpoint_disabled', 'withdrawal_paid', 'bot_disconnected'));
