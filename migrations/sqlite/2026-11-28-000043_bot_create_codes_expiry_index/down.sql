DROP INDEX bot_create_codes_expires;
