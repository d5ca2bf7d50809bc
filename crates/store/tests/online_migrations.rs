//! The rule for PostgreSQL migrations (docs/operations.md, "Migrations while serving"): each one
//! runs while the previous release serves, so it takes no long exclusive lock on a table that
//! already holds rows and breaks nothing the previous release reads. On a table the migration
//! does not create itself:
//! - an index is built `CONCURRENTLY`, in a migration that runs outside a transaction
//!   (`metadata.toml`: `run_in_transaction = false`);
//! - a column is added nullable, or `NOT NULL` with a constant default (no table rewrite);
//! - a constraint is added `NOT VALID` (validated later, without the exclusive lock); a check
//!   may be dropped to be added again wider that way;
//! - no column changes type or becomes `NOT NULL`, nothing is dropped or renamed (the previous
//!   release still reads it), and no row is updated or deleted: backfills run as batched jobs.
//!
//! The migrations released before the rule was written are listed in `RELEASED_BEFORE_THE_RULE`;
//! every later one is held to it.

use std::path::{Path, PathBuf};

/// The last migration of the release before the rule; every later one is checked.
const RELEASED_BEFORE_THE_RULE: &str = "2026-11-26-000022";

fn migrations_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../migrations/postgres")
}

/// The statements of a migration, without comments, in lower case with single spaces.
fn statements(sql: &str) -> Vec<String> {
    let without_comments: String =
        sql.lines().map(|l| l.split_once("--").map_or(l, |(code, _)| code)).collect::<Vec<_>>().join("\n");
    without_comments
        .split(';')
        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The name after `prefix` in `statement` (a table or an index target), unquoted.
fn name_after<'a>(statement: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = statement.split_once(prefix)?.1.trim_start();
    let rest = rest.strip_prefix("if not exists ").or_else(|| rest.strip_prefix("if exists ")).unwrap_or(rest);
    let rest = rest.strip_prefix("only ").unwrap_or(rest);
    rest.split(|c: char| c.is_whitespace() || c == '(').next().map(|n| n.trim_matches('"'))
}

/// Whether a default is a constant: a number, a quoted string, a boolean or NULL.
fn constant_default(after_default: &str) -> bool {
    let value = after_default.trim_start();
    let first = value.split(|c: char| c.is_whitespace() || c == ',').next().unwrap_or_default();
    first.starts_with('\'') || first.parse::<f64>().is_ok() || matches!(first, "true" | "false" | "null")
}

/// What breaks the rule in one migration's `up.sql`, given whether it runs in a transaction.
fn findings(sql: &str, in_transaction: bool) -> Vec<String> {
    let statements = statements(sql);
    let created: Vec<&str> = statements
        .iter()
        .filter_map(|s| s.starts_with("create table").then(|| name_after(s, "create table"))?)
        .collect();
    let existing = |table: Option<&str>| table.is_some_and(|t| !created.contains(&t));
    let mut found = vec![];
    for s in &statements {
        let mut bad = |why: &str| found.push(format!("{why}: {s}"));
        if s.starts_with("create index") || s.starts_with("create unique index") {
            if existing(name_after(s, " on ")) {
                if !s.contains(" concurrently ") {
                    bad("an index on a table with rows is built CONCURRENTLY");
                } else if in_transaction {
                    bad("CREATE INDEX CONCURRENTLY needs run_in_transaction = false in metadata.toml");
                }
            }
        } else if let Some(rest) = s.strip_prefix("alter table ") {
            if !existing(name_after(s, "alter table")) {
                continue;
            }
            if rest.contains(" add column ") {
                let default = rest.split_once(" default ").map(|(_, d)| d);
                if rest.contains(" not null") && !default.is_some_and(constant_default) {
                    bad("a NOT NULL column is added with a constant default");
                }
                if default.is_some_and(|d| !constant_default(d)) {
                    bad("a column's default is a constant (another rewrites the table)");
                }
            } else if rest.contains(" add constraint ") && !rest.contains(" not valid") {
                bad("a constraint on a table with rows is added NOT VALID");
            } else if rest.contains(" type ") || rest.contains(" set not null") {
                bad("a column keeps its type and nullability while the previous release serves");
            } else if rest.contains(" drop constraint ") {
                // Loosening a check: a brief lock and no scan; what the previous release writes
                // still passes.
                continue;
            } else if rest.contains(" drop ") || rest.contains(" rename ") {
                bad("nothing the previous release reads is dropped or renamed");
            }
        } else if s.starts_with("drop table") || (s.starts_with("drop index") && !s.contains(" concurrently ")) {
            bad("nothing the previous release reads is dropped, and no index without CONCURRENTLY");
        } else if s.starts_with("update ") || s.starts_with("delete from ") {
            bad("a backfill runs in batches as a job, not in a migration");
        }
    }
    found
}

