//! A partner's bot for the partner's customers (docs/telegram.md): a customer links a chat
//! with "Get reminders in Telegram" (a deep link carrying a one-time code bound to the client),
//! and the bot answers `/start`, `/status`, `/connect`, `/help`, `/language` and `/stop` in the
//! chat's language under the brand. A chat may be linked to several clients of the account (a
//! family); a client to one chat. A `/start` through a customer's personal link is an invitation
//! (`referrals`), and "Invite a friend" gives that link.

use time::Duration;
use vp_domain::AccountId;
use vp_domain::Lang;
use vp_domain::cabinet::Email;
use vp_domain::gift::GiftCode;
use vp_domain::promo::PromoCode;
use vp_domain::referral::ReferralCode;
use vp_ports::pages::connect_page_url;
use vp_ports::{
    AccountRepo, BotCommand, BotCustomerRepo, ButtonPress, ChatText, ClientChat, ClientLinkCode, ClientRepo,
    CustomerChatRepo, PartnerBotRecord, PromoRepo, ReferralRepo,
};

use super::{BotShop, Shopper};
use crate::bots::{connected_bot, language_of};
use crate::error::{AppError, AppResult};
use crate::referrals::PersonalLink;
use crate::views::{PanelUse, SubscriptionView};

/// A "Get reminders in Telegram" code works this long, once.
pub const CLIENT_CODE_VALID_FOR: Duration = Duration::hours(24);

/// After "I have a promo code", the next message within this time is read as the code.
pub const PROMO_ANSWER_WINDOW: Duration = Duration::minutes(15);

/// What the bot answers a chat with, decided in the unit of work that handled the update and
/// worded by the bot adapter after it committed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomerReply {
    pub lang: Lang,
    /// Who wrote: the person the shop serves.
    pub user_id: i64,
    pub kind: ReplyKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplyKind {
    /// The shop's welcome and menu: `/start` without a code, or anything not a command.
    Menu,
    Help,
    /// The chat was linked to a client just now: the status follows.
    Linked,
    LinkExpired,
    Status,
    Connect,
    LanguageSet,
    Stopped,
    /// The customer wrote an email address while the service sends receipts: kept as where
    /// their receipts go.
    ReceiptEmailSaved,
    /// Asked for a promo code, the customer wrote one the account has: kept for their next
    /// purchase.
    PromoSaved,
    /// Asked for a promo code, the customer wrote something the account has no code for.
    PromoUnknown,
    /// A new person came through a customer's personal link: the menu, welcomed as invited.
    Invited,
    /// Asked for a new subscription's name, the person wrote one: the plans for it follow.
    SubscriptionNamed {
        target: u32,
    },
    /// Asked for a new subscription's name, the person wrote what cannot be one.
    NameRefused,
    /// The person came through a gift link: redeemed (or refused) after this unit of work.
    Gift(GiftCode),
}

/// What "Invite a friend" gives a shopper.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InviteLink {
    /// The account has no referral program (any more), or no connected bot.
    Off,
    /// The link belongs to a client: the shopper becomes one with a first purchase or trial.
    NeedsClient,
    Link(PersonalLink),
}

/// The clients of the account linked to a chat, for `/status` and `/connect`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatClients {
    pub brand: String,
    pub clients: Vec<ChatClient>,
}

/// One client linked to a chat: its subscription, the devices the panel has (`None` when it
/// does not answer) and its connect page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatClient {
    /// The name its person gave it, for a further subscription of a bot's person.
    pub name: Option<String>,
    pub subscription: Option<SubscriptionView>,
    /// What the panel counts of its use.
    pub used: PanelUse,
    pub page_url: Option<String>,
}

/// The other language (the menu's switch and a bare `/language`).
fn other(lang: Lang) -> Lang {
    match lang {
        Lang::En => Lang::Ru,
        Lang::Ru => Lang::En,
    }
}

impl BotShop {
    /// The "Get reminders in Telegram" link of the client behind a subscription link token: a
    /// deep link to the account's bot carrying a one-time code (32 random bytes as 43 URL-safe
    /// characters, kept as SHA-256, valid 24 hours). `NotFound` without such a subscription or
    /// a connected bot.
    pub async fn reminders_link(&self, link_token: &str) -> AppResult<String> {
        let mut tx = self.store.begin().await?;
        let client = tx.client_by_link_token(link_token).await?.ok_or(AppError::NotFound("subscription"))?;
        let bot = connected_bot(tx.as_mut(), &client.account_id).await?.ok_or(AppError::NotFound("bot"))?;
        let code = self.tokens.random();
        tx.insert_client_link_code(&ClientLinkCode {
            code_hash: crate::keys::hash(&code),
            client_ref: client.id.clone(),
            expires_at: self.clock.now() + CLIENT_CODE_VALID_FOR,
        })
        .await?;
        tx.commit().await?;
        Ok(format!("https://t.me/{}?start={code}", bot.username))
    }

