//! Reads back the QR codes the pages draw.

/// Draws the page's inline SVG QR code (its `<rect>` modules) and reads it with a QR decoder.
pub fn read_qr(page: &str) -> String {
    let svg = page.split("<svg class=\"qr\"").nth(1).expect("a QR code on the page");
    let svg = svg.split("</svg>").next().unwrap();
    let side: usize = svg.split("viewBox=\"0 0 ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    let mut dark = vec![false; side * side];
    let modules = svg.split("<g fill=\"#000\">").nth(1).unwrap();
    let number = |rect: &str, attr: &str| -> usize {
        rect.split(&format!(" {attr}=\"")).nth(1).unwrap().split('"').next().unwrap().parse().unwrap()
    };
    for rect in modules.split("<rect").skip(1) {
        let (x, y, w, h) = (number(rect, "x"), number(rect, "y"), number(rect, "width"), number(rect, "height"));
        for yy in y..y + h {
            for xx in x..x + w {
                dark[yy * side + xx] = true;
            }
        }
    }
    let mut image =
        rqrr::PreparedImage::prepare_from_greyscale(side, side, |x, y| if dark[y * side + x] { 0 } else { 255 });
    let grids = image.detect_grids();
    assert_eq!(grids.len(), 1, "one QR code");
    grids[0].decode().expect("a readable QR code").1
}

/// Reads the QR code of a PNG image (the bot's photos) with a QR decoder.
pub fn read_qr_png(png_bytes: &[u8]) -> String {
    let mut reader = png::Decoder::new(std::io::Cursor::new(png_bytes)).read_info().expect("a PNG image");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a sane image size")];
    let info = reader.next_frame(&mut pixels).expect("one frame");
    assert_eq!(info.color_type, png::ColorType::Grayscale, "one grey byte per pixel");
    let (w, h) = (info.width as usize, info.height as usize);
    let mut image = rqrr::PreparedImage::prepare_from_greyscale(w, h, |x, y| pixels[y * w + x]);
    let grids = image.detect_grids();
    assert_eq!(grids.len(), 1, "one QR code");
    grids[0].decode().expect("a readable QR code").1
}
