//! `--scale N`: the same measurements on a PostgreSQL database holding N customers and on one
//! holding only the 10,000 the term check needs, side by side in one run.
//!
//! Seeding copies rows the service itself wrote (`scale/seed.rs`). 1,000 accounts share the
//! customers; each has a device, three paid invoices with their ledger entries and events. The
//! requests use the demo partner, one of the 1,000, made busy: 200,000 more invoices over the
//! last year, its daily sales figures rebuilt for the year, so its overview and its year's
//! export are measured as a busy seller's.
//!
//! Both databases are seeded and served at once, and each request step runs on them in turn,
//! `ROUNDS` times (small, big, then big, small, ...), each round on new `vp-api` processes: a
//! shared machine's speed drifts by more than the difference measured, so a step is timed on
//! both within seconds, and two processes of one build differ by up to a tenth in speed (a step
//! that reads neither database's big tables showed it), so no round's pair of processes
//! decides alone. A step's ratio is the median of its rounds' ratios.
//!
//! Every measured step also reads PostgreSQL's own counters of rows read by sequential scans,
//! so a query that reads a big table without an index shows up by name.

mod report;
mod seed;

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::Options;
use crate::client::{Conn, Reply};
use crate::dispatch::{Receipts, pay_invoices, start_receiver, wait_for};
use crate::load::{self, Load, Request, drive};
use crate::service::{Backend, Database, Service, psql};
use crate::stats;
use seed::{NOW, make_due, seed};

/// Accounts the big database's customers are spread over. The small one has fewer, with as
/// many customers each, so the demo partner's own share is the same in both: only the rest of
/// the database grows.
const ACCOUNTS: usize = 1_000;
/// Invoices (each with a ledger entry and an event) per customer.
const INVOICES_PER_CUSTOMER: usize = 3;
/// Invoices of the demo partner's customers over the last year beyond their three each, on
/// both databases: a busy account (about 550 a day), whose overview reads a year of daily
/// figures and whose year exports as one file.
const BUSY_INVOICES: usize = 200_000;
const BUSY_INVOICES_SHORT: usize = 5_000;
/// The overview's latency target (issue 59): the page with the 90 days' charts, p99.
const OVERVIEW_P99: Duration = Duration::from_millis(50);
/// The export's rate target: rows a second of a year of the busy account's invoices.
const EXPORT_ROWS_PER_SECOND: f64 = 50_000.0;
/// Times each request step runs on each database (once with `--short`).
const ROUNDS: usize = 3;
/// Sequentially read rows in one step above which a table is named, if it holds more than
/// `SMALL_TABLE` rows: a planner reads a small table (the settings) whole by choice, not for
/// want of an index.
const SCAN_REPORTED: i64 = 50_000;
const SMALL_TABLE: i64 = 10_000;

/// What one database showed, besides the request rates.
pub struct Measured {
    pub customers: usize,
    pub seeding: Duration,
    pub bytes_per_customer: f64,
    /// `vp-api jobs` with nothing due, then with each count of `DUE` due.
    pub jobs_idle: Duration,
    pub jobs_due: Vec<(usize, Duration)>,
    pub event_lag_p50: Duration,
    pub event_lag_p99: Duration,
    /// `vp-api sales rebuild` of the busy account's year, right after seeding.
    pub rebuild_year: Duration,
    /// `vp-api export invoices` of the busy account's year: rows written, and the time taken.
    pub export_rows: usize,
    pub export_time: Duration,
    /// (step, table, rows read by sequential scans) above `SCAN_REPORTED`.
    pub scans: Vec<(String, String, i64)>,
    pub errors: u64,
}

/// One request step's rates on both databases, a rate per round.
pub struct Compared {
    pub name: &'static str,
    pub small: Vec<f64>,
    pub big: Vec<f64>,
    /// The big database's p99 latency per round, one request at a time (a partner opening the
    /// page), where the step has a latency target.
    pub big_p99: Vec<Duration>,
    /// The p99 the step must stay within, where the issue sets one.
    pub p99_target: Option<Duration>,
    /// Whether the big database's rate must stay within 90 % of the small one's: not for a
    /// page over every account, which the big database has a hundred times more of.
    pub ratio_target: bool,
}

/// Parses `1m`, `100k` or a plain number.
pub fn parse_count(text: &str) -> Option<usize> {
    let t = text.trim().to_ascii_lowercase();
    let (digits, times) = match t.strip_suffix('m') {
        Some(d) => (d, 1_000_000),
        None => t.strip_suffix('k').map_or((t.as_str(), 1), |d| (d, 1_000)),
    };
    digits.parse::<usize>().ok().and_then(|n| n.checked_mul(times)).filter(|n| *n > 0)
}