    /// "Invite a friend": the shopper's personal link to the account's bot and the days a
    /// friend's first payment gives them.
    pub async fn invite_link(&self, shopper: &Shopper) -> AppResult<InviteLink> {
        let Some(client) = self.client_record(shopper).await? else { return Ok(InviteLink::NeedsClient) };
        Ok(match self.referrals.personal_link(&shopper.account.id, &client.id).await? {
            Some(link) => InviteLink::Link(link),
            None => InviteLink::Off,
        })
    }

    /// Acts on what a customer wrote to the partner's bot, in the unit of work `tx` the update
    /// is handled in: links, unlinks, sets the language. Returns what to answer.
    pub(crate) async fn customer_said(
        &self,
        tx: &mut (impl AccountRepo + BotCustomerRepo + ClientRepo + CustomerChatRepo + PromoRepo + ReferralRepo + ?Sized),
        bot: &PartnerBotRecord,
        said: &ChatText,
    ) -> AppResult<CustomerReply> {
        let account_id = &bot.account_id;
        // Whether the bot knew the person matters to an invitation.
        let first_start = tx.touch_bot_customer(account_id, said.user_id, said.chat_id, self.clock.now()).await?;
        let mut lang = self.chat_reads(tx, account_id, said.chat_id, said.language.as_deref()).await?;
        let kind = match said.bot_command() {
            Some((BotCommand::Start, parameter)) if !parameter.is_empty() => {
                match (GiftCode::from_start(parameter), ReferralCode::from_start(parameter)) {
                    (Some(gift), _) => ReplyKind::Gift(gift),
                    (None, Some(code)) => {
                        match self.referrals.invite(tx, account_id, said.user_id, first_start, &code).await? {
                            true => ReplyKind::Invited,
                            false => ReplyKind::Menu,
                        }
                    }
                    (None, None) => match self.link_client(tx, account_id, said.chat_id, parameter).await? {
                        true => ReplyKind::Linked,
                        false => ReplyKind::LinkExpired,
                    },
                }
            }
            Some((BotCommand::Start, _)) => ReplyKind::Menu,
            Some((BotCommand::Help, _)) => ReplyKind::Help,
            Some((BotCommand::Status, _)) => ReplyKind::Status,
            Some((BotCommand::Connect, _)) => ReplyKind::Connect,
            Some((BotCommand::Language, asked)) => {
                // `/language ru` picks one; `/language` alone switches to the other.
                lang = Lang::from_code(asked).unwrap_or(other(lang));
                tx.set_chat_language(account_id, said.chat_id, lang).await?;
                ReplyKind::LanguageSet
            }
            Some((BotCommand::Stop, _)) => {
                tx.unlink_chat(account_id, said.chat_id).await?;
                ReplyKind::Stopped
            }
            None => match Email::parse(&said.text).ok().filter(|_| self.payments.receipts_on()) {
                Some(email) => {
                    tx.set_bot_customer_email(account_id, said.user_id, email.as_str()).await?;
                    ReplyKind::ReceiptEmailSaved
                }
                None => match self.name_said(tx, account_id, said).await? {
                    Some(super::several::Naming::Named { target }) => ReplyKind::SubscriptionNamed { target },
                    Some(super::several::Naming::Refused) => ReplyKind::NameRefused,
                    None => self.promo_said(tx, account_id, said).await?,
                },
            },
        };
        Ok(CustomerReply { lang, user_id: said.user_id, kind })
    }

