//! Who a request came from behind the reverse proxies the operator trusts
//! (`VP_TRUSTED_PROXIES`): for YooKassa's notifications, the cabinet's sign-in lockout per
//! address, and every other check per source. One value every driving adapter reads it with.

use std::net::IpAddr;

use ipnet::IpNet;

/// The reverse proxies whose `X-Forwarded-For` names the client.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TrustedProxies(pub Vec<IpNet>);

impl TrustedProxies {
    fn trusted(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|n| n.contains(&ip))
    }

    /// The client: the peer, unless the peer is a trusted proxy; then the last address in
    /// `X-Forwarded-For` that is not itself a trusted proxy. An unreadable entry stops the
    /// walk at the proxy that added it.
    pub fn client_ip(&self, peer: IpAddr, forwarded_for: Option<&str>) -> IpAddr {
        if !self.trusted(peer) {
            return peer;
        }
        let mut client = peer;
        for hop in forwarded_for.unwrap_or_default().rsplit(',').map(str::trim) {
            match hop.parse::<IpAddr>() {
                Ok(ip) => {
                    client = ip;
                    if !self.trusted(ip) {
                        break;
                    }
                }
                Err(_) => break,
            }
        }
        client
    }

    /// The client's address as every check per source keys it (`unknown` without a peer).
    pub fn client_address(&self, peer: Option<IpAddr>, forwarded_for: Option<&str>) -> String {
        peer.map_or_else(|| "unknown".to_owned(), |peer| self.client_ip(peer, forwarded_for).to_string())
    }
}

/// Parses a comma-separated list of IPs and CIDRs (`VP_TRUSTED_PROXIES`,
/// `VP_YOOKASSA_NOTIFY_FROM`).
pub fn parse_ip_list(text: &str) -> Result<Vec<IpNet>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<IpNet>()
                .or_else(|_| s.parse::<IpAddr>().map(IpNet::from))
                .map_err(|_| format!("{s:?} is not an IP address or a CIDR range like 185.71.76.0/27"))
        })
        .collect()
}
