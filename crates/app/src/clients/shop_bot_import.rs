//! `import bedolaga`: a self-hosted shop bot's customers come over. Each subscription the bot
//! sold holds a panel user; those users are adopted as `import remnawave` adopts them (the same
//! user, name and link, so installed apps keep working), each customer's Telegram id with their
//! current subscription, so the bot shop knows them from the first day. Customers without a
//! subscription become bot customers; their language carries over where the bots speak it;
//! balances are kept as the partner's record; invitations of customers who have not paid yet
//! and discount codes still valid carry over. Whatever cannot be mapped is listed with why
//! (docs/bedolaga.md). Re-running it imports nothing twice.

use std::collections::HashMap;

use vp_domain::promo::{Benefit, PromoCode, Terms};
use vp_domain::{AccountId, ClientRef, Lang};
use vp_ports::{
    ExistingPanelUser, ImportedBalance, PromoCodeRecord, ReferralRecord, ShopBotCustomer, ShopBotDatabase,
    ShopBotPromoCode, ShopBotSubscription,
};

use super::panel_import::{PanelImport, PanelImportReport};
use crate::error::{AppError, AppResult};

/// Customers read at a time.
const PAGE: u32 = 1_000;

/// The currency a Bedolaga balance is kept in: it counts kopeks and has no other.
const SOURCE_CURRENCY: &str = "RUB";

/// Something of the shop bot's that did not come over as it was, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotMapped {
    /// The bot's id of the customer, when it is about one.
    pub customer_id: Option<i64>,
    pub telegram_id: Option<i64>,
    /// The bot's id of the subscription, when it is about one.
    pub subscription_id: Option<i64>,
    /// The promo code, when it is about one.
    pub promo_code: Option<String>,
    pub reason: NotMappedReason,
}

impl NotMapped {
    fn customer(customer: &ShopBotCustomer, subscription_id: Option<i64>, reason: NotMappedReason) -> NotMapped {
        NotMapped {
            customer_id: Some(customer.id),
            telegram_id: customer.telegram_id,
            subscription_id,
            promo_code: None,
            reason,
        }
    }

