//! A broadcast's preview (docs/decisions.md, "Broadcasts"): before the cabinet sends one, its
//! texts go through the partner's own bot to the chats the partner linked for notices, exactly
//! as customers will get them, and the page says how many customers the audience holds now.
//! A Telegram user's private chat has the same id with every bot, so a linked chat can get the
//! partner's bot's message once its person started that bot.

use vp_domain::Lang;

use super::Acting;
use super::sending::message;
use super::{BroadcastContent, Broadcasts, NewBroadcast, audience_of};
use crate::bots::sender::{BotFailure, Pace};
use crate::bots::{connected_bot, partner_bot};
use crate::error::{AppResult, Declined};

/// What a preview did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BroadcastPreview {
    /// What was previewed and will be sent, as read.
    pub content: BroadcastContent,
    /// The bot's username, for "start @bot first".
    pub bot_username: String,
    /// Customers the broadcast would go to now.
    pub audience: usize,
    /// Linked chats that got the preview.
    pub delivered: Vec<i64>,
    /// Linked chats the bot could not write to, with Telegram's reason (most often: the person
    /// has not started the partner's bot).
    pub refused: Vec<(i64, String)>,
}

impl Broadcasts {
    /// Sends `new` to the account's linked chats through its bot, each text once (the Russian
    /// one too when there is one), and counts its audience; records nothing. The same
    /// refusals as `send`.
    pub async fn preview(&self, by: Acting<'_>, new: &NewBroadcast) -> AppResult<BroadcastPreview> {
        let account_id = by.account_id();
        let content = new.read()?;
        let now = self.clock.now();
        let mut tx = self.store.read().await?;
        let bot = connected_bot(tx.as_mut(), account_id).await?.ok_or(Declined::BroadcastNoBot)?;
        let audience = audience_of(tx.as_mut(), account_id, new.audience, now).await?.len();
        let chats = tx.partner_chats(account_id).await?;
        tx.commit().await?;
        let bot_username = bot.username.clone();
        let bot = partner_bot(&self.keys, bot)?;
        let langs: &[Lang] = if content.text_ru.is_some() { &[Lang::En, Lang::Ru] } else { &[Lang::En] };
        let c = &content;
        let (mut delivered, mut refused) = (Vec::new(), Vec::new());
        for chat in chats {
            let mut failure = None;
            for lang in langs {
                let shown = message(&c.text, c.text_ru.as_ref(), c.button.as_ref(), chat.chat_id, *lang);
                if let Err(e) = self.sender.send(&bot, &shown, Pace::Answer).await {
                    failure = Some(e);
                    break;
                }
            }
            match failure {
                None => delivered.push(chat.chat_id),
                Some(BotFailure::BotRevoked) => return Err(Declined::BroadcastNoBot.into()),
                Some(e) => refused.push((chat.chat_id, e.to_string())),
            }
        }
        Ok(BroadcastPreview { content, bot_username, audience, delivered, refused })
    }
}
