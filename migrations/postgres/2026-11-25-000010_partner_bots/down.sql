DROP TABLE partner_bots;
