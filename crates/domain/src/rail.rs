//! The payment rail an invoice is paid through (docs/decisions.md, "Payment rails"): a gateway,
//! by name, with that gateway's own method where it has several, or Telegram Stars in the
//! partner's bot. The rail is decided once, from the payment method the customer chose, and
//! kept with the invoice; the invoice's rules (`invoice`) do not depend on it.

use std::fmt;
use std::str::FromStr;

use crate::identifiers::MethodCode;
use crate::invoice::UnknownValue;
use crate::stars::STARS_METHOD;

/// A payment gateway the platform can take payments through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GatewayName {
    /// The embedded gateway: its payment page is served by this service; no real money.
    Sandbox,
    /// YooKassa API v3.
    YooKassa,
    /// Platega: SBP QR codes and Russian cards.
    Platega,
    /// Crypto Pay (Crypto Bot): invoices priced in rubles, paid in crypto.
    CryptoPay,
}

impl GatewayName {
    pub const ALL: [GatewayName; 4] =
        [GatewayName::Sandbox, GatewayName::YooKassa, GatewayName::Platega, GatewayName::CryptoPay];

    pub const fn as_str(self) -> &'static str {
        match self {
            GatewayName::Sandbox => "sandbox",
            GatewayName::YooKassa => "yookassa",
            GatewayName::Platega => "platega",
            GatewayName::CryptoPay => "cryptopay",
        }
    }
}

impl fmt::Display for GatewayName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for GatewayName {
    type Err = UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GatewayName::ALL.into_iter().find(|g| g.as_str() == s).ok_or_else(|| UnknownValue(s.to_owned()))
    }
}

/// Where a gateway payment goes: the gateway and, for a gateway with several, its own method
/// (YooKassa's `payment_method_data.type`, Platega's SBP or cards); `None` lets the customer
/// choose on the gateway's page, or is the gateway's only way.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GatewayRoute {
    pub gateway: GatewayName,
    pub method: Option<String>,
}

impl GatewayRoute {
    pub const fn of(gateway: GatewayName) -> GatewayRoute {
        GatewayRoute { gateway, method: None }
    }

    /// `gateway[:method]`, as the operator writes it (`yookassa:bank_card`, `platega:sbp`,
    /// `cryptopay`). Which methods a gateway has is its adapter's to check.
    pub fn parse(text: &str) -> Result<GatewayRoute, UnknownValue> {
        let (name, method) = match text.split_once(':') {
            Some((name, method)) => (name, Some(method)),
            None => (text, None),
        };
        let gateway = name.parse()?;
        match method {
            Some(m) if m.is_empty() || m.len() > 64 || !m.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') => {
                Err(UnknownValue(text.to_owned()))
            }
            method => Ok(GatewayRoute { gateway, method: method.map(str::to_owned) }),
        }
    }
}

impl fmt::Display for GatewayRoute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.method {
            Some(method) => write!(f, "{}:{method}", self.gateway),
            None => f.write_str(self.gateway.as_str()),
        }
    }
}

/// What an invoice is paid through.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Rail {
    Gateway(GatewayRoute),
    /// Telegram Stars, through the account's bot.
    Stars,
}

/// How a rail is kept as text: `stars`, or the gateway route's text.
const STARS_TEXT: &str = "stars";

impl Rail {
    /// The rail of the method a customer chose: Telegram Stars for Stars' code, else the route
    /// `route_of` gives the method (`None`: the method is not offered now).
    pub fn chosen(method: &MethodCode, route_of: impl FnOnce(&MethodCode) -> Option<GatewayRoute>) -> Option<Rail> {
        if Rail::is_stars_code(method) { Some(Rail::Stars) } else { route_of(method).map(Rail::Gateway) }
    }

    /// Whether a method code is the one Stars invoices carry (the spec's `method` of an
    /// invoice): the one place a code is compared with it.
    pub fn is_stars_code(method: &MethodCode) -> bool {
        method.as_str() == STARS_METHOD
    }

    /// The gateway a payment goes through; `None` for Stars.
    pub fn gateway(&self) -> Option<GatewayName> {
        match self {
            Rail::Gateway(route) => Some(route.gateway),
            Rail::Stars => None,
        }
    }

    pub fn is_stars(&self) -> bool {
        matches!(self, Rail::Stars)
    }

    pub fn parse(text: &str) -> Result<Rail, UnknownValue> {
        if text == STARS_TEXT { Ok(Rail::Stars) } else { GatewayRoute::parse(text).map(Rail::Gateway) }
    }
}

impl FromStr for Rail {
    type Err = UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Rail::parse(s)
    }
}

impl fmt::Display for Rail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rail::Gateway(route) => route.fmt(f),
            Rail::Stars => f.write_str(STARS_TEXT),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gateway_names_round_trip_and_unknown_ones_are_refused() {
        for g in GatewayName::ALL {
            assert_eq!(g.as_str().parse::<GatewayName>(), Ok(g));
        }
        assert!("tbank".parse::<GatewayName>().is_err());
        assert!("YooKassa".parse::<GatewayName>().is_err(), "names are lower case, as the operator writes them");
    }

    #[test]
    fn a_route_is_a_gateway_and_an_optional_method_of_it() {
        assert_eq!(GatewayRoute::parse("cryptopay"), Ok(GatewayRoute::of(GatewayName::CryptoPay)));
        let sbp = GatewayRoute::parse("platega:sbp").unwrap();
        assert_eq!(sbp, GatewayRoute { gateway: GatewayName::Platega, method: Some("sbp".into()) });
        assert_eq!(sbp.to_string(), "platega:sbp");
        assert_eq!(GatewayRoute::parse("yookassa:bank_card").unwrap().to_string(), "yookassa:bank_card");
        for bad in ["", "platega:", "paypal:card", "platega:s b p", "yookassa:bank-card", ":sbp"] {
            assert!(GatewayRoute::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_rail_is_kept_as_text_and_read_back() {
        let rails = [
            Rail::Stars,
            Rail::Gateway(GatewayRoute::of(GatewayName::Sandbox)),
            Rail::Gateway(GatewayRoute { gateway: GatewayName::Platega, method: Some("card".into()) }),
        ];
        for rail in rails {
            assert_eq!(Rail::parse(&rail.to_string()), Ok(rail));
        }
        assert!(Rail::parse("telegram_stars").is_err(), "the rail is not the method code");
    }

    #[test]
    fn stars_code_chooses_the_stars_rail_and_any_other_the_methods_route() {
        let stars = MethodCode::parse(STARS_METHOD).unwrap();
        let card = MethodCode::parse("card").unwrap();
        let route = |_: &MethodCode| Some(GatewayRoute::of(GatewayName::YooKassa));
        assert_eq!(Rail::chosen(&stars, |_| unreachable!("Stars has no gateway route")), Some(Rail::Stars));
        assert_eq!(Rail::chosen(&card, route), Some(Rail::Gateway(GatewayRoute::of(GatewayName::YooKassa))));
        assert_eq!(Rail::chosen(&card, |_| None), None, "a method not offered has no rail");
        assert_eq!(Rail::Stars.gateway(), None);
    }
}
