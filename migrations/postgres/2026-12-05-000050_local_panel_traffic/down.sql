DROP TABLE local_panel_traffic;
ALTER TABLE local_panel_users DROP COLUMN traffic_counted_from;
ALTER TABLE local_panel_users DROP COLUMN traffic_reset;
ALTER TABLE local_panel_users DROP COLUMN traffic_limit_bytes;
