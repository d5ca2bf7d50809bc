-- A partner's sales figures per day (docs/decisions.md, "Sales figures"): daily rollups of the
-- invoices issued that day in the account's zone, per payment method, and (method '') the
-- clients made and trials started, rebuilt from the facts by the jobs and by
-- `vp-api sales rebuild`, so the cabinet never sums the invoices at a page view.
CREATE TABLE daily_sales (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    day TEXT NOT NULL,
    method TEXT NOT NULL,
    issued INTEGER NOT NULL,
    paid INTEGER NOT NULL,
    refunded INTEGER NOT NULL,
    failed INTEGER NOT NULL,
    expired INTEGER NOT NULL,
    gross BIGINT NOT NULL,
    partner_share BIGINT NOT NULL,
    new_clients INTEGER NOT NULL,
    trials INTEGER NOT NULL,
    PRIMARY KEY (account_id, day, method)
);
