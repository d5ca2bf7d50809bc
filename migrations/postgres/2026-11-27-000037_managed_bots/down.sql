DROP TABLE bot_create_codes;
ALTER TABLE partner_bots DROP COLUMN managed;
