//! Bots created through the platform's bot (Telegram's managed bots, docs/telegram.md
//! "Managed bots"): how long a "Create my bot" link works, how its code is told from a chat
//! link's, and the name and username the creation button suggests.

use time::Duration;

/// A "Create my bot" link works this long, for the first person who opens it, once.
pub const CREATE_LINK_VALID_FOR: Duration = Duration::hours(24);

/// What a "Create my bot" code starts with in the platform's bot's `/start` (a chat link's code
/// is plain base64url, which may also hold `_`, but never starts with this and is 43 long).
pub const CREATE_CODE_PREFIX: &str = "bot_";

/// The longest username Telegram takes.
const USERNAME_MAX: usize = 32;
/// The longest part of the brand kept in a suggested username.
const STEM_MAX: usize = USERNAME_MAX - "_0000_bot".len();

/// A username to suggest for the partner's bot, in BotFather's rules (5 to 32 Latin letters,
/// digits and underscores, starting with a letter, ending in `bot`): the brand's Latin letters
/// and digits, lowercase, then four digits of `salt` so that it is unlikely to be taken. A brand
/// without Latin letters gives `vpn`. The person may change it before creating the bot.
pub fn suggested_username(brand: &str, salt: u32) -> String {
    let mut stem: String =
        brand.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).take(STEM_MAX).collect();
    if !stem.starts_with(|c: char| c.is_ascii_lowercase()) {
        stem.insert_str(0, "vpn");
        stem.truncate(STEM_MAX);
    }
    format!("{stem}_{:04}_bot", salt % 10_000)
}

/// The name to suggest: the brand as it is, cut to Telegram's 64 characters for a bot's name.
pub fn suggested_name(brand: &str) -> String {
    brand.chars().take(64).collect()
}

/// The creation button's `request_id` (a signed 32-bit number; positive and non-zero here)
/// from four bytes of the code it belongs to.
pub fn request_id(seed: [u8; 4]) -> i32 {
    i32::try_from(u32::from_be_bytes(seed) & 0x7fff_ffff).unwrap_or(i32::MAX).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn follows_botfathers_rules(name: &str) -> bool {
        (5..=USERNAME_MAX).contains(&name.len())
            && name.starts_with(|c: char| c.is_ascii_alphabetic())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && name.ends_with("bot")
    }

    #[test]
    fn a_suggested_username_is_the_brand_in_latin_letters_with_four_digits_and_ends_in_bot() {
        assert_eq!(suggested_username("Fast VPN", 42), "fastvpn_0042_bot");
        assert_eq!(suggested_username("Fast VPN", 123_456), "fastvpn_3456_bot");
    }

    #[test]
    fn a_brand_without_latin_letters_or_starting_with_a_digit_still_gives_a_valid_username() {
        assert_eq!(suggested_username("Быстрый ВПН", 7), "vpn_0007_bot");
        assert_eq!(suggested_username("1st Net", 7), "vpn1stnet_0007_bot");
        let long = suggested_username(&"x".repeat(100), 9_999);
        assert!(follows_botfathers_rules(&long), "{long}");
        for brand in ["", "a", "Ünïcödé", "9", "__", &"7".repeat(40)] {
            let name = suggested_username(brand, u32::MAX);
            assert!(follows_botfathers_rules(&name), "{brand:?} gave {name}");
        }
    }

    #[test]
    fn a_request_id_is_a_positive_signed_32_bit_number() {
        assert_eq!(request_id([0, 0, 0, 0]), 1);
        assert_eq!(request_id([0xff, 0xff, 0xff, 0xff]), i32::MAX);
        assert_eq!(request_id([0, 0, 1, 0]), 256);
    }

    #[test]
    fn a_suggested_name_is_the_brand_within_64_characters() {
        assert_eq!(suggested_name("Fast VPN"), "Fast VPN");
        assert_eq!(suggested_name(&"я".repeat(70)).chars().count(), 64);
    }
}
