//! Telegram Stars in partners' bots (docs/decisions.md, "Telegram Stars"): the operator's rate
//! (`set_rate`), the pre-checkout answer (`checkout`), the payments Telegram reports, each
//! applied once per charge through the one settlement of any payment (`checkout`), the refund
//! and the monthly Stars subscriptions (`subscriptions`). What the bot is asked for goes
//! through the payments' `StarsRail`.

mod checkout;
mod subscriptions;

use std::sync::Arc;

use vp_domain::AccountId;
use vp_domain::stars::StarsRate;
use vp_ports::{Clock, IdGenerator, Store};

pub use checkout::{CheckoutRefusal, StarsPayment};
pub use subscriptions::RenewalInTelegram;

use crate::audit::{Audit, AuditAction, Who};
use crate::consents::Consents;
use crate::error::{AppError, AppResult};
use crate::payments::{Payments, StarsRail};

pub struct Stars {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) ids: Arc<dyn IdGenerator>,
    pub(crate) payments: Arc<Payments>,
    pub(crate) rail: Arc<StarsRail>,
    pub(crate) consents: Arc<Consents>,
    pub(crate) audit: Audit,
}

impl Stars {
    /// `vp-api account stars`: the account's bot takes Stars at `rate` rubles per Star, or
    /// (`None`) no more. Invoices issued before keep their price.
    pub async fn set_rate(&self, account_id: &AccountId, rate: Option<StarsRate>) -> AppResult<()> {
        let mut tx = self.store.begin().await?;
        tx.account(account_id).await?.ok_or(AppError::NotFound("account"))?;
        tx.set_stars_rate(account_id, rate, self.clock.now()).await?;
        let detail = rate.map_or_else(|| "off".to_owned(), |r| format!("{} RUB per Star", r.rubles()));
        self.audit.record(tx.as_mut(), account_id, Who::Operator, AuditAction::StarsRateSet, detail).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The account's rate; `None` when its bot takes no Stars.
    pub async fn rate(&self, account_id: &AccountId) -> AppResult<Option<StarsRate>> {
        Ok(read!(self.store, |tx| tx.stars_rate(account_id)))
    }
}