    fn promo_code(code: &ShopBotPromoCode, reason: NotMappedReason) -> NotMapped {
        NotMapped {
            customer_id: None,
            telegram_id: None,
            subscription_id: None,
            promo_code: Some(code.code.clone()),
            reason,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotMappedReason {
    /// The customer was deleted in the bot.
    CustomerDeleted,
    /// An unpaid draft (`pending`): nothing was sold.
    UnpaidDraft,
    /// The bot recorded no panel user for it.
    NoPanelUser,
    /// The panel has no user with the id or link the bot recorded.
    PanelUserMissing,
    /// The panel user is the customer's, but another of their subscriptions holds it.
    SamePanelUser,
    /// The bots speak English and Russian: the customer's language is not one of them, so they
    /// read the account's default.
    LanguageNotOffered(String),
    /// The invited customer paid the bot already: the bot gave the inviter their reward, so
    /// the invitation is not carried (a first payment here would reward them twice).
    ReferralRewardedInBot,
    /// The inviter did not come over as a client (no Telegram id, deleted, or no
    /// subscription), or the invited customer has no Telegram id: an invitation joins the two.
    ReferralNotJoined,
    /// A promo code that is off, expired or used up in the bot.
    PromoCodeNotValid,
    /// A promo code of a kind that has no match here: the platform's codes take a share or an
    /// amount off a purchase, or add days to one (`balance`, `subscription_days`,
    /// `trial_subscription`, `promo_group`, `balance_and_days`).
    PromoCodeKind(String),
    /// A discount outside what a code may take off here.
    PromoCodeValue,
    /// A code that is not 4 to 32 of A-Z, 0-9 and '-'.
    PromoCodeFormat,
}

impl NotMappedReason {
    pub fn as_str(&self) -> &'static str {
        match self {
            NotMappedReason::CustomerDeleted => "customer_deleted",
            NotMappedReason::UnpaidDraft => "unpaid_draft",
            NotMappedReason::NoPanelUser => "no_panel_user",
            NotMappedReason::PanelUserMissing => "panel_user_missing",
            NotMappedReason::SamePanelUser => "same_panel_user",
            NotMappedReason::LanguageNotOffered(_) => "language_not_offered",
            NotMappedReason::ReferralRewardedInBot => "referral_rewarded_in_bot",
            NotMappedReason::ReferralNotJoined => "referral_not_joined",
            NotMappedReason::PromoCodeNotValid => "promo_code_not_valid",
            NotMappedReason::PromoCodeKind(_) => "promo_code_kind",
            NotMappedReason::PromoCodeValue => "promo_code_value",
            NotMappedReason::PromoCodeFormat => "promo_code_format",
        }
    }

    pub fn detail(&self) -> Option<&str> {
        match self {
            NotMappedReason::LanguageNotOffered(text) | NotMappedReason::PromoCodeKind(text) => Some(text),
            _ => None,
        }
    }
}

/// What an import from a shop bot did (or, dry, would do).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShopBotImportReport {
    /// The bot and its schema version.
    pub source: String,
    pub dry_run: bool,
    /// Customers the bot's database holds.
    pub customers: usize,
    /// Subscriptions the bot's database holds.
    pub subscriptions: usize,
    /// The adoption of the panel users the subscriptions hold; users of the panel that no
    /// subscription of the bot names count as `outside_squad`.
    pub panel: PanelImportReport,
    /// Customers with a Telegram id and no subscription taken over, made bot customers now.
    pub bot_customers_without_subscription: usize,
    /// Chats whose language was set (English or Russian).
    pub languages_set: usize,
    /// Balances kept as the partner's record (non-zero ones; on a re-run, the new ones only).
    pub balances_recorded: usize,
    /// Their total, in kopeks.
    pub balances_total: i64,
    /// Invitations of customers who have not paid yet, carried so their first payment here
    /// rewards the inviter; on a re-run, the new ones only.
    pub referrals_carried: usize,
    /// Customers who had an invitation code: their old links do not invite here (the bot
    /// gives each customer a new one when they ask).
    pub referral_links_not_carried: usize,
    /// The bot's promo codes.
    pub promo_codes: usize,
    /// Valid discount codes made codes of the account.
    pub promo_codes_imported: usize,
    /// Codes the account has already (an earlier run, or the partner's own).
    pub promo_codes_already: usize,
    pub not_mapped: Vec<NotMapped>,
}

/// Which subscription of a customer is their current one: live (active, trial, limited)
/// before held back (disabled, expired), then the later end.
fn current_first(a: &ShopBotSubscription, b: &ShopBotSubscription) -> std::cmp::Ordering {
    let live = |s: &ShopBotSubscription| matches!(s.status.as_str(), "active" | "trial" | "limited");
    live(b).cmp(&live(a)).then(b.ends_at.cmp(&a.ends_at)).then(a.id.cmp(&b.id))
}

/// A panel user a subscription of the bot names: by the panel's id, else by the link's token.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum PanelKey {
    Id(String),
    Link(String),
}

/// The panel user a subscription holds, and whose Telegram id goes with it.
struct Wanted {
    customer: usize,
    subscription: i64,
    telegram_id: Option<i64>,
    found: bool,
}

