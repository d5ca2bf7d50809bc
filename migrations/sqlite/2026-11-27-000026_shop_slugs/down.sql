DROP TABLE shop_slugs;