/// Due counts the term check is timed with.
fn due_counts(short: bool) -> [usize; 2] {
    if short { [100, 1_000] } else { [1_000, 10_000] }
}

pub async fn run(o: &Options, customers: usize) -> Result<bool, String> {
    let due = due_counts(o.short);
    let per_account = customers.div_ceil(ACCOUNTS);
    let small = due[1].min(customers).div_ceil(per_account) * per_account;
    let mut sides =
        [prepare(o, small, per_account, "scale_small").await?, prepare(o, customers, per_account, "scale_big").await?];
    let compared = requests(o, &mut sides).await?;
    for side in &mut sides {
        export_year(side)?;
        dispatch_and_jobs(o, side).await?;
    }
    let [fresh, grown] = sides;
    Ok(report::print(&compared, &fresh.m, &grown.m, &due))
}

/// One database, seeded, with its service running and the partner's sessions ready.
struct Side {
    service: Service,
    receipts: Arc<Receipts>,
    accounts: usize,
    per_account: usize,
    load: Load,
    /// The cabinet's pages, signed in as the demo partner.
    cabinet: Load,
    /// The operator's view, signed in as an operator.
    operator: Load,
    m: Measured,
}

async fn prepare(o: &Options, customers: usize, per_account: usize, name: &str) -> Result<Side, String> {
    let accounts = customers / per_account;
    let receipts = Arc::new(Receipts::default());
    let receiver = start_receiver(receipts.clone())?;
    let env = [
        ("VP_LOG", "error"),
        ("VP_WEBHOOK_ALLOW_ADDRESSES", "127.0.0.1"),
        // The service's own term check runs at its start only: the bench times its own runs.
        ("VP_TERM_CHECK_SECONDS", "3600"),
    ];
    let service = Service::start(Database::fresh(Backend::Postgres, name)?, &env).await?;
    let hooks = format!("http://127.0.0.1:{receiver}/hooks");
    service.cli(&["endpoint", "add", &service.account, &hooks, "--type", "payment.succeeded"])?;
    let url = service.db.url.clone();

    // The rows to copy: one customer who paid, as the service records them.
    let paid = pay_invoices(&service, 1, 1, "template").await;
    let template = paid.keys().next().ok_or("the template payment did not go through")?.clone();
    if !wait_for(&receipts, 1, 1, Duration::from_secs(30)).await {
        return Err("the template payment's event was not delivered".into());
    }
    let started = Instant::now();
    let busy = if o.short { BUSY_INVOICES_SHORT } else { BUSY_INVOICES };
    seed(&url, &service.account, &template, customers, accounts, busy)?;
    // As autovacuum would leave the tables, without it running while the steps are measured,
    // and with the seeding's pages written out.
    psql(&url, "VACUUM ANALYZE")?;
    psql(&url, "CHECKPOINT")?;
    let seeding = started.elapsed();
    // The daily figures of the busy account's year, as `vp-api sales rebuild` makes them after
    // an upgrade (the jobs keep them since): the overview reads these.
    let started = Instant::now();
    let [from, to] = year(&url)?;
    service.cli(&["sales", "rebuild", &service.account, "--from", &from, "--to", &to])?;
    let rebuild_year = started.elapsed();
    let size: f64 = psql(&url, "SELECT pg_database_size(current_database())")?.parse().map_err(|_| "no size")?;
    println!("\nPostgreSQL, {customers} customers over {accounts} accounts: seeded in {:.1} s", seeding.as_secs_f64());

    let load = Load::partner(o, service.port, &service.key);
    let cabinet = Load { keys: vec![], cookie: Some(cabinet_session(&service).await?), ..load.clone() };
    let operator = Load { keys: vec![], cookie: Some(operator_session(&service).await?), ..load.clone() };
    let m = Measured {
        customers,
        seeding,
        bytes_per_customer: size / customers as f64,
        jobs_idle: Duration::ZERO,
        jobs_due: vec![],
        event_lag_p50: Duration::ZERO,
        event_lag_p99: Duration::ZERO,
        rebuild_year,
        export_rows: 0,
        export_time: Duration::ZERO,
        scans: vec![],
        errors: 0,
    };
    Ok(Side { service, receipts, accounts, per_account, load, cabinet, operator, m })
}

