//! Reading a Bedolaga shop bot's database (`remnawave-bedolaga-telegram-bot`, PostgreSQL or
//! SQLite) for `import bedolaga`: `ShopBotDatabase`. Read only: PostgreSQL sessions are read
//! only and SQLite files are opened with `mode=ro`; nothing is ever written to it. The columns
//! read are listed in docs/bedolaga.md.

use async_trait::async_trait;
use diesel::sql_types::{BigInt, Nullable, Text};
use diesel::{Connection as _, QueryableByName, SqliteConnection};
use diesel_async::pg::AsyncPgConnection;
use diesel_async::sync_connection_wrapper::SyncConnectionWrapper;
use diesel_async::{AsyncConnection, RunQueryDsl, SimpleAsyncConnection};
use time::OffsetDateTime;
use tokio::sync::Mutex;
use vp_ports::{ShopBotCustomer, ShopBotDatabase, ShopBotError, ShopBotPromoCode, ShopBotSubscription};

use crate::url::{Target, parse};

/// The first schema revision read: 0104 gave subscriptions the panel's 3.x numeric user id.
const FIRST_REVISION: u32 = 104;

enum Conn {
    Postgres(Box<AsyncPgConnection>),
    Sqlite(Box<SyncConnectionWrapper<SqliteConnection>>),
}

/// A Bedolaga database, opened read only.
pub struct BedolagaDatabase {
    conn: Mutex<Conn>,
    revision: String,
}

fn unreadable(e: impl std::fmt::Display) -> ShopBotError {
    ShopBotError::Unreadable(e.to_string())
}

#[derive(QueryableByName)]
struct Revision {
    #[diesel(sql_type = Text)]
    version_num: String,
}

#[derive(QueryableByName)]
struct CustomerRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Nullable<BigInt>)]
    telegram_id: Option<i64>,
    #[diesel(sql_type = Nullable<Text>)]
    language: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    status: Option<String>,
    #[diesel(sql_type = BigInt)]
    balance_kopeks: i64,
    #[diesel(sql_type = Nullable<BigInt>)]
    referred_by_id: Option<i64>,
    #[diesel(sql_type = Nullable<Text>)]
    referral_code: Option<String>,
    #[diesel(sql_type = BigInt)]
    has_paid: i64,
    #[diesel(sql_type = Nullable<BigInt>)]
    created_at: Option<i64>,
}

#[derive(QueryableByName)]
struct PromoCodeRow {
    #[diesel(sql_type = Text)]
    code: String,
    #[diesel(sql_type = Text)]
    kind: String,
    #[diesel(sql_type = BigInt)]
    value: i64,
    #[diesel(sql_type = BigInt)]
    days: i64,
    #[diesel(sql_type = Nullable<BigInt>)]
    max_uses: Option<i64>,
    #[diesel(sql_type = BigInt)]
    uses: i64,
    #[diesel(sql_type = Nullable<BigInt>)]
    valid_until: Option<i64>,
    #[diesel(sql_type = BigInt)]
    active: i64,
    #[diesel(sql_type = BigInt)]
    first_purchase_only: i64,
}

#[derive(QueryableByName)]
struct SubscriptionRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = BigInt)]
    user_id: i64,
    #[diesel(sql_type = Nullable<Text>)]
    status: Option<String>,
    #[diesel(sql_type = BigInt)]
    is_trial: i64,
    #[diesel(sql_type = Nullable<BigInt>)]
    ends_at: Option<i64>,
    #[diesel(sql_type = Nullable<Text>)]
    panel_id: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    short_uuid: Option<String>,
}

/// A timestamp column as Unix seconds: `timestamptz` on PostgreSQL, UTC text on SQLite.
fn epoch(postgres: bool, column: &str) -> String {
    if postgres {
        format!("CAST(EXTRACT(EPOCH FROM {column}) AS BIGINT)")
    } else {
        format!("CAST(strftime('%s', {column}) AS INTEGER)")
    }
}

/// A boolean column as 0 or 1 (NULL is 0).
fn flag(column: &str) -> String {
    format!("CAST(CASE WHEN {column} THEN 1 ELSE 0 END AS BIGINT)")
}

/// `?` placeholders as the backend writes them.
fn placeholders(postgres: bool, sql: &str) -> String {
    if !postgres {
        return sql.to_owned();
    }
    let mut n = 0;
    sql.chars()
        .map(|c| match c {
            '?' => {
                n += 1;
                format!("${n}")
            }
            c => c.to_string(),
        })
        .collect()
}

