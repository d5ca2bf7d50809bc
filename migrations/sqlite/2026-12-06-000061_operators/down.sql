DROP TABLE operator_audit;
DROP TABLE operator_sessions;
DROP TABLE operator_links;
DROP TABLE operators;
