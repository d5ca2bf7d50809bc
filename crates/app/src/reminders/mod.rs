//! The platform's own reminders (spec: term events, rule 6): a customer linked to the
//! partner's bot is told 72 and 24 hours before the end of the term and once when access ends,
//! in the chat's language and under the brand, with a button to renew. The term check decides
//! a reminder in the same unit of work as the partner's term event (so the same rules: once per
//! term, none for lifetime or blocked clients, a renewal counts again) and writes it to the
//! outbox; the reminder worker sends it, one process at a time (a lease), at most 30 messages
//! a second per bot together with the bot's answers and one a second per chat (the bots' one
//! sender), honouring Telegram's `retry_after`. "Payment received" (the invoice's settlement
//! queues it) goes the same way.

mod queue;

use std::sync::Arc;

use time::{Duration, OffsetDateTime};
use vp_domain::AccountId;
use vp_domain::SubscriptionStatus;
use vp_domain::referral::RewardState;
use vp_domain::renewal::{charge_at, renewable};
use vp_domain::term_events::Threshold;
use vp_ports::pages::connect_page_url;
use vp_ports::{
    AccountRecord, BotMessage, Claim, ClientRecord, Clock, Lease, ReminderKind, ReminderRecipient, ReminderSend, Store,
};

pub(crate) use queue::ReminderQueue;

use crate::bots::sender::{BotFailure, BotSender, NextTry, Pace, next_try};
use crate::bots::wording::{AutoRenewal, BotWording, Connect, ReminderContent, ReminderMessage, Renew};
use crate::bots::{connected_bot, partner_bot};
use crate::content::load_app_list;
use crate::error::{AppError, AppResult};
use crate::secrets::SecretKeys;
use crate::views::Views;

/// How long the holder of the reminder lease keeps it without renewing: longer than a round (a
/// bot's batch takes about 8 s at Telegram's pace).
const REMINDER_LEASE_FOR: Duration = Duration::seconds(30);
/// A bot's reminders claimed per round: 8 seconds at 30 a second.
pub const REMINDERS_PER_BOT: u32 = 240;
/// A claimed reminder is not picked up again for this long (its holder may still send it).
const SEND_LEASE: Duration = Duration::minutes(2);

/// The reminder worker: sends what the term check and the settlement queued.
pub struct Reminders {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) keys: Arc<SecretKeys>,
    pub(crate) views: Views,
    pub(crate) sender: Arc<BotSender>,
    pub(crate) wording: Arc<dyn BotWording>,
    pub(crate) public_base_url: String,
}

