-- How the customer pages show an account: a logo, an accent colour, and the partner's support
-- address (also given to VPN apps as `support-url`). Set by `vp-api account set-style`.
ALTER TABLE accounts ADD COLUMN logo_url TEXT;
ALTER TABLE accounts ADD COLUMN accent_color TEXT;
ALTER TABLE accounts ADD COLUMN support_url TEXT;
