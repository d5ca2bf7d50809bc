//! Telegram's pace for a bot, kept by this process for everything a bot sends: about 30
//! messages a second in all, and one a second to a chat for what the platform sends on its own
//! (reminders, paid messages). A send reserves the bot's next free slot and waits for it, so
//! answers to people and the outbox share the 30 a second instead of each taking it whole; a
//! send that wakes late moves the slots after it, so a stall is never followed by a burst.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

/// Between two messages of one bot: a little over 1/30 s.
pub const BOT_GAP: Duration = Duration::from_millis(34);
/// Between two messages the platform sends on its own to one chat.
pub const CHAT_GAP: Duration = Duration::from_secs(1);
/// Chats' last sends are forgotten once a bot has this many, keeping the recent ones.
const CHATS_KEPT: usize = 10_000;

#[derive(Default)]
struct BotSlots {
    /// When the bot may send next.
    next: Option<Instant>,
    /// When each chat last got a paced message.
    chats: HashMap<i64, Instant>,
}

#[derive(Default)]
pub struct BotPace {
    bots: Mutex<HashMap<i64, BotSlots>>,
}

impl BotPace {
    /// Waits for the bot's next slot; with `chat`, first until a second after the chat's last
    /// paced message. An answer to a person passes `None`: they are waiting for it.
    pub async fn wait(&self, bot_id: i64, chat: Option<i64>) {
        if let Some(ready) = chat.and_then(|chat| self.chat_ready(bot_id, chat)) {
            // Waited apart from the bot's slots, so the bot's other chats are not held up.
            tokio::time::sleep_until(ready).await;
        }
        let slot = self.reserve(bot_id, chat, Instant::now());
        tokio::time::sleep_until(slot).await;
        self.woke(bot_id, Instant::now());
    }

    /// A send woke at `at`, perhaps late (a busy process): the next one waits a full gap after
    /// it, so a late send is never followed by a burst catching up on its slots.
    fn woke(&self, bot_id: i64, at: Instant) {
        let mut bots = self.slots();
        let bot = bots.entry(bot_id).or_default();
        bot.next = Some(bot.next.map_or(at + BOT_GAP, |next| next.max(at + BOT_GAP)));
    }

    fn slots(&self) -> std::sync::MutexGuard<'_, HashMap<i64, BotSlots>> {
        // A poisoned lock only means another send panicked mid-update; the slots stay valid.
        self.bots.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// When the chat may get the platform's next message.
    fn chat_ready(&self, bot_id: i64, chat: i64) -> Option<Instant> {
        self.slots().get(&bot_id)?.chats.get(&chat).map(|last| *last + CHAT_GAP)
    }

    /// Takes the bot's next free slot (recording it as the chat's last, for a paced message).
    fn reserve(&self, bot_id: i64, chat: Option<i64>, now: Instant) -> Instant {
        let mut bots = self.slots();
        let bot = bots.entry(bot_id).or_default();
        let slot = bot.next.map_or(now, |next| next.max(now));
        bot.next = Some(slot + BOT_GAP);
        if let Some(chat) = chat {
            if bot.chats.len() >= CHATS_KEPT {
                bot.chats.retain(|_, last| *last + CHAT_GAP > now);
            }
            bot.chats.insert(chat, slot);
        }
        slot
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bots_sends_are_spaced_a_thirtieth_of_a_second_apart_whoever_sends_them() {
        let pace = BotPace::default();
        let now = Instant::now();
        let slots: Vec<Duration> = (0..30).map(|i| pace.reserve(7, (i % 2 == 0).then_some(i), now) - now).collect();
        assert_eq!(slots[0], Duration::ZERO);
        assert!(slots.windows(2).all(|w| w[1] - w[0] == BOT_GAP), "{slots:?}");
        assert!(slots[29] >= Duration::from_millis(29 * 34), "30 sends take about a second");
        assert_eq!(pace.reserve(8, None, now), now, "another bot has its own pace");
    }

    #[test]
    fn a_send_that_woke_late_pushes_the_next_one_a_full_gap_after_it() {
        let pace = BotPace::default();
        let now = Instant::now();
        assert_eq!(pace.reserve(7, None, now), now);
        pace.woke(7, now + Duration::from_millis(100));
        let next = pace.reserve(7, None, now + Duration::from_millis(100));
        assert_eq!(next - now, Duration::from_millis(100) + BOT_GAP, "no catching up");
    }

    #[test]
    fn the_platforms_own_messages_to_one_chat_wait_a_second_without_holding_up_the_bot() {
        let pace = BotPace::default();
        let now = Instant::now();
        assert_eq!(pace.chat_ready(7, 1), None);
        assert_eq!(pace.reserve(7, Some(1), now), now);
        assert_eq!(pace.chat_ready(7, 1), Some(now + CHAT_GAP), "the same chat a second later");
        assert_eq!(pace.reserve(7, Some(2), now) - now, BOT_GAP, "another chat in the bot's next slot");
        assert_eq!(pace.reserve(7, None, now) - now, 2 * BOT_GAP, "an answer too");
        assert_eq!(pace.chat_ready(7, 3), None, "an answer leaves its chat unpaced");
    }
}
