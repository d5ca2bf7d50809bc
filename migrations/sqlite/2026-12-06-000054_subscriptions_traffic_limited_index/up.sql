-- The traffic check reads the active limited subscriptions in the order of client references.
CREATE INDEX IF NOT EXISTS subscriptions_traffic_limited ON subscriptions (client_ref)
    WHERE traffic_limit_bytes IS NOT NULL AND status = 'active';
