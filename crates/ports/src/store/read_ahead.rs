//! `Tx::read_ahead`: the reads a unit of work is about to make, named before it makes them, so
//! a backend that pipelines sends them all in one round trip instead of one trip each.

/// What to read ahead. Each named read answers the unit's next call of that read with the
/// same argument, once; a later call reads again. So only name a read the unit makes before it
/// writes what that read returns.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ReadAhead<'a> {
    /// A client (by its reference): `client_by_ref`, `referral_credits`,
    /// `bot_customer_of_client`, `client_chat` and `shop_customer_of_client`.
    pub client: Option<&'a str>,
    /// `plan`.
    pub plan: Option<i32>,
    /// `device_settings`.
    pub device_settings: bool,
    /// `consent_of_invoice` (by the invoice's payment id).
    pub consent_of_invoice: Option<&'a str>,
    /// `webhook_endpoints` (by account).
    pub webhook_endpoints: Option<&'a str>,
}
