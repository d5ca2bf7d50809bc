DROP TABLE broadcast_chats;
DROP TABLE broadcasts;
