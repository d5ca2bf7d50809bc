-- Telegram Stars (docs/decisions.md, "Telegram Stars"). The operator's rate of an account's
-- bot: rubles per Star, in kopecks; no row, no Stars.
CREATE TABLE stars_rates (
    account_id TEXT PRIMARY KEY NOT NULL REFERENCES accounts (id),
    kopecks_per_star BIGINT NOT NULL CHECK (kopecks_per_star > 0),
    updated_at TIMESTAMP NOT NULL
);

-- An invoice's price in Stars, recorded before its Telegram link is made (so without a
-- reference to the invoice, which is recorded after).
CREATE TABLE stars_invoices (
    payment_id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    stars BIGINT NOT NULL,
    subscription BOOLEAN NOT NULL,
    created_at TIMESTAMP NOT NULL
);

-- Every Stars payment Telegram reported, once per charge id; one per invoice.
CREATE TABLE stars_charges (
    charge_id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    payment_id TEXT NOT NULL UNIQUE REFERENCES invoices (payment_id),
    user_id BIGINT NOT NULL,
    stars BIGINT NOT NULL,
    renewal BOOLEAN NOT NULL,
    paid_at TIMESTAMP NOT NULL,
    refunded_at TIMESTAMP
);

-- Monthly Stars subscriptions, named by their first charge.
CREATE TABLE stars_subscriptions (
    charge_id TEXT PRIMARY KEY NOT NULL REFERENCES stars_charges (charge_id),
    account_id TEXT NOT NULL REFERENCES accounts (id),
    client_ref TEXT NOT NULL REFERENCES clients (id),
    payment_id TEXT NOT NULL REFERENCES invoices (payment_id),
    user_id BIGINT NOT NULL,
    stars BIGINT NOT NULL,
    paid_until TIMESTAMP NOT NULL,
    canceled_at TIMESTAMP
);
CREATE INDEX stars_subscriptions_client ON stars_subscriptions (client_ref, paid_until);
