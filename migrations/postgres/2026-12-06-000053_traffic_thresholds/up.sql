-- The traffic thresholds a subscription's count reached and that were told (the partner's
-- `subscription.traffic_used` event, the customer's notice in the bot): once per threshold per
-- count, the count named by when it started.
CREATE TABLE traffic_thresholds (
    client_ref TEXT NOT NULL REFERENCES clients (id),
    counted_since TIMESTAMP NOT NULL,
    threshold_percent SMALLINT NOT NULL CHECK (threshold_percent IN (80, 100)),
    told_at TIMESTAMP NOT NULL,
    PRIMARY KEY (client_ref, counted_since, threshold_percent)
);
