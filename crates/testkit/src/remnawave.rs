//! A Remnawave 3.x panel on loopback, as `@remnawave/backend-contract` 3.4.15 describes it
//! (and the panel's backend behaves): users and their HWID devices in memory, the
//! `{"response": ...}` envelope, the panel's error bodies and codes, the reverse-proxy check
//! that drops plain-http requests lacking `X-Forwarded-For` / `X-Forwarded-Proto: https`, and
//! the subscription link that registers devices from the app's `x-hwid` headers.
//!
//! Every exchange on `/api/...` is recorded, so a test can check all of them against the
//! contract's zod schemas with `contract/remnawave/validate.mjs` (`check_exchanges`).

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use base64::Engine;
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::http::{HttpServer, Reply, Request};

/// The contract version the emulator follows; the lock file in `contract/remnawave` pins it.
pub const CONTRACT_VERSION: &str = "3.4.15";

/// How the emulator answers the API (the subscription link keeps working).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Up,
    /// Every API request gets a 503 from the reverse proxy in front of the panel.
    Down,
    /// Every API request hangs this long before the answer.
    Slow(Duration),
    /// Every create/update/revoke is refused with a 400 validation error (a drifted panel).
    Refusing,
}

/// One API request and its answer, as the contract check reads them.
#[derive(Debug, Clone)]
pub struct Exchange {
    pub method: String,
    pub path: String,
    /// The query string's parameters (`{}` without one).
    pub query: Value,
    pub request: Option<Value>,
    pub status: u16,
    pub response: Option<Value>,
}

/// A user as the panel holds it (the fields tests look at).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub id: i64,
    pub username: String,
    pub short_uuid: String,
    /// `ACTIVE`, `DISABLED`, `LIMITED` or `EXPIRED`.
    pub status: String,
    pub expire_at: OffsetDateTime,
    pub hwid_device_limit: Option<i64>,
    pub traffic_limit_bytes: i64,
    pub traffic_limit_strategy: String,
    pub description: Option<String>,
    pub telegram_id: Option<i64>,
    pub tag: Option<String>,
    pub squads: Vec<String>,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
    pub sub_revoked_at: Option<OffsetDateTime>,
    /// Traffic used since the last reset (`userTraffic.usedTrafficBytes`).
    pub used_traffic_bytes: i64,
    pub last_traffic_reset_at: Option<OffsetDateTime>,
    vless_uuid: String,
    trojan_password: String,
    ss_password: String,
}

/// A user another tool made in the panel before us (a shop bot, the panel's UI): what an
/// import finds. `Default` is an active user with a month left, no device limit and no traffic
/// limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExistingUser {
    pub username: String,
    pub status: String,
    pub expire_at: OffsetDateTime,
    pub hwid_device_limit: Option<i64>,
    pub traffic_limit_bytes: i64,
    pub traffic_limit_strategy: String,
    pub telegram_id: Option<i64>,
    pub tag: Option<String>,
    pub squads: Vec<String>,
}

