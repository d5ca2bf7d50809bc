ALTER TABLE webhook_endpoints DROP COLUMN disabled_at;
DROP TABLE cabinet_audit;
DROP TABLE cabinet_sign_in_failures;
DROP TABLE cabinet_sessions;
DROP TABLE cabinet_links;
DROP TABLE cabinet_users;
