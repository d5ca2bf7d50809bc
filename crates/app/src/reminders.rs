//! The platform's own reminders (spec: term events, rule 6): a customer linked to the
//! partner's bot is told 72 and 24 hours before the end of the term and once when access ends,
//! in the chat's language and under the brand, with a button to renew. The term check decides
//! a reminder in the same unit of work as the partner's term event (so the same rules: once per
//! term, none for lifetime or blocked clients, a renewal counts again) and writes it to the
//! outbox; the reminder worker sends it, one process at a time (a lease), at most 30 messages
//! a second per bot together with the bot's answers (`bot_pace`) and one a second per chat,
//! honouring Telegram's `retry_after`.

use time::{Duration, OffsetDateTime};
use vp_domain::{Lang, SubscriptionStatus};
use vp_i18n::{text, text_with};
use vp_ports::{
    AccountRecord, BotApiError, BotMessage, Button, ClientRecord, InvoiceRecord, ReminderKind, ReminderRecipient,
    ReminderSend, Tx,
};

use crate::App;
use crate::bots::connected_bot;
use crate::cabinet::Actor;
use crate::error::{AppError, AppResult, FieldErrors};
use crate::notices::{SEND_ATTEMPTS, send_retry_delay};

/// The lease whose holder sends the reminders.
pub const REMINDER_LEASE: &str = "telegram-reminders";
/// Longer than a round (a bot's batch takes about 8 s at Telegram's pace).
const REMINDER_LEASE_FOR: Duration = Duration::seconds(30);
/// A bot's reminders claimed per round: 8 seconds at 30 a second.
pub const REMINDERS_PER_BOT: u32 = 240;
/// A claimed reminder is not picked up again for this long (its holder may still send it).
const SEND_LEASE: Duration = Duration::minutes(2);

/// What becomes of a reminder that was not sent.
enum Outcome {
    /// Try again at this time, with this reason.
    Later(OffsetDateTime, String),
    /// Not sent and never will be, with this reason.
    Dropped(String),
}

impl App {
    /// Queues "payment received" with the connect link to the chat the invoice's client is
    /// linked to in the account's connected bot, in the unit of work that records the payment
    /// (so it is sent once the payment commits, and never for one that did not).
    pub(crate) async fn queue_paid_message(&self, tx: &mut dyn Tx, invoice: &InvoiceRecord) -> AppResult<()> {
        let Some(chat) = tx.client_chat(&invoice.client_ref).await? else { return Ok(()) };
        if connected_bot(tx, &invoice.account_id).await?.is_none() {
            return Ok(());
        }
        let Some(client) = tx.client_by_ref(&invoice.client_ref).await? else { return Ok(()) };
        let Some(ends) = client.subscription.as_ref().map(|r| r.subscription.expires_at) else { return Ok(()) };
        let payment = Some(invoice.payment_id.clone());
        self.queue_reminder(tx, &client, chat.chat_id, ReminderKind::Paid, ends, payment).await
    }

    /// Queues the message of `kind` (a reminder of the client's term ending at `term_ends_at`,
    /// or the paid message of the invoice `payment_id`) to its chat in the account's connected
    /// bot, in the unit of work that decided it, unless the client is blocked. Once per term
    /// and kind (per invoice for a paid message): a second one is not queued.
    pub(crate) async fn queue_reminder(
        &self,
        tx: &mut dyn Tx,
        client: &ClientRecord,
        chat_id: i64,
        kind: ReminderKind,
        term_ends_at: OffsetDateTime,
        payment_id: Option<String>,
    ) -> AppResult<()> {
        if client.blocked {
            return Ok(());
        }
        let now = self.clock.now();
        let reminder = ReminderSend {
            id: self.ids.new_id("rmd"),
            account_id: client.account_id.clone(),
            client_ref: client.id.clone(),
            chat_id,
            kind,
            term_ends_at,
            payment_id,
            created_at: now,
            attempts: 0,
            next_attempt_at: Some(now),
            sent_at: None,
            last_error: None,
        };
        tx.insert_reminder(&reminder).await?;
        Ok(())
    }

