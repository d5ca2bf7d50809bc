//! What a new record is stamped with when a use case makes it: the moment and a fresh id.

use std::sync::Arc;

use time::OffsetDateTime;
use vp_ports::{Clock, IdGenerator};

/// The clock and the id generator, together, for the parts that only write new records
/// (activity, events, notices, queued messages).
#[derive(Clone)]
pub(crate) struct Stamp {
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) ids: Arc<dyn IdGenerator>,
}

impl Stamp {
    pub(crate) fn now(&self) -> OffsetDateTime {
        self.clock.now()
    }

    /// A new id with the record's prefix (`msg`, `dlv`, `aud`, ...).
    pub(crate) fn id(&self, prefix: &str) -> String {
        self.ids.new_id(prefix)
    }
}
