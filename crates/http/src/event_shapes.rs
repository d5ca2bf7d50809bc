//! Event data in the partner API's own shapes: `payment.succeeded` carries exactly what
//! `GET /payments/{id}` returns, the term events what `GET /clients/{id}` returns.

use serde_json::Value;
use vp_app::events::EventRenderer;
use vp_app::views::{ClientView, InvoiceView};

use crate::dto;

#[derive(Debug, Default, Clone, Copy)]
pub struct ApiShapes;

fn to_value(value: impl serde::Serialize) -> Value {
    // These DTOs hold only strings, numbers, booleans and options: serialising cannot fail.
    serde_json::to_value(value).unwrap_or(Value::Null)
}

impl EventRenderer for ApiShapes {
    fn payment(&self, view: InvoiceView) -> Value {
        to_value(dto::Payment::from(view))
    }

    fn client(&self, view: ClientView) -> Value {
        to_value(dto::Client::from(view))
    }
}