    /// One round of the reminder worker, by the holder of the reminder lease only: claims up
    /// to `REMINDERS_PER_BOT` due reminders of each of up to `bots` accounts and sends them,
    /// every bot's at once, each bot's in turn at Telegram's pace. Returns how many were sent;
    /// `None` when another process holds the lease.
    pub async fn deliver_reminders_once(&self, holder: &str, bots: u32) -> AppResult<Option<usize>> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        if !tx.take_lease(REMINDER_LEASE, holder, now, now + REMINDER_LEASE_FOR).await? {
            tx.commit().await?;
            return Ok(None);
        }
        let accounts = tx.accounts_with_due_reminders(now, bots).await?;
        let mut by_account = Vec::with_capacity(accounts.len());
        for account_id in accounts {
            let due = tx.claim_reminders(&account_id, now, now + SEND_LEASE, REMINDERS_PER_BOT).await?;
            by_account.push((account_id, due));
        }
        tx.commit().await?;
        let mut bots = tokio::task::JoinSet::new();
        for (account_id, reminders) in by_account {
            let app = self.clone();
            bots.spawn(async move { app.send_reminders_of(&account_id, reminders).await });
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
        let mut tx = self.store.begin().await?;
        tx.release_lease(REMINDER_LEASE, holder).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Sends one account's reminders through its bot, in order, no faster than Telegram takes.
    async fn send_reminders_of(&self, account_id: &str, reminders: Vec<ReminderSend>) -> AppResult<usize> {
        let mut tx = self.store.read().await?;
        let bot = connected_bot(tx.as_mut(), account_id).await?;
        let account = tx.account(account_id).await?.ok_or(AppError::NotFound("account"))?;
        let renewal = tx.renewal_url(account_id).await?;
        tx.commit().await?;
        let Some(bot) = bot else {
            for reminder in reminders {
                self.settle(reminder, Outcome::Dropped("the account has no connected bot".into())).await?;
            }
            return Ok(0);
        };
        let token = self.bot_token(&bot)?;
        let mut sent = 0;
        let mut paused_until: Option<OffsetDateTime> = None;
        for mut reminder in reminders {
            // Telegram asked this bot to wait: the rest of its batch waits too.
            if let Some(until) = paused_until {
                self.settle(reminder, Outcome::Later(until, "Telegram asked to wait".into())).await?;
                continue;
            }
            self.bot_pace.wait(bot.bot_id, Some(reminder.chat_id)).await;
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
                None => record_outcome(&mut reminder, Outcome::Dropped(STALE.into())),
            }
            tx.update_reminder(&reminder).await?;
            tx.commit().await?;
            let Some(message) = message else { continue };
            let Err(e) = self.bots.send_message(&token, &message).await else {
                sent += 1;
                continue;
            };
            let (throttled, revoked) = (matches!(e, BotApiError::Throttled(_)), e == BotApiError::Rejected);
            let outcome = self.reminder_outcome(&reminder, e).await?;
            if let (true, Outcome::Later(until, _)) = (throttled, &outcome) {
                paused_until = Some(*until);
            }
            if revoked {
                let mut tx = self.store.begin().await?;
                self.bot_token_revoked(tx.as_mut(), &bot).await?;
                tx.commit().await?;
            }
            reminder.sent_at = None;
            self.settle(reminder, outcome).await?;
        }
        Ok(sent)
    }

    /// Records what became of a reminder that was not sent.
    async fn settle(&self, mut reminder: ReminderSend, outcome: Outcome) -> AppResult<()> {
        record_outcome(&mut reminder, outcome);
        let mut tx = self.store.begin().await?;
        tx.update_reminder(&reminder).await?;
        tx.commit().await?;
        Ok(())
    }

