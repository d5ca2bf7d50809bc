//! The QR code of a connect link as a PNG image, for the partner's bot (Telegram shows photos,
//! not SVG): the same code the connect page draws (error correction M, a four-module quiet
//! zone), black on white, one grey byte per pixel.

use qrcode::{Color, EcLevel, QrCode};

/// Pixels per module: a 37-module code comes out at 360 pixels, sharp on any phone.
const SCALE: usize = 8;
const QUIET: usize = 4;

/// `None` only for a payload too long for any QR code (longer than the links we make).
pub fn qr_png(payload: &str) -> Option<Vec<u8>> {
    let code = QrCode::with_error_correction_level(payload.as_bytes(), EcLevel::M).ok()?;
    let width = code.width();
    let colors = code.to_colors();
    let side = (width + 2 * QUIET) * SCALE;
    let mut pixels = vec![255u8; side * side];
    for (i, color) in colors.iter().enumerate() {
        if *color != Color::Dark {
            continue;
        }
        let (x0, y0) = ((i % width + QUIET) * SCALE, (i / width + QUIET) * SCALE);
        for y in y0..y0 + SCALE {
            pixels[y * side + x0..y * side + x0 + SCALE].fill(0);
        }
    }
    let side_px = u32::try_from(side).ok()?;
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, side_px, side_px);
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().ok()?;
    writer.write_image_data(&pixels).ok()?;
    writer.finish().ok()?;
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::qr_png;

    /// Reads a PNG made by `qr_png` back and decodes its QR code.
    pub(crate) fn decode(png_bytes: &[u8]) -> String {
        let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
        let mut reader = decoder.read_info().unwrap();
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut pixels).unwrap();
        let (w, h) = (info.width as usize, info.height as usize);
        let mut image = rqrr::PreparedImage::prepare_from_greyscale(w, h, |x, y| pixels[y * w + x]);
        let grids = image.detect_grids();
        assert_eq!(grids.len(), 1, "one QR code in the image");
        grids[0].decode().unwrap().1
    }

    #[test]
    fn the_png_is_a_qr_code_that_reads_back_as_its_payload() {
        let payload = "https://vpn.example/connect/AbCdEf0123456789_-xyz/hiddify";
        let png = qr_png(payload).unwrap();
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
        assert_eq!(decode(&png), payload);
    }

    #[test]
    fn a_payload_no_qr_code_can_hold_gives_none() {
        assert_eq!(qr_png(&"x".repeat(8000)), None);
    }
}
