//! What a shop button says when pressed: its callback data, at most 64 bytes (Telegram's
//! limit), never a device id or anything else the person should not be able to forge into
//! something they do not own: a device is named by an index into the chat's current list, a
//! subscription by its number among the person's own (`@2`), looked up for the person.

/// Longest payment method code (spec: `method` 1 to 32 characters).
const METHOD_MAX: usize = 32;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Choice {
    Menu,
    Language,
    Plans,
    /// A plan; with several payment methods the method is chosen in a second step.
    Buy {
        plan_id: i32,
        method: Option<String>,
    },
    DeviceOffer,
    BuyDevices {
        count: u32,
        method: Option<String>,
    },
    Trial,
    Subscription,
    /// Turns automatic renewal off.
    AutoRenewOff,
    /// Consents to automatic renewal with the invoice `payment_id` (before paying it).
    RenewOn {
        payment_id: String,
    },
    Connect,
    NewLink,
    Devices,
    /// Asks to confirm removing the device at `index` of the list `nonce`.
    RemoveAsk {
        nonce: String,
        index: usize,
    },
    Remove {
        nonce: String,
        index: usize,
    },
    Help,
    /// "I have a promo code": the next message is read as the code.
    PromoAsk,
    /// "Invite a friend": the shopper's personal link.
    Invite,
    /// "New subscription": asks for its name.
    NewSubscription,
    /// "Gift a subscription": the plans to give.
    GiftPlans,
    /// A plan to give; with several payment methods the method is chosen in a second step.
    Gift {
        plan_id: i32,
        method: Option<String>,
    },
}

/// The most digits of a subscription's number in a button (a person holds at most ten).
const TARGET_MAX_DIGITS: usize = 2;

/// A press's data: the choice, and the person's subscription it acts on (`@<number>` after it;
/// none: their first, or the screen asks which).
pub(crate) fn parse_press(data: &str) -> Option<(Choice, Option<u32>)> {
    let (head, target) = match data.rsplit_once('@') {
        Some((head, digits)) => {
            let number = (1..=TARGET_MAX_DIGITS).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit());
            let canonical = digits == "0" || !digits.starts_with('0');
            if !number || !canonical {
                return None;
            }
            (head, Some(digits.parse().ok()?))
        }
        None => (data, None),
    };
    let choice = Choice::parse(head)?;
    (target.is_none() || choice.scoped()).then_some((choice, target))
}

/// The data of `choice` for the subscription `target`, where the choice acts on one.
pub(crate) fn press_data(choice: &Choice, target: Option<u32>) -> String {
    match target.filter(|_| choice.scoped()) {
        Some(t) => format!("{}@{t}", choice.data()),
        None => choice.data(),
    }
}

