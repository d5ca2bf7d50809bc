//! The import phase: `count` users of an existing Remnawave panel (the emulator, seeded as a
//! shop bot leaves it: every other user with a Telegram id, each with a device limit) adopted
//! into the demo account by `vp-api import remnawave`, timed from the command's start to its
//! report. A second run must adopt nothing (it is timed too: the cost of checking).

use std::time::{Duration, Instant};

use vp_testkit::remnawave::{ExistingUser, Remnawave};

use crate::service::{Backend, Database, cli};

const TOKEN: &str = "bench-remnawave-token";

pub struct ImportRun {
    pub users: usize,
    pub imported: usize,
    pub bot_customers: usize,
    pub total: Duration,
    /// The second run: how many it adopted (must be 0) and how long it took.
    pub again_imported: usize,
    pub again_total: Duration,
}

impl ImportRun {
    pub fn per_second(&self) -> f64 {
        self.imported as f64 / self.total.as_secs_f64().max(0.001)
    }
}

pub fn run(backend: Backend, count: usize) -> Result<ImportRun, String> {
    let rw = Remnawave::start(TOKEN);
    // Pages of a thousand users would keep gigabytes of exchanges for a check the tests make.
    rw.stop_recording();
    let seeding = Instant::now();
    for n in 0..count {
        let telegram_id = (n % 2 == 0).then(|| 100_000_000 + i64::try_from(n).unwrap_or(0));
        rw.seed_user(ExistingUser {
            username: format!("shop_user_{n:07}"),
            hwid_device_limit: Some(3),
            telegram_id,
            ..ExistingUser::default()
        });
    }
    println!(
        "\n{}: {count} panel users seeded in the emulator in {:.1} s",
        backend.name(),
        seeding.elapsed().as_secs_f64()
    );
    let db = Database::fresh(backend, "import")?;
    let env: Vec<(String, String)> = [
        ("VP_PANEL", "remnawave".to_owned()),
        ("VP_REMNAWAVE_URL", rw.url()),
        ("VP_REMNAWAVE_TOKEN", TOKEN.to_owned()),
        ("VP_REMNAWAVE_SUB_URL", rw.sub_url()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    let demo = cli(&db.url, &env, &["demo"])?;
    let account = demo["account"]["account_id"].as_str().ok_or("no demo account")?.to_owned();
    let import = || -> Result<(serde_json::Value, Duration), String> {
        let started = Instant::now();
        let report = cli(&db.url, &env, &["import", "remnawave", &account])?;
        Ok((report, started.elapsed()))
    };
    let (first, total) = import()?;
    let (second, again_total) = import()?;
    let number = |v: &serde_json::Value, field: &str| v[field].as_u64().map_or(0, |n| n as usize);
    Ok(ImportRun {
        users: count,
        imported: number(&first, "imported"),
        bot_customers: number(&first, "bot_customers"),
        total,
        again_imported: number(&second, "imported"),
        again_total,
    })
}
