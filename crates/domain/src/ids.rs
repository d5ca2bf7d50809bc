//! Ids this service issues: a kind's prefix, `_`, then URL-safe characters (`acc_…`). Each kind
//! is its own type, so an account id cannot be passed where an endpoint id is meant. They are
//! checked once where they come in as text (a CLI argument, a path segment) with `parse`; ids
//! the service made itself or reads back from its own store are taken as `issued`.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;
use std::str::FromStr;

use thiserror::Error;

/// The most characters after the prefix (16 random bytes are 22 in base64; room for ids of
/// older releases and the demo's readable ones).
const MAX_SUFFIX_CHARS: usize = 64;

/// A text that is not an id of the kind asked for.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{kind} must be `{prefix}_` followed by 1 to 64 letters, digits, `_` or `-`")]
pub struct InvalidId {
    pub kind: &'static str,
    pub prefix: &'static str,
}

macro_rules! issued_id {
    ($(#[$doc:meta])* $name:ident, $prefix:literal, $kind:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
        #[serde(transparent)]
        pub struct $name(String);

        impl $name {
            /// What every id of this kind starts with, before its `_`.
            pub const PREFIX: &'static str = $prefix;
            /// The id's name in messages.
            pub const KIND: &'static str = $kind;

            /// An id given as text from outside: refused unless it has this kind's shape.
            pub fn parse(raw: &str) -> Result<Self, InvalidId> {
                let suffix = raw.strip_prefix($prefix).and_then(|rest| rest.strip_prefix('_'));
                match suffix {
                    Some(s) if well_formed(s) => Ok($name(raw.to_owned())),
                    _ => Err(InvalidId { kind: $kind, prefix: $prefix }),
                }
            }

            /// An id this service issued: one it made now, or read back from its own store.
            pub fn issued(id: String) -> Self {
                $name(id)
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        /// So a command line's argument parses as one (clap reads `FromStr` types itself).
        impl FromStr for $name {
            type Err = InvalidId;
            fn from_str(raw: &str) -> Result<Self, InvalidId> {
                $name::parse(raw)
            }
        }

        impl Deref for $name {
            type Target = str;
            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl Borrow<str> for $name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl From<$name> for String {
            fn from(id: $name) -> String {
                id.0
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }

        impl PartialEq<&$name> for $name {
            fn eq(&self, other: &&$name) -> bool {
                self == *other
            }
        }

        impl PartialEq<String> for $name {
            fn eq(&self, other: &String) -> bool {
                &self.0 == other
            }
        }

        impl PartialEq<$name> for String {
            fn eq(&self, other: &$name) -> bool {
                self == &other.0
            }
        }

        impl PartialEq<$name> for &str {
            fn eq(&self, other: &$name) -> bool {
                *self == other.0
            }
        }
    };
}

fn well_formed(suffix: &str) -> bool {
    let len = suffix.chars().count();
    (1..=MAX_SUFFIX_CHARS).contains(&len) && suffix.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
}

issued_id!(
    /// A partner's account (`acc_…`).
    AccountId,
    "acc",
    "account id"
);

issued_id!(
    /// A client's own record (`cli_…`): the service's name for the client the partner calls by
    /// its `client_id`, unique across accounts; the bot, the shop and the renewals hold it.
    ClientRef,
    "cli",
    "client ref"
);

issued_id!(
    /// A partner's webhook endpoint (`we_…`).
    EndpointId,
    "we",
    "endpoint id"
);

issued_id!(
    /// An invoice, as the partner API calls it: a payment (`pay_…`).
    PaymentId,
    "pay",
    "payment id"
);

issued_id!(
    /// An event sent to a partner's endpoints: the Standard Webhooks `webhook-id` (`msg_…`).
    EventId,
    "msg",
    "event id"
);

issued_id!(
    /// A partner's request to withdraw from the balance (`wd_…`).
    WithdrawalId,
    "wd",
    "withdrawal id"
);

issued_id!(
    /// A broadcast of an account's bot (`bcs_…`).
    BroadcastId,
    "bcs",
    "broadcast id"
);

issued_id!(
    /// A person who signs in to the partner cabinet (`usr_…`).
    CabinetUserId,
    "usr",
    "user id"
);

issued_id!(
    /// A platform operator, who signs in at `/operator` (`opr_…`).
    OperatorId,
    "opr",
    "operator id"
);

issued_id!(
    /// A partner API key, by its public id (`key_…`), not its secret.
    ApiKeyId,
    "key",
    "key id"
);

issued_id!(
    /// A message of the mail outbox (`mail_…`).
    MailId,
    "mail",
    "mail id"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_id_is_its_prefix_and_url_safe_characters() {
        for ok in ["acc_1", "acc_AbC-d_9", "acc_demo", &format!("acc_{}", "x".repeat(64))] {
            assert_eq!(AccountId::parse(ok).map(|id| id.to_string()), Ok(ok.to_owned()));
        }
        for bad in
            ["", "acc", "acc_", "acc-1", "pay_1", "ACC_1", "acc_a b", "acc_é", &format!("acc_{}", "x".repeat(65))]
        {
            assert_eq!(AccountId::parse(bad), Err(InvalidId { kind: "account id", prefix: "acc" }), "{bad:?}");
            assert_eq!(bad.parse::<AccountId>(), AccountId::parse(bad), "FromStr is parse");
        }
    }

    #[test]
    fn each_kind_takes_only_ids_with_its_own_prefix() {
        let samples =
            ["acc_1", "cli_1", "we_1", "pay_1", "msg_1", "wd_1", "bcs_1", "usr_1", "key_1", "mail_1", "opr_1"];
        type Parses = fn(&str) -> bool;
        let kinds: [(&str, Parses); 11] = [
            ("acc", |t| AccountId::parse(t).is_ok()),
            ("cli", |t| ClientRef::parse(t).is_ok()),
            ("we", |t| EndpointId::parse(t).is_ok()),
            ("pay", |t| PaymentId::parse(t).is_ok()),
            ("msg", |t| EventId::parse(t).is_ok()),
            ("wd", |t| WithdrawalId::parse(t).is_ok()),
            ("bcs", |t| BroadcastId::parse(t).is_ok()),
            ("usr", |t| CabinetUserId::parse(t).is_ok()),
            ("key", |t| ApiKeyId::parse(t).is_ok()),
            ("mail", |t| MailId::parse(t).is_ok()),
            ("opr", |t| OperatorId::parse(t).is_ok()),
        ];
        for (prefix, parses) in kinds {
            for sample in samples {
                let own = sample.strip_suffix("_1") == Some(prefix);
                assert_eq!(parses(sample), own, "{prefix} id given {sample:?}");
            }
        }
    }

    #[test]
    fn an_id_compares_with_its_text_from_either_side() {
        let id = PaymentId::issued("pay_1".into());
        let (same, other) = (String::from("pay_1"), String::from("pay_2"));
        assert_eq!(id, "pay_1");
        assert_eq!("pay_1", id);
        assert_eq!(same, id);
        assert_eq!(id, same);
        assert_ne!("pay_2", id);
        assert_ne!(other, id);
    }

    #[test]
    fn an_id_reads_as_its_text() {
        let id = AccountId::issued("acc_1".into());
        assert_eq!(id, "acc_1");
        assert_eq!(id.as_str(), "acc_1");
        assert_eq!(serde_json::to_string(&id).ok().as_deref(), Some("\"acc_1\""));
        assert_eq!(
            InvalidId { kind: AccountId::KIND, prefix: AccountId::PREFIX }.to_string(),
            "account id must be `acc_` followed by 1 to 64 letters, digits, `_` or `-`"
        );
    }
}
