ALTER TABLE plans RENAME COLUMN retired_at TO withdrawn_at;