impl PanelImport {
    /// Imports the shop bot's customers into the account; with `dry_run`, reports what it
    /// would do and writes nothing.
    pub async fn import_shop_bot(
        &self,
        account_id: &AccountId,
        bot: &dyn ShopBotDatabase,
        dry_run: bool,
    ) -> AppResult<ShopBotImportReport> {
        let mut report = ShopBotImportReport { source: bot.source(), dry_run, ..ShopBotImportReport::default() };
        let customers = read_customers(bot).await?;
        report.customers = customers.len();
        report.subscriptions = customers.iter().map(|c| c.subscriptions.len()).sum();

        let mut wanted: HashMap<PanelKey, Wanted> = HashMap::new();
        for (index, customer) in customers.iter().enumerate() {
            let not_mapped = |subscription_id, reason| NotMapped::customer(customer, subscription_id, reason);
            if customer.status == "deleted" {
                report.not_mapped.push(not_mapped(None, NotMappedReason::CustomerDeleted));
                continue;
            }
            let mut sold: Vec<&ShopBotSubscription> = customer.subscriptions.iter().collect();
            sold.sort_by(|a, b| current_first(a, b));
            let mut telegram_id = customer.telegram_id;
            for subscription in sold {
                if subscription.status == "pending" {
                    report.not_mapped.push(not_mapped(Some(subscription.id), NotMappedReason::UnpaidDraft));
                    continue;
                }
                let key = match (&subscription.panel_id, &subscription.panel_short_uuid) {
                    (Some(id), _) => PanelKey::Id(id.clone()),
                    (None, Some(token)) => PanelKey::Link(token.clone()),
                    (None, None) => {
                        report.not_mapped.push(not_mapped(Some(subscription.id), NotMappedReason::NoPanelUser));
                        continue;
                    }
                };
                if wanted.contains_key(&key) {
                    // Single-tariff Bedolaga: older subscriptions of the person address the
                    // same panel user as their current one.
                    report.not_mapped.push(not_mapped(Some(subscription.id), NotMappedReason::SamePanelUser));
                    continue;
                }
                // The customer's Telegram id goes with their current subscription only.
                let telegram_id = telegram_id.take();
                wanted
                    .insert(key, Wanted { customer: index, subscription: subscription.id, telegram_id, found: false });
            }
        }
        // Panel users the bot recorded by id are found by it; by link, through their token.
        let mut choose = |mut user: ExistingPanelUser| {
            let entry = match wanted.get_mut(&PanelKey::Id(user.panel_id.clone())) {
                Some(entry) => Some(entry),
                None => wanted.get_mut(&PanelKey::Link(user.link_token.clone())),
            }?;
            entry.found = true;
            user.telegram_id = entry.telegram_id;
            Some(user)
        };
        report.panel = self.import_chosen(account_id, None, dry_run, &mut choose).await?;
        let mut adopted_customers = vec![false; customers.len()];
        for entry in wanted.values() {
            if entry.found {
                adopted_customers[entry.customer] |= entry.telegram_id.is_some();
            } else {
                let missing = NotMappedReason::PanelUserMissing;
                report.not_mapped.push(NotMapped::customer(
                    &customers[entry.customer],
                    Some(entry.subscription),
                    missing,
                ));
            }
        }
        self.keep_customers(account_id, &customers, &adopted_customers, dry_run, &mut report).await?;
        self.carry_referrals(account_id, &customers, &adopted_customers, dry_run, &mut report).await?;
        let codes = bot.promo_codes().await.map_err(|e| AppError::External(e.to_string()))?;
        self.import_promo_codes(account_id, &codes, dry_run, &mut report).await?;
        report.not_mapped.sort_by(|a, b| {
            (a.customer_id.is_none(), a.customer_id, a.subscription_id, &a.promo_code).cmp(&(
                b.customer_id.is_none(),
                b.customer_id,
                b.subscription_id,
                &b.promo_code,
            ))
        });
        Ok(report)
    }

