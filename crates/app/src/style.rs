//! An account's page style (`vp-api account set-style`): the checks every value passes before
//! it is stored, so the pages can put it into HTML and CSS as it is.

use vp_ports::AccountStyle;

use crate::error::{AppError, AppResult, FieldErrors};

/// The longest address kept, as for `return_url`.
const URL_MAX: usize = 500;
/// WCAG AA for normal text: the accent carries white button labels.
const MIN_CONTRAST: f64 = 4.5;

/// A change to one style value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StyleChange {
    Keep,
    Clear,
    Set(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StyleChanges {
    pub logo_url: StyleChange,
    pub accent_color: StyleChange,
    pub support_url: StyleChange,
}

/// Checks a value and gives it back as it is stored, or says what is wrong.
type Check = fn(&str) -> Result<String, String>;

/// Applies `changes` to `style`; nothing changes unless every value passes.
pub fn apply(style: &AccountStyle, changes: StyleChanges) -> AppResult<AccountStyle> {
    let mut errors = FieldErrors::new();
    let mut next = style.clone();
    let fields: [(&str, StyleChange, &mut Option<String>, Check); 3] = [
        ("logo_url", changes.logo_url, &mut next.logo_url, https_url),
        ("accent_color", changes.accent_color, &mut next.accent_color, accent_color),
        ("support_url", changes.support_url, &mut next.support_url, https_url),
    ];
    for (name, change, slot, check) in fields {
        match change {
            StyleChange::Keep => {}
            StyleChange::Clear => *slot = None,
            StyleChange::Set(value) => match check(value.trim()) {
                Ok(v) => *slot = Some(v),
                Err(why) => {
                    errors.insert(name.to_owned(), why);
                }
            },
        }
    }
    if errors.is_empty() { Ok(next) } else { Err(AppError::Validation(errors)) }
}

pub(crate) fn https_url(value: &str) -> Result<String, String> {
    let rest = value.strip_prefix("https://").ok_or("must be an https:// address")?;
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if host.is_empty() || value.len() > URL_MAX {
        return Err(format!("must be an https:// address with a host, at most {URL_MAX} characters"));
    }
    if value.chars().any(|c| c.is_whitespace() || c.is_control() || matches!(c, '"' | '\'' | '<' | '>' | '\\')) {
        return Err("must not contain spaces, quotes, angle brackets or backslashes".into());
    }
    Ok(value.to_owned())
}

fn accent_color(value: &str) -> Result<String, String> {
    let hex = value.strip_prefix('#').filter(|h| h.len() == 6 && h.chars().all(|c| c.is_ascii_hexdigit()));
    let hex = hex.ok_or("must look like #1a7f37")?.to_ascii_lowercase();
    let channel = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap_or(0);
    let contrast = contrast_with_white(channel(0), channel(2), channel(4));
    if contrast < MIN_CONTRAST {
        return Err(format!(
            "is too light: white text on it has a contrast of {contrast:.2}:1, at least {MIN_CONTRAST}:1 is needed"
        ));
    }
    Ok(format!("#{hex}"))
}

/// WCAG 2 contrast ratio of white against the colour.
pub fn contrast_with_white(r: u8, g: u8, b: u8) -> f64 {
    let linear = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.039_28 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
    };
    let luminance = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    1.05 / (luminance + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(logo: StyleChange, accent: StyleChange, support: StyleChange) -> AppResult<AccountStyle> {
        apply(&AccountStyle::default(), StyleChanges { logo_url: logo, accent_color: accent, support_url: support })
    }

    #[test]
    fn accents_must_carry_white_text_at_aa_contrast() {
        assert!((contrast_with_white(0, 0, 0) - 21.0).abs() < 1e-9);
        assert!((contrast_with_white(255, 255, 255) - 1.0).abs() < 1e-9);
        let ok = set(StyleChange::Keep, StyleChange::Set("#1A7F37".into()), StyleChange::Keep).unwrap();
        assert_eq!(ok.accent_color.as_deref(), Some("#1a7f37"), "stored lower-case");
        let Err(AppError::Validation(errors)) =
            set(StyleChange::Keep, StyleChange::Set("#ffcc00".into()), StyleChange::Keep)
        else {
            panic!("yellow under white text must be refused")
        };
        assert!(errors["accent_color"].contains("too light"), "{errors:?}");
        for bad in ["1a7f37", "#1a7f3", "#1a7f37;", "red"] {
            assert!(set(StyleChange::Keep, StyleChange::Set(bad.into()), StyleChange::Keep).is_err(), "{bad}");
        }
    }

    #[test]
    fn addresses_must_be_https_and_safe_to_put_in_html() {
        let ok = set(
            StyleChange::Set("https://brand.example/logo.svg".into()),
            StyleChange::Keep,
            StyleChange::Set("https://t.me/brand_support".into()),
        )
        .unwrap();
        assert_eq!(ok.support_url.as_deref(), Some("https://t.me/brand_support"));
        for bad in ["http://brand.example/x", "https://", "https://a b", "https://x/\"onload", "javascript:alert(1)"] {
            assert!(set(StyleChange::Set(bad.into()), StyleChange::Keep, StyleChange::Keep).is_err(), "{bad}");
        }
        let long = format!("https://x.example/{}", "a".repeat(500));
        assert!(set(StyleChange::Keep, StyleChange::Keep, StyleChange::Set(long)).is_err());
    }

    #[test]
    fn one_bad_value_changes_nothing_and_none_clears() {
        let style = AccountStyle { logo_url: Some("https://a.example/l.png".into()), ..AccountStyle::default() };
        let bad = StyleChanges {
            logo_url: StyleChange::Clear,
            accent_color: StyleChange::Set("#fff".into()),
            support_url: StyleChange::Keep,
        };
        assert!(apply(&style, bad).is_err());
        let clear = StyleChanges {
            logo_url: StyleChange::Clear,
            accent_color: StyleChange::Keep,
            support_url: StyleChange::Keep,
        };
        assert_eq!(apply(&style, clear).unwrap(), AccountStyle::default());
    }
}
