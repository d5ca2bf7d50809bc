DROP TABLE reminder_sends;
ALTER TABLE accounts DROP COLUMN renewal_url;
