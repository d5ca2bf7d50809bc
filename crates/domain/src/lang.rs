//! The language of names and messages (spec: General conventions, Language): English, or
//! Russian when asked for first.

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

    /// The language of an `en` or `ru` code, as URLs, cookies and stored preferences carry it.
    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.code() == code)
    }

    /// The value of this language from data kept in both (an operator's method names); texts
    /// of the code come from the message catalogues instead.
    pub fn pick_str<'a>(self, en: &'a str, ru: &'a str) -> &'a str {
        match self {
            Lang::En => en,
            Lang::Ru => ru,
        }
    }

    /// Every language, in the order a switch lists them.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Ru];

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
