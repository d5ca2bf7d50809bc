//! The operator's view (`/operator`): the platform's operators, invited by `vp-api operator
//! invite`, sign in through their own door (the way in the cabinet has, `Entrance`) and see
//! every account's sales, the accounts ranked, and what the platform owes partners. Every
//! page they open is written to the operators' audit with what it showed.

mod access;
mod view;

pub use access::{OperatorAccess, OperatorActor, OperatorDoor, OperatorInvitation};
pub use view::{AUDIT_PAGE, AccountSales, OperatorView, OwedToPartners, PlatformSales};

/// Where an operator's set-password link points (under the public base URL).
pub const LINK_PATH: &str = "/operator/welcome/";
