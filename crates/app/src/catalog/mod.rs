//! The catalogue partners and customers read: the account and its brand, plans and prices,
//! payment methods, applications and legal documents. `Offers` keeps what `POST /payments`
//! prices with.

mod offer;

use std::sync::Arc;

use vp_domain::AccountId;
use vp_domain::{BrandName, Lang};
use vp_ports::{AccountRecord, PaymentMethodRecord, Store};

pub use offer::OFFER_TTL;
pub(crate) use offer::{Offer, Offers};

use crate::access::AuthCache;
use crate::audit::{Audit, AuditAction, Who};
use crate::content::{BRAND_PLACEHOLDER, Document, Documents, load_app_list, load_documents};
use crate::error::{AppError, AppResult};
use crate::gateways::Gateways;
use crate::views::{AppsView, DocumentLink, PlansView, apps_view, price_list, url_encode};

/// The two document types of the spec, in the order they are listed.
pub const DOCUMENT_TYPES: [&str; 2] = ["terms_of_service", "privacy_policy"];

/// A legal document as its page shows it, with the brand substituted.
pub struct DocumentPage {
    pub brand_name: String,
    pub style: vp_ports::AccountStyle,
    pub title: String,
    /// The document itself, with the offer before it and the refund policy after it in the
    /// terms of service.
    pub sections: Vec<DocumentSection>,
    /// `None` only for documents stored before the operator section existed.
    pub operator: Option<DocumentOperator>,
}

pub struct DocumentSection {
    pub title: String,
    /// Plain text, paragraphs separated by blank lines.
    pub body: String,
}

pub struct DocumentOperator {
    pub name: String,
    pub contact: String,
    pub effective_date: time::Date,
}

/// What the catalogue's readers see, and the brand name partners change.
pub struct Catalog {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) audit: Audit,
    pub(crate) auth_cache: Arc<AuthCache>,
    pub(crate) public_base_url: String,
    /// Which gateways are on: a method is offered while its gateway is.
    pub(crate) gateways: Gateways,
}

impl Catalog {
    /// `PATCH /account`: only the brand name changes.
    pub async fn rename_brand(&self, account: &AccountRecord, brand_name: BrandName) -> AppResult<AccountRecord> {
        self.rename_brand_by(account, brand_name, None).await
    }

    /// Renames, and when a cabinet user did it, records it in the account's activity.
    pub(crate) async fn rename_brand_by(
        &self,
        account: &AccountRecord,
        brand_name: BrandName,
        who: Option<Who<'_>>,
    ) -> AppResult<AccountRecord> {
        let mut tx = self.store.begin().await?;
        tx.lock_account(&account.id).await?;
        let mut current = tx.account(&account.id).await?.ok_or(crate::Refusal::Unauthorized)?;
        let detail = format!("{} -> {}", current.brand_name, brand_name);
        current.brand_name = brand_name;
        tx.update_account(&current).await?;
        // The bot's profile names the brand.
        tx.bump_bot_profile(&current.id).await?;
        if let Some(who) = who {
            self.audit.record(tx.as_mut(), &account.id, who, AuditAction::BrandRenamed, detail).await?;
        }
        tx.commit().await?;
        self.auth_cache.forget_account(&current.id);
        Ok(current)
    }

    /// `GET /plans`: plans on sale and the device offer, priced with the account's markup.
    pub async fn price_list(&self, account: &AccountRecord) -> AppResult<PlansView> {
        let mut tx = self.store.read().await?;
        let plans = tx.plans(false).await?;
        let devices = tx.device_settings().await?;
        tx.commit().await?;
        price_list(plans, devices, account.markup).map_err(|e| AppError::Internal(e.to_string()))
    }

    /// `GET /payment-methods`: enabled methods whose gateway is on, whichever it is, in
    /// display order.
    pub async fn available_payment_methods(&self) -> AppResult<Vec<PaymentMethodRecord>> {
        let methods = read!(self.store, |tx| tx.payment_methods());
        Ok(methods.into_iter().filter(|m| m.enabled && self.gateways.route(m).is_some()).collect())
    }

    /// `GET /apps`.
    pub async fn apps(&self, lang: Lang) -> AppResult<Option<AppsView>> {
        let app_list = read!(self.store, |tx| load_app_list(tx.as_mut()));
        Ok(app_list.map(|c| apps_view(&c, lang)))
    }

    /// `GET /documents`: titles in the requested language, pages served without a key.
    pub async fn document_links(&self, account: &AccountRecord, lang: Lang) -> AppResult<Vec<DocumentLink>> {
        let docs = read!(self.store, |tx| load_documents(tx.as_mut()));
        let Some(docs) = docs else { return Ok(vec![]) };
        Ok(DOCUMENT_TYPES
            .iter()
            .map(|t| {
                let doc = if *t == "terms_of_service" { &docs.terms_of_service } else { &docs.privacy_policy };
                DocumentLink {
                    doc_type: t,
                    title: doc.title.get(lang).to_owned(),
                    url: format!(
                        "{}/documents/{}/{}?lang={}",
                        self.public_base_url,
                        url_encode(&account.id),
                        t,
                        lang.code()
                    ),
                }
            })
            .collect())
    }

    /// A document page as customers see it: the partner's brand in place of `{brand}`.
    pub async fn document_page(&self, account_id: &AccountId, doc_type: &str, lang: Lang) -> AppResult<DocumentPage> {
        let mut tx = self.store.read().await?;
        let account = tx.account(account_id).await?;
        let docs = load_documents(tx.as_mut()).await?;
        tx.commit().await?;
        let account = account.ok_or(AppError::NotFound("document"))?;
        let docs: Documents = docs.ok_or(AppError::NotFound("document"))?;
        // The terms of service carry the public offer first and the refund policy after.
        let (doc, before, after) = match doc_type {
            "terms_of_service" => (&docs.terms_of_service, docs.offer.as_ref(), docs.refund_policy.as_ref()),
            "privacy_policy" => (&docs.privacy_policy, None, None),
            _ => return Err(AppError::NotFound("document")),
        };
        let brand = account.brand_name.as_str();
        let text = |t: &crate::content::Localized| t.get(lang).replace(BRAND_PLACEHOLDER, brand);
        let section = |d: &Document| DocumentSection { title: text(&d.title), body: text(&d.body) };
        let operator = match &docs.operator {
            Some(op) => Some(DocumentOperator {
                name: text(&op.name),
                contact: text(&op.contact),
                effective_date: op.effective_day().ok_or_else(|| {
                    AppError::Store(vp_ports::StoreError::Corrupt("documents: operator.effective_date".into()))
                })?,
            }),
            None => None,
        };
        Ok(DocumentPage {
            title: text(&doc.title),
            sections: before.into_iter().chain([doc]).chain(after).map(section).collect(),
            operator,
            brand_name: brand.to_owned(),
            style: account.style.clone(),
        })
    }
}
