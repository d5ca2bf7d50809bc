-- Automatic renewal (docs/decisions.md, "Automatic renewal"). A customer's consent, kept as
-- given: the sentence shown, its language, the invoice it came with, and the price told. The
-- saved payment method is sealed at rest like the other secrets.
CREATE TABLE renewal_consents (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    client_ref TEXT NOT NULL REFERENCES clients (id),
    payment_id TEXT NOT NULL UNIQUE REFERENCES invoices (payment_id),
    plan_id INTEGER NOT NULL,
    method TEXT NOT NULL,
    consented_at TIMESTAMP NOT NULL,
    text TEXT NOT NULL,
    lang TEXT NOT NULL,
    amount BIGINT NOT NULL,
    platform_amount BIGINT NOT NULL,
    partner_share BIGINT NOT NULL,
    price_told_at TIMESTAMP NOT NULL,
    saved_method_sealed TEXT,
    saved_method_title TEXT,
    turned_off_at TIMESTAMP,
    turned_off_by TEXT
);
CREATE INDEX renewal_consents_client ON renewal_consents (client_ref, consented_at);

-- The renewal charge of one client's term: at most one per term, decided in the term check's
-- unit of work; its invoice id (the gateway's idempotency key) is reserved before the gateway
-- is asked, so a try after a crash gets the same payment.
CREATE TABLE renewal_charges (
    client_ref TEXT NOT NULL REFERENCES clients (id),
    term_ends_at TIMESTAMP NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    consent_id TEXT NOT NULL REFERENCES renewal_consents (id),
    attempt INTEGER NOT NULL,
    payment_id TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('due', 'charging', 'succeeded', 'failed', 'dropped')),
    -- When to try (again); a claimed charge is held here until its lease ends. NULL once settled.
    next_try_at TIMESTAMP,
    last_error TEXT,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (client_ref, term_ends_at)
);
CREATE INDEX renewal_charges_due ON renewal_charges (next_try_at);