    /// What every customer brings besides a panel user: a bot customer for those with no
    /// subscription taken over, the chat's language, the balance.
    async fn keep_customers(
        &self,
        account_id: &AccountId,
        customers: &[ShopBotCustomer],
        adopted_with_telegram: &[bool],
        dry_run: bool,
        report: &mut ShopBotImportReport,
    ) -> AppResult<()> {
        let now = self.clock.now();
        for chunk in customers.chunks(PAGE as usize).zip(adopted_with_telegram.chunks(PAGE as usize)) {
            let (customers, adopted) = chunk;
            let mut tx = if dry_run { self.store.read().await? } else { self.store.begin().await? };
            let telegram_ids: Vec<i64> = customers.iter().filter_map(|c| c.telegram_id).collect();
            let known = tx.bot_customers(account_id, &telegram_ids).await?;
            let mut balances = vec![];
            for (customer, adopted) in customers.iter().zip(adopted) {
                if customer.status == "deleted" {
                    continue;
                }
                let client_ref: Option<ClientRef> = customer
                    .telegram_id
                    .and_then(|id| known.iter().find(|k| k.user_id == id))
                    .and_then(|k| k.client_ref.clone());
                if let Some(user_id) = customer.telegram_id {
                    // A dry run adopted nobody, so it counts those it would have.
                    let is_known = known.iter().any(|k| k.user_id == user_id) || (dry_run && *adopted);
                    if !is_known {
                        report.bot_customers_without_subscription += 1;
                        if !dry_run {
                            // A private chat's id is the user's own; they started when the
                            // shop bot first saw them.
                            tx.touch_bot_customer(account_id, user_id, user_id, customer.created_at.min(now)).await?;
                        }
                    }
                    match customer.language.as_deref().map(|l| (l, Lang::from_code(l))) {
                        Some((_, Some(lang))) => {
                            report.languages_set += 1;
                            if !dry_run {
                                tx.set_chat_language(account_id, user_id, lang).await?;
                            }
                        }
                        Some((code, None)) if !code.is_empty() => report.not_mapped.push(NotMapped::customer(
                            customer,
                            None,
                            NotMappedReason::LanguageNotOffered(code.to_owned()),
                        )),
                        _ => {}
                    }
                }
                if customer.balance_minor != 0 {
                    balances.push(ImportedBalance {
                        account_id: account_id.clone(),
                        source: "bedolaga".to_owned(),
                        source_customer_id: customer.id,
                        telegram_id: customer.telegram_id,
                        client_ref,
                        amount: customer.balance_minor,
                        currency: SOURCE_CURRENCY.to_owned(),
                        imported_at: now,
                    });
                }
            }
            if dry_run {
                report.balances_recorded += balances.len();
                report.balances_total += balances.iter().map(|b| b.amount).sum::<i64>();
            } else {
                let recorded = tx.record_imported_balances(&balances).await?;
                report.balances_recorded += usize::try_from(recorded).unwrap_or(usize::MAX);
                report.balances_total += balances.iter().map(|b| b.amount).sum::<i64>();
            }
            tx.commit().await?;
        }
        Ok(())
    }
}

impl PanelImport {
    /// The bot's invitations of customers who have not paid yet, joined here: the invited
    /// person's Telegram id to the client the inviter became, with no reward yet, so their
    /// first payment here rewards the inviter as the account's program says.
    async fn carry_referrals(
        &self,
        account_id: &AccountId,
        customers: &[ShopBotCustomer],
        adopted_with_telegram: &[bool],
        dry_run: bool,
        report: &mut ShopBotImportReport,
    ) -> AppResult<()> {
        report.referral_links_not_carried =
            customers.iter().filter(|c| c.status != "deleted" && c.referral_code.is_some()).count();
        let by_id: HashMap<i64, usize> = customers.iter().enumerate().map(|(i, c)| (c.id, i)).collect();
        let invited: Vec<(&ShopBotCustomer, usize)> = customers
            .iter()
            .filter(|c| c.status != "deleted")
            .filter_map(|c| Some((c, *by_id.get(&c.invited_by?)?)))
            .collect();
        for chunk in invited.chunks(PAGE as usize) {
            let mut tx = if dry_run { self.store.read().await? } else { self.store.begin().await? };
            let inviters: Vec<i64> = chunk.iter().filter_map(|(_, i)| customers[*i].telegram_id).collect();
            let known = tx.bot_customers(account_id, &inviters).await?;
            for (customer, inviter_index) in chunk {
                let inviter = &customers[*inviter_index];
                if customer.has_paid {
                    report.not_mapped.push(NotMapped::customer(customer, None, NotMappedReason::ReferralRewardedInBot));
                    continue;
                }
                let inviter_ref = inviter
                    .telegram_id
                    .filter(|_| inviter.status != "deleted")
                    .and_then(|id| known.iter().find(|k| k.user_id == id))
                    .and_then(|k| k.client_ref.clone());
                let joined = inviter_ref.is_some() || (dry_run && adopted_with_telegram[*inviter_index]);
                let (Some(user_id), true) = (customer.telegram_id, joined) else {
                    report.not_mapped.push(NotMapped::customer(customer, None, NotMappedReason::ReferralNotJoined));
                    continue;
                };
                let Some(inviter_ref) = inviter_ref else {
                    report.referrals_carried += 1; // a dry run's inviter, not adopted yet
                    continue;
                };
                let referral = ReferralRecord {
                    account_id: account_id.clone(),
                    invited_user_id: user_id,
                    inviter_ref,
                    invited_at: customer.created_at,
                    reward: None,
                };
                if tx.insert_referral(&referral).await? {
                    report.referrals_carried += 1;
                }
            }
            tx.commit().await?;
        }
        Ok(())
    }

