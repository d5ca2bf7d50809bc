//! Wakes the event dispatcher the moment deliveries are recorded. On SQLite (one process
//! writes) when the recording transaction commits; on PostgreSQL in every process on the
//! database, this one included, through `LISTEN`/`NOTIFY`: a notification sent inside a
//! transaction is delivered at its commit, and not at all on rollback. The channel is named
//! after the schema, so deployments (and tests) sharing a database do not wake each other.
//! Waiting always has a limit, so polling remains the fallback.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};
use futures_util::StreamExt;
use tokio::sync::Notify;
use tokio::task::JoinHandle;

/// Sent by a PostgreSQL transaction that recorded deliveries, before its commit.
pub(crate) const NOTIFY_DELIVERIES: &str = "SELECT pg_notify('vp_deliveries_' || current_schema(), '')";
/// A lost listening connection is opened again after this pause.
const RECONNECT_AFTER: Duration = Duration::from_secs(5);

pub(crate) struct DeliverySignal {
    notify: Arc<Notify>,
    /// The database to listen on, for PostgreSQL.
    postgres_url: Option<String>,
    listener: Mutex<Option<JoinHandle<()>>>,
}

impl DeliverySignal {
    pub(crate) fn new(postgres_url: Option<String>) -> DeliverySignal {
        DeliverySignal { notify: Arc::default(), postgres_url, listener: Mutex::new(None) }
    }

    /// Deliveries were committed in this process (SQLite; PostgreSQL hears its own `NOTIFY`).
    pub(crate) fn wake(&self) {
        if self.postgres_url.is_none() {
            self.notify.notify_one();
        }
    }

    /// Returns when deliveries were recorded since the last wait (here or, on PostgreSQL, in
    /// another process), or after `max`.
    pub(crate) async fn wait(&self, max: Duration) {
        self.ensure_listener();
        let _ = tokio::time::timeout(max, self.notify.notified()).await;
    }

    fn ensure_listener(&self) {
        let Some(url) = &self.postgres_url else { return };
        let mut listener = self.listener.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if listener.as_ref().is_none_or(JoinHandle::is_finished) {
            *listener = Some(tokio::spawn(listen(url.clone(), self.notify.clone())));
        }
    }
}

impl Drop for DeliverySignal {
    fn drop(&mut self) {
        if let Some(task) = self.listener.lock().ok().and_then(|mut l| l.take()) {
            task.abort();
        }
    }
}

/// Holds one connection listening on the channel for the life of the process.
async fn listen(url: String, notify: Arc<Notify>) {
    loop {
        match AsyncPgConnection::establish(&url).await {
            Ok(mut conn) => match start_listening(&mut conn).await {
                Ok(()) => {
                    let mut notifications = std::pin::pin!(conn.notifications_stream());
                    while let Some(received) = notifications.next().await {
                        if let Err(e) = received {
                            tracing::warn!(error = %e, "the delivery listener lost its connection");
                            break;
                        }
                        notify.notify_one();
                    }
                }
                Err(e) => tracing::warn!(error = %e, "cannot listen for new deliveries"),
            },
            Err(e) => tracing::warn!(error = %e, "cannot open the delivery listener's connection"),
        }
        // Something may have been recorded while the listener was away.
        notify.notify_one();
        tokio::time::sleep(RECONNECT_AFTER).await;
    }
}

/// `LISTEN` on this schema's channel.
async fn start_listening(conn: &mut AsyncPgConnection) -> diesel::QueryResult<()> {
    use diesel_async::RunQueryDsl;
    let schema: String =
        diesel::select(diesel::dsl::sql::<diesel::sql_types::Text>("current_schema()")).get_result(conn).await?;
    let channel = format!("vp_deliveries_{schema}").replace('"', "\"\"");
    conn.batch_execute(&format!("LISTEN \"{channel}\"")).await
}
