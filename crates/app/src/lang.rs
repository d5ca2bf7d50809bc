//! The language of names and messages (spec: General conventions, Language).

use crate::catalogue::Localized;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    En,
    Ru,
}

impl Lang {
    /// From an `Accept-Language` header: `ru` (or `ru-RU`, or `ru` listed first) gives Russian;
    /// anything else, or no header, English.
    pub fn from_accept_language(header: Option<&str>) -> Lang {
        let first = header.and_then(|h| h.split(',').next()).map(|t| t.split(';').next().unwrap_or("").trim());
        match first {
            Some(tag)
                if tag.eq_ignore_ascii_case("ru") || tag.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("ru-")) =>
            {
                Lang::Ru
            }
            _ => Lang::En,
        }
    }

    pub fn pick(self, text: &Localized) -> &str {
        match self {
            Lang::En => &text.en,
            Lang::Ru => &text.ru,
        }
    }

    pub fn pick_str<'a>(self, en: &'a str, ru: &'a str) -> &'a str {
        match self {
            Lang::En => en,
            Lang::Ru => ru,
        }
    }

    pub const fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ru => "ru",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn russian_only_when_asked_for_first_anything_else_is_english() {
        assert_eq!(Lang::from_accept_language(Some("ru")), Lang::Ru);
        assert_eq!(Lang::from_accept_language(Some("RU-ru")), Lang::Ru);
        assert_eq!(Lang::from_accept_language(Some("ru;q=0.9, en")), Lang::Ru);
        assert_eq!(Lang::from_accept_language(Some("en")), Lang::En);
        assert_eq!(Lang::from_accept_language(Some("de")), Lang::En);
        assert_eq!(Lang::from_accept_language(Some("rus")), Lang::En);
        assert_eq!(Lang::from_accept_language(Some("en, ru")), Lang::En);
        assert_eq!(Lang::from_accept_language(None), Lang::En);
    }
}
