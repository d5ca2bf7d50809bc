DROP TABLE shop_sessions;
DROP TABLE shop_sign_ins;
