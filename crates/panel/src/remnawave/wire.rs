//! Remnawave's shapes as `@remnawave/backend-contract` 3.4.15 defines them, only the fields we
//! read (docs/remnawave.md lists them), and the mapping between our panel user and theirs.

use serde::Deserialize;
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use time::macros::datetime;
use vp_ports::{
    ExistingAccess, ExistingDeviceLimit, ExistingPanelUser, PanelDevice, PanelDrift, PanelUser, TrafficCount,
    TrafficLimit, TrafficReset, to_millis,
};

/// The panel treats year 2099 as "never expires" (its subscription headers show no expiry),
/// so a lifetime subscription (ours end at 9999-12-31) is sent as the end of 2099.
pub const LIFETIME_EXPIRE_AT: OffsetDateTime = datetime!(2099-12-31 23:59:59 UTC);

/// `ExtendedUsersSchema`, the fields we read.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct User {
    pub id: i64,
    pub short_uuid: String,
    /// `ACTIVE`, `DISABLED`, `LIMITED` or `EXPIRED`.
    pub status: String,
    #[serde(with = "time::serde::rfc3339")]
    pub expire_at: OffsetDateTime,
    /// `null` means the panel's global setting, `0` unlimited.
    pub hwid_device_limit: Option<i64>,
    /// `0` unlimited.
    pub traffic_limit_bytes: i64,
    /// `NO_RESET`, `DAY`, `WEEK`, `MONTH` or `MONTH_ROLLING`.
    pub traffic_limit_strategy: String,
    /// The last reset of the traffic used; `null` before the first.
    #[serde(with = "time::serde::rfc3339::option")]
    pub last_traffic_reset_at: Option<OffsetDateTime>,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// The traffic counts (3.x's `userTraffic`); read leniently, as a count is no reason to
    /// refuse the user.
    #[serde(default)]
    pub user_traffic: Option<UserTraffic>,
}

/// `userTraffic`, the field we read.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UserTraffic {
    /// Bytes used since the last reset: a JSON number, whole as the panel sends it.
    pub used_traffic_bytes: serde_json::Number,
}

impl User {
    /// When the panel last counted the user's traffic from zero.
    pub fn traffic_counted_since(&self) -> OffsetDateTime {
        self.last_traffic_reset_at.unwrap_or(self.created_at)
    }

    /// The traffic used since then, as the panel counts it.
    pub fn traffic_count(&self) -> TrafficCount {
        let used = self.user_traffic.as_ref().map_or(0, |t| {
            let n = &t.used_traffic_bytes;
            // A count past 2^64 or written as a fraction is still a count; negative is none.
            n.as_u64().unwrap_or_else(|| n.as_f64().filter(|f| *f > 0.0).map_or(0, |f| f as u64))
        });
        TrafficCount { used, since: self.traffic_counted_since() }
    }
}

/// `ExtendedUsersSchema` as an import reads it (`GET /api/users/stream`): what every lookup
/// reads, and what makes a client of it.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListedUser {
    #[serde(flatten)]
    pub user: User,
    pub username: String,
    pub subscription_url: String,
    pub telegram_id: Option<i64>,
    pub active_internal_squads: Vec<Squad>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Squad {
    pub uuid: String,
}

/// `GetUsersStreamCommand`'s response.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UsersStream {
    pub users: Vec<ListedUser>,
    pub next_cursor: Option<String>,
    pub has_more: bool,
}

impl ListedUser {
    /// The user as an import takes it; `None` for a status the contract does not define.
    pub fn existing(self) -> Option<ExistingPanelUser> {
        let user = &self.user;
        let access = match user.status.as_str() {
            "ACTIVE" => ExistingAccess::Active,
            "DISABLED" => ExistingAccess::Disabled,
            "LIMITED" => ExistingAccess::Limited,
            "EXPIRED" => ExistingAccess::Expired,
            _ => return None,
        };
        let device_limit = match user.hwid_device_limit {
            None => ExistingDeviceLimit::PanelDefault,
            Some(0) => ExistingDeviceLimit::Unlimited,
            Some(n) => ExistingDeviceLimit::Limited(u32::try_from(n).ok()?),
        };
        let traffic = match u64::try_from(user.traffic_limit_bytes) {
            Ok(0) => None,
            Ok(bytes) => Some(TrafficLimit::of_bytes(bytes, reset_of(&user.traffic_limit_strategy)?)?),
            Err(_) => return None,
        };
        Some(ExistingPanelUser {
            panel_id: user.id.to_string(),
            username: self.username,
            link_token: user.short_uuid.clone(),
            subscription_url: self.subscription_url,
            access,
            expires_at: user.expire_at,
            device_limit,
            traffic,
            traffic_counted_since: user.traffic_counted_since(),
            telegram_id: self.telegram_id,
            squads: self.active_internal_squads.into_iter().map(|s| s.uuid).collect(),
        })
    }
}

