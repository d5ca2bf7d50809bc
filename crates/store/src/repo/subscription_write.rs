//! `ClientRepo::save_subscription` as one statement of fixed text: the upsert decides the
//! subscription's `change_seq` itself, where it took two reads before it (the stored revision,
//! then the highest `change_seq`). `change_seq` moves to the end of the panel sync queue when
//! the revision changes and stays otherwise. `auto_renew` is written on insert only: it is
//! `set_auto_renew`'s, so a term's writes never undo it.

use diesel::sql_types::{BigInt, Bool, Integer, Nullable, Text, Timestamp};

use crate::invoice_work::statements::{for_both_backends, push_binds};
use crate::models::SubscriptionRow;

#[derive(diesel::query_builder::QueryId)]
pub(crate) struct SaveSubscription(pub SubscriptionRow);

// SET reads `subscriptions.*` as the row was before this statement, on both backends.
for_both_backends!(SaveSubscription, |this, out| {
    let s = &this.0;
    out.push_sql(
        "INSERT INTO subscriptions (client_ref, status, is_trial, lifetime, expires_at, term_started_at, \
         devices_unlimited, devices_included, devices_purchased, reminder_72_sent, reminder_24_sent, \
         link_rotated_at, link_token, revision, panel_revision, next_check_at, auto_renew, traffic_limit_bytes, \
         traffic_reset, change_seq) VALUES (",
    );
    push_binds!(
        out,
        Text => &s.client_ref,
        Text => &s.status,
        Bool => &s.is_trial,
        Bool => &s.lifetime,
        Timestamp => &s.expires_at,
        Timestamp => &s.term_started_at,
        Bool => &s.devices_unlimited,
        Integer => &s.devices_included,
        Integer => &s.devices_purchased,
        Bool => &s.reminder_72_sent,
        Bool => &s.reminder_24_sent,
        Nullable<Timestamp> => &s.link_rotated_at,
        Text => &s.link_token,
        BigInt => &s.revision,
        BigInt => &s.panel_revision,
        Nullable<Timestamp> => &s.next_check_at,
        Bool => &s.auto_renew,
        Nullable<BigInt> => &s.traffic_limit_bytes,
        Nullable<Text> => &s.traffic_reset,
    );
    out.push_sql(
        ", (SELECT COALESCE(MAX(change_seq), 0) + 1 FROM subscriptions)) \
         ON CONFLICT (client_ref) DO UPDATE SET status = excluded.status, is_trial = excluded.is_trial, \
         lifetime = excluded.lifetime, expires_at = excluded.expires_at, term_started_at = excluded.term_started_at, \
         devices_unlimited = excluded.devices_unlimited, devices_included = excluded.devices_included, \
         devices_purchased = excluded.devices_purchased, reminder_72_sent = excluded.reminder_72_sent, \
         reminder_24_sent = excluded.reminder_24_sent, link_rotated_at = excluded.link_rotated_at, \
         link_token = excluded.link_token, revision = excluded.revision, panel_revision = excluded.panel_revision, \
         next_check_at = excluded.next_check_at, traffic_limit_bytes = excluded.traffic_limit_bytes, \
         traffic_reset = excluded.traffic_reset, \
         change_seq = CASE WHEN subscriptions.revision = excluded.revision \
         THEN subscriptions.change_seq ELSE excluded.change_seq END",
    );
    Ok(())
});
