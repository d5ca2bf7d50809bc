//! What the partner API shows, built from records in one place so every endpoint and every
//! event shows a client or an invoice the same way.

use std::collections::BTreeMap;
use std::sync::Arc;

use time::OffsetDateTime;
use vp_domain::saving::saving_percent;
use vp_domain::traffic::TrafficLimit;
use vp_domain::{MarkupPercent, PriceBreakdown, SubscriptionStatus, invoice};
use vp_ports::pages::connect_page_url;
use vp_ports::{AccountRecord, ClientRecord, Clock, InvoiceRecord, PanelDevice, PlanRecord, VpnPanel};

use crate::content::{AppList, URL_PLACEHOLDER};
use vp_domain::Lang;
use vp_i18n::{gigabytes, text, text_with};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectEntry {
    pub app_id: String,
    pub app_name: String,
    pub connect_url: String,
    pub qr_payload: String,
    pub supports_manual_url: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscriptionView {
    pub status: SubscriptionStatus,
    pub is_trial: bool,
    pub lifetime: bool,
    pub expires_at: OffsetDateTime,
    pub days_left: i64,
    pub subscription_url: String,
    pub connect: Vec<ConnectEntry>,
    pub devices_limit: Option<u32>,
    /// Automatic renewal is on (docs/decisions.md, "Automatic renewal").
    pub auto_renew: bool,
    /// The account's zone, the one its customers read `expires_at` in.
    pub time_zone: vp_domain::TimeZone,
    /// `None`: no traffic limit.
    pub traffic: Option<TrafficLimit>,
}

/// A subscription's state as a customer reads it, worded in `lang`: the status, until when
/// (with the days left), and the devices. The connect page and the partner's bot say it alike.
pub struct SubscriptionState {
    pub status: String,
    pub until: String,
    pub devices: String,
    /// The traffic limit; `None` when there is none.
    pub traffic: Option<String>,
}

/// A traffic limit as customers read it: "50 GB a month", "1.5 GB per term" (one decimal when
/// the bytes are not whole GB, as an adopted panel user's may be).
pub fn traffic_text(lang: Lang, limit: TrafficLimit) -> String {
    let gb = gigabytes(lang, limit.bytes);
    text_with(
        lang,
        "page-subscription-traffic-limit",
        &[("gb", gb.as_str().into()), ("reset", limit.reset.as_str().into())],
    )
}

/// A plan's term as the shops word it, with its traffic limit when it has one.
pub fn plan_term(lang: Lang, plan: &PlanRecord) -> String {
    let term = if plan.lifetime {
        text(lang, "shop-term-lifetime")
    } else {
        text_with(lang, "shop-term-months", &[("count", plan.months.into())])
    };
    match plan.traffic {
        None => term,
        Some(limit) => text_with(
            lang,
            "shop-term-with-traffic",
            &[("term", term.as_str().into()), ("traffic", traffic_text(lang, limit).as_str().into())],
        ),
    }
}

/// What the panel counts of a subscription's use when a customer looks: the devices it has and
/// the traffic used of its limit; each `None` when the panel did not answer (the traffic also
/// when there is no limit to count against).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PanelUse {
    pub devices: Option<usize>,
    pub traffic_used: Option<u64>,
}

impl SubscriptionView {
    /// The subscription as customers read it, with what the panel counts of its use.
    pub fn state(&self, lang: Lang, used: PanelUse) -> SubscriptionState {
        let devices_used = used.devices;
        let status = match (self.status, self.is_trial) {
            (SubscriptionStatus::Active, true) => "page-subscription-active-trial",
            (SubscriptionStatus::Active, false) => "page-subscription-active",
            (SubscriptionStatus::Expired, _) => "page-subscription-expired",
            (SubscriptionStatus::Suspended, _) => "page-subscription-paused",
        };
        let until = if self.lifetime {
            text(lang, "page-subscription-lifetime")
        } else {
            text_with(
                lang,
                "page-subscription-until-day",
                &[("day", self.time_zone.day(self.expires_at).into()), ("days", self.days_left.into())],
            )
        };
        let devices = match (devices_used, self.devices_limit) {
            (Some(used), Some(limit)) => {
                text_with(lang, "page-subscription-devices-used-of", &[("used", used.into()), ("limit", limit.into())])
            }
            (Some(used), None) => text_with(lang, "page-subscription-devices-used", &[("used", used.into())]),
            (None, Some(limit)) => text_with(lang, "page-subscription-devices-up-to", &[("limit", limit.into())]),
            (None, None) => text(lang, "page-subscription-devices-no-limit"),
        };
        SubscriptionState {
            status: text(lang, status),
            until,
            devices,
            traffic: self.traffic.map(|limit| traffic_used_text(lang, limit, used.traffic_used)),
        }
    }
}