fn runs_in_transaction(dir: &Path) -> bool {
    let metadata = std::fs::read_to_string(dir.join("metadata.toml")).unwrap_or_default();
    !metadata.lines().any(|l| l.split_whitespace().collect::<String>() == "run_in_transaction=false")
}

#[test]
fn every_postgresql_migration_after_the_rule_runs_while_the_previous_release_serves() {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(migrations_dir()).unwrap().map(|e| e.unwrap().path()).collect();
    dirs.sort();
    // A migration's version is its name before the first `_`.
    let version = |d: &PathBuf| d.file_name().unwrap().to_string_lossy().split('_').next().unwrap_or("").to_owned();
    let checked: Vec<&PathBuf> = dirs.iter().filter(|d| version(d).as_str() > RELEASED_BEFORE_THE_RULE).collect();
    assert!(!checked.is_empty(), "the migrations after the rule are found");
    let mut all = vec![];
    for dir in checked {
        let sql = std::fs::read_to_string(dir.join("up.sql")).unwrap();
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        all.extend(findings(&sql, runs_in_transaction(dir)).into_iter().map(|f| format!("{name}: {f}")));
    }
    assert!(all.is_empty(), "migrations that would lock or break the serving release:\n{}", all.join("\n"));
}

#[test]
fn the_rule_finds_each_kind_of_locking_or_breaking_statement() {
    let new_table = "CREATE TABLE promo (id TEXT PRIMARY KEY);\nCREATE INDEX promo_id ON promo (id);";
    assert!(findings(new_table, true).is_empty(), "a new table is empty: no lock to fear");
    let wider_check = "ALTER TABLE reminder_sends DROP CONSTRAINT k;\n\
        ALTER TABLE reminder_sends ADD CONSTRAINT k CHECK (kind IN ('a', 'b')) NOT VALID;\n\
        ALTER TABLE reminder_sends VALIDATE CONSTRAINT k;";
    assert!(findings(wider_check, true).is_empty(), "a check widened NOT VALID, then validated");
    let cases = [
        ("CREATE INDEX invoices_x ON invoices (x);", "CONCURRENTLY"),
        ("CREATE INDEX CONCURRENTLY invoices_x ON invoices (x);", "run_in_transaction"),
        ("ALTER TABLE invoices ADD COLUMN x BIGINT NOT NULL;", "constant default"),
        ("ALTER TABLE invoices ADD COLUMN x TIMESTAMP DEFAULT now();", "is a constant"),
        ("ALTER TABLE invoices ADD CONSTRAINT x CHECK (amount > 0);", "NOT VALID"),
        ("ALTER TABLE invoices ALTER COLUMN method TYPE VARCHAR(10);", "type and nullability"),
        ("ALTER TABLE invoices ALTER COLUMN return_url SET NOT NULL;", "type and nullability"),
        ("ALTER TABLE invoices DROP COLUMN return_url;", "dropped or renamed"),
        ("ALTER TABLE invoices RENAME COLUMN method TO way;", "dropped or renamed"),
        ("DROP TABLE invoices;", "dropped"),
        ("UPDATE invoices SET method = 'card';", "batches"),
        ("-- a comment; UPDATE nothing\nDELETE FROM events WHERE true;", "batches"),
    ];
    for (sql, why) in cases {
        let found = findings(sql, true);
        assert!(found.len() == 1 && found[0].contains(why), "{sql} gave {found:?}");
    }
    let fine = [
        "ALTER TABLE invoices ADD COLUMN x TEXT;",
        "ALTER TABLE invoices ADD COLUMN x BOOLEAN NOT NULL DEFAULT false;",
        "ALTER TABLE invoices ADD COLUMN x INTEGER NOT NULL DEFAULT 0;",
        "ALTER TABLE invoices ADD CONSTRAINT x CHECK (amount > 0) NOT VALID;",
    ];
    for sql in fine {
        assert_eq!(findings(sql, true), Vec::<String>::new(), "{sql}");
    }
    assert!(findings("CREATE INDEX CONCURRENTLY invoices_x ON invoices (x);", false).is_empty());
}