/// `HwidUserDeviceSchema`, the fields we read.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Device {
    pub hwid: String,
    pub platform: Option<String>,
    pub os_version: Option<String>,
    pub device_model: Option<String>,
    pub user_agent: Option<String>,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Devices {
    pub devices: Vec<Device>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Metadata {
    pub version: String,
}

impl From<Device> for PanelDevice {
    fn from(d: Device) -> PanelDevice {
        PanelDevice {
            hwid: d.hwid,
            platform: d.platform,
            os_version: d.os_version,
            model: d.device_model,
            user_agent: d.user_agent,
            created_at: d.created_at,
        }
    }
}

/// The Remnawave username of a client: our client reference when it fits the panel's rule
/// (3 to 36 of `[A-Za-z0-9_-]`; ours are `cli_` + 22 base64url characters), else a stable
/// digest of it. Never the partner's `client_id`, which may hold characters the panel refuses.
pub fn username(user_ref: &str) -> String {
    let fits = (3..=36).contains(&user_ref.len())
        && user_ref.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if fits {
        return user_ref.to_owned();
    }
    let digest = fnv1a_128(user_ref);
    format!("vp_{digest}")
}

/// FNV-1a 128-bit, hex: stable across releases and platforms, and plenty for a name (the
/// reference is already unique; this only has to keep it so).
fn fnv1a_128(text: &str) -> String {
    let mut hash: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    for b in text.bytes() {
        hash ^= u128::from(b);
        hash = hash.wrapping_mul(0x0000_0000_0100_0000_0000_0000_0000_013b);
    }
    format!("{hash:032x}")
}

pub fn expire_at(user: &PanelUser) -> OffsetDateTime {
    to_millis(user.expires_at).min(LIFETIME_EXPIRE_AT)
}

pub fn status(user: &PanelUser) -> &'static str {
    if user.enabled { "ACTIVE" } else { "DISABLED" }
}

/// `trafficLimitStrategy` of a reset.
pub fn strategy(reset: TrafficReset) -> &'static str {
    match reset {
        TrafficReset::NoReset => "NO_RESET",
        TrafficReset::Day => "DAY",
        TrafficReset::Week => "WEEK",
        TrafficReset::Month => "MONTH",
        TrafficReset::MonthRolling => "MONTH_ROLLING",
    }
}

/// The reset a `trafficLimitStrategy` names; `None` for one the contract does not define.
pub fn reset_of(strategy: &str) -> Option<TrafficReset> {
    TrafficReset::ALL.into_iter().find(|r| self::strategy(*r) == strategy)
}

/// `trafficLimitBytes` (0: unlimited) and `trafficLimitStrategy` of the user.
pub fn traffic(user: &PanelUser) -> (i64, &'static str) {
    match user.traffic {
        None => (0, "NO_RESET"),
        Some(t) => (i64::try_from(t.bytes).unwrap_or(i64::MAX), strategy(t.reset)),
    }
}

/// `hwidDeviceLimit`: 0 means unlimited.
pub fn device_limit(user: &PanelUser) -> i64 {
    user.device_limit.map_or(0, i64::from)
}

/// A query string of `pairs`, each encoded as a form does.
pub fn query(pairs: &[(&str, &str)]) -> String {
    let mut url = reqwest::Url::parse("http://query.invalid/").expect("a constant URL parses");
    url.query_pairs_mut().extend_pairs(pairs);
    url.query().unwrap_or_default().to_owned()
}

