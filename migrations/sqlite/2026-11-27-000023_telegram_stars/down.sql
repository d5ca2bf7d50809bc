DROP TABLE stars_subscriptions;
DROP TABLE stars_charges;
DROP TABLE stars_invoices;
DROP TABLE stars_rates;