fn customers_sql(postgres: bool) -> String {
    let paid = format!("{} + {}", flag("u.has_made_first_topup"), flag("u.has_had_paid_subscription"));
    placeholders(
        postgres,
        &format!(
            "SELECT CAST(u.id AS BIGINT) AS id, u.telegram_id, u.language, u.status, \
             CAST(COALESCE(u.balance_kopeks, 0) AS BIGINT) AS balance_kopeks, \
             CAST(u.referred_by_id AS BIGINT) AS referred_by_id, u.referral_code, \
             CAST({paid} AS BIGINT) AS has_paid, \
             {} AS created_at \
             FROM users u WHERE u.id > ? ORDER BY u.id LIMIT ?",
            epoch(postgres, "u.created_at")
        ),
    )
}

fn subscriptions_sql(postgres: bool) -> String {
    placeholders(
        postgres,
        &format!(
            "SELECT CAST(s.id AS BIGINT) AS id, CAST(s.user_id AS BIGINT) AS user_id, s.status, \
             {} AS is_trial, {} AS ends_at, \
             CAST(COALESCE(s.remnawave_id, u.remnawave_id) AS TEXT) AS panel_id, \
             s.remnawave_short_uuid AS short_uuid \
             FROM subscriptions s JOIN users u ON u.id = s.user_id \
             WHERE s.user_id >= ? AND s.user_id <= ? ORDER BY s.user_id, s.id",
            flag("s.is_trial"),
            epoch(postgres, "s.end_date")
        ),
    )
}

fn promo_codes_sql(postgres: bool) -> String {
    format!(
        "SELECT p.code, p.type AS kind, CAST(COALESCE(p.balance_bonus_kopeks, 0) AS BIGINT) AS value, \
         CAST(COALESCE(p.subscription_days, 0) AS BIGINT) AS days, CAST(p.max_uses AS BIGINT) AS max_uses, \
         CAST(COALESCE(p.current_uses, 0) AS BIGINT) AS uses, {} AS valid_until, \
         {} AS active, {} AS first_purchase_only FROM promocodes p ORDER BY p.id",
        epoch(postgres, "p.valid_until"),
        flag("COALESCE(p.is_active, TRUE)"),
        flag("p.first_purchase_only")
    )
}

macro_rules! on_conn {
    ($conn:expr, $c:ident => $body:expr) => {
        match $conn {
            Conn::Postgres($c) => {
                let $c: &mut AsyncPgConnection = &mut **$c;
                $body
            }
            Conn::Sqlite($c) => {
                let $c: &mut SyncConnectionWrapper<SqliteConnection> = &mut **$c;
                $body
            }
        }
    };
}

impl BedolagaDatabase {
    /// Opens the database `url` names (`postgres://...`, `sqlite://path` or a file path) read
    /// only, and checks that it is a Bedolaga database this import reads.
    pub async fn open(url: &str) -> Result<BedolagaDatabase, ShopBotError> {
        let target = parse(url).map_err(|e| ShopBotError::Unsupported(e.to_string()))?;
        let mut conn = match target {
            Target::Postgres(url) => {
                let mut c = AsyncPgConnection::establish(&url).await.map_err(unreadable)?;
                c.batch_execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY").await.map_err(unreadable)?;
                Conn::Postgres(Box::new(c))
            }
            Target::Sqlite(path) => {
                if !path.is_file() {
                    return Err(ShopBotError::Unreadable(format!("no SQLite file at {}", path.display())));
                }
                let uri = format!("file:{}?mode=ro", path.display());
                let c = tokio::task::spawn_blocking(move || SqliteConnection::establish(&uri))
                    .await
                    .map_err(unreadable)?
                    .map_err(unreadable)?;
                let mut c = SyncConnectionWrapper::new(c);
                c.batch_execute("PRAGMA query_only = ON; PRAGMA busy_timeout = 5000;").await.map_err(unreadable)?;
                Conn::Sqlite(Box::new(c))
            }
        };
        let revision = on_conn!(&mut conn, c => {
            diesel::sql_query("SELECT version_num FROM alembic_version").load::<Revision>(c).await
        })
        .map_err(|e| ShopBotError::Unsupported(format!("no alembic_version table ({e}): not a Bedolaga database")))?;
        let revision = revision.into_iter().next().map(|r| r.version_num).unwrap_or_default();
        match revision.parse::<u32>() {
            Ok(n) if n >= FIRST_REVISION => {}
            _ => {
                return Err(ShopBotError::Unsupported(format!(
                    "Bedolaga schema revision {revision:?}; this import reads revision {FIRST_REVISION:04} or \
                     later (Bedolaga 4.0 with Remnawave 3): update the bot first"
                )));
            }
        }
        Ok(BedolagaDatabase { conn: Mutex::new(conn), revision })
    }
}

