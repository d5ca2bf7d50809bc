-- Forgets the notices older code cannot read. The wider CHECK stays (rebuilding the two tables
-- back would gain nothing): it admits every kind the older code writes.
DELETE FROM notice_sends WHERE notice_id IN (SELECT id FROM partner_notices WHERE kind = 'bot_disconnected');
DELETE FROM partner_notices WHERE kind = 'bot_disconnected';
