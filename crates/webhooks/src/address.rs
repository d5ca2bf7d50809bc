//! Which addresses an event may go to (spec: Events, Subscription addresses: "only `https://`
//! on port 443 with a publicly reachable address"). The test is an allow-list of the global
//! unicast space minus the IANA special-purpose blocks; IPv6 forms that embed an IPv4 address
//! (IPv4-mapped, NAT64, 6to4) are judged by the address they embed. std's `is_global` is still
//! unstable and the small crates that copy it miss the embedded forms, hence this table.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// IPv4 blocks that are not publicly reachable: (network, prefix length).
const V4_NOT_PUBLIC: [(Ipv4Addr, u8); 15] = [
    (Ipv4Addr::new(0, 0, 0, 0), 8),       // "this network"
    (Ipv4Addr::new(10, 0, 0, 0), 8),      // private
    (Ipv4Addr::new(100, 64, 0, 0), 10),   // CGNAT shared space
    (Ipv4Addr::new(127, 0, 0, 0), 8),     // loopback
    (Ipv4Addr::new(169, 254, 0, 0), 16),  // link-local
    (Ipv4Addr::new(172, 16, 0, 0), 12),   // private
    (Ipv4Addr::new(192, 0, 0, 0), 24),    // IETF protocol assignments
    (Ipv4Addr::new(192, 0, 2, 0), 24),    // documentation
    (Ipv4Addr::new(192, 88, 99, 0), 24),  // 6to4 relay anycast
    (Ipv4Addr::new(192, 168, 0, 0), 16),  // private
    (Ipv4Addr::new(198, 18, 0, 0), 15),   // benchmarking
    (Ipv4Addr::new(198, 51, 100, 0), 24), // documentation
    (Ipv4Addr::new(203, 0, 113, 0), 24),  // documentation
    (Ipv4Addr::new(224, 0, 0, 0), 4),     // multicast
    (Ipv4Addr::new(240, 0, 0, 0), 4),     // reserved and broadcast
];

/// IPv6 blocks inside 2000::/3 that are not publicly reachable.
const V6_NOT_PUBLIC: [(Ipv6Addr, u8); 3] = [
    (Ipv6Addr::new(0x2001, 0, 0, 0, 0, 0, 0, 0), 23), // IETF protocol assignments, Teredo
    (Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 0), 32), // documentation
    (Ipv6Addr::new(0x3fff, 0, 0, 0, 0, 0, 0, 0), 20), // documentation (RFC 9637)
];

const NAT64: Ipv6Addr = Ipv6Addr::new(0x64, 0xff9b, 0, 0, 0, 0, 0, 0);

fn v4_in(ip: Ipv4Addr, (net, len): (Ipv4Addr, u8)) -> bool {
    let mask = u32::MAX.checked_shl(32 - u32::from(len)).unwrap_or(0);
    u32::from(ip) & mask == u32::from(net) & mask
}

fn v6_in(ip: Ipv6Addr, (net, len): (Ipv6Addr, u8)) -> bool {
    let mask = u128::MAX.checked_shl(128 - u32::from(len)).unwrap_or(0);
    u128::from(ip) & mask == u128::from(net) & mask
}

fn v4_is_public(ip: Ipv4Addr) -> bool {
    !V4_NOT_PUBLIC.iter().any(|block| v4_in(ip, *block))
}

fn v6_is_public(ip: Ipv6Addr) -> bool {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return v4_is_public(v4);
    }
    if v6_in(ip, (NAT64, 96)) {
        let bits = u128::from(ip) as u32;
        return v4_is_public(Ipv4Addr::from(bits));
    }
    if v6_in(ip, (Ipv6Addr::new(0x2002, 0, 0, 0, 0, 0, 0, 0), 16)) {
        let bits = (u128::from(ip) >> 80) as u32;
        return v4_is_public(Ipv4Addr::from(bits));
    }
    // Global unicast is 2000::/3; everything else (loopback, unique-local, link-local,
    // multicast, IPv4-compatible, discard, local NAT64) is not reachable from the internet.
    v6_in(ip, (Ipv6Addr::new(0x2000, 0, 0, 0, 0, 0, 0, 0), 3)) && !V6_NOT_PUBLIC.iter().any(|block| v6_in(ip, *block))
}

/// Whether an event may be sent to this address.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4_is_public(v4),
        IpAddr::V6(v6) => v6_is_public(v6),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn public(text: &str) -> bool {
        is_public(text.parse().unwrap())
    }

    #[test]
    fn ordinary_internet_addresses_are_public() {
        for a in [
            "1.1.1.1",
            "8.8.8.8",
            "93.184.216.34",
            "100.63.255.255",
            "100.128.0.0",
            "172.32.0.1",
            "2606:4700::1111",
            "2a00:1450:4001::200e",
            "192.0.3.1",
        ] {
            assert!(public(a), "{a}");
        }
    }

    #[test]
    fn loopback_private_link_local_cgnat_multicast_and_documentation_are_refused() {
        for a in [
            "127.0.0.1",
            "127.255.0.9",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "100.127.255.254",
            "224.0.0.1",
            "239.255.255.250",
            "192.0.2.10",
            "198.51.100.7",
            "203.0.113.99",
            "0.0.0.0",
            "255.255.255.255",
            "240.0.0.1",
            "198.18.0.1",
            "192.0.0.8",
            "::1",
            "::",
            "fe80::1",
            "fc00::1",
            "fd12:3456::1",
            "ff02::1",
            "2001:db8::1",
            "3fff::1",
            "2001::1",
            "::127.0.0.1",
            "100::1",
            "64:ff9b:1::a00:1",
        ] {
            assert!(!public(a), "{a}");
        }
    }

    #[test]
    fn ipv6_forms_of_ipv4_addresses_are_judged_by_the_ipv4_they_carry() {
        assert!(!public("::ffff:127.0.0.1"), "IPv4-mapped loopback");
        assert!(!public("::ffff:10.0.0.1"), "IPv4-mapped private");
        assert!(public("::ffff:8.8.8.8"));
        assert!(!public("64:ff9b::192.168.0.1"), "NAT64 of a private address");
        assert!(!public("64:ff9b::7f00:1"), "NAT64 of loopback");
        assert!(public("64:ff9b::808:808"));
        assert!(!public("2002:7f00:1::1"), "6to4 of loopback");
        assert!(!public("2002:a9fe:a9fe::1"), "6to4 of the metadata address");
        assert!(public("2002:808:808::1"));
    }
}
