DROP INDEX client_link_codes_expires;
