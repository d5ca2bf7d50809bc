//! The Telegram side of Stars payments: what the account's own bot is asked for (an invoice
//! link, a refund, a cancelled subscription), through the bots' one sender. A Stars payment is
//! the bot's: an account without a connected bot takes none.

use std::sync::Arc;

use vp_domain::AccountId;
use vp_ports::{AccountRecord, GatewayError, StarsCharge, StarsInvoice, StarsInvoiceLink, StarsSubscription, Store};

use crate::bots::partner_bot;
use crate::bots::sender::{ActiveBot, BotFailure, BotSender};
use crate::error::{AppError, AppResult, Refusal};
use crate::secrets::SecretKeys;

/// Telegram's longest invoice title, in characters.
const TITLE_CHARS: usize = 32;

pub struct StarsRail {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) keys: Arc<SecretKeys>,
    pub(crate) sender: Arc<BotSender>,
}

/// A failed call as the invoice's issue reads it: an outage may be retried with the same key;
/// anything else is a definite "no".
fn issue_failure(failure: BotFailure) -> GatewayError {
    match failure {
        BotFailure::Retry(reason) => GatewayError::Unavailable(reason),
        BotFailure::RetryAfter(_) => GatewayError::Unavailable(failure.to_string()),
        BotFailure::BotRevoked | BotFailure::ChatGone(_) => GatewayError::Rejected(failure.to_string()),
    }
}

/// A failed call as an operator's or a customer's action reads it.
fn action_failure(failure: BotFailure) -> AppError {
    match failure {
        BotFailure::Retry(_) | BotFailure::RetryAfter(_) => Refusal::PaymentUnavailable.into(),
        other => AppError::External(other.to_string()),
    }
}

impl StarsRail {
    /// The account's connected bot.
    async fn bot(&self, account_id: &AccountId) -> AppResult<Option<ActiveBot>> {
        let bot = read!(self.store, |tx| tx.partner_bot(account_id));
        bot.filter(|b| b.disconnected_at.is_none()).map(|b| partner_bot(&self.keys, b)).transpose()
    }

    async fn bot_or_refuse(&self, account_id: &AccountId) -> AppResult<ActiveBot> {
        self.bot(account_id).await?.ok_or_else(|| AppError::Conflict("the account's bot is not connected".into()))
    }

    /// The link that opens Telegram's payment form for `invoice` (payload: its id).
    pub(crate) async fn invoice_link(
        &self,
        account: &AccountRecord,
        invoice: &StarsInvoice,
        description: &str,
    ) -> Result<String, GatewayError> {
        let bot = match self.bot(&account.id).await {
            Ok(Some(bot)) => bot,
            Ok(None) => return Err(GatewayError::MethodUnavailable("the account's bot is not connected".into())),
            Err(e) => return Err(GatewayError::Unavailable(e.to_string())),
        };
        let link = StarsInvoiceLink {
            title: account.brand_name.as_str().chars().take(TITLE_CHARS).collect(),
            description: description.to_owned(),
            payload: invoice.payment_id.clone(),
            label: description.to_owned(),
            stars: invoice.stars,
            subscription: invoice.subscription,
        };
        self.sender.stars_invoice_link(&bot, &link).await.map_err(issue_failure)
    }

    /// Gives the Stars of `charge` back.
    pub(crate) async fn refund(&self, charge: &StarsCharge) -> AppResult<()> {
        let bot = self.bot_or_refuse(&charge.account_id).await?;
        self.sender.refund_stars(&bot, charge.user_id, &charge.charge_id).await.map_err(action_failure)
    }

    /// Telegram charges `subscription` no more.
    pub(crate) async fn cancel(&self, subscription: &StarsSubscription) -> AppResult<()> {
        let bot = self.bot_or_refuse(&subscription.account_id).await?;
        self.sender
            .cancel_stars_subscription(&bot, subscription.user_id, &subscription.charge_id)
            .await
            .map_err(action_failure)
    }
}
