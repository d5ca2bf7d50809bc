//! Gift subscriptions (docs/decisions.md, "Gift subscriptions"): a buyer in the bot or the web
//! shop pays for a plan with an invoice of their own client, marked as a gift when it is
//! issued; its payment grants the buyer nothing and makes a code (`paid`) that grants the
//! plan's term, once, to whoever redeems it in the bot or the web shop. The partner's operator
//! refunds a gift nobody redeemed; one nobody redeems lapses (`vp_domain::gift`).
//! The code and the links are `gift_links`'.

mod paid;

use std::sync::Arc;

use time::OffsetDateTime;
use vp_domain::gift::{GiftCode, GiftFacts, GiftRefused, GiftState};
use vp_domain::{AccountId, ClientId, ClientRef, InvoiceStatus, Lang, Money, PaymentId, Purpose};
use vp_ports::{AccountRecord, ClientRecord, Clock, GiftRecord, IdGenerator, InvoiceRecord, PlanRecord, Store, Tx};

pub(crate) use paid::GiftNotices;

use crate::audit::{Audit, AuditAction, Who};
use crate::clients::PanelSync;
use crate::clients::limits::check_new_client_limit;
use crate::error::{AppError, AppResult, Refusal};
use crate::gift_links::{GiftLinks, gift_code, links_now};
use crate::keys::hash;
use crate::payments::Payments;
use crate::secrets::SecretKeys;

/// At most this many gifts on the cabinet's list.
pub const GIFTS_LISTED: u32 = 200;

/// A gift as the partner's cabinet and the gift's page show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GiftView {
    pub payment_id: PaymentId,
    /// The buyer's client.
    pub buyer: ClientId,
    pub recipient_email: Option<String>,
    pub plan: Option<PlanRecord>,
    /// What the buyer paid.
    pub amount: Money,
    pub created_at: OffsetDateTime,
    pub state: GiftState,
    /// The client whose subscription it started or extended.
    pub redeemed_by: Option<ClientId>,
}

pub struct Gifts {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) ids: Arc<dyn IdGenerator>,
    pub(crate) keys: Arc<SecretKeys>,
    pub(crate) payments: Arc<Payments>,
    pub(crate) panel_sync: Arc<PanelSync>,
    pub(crate) audit: Audit,
    pub(crate) public_base_url: String,
}

/// The gift's facts, as its record and its invoice keep them.
fn facts(gift: &GiftRecord, invoice: &InvoiceRecord) -> GiftFacts {
    // A recalled gift's invoice is `failed` but it was paid: the refund is what counts.
    let paid = matches!(invoice.status, InvoiceStatus::Succeeded | InvoiceStatus::Failed);
    GiftFacts {
        paid_at: invoice.paid_at.filter(|_| paid),
        redeemed_at: gift.redeemed_at,
        refunded_at: gift.refunded_at,
    }
}

