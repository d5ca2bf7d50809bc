//! The server configurations the subscription link returns: an operator-set list of share
//! links (`vless://...`, `trojan://...`, `ss://...`), one per line.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerList {
    pub servers: Vec<String>,
}

const SCHEMES: [&str; 6] = ["vless://", "vmess://", "trojan://", "ss://", "hysteria2://", "tuic://"];

impl ServerList {
    /// Parses and checks an operator's list: each entry a share link of a known scheme.
    pub fn parse(json: &str) -> Result<ServerList, String> {
        let list: ServerList = serde_json::from_str(json).map_err(|e| format!("servers: {e}"))?;
        if list.servers.is_empty() {
            return Err("servers: at least one server is needed".into());
        }
        for (i, s) in list.servers.iter().enumerate() {
            if !SCHEMES.iter().any(|p| s.starts_with(p)) || s.contains(char::is_whitespace) {
                return Err(format!("servers[{i}]: must be a share link starting with one of {}", SCHEMES.join(", ")));
            }
        }
        Ok(list)
    }

    /// What a fresh installation serves until the operator sets its own servers.
    pub fn demo() -> ServerList {
        ServerList {
            servers: vec![
                "vless://00000000-0000-4000-8000-000000000001@demo-nl.vpn.example:443?security=reality&type=tcp&flow=xtls-rprx-vision#Netherlands".into(),
                "vless://00000000-0000-4000-8000-000000000002@demo-de.vpn.example:443?security=reality&type=tcp&flow=xtls-rprx-vision#Germany".into(),
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_share_links_of_known_schemes_are_accepted() {
        assert!(ServerList::parse(r#"{"servers": ["vless://a@b:443#x", "ss://abc@host:8388"]}"#).is_ok());
        assert!(ServerList::parse(r#"{"servers": []}"#).is_err());
        assert!(ServerList::parse(r#"{"servers": ["http://x"]}"#).is_err());
        assert!(ServerList::parse(r#"{"servers": ["vless://a b"]}"#).is_err());
        assert!(ServerList::parse(r#"{"servers": ["vless://x"], "extra": 1}"#).is_err());
        assert_eq!(ServerList::parse(&serde_json::to_string(&ServerList::demo()).unwrap()), Ok(ServerList::demo()));
    }
}
