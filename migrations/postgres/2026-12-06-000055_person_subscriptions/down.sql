DROP TABLE person_subscriptions;
