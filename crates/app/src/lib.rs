//! Use cases of the platform. Adapters (HTTP, CLI) call these; these call the ports. No
//! business rule lives in an adapter: the rules come from `vp_domain`, the orchestration is here.

pub mod catalogue;
pub mod demo;
pub mod error;
pub mod keys;
pub mod operator;
pub mod system;

use std::sync::Arc;

use vp_ports::{Clock, IdGenerator, Store};

pub use error::{AppError, AppResult, FieldErrors};

/// Everything the use cases need from outside, wired once by the binary.
#[derive(Clone)]
pub struct App {
    pub store: Arc<dyn Store>,
    pub clock: Arc<dyn Clock>,
    pub ids: Arc<dyn IdGenerator>,
}

impl App {
    pub fn new(store: Arc<dyn Store>, clock: Arc<dyn Clock>, ids: Arc<dyn IdGenerator>) -> App {
        App { store, clock, ids }
    }
}
