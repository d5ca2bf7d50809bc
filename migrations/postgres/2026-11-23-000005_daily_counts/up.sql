-- The daily limits (new clients, trials; a sliding 24 hours) in O(1): per-account counts in
-- hour buckets (`hour` = Unix seconds / 3600), each split in a few stripes so concurrent
-- writers of one account rarely wait for each other. The sum of the buckets a window touches
-- is an upper bound of the exact count; the exact count is taken only near the limit
-- (docs/limits.md).
CREATE TABLE daily_counts (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    kind TEXT NOT NULL CHECK (kind IN ('new_clients', 'trials')),
    hour BIGINT NOT NULL,
    stripe INTEGER NOT NULL,
    n BIGINT NOT NULL,
    PRIMARY KEY (account_id, kind, hour, stripe)
);
-- For pruning the buckets no window reaches any more.
CREATE INDEX daily_counts_hour ON daily_counts (hour);

INSERT INTO daily_counts (account_id, kind, hour, stripe, n)
SELECT account_id, 'new_clients', FLOOR(EXTRACT(EPOCH FROM created_at) / 3600)::BIGINT, 0, COUNT(*)
FROM clients GROUP BY 1, 2, 3, 4;

INSERT INTO daily_counts (account_id, kind, hour, stripe, n)
SELECT account_id, 'trials', FLOOR(EXTRACT(EPOCH FROM granted_at) / 3600)::BIGINT, 0, COUNT(*)
FROM trial_grants GROUP BY 1, 2, 3, 4;
