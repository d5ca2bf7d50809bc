//! QR codes drawn on the server as inline SVG: one `<rect>` per dark module on a white field
//! with the four-module quiet zone scanners need. Inline SVG needs no image source in the CSP.

use maud::{Markup, html};
use qrcode::{Color, EcLevel, QrCode};

/// Side of one module in SVG units.
const MODULE: usize = 8;
const QUIET: usize = 4;

/// `None` only for a payload too long for any QR code (longer than the links we make).
pub fn svg(payload: &str, label: &str) -> Option<Markup> {
    let code = QrCode::with_error_correction_level(payload.as_bytes(), EcLevel::M).ok()?;
    let width = code.width();
    let side = (width + 2 * QUIET) * MODULE;
    let dark = code
        .to_colors()
        .into_iter()
        .enumerate()
        .filter(|(_, color)| *color == Color::Dark)
        .map(|(i, _)| ((i % width + QUIET) * MODULE, (i / width + QUIET) * MODULE));
    Some(html! {
        svg.qr xmlns="http://www.w3.org/2000/svg" viewBox={ "0 0 " (side) " " (side) } role="img" aria-label=(label)
            shape-rendering="crispEdges" {
            rect width=(side) height=(side) fill="#fff" {}
            g fill="#000" { @for (x, y) in dark { rect x=(x) y=(y) width=(MODULE) height=(MODULE) {} } }
        }
    })
}