/// A traffic limit with what was used of it ("8,6 из 10 ГБ в месяц"), or the limit alone when
/// the panel did not say.
pub fn traffic_used_text(lang: Lang, limit: TrafficLimit, used: Option<u64>) -> String {
    match used {
        Some(bytes) => text_with(
            lang,
            "page-subscription-traffic-used-of",
            &[("used", gigabytes(lang, bytes).as_str().into()), ("limit", traffic_text(lang, limit).as_str().into())],
        ),
        None => traffic_text(lang, limit),
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientView {
    pub client_id: String,
    pub created_at: OffsetDateTime,
    pub subscription: Option<SubscriptionView>,
    pub trial_available: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvoiceView {
    pub invoice: InvoiceRecord,
    /// Filled only for a succeeded invoice.
    pub client: Option<ClientView>,
    pub replayed: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanPrice {
    pub plan: PlanRecord,
    pub price: PriceBreakdown,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceOfferPrice {
    pub included: u32,
    pub max: u32,
    pub price: PriceBreakdown,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlansView {
    pub plans: Vec<PlanPrice>,
    pub devices: Option<DeviceOfferPrice>,
}

impl PlansView {
    /// What each plan saves against the cheapest one-month plan of the same kind (the same
    /// traffic limit and device rule), in the plans' order (domain `saving_percent`).
    pub fn savings(&self) -> Vec<Option<u32>> {
        self.plans
            .iter()
            .map(|p| {
                let monthly = self
                    .plans
                    .iter()
                    .filter(|m| m.plan.months == 1 && !m.plan.lifetime)
                    .filter(|m| m.plan.traffic == p.plan.traffic && m.plan.device_limited == p.plan.device_limited)
                    .map(|m| m.price.customer)
                    .min()?;
                match p.plan.lifetime {
                    true => None,
                    false => saving_percent(monthly, p.plan.months, p.price.customer),
                }
            })
            .collect()
    }
}

/// A plan as the shops offer it: "3 months: 799.00 ₽", with its saving when it has one
/// ("(−10 %)").
pub fn plan_offer(lang: Lang, p: &PlanPrice, saving: Option<u32>) -> String {
    let term = plan_term(lang, &p.plan);
    let args = [("term", term.as_str().into()), ("price", p.price.customer.into())];
    match saving {
        Some(percent) => {
            let offer = text_with(lang, "shop-plan", &args);
            text_with(lang, "shop-plan-saving", &[("offer", offer.as_str().into()), ("percent", percent.into())])
        }
        None => text_with(lang, "shop-plan", &args),
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DevicesView {
    pub devices_count: usize,
    pub devices_limit: Option<u32>,
    pub devices: Vec<PanelDevice>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientPage {
    pub clients: Vec<ClientView>,
    pub next_cursor: Option<String>,
}

/// Localised application list as `GET /apps` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppsView {
    pub platforms: Vec<PlatformView>,
    pub apps: Vec<AppView>,
    pub recommended_app_id: String,
    /// Per platform: the recommended application's install link, or the first application
    /// that has one for that platform.
    pub downloads: BTreeMap<String, DownloadLink>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlatformView {
    pub platform_id: String,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppView {
    pub app_id: String,
    pub app_name: String,
    pub supports_manual_url: bool,
    pub install_links: Vec<DownloadLink>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DownloadLink {
    pub platform_id: String,
    pub app_id: String,
    pub url: String,
    /// "Download Happ for iOS" in the requested language.
    pub label: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentLink {
    pub doc_type: &'static str,
    pub title: String,
    pub url: String,
}

pub use vp_ports::pages::url_encode;

/// The deep link that imports `subscription_url` into an application.
pub fn deep_link(template: &str, subscription_url: &str) -> String {
    template.replacen(URL_PLACEHOLDER, &url_encode(subscription_url), 1)
}

/// What views are built with: the time, the panel's link format and the public address.
#[derive(Clone)]
pub(crate) struct Views {
    clock: Arc<dyn Clock>,
    panel: Arc<dyn VpnPanel>,
    public_base_url: Arc<str>,
}

impl Views {
    pub(crate) fn new(clock: Arc<dyn Clock>, panel: Arc<dyn VpnPanel>, public_base_url: &str) -> Views {
        Views { clock, panel, public_base_url: public_base_url.into() }
    }

    /// The moment now, as every view reads it.
    pub(crate) fn now(&self) -> time::OffsetDateTime {
        self.clock.now()
    }

    /// What the panel counts of the client's use now: asked at once for the devices and, under
    /// a traffic limit, the traffic. A panel that does not answer leaves the count out; the
    /// page or message still helps without it.
    pub(crate) async fn panel_use(&self, client: &ClientRecord) -> PanelUse {
        let Some(record) = client.subscription.as_ref() else { return PanelUse::default() };
        let devices = self.panel.devices(record.panel_user_ref(&client.id));
        let (devices, traffic_used) = tokio::join!(devices, self.traffic_used(client));
        if let Err(e) = &devices {
            tracing::info!(error = %e, "no device count: the panel did not answer");
        }
        PanelUse { devices: devices.ok().map(|d| d.len()), traffic_used }
    }

    /// The traffic the client used of its limit, as the panel counts it now; `None` without a
    /// limit or an answer.
    pub(crate) async fn traffic_used(&self, client: &ClientRecord) -> Option<u64> {
        let record = client.subscription.as_ref().filter(|r| r.subscription.traffic.is_some())?;
        match self.panel.traffic_used(record.panel_user_ref(&client.id)).await {
            Ok(count) => count.map(|c| c.used),
            Err(e) => {
                tracing::info!(error = %e, "no traffic count: the panel did not answer");
                None
            }
        }
    }

    /// Runs `f` with a view context for `account` (and the app list, when the views show how
    /// to connect).
    pub(crate) fn render<R>(
        &self,
        account: &AccountRecord,
        app_list: Option<&AppList>,
        f: impl FnOnce(&ViewContext<'_>) -> R,
    ) -> R {
        let url = |token: &str| self.panel.subscription_url(token);
        let ctx = ViewContext {
            now: self.clock.now(),
            public_base_url: &self.public_base_url,
            app_list,
            account,
            subscription_url: &url,
        };
        f(&ctx)
    }
}

/// Builds views; holds what every view needs besides the record.
pub struct ViewContext<'a> {
    pub now: OffsetDateTime,
    pub public_base_url: &'a str,
    pub app_list: Option<&'a AppList>,
    pub account: &'a AccountRecord,
    pub subscription_url: &'a dyn Fn(&str) -> String,
}

impl ViewContext<'_> {
    pub fn client(&self, c: &ClientRecord) -> ClientView {
        let subscription = c.subscription.as_ref().map(|r| {
            let s = &r.subscription;
            let url = (self.subscription_url)(&r.link_token);
            SubscriptionView {
                status: s.status_at(self.now),
                is_trial: s.is_trial,
                lifetime: s.lifetime,
                expires_at: s.expires_at,
                days_left: s.days_left(self.now),
                connect: self.connect_entries(&r.link_token),
                subscription_url: url,
                devices_limit: s.devices.limit(),
                auto_renew: r.auto_renew,
                time_zone: self.account.time_zone.clone(),
                traffic: s.traffic,
            }
        });
        ClientView {
            client_id: c.client_id.as_str().to_owned(),
            created_at: c.created_at,
            trial_available: self.account.trial_enabled && !c.blocked && c.subscription.is_none(),
            subscription,
        }
    }

    /// One entry per application of the app list. `connect_url` is an https page of this
    /// service that opens the application (messenger buttons refuse custom schemes); the QR
    /// code carries the same page, so any phone camera can open it on another device.
    fn connect_entries(&self, link_token: &str) -> Vec<ConnectEntry> {
        let Some(app_list) = self.app_list else { return vec![] };
        app_list
            .apps
            .iter()
            .map(|a| {
                let page = connect_page_url(self.public_base_url, link_token, Some(&a.app_id));
                ConnectEntry {
                    app_id: a.app_id.clone(),
                    app_name: a.app_name.clone(),
                    qr_payload: page.clone(),
                    connect_url: page,
                    supports_manual_url: a.supports_manual_url,
                }
            })
            .collect()
    }

    pub fn invoice(&self, invoice: InvoiceRecord, client: Option<&ClientRecord>, replayed: bool) -> InvoiceView {
        let client = client.filter(|_| invoice::shows_client(invoice.status)).map(|c| self.client(c));
        let mut invoice = invoice;
        if !invoice::shows_payment_url(invoice.status) {
            invoice.payment_url = None;
        }
        InvoiceView { invoice, client, replayed }
    }
}

/// Localised application list.
pub fn apps_view(app_list: &AppList, lang: Lang) -> AppsView {
    let platform_name = |id: &str| {
        app_list.platforms.iter().find(|p| p.platform_id == id).map_or(id.to_owned(), |p| p.name.get(lang).to_owned())
    };
    let link = |app: &crate::content::Application, platform_id: &str, url: &str| DownloadLink {
        platform_id: platform_id.to_owned(),
        app_id: app.app_id.clone(),
        url: url.to_owned(),
        label: vp_i18n::text_with(
            lang,
            "api-download-label",
            &[("app", (&app.app_name).into()), ("platform", (&platform_name(platform_id)).into())],
        ),
    };
    let apps: Vec<AppView> = app_list
        .apps
        .iter()
        .map(|a| AppView {
            app_id: a.app_id.clone(),
            app_name: a.app_name.clone(),
            supports_manual_url: a.supports_manual_url,
            install_links: app_list
                .platforms
                .iter()
                .filter_map(|p| a.install_links.get(&p.platform_id).map(|u| link(a, &p.platform_id, u)))
                .collect(),
        })
        .collect();
    let recommended = app_list.apps.iter().find(|a| a.app_id == app_list.recommended_app_id);
    let downloads = app_list
        .platforms
        .iter()
        .filter_map(|p| {
            let id = p.platform_id.as_str();
            recommended
                .into_iter()
                .chain(app_list.apps.iter())
                .find_map(|a| a.install_links.get(id).map(|u| (id.to_owned(), link(a, id, u))))
        })
        .collect();
    AppsView {
        platforms: app_list
            .platforms
            .iter()
            .map(|p| PlatformView { platform_id: p.platform_id.clone(), name: p.name.get(lang).to_owned() })
            .collect(),
        apps,
        recommended_app_id: app_list.recommended_app_id.clone(),
        downloads,
    }
}

/// Plans and the device offer priced for an account's markup.
pub fn price_list(
    plans: Vec<PlanRecord>,
    devices: Option<vp_domain::DeviceSettings>,
    markup: MarkupPercent,
) -> Result<PlansView, vp_domain::markup::PriceOverflow> {
    let plans = plans
        .into_iter()
        .map(|plan| Ok(PlanPrice { price: vp_domain::markup::price(plan.platform_price, 1, markup)?, plan }))
        .collect::<Result<Vec<_>, _>>()?;
    let devices = devices
        .and_then(|d| d.platform_price.map(|p| (d, p)))
        .map(|(d, p)| {
            Ok(DeviceOfferPrice { included: d.included, max: d.max, price: vp_domain::markup::price(p, 1, markup)? })
        })
        .transpose()?;
    Ok(PlansView { plans, devices })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::AppList;
    use crate::operator::demo::APP_LIST_JSON;
    use vp_domain::traffic::{GB, TrafficReset};

    #[test]
    fn a_traffic_limit_reads_in_whole_gb_or_with_one_decimal_in_the_readers_language() {
        let fifty = TrafficLimit::of_gb(50, TrafficReset::Month).unwrap();
        assert_eq!(traffic_text(Lang::Ru, fifty), "50 ГБ в месяц");
        assert_eq!(traffic_text(Lang::En, fifty), "50 GB a month");
        let odd = TrafficLimit::of_bytes(GB * 3 / 2, TrafficReset::NoReset).unwrap();
        assert_eq!(
            (traffic_text(Lang::Ru, odd), traffic_text(Lang::En, odd)),
            ("1,5 ГБ на срок".into(), "1.5 GB per term".into())
        );
        let plan = PlanRecord {
            plan_id: 7,
            months: 3,
            lifetime: false,
            device_limited: true,
            platform_price: vp_domain::Money::from_kopecks(100),
            created_at: OffsetDateTime::UNIX_EPOCH,
            retired_at: None,
            traffic: Some(fifty),
        };
        assert_eq!(plan_term(Lang::Ru, &plan), "3 месяца, 50 ГБ в месяц");
        assert_eq!(plan_term(Lang::En, &PlanRecord { traffic: None, ..plan }), "3 months");
    }

    #[test]
    fn deep_links_carry_the_url_encoded_subscription_link() {
        assert_eq!(
            deep_link("happ://add/{url}", "https://x.example/sub/a b"),
            "happ://add/https%3A%2F%2Fx.example%2Fsub%2Fa%20b"
        );
    }

    #[test]
    fn downloads_prefer_the_recommended_app_and_fall_back_to_another() {
        let c = AppList::parse(APP_LIST_JSON).unwrap();
        let v = apps_view(&c, Lang::Ru);
        assert_eq!(v.downloads["ios"].app_id, "happ");
        assert_eq!(v.downloads["linux"].app_id, "hiddify", "Happ has no Linux build");
        assert_eq!(v.downloads["ios"].label, "Скачать Happ для iOS");
        assert_eq!(apps_view(&c, Lang::En).downloads["android"].label, "Download Happ for Android");
        assert_eq!(v.platforms.len(), 5);
    }
}