impl Gifts {
    /// Marks the invoice just issued for the buyer as a gift, with whom to mail it to (once:
    /// the invoice's replay marks nothing again). Called before the buyer is shown where to
    /// pay, so no payment of it can arrive unmarked.
    pub(crate) async fn mark(
        &self,
        account: &AccountRecord,
        payment_id: &PaymentId,
        recipient_email: Option<&str>,
        lang: Lang,
    ) -> AppResult<()> {
        let mut tx = self.store.begin().await?;
        if tx.gift(payment_id).await?.is_none() {
            let code = gift_code(&self.keys, payment_id);
            tx.insert_gift(&GiftRecord {
                payment_id: payment_id.clone(),
                account_id: account.id.clone(),
                code_hash: hash(code.as_str()),
                recipient_email: recipient_email.map(str::to_owned),
                lang,
                created_at: self.clock.now(),
                redeemed_at: None,
                redeemed_by: None,
                refunded_at: None,
            })
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The links of the gift an invoice of the account paid for; `None` unless it is a paid gift.
    pub async fn links_of_paid(&self, account_id: &AccountId, payment_id: &str) -> AppResult<Option<GiftLinks>> {
        let mut tx = self.store.read().await?;
        let gift = tx.gift(payment_id).await?.filter(|g| g.account_id == *account_id);
        let invoice = match &gift {
            Some(_) => tx.invoice_by_id(payment_id).await?,
            None => None,
        };
        let paid = invoice.is_some_and(|i| i.status == InvoiceStatus::Succeeded);
        let links = match paid {
            true => Some(links_now(tx.as_mut(), &self.keys, &self.public_base_url, account_id, payment_id).await?),
            false => None,
        };
        tx.commit().await?;
        Ok(links)
    }

    /// The gift with `code` in the account's shop, for its page; `None` when the account has
    /// no gift with that code.
    pub async fn look(&self, account: &AccountRecord, code: &GiftCode) -> AppResult<Option<GiftView>> {
        let mut tx = self.store.read().await?;
        let gift = tx.gift_by_code_hash(&hash(code.as_str())).await?.filter(|g| g.account_id == account.id);
        let view = match gift {
            Some(gift) => Some(self.view(tx.as_mut(), gift).await?),
            None => None,
        };
        tx.commit().await?;
        Ok(view)
    }

    /// The account's gifts, newest first, as the cabinet lists them.
    pub async fn account_gifts(&self, account: &AccountRecord) -> AppResult<Vec<GiftView>> {
        let mut tx = self.store.read().await?;
        let gifts = tx.account_gifts(&account.id, GIFTS_LISTED).await?;
        let mut views = Vec::with_capacity(gifts.len());
        for gift in gifts {
            views.push(self.view(tx.as_mut(), gift).await?);
        }
        tx.commit().await?;
        Ok(views)
    }

    async fn view(&self, tx: &mut dyn Tx, gift: GiftRecord) -> AppResult<GiftView> {
        let invoice = tx.invoice_by_id(&gift.payment_id).await?.ok_or(AppError::NotFound("invoice"))?;
        let plan = match invoice.purpose {
            Purpose::Subscription { plan_id } => tx.plan(plan_id).await?,
            Purpose::Devices { .. } => None,
        };
        let redeemed_by = match &gift.redeemed_by {
            Some(client_ref) => tx.client_by_ref(client_ref).await?.map(|c| c.client_id),
            None => None,
        };
        Ok(GiftView {
            state: facts(&gift, &invoice).state_at(self.clock.now()),
            payment_id: gift.payment_id,
            buyer: invoice.client_id,
            recipient_email: gift.recipient_email,
            plan,
            amount: invoice.amounts.customer,
            created_at: gift.created_at,
            redeemed_by,
        })
    }

    /// Redeems the gift with `code` for the account's client `client_id` (made now if the
    /// person has none yet, under the daily new-client limit): its plan's term starts or
    /// extends that client's subscription, in the unit of work that marks the gift redeemed,
    /// so of two redemptions at once one wins. Returns the plan, or why it was refused.
    pub async fn redeem(
        &self,
        account: &AccountRecord,
        code: &GiftCode,
        client_id: &ClientId,
    ) -> AppResult<Result<PlanRecord, GiftRefused>> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        // The new-client limit is counted exactly under the account's lock.
        tx.lock_account(&account.id).await?;
        match self.redeem_in(tx.as_mut(), account, code, client_id, now).await {
            Ok(Ok((client, plan))) => {
                tx.commit().await?;
                self.panel_sync.sync_saved(&client).await;
                Ok(Ok(plan))
            }
            Ok(Err(refused)) => {
                tx.rollback().await?;
                Ok(Err(refused))
            }
            Err(e) => {
                tx.rollback().await?;
                Err(e)
            }
        }
    }

    async fn redeem_in(
        &self,
        tx: &mut dyn Tx,
        account: &AccountRecord,
        code: &GiftCode,
        client_id: &ClientId,
        now: OffsetDateTime,
    ) -> AppResult<Result<(ClientRecord, PlanRecord), GiftRefused>> {
        let gift = tx.gift_by_code_hash(&hash(code.as_str())).await?.filter(|g| g.account_id == account.id);
        let Some(gift) = gift else { return Ok(Err(GiftRefused::Unknown)) };
        let invoice = tx.invoice_by_id(&gift.payment_id).await?.ok_or(AppError::NotFound("invoice"))?;
        if let Err(refused) = facts(&gift, &invoice).check_waiting(now) {
            return Ok(Err(refused));
        }
        let Purpose::Subscription { plan_id } = invoice.purpose else {
            return Err(AppError::Internal(format!("gift {} buys no plan", gift.payment_id)));
        };
        // A retired plan still delivers what was paid for.
        let plan = tx.plan(plan_id).await?.ok_or(AppError::NotFound("plan"))?;
        let mut client = match tx.client(&account.id, client_id).await? {
            Some(c) if c.blocked => return Err(Refusal::ClientBlocked.into()),
            Some(c) => c,
            None => {
                check_new_client_limit(tx, account, now).await?;
                let id = ClientRef::issued(self.ids.new_id(ClientRef::PREFIX));
                let c = ClientRecord::new(id, account.id.clone(), client_id.clone(), now);
                tx.insert_client(&c).await?;
                c
            }
        };
        if !tx.redeem_gift(&gift.payment_id, client.id.as_str(), now).await? {
            return Ok(Err(GiftRefused::Redeemed));
        }
        let mut record = self.payments.plan_term(tx, &plan, client.subscription.take(), now).await?;
        // A promo code's days the buyer got come with the gift.
        if let Some(promo) = &invoice.promo {
            record.subscription.add_days(promo.extra_days);
        }
        tx.save_subscription(&client.id, &record).await?;
        client.subscription = Some(record);
        Ok(Ok((client, plan)))
    }

    /// The partner's operator refunds a gift nobody redeemed: marked refunded first (so it
    /// cannot be redeemed while the gateway refunds), then refunded in full on its rail as
    /// `invoice refund` does; when the gateway refuses, the gift waits again.
    pub async fn refund(
        &self,
        account: &AccountRecord,
        who: Who<'_>,
        payment_id: &str,
    ) -> AppResult<Result<(), GiftRefused>> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let Some(gift) = tx.gift(payment_id).await?.filter(|g| g.account_id == account.id) else {
            tx.rollback().await?;
            return Ok(Err(GiftRefused::Unknown));
        };
        let invoice = tx.invoice_by_id(payment_id).await?.ok_or(AppError::NotFound("invoice"))?;
        let waiting = facts(&gift, &invoice).check_waiting(now);
        if let Err(refused) = waiting {
            tx.rollback().await?;
            return Ok(Err(refused));
        }
        if !tx.refund_gift(payment_id, now).await? {
            tx.rollback().await?;
            return Ok(Err(GiftRefused::Redeemed));
        }
        self.audit.record(tx.as_mut(), &account.id, who, AuditAction::GiftRefunded, payment_id.to_owned()).await?;
        tx.commit().await?;
        if let Err(e) = self.payments.refund_invoice(&gift.payment_id, false).await {
            let mut tx = self.store.begin().await?;
            tx.unrefund_gift(payment_id).await?;
            tx.commit().await?;
            return Err(e);
        }
        Ok(Ok(()))
    }
}
