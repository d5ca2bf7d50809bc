//! Operator-edited content: the application catalogue and the legal documents. Both are JSON
//! documents validated here before they are stored, so the API only ever serves valid ones.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::error::{AppError, AppResult, FieldErrors};

pub const CATALOGUE_KEY: &str = "app_catalogue";
pub const DOCUMENTS_KEY: &str = "legal_documents";
/// Placeholder in a deep-link template replaced by the URL-encoded subscription link.
pub const URL_PLACEHOLDER: &str = "{url}";
/// Placeholder in document bodies replaced by the partner's brand name.
pub const BRAND_PLACEHOLDER: &str = "{brand}";

/// A text in both languages of the API.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Localized {
    pub en: String,
    pub ru: String,
}

impl Localized {
    fn check(&self, path: &str, errors: &mut FieldErrors) {
        if self.en.trim().is_empty() {
            errors.insert(format!("{path}.en"), "must not be empty".into());
        }
        if self.ru.trim().is_empty() {
            errors.insert(format!("{path}.ru"), "must not be empty".into());
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Platform {
    pub platform_id: String,
    pub name: Localized,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Application {
    pub app_id: String,
    pub app_name: String,
    /// Installation page per `platform_id`.
    pub install_links: BTreeMap<String, String>,
    /// Custom-scheme link that imports a subscription, with `{url}` for the link, e.g.
    /// `happ://add/{url}`.
    pub deep_link: String,
    /// The application accepts a subscription link pasted by hand.
    pub supports_manual_url: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Catalogue {
    pub platforms: Vec<Platform>,
    pub apps: Vec<Application>,
    pub recommended_app_id: String,
}

fn is_https(url: &str) -> bool {
    url.len() > 8
        && url.get(..8).is_some_and(|s| s.eq_ignore_ascii_case("https://"))
        && !url.contains(char::is_whitespace)
}

fn is_plain_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

impl Catalogue {
    /// Parses and validates an operator's catalogue file.
    pub fn parse(json: &str) -> AppResult<Catalogue> {
        let c: Catalogue = serde_json::from_str(json).map_err(|e| AppError::field("catalogue", e))?;
        c.validate()?;
        Ok(c)
    }

    pub fn validate(&self) -> AppResult<()> {
        let mut errors = FieldErrors::new();
        let mut platform_ids = BTreeSet::new();
        for (i, p) in self.platforms.iter().enumerate() {
            if !is_plain_id(&p.platform_id) {
                errors.insert(format!("platforms[{i}].platform_id"), "must be 1-64 letters, digits, - or _".into());
            }
            if !platform_ids.insert(p.platform_id.as_str()) {
                errors.insert(format!("platforms[{i}].platform_id"), "is used twice".into());
            }
            p.name.check(&format!("platforms[{i}].name"), &mut errors);
        }
        let mut app_ids = BTreeSet::new();
        for (i, a) in self.apps.iter().enumerate() {
            let path = format!("apps[{i}]");
            if !is_plain_id(&a.app_id) {
                errors.insert(format!("{path}.app_id"), "must be 1-64 letters, digits, - or _".into());
            }
            if !app_ids.insert(a.app_id.as_str()) {
                errors.insert(format!("{path}.app_id"), "is used twice".into());
            }
            if a.app_name.trim().is_empty() {
                errors.insert(format!("{path}.app_name"), "must not be empty".into());
            }
            if a.install_links.is_empty() {
                errors.insert(format!("{path}.install_links"), "needs at least one platform".into());
            }
            for (platform, url) in &a.install_links {
                if !platform_ids.contains(platform.as_str()) {
                    errors.insert(format!("{path}.install_links.{platform}"), "names an unknown platform".into());
                } else if !is_https(url) {
                    errors.insert(format!("{path}.install_links.{platform}"), "must be an https URL".into());
                }
            }
            let scheme_ok = a.deep_link.split_once("://").is_some_and(|(s, _)| {
                !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
            });
            if !scheme_ok || a.deep_link.matches(URL_PLACEHOLDER).count() != 1 {
                errors.insert(format!("{path}.deep_link"), "must be scheme://... containing {url} once".into());
            }
        }
        if !app_ids.contains(self.recommended_app_id.as_str()) {
            errors.insert("recommended_app_id".into(), "must be one of the apps".into());
        }
        if errors.is_empty() { Ok(()) } else { Err(AppError::Validation(errors)) }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Document {
    pub title: Localized,
    /// Plain text with paragraphs separated by blank lines; `{brand}` becomes the brand name.
    pub body: Localized,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Documents {
    pub terms_of_service: Document,
    pub privacy_policy: Document,
}

impl Documents {
    pub fn parse(json: &str) -> AppResult<Documents> {
        let d: Documents = serde_json::from_str(json).map_err(|e| AppError::field("documents", e))?;
        let mut errors = FieldErrors::new();
        for (name, doc) in [("terms_of_service", &d.terms_of_service), ("privacy_policy", &d.privacy_policy)] {
            doc.title.check(&format!("{name}.title"), &mut errors);
            doc.body.check(&format!("{name}.body"), &mut errors);
        }
        if errors.is_empty() { Ok(d) } else { Err(AppError::Validation(errors)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demo;

    #[test]
    fn the_demo_catalogue_and_documents_are_valid() {
        let c = Catalogue::parse(demo::CATALOGUE_JSON).unwrap();
        assert!(c.apps.iter().any(|a| a.app_id == c.recommended_app_id));
        Documents::parse(demo::DOCUMENTS_JSON).unwrap();
    }

    #[test]
    fn a_catalogue_with_unknown_platforms_bad_links_and_missing_recommendation_is_refused_naming_each_field() {
        let json = r#"{
          "platforms": [{"platform_id": "ios", "name": {"en": "iOS", "ru": "iOS"}}],
          "apps": [{"app_id": "x", "app_name": "X", "install_links": {"ios": "http://x", "tv": "https://x"},
                    "deep_link": "x://import", "supports_manual_url": true}],
          "recommended_app_id": "nope"
        }"#;
        let Err(AppError::Validation(f)) = Catalogue::parse(json) else { panic!("must be refused") };
        assert_eq!(
            f.keys().map(String::as_str).collect::<Vec<_>>(),
            ["apps[0].deep_link", "apps[0].install_links.ios", "apps[0].install_links.tv", "recommended_app_id"]
        );
    }

    #[test]
    fn unknown_fields_and_malformed_json_are_refused() {
        assert!(matches!(Catalogue::parse("{"), Err(AppError::Validation(_))));
        let docs = r#"{"terms_of_service": {"title": {"en":"a","ru":"b"}, "body": {"en":"a","ru":"b"}, "extra": 1},
                      "privacy_policy": {"title": {"en":"a","ru":"b"}, "body": {"en":"a","ru":"b"}}}"#;
        assert!(matches!(Documents::parse(docs), Err(AppError::Validation(_))));
    }

    #[test]
    fn empty_texts_in_documents_are_refused() {
        let docs = r#"{"terms_of_service": {"title": {"en":"","ru":"b"}, "body": {"en":"a","ru":"b"}},
                      "privacy_policy": {"title": {"en":"a","ru":"b"}, "body": {"en":"a","ru":" "}}}"#;
        let Err(AppError::Validation(f)) = Documents::parse(docs) else { panic!("must be refused") };
        assert_eq!(
            f.keys().map(String::as_str).collect::<Vec<_>>(),
            ["privacy_policy.body.ru", "terms_of_service.title.en"]
        );
    }
}