impl Default for ExistingUser {
    fn default() -> ExistingUser {
        ExistingUser {
            username: String::new(),
            status: "ACTIVE".into(),
            expire_at: OffsetDateTime::now_utc() + time::Duration::days(30),
            hwid_device_limit: Some(0),
            traffic_limit_bytes: 0,
            traffic_limit_strategy: "NO_RESET".into(),
            telegram_id: None,
            tag: None,
            squads: vec![],
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Device {
    pub user_id: i64,
    pub hwid: String,
    pub platform: Option<String>,
    pub os_version: Option<String>,
    pub device_model: Option<String>,
    pub user_agent: Option<String>,
    pub created_at: OffsetDateTime,
}

struct State {
    token: String,
    mode: Mode,
    users: Vec<User>,
    devices: Vec<Device>,
    next_id: i64,
    exchanges: Vec<Exchange>,
    /// Whether exchanges are recorded (`stop_recording`).
    recording: bool,
    /// Plain-http requests the proxy check dropped.
    dropped: u64,
    squads: Vec<(String, String)>,
    sub_base: String,
    /// The next API request with this method is carried out but its answer is lost (the
    /// connection closes).
    lose_next_answer: Option<String>,
    /// The next lookup by username answers 404 although the user exists (another writer
    /// created it a moment later).
    hide_next_lookup: bool,
    /// Where the panel's webhooks go (`WEBHOOK_URL`) and what signs them
    /// (`WEBHOOK_SECRET_HEADER`); `None` while webhooks are off.
    webhook: Option<(String, String)>,
    /// Every webhook body sent, in order, for the contract check.
    webhooks: Vec<Value>,
    /// The receiver's answer to each webhook delivered: its event and HTTP status.
    webhook_answers: Arc<Mutex<Vec<(String, u16)>>>,
}

/// The emulator; stops when dropped.
pub struct Remnawave {
    state: Arc<Mutex<State>>,
    server: HttpServer,
}

static UUIDS: AtomicU64 = AtomicU64::new(1);

/// A fresh RFC 9562 version-4 UUID (unique per process; randomness is not needed here).
fn uuid() -> String {
    let n = UUIDS.fetch_add(1, Ordering::Relaxed);
    let nanos = OffsetDateTime::now_utc().unix_timestamp_nanos().unsigned_abs();
    format!("{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}", nanos as u32, n as u16, n & 0xfff, nanos & 0xfff, n)
}

fn iso(at: OffsetDateTime) -> String {
    // The panel answers with millisecond precision and `Z`.
    let ms = at.replace_nanosecond(at.nanosecond() / 1_000_000 * 1_000_000).unwrap_or(at);
    let text = ms.format(&Rfc3339).unwrap_or_default();
    if text.contains('.') { text } else { text.replacen('Z', ".000Z", 1) }
}

fn parse_time(text: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(text, &Rfc3339).ok()
}

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The panel's business error body (`HttpExceptionWithErrorCodeType`).
fn error(status: u16, code: &str, message: &str, path: &str) -> Reply {
    Reply::json(
        status,
        &json!({"timestamp": iso(OffsetDateTime::now_utc()), "path": path, "message": message, "errorCode": code}),
    )
}

/// nestjs-zod's validation error body.
fn invalid(path: &str, message: &str) -> Reply {
    Reply::json(
        400,
        &json!({"statusCode": 400, "message": "Validation failed", "errors": [
            {"code": "custom", "path": [path], "message": message}
        ]}),
    )
}

fn is_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    s.len() == 36
        && [8, 13, 18, 23].iter().all(|i| b[*i] == b'-')
        && s.chars().enumerate().all(|(i, c)| [8, 13, 18, 23].contains(&i) || c.is_ascii_hexdigit())
}

fn valid_username(u: &str) -> bool {
    (3..=36).contains(&u.len()) && u.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

impl State {
    fn user_json(&self, u: &User) -> Value {
        let squads: Vec<Value> = u
            .squads
            .iter()
            .map(|s| {
                let name = self.squads.iter().find(|(id, _)| id == s).map_or("Default-Squad", |(_, n)| n.as_str());
                json!({"uuid": s, "name": name})
            })
            .collect();
        json!({
            "id": u.id,
            "shortUuid": u.short_uuid,
            "username": u.username,
            "status": u.status,
            "trafficLimitBytes": u.traffic_limit_bytes,
            "trafficLimitStrategy": u.traffic_limit_strategy,
            "expireAt": iso(u.expire_at),
            "telegramId": u.telegram_id,
            "email": null,
            "description": u.description,
            "tag": u.tag,
            "hwidDeviceLimit": u.hwid_device_limit,
            "externalSquadUuid": null,
            "trojanPassword": u.trojan_password,
            "vlessUuid": u.vless_uuid,
            "ssPassword": u.ss_password,
            "lastTriggeredThreshold": 0,
            "subRevokedAt": u.sub_revoked_at.map(iso),
            "lastTrafficResetAt": u.last_traffic_reset_at.map(iso),
            "createdAt": iso(u.created_at),
            "updatedAt": iso(u.updated_at),
            "subscriptionUrl": format!("{}/{}", self.sub_base, u.short_uuid),
            "activeInternalSquads": squads,
            "userTraffic": {
                "usedTrafficBytes": u.used_traffic_bytes,
                "lifetimeUsedTrafficBytes": 0,
                "onlineAt": null,
                "firstConnectedAt": null,
                "lastConnectedNodeUuid": null
            }
        })
    }

    fn devices_json(&self, user_id: i64) -> Value {
        let devices: Vec<Value> =
            self.devices.iter().filter(|d| d.user_id == user_id).map(State::device_json).collect();
        json!({"response": {"total": devices.len(), "devices": devices}})
    }

    /// The count of the user at `i` starts from zero (a reset asked for, or the panel's own at
    /// the turn of its strategy's period); a user held back for its traffic gets access again.
    fn restart_traffic(&mut self, i: usize) {
        let now = OffsetDateTime::now_utc();
        let u = &mut self.users[i];
        u.used_traffic_bytes = 0;
        u.last_traffic_reset_at = Some(now);
        u.updated_at = now;
        if u.status == "LIMITED" {
            u.status = "ACTIVE".into();
        }
        let user = self.users[i].clone();
        self.user_event("user.traffic_reset", &user);
    }

    /// The panel's own job: an active user whose term passed becomes EXPIRED.
    fn expire(&mut self) {
        let now = OffsetDateTime::now_utc();
        for u in &mut self.users {
            if u.status == "ACTIVE" && u.expire_at <= now {
                u.status = "EXPIRED".into();
            }
        }
    }

    fn user_index(&self, id: i64) -> Option<usize> {
        self.users.iter().position(|u| u.id == id)
    }

    fn device_json(d: &Device) -> Value {
        json!({
            "hwid": d.hwid,
            "userId": d.user_id,
            "platform": d.platform,
            "osVersion": d.os_version,
            "deviceModel": d.device_model,
            "userAgent": d.user_agent,
            "requestIp": "127.0.0.1",
            "createdAt": iso(d.created_at),
            "updatedAt": iso(d.created_at),
        })
    }

    /// A user event (`user.*`) about `user`, sent when webhooks are on.
    fn user_event(&mut self, event: &str, user: &User) {
        let data = self.user_json(user);
        self.send_webhook(json!({"scope": "user", "event": event, "timestamp": iso(OffsetDateTime::now_utc()),
            "data": data, "meta": null}));
    }

    /// A device event (`user_hwid_devices.*`) about `device` of `user`.
    fn device_event(&mut self, event: &str, user: &User, device: &Device) {
        let data = json!({"user": self.user_json(user), "hwidUserDevice": State::device_json(device)});
        self.send_webhook(json!({"scope": "user_hwid_devices", "event": event,
            "timestamp": iso(OffsetDateTime::now_utc()), "data": data}));
    }

    /// Posts `body` as the panel does: `X-Remnawave-Signature` the hex HMAC-SHA256 of the body
    /// under the secret, `X-Remnawave-Timestamp` the body's time; from a thread of its own, so
    /// the receiver may call the panel back meanwhile.
    fn send_webhook(&mut self, body: Value) {
        let Some((url, secret)) = self.webhook.clone() else { return };
        self.webhooks.push(body.clone());
        let answers = self.webhook_answers.clone();
        std::thread::spawn(move || {
            let text = body.to_string();
            let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, secret.as_bytes());
            let signature: String =
                ring::hmac::sign(&key, text.as_bytes()).as_ref().iter().map(|b| format!("{b:02x}")).collect();
            let timestamp = body["timestamp"].as_str().unwrap_or_default().to_owned();
            let headers = [
                ("content-type", "application/json"),
                ("x-remnawave-signature", signature.as_str()),
                ("x-remnawave-timestamp", timestamp.as_str()),
            ];
            let status = crate::http::send("POST", &url, &headers, text.as_bytes()).map_or(0, |a| a.status);
            let event = body["event"].as_str().unwrap_or_default().to_owned();
            answers.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push((event, status));
        });
    }
}

impl Remnawave {
    /// A panel that accepts the API token `token`.
    pub fn start(token: &str) -> Remnawave {
        let state = Arc::new(Mutex::new(State {
            token: token.to_owned(),
            mode: Mode::Up,
            users: vec![],
            devices: vec![],
            next_id: 1,
            exchanges: vec![],
            recording: true,
            dropped: 0,
            squads: vec![],
            sub_base: String::new(),
            lose_next_answer: None,
            hide_next_lookup: false,
            webhook: None,
            webhooks: vec![],
            webhook_answers: Arc::default(),
        }));
        let handler_state = state.clone();
        let server = HttpServer::start(move |req| handle(&handler_state, req));
        lock(&state).sub_base = format!("{}/sub", server.url());
        Remnawave { state, server }
    }

    /// The panel's base URL, e.g. `http://127.0.0.1:PORT` (requests go to `{url}/api/...`).
    pub fn url(&self) -> String {
        self.server.url()
    }

    /// The public subscription base (`VP_REMNAWAVE_SUB_URL`): links are `{sub_url}/{shortUuid}`.
    pub fn sub_url(&self) -> String {
        format!("{}/sub", self.server.url())
    }

    /// Adds an internal squad the panel knows; returns its UUID.
    pub fn add_squad(&self, name: &str) -> String {
        let id = uuid();
        lock(&self.state).squads.push((id.clone(), name.to_owned()));
        id
    }

    pub fn set_mode(&self, mode: Mode) {
        lock(&self.state).mode = mode;
    }

    /// Carries out the next API request with `method` but closes the connection instead of
    /// answering, as when the caller's timeout fires after the panel did the work.
    pub fn lose_next_answer(&self, method: &str) {
        lock(&self.state).lose_next_answer = Some(method.to_owned());
    }

    /// Makes the next lookup by username miss, as when another writer creates the user
    /// between the caller's lookup and its create.
    pub fn hide_next_lookup(&self) {
        lock(&self.state).hide_next_lookup = true;
    }

    pub fn user(&self, username: &str) -> Option<User> {
        let mut s = lock(&self.state);
        s.expire();
        s.users.iter().find(|u| u.username == username).cloned()
    }

    /// Puts a user into the panel as another tool made it (no webhook: it was there before us);
    /// returns it with the id and `shortUuid` the panel gave it. Names are the caller's to keep
    /// distinct.
    pub fn seed_user(&self, existing: ExistingUser) -> User {
        let mut s = lock(&self.state);
        let now = OffsetDateTime::now_utc();
        let id = s.next_id;
        s.next_id += 1;
        let user = User {
            id,
            username: existing.username,
            short_uuid: format!("{:016x}", 0x5eed_0000_0000_0000_u64 + id.unsigned_abs()),
            status: existing.status,
            expire_at: existing.expire_at,
            hwid_device_limit: existing.hwid_device_limit,
            traffic_limit_bytes: existing.traffic_limit_bytes,
            traffic_limit_strategy: existing.traffic_limit_strategy,
            description: Some("made by the shop bot".into()),
            telegram_id: existing.telegram_id,
            tag: existing.tag,
            squads: existing.squads,
            created_at: now,
            updated_at: now,
            sub_revoked_at: None,
            used_traffic_bytes: 0,
            last_traffic_reset_at: None,
            vless_uuid: uuid(),
            trojan_password: format!("trojan{id:010}"),
            ss_password: format!("ssprivate{id:08}"),
        };
        s.users.push(user.clone());
        user
    }

    /// The user's apps moved `bytes` through the panel's nodes: counted, and an active user over
    /// its limit becomes LIMITED (the panel tells its webhook `user.limited`).
    pub fn use_traffic(&self, username: &str, bytes: i64) {
        let mut s = lock(&self.state);
        let Some(i) = s.users.iter().position(|u| u.username == username) else { return };
        let u = &mut s.users[i];
        u.used_traffic_bytes += bytes;
        let over = u.traffic_limit_bytes > 0 && u.used_traffic_bytes >= u.traffic_limit_bytes;
        if over && u.status == "ACTIVE" {
            u.status = "LIMITED".into();
            let user = u.clone();
            s.user_event("user.limited", &user);
        }
    }

    /// The panel's own reset at the turn of the user's period (its strategy's day, week or
    /// month), as its scheduled job makes it.
    pub fn turn_traffic_period(&self, username: &str) {
        let mut s = lock(&self.state);
        if let Some(i) = s.users.iter().position(|u| u.username == username) {
            s.restart_traffic(i);
        }
    }

    /// Registers a device for the user, as an app fetching its link did before us.
    pub fn seed_device(&self, username: &str, hwid: &str, platform: &str) {
        let mut s = lock(&self.state);
        let Some(user_id) = s.users.iter().find(|u| u.username == username).map(|u| u.id) else { return };
        s.devices.push(Device {
            user_id,
            hwid: hwid.to_owned(),
            platform: Some(platform.to_owned()),
            os_version: None,
            device_model: None,
            user_agent: Some("Happ/3.0".into()),
            created_at: OffsetDateTime::now_utc(),
        });
    }

    /// Stops recording exchanges for the contract check (a bench's pages of thousands of users
    /// would hold gigabytes).
    pub fn stop_recording(&self) {
        let mut s = lock(&self.state);
        s.recording = false;
        s.exchanges.clear();
    }

    /// The user whose subscription link ends in `short_uuid`.
    pub fn user_by_short_uuid(&self, short_uuid: &str) -> Option<User> {
        let mut s = lock(&self.state);
        s.expire();
        s.users.iter().find(|u| u.short_uuid == short_uuid).cloned()
    }

    pub fn users(&self) -> Vec<User> {
        let mut s = lock(&self.state);
        s.expire();
        s.users.clone()
    }

    pub fn devices(&self, username: &str) -> Vec<Device> {
        let s = lock(&self.state);
        let Some(u) = s.users.iter().find(|u| u.username == username) else { return vec![] };
        s.devices.iter().filter(|d| d.user_id == u.id).cloned().collect()
    }

    /// Changes a user behind the adapter's back (an operator in the panel's UI); the panel
    /// tells its webhook (`user.disabled`, `user.enabled` or `user.modified`).
    pub fn edit_user(&self, username: &str, edit: impl FnOnce(&mut User)) {
        let mut s = lock(&self.state);
        let Some(u) = s.users.iter_mut().find(|u| u.username == username) else { return };
        let before = u.status.clone();
        edit(u);
        u.updated_at = OffsetDateTime::now_utc();
        let (after, user) = (u.status.clone(), u.clone());
        let event = match (before.as_str(), after.as_str()) {
            (b, "DISABLED") if b != "DISABLED" => "user.disabled",
            ("DISABLED", a) if a != "DISABLED" => "user.enabled",
            _ => "user.modified",
        };
        s.user_event(event, &user);
    }

    /// Deletes a user behind the adapter's back; the panel tells its webhook (`user.deleted`).
    pub fn delete_user(&self, username: &str) {
        let mut s = lock(&self.state);
        let gone: Vec<User> = s.users.iter().filter(|u| u.username == username).cloned().collect();
        s.users.retain(|u| u.username != username);
        s.devices.retain(|d| !gone.iter().any(|u| u.id == d.user_id));
        for user in &gone {
            s.user_event("user.deleted", user);
        }
    }

    /// Turns the panel's webhooks on (`WEBHOOK_ENABLED`): every later change is posted to `url`,
    /// signed with `secret` (`WEBHOOK_SECRET_HEADER`).
    pub fn send_webhooks_to(&self, url: &str, secret: &str) {
        lock(&self.state).webhook = Some((url.to_owned(), secret.to_owned()));
    }

    /// The webhook bodies sent so far.
    pub fn webhooks(&self) -> Vec<Value> {
        lock(&self.state).webhooks.clone()
    }

    /// The receiver's answers so far: each delivered webhook's event and HTTP status (0: no
    /// answer).
    pub fn webhook_answers(&self) -> Vec<(String, u16)> {
        let answers = lock(&self.state).webhook_answers.clone();
        let list = answers.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        list.clone()
    }

    /// Every API exchange that got an answer so far (a lost answer is not one).
    pub fn exchanges(&self) -> Vec<Exchange> {
        lock(&self.state).exchanges.clone()
    }

    /// How many API requests came as `method` to a path starting with `prefix`.
    pub fn count(&self, method: &str, prefix: &str) -> usize {
        lock(&self.state).exchanges.iter().filter(|e| e.method == method && e.path.starts_with(prefix)).count()
    }

    /// Plain-http requests the reverse-proxy check dropped without an answer.
    pub fn dropped(&self) -> u64 {
        lock(&self.state).dropped
    }
}

fn handle(state: &Mutex<State>, req: &Request) -> Reply {
    if let Some(short_uuid) = req.path.strip_prefix("/sub/") {
        return subscription(state, short_uuid, req);
    }
    if !req.path.starts_with("/api/") {
        return Reply::text(404, "Cannot GET");
    }
    // Remnawave's proxy check: outside its reverse proxy, a request without these headers
    // gets no answer at all (the socket is destroyed).
    let proxied = req.header("x-forwarded-for").is_some_and(|v| !v.is_empty())
        && req.header("x-forwarded-proto") == Some("https");
    if !proxied {
        lock(state).dropped += 1;
        return Reply::Close;
    }
    let mode = lock(state).mode;
    match mode {
        Mode::Down => return Reply::text(503, "503 Service Unavailable"),
        Mode::Slow(d) => std::thread::sleep(d),
        Mode::Up | Mode::Refusing => {}
    }
    let request_json = req.json();
    let reply = {
        let mut s = lock(state);
        s.expire();
        if req.header("authorization") != Some(format!("Bearer {}", s.token).as_str()) {
            Reply::json(401, &json!({"message": "Unauthorized", "statusCode": 401}))
        } else if mode == Mode::Refusing && req.method != "GET" {
            invalid("body", "refused by the emulator's refusing mode")
        } else {
            api(&mut s, req, request_json.as_ref())
        }
    };
    {
        let mut s = lock(state);
        if s.lose_next_answer.as_deref() == Some(req.method.as_str()) {
            s.lose_next_answer = None;
            return Reply::Close;
        }
    }
    if let Reply::Respond { status, body, .. } = &reply
        && lock(state).recording
    {
        let query: serde_json::Map<String, Value> =
            req.query_pairs().into_iter().map(|(k, v)| (k, Value::String(v))).collect();
        lock(state).exchanges.push(Exchange {
            method: req.method.clone(),
            path: req.path.clone(),
            query: Value::Object(query),
            request: request_json,
            status: *status,
            response: serde_json::from_slice(body).ok(),
        });
    }
    reply
}

fn api(s: &mut State, req: &Request, body: Option<&Value>) -> Reply {
    let path = req.path.trim_end_matches('/');
    let seg: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    match (req.method.as_str(), seg.as_slice()) {
        ("GET", ["api", "system", "metadata"]) => Reply::json(
            200,
            &json!({"response": {
                "version": "2.3.2",
                "build": {"time": "2026-08-22T00:00:00.000Z", "number": "1"},
                "git": {
                    "backend": {"commitSha": "c634cda7", "branch": "main", "commitUrl": "https://github.com/remnawave/backend"},
                    "frontend": {"commitSha": "0000000", "commitUrl": "https://github.com/remnawave/frontend"}
                }
            }}),
        ),
        ("GET", ["api", "users", "stream"]) => users_stream(s, req),
        ("GET", ["api", "users", "by-username", username]) => {
            let hidden = std::mem::take(&mut s.hide_next_lookup);
            match s.users.iter().find(|u| u.username == *username).filter(|_| !hidden) {
                Some(u) => Reply::json(200, &json!({"response": s.user_json(u)})),
                None => error(404, "A063", "User with specified params not found", &req.path),
            }
        }
        ("GET", ["api", "users", id]) => match id.parse::<i64>().ok().filter(|n| *n > 0) {
            None => invalid("userId", "Invalid input: expected number, received NaN"),
            Some(id) => match s.user_index(id) {
                Some(i) => Reply::json(200, &json!({"response": s.user_json(&s.users[i])})),
                None => error(404, "A063", "User with specified params not found", &req.path),
            },
        },
        ("POST", ["api", "users"]) => create_user(s, body, &req.path),
        ("PATCH", ["api", "users"]) => update_user(s, body, &req.path),
        ("POST", ["api", "users", id, "actions", "revoke"]) => revoke(s, id, body, &req.path),
        ("POST", ["api", "users", id, "actions", "reset-traffic"]) => reset_traffic(s, id, &req.path),
        ("GET", ["api", "hwid", "devices", id]) => match id.parse::<i64>().ok() {
            None => invalid("userId", "Invalid input: expected number, received NaN"),
            Some(id) if s.user_index(id).is_none() => error(404, "A025", "User not found", &req.path),
            Some(id) => Reply::json(200, &s.devices_json(id)),
        },
        ("POST", ["api", "hwid", "devices", "delete"]) => {
            let Some(body) = body else { return invalid("body", "Invalid input: expected object") };
            let (Some(id), Some(hwid)) = (body["userId"].as_i64(), body["hwid"].as_str()) else {
                return invalid("userId", "Invalid input: expected number and hwid");
            };
            let Some(user) = s.user_index(id).map(|i| s.users[i].clone()) else {
                return error(404, "A025", "User not found", &req.path);
            };
            let Some(at) = s.devices.iter().position(|d| d.user_id == id && d.hwid == hwid) else {
                return error(404, "A204", "HWID device not found", &req.path);
            };
            let device = s.devices.remove(at);
            s.device_event("user_hwid_devices.deleted", &user, &device);
            Reply::json(200, &s.devices_json(id))
        }
        _ => Reply::json(
            404,
            &json!({"message": format!("Cannot {} {}", req.method, req.path), "error": "Not Found", "statusCode": 404}),
        ),
    }
}

/// `GET /api/users/stream`: users in id order after `cursor` (the last id of the page before),
/// `size` at a time (1 to 1000, 250 when not given), only those with `tag` when given.
fn users_stream(s: &State, req: &Request) -> Reply {
    let params = req.query_pairs();
    let param = |name: &str| params.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
    let Some(size) = param("size").map_or(Some(250), |v| v.parse::<usize>().ok().filter(|n| (1..=1000).contains(n)))
    else {
        return invalid("size", "Too big or too small: expected number between 1 and 1000");
    };
    let Some(after) = param("cursor").map_or(Some(0), |v| v.parse::<i64>().ok()) else {
        return invalid("cursor", "Invalid input: expected number, received NaN");
    };
    let mut matching =
        s.users.iter().filter(|u| u.id > after && param("tag").is_none_or(|t| u.tag.as_deref() == Some(t)));
    let page: Vec<&User> = matching.by_ref().take(size).collect();
    let has_more = matching.next().is_some();
    let users: Vec<Value> = page.iter().map(|u| s.user_json(u)).collect();
    let next_cursor = if has_more { page.last().map(|u| u.id.to_string()) } else { None };
    Reply::json(200, &json!({"response": {"users": users, "nextCursor": next_cursor, "hasMore": has_more}}))
}

/// The contract's `RESET_PERIODS`.
const RESET_PERIODS: [&str; 5] = ["NO_RESET", "DAY", "WEEK", "MONTH", "MONTH_ROLLING"];

fn create_user(s: &mut State, body: Option<&Value>, path: &str) -> Reply {
    let Some(b) = body.and_then(Value::as_object) else { return invalid("body", "Invalid input: expected object") };
    let Some(username) = b.get("username").and_then(Value::as_str).filter(|u| valid_username(u)) else {
        return invalid("username", "Username can only contain letters, numbers, underscores and dashes");
    };
    let Some(expire_at) = b.get("expireAt").and_then(Value::as_str).and_then(parse_time) else {
        return invalid("expireAt", "Invalid ISO datetime");
    };
    let status = b.get("status").and_then(Value::as_str).unwrap_or("ACTIVE");
    if !["ACTIVE", "DISABLED", "LIMITED", "EXPIRED"].contains(&status) {
        return invalid("status", "Invalid option");
    }
    let limit = match b.get("hwidDeviceLimit") {
        None => None,
        Some(v) => match v.as_i64().filter(|n| *n >= 0) {
            Some(n) => Some(n),
            None => return invalid("hwidDeviceLimit", "Invalid input: expected int >= 0"),
        },
    };
    let squads: Vec<String> = match b.get("activeInternalSquads") {
        None => vec![],
        Some(Value::Array(list)) => {
            let ids: Vec<String> = list.iter().filter_map(Value::as_str).map(str::to_owned).collect();
            if ids.len() != list.len() || !ids.iter().all(|i| is_uuid(i)) {
                return invalid("activeInternalSquads", "Invalid UUID");
            }
            ids
        }
        Some(_) => return invalid("activeInternalSquads", "Invalid input: expected array"),
    };
    if s.users.iter().any(|u| u.username == username) {
        return error(400, "A019", "User username already exists", path);
    }
    let short_uuid = match b.get("shortUuid").and_then(Value::as_str).filter(|v| !v.is_empty()) {
        Some(v) => v.to_owned(),
        None => uuid().replace('-', "")[..16].to_owned(),
    };
    if s.users.iter().any(|u| u.short_uuid == short_uuid) {
        return error(400, "A020", "User short UUID already exists", path);
    }
    let now = OffsetDateTime::now_utc();
    let user = User {
        id: s.next_id,
        username: username.to_owned(),
        short_uuid,
        status: status.to_owned(),
        expire_at,
        hwid_device_limit: limit,
        traffic_limit_bytes: b.get("trafficLimitBytes").and_then(Value::as_i64).unwrap_or(0),
        traffic_limit_strategy: b.get("trafficLimitStrategy").and_then(Value::as_str).unwrap_or("NO_RESET").to_owned(),
        description: b.get("description").and_then(Value::as_str).map(str::to_owned),
        telegram_id: b.get("telegramId").and_then(Value::as_i64),
        tag: b.get("tag").and_then(Value::as_str).map(str::to_owned),
        squads,
        created_at: now,
        updated_at: now,
        sub_revoked_at: None,
        used_traffic_bytes: 0,
        last_traffic_reset_at: None,
        vless_uuid: uuid(),
        trojan_password: format!("trojan{:010}", s.next_id),
        ss_password: format!("ssprivate{:08}", s.next_id),
    };
    s.next_id += 1;
    s.users.push(user);
    // As the panel answers: after its expiry job (a user created with a past `expireAt` is
    // EXPIRED at once).
    s.expire();
    let user = s.users.last().cloned().expect("just pushed");
    s.user_event("user.created", &user);
    let json = s.user_json(&user);
    Reply::json(201, &json!({"response": json}))
}

fn update_user(s: &mut State, body: Option<&Value>, path: &str) -> Reply {
    let Some(b) = body.and_then(Value::as_object) else { return invalid("body", "Invalid input: expected object") };
    let by_id = b.get("id").and_then(Value::as_i64).filter(|n| *n != 0);
    let by_name = b.get("username").and_then(Value::as_str).filter(|n| !n.is_empty());
    let index = match (by_id, by_name) {
        (Some(id), _) => s.user_index(id),
        (None, Some(name)) => s.users.iter().position(|u| u.username == name),
        (None, None) => return invalid("", "At least one of username, id must be provided"),
    };
    let now = OffsetDateTime::now_utc();
    let expire_at = match b.get("expireAt") {
        None => None,
        Some(v) => match v.as_str().and_then(parse_time) {
            Some(t) if t > now => Some(t),
            Some(_) => return invalid("expireAt", "Expiration date cannot be in the past"),
            None => return invalid("expireAt", "Invalid ISO datetime"),
        },
    };
    let status = match b.get("status") {
        None => None,
        Some(v) => match v.as_str() {
            Some(st @ ("ACTIVE" | "DISABLED")) => Some(st.to_owned()),
            _ => return invalid("status", "Invalid option: expected one of \"ACTIVE\"|\"DISABLED\""),
        },
    };
    let limit = match b.get("hwidDeviceLimit") {
        None => None,
        Some(Value::Null) => Some(None),
        Some(v) => match v.as_i64().filter(|n| *n >= 0) {
            Some(n) => Some(Some(n)),
            None => return invalid("hwidDeviceLimit", "Invalid input: expected int >= 0"),
        },
    };
    let traffic_bytes = match b.get("trafficLimitBytes") {
        None => None,
        Some(v) => match v.as_i64().filter(|n| *n >= 0) {
            Some(n) => Some(n),
            None => return invalid("trafficLimitBytes", "Too small: expected number to be >=0"),
        },
    };
    let strategy = match b.get("trafficLimitStrategy") {
        None => None,
        Some(v) => match v.as_str().filter(|st| RESET_PERIODS.contains(st)) {
            Some(st) => Some(st.to_owned()),
            None => return invalid("trafficLimitStrategy", "Invalid option"),
        },
    };
    let Some(i) = index else { return error(404, "A025", "User not found", path) };
    let u = &mut s.users[i];
    if let Some(bytes) = traffic_bytes {
        u.traffic_limit_bytes = bytes;
    }
    if let Some(st) = strategy {
        u.traffic_limit_strategy = st;
    }
    if let Some(t) = expire_at {
        u.expire_at = t;
        // The backend: an EXPIRED user given a future date without a status becomes ACTIVE.
        if u.status == "EXPIRED" && status.is_none() {
            u.status = "ACTIVE".into();
        }
    }
    if let Some(st) = status {
        u.status = st;
    }
    if let Some(l) = limit {
        u.hwid_device_limit = l;
    }
    if let Some(d) = b.get("description") {
        u.description = d.as_str().map(str::to_owned);
    }
    u.updated_at = now;
    s.expire();
    let user = s.users[i].clone();
    s.user_event("user.modified", &user);
    Reply::json(200, &json!({"response": s.user_json(&user)}))
}

/// `POST /api/users/{id}/actions/reset-traffic`: the count starts from zero; a user held back
/// for its traffic gets access again.
fn reset_traffic(s: &mut State, id: &str, path: &str) -> Reply {
    let Some(id) = id.parse::<i64>().ok().filter(|n| *n > 0) else {
        return invalid("userId", "Invalid input: expected number, received NaN");
    };
    let Some(i) = s.user_index(id) else { return error(404, "A025", "User not found", path) };
    s.restart_traffic(i);
    let user = s.users[i].clone();
    Reply::json(200, &json!({"response": s.user_json(&user)}))
}

fn revoke(s: &mut State, id: &str, body: Option<&Value>, path: &str) -> Reply {
    let Some(id) = id.parse::<i64>().ok().filter(|n| *n > 0) else {
        return invalid("userId", "Invalid input: expected number, received NaN");
    };
    let wanted = match body.and_then(|b| b.get("shortUuid")) {
        None => None,
        Some(v) => match v.as_str().filter(|t| (16..=64).contains(&t.len())) {
            Some(t) => Some(t.to_owned()),
            None => return invalid("shortUuid", "Too small: expected string to have >=16 characters"),
        },
    };
    let Some(i) = s.user_index(id) else { return error(404, "A025", "User not found", path) };
    let only_passwords = body.and_then(|b| b.get("revokeOnlyPasswords")).and_then(Value::as_bool).unwrap_or(false);
    let short_uuid = if only_passwords {
        s.users[i].short_uuid.clone()
    } else {
        wanted.unwrap_or_else(|| uuid().replace('-', "")[..16].to_owned())
    };
    // A taken shortUuid fails the update's unique index: the generic revoke error.
    if s.users.iter().any(|u| u.id != id && u.short_uuid == short_uuid) {
        return error(500, "A027", "Revoke user subscription error", path);
    }
    let now = OffsetDateTime::now_utc();
    let u = &mut s.users[i];
    u.short_uuid = short_uuid;
    u.vless_uuid = uuid();
    u.sub_revoked_at = Some(now);
    u.updated_at = now;
    let user = s.users[i].clone();
    s.user_event("user.revoked", &user);
    Reply::json(200, &json!({"response": s.user_json(&user)}))
}

/// What a VPN app gets from the subscription link, as Remnawave's subscription service answers
/// with HWID limiting on: an unknown (or revoked) `shortUuid` is a 404; a device the limit
/// refuses, or an app without `x-hwid` under a limit, gets a 200 with an empty body and the
/// `x-hwid-*` headers; a user without access (disabled, expired) gets the panel's placeholder
/// remark instead of server configs; an active user gets its configs.
fn subscription(state: &Mutex<State>, short_uuid: &str, req: &Request) -> Reply {
    let mut s = lock(state);
    s.expire();
    let Some(user) = s.users.iter().find(|u| u.short_uuid == short_uuid).cloned() else {
        return Reply::text(404, "Not found");
    };
    let limit = user.hwid_device_limit.unwrap_or(0);
    let refused = |reason: &str| {
        Reply::text(200, "")
            .with_header("x-hwid-active", "true")
            .with_header("x-hwid-limit", "true")
            .with_header(reason, "true")
    };
    match req.header("x-hwid") {
        None if limit > 0 => return refused("x-hwid-not-supported"),
        None => {}
        Some(hwid) => {
            let known = s.devices.iter().any(|d| d.user_id == user.id && d.hwid == hwid);
            let count = s.devices.iter().filter(|d| d.user_id == user.id).count();
            if !known {
                if limit > 0 && i64::try_from(count).unwrap_or(i64::MAX) >= limit {
                    return refused("x-hwid-max-devices-reached");
                }
                let header = |n: &str| req.header(n).map(str::to_owned);
                let device = Device {
                    user_id: user.id,
                    hwid: hwid.to_owned(),
                    platform: header("x-device-os"),
                    os_version: header("x-ver-os"),
                    device_model: header("x-device-model"),
                    user_agent: header("user-agent"),
                    created_at: OffsetDateTime::now_utc(),
                };
                s.devices.push(device.clone());
                s.device_event("user_hwid_devices.added", &user, &device);
            }
        }
    }
    let links = if user.status == "ACTIVE" {
        format!("vless://{}@emulated.vpn.example:443?security=reality#Emulated", user.vless_uuid)
    } else {
        format!("{NO_ACCESS_CONFIG}#Subscription {}", user.status)
    };
    Reply::text(200, &base64::engine::general_purpose::STANDARD.encode(links)).with_header(
        "subscription-userinfo",
        &format!("upload=0; download=0; total=0; expire={}", user.expire_at.unix_timestamp()),
    )
}

/// The placeholder "server" the panel shows a user without access (its remark says why).
const NO_ACCESS_CONFIG: &str = "vless://00000000-0000-0000-0000-000000000000@0.0.0.0:1";

/// Whether an answer of the subscription link gives the app server configs it can connect to.
pub fn grants_access(answer: &crate::http::Answer) -> bool {
    let decoded = base64::engine::general_purpose::STANDARD.decode(answer.text().trim()).unwrap_or_default();
    let configs = String::from_utf8_lossy(&decoded);
    answer.status == 200 && configs.starts_with("vless://") && !configs.starts_with(NO_ACCESS_CONFIG)
}

/// The directory of the contract check (`package.json`, lock file, `validate.mjs`).
pub fn contract_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../contract/remnawave"))
}

fn exchange_json(e: &Exchange) -> Value {
    json!({"method": e.method, "path": e.path, "query": e.query, "request": e.request, "status": e.status,
        "response": e.response})
}

/// Checks exchanges against the official contract's zod schemas with Node. `Ok` carries the
/// script's summary; `Err` what failed (or why the check could not run).
pub fn check_exchanges(exchanges: &[Exchange]) -> Result<String, String> {
    check_recorded(exchanges.iter().map(exchange_json).collect())
}

/// Checks recorded exchanges and webhook bodies (`{"webhook": body}`) with `validate.mjs`.
fn check_recorded(all: Vec<Value>) -> Result<String, String> {
    let dir = contract_dir();
    if !dir.join("node_modules/@remnawave/backend-contract").is_dir() {
        return Err(format!(
            "the contract package is not installed: run `npm ci --prefix {}` (cargo xtask test does it)",
            dir.display()
        ));
    }
    let n = UUIDS.fetch_add(1, Ordering::Relaxed);
    let file = std::env::temp_dir().join(format!("vp-rw-exchanges-{}-{n}.json", std::process::id()));
    std::fs::write(&file, Value::Array(all).to_string()).map_err(|e| e.to_string())?;
    let out = std::process::Command::new("node")
        .arg(dir.join("validate.mjs"))
        .arg(&file)
        .output()
        .map_err(|e| format!("cannot run node: {e}"));
    let _ = std::fs::remove_file(&file);
    let out = out?;
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if out.status.success() { Ok(text) } else { Err(text) }
}

impl Remnawave {
    /// Checks every exchange and every webhook sent so far against the contract; panics with
    /// the findings.
    pub fn assert_contract(&self) {
        let exchanges = self.exchanges();
        assert!(!exchanges.is_empty(), "no API exchange to check");
        let mut all: Vec<Value> = exchanges.iter().map(exchange_json).collect();
        all.extend(self.webhooks().into_iter().map(|body| json!({"webhook": body})));
        if let Err(findings) = check_recorded(all) {
            panic!(
                "exchanges with the Remnawave emulator break @remnawave/backend-contract {CONTRACT_VERSION}:\n{findings}"
            );
        }
    }
}
