//! Broadcasts and their chats (docs/decisions.md, "Broadcasts").

use async_trait::async_trait;
use time::OffsetDateTime;
use vp_domain::broadcast::BroadcastState;

use super::{Claim, StoreResult};
use crate::broadcast::{BotAudienceMember, BroadcastChat, BroadcastCounts, BroadcastRecord};

#[async_trait]
pub trait BroadcastRepo: Send {
    /// Everyone who started the account's bot, with what an audience is chosen by.
    async fn bot_audience(&mut self, account_id: &str) -> StoreResult<Vec<BotAudienceMember>>;
    /// A new broadcast with its chats, all left.
    async fn insert_broadcast(&mut self, broadcast: &BroadcastRecord, chats: &[BroadcastChat]) -> StoreResult<()>;
    async fn broadcast(&mut self, id: &str) -> StoreResult<Option<BroadcastRecord>>;
    /// The account's broadcasts, newest first, at most `limit`.
    async fn broadcasts(&mut self, account_id: &str, limit: u32) -> StoreResult<Vec<BroadcastRecord>>;
    async fn set_broadcast_state(
        &mut self,
        id: &str,
        state: BroadcastState,
        finished_at: Option<OffsetDateTime>,
    ) -> StoreResult<()>;
    async fn broadcast_counts(&mut self, id: &str) -> StoreResult<BroadcastCounts>;
    /// Broadcasts being sent, oldest first, at most `limit`.
    async fn sending_broadcasts(&mut self, limit: u32) -> StoreResult<Vec<BroadcastRecord>>;
    /// Takes up to `claim.limit` chats of the broadcast that are left and due, holding each
    /// until `claim.lease_until` so no other worker takes it meanwhile.
    async fn claim_broadcast_chats(&mut self, broadcast_id: &str, claim: Claim) -> StoreResult<Vec<BroadcastChat>>;
    async fn update_broadcast_chat(&mut self, chat: &BroadcastChat) -> StoreResult<()>;
}
