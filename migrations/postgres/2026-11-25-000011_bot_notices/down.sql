DELETE FROM notice_sends WHERE notice_id IN (SELECT id FROM partner_notices WHERE kind = 'bot_disconnected');
DELETE FROM partner_notices WHERE kind = 'bot_disconnected';
ALTER TABLE partner_notices DROP CONSTRAINT partner_notices_kind_check;
ALTER TABLE partner_notices ADD CONSTRAINT partner_notices_kind_check CHECK (kind IN ('endpoint_disabled', 'withdrawal_paid'));
