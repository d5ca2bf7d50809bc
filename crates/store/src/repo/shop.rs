//! The accounts' web shops: `ShopRepo` for the unit of work.

use async_trait::async_trait;
use diesel::{
    BoolExpressionMethods, ExpressionMethods, OptionalExtension, QueryDsl, SelectableHelper, upsert::excluded,
};
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use vp_domain::{AccountId, ClientId, ClientRef};
use vp_ports::store::StoreResult;
use vp_ports::{ShopCustomer, ShopRepo, ShopSession, ShopSignIn, ShopSubscription};

use crate::convert::{count, db_time, db_time_opt, int, lang, utc};
use crate::errors::{corrupt, db};
use crate::models::ShopSubscriptionRow;
use crate::pool::{db_run, upsert};
use crate::schema::{accounts, shop_customers, shop_sessions, shop_sign_ins, shop_slugs, shop_subscriptions};
use crate::tx::StoreTx;

pub(crate) type CustomerRow = (String, String, String, String, String, time::PrimitiveDateTime);

/// `first_payment_id` of a link a trial made: empty, not NULL, so a release that reads the
/// column as text (before trials in the shop) reads it as a purchase no invoice has, which is
/// what it means to it too (the link goes by mail).
const NO_PAYMENT: &str = "";

pub(crate) const CUSTOMER_COLUMNS: (
    shop_customers::account_id,
    shop_customers::email,
    shop_customers::client_ref,
    shop_customers::lang,
    shop_customers::first_payment_id,
    shop_customers::created_at,
) = (
    shop_customers::account_id,
    shop_customers::email,
    shop_customers::client_ref,
    shop_customers::lang,
    shop_customers::first_payment_id,
    shop_customers::created_at,
);

#[derive(diesel::Queryable, diesel::Selectable, diesel::Insertable)]
#[diesel(table_name = shop_sign_ins)]
struct SignInRow {
    id: String,
    account_id: String,
    email: String,
    code_hash: String,
    link_hash: String,
    source: String,
    tries_left: i32,
    created_at: time::PrimitiveDateTime,
    expires_at: time::PrimitiveDateTime,
    used_at: Option<time::PrimitiveDateTime>,
}

fn sign_in_row(s: &ShopSignIn) -> StoreResult<SignInRow> {
    Ok(SignInRow {
        id: s.id.clone(),
        account_id: s.account_id.to_string(),
        email: s.email.clone(),
        code_hash: s.code_hash.clone(),
        link_hash: s.link_hash.clone(),
        source: s.source.clone(),
        tries_left: int(s.tries_left, "tries_left")?,
        created_at: db_time(s.created_at),
        expires_at: db_time(s.expires_at),
        used_at: db_time_opt(s.used_at),
    })
}

fn sign_in(r: SignInRow) -> StoreResult<ShopSignIn> {
    Ok(ShopSignIn {
        tries_left: count(r.tries_left, "tries_left")?,
        id: r.id,
        account_id: AccountId::issued(r.account_id),
        email: r.email,
        code_hash: r.code_hash,
        link_hash: r.link_hash,
        source: r.source,
        created_at: utc(r.created_at),
        expires_at: utc(r.expires_at),
        used_at: r.used_at.map(utc),
    })
}

#[derive(diesel::Queryable, diesel::Selectable, diesel::Insertable)]
#[diesel(table_name = shop_sessions)]
struct SessionRow {
    token_hash: String,
    account_id: String,
    email: String,
    csrf_token: String,
    created_at: time::PrimitiveDateTime,
    last_seen_at: time::PrimitiveDateTime,
}

/// `shop_customer_of_client`'s query (`read_ahead` makes it too).
macro_rules! shop_customer_of_client {
    ($client_ref:expr) => {
        $crate::schema::shop_customers::table
            .filter($crate::schema::shop_customers::client_ref.eq($client_ref))
            .select($crate::repo::shop::CUSTOMER_COLUMNS)
    };
}
pub(crate) use shop_customer_of_client;

pub(crate) fn customer(row: Option<CustomerRow>) -> StoreResult<Option<ShopCustomer>> {
    let Some((account_id, email, client_ref, code, first_payment_id, created_at)) = row else { return Ok(None) };
    Ok(Some(ShopCustomer {
        account_id: AccountId::issued(account_id),
        email,
        client_ref: ClientRef::issued(client_ref),
        lang: lang(&code)?,
        first_payment_id: Some(first_payment_id).filter(|id| !id.is_empty()),
        created_at: utc(created_at),
    }))
}