impl Reminders {
    /// One round of the reminder worker, by the holder of the reminder lease only: claims up
    /// to `REMINDERS_PER_BOT` due reminders of each of up to `bots` accounts and sends them,
    /// every bot's at once, each bot's in turn at Telegram's pace. Returns how many were sent;
    /// `None` when another process holds the lease.
    pub async fn deliver_reminders_once(self: &Arc<Self>, holder: &str, bots: u32) -> AppResult<Option<usize>> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        if !tx.take_lease(Lease::Reminders, holder, now, now + REMINDER_LEASE_FOR).await? {
            tx.commit().await?;
            return Ok(None);
        }
        let accounts = tx.accounts_with_due_reminders(now, bots).await?;
        let mut by_account = Vec::with_capacity(accounts.len());
        for account_id in accounts {
            let due = tx
                .claim_reminders(&account_id, Claim { now, lease_until: now + SEND_LEASE, limit: REMINDERS_PER_BOT })
                .await?;
            by_account.push((account_id, due));
        }
        tx.commit().await?;
        let mut bots = tokio::task::JoinSet::new();
        for (account_id, reminders) in by_account {
            let worker = self.clone();
            bots.spawn(async move { worker.send_reminders_of(&account_id, reminders).await });
        }
        let mut sent = 0;
        while let Some(done) = bots.join_next().await {
            match done {
                Ok(Ok(n)) => sent += n,
                Ok(Err(e)) => tracing::warn!(error = %e, "sending a bot's reminders failed; they are tried again"),
                Err(e) => tracing::error!(error = %e, "a bot's reminders stopped"),
            }
        }
        Ok(Some(sent))
    }

    /// Gives up the reminder lease (a clean stop).
    pub async fn release_reminder_lease(&self, holder: &str) -> AppResult<()> {
        crate::setting::release_lease(self.store.as_ref(), Lease::Reminders, holder).await
    }

    /// Sends one account's reminders through its bot, in order, no faster than Telegram takes.
    async fn send_reminders_of(&self, account_id: &AccountId, reminders: Vec<ReminderSend>) -> AppResult<usize> {
        let mut tx = self.store.read().await?;
        let bot = connected_bot(tx.as_mut(), account_id).await?;
        let account = tx.account(account_id).await?.ok_or(AppError::NotFound("account"))?;
        let renewal = tx.renewal_url(account_id).await?;
        tx.commit().await?;
        let Some(bot) = bot else {
            for reminder in reminders {
                self.settle(reminder, NextTry::GiveUp("the account has no connected bot".into())).await?;
            }
            return Ok(0);
        };
        let bot = partner_bot(&self.keys, bot)?;
        let mut sent = 0;
        let mut paused_until: Option<OffsetDateTime> = None;
        for mut reminder in reminders {
            // Telegram asked this bot to wait: the rest of its batch waits too.
            if let Some(until) = paused_until {
                reminder.last_error = Some("Telegram asked to wait".into());
                self.settle(reminder, NextTry::Later(until)).await?;
                continue;
            }
            // Whether it is still due is read in the unit of work that records it sent, before
            // it is handed to Telegram, which cannot tell a repeated message: a process that
            // dies during the call leaves it sent (at most once), and a failure puts it back.
            let mut tx = self.store.begin().await?;
            let message = self.reminder_message(tx.as_mut(), &account, renewal.as_deref(), &reminder).await?;
            match &message {
                Some(_) => {
                    reminder.attempts += 1;
                    reminder.sent_at = Some(self.clock.now());
                    reminder.next_attempt_at = None;
                    reminder.last_error = None;
                }
                None => record_outcome(&mut reminder, NextTry::GiveUp(STALE.into())),
            }
            tx.update_reminder(&reminder).await?;
            tx.commit().await?;
            let Some(message) = message else { continue };
            let Err(failure) = self.sender.send(&bot, &message, Pace::Outbox { chat_id: reminder.chat_id }).await
            else {
                sent += 1;
                continue;
            };
            let next = next_try(&failure, &bot.kind, reminder.attempts, self.clock.now());
            if let (BotFailure::RetryAfter(_), NextTry::Later(until)) = (&failure, &next) {
                paused_until = Some(*until);
            }
            if let BotFailure::ChatGone(reason) = &failure {
                self.unlink(&reminder, reason).await?;
            }
            reminder.sent_at = None;
            reminder.last_error = Some(failure.to_string());
            self.settle(reminder, next).await?;
        }
        Ok(sent)
    }

    /// A customer's chat refuses the bot: it is unlinked, so nothing more is queued for it.
    async fn unlink(&self, reminder: &ReminderSend, reason: &str) -> AppResult<()> {
        let mut tx = self.store.begin().await?;
        tx.unlink_chat(&reminder.account_id, reminder.chat_id).await?;
        tx.mark_chat_refused(&reminder.account_id, reminder.chat_id, self.clock.now()).await?;
        tx.commit().await?;
        tracing::info!(chat_id = reminder.chat_id, %reason, "a customer's chat refuses the bot; unlinked");
        Ok(())
    }

    /// The further subscription `client` is of the person whose chat `chat_id` is
    /// (docs/decisions.md, "Several subscriptions per person"), if it is one.
    async fn further_of_chat(
        &self,
        tx: &mut (impl vp_ports::BotCustomerRepo + ?Sized),
        account: &AccountRecord,
        client: &ClientRecord,
        chat_id: i64,
    ) -> AppResult<Option<vp_ports::PersonSubscription>> {
        let Some(further) = tx.person_subscription_of_client(&account.id, client.client_id.as_str()).await? else {
            return Ok(None);
        };
        let person = tx.bot_customers(&account.id, &[further.user_id]).await?.into_iter().next();
        Ok(person.filter(|p| p.chat_id == chat_id).map(|_| further))
    }

    /// Records what became of a reminder that was not sent.
    async fn settle(&self, mut reminder: ReminderSend, next: NextTry) -> AppResult<()> {
        record_outcome(&mut reminder, next);
        let mut tx = self.store.begin().await?;
        tx.update_reminder(&reminder).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The message of a reminder as it should go now, or `None` when it is no longer due: the
    /// client renewed (the term's end moved), unlinked the chat, or was blocked since.
    async fn reminder_message(
        &self,
        tx: &mut (
                 impl vp_ports::ReminderRepo
                 + vp_ports::SettingsRepo
                 + vp_ports::RenewalRepo
                 + vp_ports::InvoiceRepo
                 + vp_ports::ReferralRepo
                 + vp_ports::GiftRepo
                 + vp_ports::ShopRepo
                 + vp_ports::OfferRepo
                 + vp_ports::BotRepo
                 + vp_ports::BotCustomerRepo
                 + ?Sized
             ),
        account: &AccountRecord,
        renewal: Option<&str>,
        reminder: &ReminderSend,
    ) -> AppResult<Option<BotMessage>> {
        let Some(ReminderRecipient { client, linked_chat, language: lang, bot_customer_chat }) =
            tx.reminder_recipient(reminder).await?
        else {
            return Ok(None);
        };
        if client.blocked || linked_chat != Some(reminder.chat_id) {
            return Ok(None);
        }
        let further = self.further_of_chat(tx, account, &client, reminder.chat_id).await?;
        let message = |content| ReminderMessage {
            chat_id: reminder.chat_id,
            lang: lang.unwrap_or_default(),
            brand: account.brand_name.as_str().to_owned(),
            subscription: further.as_ref().and_then(|f| f.name.clone()),
            content,
        };
        // An inviter may have no subscription: their reward is then a credit.
        if reminder.kind == ReminderKind::Referral {
            let content = self.referral_content(tx, account, &client, reminder).await?;
            return Ok(content.map(|c| self.wording.reminder(&message(c))));
        }
        // A gift's paid message gives its links to pass on, whatever the buyer holds.
        if let (ReminderKind::Paid, Some(payment_id)) = (reminder.kind, &reminder.payment_id) {
            if let Some(gift) = tx.gift(payment_id).await? {
                let content = self.gift_content(tx, account, &gift).await?;
                return Ok(content.map(|c| self.wording.reminder(&message(c))));
            }
        }
        let Some(record) = client.subscription.as_ref() else { return Ok(None) };
        let sub = &record.subscription;
        let still_due = match reminder.kind {
            // A renewal since does not make a payment less received.
            ReminderKind::Paid => true,
            // Worded above, without a subscription.
            ReminderKind::Referral => false,
            ReminderKind::Expired => {
                sub.expires_at == reminder.term_ends_at
                    && sub.status_at(self.clock.now()) == SubscriptionStatus::Expired
            }
            ReminderKind::Expiring(_) | ReminderKind::RenewalDeclined => sub.expires_at == reminder.term_ends_at,
            // Not after a renewal, a pause or a change of plan since.
            ReminderKind::Traffic(_) => {
                sub.expires_at == reminder.term_ends_at && sub.is_active_at(self.clock.now()) && sub.traffic.is_some()
            }
        };
        if !still_due {
            return Ok(None);
        }
        // The chat's own shop customer renews in the shop (the subscription this is, when it is
        // a further one of theirs); a client linked from a subscription page where the partner
        // renews it. Either reads "your subscription": customers never chose the clients' ids,
        // and the reminder's dates tell a family's apart.
        let own = match bot_customer_chat == Some(reminder.chat_id) {
            true => Some(0),
            false => further.as_ref().map(|f| f.position),
        };
        let renew = match (own, renewal, account.style.support_url.as_deref()) {
            (Some(target), ..) => Renew::InShop { target },
            (None, Some(url), _) => Renew::Link(url.to_owned()),
            (None, None, Some(url)) => Renew::Support(url.to_owned()),
            (None, None, None) => Renew::Nowhere,
        };
        let zone = &account.time_zone;
        let content = match reminder.kind {
            ReminderKind::Paid => ReminderContent::Paid(self.connect(tx, account, &client).await?),
            ReminderKind::Referral => return Ok(None), // not due here (see `still_due`)
            ReminderKind::Expired => ReminderContent::Expired { renew },
            ReminderKind::Traffic(notice) => {
                let Some(limit) = sub.traffic else { return Ok(None) };
                // The count starts again by itself on the period's turn; a limit that never
                // resets starts again with a new term, so renewing is the way on.
                let resets_on = reminder
                    .payment_id
                    .as_deref()
                    .and_then(ReminderKind::traffic_period_start)
                    .and_then(|since| limit.reset.next_after(since))
                    .map(|at| zone.day(at));
                let renew = if resets_on.is_none() { renew } else { Renew::Nowhere };
                ReminderContent::Traffic { notice, limit, resets_on, renew }
            }
            ReminderKind::Expiring(threshold) => {
                // The 72 h reminder of a consenting customer says what will be charged and when.
                let consent = match threshold {
                    Threshold::Hours72 if renewable(sub) => tx.current_consent(&client.id).await?,
                    _ => None,
                };
                let auto_renewal = consent
                    .filter(|c| c.chargeable())
                    .map(|c| AutoRenewal { amount: c.price.customer, on: zone.day(charge_at(sub.expires_at)) });
                ReminderContent::Expiring { threshold, ends_on: zone.day(sub.expires_at), renew, auto_renewal }
            }
            ReminderKind::RenewalDeclined => {
                let declined = match &reminder.payment_id {
                    Some(id) => tx.invoice_by_id(id).await?,
                    None => None,
                };
                let Some(declined) = declined else { return Ok(None) };
                let charges = tx.renewal_charges_of_client(&client.id).await?;
                let retry = charges.into_iter().find(|c| c.term_ends_at == reminder.term_ends_at);
                let retry_on = retry
                    .filter(|c| c.state == vp_ports::RenewalChargeState::Due)
                    .and_then(|c| c.next_try_at)
                    .map(|at| zone.day(at));
                ReminderContent::RenewalDeclined {
                    amount: declined.amounts.customer,
                    retry_on,
                    ends_on: zone.day(sub.expires_at),
                    renew,
                }
            }
        };
        Ok(Some(self.wording.reminder(&message(content))))
    }

    /// The links of a paid gift for its buyer's chat; `None` once it was refunded.
    async fn gift_content(
        &self,
        tx: &mut (impl vp_ports::InvoiceRepo + vp_ports::OfferRepo + vp_ports::BotRepo + vp_ports::ShopRepo + ?Sized),
        account: &AccountRecord,
        gift: &vp_ports::GiftRecord,
    ) -> AppResult<Option<ReminderContent>> {
        let Some(invoice) = tx.invoice_by_id(&gift.payment_id).await? else { return Ok(None) };
        if gift.refunded_at.is_some() {
            return Ok(None);
        }
        let months = match invoice.purpose.plan_id() {
            Some(plan_id) => tx.plan(plan_id).await?.map_or(0, |p| if p.lifetime { 0 } else { p.months }),
            None => 0,
        };
        let links =
            crate::gift_links::links_now(tx, &self.keys, &self.public_base_url, &account.id, &gift.payment_id).await?;
        let paid_at = invoice.paid_at.unwrap_or(invoice.created_at);
        let until = account.time_zone.day(paid_at + vp_domain::gift::GIFT_LAPSES_AFTER);
        Ok(Some(ReminderContent::GiftPaid { months, bot_url: links.bot, web_url: links.web, until }))
    }

    /// What an invited friend's payment gave the inviter, as it stands now: `None` once a
    /// refund took it back.
    async fn referral_content(
        &self,
        tx: &mut (impl vp_ports::ReferralRepo + ?Sized),
        account: &AccountRecord,
        inviter: &ClientRecord,
        reminder: &ReminderSend,
    ) -> AppResult<Option<ReminderContent>> {
        let Some(payment_id) = &reminder.payment_id else { return Ok(None) };
        let reward = tx.referral_rewarded_by(payment_id).await?.and_then(|r| r.reward);
        let Some(reward) = reward.filter(|r| r.state != RewardState::Reversed) else { return Ok(None) };
        let ends_on = match reward.state {
            RewardState::Days => {
                inviter.subscription.as_ref().map(|r| account.time_zone.day(r.subscription.expires_at))
            }
            _ => None,
        };
        Ok(Some(ReminderContent::Referral { days: reward.days, ends_on }))
    }

    /// The client's subscription as its views show it and where to connect it (for "payment
    /// received": until when, the link, the connect page and its QR code).
    async fn connect(
        &self,
        tx: &mut (impl vp_ports::SettingsRepo + ?Sized),
        account: &AccountRecord,
        client: &ClientRecord,
    ) -> AppResult<Option<Connect>> {
        let app_list = load_app_list(tx).await?;
        let view = self.views.render(account, app_list.as_ref(), |v| v.client(client));
        Ok(view.subscription.zip(client.subscription.as_ref()).map(|(subscription, record)| Connect {
            subscription,
            page_url: connect_page_url(&self.public_base_url, &record.link_token, None),
        }))
    }
}

/// Why a reminder claimed for sending was not sent after all.
const STALE: &str = "no longer due (renewed, unlinked or blocked since)";

/// Sets what became of a reminder that was not sent on the record (the failure that made it
/// wait is already its `last_error`).
fn record_outcome(reminder: &mut ReminderSend, next: NextTry) {
    match next {
        NextTry::Later(at) => {
            reminder.next_attempt_at = Some(at);
        }
        NextTry::GiveUp(reason) => {
            tracing::info!(reminder = %reminder.id, %reason, "reminder not sent");
            reminder.next_attempt_at = None;
            reminder.last_error = Some(reason);
        }
    }
}
