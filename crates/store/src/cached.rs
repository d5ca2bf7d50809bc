//! `by_sql`: a statement diesel would prepare anew on every call, kept in the connection's
//! statement cache under its SQL text instead.
//!
//! diesel never caches an `UPDATE`, an upsert's `DO UPDATE` or a single-row insert: their text
//! varies with the values (an optional column's `DEFAULT`, a changeset's skipped field), so it
//! cannot key them by type. Keyed by text, each variant is prepared once per connection. That
//! is only sound where the variants are few, so it is for statements of one row whose text
//! varies with which optional columns are set, never with a list's length (`eq_any` on
//! SQLite). On PostgreSQL an uncached statement costs a prepare round trip and a plan on every
//! call: the settlement's writes were three of its round trips (`just bench --phases settle`).

use diesel::QueryResult;
use diesel::backend::Backend;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};

/// `query`, cached by its SQL text (see the module's doc for when that is sound).
pub(crate) fn by_sql<Q>(query: Q) -> BySql<Q> {
    BySql(query)
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct BySql<Q>(Q);

impl<Q> QueryId for BySql<Q> {
    type QueryId = ();
    // No type key: the cache keys it by its text and bind types.
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<Q: Query> Query for BySql<Q> {
    type SqlType = Q::SqlType;
}

impl<Q: QueryFragment<DB>, DB: Backend> QueryFragment<DB> for BySql<Q> {
    fn walk_ast<'b>(&'b self, pass: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        self.0.walk_ast(pass)
    }

    fn is_safe_to_cache_prepared(&self, _backend: &DB) -> QueryResult<bool> {
        Ok(true)
    }
}

impl<Q, Conn> diesel::RunQueryDsl<Conn> for BySql<Q> {}
