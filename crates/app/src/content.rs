//! Operator-edited content: the application list and the legal documents. Both are JSON
//! documents validated here before they are stored, so the API only ever serves valid ones.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use vp_domain::Lang;
use vp_ports::{SettingKey, SettingsRepo};

use crate::error::{AppError, AppResult, FieldErrors};

/// The application list as stored, if the operator set one.
pub(crate) async fn load_app_list(tx: &mut (impl SettingsRepo + ?Sized)) -> AppResult<Option<AppList>> {
    load(tx, SettingKey::AppList).await
}

/// The legal documents as stored, if the operator set them.
pub(crate) async fn load_documents(tx: &mut (impl SettingsRepo + ?Sized)) -> AppResult<Option<Documents>> {
    load(tx, SettingKey::Documents).await
}

async fn load<T: serde::de::DeserializeOwned>(
    tx: &mut (impl SettingsRepo + ?Sized),
    key: SettingKey,
) -> AppResult<Option<T>> {
    tx.setting(key).await?.map(|r| crate::setting::parse_json(key, &r.value)).transpose()
}
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
    /// The text in `lang`.
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Ru => &self.ru,
        }
    }

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
pub struct AppList {
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

impl AppList {
    /// Parses and validates an operator's app list file.
    pub fn parse(json: &str) -> AppResult<AppList> {
        let c: AppList = serde_json::from_str(json).map_err(|e| AppError::field("apps", e))?;
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

/// Who runs the service, as Russian payment providers ask every document to say.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Operator {
    /// The legal name (with its registration numbers, if the operator wants them shown).
    pub name: Localized,
    /// How to reach the operator: an address, e-mail or phone.
    pub contact: Localized,
    /// The day the documents take effect, `YYYY-MM-DD`.
    pub effective_date: String,
}

impl Operator {
    /// `effective_date` as a day; `None` when it is not `YYYY-MM-DD`.
    pub fn effective_day(&self) -> Option<time::Date> {
        vp_domain::time_zone::parse_day(&self.effective_date)
    }
}

/// The spec's two documents plus what both show: the operator, and in the terms of service the
/// public offer and the refund policy. The last three are optional only so that documents
/// stored before they existed still show; `documents set` requires them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Documents {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operator: Option<Operator>,
    pub terms_of_service: Document,
    pub privacy_policy: Document,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offer: Option<Document>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refund_policy: Option<Document>,
}

impl Documents {
    /// Checks a template before it is stored: every section present and filled in both languages.
    pub fn parse(json: &str) -> AppResult<Documents> {
        let d: Documents = serde_json::from_str(json).map_err(|e| AppError::field("documents", e))?;
        let mut errors = FieldErrors::new();
        let sections = [
            ("terms_of_service", Some(&d.terms_of_service)),
            ("privacy_policy", Some(&d.privacy_policy)),
            ("offer", d.offer.as_ref()),
            ("refund_policy", d.refund_policy.as_ref()),
        ];
        for (name, doc) in sections {
            match doc {
                Some(doc) => {
                    doc.title.check(&format!("{name}.title"), &mut errors);
                    doc.body.check(&format!("{name}.body"), &mut errors);
                }
                None => {
                    errors.insert(name.to_owned(), "is required".into());
                }
            }
        }
        match &d.operator {
            Some(op) => {
                op.name.check("operator.name", &mut errors);
                op.contact.check("operator.contact", &mut errors);
                if op.effective_day().is_none() {
                    errors.insert("operator.effective_date".into(), "must be a date as YYYY-MM-DD".into());
                }
            }
            None => {
                errors.insert("operator".into(), "is required (name, contact, effective_date)".into());
            }
        }
        if errors.is_empty() { Ok(d) } else { Err(AppError::Validation(errors)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operator::demo;

    #[test]
    fn the_demo_app_list_and_documents_are_valid() {
        let c = AppList::parse(demo::APP_LIST_JSON).unwrap();
        assert!(c.apps.iter().any(|a| a.app_id == c.recommended_app_id));
        Documents::parse(demo::DOCUMENTS_JSON).unwrap();
    }

    #[test]
    fn an_app_list_with_unknown_platforms_bad_links_and_missing_recommendation_is_refused_naming_each_field() {
        let json = r#"{
          "platforms": [{"platform_id": "ios", "name": {"en": "iOS", "ru": "iOS"}}],
          "apps": [{"app_id": "x", "app_name": "X", "install_links": {"ios": "http://x", "tv": "https://x"},
                    "deep_link": "x://import", "supports_manual_url": true}],
          "recommended_app_id": "nope"
        }"#;
        let Err(AppError::Validation(f)) = AppList::parse(json) else { panic!("must be refused") };
        assert_eq!(
            f.keys().map(String::as_str).collect::<Vec<_>>(),
            ["apps[0].deep_link", "apps[0].install_links.ios", "apps[0].install_links.tv", "recommended_app_id"]
        );
    }

    /// The spec's two documents only, as stored before the operator, offer and refund sections.
    const OLD_DOCUMENTS: &str = r#"{"terms_of_service": {"title": {"en":"T","ru":"Т"}, "body": {"en":"a","ru":"б"}},
                      "privacy_policy": {"title": {"en":"P","ru":"П"}, "body": {"en":"a","ru":"б"}}}"#;

    #[test]
    fn a_new_template_must_name_the_operator_and_carry_the_offer_and_refund_sections() {
        let Err(AppError::Validation(f)) = Documents::parse(OLD_DOCUMENTS) else { panic!("must be refused") };
        assert_eq!(f.keys().map(String::as_str).collect::<Vec<_>>(), ["offer", "operator", "refund_policy"]);
        let mut filled: serde_json::Value = serde_json::from_str(demo::DOCUMENTS_JSON).unwrap();
        filled["operator"]["contact"]["ru"] = " ".into();
        filled["operator"]["effective_date"] = "23.11.2026".into();
        filled["refund_policy"]["body"]["en"] = "".into();
        let Err(AppError::Validation(f)) = Documents::parse(&filled.to_string()) else { panic!("must be refused") };
        assert_eq!(
            f.keys().map(String::as_str).collect::<Vec<_>>(),
            ["operator.contact.ru", "operator.effective_date", "refund_policy.body.en"]
        );
    }

    #[test]
    fn documents_stored_before_the_new_sections_still_show() {
        let old: Documents = serde_json::from_str(OLD_DOCUMENTS).unwrap();
        assert_eq!((old.operator, old.offer, old.refund_policy), (None, None, None));
    }

    #[test]
    fn unknown_fields_and_malformed_json_are_refused() {
        assert!(matches!(AppList::parse("{"), Err(AppError::Validation(_))));
        let docs = r#"{"terms_of_service": {"title": {"en":"a","ru":"b"}, "body": {"en":"a","ru":"b"}, "extra": 1},
                      "privacy_policy": {"title": {"en":"a","ru":"b"}, "body": {"en":"a","ru":"b"}}}"#;
        assert!(matches!(Documents::parse(docs), Err(AppError::Validation(_))));
    }

    #[test]
    fn empty_texts_in_documents_are_refused() {
        let mut docs: serde_json::Value = serde_json::from_str(demo::DOCUMENTS_JSON).unwrap();
        docs["terms_of_service"]["title"]["en"] = "".into();
        docs["privacy_policy"]["body"]["ru"] = " ".into();
        let Err(AppError::Validation(f)) = Documents::parse(&docs.to_string()) else { panic!("must be refused") };
        assert_eq!(
            f.keys().map(String::as_str).collect::<Vec<_>>(),
            ["privacy_policy.body.ru", "terms_of_service.title.en"]
        );
    }
}