/// An invoice id as the service makes them (`pay_` and URL-safe characters): whose it is
/// is checked when the press is handled.
fn is_invoice_id(text: &str) -> bool {
    text.len() <= 40
        && text.starts_with("pay_")
        && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

impl Choice {
    /// Whether the choice acts on one of the person's subscriptions (and so carries which).
    pub(crate) fn scoped(&self) -> bool {
        !matches!(
            self,
            Choice::Menu
                | Choice::Language
                | Choice::Help
                | Choice::PromoAsk
                | Choice::Invite
                | Choice::Trial
                | Choice::NewSubscription
                | Choice::GiftPlans
                | Choice::Gift { .. }
        )
    }

    pub(crate) fn data(&self) -> String {
        let with_method = |head: String, method: &Option<String>| match method {
            Some(m) => format!("{head}:{m}"),
            None => head,
        };
        match self {
            Choice::Menu => "menu".into(),
            Choice::Language => "lang".into(),
            Choice::Plans => "plans".into(),
            Choice::Buy { plan_id, method } => with_method(format!("buy:{plan_id}"), method),
            Choice::DeviceOffer => "devoffer".into(),
            Choice::BuyDevices { count, method } => with_method(format!("buydev:{count}"), method),
            Choice::Trial => "trial".into(),
            Choice::Subscription => "sub".into(),
            Choice::AutoRenewOff => "renewoff".into(),
            Choice::RenewOn { payment_id } => format!("renew:{payment_id}"),
            Choice::Connect => "connect".into(),
            Choice::NewLink => "newlink".into(),
            Choice::Devices => "devices".into(),
            Choice::RemoveAsk { nonce, index } => format!("rm?:{nonce}:{index}"),
            Choice::Remove { nonce, index } => format!("rm!:{nonce}:{index}"),
            Choice::Help => "help".into(),
            Choice::PromoAsk => "promo".into(),
            Choice::Invite => "invite".into(),
            Choice::NewSubscription => "subnew".into(),
            Choice::GiftPlans => "giftplans".into(),
            Choice::Gift { plan_id, method } => with_method(format!("gift:{plan_id}"), method),
        }
    }

    /// `None` for data the shop does not make (an old bot's buttons, or forged data).
    pub(crate) fn parse(data: &str) -> Option<Choice> {
        let mut parts = data.split(':');
        let head = parts.next()?;
        let rest: Vec<&str> = parts.collect();
        let method = |i: usize| -> Option<Option<String>> {
            match rest.get(i) {
                None => Some(None),
                Some(m) if (1..=METHOD_MAX).contains(&m.len()) => Some(Some((*m).to_owned())),
                Some(_) => None,
            }
        };
        let choice = match (head, rest.len()) {
            ("menu", 0) => Choice::Menu,
            ("lang", 0) => Choice::Language,
            ("plans", 0) => Choice::Plans,
            ("buy", 1 | 2) => Choice::Buy { plan_id: rest[0].parse().ok()?, method: method(1)? },
            ("devoffer", 0) => Choice::DeviceOffer,
            ("buydev", 1 | 2) => Choice::BuyDevices { count: rest[0].parse().ok()?, method: method(1)? },
            ("trial", 0) => Choice::Trial,
            ("sub", 0) => Choice::Subscription,
            ("renewoff", 0) => Choice::AutoRenewOff,
            ("renew", 1) if is_invoice_id(rest[0]) => Choice::RenewOn { payment_id: rest[0].to_owned() },
            ("connect", 0) => Choice::Connect,
            ("newlink", 0) => Choice::NewLink,
            ("devices", 0) => Choice::Devices,
            ("rm?", 2) => Choice::RemoveAsk { nonce: rest[0].to_owned(), index: rest[1].parse().ok()? },
            ("rm!", 2) => Choice::Remove { nonce: rest[0].to_owned(), index: rest[1].parse().ok()? },
            ("help", 0) => Choice::Help,
            ("promo", 0) => Choice::PromoAsk,
            ("invite", 0) => Choice::Invite,
            ("subnew", 0) => Choice::NewSubscription,
            ("giftplans", 0) => Choice::GiftPlans,
            ("gift", 1 | 2) => Choice::Gift { plan_id: rest[0].parse().ok()?, method: method(1)? },
            _ => return None,
        };
        (choice.data() == data).then_some(choice)
    }
}

#[cfg(test)]
mod tests {
    use super::{Choice, parse_press, press_data};

    #[test]
    fn every_choice_round_trips_within_telegrams_64_bytes() {
        let longest_method = "m".repeat(32);
        let choices = [
            Choice::Menu,
            Choice::Language,
            Choice::Plans,
            Choice::Buy { plan_id: i32::MAX, method: None },
            Choice::Buy { plan_id: i32::MIN, method: Some(longest_method.clone()) },
            Choice::DeviceOffer,
            Choice::BuyDevices { count: u32::MAX, method: Some(longest_method) },
            Choice::Trial,
            Choice::Subscription,
            Choice::AutoRenewOff,
            Choice::RenewOn { payment_id: "pay_AbCdEfGhIjKlMnOpQrStUv".into() },
            Choice::Connect,
            Choice::NewLink,
            Choice::Devices,
            Choice::RemoveAsk { nonce: "AbCdEfGh".into(), index: 99 },
            Choice::Remove { nonce: "AbCdEfGh".into(), index: 99 },
            Choice::Help,
            Choice::PromoAsk,
            Choice::NewSubscription,
            Choice::GiftPlans,
            Choice::Gift { plan_id: i32::MIN, method: Some("m".repeat(32)) },
        ];
        for choice in choices {
            let data = choice.data();
            assert!((1..=64).contains(&data.len()), "{data}");
            assert_eq!(Choice::parse(&data), Some(choice.clone()));
            let targeted = press_data(&choice, Some(9));
            assert!(targeted.len() <= 64, "{targeted}");
            let expected = if choice.scoped() { Some(9) } else { None };
            assert_eq!(parse_press(&targeted), Some((choice, expected)), "{targeted}");
        }
    }

    #[test]
    fn a_press_names_the_persons_subscription_by_its_number_only_where_the_choice_acts_on_one() {
        assert_eq!(parse_press("plans@2"), Some((Choice::Plans, Some(2))));
        assert_eq!(parse_press("sub@0"), Some((Choice::Subscription, Some(0))));
        assert_eq!(
            parse_press("rm!:AbCdEfGh:3@1"),
            Some((Choice::Remove { nonce: "AbCdEfGh".into(), index: 3 }, Some(1)))
        );
        assert_eq!(parse_press("plans"), Some((Choice::Plans, None)));
        let forged_list =
            ["plans@", "plans@x", "plans@02", "plans@100", "plans@-1", "menu@1", "subnew@1", "plans@1@2", "gift:1@1"];
        for forged in forged_list {
            assert_eq!(parse_press(forged), None, "{forged:?}");
        }
    }

    #[test]
    fn data_the_shop_never_made_is_not_a_choice() {
        for data in [
            "",
            "buy",
            "buy:x",
            "buy:1:",
            "buy:01",
            "rm!:n",
            "rm!:n:-1",
            "menu:1",
            "devices ",
            "drop:table",
            "renew:",
            "renew:cli_x",
            "renew:pay_a b",
        ] {
            assert_eq!(Choice::parse(data), None, "{data:?}");
        }
    }
}