impl Side {
    /// A new `vp-api serve` process, the connections' settings pointed at it.
    async fn restart(&mut self) -> Result<(), String> {
        self.service.restart().await?;
        let port = self.service.port;
        (self.load.port, self.cabinet.port, self.operator.port) = (port, port, port);
        Ok(())
    }
}

/// The request steps, each measured on both databases.
#[derive(Clone, Copy)]
enum Step {
    Account,
    Client,
    List,
    Payments,
    CabinetList,
    CabinetSearch,
    CabinetOverview,
    OperatorSales,
}

impl Step {
    const ALL: [Step; 8] = [
        Step::Account,
        Step::Client,
        Step::List,
        Step::Payments,
        Step::CabinetList,
        Step::CabinetSearch,
        Step::CabinetOverview,
        Step::OperatorSales,
    ];

    /// The request's name in the latency table.
    fn name(self) -> &'static str {
        match self {
            Step::Account => "GET /account",
            Step::Client => "GET /clients/{id}",
            Step::List => "GET /clients",
            Step::Payments => "POST /payments",
            Step::CabinetList => "cabinet client list",
            Step::CabinetSearch => "cabinet search",
            Step::CabinetOverview => "cabinet overview, 90 days",
            Step::OperatorSales => "operator's sales, 90 days",
        }
    }

    /// What the report calls its rate.
    fn label(self) -> &'static str {
        match self {
            Step::Account => "GET /account, requests/s",
            Step::Client => "GET /clients/{id}, requests/s",
            Step::List => "GET /clients (a page of 20), requests/s",
            Step::Payments => "POST /payments, invoices/s",
            Step::CabinetList => "cabinet client list, pages/s",
            Step::CabinetSearch => "cabinet search by client_id, requests/s",
            Step::CabinetOverview => "cabinet overview (90 days' charts), pages/s",
            Step::OperatorSales => "operator's sales (every account, 90 days), pages/s",
        }
    }

    fn p99_target(self) -> Option<Duration> {
        matches!(self, Step::CabinetOverview).then_some(OVERVIEW_P99)
    }

    /// Whether the page's work stays the same as the rest of the database grows (a partner's),
    /// or grows with the accounts (the operator's, over all of them).
    fn per_partner(self) -> bool {
        !matches!(self, Step::OperatorSales)
    }

    /// Whether its p99 is read one request at a time after each round: a target's, or a page
    /// a person opens whose figure the report prints.
    fn timed_alone(self) -> bool {
        self.p99_target().is_some() || !self.per_partner()
    }

    /// The connections' settings and the requests they send on `side`.
    fn on(self, side: &Side) -> (&Load, load::Pick) {
        let name = self.name();
        // The demo partner's customers are every `accounts`-th one.
        let (own, every) = (side.per_account as u64, side.accounts as u64);
        let customer = move |n: u64| format!("scale-{}", (n % own + 1) * every);
        match self {
            Step::Account => (&side.load, get(name, |_| "/api/partner/v1/account".into())),
            Step::Client => (&side.load, get(name, move |n| format!("/api/partner/v1/clients/{}", customer(n)))),
            Step::List => (&side.load, get(name, |_| "/api/partner/v1/clients?limit=20".into())),
            Step::Payments => (
                &side.load,
                Arc::new(move |n| Request {
                    name,
                    method: "POST",
                    path: "/api/partner/v1/payments".into(),
                    body: format!(r#"{{"client_id":"new-{n}","purpose":"subscription","plan_id":1,"method":"card"}}"#)
                        .into_bytes(),
                    key: 0,
                }),
            ),
            Step::CabinetList => (&side.cabinet, get(name, |_| "/cabinet/clients".into())),
            Step::CabinetSearch => {
                (&side.cabinet, get(name, move |n| format!("/cabinet/clients?client_id={}", customer(n))))
            }
            Step::CabinetOverview => (&side.cabinet, get(name, |_| "/cabinet?range=90d".into())),
            Step::OperatorSales => (&side.operator, get(name, |_| "/operator?range=90d".into())),
        }
    }
}

