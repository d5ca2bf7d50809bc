//! Fiscal receipts (54-FZ) to the buyer (docs/decisions.md, "Fiscal receipts"): while a shop
//! sends them, every payment through the gateway carries the buyer's email and one line for
//! what was bought, and a refund carries the same lines back. The shop's tax system and the
//! VAT rate of its lines are the operator's settings.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::Money;
use crate::invoice::Purpose;

/// YooKassa's `tax_system_code`: 1 (ОСН) to 6 (ПСН).
pub const TAX_SYSTEMS: std::ops::RangeInclusive<u8> = 1..=6;
/// YooKassa's `vat_code` for 54-FZ receipts: 1 (no VAT) to 12 (the 2025 rates included).
pub const VAT_CODES: std::ops::RangeInclusive<u8> = 1..=12;
/// A line's description, at most (YooKassa's limit).
pub const LINE_DESCRIPTION_MAX_CHARS: usize = 128;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ReceiptSettingError {
    #[error("must be a tax system code from 1 to 6")]
    TaxSystem,
    #[error("must be a VAT code from 1 to 12")]
    VatCode,
}

/// How a shop's receipts are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReceiptSettings {
    pub tax_system_code: u8,
    pub vat_code: u8,
}

impl ReceiptSettings {
    pub fn parse_tax_system(raw: &str) -> Result<u8, ReceiptSettingError> {
        raw.trim().parse::<u8>().ok().filter(|c| TAX_SYSTEMS.contains(c)).ok_or(ReceiptSettingError::TaxSystem)
    }

    pub fn parse_vat_code(raw: &str) -> Result<u8, ReceiptSettingError> {
        raw.trim().parse::<u8>().ok().filter(|c| VAT_CODES.contains(c)).ok_or(ReceiptSettingError::VatCode)
    }
}

/// One line of a receipt: `quantity` of `description` at `price` each.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReceiptLine {
    pub description: String,
    pub quantity: u32,
    /// The price of one, in kopecks.
    pub price: i64,
    pub vat_code: u8,
}

/// A receipt as the gateway is asked to send it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Receipt {
    /// Where the buyer gets it.
    pub email: String,
    pub lines: Vec<ReceiptLine>,
    pub tax_system_code: u8,
}

impl Receipt {
    /// The receipt of a purchase of `total`: one line; extra devices are counted with their
    /// price each when the total divides evenly (it does: the price is per device), else one
    /// line for the whole.
    pub fn of_purchase(
        settings: ReceiptSettings,
        email: &str,
        description: &str,
        purpose: Purpose,
        total: Money,
    ) -> Receipt {
        let description: String = description.chars().take(LINE_DESCRIPTION_MAX_CHARS).collect();
        let (quantity, price) = match purpose {
            Purpose::Devices { count } if count > 1 && total.kopecks() % i64::from(count) == 0 => {
                (count, total.kopecks() / i64::from(count))
            }
            _ => (1, total.kopecks()),
        };
        Receipt {
            email: email.to_owned(),
            lines: vec![ReceiptLine { description, quantity, price, vat_code: settings.vat_code }],
            tax_system_code: settings.tax_system_code,
        }
    }

    /// What the lines add up to: the payment's amount.
    pub fn total(&self) -> Money {
        Money::from_kopecks(self.lines.iter().map(|l| l.price * i64::from(l.quantity)).sum())
    }

    /// The same lines for another amount (a renewal charge at today's price).
    pub fn for_amount(&self, description: &str, purpose: Purpose, total: Money) -> Receipt {
        let settings = ReceiptSettings {
            tax_system_code: self.tax_system_code,
            vat_code: self.lines.first().map_or(1, |l| l.vat_code),
        };
        Receipt::of_purchase(settings, &self.email, description, purpose, total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SETTINGS: ReceiptSettings = ReceiptSettings { tax_system_code: 2, vat_code: 1 };

    /// A purchase of `a@b.example` for `kopecks`.
    fn bought(description: &str, purpose: Purpose, kopecks: i64) -> Receipt {
        Receipt::of_purchase(SETTINGS, "a@b.example", description, purpose, Money::from_kopecks(kopecks))
    }

    #[test]
    fn a_plan_is_one_line_of_one_at_the_whole_price() {
        let r = bought("Fast VPN: 1 month", Purpose::Subscription { plan_id: 1 }, 23_880);
        assert_eq!(
            r.lines,
            [ReceiptLine { description: "Fast VPN: 1 month".into(), quantity: 1, price: 23_880, vat_code: 1 }]
        );
        assert_eq!((r.total(), r.tax_system_code), (Money::from_kopecks(23_880), 2));
    }

    #[test]
    fn devices_are_counted_at_their_price_each_and_the_lines_add_up_to_the_amount() {
        let r = bought("3 devices", Purpose::Devices { count: 3 }, 3 * 5_880);
        assert_eq!((r.lines[0].quantity, r.lines[0].price), (3, 5_880));
        assert_eq!(r.total(), Money::from_kopecks(3 * 5_880));
        let odd = bought("3 devices", Purpose::Devices { count: 3 }, 100);
        assert_eq!((odd.lines[0].quantity, odd.total()), (1, Money::from_kopecks(100)), "never a rounded line");
    }

    #[test]
    fn a_long_description_is_cut_to_128_characters() {
        let long = "Щ".repeat(200);
        let r = bought(&long, Purpose::Subscription { plan_id: 1 }, 1);
        assert_eq!(r.lines[0].description.chars().count(), 128);
    }

    #[test]
    fn settings_are_yookassas_codes() {
        assert_eq!(ReceiptSettings::parse_tax_system("6"), Ok(6));
        assert_eq!(ReceiptSettings::parse_tax_system("7"), Err(ReceiptSettingError::TaxSystem));
        assert_eq!(ReceiptSettings::parse_vat_code(" 1 "), Ok(1));
        for bad in ["0", "13", "x", ""] {
            assert_eq!(ReceiptSettings::parse_vat_code(bad), Err(ReceiptSettingError::VatCode), "{bad}");
        }
    }
}
