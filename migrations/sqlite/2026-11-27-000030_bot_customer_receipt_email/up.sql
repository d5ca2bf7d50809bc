-- Where a bot customer's fiscal receipts go, given once in the chat while receipts are on
-- (docs/decisions.md, "Fiscal receipts").
ALTER TABLE bot_customers ADD COLUMN receipt_email TEXT NULL;