/// Each request step on both databases in turn, `ROUNDS` times, the order swapped each round.
async fn requests(o: &Options, sides: &mut [Side; 2]) -> Result<Vec<Compared>, String> {
    let rounds = if o.short { 1 } else { ROUNDS };
    let mut compared = vec![];
    for (i, step) in Step::ALL.into_iter().enumerate() {
        let before = [scans(&sides[0].service.db.url)?, scans(&sides[1].service.db.url)?];
        let mut rates = [vec![], vec![]];
        let mut big_p99 = vec![];
        for round in 0..rounds {
            for side in sides.iter_mut() {
                side.restart().await?;
            }
            // What a service does once at its start (the term check among it) is done before
            // it is timed.
            tokio::time::sleep(Duration::from_secs(1)).await;
            let order = if round % 2 == 0 { [0, 1] } else { [1, 0] };
            for s in order {
                let side = &mut sides[s];
                let (with, pick) = step.on(side);
                let with = with.clone();
                // Each round numbers its requests apart: new clients and keys, never replays.
                let (mut t, e) = drive(&with, pick.clone(), 20 + (i * rounds + round) as u64).await;
                rates[s].push(load::rate(&t, step.name(), e));
                side.m.errors += load::errors(&t);
                // A latency target is of the page as one person waits for it: at full load on
                // two cores a p99 is the queue of 32 connections, not the page's work.
                if s == 1 && step.timed_alone() {
                    let alone = Load { connections: 1, ..with };
                    let (mut one, _) = drive(&alone, pick.clone(), 200 + (i * rounds + round) as u64).await;
                    side.m.errors += load::errors(&one);
                    big_p99.push(one.get_mut(step.name()).map_or(Duration::ZERO, |l| l.percentile(0.99)));
                }
                let title = format!("PostgreSQL, {} customers, round {}: {}", side.m.customers, round + 1, step.name());
                stats::print(&title, &mut t, e);
            }
        }
        for (side, before) in sides.iter_mut().zip(&before) {
            note_scans(&side.service.db.url, before, step.name(), &mut side.m.scans)?;
        }
        let [small, big] = rates;
        let (p99_target, ratio_target) = (step.p99_target(), step.per_partner());
        compared.push(Compared { name: step.label(), small, big, big_p99, p99_target, ratio_target });
    }
    Ok(compared)
}

/// Event dispatch and the term check on one database.
async fn dispatch_and_jobs(o: &Options, side: &mut Side) -> Result<(), String> {
    let (service, m) = (&side.service, &mut side.m);
    let url = &service.db.url;
    // Event dispatch: payments made one after another over 8 connections, each timed to its
    // payment.succeeded at the partner's endpoint.
    let before = scans(url)?;
    let count = if o.short { 50 } else { 500 };
    let paid = pay_invoices(service, count, 8, "lag").await;
    if !wait_for(&side.receipts, 1, paid.len() + 1, Duration::from_secs(60)).await {
        return Err("not every payment.succeeded arrived within a minute".into());
    }
    note_scans(url, &before, "dispatch", &mut m.scans)?;
    let mut lags = side.receipts.lags(&paid);
    m.event_lag_p50 = lags.percentile(0.50);
    m.event_lag_p99 = lags.percentile(0.99);

    // The term check (with the rest of `vp-api jobs`): nothing due, then each count due.
    let before = scans(url)?;
    m.jobs_idle = timed_jobs(service)?;
    note_scans(url, &before, "jobs, nothing due", &mut m.scans)?;
    for due in due_counts(o.short) {
        let due = due.min(m.customers);
        make_due(url, due, m.customers, side.accounts, side.per_account)?;
        let before = scans(url)?;
        m.jobs_due.push((due, timed_jobs(service)?));
        note_scans(url, &before, &format!("jobs, {due} due"), &mut m.scans)?;
        let left = psql(url, &format!("SELECT count(*) FROM subscriptions WHERE next_check_at <= {NOW}"))?;
        if left != "0" {
            return Err(format!("{left} subscriptions still due after the term check"));
        }
    }
    Ok(())
}

/// The first and last day of the last year (a day past today in UTC, so the account's zone's
/// today is in), as `vp-api sales` and `vp-api export` take them.
fn year(url: &str) -> Result<[String; 2], String> {
    let days = psql(
        url,
        "SELECT to_char(current_date - 364, 'YYYY-MM-DD') || ' ' || to_char(current_date + 1, 'YYYY-MM-DD')",
    )?;
    match days.split(' ').collect::<Vec<_>>()[..] {
        [from, to] => Ok([from.to_owned(), to.to_owned()]),
        _ => Err(format!("not two days: {days}")),
    }
}

