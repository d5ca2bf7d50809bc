ALTER TABLE accounts DROP COLUMN support_url;
ALTER TABLE accounts DROP COLUMN accent_color;
ALTER TABLE accounts DROP COLUMN logo_url;