fn at(seconds: Option<i64>) -> OffsetDateTime {
    at_opt(seconds).unwrap_or(OffsetDateTime::UNIX_EPOCH)
}

#[async_trait]
impl ShopBotDatabase for BedolagaDatabase {
    fn source(&self) -> String {
        format!("bedolaga {}", self.revision)
    }

    async fn customers_page(&self, after: Option<i64>, size: u32) -> Result<Vec<ShopBotCustomer>, ShopBotError> {
        let mut conn = self.conn.lock().await;
        let postgres = matches!(&*conn, Conn::Postgres(_));
        let (customers_sql, subscriptions_sql) = (customers_sql(postgres), subscriptions_sql(postgres));
        let after = after.unwrap_or(i64::MIN);
        let rows: Vec<CustomerRow> = on_conn!(&mut *conn, c => {
            diesel::sql_query(&customers_sql)
                .bind::<BigInt, _>(after)
                .bind::<BigInt, _>(i64::from(size))
                .load(c)
                .await
        })
        .map_err(unreadable)?;
        let (Some(first), Some(last)) = (rows.as_slice().first().map(|r| r.id), rows.last().map(|r| r.id)) else {
            return Ok(vec![]);
        };
        let subscriptions: Vec<SubscriptionRow> = on_conn!(&mut *conn, c => {
            diesel::sql_query(&subscriptions_sql).bind::<BigInt, _>(first).bind::<BigInt, _>(last).load(c).await
        })
        .map_err(unreadable)?;
        Ok(rows
            .into_iter()
            .map(|r| ShopBotCustomer {
                id: r.id,
                telegram_id: r.telegram_id,
                language: r.language,
                status: r.status.unwrap_or_else(|| "active".to_owned()),
                balance_minor: r.balance_kopeks,
                invited_by: r.referred_by_id,
                referral_code: r.referral_code,
                has_paid: r.has_paid > 0,
                created_at: at(r.created_at),
                subscriptions: subscriptions
                    .iter()
                    .filter(|s| s.user_id == r.id)
                    .map(|s| ShopBotSubscription {
                        id: s.id,
                        status: s.status.clone().unwrap_or_else(|| "trial".to_owned()),
                        is_trial: s.is_trial > 0,
                        ends_at: at(s.ends_at),
                        panel_id: s.panel_id.clone(),
                        panel_short_uuid: s.short_uuid.clone().filter(|t| !t.is_empty()),
                    })
                    .collect(),
            })
            .collect())
    }

    async fn promo_codes(&self) -> Result<Vec<ShopBotPromoCode>, ShopBotError> {
        let mut conn = self.conn.lock().await;
        let sql = promo_codes_sql(matches!(&*conn, Conn::Postgres(_)));
        let rows: Vec<PromoCodeRow> =
            on_conn!(&mut *conn, c => diesel::sql_query(&sql).load(c).await).map_err(unreadable)?;
        Ok(rows
            .into_iter()
            .map(|r| ShopBotPromoCode {
                code: r.code,
                kind: r.kind,
                value: r.value,
                days: r.days,
                max_uses: r.max_uses,
                uses: r.uses,
                valid_until: at_opt(r.valid_until),
                active: r.active > 0,
                first_purchase_only: r.first_purchase_only > 0,
            })
            .collect())
    }
}

fn at_opt(seconds: Option<i64>) -> Option<OffsetDateTime> {
    seconds.and_then(|s| OffsetDateTime::from_unix_timestamp(s).ok())
}

#[cfg(test)]
mod tests {
    use super::placeholders;

    #[test]
    fn postgres_numbers_its_placeholders_and_sqlite_keeps_them() {
        assert_eq!(placeholders(true, "a > ? AND b <= ? LIMIT ?"), "a > $1 AND b <= $2 LIMIT $3");
        assert_eq!(placeholders(false, "a > ?"), "a > ?");
    }
}
