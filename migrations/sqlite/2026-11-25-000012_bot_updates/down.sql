DROP TABLE leases;
DROP TABLE bot_updates;
ALTER TABLE partner_bots DROP COLUMN webhook;
