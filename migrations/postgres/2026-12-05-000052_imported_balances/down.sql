DROP TABLE imported_balances;
