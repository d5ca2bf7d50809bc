//! Several subscriptions per person (docs/decisions.md, "Several subscriptions per person"):
//! the rules a further subscription's name and their number obey, in the bot and the web shop.

/// The longest name, in characters (a button's label must stay readable).
pub const NAME_MAX_CHARS: usize = 32;

/// The most subscriptions one person holds in an account's bot or web shop (the first and nine
/// more): a family's need, and a bound on what one person can make.
pub const SUBSCRIPTIONS_PER_PERSON: u32 = 10;

/// A name as the person wrote it, trimmed; `None` when it cannot be one.
pub fn subscription_name(written: &str) -> Option<String> {
    let name = written.trim();
    let fits = (1..=NAME_MAX_CHARS).contains(&name.chars().count());
    (fits && !name.chars().any(char::is_control) && !name.starts_with('/')).then(|| name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_one_to_32_characters_trimmed_without_control_characters_or_a_command() {
        assert_eq!(subscription_name("  Router "), Some("Router".to_owned()));
        assert_eq!(subscription_name("Мамин телефон"), Some("Мамин телефон".to_owned()));
        assert_eq!(subscription_name(&"я".repeat(32)), Some("я".repeat(32)));
        for refused in ["", "   ", &"я".repeat(33), "Router\nPhone", "/start"] {
            assert_eq!(subscription_name(refused), None, "{refused:?}");
        }
    }
}