    /// What a failed send means for the reminder; a chat that blocked the bot is unlinked.
    async fn reminder_outcome(&self, reminder: &ReminderSend, e: BotApiError) -> AppResult<Outcome> {
        let now = self.clock.now();
        let later = |reason: String, at_least: Duration| {
            if reminder.attempts >= SEND_ATTEMPTS {
                Outcome::Dropped(format!("given up after {} attempts: {reason}", reminder.attempts))
            } else {
                Outcome::Later(now + send_retry_delay(reminder.attempts).max(at_least), reason)
            }
        };
        Ok(match e {
            BotApiError::Throttled(wait) => Outcome::Later(
                now + Duration::try_from(wait).unwrap_or(Duration::hours(1)),
                "Telegram asked to wait".into(),
            ),
            BotApiError::ChatGone(reason) => {
                let mut tx = self.store.begin().await?;
                tx.unlink_chat(&reminder.account_id, reminder.chat_id).await?;
                tx.commit().await?;
                tracing::info!(chat_id = reminder.chat_id, %reason, "a customer's chat refuses the bot; unlinked");
                Outcome::Dropped(format!("the chat is gone: {reason}"))
            }
            BotApiError::Rejected => Outcome::Dropped("the bot's token was revoked".into()),
            e @ (BotApiError::Unavailable(_) | BotApiError::Conflict(_)) => later(e.to_string(), Duration::ZERO),
        })
    }

    /// The message of a reminder as it should go now, or `None` when it is no longer due: the
    /// client renewed (the term's end moved), unlinked the chat, or was blocked since.
    async fn reminder_message(
        &self,
        tx: &mut dyn Tx,
        account: &AccountRecord,
        renewal: Option<&str>,
        reminder: &ReminderSend,
    ) -> AppResult<Option<BotMessage>> {
        let Some(ReminderRecipient { client, linked_chat, language: lang }) = tx.reminder_recipient(reminder).await?
        else {
            return Ok(None);
        };
        if client.blocked {
            return Ok(None);
        }
        let Some(record) = client.subscription.as_ref() else { return Ok(None) };
        let sub = &record.subscription;
        let still_due = linked_chat == Some(reminder.chat_id)
            && match reminder.kind {
                // A renewal since does not make a payment less received.
                ReminderKind::Paid => true,
                ReminderKind::Expired => {
                    sub.expires_at == reminder.term_ends_at
                        && sub.status_at(self.clock.now()) == SubscriptionStatus::Expired
                }
                ReminderKind::Expiring72 | ReminderKind::Expiring24 => sub.expires_at == reminder.term_ends_at,
            };
        if !still_due {
            return Ok(None);
        }
        let lang = lang.as_deref().and_then(Lang::from_code).unwrap_or_default();
        let brand = account.brand_name.as_str();
        let client_id = client.client_id.as_str();
        // The chat's own shop customer reads "your subscription" and renews in the shop; a
        // client linked from a subscription page is named (a chat may hold a family).
        let shop_customer = crate::bot_shop::bot_user_of(client_id) == Some(reminder.chat_id);
        let (expiring, expired) = match shop_customer {
            true => ("bot-reminder-expiring-yours", "bot-reminder-expired-yours"),
            false => ("bot-reminder-expiring", "bot-reminder-expired"),
        };
        let body = match reminder.kind {
            ReminderKind::Paid => {
                return self.paid_message(tx, account, &client, reminder.chat_id, lang).await.map(Some);
            }
            ReminderKind::Expired => text_with(lang, expired, &[("brand", brand.into()), ("client", client_id.into())]),
            ReminderKind::Expiring72 | ReminderKind::Expiring24 => {
                let days: i64 = if reminder.kind == ReminderKind::Expiring72 { 3 } else { 1 };
                text_with(
                    lang,
                    expiring,
                    &[
                        ("brand", brand.into()),
                        ("client", client_id.into()),
                        ("day", sub.expires_at.date().into()),
                        ("days", days.into()),
                    ],
                )
            }
        };
        let renew = text(lang, "bot-reminder-renew");
        let button = match (shop_customer, renewal, account.style.support_url.as_deref()) {
            (true, ..) => Some(Button::press(renew, crate::bot_shop::Choice::Plans.data())),
            (false, Some(url), _) => Some(Button::link(renew, url)),
            (false, None, Some(url)) => Some(Button::link(text(lang, "bot-reminder-support"), url)),
            (false, None, None) => None,
        };
        Ok(Some(BotMessage::text(reminder.chat_id, body).with_buttons(button.into_iter().collect())))
    }

