DROP TABLE shop_subscriptions;
