-- The sales figures per channel (where the client came from: partner API, bot shop, web shop)
-- and payment method, with first purchases, conversions, renewals by kind, subscriptions ended
-- and the promotions' effect (docs/decisions.md, "Sales figures"). A table of its own: the
-- release before keeps writing daily_sales while this one serves (docs/operations.md,
-- "Migrations while serving"); a later release drops daily_sales. The figures are derived from
-- the facts only: the jobs' first run after the upgrade fills the last 92 days, `vp-api sales
-- rebuild` any older range.
CREATE TABLE daily_channel_sales (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    day TEXT NOT NULL,
    channel TEXT NOT NULL,
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
    first_purchases INTEGER NOT NULL,
    converted INTEGER NOT NULL,
    renewals_manual INTEGER NOT NULL,
    renewals_card INTEGER NOT NULL,
    renewals_stars INTEGER NOT NULL,
    ended INTEGER NOT NULL,
    promo_discount BIGINT NOT NULL,
    promo_gross BIGINT NOT NULL,
    referral_rewards INTEGER NOT NULL,
    referred_gross BIGINT NOT NULL,
    PRIMARY KEY (account_id, day, channel, method)
);