    /// The bot's discount codes still valid, as codes of the account with the uses they have
    /// left, one use per customer (the bot's own rule); the others listed with why.
    async fn import_promo_codes(
        &self,
        account_id: &AccountId,
        codes: &[ShopBotPromoCode],
        dry_run: bool,
        report: &mut ShopBotImportReport,
    ) -> AppResult<()> {
        report.promo_codes = codes.len();
        let now = self.clock.now();
        let mut tx = if dry_run { self.store.read().await? } else { self.store.begin().await? };
        for code in codes {
            let left = code.max_uses.map(|max| max - code.uses);
            let valid = code.active && code.valid_until.is_none_or(|end| end > now) && left.is_none_or(|n| n > 0);
            if !valid {
                report.not_mapped.push(NotMapped::promo_code(code, NotMappedReason::PromoCodeNotValid));
                continue;
            }
            if code.kind != "discount" {
                report.not_mapped.push(NotMapped::promo_code(code, NotMappedReason::PromoCodeKind(code.kind.clone())));
                continue;
            }
            let Ok(benefit) =
                u32::try_from(code.value).map_err(|_| ()).and_then(|p| Benefit::percent_off(p).map_err(|_| ()))
            else {
                report.not_mapped.push(NotMapped::promo_code(code, NotMappedReason::PromoCodeValue));
                continue;
            };
            let Ok(parsed) = PromoCode::parse(&code.code) else {
                report.not_mapped.push(NotMapped::promo_code(code, NotMappedReason::PromoCodeFormat));
                continue;
            };
            if tx.promo_code(account_id, &parsed).await?.is_some() {
                report.promo_codes_already += 1;
                continue;
            }
            report.promo_codes_imported += 1;
            if dry_run {
                continue;
            }
            let record = PromoCodeRecord {
                id: self.ids.new_id("promo"),
                account_id: account_id.clone(),
                code: parsed,
                benefit,
                terms: Terms {
                    max_uses: left.and_then(|n| u32::try_from(n).ok()),
                    per_customer: 1,
                    first_purchase_only: code.first_purchase_only,
                    plans: None,
                    expires_at: code.valid_until,
                    disabled: false,
                },
                created_at: now,
            };
            tx.insert_promo_code(&record).await?;
        }
        tx.commit().await?;
        Ok(())
    }
}

async fn read_customers(bot: &dyn ShopBotDatabase) -> AppResult<Vec<ShopBotCustomer>> {
    let mut all = vec![];
    let mut after = None;
    loop {
        let page = bot.customers_page(after, PAGE).await.map_err(|e| AppError::External(e.to_string()))?;
        let Some(last) = page.last() else { break };
        after = Some(last.id);
        all.extend(page);
    }
    Ok(all)
}
