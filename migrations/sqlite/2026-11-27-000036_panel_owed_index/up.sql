-- The panel sync's queue: subscriptions whose revision the panel has not taken yet, oldest
-- change first, without reading every synced subscription (PostgreSQL's migration says more).
CREATE INDEX subscriptions_panel_owed ON subscriptions (change_seq) WHERE revision > panel_revision;
