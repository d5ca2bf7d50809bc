//! Which backend a `DATABASE_URL` names, decided once at start-up.

use std::path::PathBuf;

use vp_ports::StoreError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A parsed `DATABASE_URL`: the PostgreSQL URL as given, or the SQLite file path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Target {
    Sqlite(PathBuf),
    Postgres(String),
}

/// The backend a `DATABASE_URL` selects: `postgres://`/`postgresql://` for PostgreSQL;
/// `sqlite://path`, `sqlite:path` or a plain file path for SQLite.
pub fn backend_of(database_url: &str) -> Result<Backend, StoreError> {
    parse(database_url).map(|t| match t {
        Target::Sqlite(_) => Backend::Sqlite,
        Target::Postgres(_) => Backend::Postgres,
    })
}

pub(crate) fn parse(database_url: &str) -> Result<Target, StoreError> {
    let url = database_url.trim();
    let unsupported = |why: &str| {
        StoreError::Unavailable(format!(
            "unsupported DATABASE_URL {database_url:?}: {why} (use postgres://..., sqlite://path or a file path)"
        ))
    };
    let lower = url.to_ascii_lowercase();
    if lower.starts_with("postgres://") || lower.starts_with("postgresql://") {
        return Ok(Target::Postgres(url.to_owned()));
    }
    let path = if lower.starts_with("sqlite://") {
        &url["sqlite://".len()..]
    } else if lower.starts_with("sqlite:") {
        &url["sqlite:".len()..]
    } else if url.contains("://") {
        return Err(unsupported("unknown scheme"));
    } else {
        url
    };
    // sqlx-style options (`?mode=rwc`) mean nothing to diesel; the file is created anyway.
    let path = path.split('?').next().unwrap_or_default();
    if path.is_empty() {
        return Err(unsupported("no SQLite file path"));
    }
    // Each pooled connection would get its own empty in-memory database.
    if path == ":memory:" || path.starts_with("file::memory:") {
        return Err(unsupported("an in-memory SQLite database cannot be shared by a pool"));
    }
    Ok(Target::Sqlite(PathBuf::from(path)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sqlite(p: &str) -> Result<Target, StoreError> {
        Ok(Target::Sqlite(PathBuf::from(p)))
    }

    #[test]
    fn postgres_urls_select_postgres() {
        assert_eq!(backend_of("postgres://u@h/db").ok(), Some(Backend::Postgres));
        assert_eq!(backend_of("postgresql://u:p@h:5432/db?sslmode=disable").ok(), Some(Backend::Postgres));
        assert_eq!(backend_of("POSTGRES://h/db").ok(), Some(Backend::Postgres));
        assert_eq!(parse("postgres://h/db").ok(), Some(Target::Postgres("postgres://h/db".into())));
    }

    #[test]
    fn sqlite_urls_and_plain_paths_select_sqlite() {
        assert_eq!(parse("sqlite://data/vp.db").ok(), sqlite("data/vp.db").ok());
        assert_eq!(parse("sqlite:///var/lib/vp.db").ok(), sqlite("/var/lib/vp.db").ok());
        assert_eq!(parse("sqlite:vp.db").ok(), sqlite("vp.db").ok());
        assert_eq!(parse("sqlite://vp.db?mode=rwc").ok(), sqlite("vp.db").ok());
        assert_eq!(parse("./data/vp.sqlite").ok(), sqlite("./data/vp.sqlite").ok());
        assert_eq!(parse("/tmp/x.db").ok(), sqlite("/tmp/x.db").ok());
        assert_eq!(backend_of("vp.db").ok(), Some(Backend::Sqlite));
    }

    #[test]
    fn anything_else_is_refused_clearly() {
        for url in ["mysql://h/db", "http://x", "", "   ", "sqlite://", "sqlite::memory:", ":memory:"] {
            match backend_of(url) {
                Err(StoreError::Unavailable(m)) => assert!(m.contains("unsupported DATABASE_URL"), "{m}"),
                other => panic!("{url:?} gave {other:?}"),
            }
        }
    }
}