    /// A message after the bot asked for a promo code (within `PROMO_ANSWER_WINDOW`) is read as
    /// one: a code the account has is kept for the next purchase; anything else is "no such
    /// code". Other messages get the menu.
    async fn promo_said(
        &self,
        tx: &mut (impl BotCustomerRepo + PromoRepo + ?Sized),
        account_id: &AccountId,
        said: &ChatText,
    ) -> AppResult<ReplyKind> {
        let customer = tx.bot_customers(account_id, &[said.user_id]).await?.into_iter().next();
        let asked = customer.and_then(|c| c.promo_asked_at);
        if asked.is_none_or(|at| self.clock.now() - at > PROMO_ANSWER_WINDOW) {
            return Ok(ReplyKind::Menu);
        }
        let found = match PromoCode::parse(&said.text) {
            Ok(code) => tx.promo_code(account_id, &code).await?.map(|p| p.code),
            Err(_) => None,
        };
        let kept = found.as_ref().map(PromoCode::as_str);
        tx.set_bot_customer_promo(account_id, said.user_id, kept, None).await?;
        Ok(if found.is_some() { ReplyKind::PromoSaved } else { ReplyKind::PromoUnknown })
    }

    /// Records a press on a shop button in the unit of work `tx` the update is handled in: the
    /// language switch (`switches_language`, as the adapter reads the button) is the one press
    /// that changes something there. Returns the language to answer in.
    pub(crate) async fn customer_pressed(
        &self,
        tx: &mut (impl BotCustomerRepo + CustomerChatRepo + ?Sized),
        bot: &PartnerBotRecord,
        press: &ButtonPress,
        switches_language: bool,
    ) -> AppResult<Lang> {
        let account_id = &bot.account_id;
        tx.touch_bot_customer(account_id, press.user_id, press.chat_id, self.clock.now()).await?;
        let mut lang = self.chat_reads(tx, account_id, press.chat_id, press.language.as_deref()).await?;
        if switches_language {
            lang = other(lang);
            tx.set_chat_language(account_id, press.chat_id, lang).await?;
        }
        Ok(lang)
    }

    /// The language the chat reads; the first time the chat is seen its Telegram app's is kept
    /// for it, so what the platform sends later on its own (reminders, the paid message) reads
    /// the same.
    async fn chat_reads(
        &self,
        tx: &mut (impl CustomerChatRepo + ?Sized),
        account_id: &AccountId,
        chat_id: i64,
        app: Option<&str>,
    ) -> AppResult<Lang> {
        let chosen = tx.chat_language(account_id, chat_id).await?;
        let lang = language_of(chosen, app);
        if chosen.is_none() {
            tx.set_chat_language(account_id, chat_id, lang).await?;
        }
        Ok(lang)
    }

    /// Links the chat to the client a good code names (of this account, not expired).
    async fn link_client(
        &self,
        tx: &mut (impl ClientRepo + CustomerChatRepo + ?Sized),
        account_id: &AccountId,
        chat_id: i64,
        code: &str,
    ) -> AppResult<bool> {
        let now = self.clock.now();
        let Some(code) = tx.take_client_link_code(&crate::keys::hash(code)).await? else { return Ok(false) };
        let client = tx.client_by_ref(&code.client_ref).await?;
        if code.expires_at <= now || client.as_ref().is_none_or(|c| c.account_id != account_id) {
            return Ok(false);
        }
        let linked =
            ClientChat { client_ref: code.client_ref, account_id: account_id.clone(), chat_id, linked_at: now };
        tx.link_client_chat(&linked).await?;
        Ok(true)
    }

    /// The clients of the account linked to the chat, oldest link first, with what `/status`
    /// and `/connect` show of each.
    pub async fn chat_clients(&self, bot: &PartnerBotRecord, chat_id: i64) -> AppResult<ChatClients> {
        let mut tx = self.store.read().await?;
        let account = tx.account(&bot.account_id).await?.ok_or(AppError::NotFound("account"))?;
        let linked = tx.chat_clients(&bot.account_id, chat_id).await?;
        let mut records = Vec::with_capacity(linked.len());
        let mut names = Vec::with_capacity(linked.len());
        for l in &linked {
            if let Some(client) = tx.client_by_ref(&l.client_ref).await? {
                let further = tx.person_subscription_of_client(&bot.account_id, client.client_id.as_str()).await?;
                names.push(further.and_then(|f| f.name));
                records.push(client);
            }
        }
        tx.commit().await?;
        let views = self.views.render(&account, None, |v| records.iter().map(|c| v.client(c)).collect::<Vec<_>>());
        let mut clients = Vec::with_capacity(records.len());
        for ((record, view), name) in records.iter().zip(views).zip(names) {
            let used = self.views.panel_use(record).await;
            let page_url =
                record.subscription.as_ref().map(|s| connect_page_url(&self.public_base_url, &s.link_token, None));
            clients.push(ChatClient { name, subscription: view.subscription, used, page_url });
        }
        Ok(ChatClients { brand: account.brand_name.as_str().to_owned(), clients })
    }
}
