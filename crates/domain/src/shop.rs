//! The account's web shop (docs/decisions.md, "The web shop"): its address is
//! `/shop/{slug}`, a slug made from the brand and changeable by the operator.

use std::fmt;

use thiserror::Error;

pub const SLUG_MIN_CHARS: usize = 3;
pub const SLUG_MAX_CHARS: usize = 40;

/// Words the service's own paths or the operator's pages could be mistaken for.
const RESERVED: [&str; 8] = ["api", "admin", "assets", "cabinet", "shop", "static", "www", "help"];

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ShopSlugError {
    #[error("must be {SLUG_MIN_CHARS} to {SLUG_MAX_CHARS} characters")]
    Length,
    #[error("may contain only lowercase Latin letters, digits and single hyphens between them")]
    Characters,
    #[error("{0} is kept for the service's own pages")]
    Reserved(String),
}

/// A shop's slug: lowercase Latin letters and digits, words joined by single hyphens.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ShopSlug(String);

impl ShopSlug {
    /// The operator's slug (`vp-api account set-slug`), taken in any case.
    pub fn parse(raw: &str) -> Result<ShopSlug, ShopSlugError> {
        let slug = raw.trim().to_ascii_lowercase();
        if !(SLUG_MIN_CHARS..=SLUG_MAX_CHARS).contains(&slug.chars().count()) {
            return Err(ShopSlugError::Length);
        }
        let words_ok =
            slug.split('-').all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()));
        if !words_ok {
            return Err(ShopSlugError::Characters);
        }
        if RESERVED.contains(&slug.as_str()) {
            return Err(ShopSlugError::Reserved(slug));
        }
        Ok(ShopSlug(slug))
    }

    /// The slug a brand gets: Cyrillic transliterated, everything else not a letter or digit
    /// a hyphen (`Быстрый VPN!` is `bystryy-vpn`), short enough for `with_number`; a brand
    /// with too little of either is `shop-` and its letters, or `my-shop`.
    pub fn from_brand(brand: &str) -> ShopSlug {
        let mut out = String::new();
        for c in brand.chars().flat_map(char::to_lowercase) {
            match latin(c) {
                Some(l) => out.push_str(l),
                None if c.is_ascii_alphanumeric() => out.push(c),
                None => out.push('-'),
            }
        }
        let words: Vec<&str> = out.split('-').filter(|w| !w.is_empty()).collect();
        let mut slug = String::new();
        for w in words {
            // Room for `-NNNN` after it.
            if slug.len() + w.len() + 1 > SLUG_MAX_CHARS - 5 {
                break;
            }
            if !slug.is_empty() {
                slug.push('-');
            }
            slug.push_str(w);
        }
        match ShopSlug::parse(&slug) {
            Ok(s) => s,
            Err(_) if slug.is_empty() => ShopSlug("my-shop".into()),
            Err(_) => ShopSlug(format!("shop-{slug}").chars().take(SLUG_MAX_CHARS - 5).collect()),
        }
    }

    /// The next choice when this one is taken: `bystryy-vpn-2`, `-3`, ...
    pub fn with_number(&self, n: u32) -> ShopSlug {
        ShopSlug(format!("{}-{n}", self.0))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ShopSlug {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Russian letters in Latin as Russian brands usually write them in web addresses (close to
/// the passport system, with `y` for `й` and `ы`), without diacritics.
fn latin(c: char) -> Option<&'static str> {
    Some(match c {
        'а' => "a",
        'б' => "b",
        'в' => "v",
        'г' => "g",
        'д' => "d",
        'е' | 'ё' | 'э' => "e",
        'ж' => "zh",
        'з' => "z",
        'и' => "i",
        'й' | 'ы' => "y",
        'к' => "k",
        'л' => "l",
        'м' => "m",
        'н' => "n",
        'о' => "o",
        'п' => "p",
        'р' => "r",
        'с' => "s",
        'т' => "t",
        'у' => "u",
        'ф' => "f",
        'х' => "kh",
        'ц' => "ts",
        'ч' => "ch",
        'ш' => "sh",
        'щ' => "shch",
        'ъ' | 'ь' => "",
        'ю' => "iu",
        'я' => "ia",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_brand_gives_a_readable_latin_slug() {
        let slug = |b: &str| ShopSlug::from_brand(b).as_str().to_owned();
        assert_eq!(slug("Fast VPN"), "fast-vpn");
        assert_eq!(slug("Быстрый VPN!"), "bystryy-vpn");
        assert_eq!(slug("  Щит & Ёж  "), "shchit-ezh");
        assert_eq!(slug("VPN"), "vpn");
        assert_eq!(slug("⚡"), "my-shop");
        assert_eq!(slug("X"), "shop-x");
        assert_eq!(slug("Shop"), "shop-shop", "a reserved word is prefixed");
        let long = slug(&"very long brand name ".repeat(5));
        assert!(long.len() <= SLUG_MAX_CHARS - 5 && !long.ends_with('-'), "{long}");
        assert_eq!(ShopSlug::from_brand("Fast VPN").with_number(2).as_str(), "fast-vpn-2");
    }

    #[test]
    fn every_slug_made_from_a_brand_passes_the_operators_rule() {
        for brand in ["Fast VPN", "Быстрый VPN!", "⚡", "X", "Shop", "a--b", "-x-", "Ёлка 2026", "api"] {
            let slug = ShopSlug::from_brand(brand);
            assert_eq!(ShopSlug::parse(slug.as_str()), Ok(slug.clone()), "{brand}");
            assert!(ShopSlug::parse(slug.with_number(9999).as_str()).is_ok(), "{brand}");
        }
    }

    #[test]
    fn the_operator_may_set_only_lowercase_words_with_single_hyphens() {
        assert_eq!(ShopSlug::parse(" Fast-VPN ").unwrap().as_str(), "fast-vpn");
        assert_eq!(ShopSlug::parse("ab"), Err(ShopSlugError::Length));
        assert_eq!(ShopSlug::parse(&"a".repeat(41)), Err(ShopSlugError::Length));
        for bad in ["-abc", "abc-", "a--bc", "a_bc", "a bc", "быстрый", "a/bc", "a.bc"] {
            assert_eq!(ShopSlug::parse(bad), Err(ShopSlugError::Characters), "{bad}");
        }
        assert_eq!(ShopSlug::parse("Cabinet"), Err(ShopSlugError::Reserved("cabinet".into())));
    }
}
