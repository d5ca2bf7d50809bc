//! Nothing paid without access (docs/decisions.md, "Nothing paid without access"): a check, run
//! by the periodic jobs at most once an hour across the instances, that every invoice paid in
//! the last two days has the access it bought: a subscription whose term covers it (read
//! against the domain's rule, `Subscription::covers_paid_term`) and a panel user enabled with
//! that term's end. A panel user that drifted is pushed again through the panel sync; a term
//! that does not cover its payment cannot be repaired without the operator (the payment was
//! applied once, and applying it again would sell a second term) and is reported. What it
//! found is kept (`SettingKey::PaidAccessCheck`) for every instance's `/metrics`
//! (`vp_paid_without_access`) and logged as errors, one line a finding.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use time::{Duration, OffsetDateTime};
use vp_domain::Purpose;
use vp_ports::{Cursor, InvoiceRecord, Lease, SettingKey, SettingRecord};

use super::Payments;
use crate::error::AppResult;

/// How far back paid invoices are checked.
pub const PAID_ACCESS_WINDOW: Duration = Duration::days(2);
/// How often the check runs, whichever instance runs it.
pub const PAID_ACCESS_EVERY: Duration = Duration::hours(1);
/// The lease one instance holds while it checks.
const LEASE_FOR: Duration = Duration::minutes(30);
/// Invoices read a page at a time.
const PAGE: u32 = 500;

/// What a check found, as kept for the metrics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PaidAccessChecked {
    /// When it ran (Unix seconds).
    pub at: i64,
    /// Paid invoices looked at.
    pub checked: u64,
    /// Paid invoices without the access they bought, repaired or not.
    pub found: u64,
    /// Of those, the ones the check repaired (a panel user pushed again).
    pub repaired: u64,
}

impl PaidAccessChecked {
    /// The last check's findings, as the setting keeps them.
    pub fn read(setting: Option<&SettingRecord>) -> Option<PaidAccessChecked> {
        serde_json::from_str(&setting?.value).ok()
    }
}

/// What one paid invoice's check came to.
enum Access {
    Given,
    /// The term does not cover the payment: reported, not repaired.
    TermShort,
    /// The panel user drifted: pushed again (`true`) or not.
    PanelDrifted(bool),
}

impl Payments {
    /// The check, when it is due and no other instance runs it: `None` when it did not run.
    pub async fn check_paid_access(&self, holder: &str) -> AppResult<Option<PaidAccessChecked>> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let last = PaidAccessChecked::read(tx.setting(SettingKey::PaidAccessCheck).await?.as_ref());
        let due = last.is_none_or(|l| l.at + PAID_ACCESS_EVERY.whole_seconds() <= now.unix_timestamp());
        let held = due && tx.take_lease(Lease::PaidAccess, holder, now, now + LEASE_FOR).await?;
        tx.commit().await?;
        if !held {
            return Ok(None);
        }
        let checked = self.check_paid_access_now(now).await;
        let mut tx = self.store.begin().await?;
        if let Ok(found) = &checked {
            let value = serde_json::to_string(found).unwrap_or_default();
            tx.put_setting(&SettingRecord { key: SettingKey::PaidAccessCheck, value, updated_at: now }).await?;
        }
        tx.release_lease(Lease::PaidAccess, holder).await?;
        tx.commit().await?;
        checked.map(Some)
    }

    /// Every invoice paid in the window, each client once.
    async fn check_paid_access_now(&self, now: OffsetDateTime) -> AppResult<PaidAccessChecked> {
        let mut result = PaidAccessChecked { at: now.unix_timestamp(), ..Default::default() };
        let mut seen = HashSet::new();
        let mut after: Option<Cursor> = None;
        loop {
            let page = read!(self.store, |tx| tx.paid_invoices_since(now - PAID_ACCESS_WINDOW, after.as_ref(), PAGE));
            let Some(last) = page.last() else { break };
            after = Some(Cursor { at: last.paid_at.unwrap_or(now), id: last.payment_id.to_string() });
            for invoice in page {
                if !seen.insert(invoice.client_ref.clone()) {
                    continue;
                }
                result.checked += 1;
                match self.access_of(&invoice, now).await? {
                    Access::Given => {}
                    Access::TermShort => {
                        result.found += 1;
                        tracing::error!(payment_id = %invoice.payment_id, client = %invoice.client_ref, "paid without access: the term does not cover the payment; for the operator");
                    }
                    Access::PanelDrifted(repaired) => {
                        result.found += 1;
                        result.repaired += u64::from(repaired);
                        tracing::error!(payment_id = %invoice.payment_id, client = %invoice.client_ref, repaired, "paid without access: the panel user drifted");
                    }
                }
            }
        }
        Ok(result)
    }

    /// Whether a paid invoice's client has the access it bought; a drifted panel user is
    /// pushed again. A blocked client or a suspended subscription is the platform's own
    /// decision, not a gap.
    async fn access_of(&self, invoice: &InvoiceRecord, now: OffsetDateTime) -> AppResult<Access> {
        let (client, plan, gift) = {
            let mut tx = self.store.read().await?;
            let client = tx.client_by_ref(&invoice.client_ref).await?;
            let plan = match invoice.purpose {
                Purpose::Subscription { plan_id } => tx.plan(plan_id).await?,
                Purpose::Devices { .. } => None,
            };
            let gift = tx.gift(&invoice.payment_id).await?;
            tx.commit().await?;
            (client, plan, gift)
        };
        // A gift's payment buys its code, not a term of the buyer's: whoever redeems it gets
        // the term in the unit of work that marks it redeemed.
        if gift.is_some() {
            return Ok(Access::Given);
        }
        let Some(client) = client.filter(|c| !c.blocked) else { return Ok(Access::Given) };
        let subscription = client.subscription.as_ref().map(|r| &r.subscription);
        if subscription.is_some_and(|s| s.status == vp_domain::SubscriptionStatus::Suspended) {
            return Ok(Access::Given);
        }
        let term = plan.map(|p| p.term());
        let paid_at = invoice.paid_at.unwrap_or(now);
        let covered = match (subscription, term) {
            (Some(s), Some(term)) => s.covers_paid_term(term, paid_at),
            // Devices buy slots on a subscription that must exist.
            (Some(_), None) => true,
            (None, _) => false,
        };
        if !covered {
            return Ok(Access::TermShort);
        }
        // A term that ended since (a short one paid two days ago) wants no enabled user.
        if subscription.is_some_and(|s| !s.is_active_at(now)) {
            return Ok(Access::Given);
        }
        Ok(match self.settled.panel_sync.reconcile_client(&client, true).await? {
            None => Access::Given,
            Some(drift) => Access::PanelDrifted(matches!(drift.fixed, Some(Ok(())))),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_checks_findings_read_back_from_the_setting() {
        let found = PaidAccessChecked { at: 1_800_000_000, checked: 12, found: 2, repaired: 1 };
        let setting = SettingRecord {
            key: SettingKey::PaidAccessCheck,
            value: serde_json::to_string(&found).unwrap(),
            updated_at: OffsetDateTime::UNIX_EPOCH,
        };
        assert_eq!(PaidAccessChecked::read(Some(&setting)), Some(found));
        assert_eq!(PaidAccessChecked::read(None), None);
        let garbled = SettingRecord { value: "{".into(), ..setting };
        assert_eq!(PaidAccessChecked::read(Some(&garbled)), None, "an unreadable value is no finding");
    }
}