pub fn time_text(at: OffsetDateTime) -> String {
    at.format(&Rfc3339).unwrap_or_else(|_| at.to_string())
}

/// `POST /api/users`.
pub fn create_body(user: &PanelUser, squads: &[String]) -> Value {
    let (traffic_bytes, traffic_strategy) = traffic(user);
    json!({
        "username": username(&user.user_ref),
        "shortUuid": user.link_token,
        "expireAt": time_text(expire_at(user)),
        "status": status(user),
        "hwidDeviceLimit": device_limit(user),
        "trafficLimitBytes": traffic_bytes,
        "trafficLimitStrategy": traffic_strategy,
        "activeInternalSquads": squads,
        "description": format!("partner {} client {}", user.account_id, user.client_id),
    })
}

/// What must change for the panel's user to match ours. The one comparison behind both
/// `put_user` (what to send) and `drift` (what to report).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// A new link: the old one is revoked with this `shortUuid`.
    pub short_uuid: Option<String>,
    pub expire_at: Option<OffsetDateTime>,
    pub status: Option<&'static str>,
    pub hwid_device_limit: Option<i64>,
    /// `trafficLimitBytes` and `trafficLimitStrategy`, sent together.
    pub traffic: Option<(i64, &'static str)>,
    /// The traffic used must be counted from zero again (`actions/reset-traffic`): a new term
    /// of a limit that never resets by itself.
    pub reset_traffic_from: Option<OffsetDateTime>,
}

impl Changes {
    pub fn between(want: &PanelUser, held: &User, now: OffsetDateTime) -> Changes {
        let wanted_expiry = expire_at(want);
        // The panel refuses a past `expireAt` on update; an ended term is carried by the
        // status (no access either way), so only a future end is compared.
        let expire_at = (wanted_expiry > now && to_millis(held.expire_at) != wanted_expiry).then_some(wanted_expiry);
        // LIMITED: the term runs and the panel holds traffic back until its reset, which gives
        // access again by itself; so it is on, and a paused subscription must be DISABLED.
        let on = matches!(held.status.as_str(), "ACTIVE" | "LIMITED");
        let (bytes, strategy) = traffic(want);
        let traffic_differs =
            held.traffic_limit_bytes != bytes || (bytes > 0 && held.traffic_limit_strategy != strategy);
        Changes {
            short_uuid: (held.short_uuid != want.link_token).then(|| want.link_token.clone()),
            expire_at,
            status: (on != want.enabled).then(|| status(want)),
            hwid_device_limit: (held.hwid_device_limit != Some(device_limit(want))).then(|| device_limit(want)),
            traffic: traffic_differs.then_some((bytes, strategy)),
            reset_traffic_from: want
                .traffic_counted_from
                .filter(|from| to_millis(held.traffic_counted_since()) < to_millis(*from)),
        }
    }

    /// The `PATCH /api/users` body for everything but the link; `None` when nothing differs.
    pub fn patch_body(&self, id: i64) -> Option<Value> {
        let mut body = serde_json::Map::new();
        if let Some(at) = self.expire_at {
            body.insert("expireAt".into(), json!(time_text(at)));
        }
        if let Some(status) = self.status {
            body.insert("status".into(), json!(status));
        }
        if let Some(limit) = self.hwid_device_limit {
            body.insert("hwidDeviceLimit".into(), json!(limit));
        }
        if let Some((bytes, strategy)) = self.traffic {
            body.insert("trafficLimitBytes".into(), json!(bytes));
            body.insert("trafficLimitStrategy".into(), json!(strategy));
        }
        if body.is_empty() {
            return None;
        }
        body.insert("id".into(), json!(id));
        Some(Value::Object(body))
    }

