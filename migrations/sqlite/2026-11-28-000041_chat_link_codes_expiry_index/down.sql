DROP INDEX chat_link_codes_expires;
