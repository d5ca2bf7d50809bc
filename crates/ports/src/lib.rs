//! Ports: the traits the core needs from the outside world. Adapters implement them; the app
//! layer calls them. Only domain types and plain records cross these boundaries.

pub mod clock;
pub mod ids;
pub mod records;
pub mod store;

pub use clock::Clock;
pub use ids::IdGenerator;
pub use records::*;
pub use store::{Store, StoreError, Tx};
