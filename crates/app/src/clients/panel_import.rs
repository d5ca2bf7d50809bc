//! `import remnawave`: the users of an existing panel become clients of an account, each with a
//! subscription that keeps its panel user as it is (the same user, name and link), so every
//! installed VPN app keeps working. A user with a Telegram id becomes a bot customer of the
//! account. Re-running it adopts nothing twice (by the panel's own user id); a user another
//! account adopted is refused and listed. Pages are read in the panel's order and each is
//! written in one unit of work, so an import stopped half way is finished by running it again.

use std::collections::HashSet;
use std::sync::Arc;

use vp_domain::adoption::adopted_subscription;
use vp_domain::{AccountId, ClientId, ClientRef, DeviceLimit, DeviceSettings};
use vp_ports::{
    AccountRecord, AdoptedClient, ClientRecord, Clock, ExistingPanelUser, IdGenerator, PanelDirectory, PanelError,
    Store, SubscriptionRecord, Tx, VpnPanel,
};

use crate::error::{AppError, AppResult, Declined};

/// Users read and written at a time.
const PAGE: u32 = 500;

/// Which of the panel's users to import.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PanelImportFilter {
    /// Only users in this internal squad (its UUID).
    pub squad: Option<String>,
    /// Only users with this tag.
    pub tag: Option<String>,
}

/// Why a panel user was not adopted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotAdopted {
    /// Another account adopted it before.
    OtherAccount,
    /// The account has a client with the user's name as its `client_id`, made otherwise.
    ClientIdTaken,
    /// The user's name cannot be a `client_id`.
    NameNotAClientId,
    /// Its subscription link is not where the configured subscription address points, so the
    /// link we would show is not the one its apps hold.
    LinkElsewhere,
}

impl NotAdopted {
    pub fn as_str(self) -> &'static str {
        match self {
            NotAdopted::OtherAccount => "adopted_by_another_account",
            NotAdopted::ClientIdTaken => "client_id_taken",
            NotAdopted::NameNotAClientId => "name_not_a_client_id",
            NotAdopted::LinkElsewhere => "link_elsewhere",
        }
    }
}

/// A panel user the import left alone, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefusedPanelUser {
    pub panel_id: String,
    pub username: String,
    pub reason: NotAdopted,
}

/// A Telegram id that did not become a bot customer with the client adopted for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TelegramNotLinked {
    pub username: String,
    pub telegram_id: i64,
}

/// What an import did (or, dry, would do), by outcome.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PanelImportReport {
    pub dry_run: bool,
    /// Users the panel listed (with the tag, when one was given).
    pub read: usize,
    /// Not in the squad asked for.
    pub outside_squad: usize,
    /// Users the platform itself created (their link is a client's).
    pub platform_users: usize,
    /// Adopted by this account before: left as they are.
    pub already_imported: usize,
    pub imported: usize,
    /// Of those imported, the ones now bot customers of the account.
    pub bot_customers: usize,
    pub refused: Vec<RefusedPanelUser>,
    /// Imported, but their Telegram id was already the account's bot customer with another
    /// client (or another user of this import had it first): the bot keeps the first.
    pub telegram_not_linked: Vec<TelegramNotLinked>,
}

/// The import of an existing panel's users.
pub struct PanelImport {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) ids: Arc<dyn IdGenerator>,
    pub(crate) panel: Arc<dyn VpnPanel>,
    /// The panel to read users from: the one configured, when it can list its users.
    pub(crate) directory: Option<Arc<dyn PanelDirectory>>,
}

/// What one page's users come to.
#[derive(Default)]
struct PageOutcome {
    adopted: Vec<AdoptedClient>,
    report: PanelImportReport,
}

impl PanelImport {
    /// Imports the panel's users (those `filter` selects) into the account; with `dry_run`,
    /// reports what it would do and writes nothing.
    pub async fn import_panel_users(
        &self,
        account_id: &AccountId,
        filter: &PanelImportFilter,
        dry_run: bool,
    ) -> AppResult<PanelImportReport> {
        let squad = filter.squad.clone();
        let mut in_squad = move |u: ExistingPanelUser| squad.as_ref().is_none_or(|s| u.squads.contains(s)).then_some(u);
        self.import_chosen(account_id, filter.tag.as_deref(), dry_run, &mut in_squad).await
    }

