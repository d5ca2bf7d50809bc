DROP TABLE client_link_codes;
DROP TABLE bot_chat_languages;
DROP TABLE client_chats;