#[async_trait]
impl ShopRepo for StoreTx {
    async fn shop_slug(&mut self, account_id: &str) -> StoreResult<Option<String>> {
        let conn = self.conn().await?;
        db_run!(conn, c => {
            shop_slugs::table.find(account_id).select(shop_slugs::slug).first::<String>(c).await.optional()
        })
        .map_err(db)
    }

    async fn shop_account(&mut self, slug: &str) -> StoreResult<Option<AccountId>> {
        let conn = self.conn().await?;
        db_run!(conn, c => {
            shop_slugs::table
                .filter(shop_slugs::slug.eq(slug))
                .select(shop_slugs::account_id)
                .first::<String>(c)
                .await
                .optional()
        })
        .map(|id| id.map(AccountId::issued))
        .map_err(db)
    }

    async fn put_shop_slug(&mut self, account_id: &str, slug: &str, at: OffsetDateTime) -> StoreResult<()> {
        let conn = self.conn().await?;
        let at = db_time(at);
        db_run!(conn, c => {
            diesel::insert_into(shop_slugs::table)
                .values((shop_slugs::account_id.eq(account_id), shop_slugs::slug.eq(slug), shop_slugs::updated_at.eq(at)))
                .on_conflict(shop_slugs::account_id)
                .do_update()
                .set((shop_slugs::slug.eq(excluded(shop_slugs::slug)), shop_slugs::updated_at.eq(excluded(shop_slugs::updated_at))))
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn accounts_without_shop(&mut self, limit: u32) -> StoreResult<Vec<AccountId>> {
        let conn = self.conn().await?;
        db_run!(conn, c => {
            accounts::table
                .filter(accounts::id.ne_all(shop_slugs::table.select(shop_slugs::account_id)))
                .order(accounts::id)
                .select(accounts::id)
                .limit(i64::from(limit))
                .load::<String>(c)
                .await
        })
        .map(|ids| ids.into_iter().map(AccountId::issued).collect())
        .map_err(db)
    }

    async fn shop_customer(&mut self, account_id: &str, email: &str) -> StoreResult<Option<ShopCustomer>> {
        let conn = self.conn().await?;
        let row = db_run!(conn, c => {
            shop_customers::table.find((account_id, email)).select(CUSTOMER_COLUMNS).first::<CustomerRow>(c).await.optional()
        })
        .map_err(db)?;
        customer(row)
    }

    async fn shop_customer_of_client(&mut self, client_ref: &str) -> StoreResult<Option<ShopCustomer>> {
        if let Some(ahead) = self.ahead.shop_customer.take(client_ref) {
            return Ok(ahead);
        }
        let conn = self.conn().await?;
        let row = db_run!(conn, c => shop_customer_of_client!(client_ref).first::<CustomerRow>(c).await.optional())
            .map_err(db)?;
        customer(row)
    }

    async fn add_shop_customer(&mut self, customer: &ShopCustomer) -> StoreResult<bool> {
        let conn = self.conn().await?;
        let at = db_time(customer.created_at);
        let inserted = db_run!(conn, c => {
            diesel::insert_into(shop_customers::table)
                .values((
                    shop_customers::account_id.eq(customer.account_id.as_str()),
                    shop_customers::email.eq(&customer.email),
                    shop_customers::client_ref.eq(customer.client_ref.as_str()),
                    shop_customers::lang.eq(customer.lang.code()),
                    shop_customers::first_payment_id.eq(customer.first_payment_id.as_deref().unwrap_or(NO_PAYMENT)),
                    shop_customers::created_at.eq(at),
                ))
                .on_conflict_do_nothing()
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(inserted == 1)
    }

    async fn insert_shop_sign_in(&mut self, new: &ShopSignIn) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = sign_in_row(new)?;
        db_run!(conn, c => {
            diesel::update(
                shop_sign_ins::table
                    .filter(shop_sign_ins::account_id.eq(new.account_id.as_str()))
                    .filter(shop_sign_ins::email.eq(&new.email))
                    .filter(shop_sign_ins::used_at.is_null()),
            )
            .set(shop_sign_ins::tries_left.eq(0))
            .execute(c)
            .await
        })
        .map_err(db)?;
        db_run!(conn, c => diesel::insert_into(shop_sign_ins::table).values(&row).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn latest_shop_sign_in(&mut self, account_id: &str, email: &str) -> StoreResult<Option<ShopSignIn>> {
        let conn = self.conn().await?;
        let row = db_run!(conn, c => {
            shop_sign_ins::table
                .filter(shop_sign_ins::account_id.eq(account_id))
                .filter(shop_sign_ins::email.eq(email))
                .order((shop_sign_ins::created_at.desc(), shop_sign_ins::id.desc()))
                .select(SignInRow::as_select())
                .first::<SignInRow>(c)
                .await
                .optional()
        })
        .map_err(db)?;
        row.map(sign_in).transpose()
    }

    async fn shop_sign_in_by_link(&mut self, link_hash: &str) -> StoreResult<Option<ShopSignIn>> {
        let conn = self.conn().await?;
        let row = db_run!(conn, c => {
            shop_sign_ins::table
                .filter(shop_sign_ins::link_hash.eq(link_hash))
                .select(SignInRow::as_select())
                .first::<SignInRow>(c)
                .await
                .optional()
        })
        .map_err(db)?;
        row.map(sign_in).transpose()
    }

    async fn update_shop_sign_in(&mut self, s: &ShopSignIn) -> StoreResult<()> {
        let conn = self.conn().await?;
        let tries = int(s.tries_left, "tries_left")?;
        let used = db_time_opt(s.used_at);
        db_run!(conn, c => {
            diesel::update(shop_sign_ins::table.find(&s.id))
                .set((shop_sign_ins::tries_left.eq(tries), shop_sign_ins::used_at.eq(used)))
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn shop_sign_ins_since(
        &mut self,
        account_id: &str,
        email: &str,
        source: &str,
        since: OffsetDateTime,
    ) -> StoreResult<(u64, u64)> {
        let conn = self.conn().await?;
        let since = db_time(since);
        let to_address: i64 = db_run!(conn, c => {
            shop_sign_ins::table
                .filter(shop_sign_ins::account_id.eq(account_id))
                .filter(shop_sign_ins::email.eq(email))
                .filter(shop_sign_ins::created_at.ge(since))
                .count()
                .get_result(c)
                .await
        })
        .map_err(db)?;
        let from_source: i64 = db_run!(conn, c => {
            shop_sign_ins::table
                .filter(shop_sign_ins::source.eq(source))
                .filter(shop_sign_ins::created_at.ge(since))
                .count()
                .get_result(c)
                .await
        })
        .map_err(db)?;
        Ok((u64::try_from(to_address).unwrap_or(0), u64::try_from(from_source).unwrap_or(0)))
    }

    async fn insert_shop_session(&mut self, s: &ShopSession) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = SessionRow {
            token_hash: s.token_hash.clone(),
            account_id: s.account_id.to_string(),
            email: s.email.clone(),
            csrf_token: s.csrf_token.clone(),
            created_at: db_time(s.created_at),
            last_seen_at: db_time(s.last_seen_at),
        };
        db_run!(conn, c => diesel::insert_into(shop_sessions::table).values(&row).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn shop_session(&mut self, token_hash: &str) -> StoreResult<Option<ShopSession>> {
        let conn = self.conn().await?;
        let row = db_run!(conn, c => {
            shop_sessions::table.find(token_hash).select(SessionRow::as_select()).first::<SessionRow>(c).await.optional()
        })
        .map_err(db)?;
        Ok(row.map(|r| ShopSession {
            token_hash: r.token_hash,
            account_id: AccountId::issued(r.account_id),
            email: r.email,
            csrf_token: r.csrf_token,
            created_at: utc(r.created_at),
            last_seen_at: utc(r.last_seen_at),
        }))
    }

    async fn touch_shop_session(&mut self, token_hash: &str, at: OffsetDateTime) -> StoreResult<()> {
        let conn = self.conn().await?;
        let at = db_time(at);
        db_run!(conn, c => {
            diesel::update(shop_sessions::table.find(token_hash)).set(shop_sessions::last_seen_at.eq(at)).execute(c).await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn delete_shop_session(&mut self, token_hash: &str) -> StoreResult<()> {
        let conn = self.conn().await?;
        db_run!(conn, c => diesel::delete(shop_sessions::table.find(token_hash)).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn shop_subscriptions(&mut self, account_id: &str, email: &str) -> StoreResult<Vec<ShopSubscription>> {
        use shop_subscriptions::dsl as s;
        let conn = self.conn().await?;
        let rows: Vec<ShopSubscriptionRow> = db_run!(conn, c => {
            s::shop_subscriptions
                .filter(s::account_id.eq(account_id))
                .filter(s::email.eq(email))
                .order(s::position.asc())
                .select(ShopSubscriptionRow::as_select())
                .load(c)
                .await
        })
        .map_err(db)?;
        rows.into_iter().map(shop_subscription).collect()
    }

    async fn put_shop_subscription(&mut self, subscription: &ShopSubscription) -> StoreResult<()> {
        use shop_subscriptions::dsl as s;
        let conn = self.conn().await?;
        let row = ShopSubscriptionRow {
            account_id: subscription.account_id.to_string(),
            email: subscription.email.clone(),
            position: int(subscription.position, "subscription position")?,
            client_id: subscription.client_id.as_str().to_owned(),
            name: subscription.name.clone(),
            created_at: db_time(subscription.created_at),
        };
        upsert!(conn, s::shop_subscriptions, (s::account_id, s::email, s::position), &row)
    }

    async fn shop_customers_among(&mut self, account_id: &str, client_ids: &[String]) -> StoreResult<Vec<String>> {
        use crate::schema::clients;
        use diesel::JoinOnDsl;
        let conn = self.conn().await?;
        let mut firsts: Vec<String> = db_run!(conn, c => {
            shop_customers::table
                .inner_join(clients::table.on(shop_customers::client_ref.eq(clients::id)))
                .filter(shop_customers::account_id.eq(account_id))
                .filter(clients::account_id.eq(account_id))
                .filter(clients::client_id.eq_any(client_ids))
                .select(clients::client_id)
                .load(c)
                .await
        })
        .map_err(db)?;
        let further: Vec<String> = db_run!(conn, c => {
            shop_subscriptions::table
                .filter(shop_subscriptions::account_id.eq(account_id))
                .filter(shop_subscriptions::client_id.eq_any(client_ids))
                .select(shop_subscriptions::client_id)
                .load(c)
                .await
        })
        .map_err(db)?;
        firsts.extend(further);
        Ok(firsts)
    }

    async fn shop_subscription_of_client(
        &mut self,
        account_id: &str,
        client_id: &str,
    ) -> StoreResult<Option<ShopSubscription>> {
        use shop_subscriptions::dsl as s;
        let conn = self.conn().await?;
        let row: Option<ShopSubscriptionRow> = db_run!(conn, c => {
            s::shop_subscriptions
                .filter(s::account_id.eq(account_id))
                .filter(s::client_id.eq(client_id))
                .select(ShopSubscriptionRow::as_select())
                .first(c)
                .await
                .optional()
        })
        .map_err(db)?;
        row.map(shop_subscription).transpose()
    }

    async fn prune_shop_sign_ins(
        &mut self,
        codes_before: OffsetDateTime,
        idle_before: OffsetDateTime,
        begun_before: OffsetDateTime,
    ) -> StoreResult<u64> {
        let conn = self.conn().await?;
        let (codes_before, idle_before, begun_before) =
            (db_time(codes_before), db_time(idle_before), db_time(begun_before));
        let codes = db_run!(conn, c => {
            diesel::delete(shop_sign_ins::table.filter(shop_sign_ins::created_at.lt(codes_before))).execute(c).await
        })
        .map_err(db)?;
        let sessions = db_run!(conn, c => {
            diesel::delete(
                shop_sessions::table
                    .filter(shop_sessions::last_seen_at.lt(idle_before).or(shop_sessions::created_at.lt(begun_before))),
            )
            .execute(c)
            .await
        })
        .map_err(db)?;
        Ok(u64::try_from(codes + sessions).unwrap_or(0))
    }
}

fn shop_subscription(r: ShopSubscriptionRow) -> StoreResult<ShopSubscription> {
    Ok(ShopSubscription {
        position: u32::try_from(r.position).map_err(|_| corrupt(format!("subscription position {}", r.position)))?,
        client_id: ClientId::parse(&r.client_id).map_err(|_| corrupt(format!("client id {}", r.client_id)))?,
        account_id: AccountId::issued(r.account_id),
        email: r.email,
        name: r.name,
        created_at: utc(r.created_at),
    })
}
