//! Referrals (docs/decisions.md, "Referrals"): the partner sets the days an invitation gives
//! (CLI and cabinet); a customer's personal link brings a friend into the account's bot
//! (`invite`); the friend's first payment rewards the inviter in that payment's unit of work,
//! a refund takes it back, and a credit goes into the inviter's next purchase (`rewards`). The
//! rules are `vp_domain::referral`'s.

mod rewards;

use std::sync::Arc;

use vp_domain::referral::{Newcomer, ReferralCode, ReferralDays, invitation};
use vp_domain::{AccountId, ClientRef};
use vp_ports::{
    BotCustomerRepo, ClientRepo, Clock, InviterStats, ReferralCodeRecord, ReferralRecord, ReferralRepo, ReferralTotals,
    Store, StoreError,
};

pub(crate) use rewards::ReferralRewards;

use crate::actor::Acting;
use crate::audit::{Audit, AuditAction};
use crate::bots::connected_bot;
use crate::error::{AppError, AppResult};
use crate::tokens::Tokens;

/// How many inviters the cabinet and the CLI list.
pub const TOP_INVITERS: u32 = 10;

/// An account's program and how it went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReferralProgram {
    pub days: ReferralDays,
    pub totals: ReferralTotals,
    pub top_inviters: Vec<InviterStats>,
}

/// A customer's personal link and what it gives them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PersonalLink {
    pub url: String,
    pub days: ReferralDays,
}

pub struct Referrals {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) tokens: Tokens,
    pub(crate) audit: Audit,
}

impl Referrals {
    /// Sets the days an invited customer's first payment gives the inviter (0 turns the program
    /// off), recorded in the account's activity as `by`'s.
    pub async fn set_days(&self, by: Acting<'_>, days: ReferralDays) -> AppResult<ReferralProgram> {
        let account_id = by.account_id();
        let mut tx = self.store.begin().await?;
        tx.account(account_id).await?.ok_or(AppError::NotFound("account"))?;
        tx.set_referral_days(account_id, days, self.clock.now()).await?;
        self.audit
            .record(tx.as_mut(), account_id, by.into(), AuditAction::ReferralsSet, days.days().to_string())
            .await?;
        tx.commit().await?;
        self.program(by).await
    }

    /// The account's figures alone (the overview's), without ranking the inviters.
    pub async fn totals(&self, of: Acting<'_>) -> AppResult<ReferralTotals> {
        Ok(read!(self.store, |tx| tx.referral_totals(of.account_id())))
    }

    /// The account's program: its days, its figures and its best inviters.
    pub async fn program(&self, of: Acting<'_>) -> AppResult<ReferralProgram> {
        let account_id = of.account_id();
        let mut tx = self.store.read().await?;
        tx.account(account_id).await?.ok_or(AppError::NotFound("account"))?;
        let days = tx.referral_days(account_id).await?;
        let totals = tx.referral_totals(account_id).await?;
        let top_inviters = tx.top_inviters(account_id, TOP_INVITERS).await?;
        tx.commit().await?;
        Ok(ReferralProgram { days, totals, top_inviters })
    }

    /// The personal link of the client `client_ref` of the account: a deep link to its bot
    /// carrying the client's code, and the days a friend's first payment gives. `None` while the
    /// account has no program or no connected bot.
    pub async fn personal_link(
        &self,
        account_id: &AccountId,
        client_ref: &ClientRef,
    ) -> AppResult<Option<PersonalLink>> {
        let Some(bot) = read!(self.store, |tx| connected_bot(tx.as_mut(), account_id)) else { return Ok(None) };
        let Some((code, days)) = self.code_of(account_id, client_ref).await? else { return Ok(None) };
        Ok(Some(PersonalLink { url: format!("https://t.me/{}?start={}", bot.username, code.start_parameter()), days }))
    }

    /// The personal code of the client `client_ref` of the account, made the first time it is
    /// asked for; `None` while the account has no program.
    async fn code_of(
        &self,
        account_id: &AccountId,
        client_ref: &ClientRef,
    ) -> AppResult<Option<(ReferralCode, ReferralDays)>> {
        let mut tx = self.store.begin().await?;
        let days = tx.referral_days(account_id).await?;
        if !days.is_on() {
            tx.commit().await?;
            return Ok(None);
        }
        if let Some(found) = tx.referral_code_of(client_ref).await? {
            tx.commit().await?;
            return Ok(Some((found.code, days)));
        }
        let code = self.tokens.referral_code();
        let record = ReferralCodeRecord {
            code: code.clone(),
            account_id: account_id.clone(),
            client_ref: client_ref.to_owned(),
            created_at: self.clock.now(),
        };
        match tx.insert_referral_code(&record).await {
            Ok(()) => {}
            // The client's other press made one meanwhile: that one is theirs.
            Err(StoreError::Conflict(_)) => {
                drop(tx);
                let found = read!(self.store, |tx| tx.referral_code_of(client_ref));
                return Ok(found.map(|f| (f.code, days)));
            }
            Err(e) => return Err(e.into()),
        }
        tx.commit().await?;
        Ok(Some((code, days)))
    }

    /// A person of the account's bot started it through the personal link carrying `code`, in
    /// the unit of work `tx` the update is handled in; `first_start` says whether the bot saw
    /// them before. Records the invitation when the rules allow it; returns whether it did.
    pub(crate) async fn invite(
        &self,
        tx: &mut (impl BotCustomerRepo + ClientRepo + ReferralRepo + ?Sized),
        account_id: &AccountId,
        user_id: i64,
        first_start: bool,
        code: &ReferralCode,
    ) -> AppResult<bool> {
        let days = tx.referral_days(account_id).await?;
        let inviter = tx.referral_code(code).await?.filter(|c| c.account_id == account_id);
        let customer = tx.bot_customers(account_id, &[user_id]).await?.into_iter().next();
        let mut own = customer.and_then(|c| c.client_ref);
        if own.is_none() {
            if let Some(id) = crate::bots::new_bot_client_id(user_id) {
                own = tx.client(account_id, &id).await?.map(|c| c.id);
            }
        }
        let newcomer = Newcomer { client_ref: own.as_deref(), known_before: !first_start || own.is_some() };
        if let Err(why) = invitation(days, inviter.as_ref().map(|c| c.client_ref.as_str()), newcomer) {
            tracing::info!(account = %account_id, user_id, reason = %why, "a start through a personal link is no invitation");
            return Ok(false);
        }
        let Some(inviter) = inviter else { return Ok(false) };
        let referral = ReferralRecord {
            account_id: account_id.clone(),
            invited_user_id: user_id,
            inviter_ref: inviter.client_ref,
            invited_at: self.clock.now(),
            reward: None,
        };
        Ok(tx.insert_referral(&referral).await?)
    }
}
