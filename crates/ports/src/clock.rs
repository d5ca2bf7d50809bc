use time::OffsetDateTime;

/// The only source of "now" for business code, so tests (and the operator's shifted clock) can
/// move time.
pub trait Clock: Send + Sync {
    fn now(&self) -> OffsetDateTime;
}
