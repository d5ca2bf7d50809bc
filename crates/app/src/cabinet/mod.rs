//! The partner cabinet: people of a partner who sign in with an email and a password to manage
//! the account's webhook addresses, balance and withdrawals, and to look at its clients. Every
//! use case here takes the signed-in `Actor`, so an object of another account is never reached.

mod access;
mod account;
mod bot;
mod clients;
mod endpoints;
mod money;

use std::sync::Arc;

use vp_ports::{Store, VpnPanel};

pub use access::{CabinetAccess, CabinetDoor, CabinetMember, Invitation, LinkView, SignInRefusal, SignedIn};
pub use clients::{CLIENT_INVOICES, ClientDetail, ClientList};
pub use endpoints::DELIVERY_LOG_PAGE;
pub use money::WITHDRAWAL_PAGE;

use crate::actor::Actor;
use crate::audit::Audit;
use crate::bots::PartnerBots;
use crate::catalog::Catalog;
use crate::clients::Clients;
use crate::events::Events;
use crate::ledger::Ledger;
use crate::secrets::SecretKeys;
use crate::views::Views;

/// Where a set-password link points (under the public base URL).
pub const LINK_PATH: &str = "/cabinet/welcome/";

/// What a signed-in person of a partner does in the cabinet: each use case reaches only the
/// actor's own account and records what it changed as the actor's.
pub struct Cabinet {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) panel: Arc<dyn VpnPanel>,
    pub(crate) keys: Arc<SecretKeys>,
    pub(crate) views: Views,
    pub(crate) audit: Audit,
    pub(crate) services: CabinetServices,
}

/// The services the cabinet's pages stand for.
pub(crate) struct CabinetServices {
    pub events: Arc<Events>,
    pub ledger: Arc<Ledger>,
    pub catalog: Arc<Catalog>,
    pub clients: Arc<Clients>,
    pub bots: Arc<PartnerBots>,
    pub renewals: Arc<crate::renewals::Renewals>,
    pub exports: Arc<crate::exports::Exports>,
}
