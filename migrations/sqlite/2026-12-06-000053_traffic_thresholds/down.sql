DROP TABLE traffic_thresholds;