/// A year of the busy account's invoices as one CSV file, as `vp-api export` writes it.
fn export_year(side: &mut Side) -> Result<(), String> {
    let (service, m) = (&side.service, &mut side.m);
    let [from, to] = year(&service.db.url)?;
    let before = scans(&service.db.url)?;
    let started = Instant::now();
    let csv = service.cli_output(&["export", "invoices", &service.account, "--from", &from, "--to", &to])?;
    m.export_time = started.elapsed();
    // A row a line: no invoice's cell holds a line break, and the header is not a row.
    m.export_rows = csv.iter().filter(|b| **b == b'\n').count().saturating_sub(1);
    note_scans(&service.db.url, &before, "export of a year", &mut m.scans)
}

/// A cabinet session of the demo partner: invited by the operator, the password set on the
/// invitation's page; returns the `Cookie` value the service set.
async fn cabinet_session(service: &Service) -> Result<String, String> {
    let invited = service.cli(&["cabinet", "invite", &service.account, "--email", "bench@partner.example"])?;
    session_through(service, &invited, "/cabinet/welcome/").await
}

/// An operator's session for the operator's view, made the same way.
async fn operator_session(service: &Service) -> Result<String, String> {
    let invited = service.cli(&["operator", "invite", "bench@operator.example"])?;
    session_through(service, &invited, "/operator/welcome/").await
}

/// Sets the password on the page of an invitation (`vp-api ... invite`'s output) whose path
/// starts with `welcome`; returns the session's `Cookie` value.
async fn session_through(service: &Service, invited: &serde_json::Value, welcome: &str) -> Result<String, String> {
    let link = invited["link"].as_str().ok_or("no invitation link")?;
    let path = &link[link.find(welcome).ok_or("not a welcome link")?..];
    let mut conn = Conn::open(service.port).await.map_err(|e| e.to_string())?;
    let page = conn.send("GET", path, &[("accept", "text/html")], b"").await.map_err(|e| e.to_string())?;
    let html = String::from_utf8_lossy(&page.body);
    // Form tokens are URL-safe (the cabinet's `form_token`), so the form carries it as it is.
    let token = html
        .split("name=\"form_token\" value=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .ok_or("no form_token on the welcome page")?;
    let form = format!("form_token={token}&password=bench+password+long+enough&confirm=bench+password+long+enough");
    let cookie = cookies(&page);
    let headers = [("content-type", "application/x-www-form-urlencoded"), ("cookie", cookie.as_str())];
    let signed_in = conn.send("POST", path, &headers, form.as_bytes()).await.map_err(|e| e.to_string())?;
    if signed_in.status != 303 {
        return Err(format!("setting the password at {welcome} answered {}", signed_in.status));
    }
    Ok(cookies(&signed_in))
}

/// The `name=value` pairs a reply sets, as one `Cookie` value.
fn cookies(reply: &Reply) -> String {
    reply.headers("set-cookie").filter_map(|c| c.split(';').next()).collect::<Vec<_>>().join("; ")
}

fn get(name: &'static str, path: impl Fn(u64) -> String + Send + Sync + 'static) -> load::Pick {
    Arc::new(move |n| Request { name, method: "GET", path: path(n), body: vec![], key: 0 })
}

fn timed_jobs(service: &Service) -> Result<Duration, String> {
    let started = Instant::now();
    service.cli(&["jobs"])?;
    Ok(started.elapsed())
}

/// Per table: rows read by sequential scans so far, and rows it holds.
type Counters = Vec<(String, i64, i64)>;

fn scans(url: &str) -> Result<Counters, String> {
    // The statistics collector reports what a session did when it ends or goes idle.
    std::thread::sleep(Duration::from_millis(1_500));
    let text =
        psql(url, "SELECT relname || ' ' || coalesce(seq_tup_read, 0) || ' ' || n_live_tup FROM pg_stat_user_tables")?;
    Ok(text
        .lines()
        .filter_map(|l| match l.split(' ').collect::<Vec<_>>()[..] {
            [table, read, rows] => Some((table.to_owned(), read.parse().ok()?, rows.parse().ok()?)),
            _ => None,
        })
        .collect())
}

fn note_scans(url: &str, before: &Counters, step: &str, found: &mut Vec<(String, String, i64)>) -> Result<(), String> {
    for (table, now, rows) in scans(url)? {
        let was = before.iter().find(|(t, _, _)| *t == table).map_or(0, |(_, n, _)| *n);
        if now - was > SCAN_REPORTED && rows > SMALL_TABLE {
            found.push((step.to_owned(), table, now - was));
        }
    }
    Ok(())
}
