//! The leases on work one process does at a time (the `leases` table), each named once.

/// A lease of the `leases` table: held by one process, renewed while it works, taken over once
/// its holder stops renewing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lease {
    /// Polling bots' updates (when the service has no https address for webhooks).
    BotUpdates,
    /// Sending the customers' reminders.
    Reminders,
    /// Sending the partners' broadcasts.
    Broadcasts,
    /// The hourly check that paid invoices have their access.
    PaidAccess,
    /// Reading the panel's traffic counts for the customers' traffic notices.
    TrafficCheck,
    /// Rebuilding the partners' sales figures (one instance at a time).
    SalesFigures,
}

impl Lease {
    pub const ALL: [Lease; 6] = [
        Lease::BotUpdates,
        Lease::Reminders,
        Lease::Broadcasts,
        Lease::PaidAccess,
        Lease::TrafficCheck,
        Lease::SalesFigures,
    ];

    /// The lease's name as stored (kept from the releases that named them as strings).
    pub const fn name(self) -> &'static str {
        match self {
            Lease::BotUpdates => "telegram-updates",
            Lease::Reminders => "telegram-reminders",
            Lease::Broadcasts => "telegram-broadcasts",
            Lease::PaidAccess => "payments-paid-access",
            Lease::TrafficCheck => "panel-traffic-check",
            Lease::SalesFigures => "sales-figures",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Lease;

    #[test]
    fn no_two_leases_share_a_name() {
        let mut names: Vec<&str> = Lease::ALL.iter().map(|l| l.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Lease::ALL.len());
    }
}
