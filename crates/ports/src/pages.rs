//! The service's own pages that the core and the adapters link to: each page's route and the
//! one function that builds its address, side by side, so a link and the route it leads to
//! cannot drift apart. The web adapter registers its routes with these patterns.

/// `GET` route of the connect page: the subscription behind a link token and the
/// applications to open it in.
pub const CONNECT_ROUTE: &str = "/connect/{token}";
/// `GET` route of one application's connect page (the QR code's and the button's target).
pub const CONNECT_APP_ROUTE: &str = "/connect/{token}/{app_id}";

/// The connect page of `link_token` (of one application with `app_id`), under the service's
/// public address; every part is URL-encoded.
pub fn connect_page_url(public_base_url: &str, link_token: &str, app_id: Option<&str>) -> String {
    match app_id {
        Some(app_id) => format!("{public_base_url}/connect/{}/{}", url_encode(link_token), url_encode(app_id)),
        None => format!("{public_base_url}/connect/{}", url_encode(link_token)),
    }
}

/// The path of an account's web shop under the public address, followed by its slug.
pub const SHOP_PATH: &str = "/shop/";
/// The path of a gift's page under its shop's (`/shop/{slug}/gift/{code}`).
pub const GIFT_PATH: &str = "/gift/";

/// The address of the shop with `slug` under the public address.
pub fn shop_url(public_base_url: &str, slug: &str) -> String {
    format!("{public_base_url}{SHOP_PATH}{slug}")
}

/// The page of the gift with `code` in the shop with `slug` (a slug and a code are URL-safe).
pub fn gift_page_url(public_base_url: &str, slug: &str, code: &str) -> String {
    format!("{}{GIFT_PATH}{code}", shop_url(public_base_url, slug))
}

/// Percent-encodes everything outside RFC 3986's unreserved set.
pub fn url_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 3);
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_connect_page_of_a_token_and_of_one_app_with_every_part_url_encoded() {
        assert_eq!(connect_page_url("https://vpn.example", "t0k3n", None), "https://vpn.example/connect/t0k3n");
        assert_eq!(
            connect_page_url("https://vpn.example", "a/b c", Some("happ")),
            "https://vpn.example/connect/a%2Fb%20c/happ"
        );
        assert_eq!(
            CONNECT_ROUTE.replace("{token}", "t0k3n"),
            connect_page_url("", "t0k3n", None),
            "the address is the route's"
        );
        assert_eq!(
            CONNECT_APP_ROUTE.replace("{token}", "t").replace("{app_id}", "a"),
            connect_page_url("", "t", Some("a"))
        );
    }
}