    pub fn drift(&self, held: &User) -> Vec<PanelDrift> {
        let mut drift = Vec::new();
        if let Some(at) = self.expire_at {
            drift.push(PanelDrift::new("expires_at", time_text(at), time_text(held.expire_at)));
        }
        if let Some(status) = self.status {
            drift.push(PanelDrift::new("enabled", status, &held.status));
        }
        if let Some(limit) = self.hwid_device_limit {
            let held_limit = held.hwid_device_limit.map_or_else(|| "null".to_owned(), |l| l.to_string());
            drift.push(PanelDrift::new("device_limit", limit, held_limit));
        }
        if let Some((bytes, strategy)) = self.traffic {
            let held_traffic = format!("{} {}", held.traffic_limit_bytes, held.traffic_limit_strategy);
            drift.push(PanelDrift::new("traffic_limit", format!("{bytes} {strategy}"), held_traffic));
        }
        if let Some(from) = self.reset_traffic_from {
            let since = time_text(held.traffic_counted_since());
            drift.push(PanelDrift::new("traffic_counted_from", time_text(from), since));
        }
        if let Some(short_uuid) = &self.short_uuid {
            drift.push(PanelDrift::new("link_token", short_uuid, &held.short_uuid));
        }
        drift
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user() -> PanelUser {
        PanelUser {
            user_ref: "cli_AbC-9_xyzXYZ0123456789ab".into(),
            account_id: vp_domain::AccountId::issued("acc_1".into()),
            client_id: "tg:42@bot".into(),
            link_token: "tok_0123456789abcdef0123456789ab".into(),
            expires_at: datetime!(2030-01-02 03:04:05.678901 UTC),
            device_limit: Some(3),
            enabled: true,
            traffic: None,
            traffic_counted_from: None,
        }
    }

    fn held(u: &PanelUser) -> User {
        User {
            id: 7,
            short_uuid: u.link_token.clone(),
            status: "ACTIVE".into(),
            expire_at: expire_at(u),
            hwid_device_limit: Some(3),
            traffic_limit_bytes: traffic(u).0,
            traffic_limit_strategy: traffic(u).1.into(),
            last_traffic_reset_at: None,
            created_at: datetime!(2026-01-01 00:00 UTC),
            user_traffic: None,
        }
    }

    #[test]
    fn usernames_are_our_reference_when_it_fits_and_a_stable_digest_otherwise() {
        assert_eq!(username("cli_AbC-9_xyzXYZ0123456789ab"), "cli_AbC-9_xyzXYZ0123456789ab");
        let odd = username("client:with@odd.chars");
        assert_eq!(odd, username("client:with@odd.chars"), "stable");
        assert_ne!(odd, username("client:with@odd.chars2"));
        assert!(odd.len() <= 36 && odd.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'), "{odd}");
        assert!(username(&"x".repeat(37)).starts_with("vp_"));
        assert!(username("ab").starts_with("vp_"), "too short for the panel");
    }

    #[test]
    fn a_new_user_carries_every_field_the_issue_names() {
        let body = create_body(&user(), &["0b6a6c2e-7f1d-4e43-9d5b-1a2b3c4d5e6f".into()]);
        assert_eq!(
            body,
            json!({
                "username": "cli_AbC-9_xyzXYZ0123456789ab",
                "shortUuid": "tok_0123456789abcdef0123456789ab",
                "expireAt": "2030-01-02T03:04:05.678Z",
                "status": "ACTIVE",
                "hwidDeviceLimit": 3,
                "trafficLimitBytes": 0,
                "trafficLimitStrategy": "NO_RESET",
                "activeInternalSquads": ["0b6a6c2e-7f1d-4e43-9d5b-1a2b3c4d5e6f"],
                "description": "partner acc_1 client tg:42@bot"
            })
        );
        let unlimited_lifetime =
            PanelUser { device_limit: None, enabled: false, expires_at: datetime!(9999-12-31 23:59:59 UTC), ..user() };
        let body = create_body(&unlimited_lifetime, &[]);
        assert_eq!(
            (&body["hwidDeviceLimit"], &body["expireAt"], &body["status"]),
            (&json!(0), &json!("2099-12-31T23:59:59Z"), &json!("DISABLED"))
        );
    }

    #[test]
    fn only_what_differs_is_patched_and_reported() {
        let now = datetime!(2026-11-23 12:00 UTC);
        let u = user();
        let same = held(&u);
        assert_eq!(Changes::between(&u, &same, now), Changes::default());
        assert_eq!(Changes::between(&u, &same, now).patch_body(7), None);

        let expired_in_panel = User { status: "EXPIRED".into(), hwid_device_limit: None, ..same.clone() };
        let c = Changes::between(&u, &expired_in_panel, now);
        assert_eq!(c.patch_body(7), Some(json!({"id": 7, "status": "ACTIVE", "hwidDeviceLimit": 3})));
        let fields: Vec<_> = c.drift(&expired_in_panel).iter().map(|d| d.field).collect();
        assert_eq!(fields, ["enabled", "device_limit"]);

        let rotated = PanelUser { link_token: "tok_new_0123456789abcdef01234567".into(), ..u.clone() };
        let c = Changes::between(&rotated, &same, now);
        assert_eq!(c.short_uuid.as_deref(), Some("tok_new_0123456789abcdef01234567"));
        assert_eq!(c.patch_body(7), None, "the link changes through revoke, not PATCH");
    }

    #[test]
    fn an_ended_term_is_carried_by_the_status_because_the_panel_refuses_past_dates() {
        let now = datetime!(2030-06-01 00:00 UTC);
        let ended = PanelUser { enabled: false, ..user() };
        let held_later = User { expire_at: datetime!(2030-03-01 00:00 UTC), ..held(&ended) };
        let c = Changes::between(&ended, &held_later, now);
        assert_eq!(c.expire_at, None);
        assert_eq!(c.patch_body(7), Some(json!({"id": 7, "status": "DISABLED"})));
        let already_expired = User { status: "EXPIRED".into(), ..held_later };
        assert_eq!(Changes::between(&ended, &already_expired, now), Changes::default(), "no access either way");
    }

    #[test]
    fn a_traffic_limit_is_sent_with_its_strategy_and_a_limited_user_counts_as_on() {
        let fifty = PanelUser { traffic: TrafficLimit::of_gb(50, TrafficReset::Month), ..user() };
        let body = create_body(&fifty, &[]);
        assert_eq!(
            (&body["trafficLimitBytes"], &body["trafficLimitStrategy"]),
            (&json!(53_687_091_200_i64), &json!("MONTH"))
        );
        let now = datetime!(2026-11-23 12:00 UTC);
        let unlimited_in_panel = held(&user());
        let c = Changes::between(&fifty, &unlimited_in_panel, now);
        assert_eq!(
            c.patch_body(7),
            Some(json!({"id": 7, "trafficLimitBytes": 53_687_091_200_i64, "trafficLimitStrategy": "MONTH"}))
        );
        assert_eq!(c.drift(&unlimited_in_panel)[0].field, "traffic_limit");
        let used_up = User { status: "LIMITED".into(), ..held(&fifty) };
        assert_eq!(Changes::between(&fifty, &used_up, now), Changes::default(), "the panel holds traffic back itself");
        let paused = PanelUser { enabled: false, ..fifty.clone() };
        assert_eq!(
            Changes::between(&paused, &used_up, now).status,
            Some("DISABLED"),
            "else its reset would give access"
        );
        let weekly = PanelUser { traffic: TrafficLimit::of_gb(50, TrafficReset::Week), ..user() };
        assert_eq!(Changes::between(&weekly, &held(&fifty), now).traffic, Some((53_687_091_200, "WEEK")));
        for reset in TrafficReset::ALL {
            assert_eq!(reset_of(strategy(reset)), Some(reset));
        }
    }

    #[test]
    fn a_new_term_of_a_no_reset_limit_counts_traffic_from_zero_once() {
        let now = datetime!(2026-11-23 12:00 UTC);
        let renewed_at = datetime!(2026-11-20 00:00 UTC);
        let want = PanelUser {
            traffic: TrafficLimit::of_gb(50, TrafficReset::NoReset),
            traffic_counted_from: Some(renewed_at),
            ..user()
        };
        let counted_before = held(&want);
        let c = Changes::between(&want, &counted_before, now);
        assert_eq!(c.reset_traffic_from, Some(renewed_at));
        assert_eq!(c.drift(&counted_before)[0].field, "traffic_counted_from");
        let reset_since = User { last_traffic_reset_at: Some(renewed_at + time::Duration::seconds(1)), ..held(&want) };
        assert_eq!(Changes::between(&want, &reset_since, now), Changes::default(), "once");
    }
}
