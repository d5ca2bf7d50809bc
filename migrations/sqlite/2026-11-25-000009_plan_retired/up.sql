-- A plan taken off sale is "retired" (a "withdrawal" is a partner's payout).
ALTER TABLE plans RENAME COLUMN withdrawn_at TO retired_at;