    /// "Payment received", until when, the subscription link and its QR code (the connect
    /// page's `qr_payload`), with the connect page and the shop's subscription screen.
    async fn paid_message(
        &self,
        tx: &mut dyn Tx,
        account: &AccountRecord,
        client: &ClientRecord,
        chat_id: i64,
        lang: Lang,
    ) -> AppResult<BotMessage> {
        let app_list = self.load_app_list(tx).await?;
        let view = self.with_views(account, app_list.as_ref(), |v| v.client(client));
        let brand = account.brand_name.as_str();
        let (Some(sub), Some(record)) = (view.subscription, client.subscription.as_ref()) else {
            return Ok(BotMessage::text(chat_id, text_with(lang, "shop-paid-lifetime", &[("brand", brand.into())])));
        };
        let paid = if sub.lifetime {
            text_with(lang, "shop-paid-lifetime", &[("brand", brand.into())])
        } else {
            text_with(lang, "shop-paid", &[("brand", brand.into()), ("day", sub.expires_at.date().into())])
        };
        let mine = Button::press(text(lang, "shop-menu-subscription"), crate::bot_shop::Choice::Subscription.data());
        Ok(self.connect_message(chat_id, lang, &sub, &record.link_token, paid, mine))
    }

    /// The account's renewal link, where reminders send a customer (for the cabinet).
    pub async fn cabinet_renewal_url(&self, actor: &Actor) -> AppResult<Option<String>> {
        let mut tx = self.store.read().await?;
        let url = tx.renewal_url(actor.account_id()).await?;
        tx.commit().await?;
        Ok(url)
    }

    /// Sets (an https address) or clears (empty) the account's renewal link.
    pub async fn cabinet_set_renewal_url(&self, actor: &Actor, url: &str) -> AppResult<Option<String>> {
        let url = url.trim();
        let url = match url {
            "" => None,
            given => Some(crate::style::https_url(given).map_err(|why| {
                let mut errors = FieldErrors::new();
                errors.insert("renewal_url".to_owned(), why);
                AppError::Validation(errors)
            })?),
        };
        let mut tx = self.store.begin().await?;
        tx.set_renewal_url(actor.account_id(), url.as_deref()).await?;
        let detail = url.clone().unwrap_or_else(|| "cleared".into());
        self.audit(tx.as_mut(), actor.account_id(), actor.into(), crate::cabinet::audit::RENEWAL_LINK_SET, detail)
            .await?;
        tx.commit().await?;
        Ok(url)
    }
}

/// Why a reminder claimed for sending was not sent after all.
const STALE: &str = "no longer due (renewed, unlinked or blocked since)";

/// Sets what became of a reminder that was not sent on the record.
fn record_outcome(reminder: &mut ReminderSend, outcome: Outcome) {
    match outcome {
        Outcome::Later(at, reason) => {
            reminder.next_attempt_at = Some(at);
            reminder.last_error = Some(reason);
        }
        Outcome::Dropped(reason) => {
            tracing::info!(reminder = %reminder.id, %reason, "reminder not sent");
            reminder.next_attempt_at = None;
            reminder.last_error = Some(reason);
        }
    }
}