    /// Imports the panel's users (with `tag`, when given) that `choose` keeps, as it gives them
    /// back (an import from a shop bot names their Telegram ids); the others count as
    /// `outside_squad`.
    pub(crate) async fn import_chosen(
        &self,
        account_id: &AccountId,
        tag: Option<&str>,
        dry_run: bool,
        choose: &mut (dyn FnMut(ExistingPanelUser) -> Option<ExistingPanelUser> + Send),
    ) -> AppResult<PanelImportReport> {
        let directory = self.directory.as_ref().ok_or(Declined::PanelCannotList)?;
        let mut tx = self.store.read().await?;
        let account = tx.account(account_id).await?.ok_or(AppError::NotFound("account"))?;
        let settings = tx.device_settings().await?;
        tx.commit().await?;
        let new_limit = settings.map_or(DeviceLimit::Unlimited, |s: DeviceSettings| s.initial_limit(true));
        let mut report = PanelImportReport { dry_run, ..PanelImportReport::default() };
        let mut telegram_taken = HashSet::new();
        let mut cursor: Option<String> = None;
        loop {
            let page = directory.users_page(cursor.as_deref(), PAGE, tag).await.map_err(|e| unreachable_panel(&e))?;
            let listed = page.users.len();
            let users: Vec<ExistingPanelUser> = page.users.into_iter().filter_map(&mut *choose).collect();
            report.read += listed;
            report.outside_squad += listed - users.len();
            let mut tx = if dry_run { self.store.read().await? } else { self.store.begin().await? };
            if !dry_run {
                tx.lock_account(&account.id).await?;
            }
            let outcome = self.sort_page(tx.as_mut(), &account, users, new_limit, &mut telegram_taken).await?;
            if !dry_run {
                tx.adopt_panel_users(&outcome.adopted, self.clock.now()).await?;
            }
            tx.commit().await?;
            add(&mut report, outcome.report);
            match page.next {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        Ok(report)
    }

    /// Decides each user of a page: adopted, or why not.
    async fn sort_page(
        &self,
        tx: &mut dyn Tx,
        account: &AccountRecord,
        users: Vec<ExistingPanelUser>,
        new_limit: DeviceLimit,
        telegram_taken: &mut HashSet<i64>,
    ) -> AppResult<PageOutcome> {
        let panel_ids: Vec<String> = users.iter().map(|u| u.panel_id.clone()).collect();
        let adoptions = tx.panel_adoptions(&panel_ids).await?;
        let tokens: Vec<String> = users.iter().map(|u| u.link_token.clone()).collect();
        let tokens_in_use: HashSet<String> = tx.link_tokens_in_use(&tokens).await?.into_iter().collect();
        let names: Vec<ClientId> = users.iter().filter_map(|u| ClientId::parse(&u.username).ok()).collect();
        let names_taken: HashSet<ClientId> = tx.existing_client_ids(&account.id, &names).await?.into_iter().collect();
        let telegram_ids: Vec<i64> = users.iter().filter_map(|u| u.telegram_id).collect();
        let customers = tx.bot_customers(&account.id, &telegram_ids).await?;
        telegram_taken.extend(customers.iter().map(|c| c.user_id));

        let now = self.clock.now();
        let mut out = PageOutcome::default();
        for user in users {
            let refuse =
                |reason| RefusedPanelUser { panel_id: user.panel_id.clone(), username: user.username.clone(), reason };
            if let Some(adoption) = adoptions.iter().find(|a| a.panel_id == user.panel_id) {
                if adoption.account_id == account.id {
                    out.report.already_imported += 1;
                } else {
                    out.report.refused.push(refuse(NotAdopted::OtherAccount));
                }
                continue;
            }
            if tokens_in_use.contains(&user.link_token) {
                out.report.platform_users += 1;
                continue;
            }
            let Ok(client_id) = ClientId::parse(&user.username) else {
                out.report.refused.push(refuse(NotAdopted::NameNotAClientId));
                continue;
            };
            if names_taken.contains(&client_id) {
                out.report.refused.push(refuse(NotAdopted::ClientIdTaken));
                continue;
            }
            if self.panel.subscription_url(&user.link_token) != user.subscription_url {
                out.report.refused.push(refuse(NotAdopted::LinkElsewhere));
                continue;
            }
            let telegram_id = match user.telegram_id {
                Some(id) if telegram_taken.insert(id) => Some(id),
                Some(id) => {
                    out.report
                        .telegram_not_linked
                        .push(TelegramNotLinked { username: user.username.clone(), telegram_id: id });
                    None
                }
                None => None,
            };
            out.report.imported += 1;
            out.report.bot_customers += usize::from(telegram_id.is_some());
            let subscription = adopted_subscription(
                user.access,
                user.expires_at,
                user.device_limit.resolve(new_limit),
                user.traffic,
                user.traffic_counted_since,
                now,
            );
            let record = SubscriptionRecord {
                subscription,
                link_token: user.link_token,
                // The panel holds the user as it is: nothing to push.
                revision: 1,
                panel_revision: 1,
                auto_renew: false,
                panel_name: Some(user.username),
            };
            let client = ClientRecord {
                id: ClientRef::issued(self.ids.new_id(ClientRef::PREFIX)),
                account_id: account.id.clone(),
                client_id,
                created_at: now,
                blocked: false,
                subscription: Some(record),
            };
            out.adopted.push(AdoptedClient { client, panel_id: user.panel_id, telegram_id });
        }
        Ok(out)
    }
}

fn add(total: &mut PanelImportReport, page: PanelImportReport) {
    total.platform_users += page.platform_users;
    total.already_imported += page.already_imported;
    total.imported += page.imported;
    total.bot_customers += page.bot_customers;
    total.refused.extend(page.refused);
    total.telegram_not_linked.extend(page.telegram_not_linked);
}

fn unreachable_panel(e: &PanelError) -> AppError {
    AppError::External(format!("the import stopped: {e}; what was imported so far stays, run it again to go on"))
}
